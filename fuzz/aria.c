/* fuzz/aria.c — the ARIA family: RFC 5794 block cipher, ECB and CTR.
 *
 * Property: for every key size and key, every block count (weighted at the kernels' parallel
 * widths 16/32/64 and ±1), every counter (biased to just below the 2^32, 2^64 and 2^128 wraps),
 * in place and out of place, each kernel's ECB encryption and decryption and its CTR output and
 * final counter equal the plain C reference's (reference/aria.c); CTR continued across several
 * calls (split points from the input) equals one call; the kernel decrypts its own ciphertext;
 * OpenSSL (and libgcrypt from 1.11) agree with the reference.  Kernels promise no key-derived
 * data left in zmm/ymm/xmm, opmask registers or on the stack.  The round keys sit in a buffer
 * of exactly (rounds + 1) * 16 bytes.
 */
#include <string.h>

#include "asmdiff-config.h"
#include "cpu.h"
#include "driver.h"
#include "report.h"
#include "rng.h"
#include "vectors.h"
#include "reference/aria.h"
#include "reference/oracles/aria_oracles.h"
#if ASMDIFF_HAVE_GCRYPT
#include "reference/oracles/gcrypt_init.h"
#endif
#if ARCH_X86_64
#include "kernels/aria/aria.h"
#endif

#define MAX_BLOCKS 520 /* > 8 passes of the widest kernel, tails of every width */
#define MAX_SPLITS 3

/* Kernels take round keys (ours: the reference's schedule); libraries and the reference take
 * the raw key. */
typedef void (*ecb_fn)(const uint8_t *rk, unsigned int rounds, uint8_t *out, const uint8_t *in,
                       size_t nblocks);
typedef void (*ctr_fn)(const uint8_t *rk, unsigned int rounds, uint8_t *out, const uint8_t *in,
                       size_t nblocks, uint8_t ctr[16]);
typedef int (*lib_ecb_fn)(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out,
                          const uint8_t *in, size_t nblocks);
typedef int (*lib_ctr_fn)(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                          size_t nblocks, uint8_t ctr[16]);
struct kernel_ops {
    ecb_fn ecb;
    ctr_fn ctr;
};
struct lib_ops {
    lib_ecb_fn ecb;
    lib_ctr_fn ctr;
};

static int ref_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                   size_t nblocks)
{
    struct aria_key k;
    if (encrypt ? aria_set_encrypt_key(&k, key, keylen) : aria_set_decrypt_key(&k, key, keylen))
        return -1;
    aria_ecb(&k, out, in, nblocks);
    return 0;
}

static int ref_ctr(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                   size_t nblocks, uint8_t ctr[16])
{
    struct aria_key k;
    if (aria_set_encrypt_key(&k, key, keylen)) return -1;
    aria_ctr(&k, out, in, nblocks, ctr);
    return 0;
}

static const struct lib_ops reference = {ref_ecb, ref_ctr};
#if ARCH_X86_64
static const struct kernel_ops avx512_xor = {aria_ecb_avx512_gfni_xor, aria_ctr_avx512_gfni_xor};
static const struct kernel_ops avx512_ternlog = {aria_ecb_avx512_gfni_ternlog,
                                                 aria_ctr_avx512_gfni_ternlog};
static const struct kernel_ops avx2 = {aria_ecb_avx2_gfni, aria_ctr_avx2_gfni};
#define NEEDS_AVX512_GFNI (CPU_AVX512F | CPU_AVX512BW | CPU_AVX512VL | CPU_GFNI)
#endif
#if ASMDIFF_HAVE_OPENSSL
static const struct lib_ops openssl = {oracle_openssl_aria_ecb, oracle_openssl_aria_ctr};
#endif
#if ASMDIFF_HAVE_GCRYPT
static const struct lib_ops gcrypt = {oracle_gcrypt_aria_ecb, oracle_gcrypt_aria_ctr};
#endif

