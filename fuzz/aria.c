/* fuzz/aria.c — the ARIA family: RFC 5794 block cipher, ECB and CTR.
 *
 * Property (fuzz/harness/blockcipher.h does the work for every such cipher): for every key
 * size and key, every block count (weighted at the kernels' parallel widths 16/32/64 and ±1),
 * every counter (biased to just below the 2^32, 2^64 and 2^128 wraps), in place and out of
 * place, each kernel's ECB encryption and decryption and its CTR output and final counter equal
 * the plain C reference's (reference/aria.c); CTR continued across several calls equals one
 * call; the kernel decrypts its own ciphertext; OpenSSL (and libgcrypt from 1.11) agree with
 * the reference.  Kernels promise no key-derived data left in zmm/ymm/xmm, opmask registers or
 * on the stack.  The round keys sit in a buffer of exactly (rounds + 1) * 16 bytes.
 * Exhaustive: the S-box tables invert each other, then every block count 0..200 and 255..513.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "asmdiff-config.h"
#include "blockcipher.h"
#include "cpu.h"
#include "driver.h"
#include "reference/aria.h"
#include "reference/oracles/aria_oracles.h"
#if ASMDIFF_HAVE_GCRYPT
#include "reference/oracles/gcrypt_init.h"
#endif
#if ARCH_X86_64
#include "kernels/aria/aria.h"
#endif

/* The reference as blockcipher.h wants it: the schedule is struct aria_key, whose rk[] the
 * kernels read ((rounds + 1) round keys of 16 bytes). */
static void schedule(void *ks, const uint8_t *key, size_t keylen, int decrypt, unsigned *rounds,
                     size_t *kernel_bytes)
{
    struct aria_key *k = ks;
    _Static_assert(sizeof(struct aria_key) <= BC_MAX_SCHEDULE, "room for the schedule");
    _Static_assert(offsetof(struct aria_key, rk) == 0, "kernels read rk[] from the start");
    if (decrypt) aria_set_decrypt_key(k, key, keylen);
    else aria_set_encrypt_key(k, key, keylen);
    *rounds = (unsigned)k->rounds;
    *kernel_bytes = 16 * (size_t)(k->rounds + 1);
}

static void ecb(const void *ks, uint8_t *out, const uint8_t *in, size_t n)
{
    aria_ecb(ks, out, in, n);
}

static void ctr(const void *ks, uint8_t *out, const uint8_t *in, size_t n, uint8_t c[16])
{
    aria_ctr(ks, out, in, n, c);
}

/* The reference from a raw key, for bench rows beside the libraries. */
static int ref_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                   size_t n)
{
    struct aria_key k;
    if (encrypt ? aria_set_encrypt_key(&k, key, keylen) : aria_set_decrypt_key(&k, key, keylen))
        return -1;
    aria_ecb(&k, out, in, n);
    return 0;
}

static int ref_ctr(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in, size_t n,
                   uint8_t c[16])
{
    struct aria_key k;
    if (aria_set_encrypt_key(&k, key, keylen)) return -1;
    aria_ctr(&k, out, in, n, c);
    return 0;
}

/* SB3 and SB4 are the inverses of SB1 and SB2 (RFC 5794 section 2.4.2), so all four are
 * bijections: what every kernel's GFNI matrices are derived from. */
static int sboxes_invert(void)
{
    int fails = 0;
    for (int x = 0; x < 256; x++)
        if (aria_sb1_inv[aria_sb1[x]] != x || aria_sb2_inv[aria_sb2[x]] != x) {
            fprintf(stderr, "aria: the reference S-boxes are not inverse at %d\n", x);
            fails++;
        }
    return fails;
}

#if ARCH_X86_64
/* ---- an outside kernel in libgcrypt's convention (./asmdiff check) ----
 *
 * One of libgcrypt's 64-block entry points, ECB (either direction: the key pointer chooses) or
 * CTR, taking the cipher context: round keys for encryption at 0 and decryption at 272, as
 * 32-bit words in host order of the big-endian key words (the reference's bytes reversed in
 * each group of four), and the round count as an int at 544.  The layout is read from
 * libgcrypt's cipher/aria.c (ARIA_context), not copied: only the offsets are facts we use. */
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

static int gcry_does(const struct impl *im, int op)
{
    const struct gcry_outside *g = im->ops;
    return (op == 2) == (g->ctr != 0);
}