static const struct impl impls[] = {
    IMPL("c-reference", 0, IMPL_REFERENCE, &reference),
#if ARCH_X86_64
    IMPL("x86_64-avx512-gfni-xor", NEEDS_AVX512_GFNI, IMPL_KERNEL | IMPL_CLEAN, &avx512_xor),
    IMPL("x86_64-avx512-gfni-ternlog", NEEDS_AVX512_GFNI, IMPL_KERNEL | IMPL_CLEAN, &avx512_ternlog),
    IMPL("x86_64-avx2-gfni", CPU_AVX2 | CPU_GFNI, IMPL_KERNEL | IMPL_CLEAN, &avx2),
#endif
#if ASMDIFF_HAVE_OPENSSL
    IMPL("openssl", 0, IMPL_LIBRARY, &openssl, .describe = oracle_openssl_aria_describe),
#endif
#if ASMDIFF_HAVE_GCRYPT
    IMPL("libgcrypt", 0, IMPL_LIBRARY, &gcrypt, .unavailable = oracle_gcrypt_aria_unavailable,
     .describe = oracle_gcrypt_describe, .label = oracle_gcrypt_label),
#endif
};

enum { B_KEY, B_IN, B_OUT, B_CTR };
static const struct buf_spec bufs[] = {
    {"key", 1, BUF_SECRET}, {"input", 1, BUF_SECRET}, {"output", 1, 0}, {"counter", 1, 0}};

enum op { OP_ECB_ENC, OP_ECB_DEC, OP_CTR, OP_COUNT };
static const char *const op_names[] = {"ecb-encrypt", "ecb-decrypt", "ctr"};

static struct aria_case {
    size_t keylen, nblocks;
    uint8_t key[32], ctr[16];
    uint8_t in[16 * MAX_BLOCKS];
    int in_place;
    size_t nsplits, split[MAX_SPLITS]; /* CTR: block counts of the first calls; rest in the last */
} the_case;

static struct aria_want {
    struct aria_key ek, dk;
    uint8_t out[OP_COUNT][16 * MAX_BLOCKS];
    uint8_t ctr[16];
} want_;

static void *decode(struct input *in)
{
    struct aria_case *c = &the_case;
    static const size_t widths[] = {16, 32, 64};
    c->keylen = 16 + 8 * (size_t)input_pick(in, 3);
    c->nblocks = input_length(in, 300, widths, 3);
    c->in_place = input_bool(in);
    c->nsplits = input_pick(in, MAX_SPLITS + 1);
    size_t left = c->nblocks;
    for (size_t i = 0; i < c->nsplits; i++) {
        c->split[i] = input_length(in, left, widths, 3);
        left -= c->split[i];
    }
    /* counter: random, or just below a wrap of the low 32, 64 or all 128 bits */
    int bias = (int)input_pick(in, 4);
    uint64_t below = input_range(in, 0, 2 * 64);
    input_bytes(in, c->ctr, 16);
    if (bias) {
        size_t low = bias == 1 ? 4 : bias == 2 ? 8 : 16;
        uint64_t v = ~(uint64_t)0 - below;
        for (size_t i = 0; i < low; i++) c->ctr[15 - i] = i < 8 ? (uint8_t)(v >> (8 * i)) : 0xff;
    }
    input_fill_words(in, c->key, c->keylen / 4, 4);
    input_fill_words(in, c->in, 4 * c->nblocks, 4);
    return c;
}

static const void *expect(const void *cv)
{
    const struct aria_case *c = cv;
    aria_set_encrypt_key(&want_.ek, c->key, c->keylen);
    aria_set_decrypt_key(&want_.dk, c->key, c->keylen);
    aria_ecb(&want_.ek, want_.out[OP_ECB_ENC], c->in, c->nblocks);
    aria_ecb(&want_.dk, want_.out[OP_ECB_DEC], c->in, c->nblocks);
    memcpy(want_.ctr, c->ctr, 16);
    aria_ctr(&want_.ek, want_.out[OP_CTR], c->in, c->nblocks, want_.ctr);
    return &want_;
}

/* An outside kernel in libgcrypt's convention (./asmdiff check; conventions below): one of its
 * 64-block entry points, ECB (either direction: the key pointer chooses) or CTR, taking the
 * cipher context: round keys for encryption at 0 and decryption at 272, as 32-bit words in
 * host order of the big-endian key words (the reference's bytes reversed in each group of
 * four), and the round count as an int at 544. */
#define GCRY_CTX_DEC 272
#define GCRY_CTX_ROUNDS 544
#define GCRY_CTX_BYTES 548
#define GCRY_BLOCKS 64
struct gcry_outside {
    const void *fn;
    int ctr; /* the CTR entry point, else ECB */
};

static void gcry_context(uint8_t ctx[GCRY_CTX_BYTES], const struct aria_key *ek,
                         const struct aria_key *dk)
{
    memset(ctx, 0, GCRY_CTX_BYTES);
    for (int r = 0; r <= ek->rounds; r++)
        for (int b = 0; b < 16; b++) {
            ctx[16 * r + (b ^ 3)] = ek->rk[r][b];
            ctx[GCRY_CTX_DEC + 16 * r + (b ^ 3)] = dk->rk[r][b];
        }
    int rounds = ek->rounds;
    memcpy(ctx + GCRY_CTX_ROUNDS, &rounds, sizeof rounds);
}

/* One operation of one implementation on in[0, 16 * nblocks): into out (in place when asked),
 * the final counter into ctr_out.  Returns the output buffer. */
static uint8_t *one_op(const struct impl *im, const struct aria_case *c, enum op op,
                       const uint8_t *in, uint8_t ctr_out[16])
{
    size_t bytes = 16 * c->nblocks;
    const struct aria_key *k = op == OP_ECB_DEC ? &want_.dk : &want_.ek;
    drv_op(op_names[op]);
    uint8_t *src = c->in_place ? drv_inout(B_IN, in, bytes) : drv_in(B_IN, in, bytes);
    uint8_t *dst = c->in_place ? src : drv_out(B_OUT, bytes);
    uint8_t *ctr = op == OP_CTR ? drv_inout(B_CTR, c->ctr, 16) : NULL;
    if (im->flags & IMPL_OUTSIDE) {
        const struct gcry_outside *g = im->ops;
        uint8_t ctxbuf[GCRY_CTX_BYTES];
        gcry_context(ctxbuf, &want_.ek, &want_.dk);
        const uint8_t *ctx = drv_in(B_KEY, ctxbuf, GCRY_CTX_BYTES);
        const uint8_t *key = op == OP_ECB_DEC ? ctx + GCRY_CTX_DEC : ctx;
        /* CTR in the calls the case splits it into (each a multiple of 64 blocks: accepts) */
        size_t done = 0;
        for (size_t i = 0; i <= (op == OP_CTR ? c->nsplits : 0); i++) {
            size_t n = op == OP_CTR && i < c->nsplits ? c->split[i] : c->nblocks - done;
            for (size_t b = 0; b < n; b += GCRY_BLOCKS, done += GCRY_BLOCKS)
                DRV_CALL(g->fn, ctx, dst + 16 * done, (const uint8_t *)src + 16 * done,
                         op == OP_CTR ? (const uint8_t *)ctr : key);
        }
    } else if (im->flags & IMPL_KERNEL) {
        const struct kernel_ops *ops = im->ops;
        size_t rklen = 16 * (size_t)(k->rounds + 1);
        const uint8_t *rk = drv_in(B_KEY, k->rk, rklen);
        unsigned rounds = (unsigned)k->rounds;
        if (op != OP_CTR) {
            DRV_CALL(ops->ecb, rk, rounds, dst, (const uint8_t *)src, c->nblocks);
        } else {
            size_t done = 0;
            for (size_t i = 0; i <= c->nsplits; i++) {
                size_t n = i < c->nsplits ? c->split[i] : c->nblocks - done;
                DRV_CALL(ops->ctr, rk, rounds, dst + 16 * done, (const uint8_t *)src + 16 * done,
                         n, ctr);
                done += n;
            }
        }
    } else {
        const struct lib_ops *ops = im->ops;
        const uint8_t *key = drv_in(B_KEY, c->key, c->keylen);
        int rc = op == OP_CTR ? (int)DRV_CALL(ops->ctr, key, c->keylen, dst, (const uint8_t *)src,
                                              c->nblocks, ctr)
                              : (int)DRV_CALL(ops->ecb, op == OP_ECB_ENC, key, c->keylen, dst,
                                              (const uint8_t *)src, c->nblocks);
        drv_expect_true(rc == 0, "the library call failed");
    }
    if (ctr) memcpy(ctr_out, ctr, 16);
    return dst;
}