/* CTR in the calls the case splits it into (each a multiple of 64 blocks: gcry_accepts). */
static void gcry_call(const struct impl *im, const struct bc_case *c, int op, uint8_t *dst,
                      const uint8_t *src, uint8_t *ctr)
{
    const struct gcry_outside *g = im->ops;
    unsigned rounds;
    size_t bytes;
    uint8_t ctxbuf[GCRY_CTX_BYTES];
    const struct aria_key *ek = bc_reference_schedule(0, &rounds, &bytes);
    const struct aria_key *dk = bc_reference_schedule(1, &rounds, &bytes);
    gcry_context(ctxbuf, ek, dk);
    const uint8_t *ctx = drv_in(BC_BUF_SCHEDULE, ctxbuf, GCRY_CTX_BYTES);
    const uint8_t *key = op == 1 ? ctx + GCRY_CTX_DEC : ctx;
    size_t done = 0;
    for (size_t i = 0; i <= (op == 2 ? c->nsplits : 0); i++) {
        size_t n = op == 2 && i < c->nsplits ? c->split[i] : c->nblocks - done;
        for (size_t b = 0; b < n; b += GCRY_BLOCKS, done += GCRY_BLOCKS)
            DRV_CALL(g->fn, ctx, dst + 16 * done, src + 16 * done,
                     op == 2 ? (const uint8_t *)ctr : key);
    }
}

static const char *const gcry_ops[] = {"ecb", "ctr"};
static struct gcry_outside gcry_kernels[OUTSIDE_MAX]; /* one per outside kernel */
static size_t ngcry;

static const void *gcry_make_ops(const void *fn, size_t op)
{
    if (ngcry == OUTSIDE_MAX) return NULL; /* outside.c makes at most OUTSIDE_MAX */
    gcry_kernels[ngcry] = (struct gcry_outside){fn, op == 1};
    return &gcry_kernels[ngcry++];
}

/* ECB or CTR: 64 blocks of zeros under a fixed key, each way, against the reference. */
static int gcry_identify(const void *fn)
{
    static uint8_t in[16 * GCRY_BLOCKS], out[16 * GCRY_BLOCKS], want[16 * GCRY_BLOCKS];
    uint8_t ctx[GCRY_CTX_BYTES], key[16] = {1, 2, 3, 4}, ctr0[16] = {0}, iv[16] = {0};
    struct aria_key ek, dk;
    aria_set_encrypt_key(&ek, key, 16);
    aria_set_decrypt_key(&dk, key, 16);
    gcry_context(ctx, &ek, &dk);
    aria_ecb(&ek, want, in, GCRY_BLOCKS);
    DRV_PROBE(fn, ctx, out, (const uint8_t *)in, (const uint8_t *)ctx);
    if (!memcmp(out, want, sizeof out)) return 0;
    gcry_context(ctx, &ek, &dk);
    aria_ctr(&ek, want, in, GCRY_BLOCKS, ctr0);
    DRV_PROBE(fn, ctx, out, (const uint8_t *)in, iv);
    return memcmp(out, want, sizeof out) ? -1 : 1;
}

/* 64 blocks per call; CTR as libgcrypt's ctr16be bulk interface: its caller
 * (cipher/cipher-ctr.c) never lets the low 16 bits of the big-endian counter wrap inside a call
 * and fixes the counter itself when a call ends exactly on the wrap, so only cases whose whole
 * run stays below it are the kernel's contract. */
static int gcry_accepts(const void *cv)
{
    const struct bc_case *c = cv;
    if (!c->nblocks || c->nblocks % GCRY_BLOCKS) return 0;
    for (size_t i = 0; i < c->nsplits; i++)
        if (c->split[i] % GCRY_BLOCKS) return 0;
    size_t low16 = (size_t)c->ctr[14] << 8 | c->ctr[15];
    const struct gcry_outside *g = drv_outside_asking();
    return !g->ctr || low16 + c->nblocks < 0x10000;
}

/* ---- an outside kernel in Linux's convention (arch/x86/crypto/aria-*-asm_64.S) ----
 *
 * Linux's glue (aria_gfni_avx512_glue.c, aria_aesni_avx2_glue.c) declares three entry points
 * per width: encrypt_Nway(ctx, dst, src) and decrypt_Nway, each exactly N blocks (N = 64 for
 * the GFNI AVX-512 file, 32 for the AVX2 ones), and ctr_crypt_Nway(ctx, dst, src, keystream,
 * iv): N blocks of CTR with iv a 128-bit big-endian counter carried across all 16 bytes (the
 * assembly's carry path), advanced by N, and keystream a scratch buffer of N blocks the call
 * writes.  ctx is struct aria_ctx (include/crypto/aria.h), the same layout as libgcrypt's
 * ARIA_context for the fields the assembly reads (asm-offsets: enc_key 0, dec_key 272,
 * rounds 544; verify/outside/linux-compat/asm/asm-offsets.h), so gcry_context builds it. */