static void run(const struct impl *im, const void *cv, const void *wv)
{
    const struct aria_case *c = cv;
    const struct aria_want *w = wv;
    static uint8_t ct[16 * MAX_BLOCKS];
    size_t bytes = 16 * c->nblocks;
    uint8_t ctr[16];
    for (int op = 0; op < OP_COUNT; op++) {
        if ((im->flags & IMPL_OUTSIDE) && (op == OP_CTR) != ((const struct gcry_outside *)im->ops)->ctr)
            continue; /* an outside entry point of the other mode */
        uint8_t *out = one_op(im, c, (enum op)op, c->in, ctr);
        drv_expect_equal("output", w->out[op], out, bytes);
        if (op == OP_CTR) drv_expect_equal("final counter", w->ctr, ctr, 16);
        if (op == OP_ECB_ENC && (im->flags & IMPL_KERNEL)) {
            /* the round trip through the kernel itself */
            memcpy(ct, out, bytes);
            out = one_op(im, c, OP_ECB_DEC, ct, ctr);
            drv_op("ecb-decrypt of its own ciphertext");
            drv_expect_equal("decrypt(encrypt(x))", c->in, out, bytes);
        }
    }
}

static void params(const void *cv)
{
    const struct aria_case *c = cv;
    report_param("key size", "%zu bits (%d rounds)", 8 * c->keylen,
                 c->keylen == 16 ? 12 : c->keylen == 24 ? 14 : 16);
    report_param("blocks", "%zu", c->nblocks);
    report_param("in place", "%s", c->in_place ? "yes" : "no");
    char s[64] = "";
    for (size_t i = 0; i < c->nsplits; i++)
        snprintf(s + strlen(s), sizeof s - strlen(s), "%zu+", c->split[i]);
    report_param("ctr calls", "%srest", s);
    report_hex("initial counter", c->ctr, 16);
    report_hex("key", c->key, c->keylen);
    report_hex("input (first 64 bytes)", c->in, 16 * c->nblocks < 64 ? 16 * c->nblocks : 64);
}

static void vary_secrets(void *cv, uint64_t seed)
{
    struct aria_case *c = cv;
    rng_fill(&seed, c->key, sizeof c->key);
    rng_fill(&seed, c->in, sizeof c->in);
}

/* ---- RFC 5794 vectors, each also as N identical blocks, both directions ---- */

static int kat(const char *srcdir)
{
    struct aria_case *c = &the_case;
    static const size_t counts[] = {1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 128, 129, 200};
    static uint8_t got[16 * MAX_BLOCKS];
    uint8_t pt[16], ct[16];
    struct vec_file vf;
    int count = 0;
    if (vec_open(&vf, srcdir, "corpus/aria/kat.txt")) return -1;
    while (vec_next(&vf)) {
        memset(c, 0, sizeof *c);
        long kl = vec_get_hex(&vf, "Key", c->key, sizeof c->key);
        long pl = vec_get_hex(&vf, "Plaintext", pt, sizeof pt);
        long cl = vec_get_hex(&vf, "Ciphertext", ct, sizeof ct);
        vec_done(&vf);
        if ((kl != 16 && kl != 24 && kl != 32) || pl != 16 || cl != 16) {
            drv_vector_errors(1);
            continue;
        }
        c->keylen = (size_t)kl;
        count++;
        for (size_t n = 0; n < sizeof counts / sizeof counts[0]; n++) {
            c->nblocks = counts[n];
            for (int dir = 0; dir < 2; dir++) {
                const uint8_t *from = dir ? ct : pt, *to = dir ? pt : ct;
                for (size_t b = 0; b < c->nblocks; b++) memcpy(c->in + 16 * b, from, 16);
                ref_ecb(!dir, c->key, c->keylen, got, c->in, 1);
                if (!drv_reference_agrees(vf.path, dir ? "plaintext" : "ciphertext", to, got, 16))
                    break;
                c->in_place = (int)(n & 1);
                drv_check(c);
            }
        }
    }
    drv_vector_errors(vec_close(&vf));
    return count;
}