struct linux_outside {
    const void *fn;
    int op;       /* 0 encrypt, 1 decrypt, 2 ctr: the blockcipher.h operation */
    size_t width; /* blocks per call */
};
static struct linux_outside linux_kernels[OUTSIDE_MAX]; /* one per outside kernel */
static size_t nlinux;
static const char *const linux_ops[] = {"encrypt_64way", "decrypt_64way", "ctr_crypt_64way",
                                        "encrypt_32way", "decrypt_32way", "ctr_crypt_32way"};

static const void *linux_make_ops(const void *fn, size_t op)
{
    if (nlinux == OUTSIDE_MAX) return NULL; /* outside.c makes at most OUTSIDE_MAX */
    linux_kernels[nlinux] = (struct linux_outside){fn, (int)(op % 3), op < 3 ? 64 : 32};
    return &linux_kernels[nlinux++];
}

static int linux_does(const struct linux_outside *l, int op)
{
    return op == l->op;
}

/* Each operation in calls of exactly `width` blocks (linux_accepts); CTR through a placed
 * keystream scratch of width blocks (the "computed schedule" buffer, which ARIA has no other
 * use for), so a write past it is a guard-page finding. */
static void linux_call(const struct linux_outside *l, const struct bc_case *c, int op,
                       uint8_t *dst, const uint8_t *src, uint8_t *ctr)
{
    unsigned rounds;
    size_t bytes;
    uint8_t ctxbuf[GCRY_CTX_BYTES];
    gcry_context(ctxbuf, bc_reference_schedule(0, &rounds, &bytes),
                 bc_reference_schedule(1, &rounds, &bytes));
    const uint8_t *ctx = drv_in(BC_BUF_SCHEDULE, ctxbuf, GCRY_CTX_BYTES);
    size_t done = 0;
    for (size_t i = 0; i <= (op == 2 ? c->nsplits : 0); i++) {
        size_t n = op == 2 && i < c->nsplits ? c->split[i] : c->nblocks - done;
        for (size_t b = 0; b < n; b += l->width, done += l->width) {
            if (op == 2) {
                uint8_t *keystream = drv_out(BC_BUF_SCHEDULE_OUT, 16 * l->width);
                DRV_CALL(l->fn, ctx, dst + 16 * done, src + 16 * done, keystream, ctr);
            } else {
                DRV_CALL(l->fn, ctx, dst + 16 * done, src + 16 * done);
            }
        }
    }
}

/* Which entry point and width: 64 blocks of zeros under a fixed key, the output buffer filled
 * with a marker, against the reference's encryption, decryption and CTR from counter 0; a
 * 32-way kernel leaves the second half of the marker alone.  Every probe passes all five
 * arguments (an ECB entry point ignores the last two). */
static int linux_identify(const void *fn)
{
    /* room past the scratch: a kernel that overruns it is the checks' to report, not a probe's crash */
    static uint8_t in[16 * 64], out[16 * 64], want[3][16 * 64], keystream[16 * 128];
    uint8_t ctx[GCRY_CTX_BYTES], key[16] = {1, 2, 3, 4}, ctr0[16] = {0}, iv[16];
    struct aria_key ek, dk;
    aria_set_encrypt_key(&ek, key, 16);
    aria_set_decrypt_key(&dk, key, 16);
    aria_ecb(&ek, want[0], in, 64);
    aria_ecb(&dk, want[1], in, 64);
    aria_ctr(&ek, want[2], in, 64, ctr0);
    gcry_context(ctx, &ek, &dk);
    memset(out, 0xa5, sizeof out);
    memset(iv, 0, sizeof iv);
    DRV_PROBE(fn, ctx, out, (const uint8_t *)in, keystream, iv);
    for (int op = 0; op < 3; op++)
        if (!memcmp(out, want[op], 16 * 32)) return op + 3 * !!memcmp(out, want[op], sizeof out);
    return -1;
}

static int linux_accepts(const void *cv)
{
    const struct bc_case *c = cv;
    const struct linux_outside *l = drv_outside_asking();
    size_t w = l->width;
    if (!c->nblocks || c->nblocks % w) return 0;
    for (size_t i = 0; i < c->nsplits; i++)
        if (c->split[i] % w) return 0;
    return 1;
}

/* The two conventions' calls: an implementation's ops is in one of the two tables. */
static int is_linux(const struct impl *im)
{
    const struct linux_outside *l = im->ops;
    return l >= linux_kernels && l < linux_kernels + nlinux;
}

static int outside_does(const struct impl *im, int op)
{
    if (is_linux(im)) return linux_does(im->ops, op);
    return gcry_does(im, op);
}