/* ---- exhaustive: the S-box tables, then every block count 0..200 and 255..513 ---- */

static int exhaustive(void)
{
    struct aria_case *c = &the_case;
    int fails = 0;
    /* SB3 and SB4 are the inverses of SB1 and SB2 (RFC 5794 section 2.4.2), so all four are
     * bijections: what every kernel's GFNI matrices are derived from (exhaustive-aria-gfni). */
    for (int x = 0; x < 256; x++)
        if (aria_sb1_inv[aria_sb1[x]] != x || aria_sb2_inv[aria_sb2[x]] != x) {
            fprintf(stderr, "aria: the reference S-boxes are not inverse at %d\n", x);
            fails++;
        }
    /* every tail the kernels have (widths 16, 32, 64 and every remainder), several passes */
    uint64_t x = 0x61726961u;
    for (size_t keylen = 16; keylen <= 32; keylen += 8)
        for (size_t n = 0; n <= 513; n++) {
            if (n > 200 && n < 255) continue;
            memset(c, 0, sizeof *c);
            c->keylen = keylen;
            c->nblocks = n;
            c->in_place = (int)(n % 2);
            rng_fill(&x, c->key, keylen);
            rng_fill(&x, c->in, 16 * n);
            rng_fill(&x, c->ctr, 16);
            if (n % 3 == 0) memset(c->ctr + 8, 0xff, 8); /* the 2^64 carry inside the call */
            c->nsplits = n % 4 == 1 && n > 64 ? 1 : 0;
            c->split[0] = n / 3;
            drv_check(c);
        }
    return fails;
}

/* ---- bench: ARIA128/192/256 x {ECB enc, ECB dec, CTR}, every implementation ---- */

#define BENCH_BYTES (16 * 1024)
static const struct bench_op bench_ops[] = {
    {"ARIA128 ECB enc", 16, BENCH_BYTES}, {"ARIA128 ECB dec", 16, BENCH_BYTES},
    {"ARIA128 CTR", 16, BENCH_BYTES},     {"ARIA192 ECB enc", 16, BENCH_BYTES},
    {"ARIA192 ECB dec", 16, BENCH_BYTES}, {"ARIA192 CTR", 16, BENCH_BYTES},
    {"ARIA256 ECB enc", 16, BENCH_BYTES}, {"ARIA256 ECB dec", 16, BENCH_BYTES},
    {"ARIA256 CTR", 16, BENCH_BYTES},
};
static struct {
    uint8_t raw[32];
    size_t keylen;
    struct aria_key key;
    enum op op;
} bench;

static void bench_setup(size_t op)
{
    for (size_t i = 0; i < sizeof bench.raw; i++) bench.raw[i] = (uint8_t)(i * 29 + 7);
    bench.keylen = 16 + 8 * (op / 3);
    bench.op = (enum op)(op % 3);
    if (bench.op == OP_ECB_DEC) aria_set_decrypt_key(&bench.key, bench.raw, bench.keylen);
    else aria_set_encrypt_key(&bench.key, bench.raw, bench.keylen);
}

static int bench_run(const struct impl *im, size_t op, uint8_t *buf, size_t bytes)
{
    uint8_t ctr[16] = {0};
    size_t n = bytes / 16;
    (void)op;
    if (im->flags & IMPL_OUTSIDE) return -1; /* 64-block entry points: not benched here */
    if (im->flags & IMPL_KERNEL) {
        const struct kernel_ops *k = im->ops;
        if (bench.op == OP_CTR) k->ctr(bench.key.rk[0], (unsigned)bench.key.rounds, buf, buf, n, ctr);
        else k->ecb(bench.key.rk[0], (unsigned)bench.key.rounds, buf, buf, n);
    } else {
        const struct lib_ops *l = im->ops;
        if (bench.op == OP_CTR) l->ctr(bench.raw, bench.keylen, buf, buf, n, ctr);
        else l->ecb(bench.op == OP_ECB_ENC, bench.raw, bench.keylen, buf, buf, n);
    }
    return 0;
}