static void outside_call(const struct impl *im, const struct bc_case *c, int op, uint8_t *dst,
                         const uint8_t *src, uint8_t *ctr)
{
    if (is_linux(im)) linux_call(im->ops, c, op, dst, src, ctr);
    else gcry_call(im, c, op, dst, src, ctr);
}

static const struct convention conventions[] = {
    {.name = "linux",
     .prototype = "asmlinkage void aria_gfni_avx512_encrypt_64way(const void *ctx, u8 *dst, "
                  "const u8 *src), ..._decrypt_64way, ..._ctr_crypt_64way(ctx, dst, src, "
                  "u8 *keystream, u8 *iv), and the 32way ones of aria-aesni-avx2-asm_64.S: "
                  "exactly N blocks per call, ctx = struct aria_ctx (round keys at 0 and 272, "
                  "rounds at 544), iv a 128-bit big-endian counter, keystream N blocks of scratch",
     .clean = 0,
     .leftovers = CONV_LINUX_LEFTOVERS,
     .ops = linux_ops,
     .nops = 6,
     .make_ops = linux_make_ops,
     .identify = linux_identify,
     .accepts = linux_accepts},
    {.name = "libgcrypt",
     .prototype = "unsigned int _gcry_aria_gfni_avx512_ecb_crypt_blk64(const void *ctx, "
                  "byte *out, const byte *in, const void *key) and ..._ctr_crypt_blk64(ctx, "
                  "out, in, byte *iv): 64 blocks per call, ctx = ARIA_context (round keys, "
                  "rounds at 544); CTR as ctr16be: the low 16 counter bits do not wrap inside "
                  "a call",
     .clean = CONV_CLEAN_VECTORS,
     .leftovers = "the C caller wipes the stack depth the function returns (_gcry_burn_stack)",
     .ops = gcry_ops,
     .nops = 2,
     .make_ops = gcry_make_ops,
     .identify = gcry_identify,
     .accepts = gcry_accepts},
    /* our own kernels' prototypes (a patch to one of our forms): blockcipher.h's row, with its
     * own state per kernel, so a --baseline pair is one check build */
    BC_OWN_CONVENTION(
        "as kernels/aria/aria.h: void aria_ecb_*(const uint8_t *rk, unsigned int rounds, "
        "uint8_t *out, const uint8_t *in, size_t nblocks) or aria_ctr_*(rk, rounds, out, in, "
        "nblocks, uint8_t ctr[16]); rk the reference's round keys (encryption or decryption "
        "schedule), any block count, ctr a 128-bit big-endian counter"),
};
#define OUTSIDE_HOOKS .outside_does = outside_does, .outside_call = outside_call,
#define CONVENTIONS .conventions = conventions, .nconventions = 3
#else
#define OUTSIDE_HOOKS
#define CONVENTIONS .nconventions = 0
#endif

const struct bc_cipher bc_cipher = {
    .name = "ARIA",
    .kat_file = "corpus/aria/kat.txt",
    .widths = {16, 32, 64},
    .schedule = schedule,
    .ecb = ecb,
    .ctr = ctr,
    .exhaustive_extra = sboxes_invert,
    OUTSIDE_HOOKS
};

static const struct bc_lib_ops reference = {ref_ecb, ref_ctr};
#if ARCH_X86_64
#define KOPS(e, c) {(bc_kernel_ecb)(e), (bc_kernel_ctr)(c)}
static const struct bc_kernel_ops avx512_xor = KOPS(aria_ecb_avx512_gfni_xor, aria_ctr_avx512_gfni_xor);
static const struct bc_kernel_ops avx512_ternlog =
    KOPS(aria_ecb_avx512_gfni_ternlog, aria_ctr_avx512_gfni_ternlog);
static const struct bc_kernel_ops avx2 = KOPS(aria_ecb_avx2_gfni, aria_ctr_avx2_gfni);
#define NEEDS_AVX512_GFNI (CPU_AVX512F | CPU_AVX512BW | CPU_AVX512VL | CPU_GFNI)
#endif
#if ASMDIFF_HAVE_OPENSSL
static const struct bc_lib_ops openssl = {oracle_openssl_aria_ecb, oracle_openssl_aria_ctr};
#endif
#if ASMDIFF_HAVE_GCRYPT
static const struct bc_lib_ops gcrypt = {oracle_gcrypt_aria_ecb, oracle_gcrypt_aria_ctr};
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
         .describe = oracle_gcrypt_describe, .label = oracle_gcrypt_label,
         .version = oracle_gcrypt_version, .hwf = oracle_gcrypt_hwf),
#endif
};

const struct family asmdiff_family = BC_FAMILY("aria", "RFC 5794", impls, CONVENTIONS);