/* ---- conventions an outside kernel may follow (./asmdiff check) ---- */

static const char *const gcry_ops[] = {"ecb", "ctr"};

static struct gcry_outside gcry_outside_ops;

static const void *gcry_make_ops(const void *fn, size_t op)
{
    gcry_outside_ops.fn = fn;
    gcry_outside_ops.ctr = op == 1;
    return &gcry_outside_ops;
}

/* ECB or CTR: 64 blocks of zeros under a fixed key, each way, against the reference. */
static int gcry_identify(const void *fn)
{
    static uint8_t in[16 * GCRY_BLOCKS], out[16 * GCRY_BLOCKS], want[16 * GCRY_BLOCKS];
    uint8_t ctx[GCRY_CTX_BYTES], key[16] = {1, 2, 3, 4}, ctr[16] = {0}, iv[16] = {0};
    struct aria_key ek, dk;
    aria_set_encrypt_key(&ek, key, 16);
    aria_set_decrypt_key(&dk, key, 16);
    gcry_context(ctx, &ek, &dk);
    aria_ecb(&ek, want, in, GCRY_BLOCKS);
    DRV_PROBE(fn, ctx, out, (const uint8_t *)in, (const uint8_t *)ctx);
    if (!memcmp(out, want, sizeof out)) return 0;
    gcry_context(ctx, &ek, &dk);
    aria_ctr(&ek, want, in, GCRY_BLOCKS, ctr);
    DRV_PROBE(fn, ctx, out, (const uint8_t *)in, iv);
    return memcmp(out, want, sizeof out) ? -1 : 1;
}

/* 64 blocks per call; CTR as libgcrypt's ctr16be bulk interface: the caller
 * (cipher/cipher-ctr.c) never lets the low 16 bits of the big-endian counter wrap inside a call
 * and fixes the counter itself when a call ends exactly on the wrap, so only cases whose whole
 * run stays below it are the kernel's contract. */
static int gcry_accepts(const void *cv)
{
    const struct aria_case *c = cv;
    if (!c->nblocks || c->nblocks % GCRY_BLOCKS) return 0;
    for (size_t i = 0; i < c->nsplits; i++)
        if (c->split[i] % GCRY_BLOCKS) return 0;
    size_t low16 = (size_t)c->ctr[14] << 8 | c->ctr[15];
    return !gcry_outside_ops.ctr || low16 + c->nblocks < 0x10000;
}

static const struct convention conventions[] = {
    {"libgcrypt",
     "unsigned int _gcry_aria_gfni_avx512_ecb_crypt_blk64(const void *ctx, byte *out, "
     "const byte *in, const void *key) and ..._ctr_crypt_blk64(ctx, out, in, byte *iv): 64 "
     "blocks per call, ctx = ARIA_context (round keys, rounds at 544); CTR as ctr16be: the "
     "low 16 counter bits do not wrap inside a call",
     CONV_CLEAN_VECTORS, "the C caller wipes the stack depth the function returns "
     "(_gcry_burn_stack)",
     gcry_ops, 2, gcry_make_ops, gcry_identify, gcry_accepts},
};

const struct family asmdiff_family = {
    .name = "aria",
    .spec = "RFC 5794",
    .impls = impls,
    .nimpls = sizeof impls / sizeof impls[0],
    .bufs = bufs,
    .nbufs = sizeof bufs / sizeof bufs[0],
    .decode = decode,
    .expect = expect,
    .run = run,
    .params = params,
    .vary_secrets = vary_secrets,
    .kat = kat,
    .exhaustive = exhaustive,
    .bench_ops = bench_ops,
    .nbench_ops = sizeof bench_ops / sizeof bench_ops[0],
    .bench_setup = bench_setup,
    .bench_run = bench_run,
    .conventions = conventions,
    .nconventions = sizeof conventions / sizeof conventions[0],
};
