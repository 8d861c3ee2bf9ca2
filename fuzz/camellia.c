/* fuzz/camellia.c — the Camellia family: RFC 3713 block cipher, ECB and CTR, and the kernels'
 * key expansion.
 *
 * Property (fuzz/harness/blockcipher.h does the cipher part, as for every such cipher): for
 * every key size and key, every block count (weighted at the kernels' widths 16/32/64 and ±1),
 * every counter (just below the 2^32, 2^64 and 2^128 wraps too), in place and out of place, each
 * kernel's ECB encryption and decryption and its CTR output and final counter equal the plain C
 * reference's (reference/camellia.c); CTR split across calls equals one call; the kernel
 * decrypts its own ciphertext; OpenSSL, nettle and libgcrypt (at each hardware-feature level)
 * agree with the reference.  Both FL-shift forms of the AVX-512 kernel (cmp-mask: vpcmpltb into
 * k1 and a masked vpaddb; gfni-shift: one vgf2p8affineqb) and the AVX2 path promise no data in
 * zmm/ymm/xmm or opmask registers (k1 included) or on the stack.  The kernels' key expansion
 * (camellia_setkey_x86_64) gives the reference's schedule, encryption and decryption, for every
 * key size.
 */
#include <stddef.h>
#include <string.h>

#include "asmdiff-config.h"
#include "blockcipher.h"
#include "cpu.h"
#include "driver.h"
#include "reference/camellia.h"
#include "reference/oracles/camellia_oracles.h"
#if ASMDIFF_HAVE_GCRYPT
#include "reference/oracles/gcrypt_init.h"
#endif
#if ARCH_X86_64
#include "kernels/camellia/camellia.h"
#endif

static void schedule(void *ks, const uint8_t *key, size_t keylen, int decrypt, unsigned *rounds,
                     size_t *kernel_bytes)
{
    struct camellia_key *k = ks;
    _Static_assert(sizeof(struct camellia_key) <= BC_MAX_SCHEDULE, "room for the schedule");
    if (decrypt) camellia_set_decrypt_key(k, key, keylen);
    else camellia_set_encrypt_key(k, key, keylen);
    *rounds = k->rounds;
    *kernel_bytes = 8 * (size_t)CAMELLIA_SUBKEYS(k->rounds);
}

static void ecb(const void *ks, uint8_t *out, const uint8_t *in, size_t n)
{
    camellia_ecb(ks, out, in, n);
}

static void ctr(const void *ks, uint8_t *out, const uint8_t *in, size_t n, uint8_t c[16])
{
    camellia_ctr(ks, out, in, n, c);
}

static int ref_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                   size_t n)
{
    struct camellia_key k;
    if (encrypt) camellia_set_encrypt_key(&k, key, keylen);
    else camellia_set_decrypt_key(&k, key, keylen);
    camellia_ecb(&k, out, in, n);
    return 0;
}

static int ref_ctr(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in, size_t n,
                   uint8_t c[16])
{
    struct camellia_key k;
    camellia_set_encrypt_key(&k, key, keylen);
    camellia_ctr(&k, out, in, n, c);
    return 0;
}

#if ARCH_X86_64
/* The kernels' own key expansion must give the reference's schedule, both directions. */
static void setkey_run(const struct impl *im, const void *cv)
{
    const struct bc_case *c = cv;
    if (!(im->flags & IMPL_KERNEL) || (im->flags & IMPL_OUTSIDE)) return; /* ours only */
    for (int decrypt = 0; decrypt < 2; decrypt++) {
        unsigned want_rounds;
        size_t bytes;
        const void *want = bc_reference_schedule(decrypt, &want_rounds, &bytes);
        drv_op(decrypt ? "setkey (decryption schedule)" : "setkey (encryption schedule)");
        drv_no_ct_claim("camellia-x86_64-setkey.S claims none: S-box look-ups by key bytes, "
                        "once per key");
        const uint8_t *key = drv_in(BC_BUF_KEY, c->key, c->keylen);
        uint64_t *sk = drv_out(BC_BUF_SCHEDULE_OUT, bytes);
        unsigned *rounds = drv_out(BC_BUF_ROUNDS_OUT, sizeof *rounds);
        DRV_CALL(camellia_setkey_x86_64, sk, rounds, key, c->keylen, decrypt);
        drv_expect_word("round count", want_rounds, *rounds);
        drv_expect_equal("key schedule", want, sk, bytes);
    }
    /* A key length RFC 3713 does not define, one of 0..31 but 16 and 24 (32 is the other
     * valid one), chosen by the case: the kernel's contract (camellia-x86_64-setkey.S) is
     * *rounds = 0 and the schedule untouched.  The reference decides the round count (its own
     * answer for that length), the schedule is judged against what was there before. */
    static const uint8_t invalid[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14,
                                      15, 17, 18, 19, 20, 21, 22, 23, 25, 26, 27, 28, 29, 30, 31};
    size_t badlen = invalid[c->key[0] % sizeof invalid];
    struct camellia_key ref;
    camellia_set_encrypt_key(&ref, c->key, badlen);
    uint8_t before[8 * CAMELLIA_SUBKEYS(24)];
    memset(before, 0xa5, sizeof before);
    drv_op("setkey (a key length RFC 3713 does not define)");
    drv_no_ct_claim("camellia-x86_64-setkey.S claims none: S-box look-ups by key bytes, once per "
                    "key");
    const uint8_t *key = drv_in(BC_BUF_KEY, c->key, badlen);
    uint64_t *sk = drv_inout(BC_BUF_SCHEDULE_OUT, before, sizeof before);
    unsigned *rounds = drv_inout(BC_BUF_ROUNDS_OUT, &(unsigned){0x5a5a5a5a}, sizeof *rounds);
    DRV_CALL(camellia_setkey_x86_64, sk, rounds, key, badlen, 0);
    drv_expect_word("round count (invalid key length)", ref.rounds, *rounds);
    drv_expect_equal("key schedule (untouched for an invalid key length)", before, sk,
                     sizeof before);
}

/* ---- outside kernels in libgcrypt's and Linux's conventions (./asmdiff check) ----
 *
 * Both take a context whose first 272 bytes are a key table in the layout of NTT's reference
 * code (libgcrypt cipher/camellia.c, Linux arch/x86/crypto/camellia_glue.c: the same layout),
 * followed at 272 by the key length: libgcrypt's CAMELLIA_context.keybitlength in bits,
 * Linux's struct camellia_ctx.key_length in bytes (camellia.h); the assembly compares it with
 * 128 or 16 to choose 18 or 24 rounds.  Both directions read the encryption table.
 *
 * The table is the RFC's subkeys rearranged for a faster data path, which we derive here from
 * our reference's schedule (whose order of use is the same index order as theirs):
 *   1. kw2, XORed into the right half at the start, is carried instead as an offset in that
 *      half: it reaches the F-function input of the even rounds, so those round keys absorb
 *      it, and it passes each FL^-1 layer changed (fl_offset); kw3 absorbs what is left.
 *      kw4 is carried backwards the same way through the odd rounds and the FL layers into kw1.
 *   2. Each round key is XORed at the end of the previous F-function instead of at the start
 *      of its own: the half that receives round j's output must then hold round j+1's key
 *      and lose round j-1's, so entry j holds k(j-1) ^ k(j+1), where a key that crosses an
 *      FL layer is moved through it by fl_offset.  Entry 0 is the pre-whitening (kw1 ^ k1),
 *      entry 1 is unused, the FL keys keep their places, the last entry is kw3 ^ k(last).
 * Each 64-bit entry is stored as the assembly loads it: the RFC's left 32-bit word first. */
#define UPSTREAM_CTX_LENGTH 272
#define UPSTREAM_CTX_BYTES 276

static uint32_t rol32_1(uint32_t x)
{
    return x << 1 | x >> 31;
}

/* An offset d (left word in the high half, as the RFC writes 64-bit values) carried into an
 * FL^-1 layer with key ke comes out as the value returned; the same map gives the offset that
 * must go into an FL layer with key ke for d to come out of it. */
static uint64_t fl_offset(uint64_t d, uint64_t ke)
{
    uint32_t l = (uint32_t)(d >> 32), r = (uint32_t)d;
    l ^= r & ~(uint32_t)ke;
    r ^= rol32_1(l & (uint32_t)(ke >> 32));
    return (uint64_t)l << 32 | r;
}

/* Round j (1-based) of our schedule's order: kw1 kw2 | six rounds | two FL keys | ... */
static size_t round_at(unsigned j)
{
    return 2 + (j - 1) + 2 * ((j - 1) / 6);
}

static void upstream_table(uint8_t table[UPSTREAM_CTX_LENGTH], const uint64_t *sk, unsigned rounds)
{
    unsigned groups = rounds / 6;
    size_t n = CAMELLIA_SUBKEYS(rounds);
    uint64_t k[CAMELLIA_MAX_SUBKEYS] = {0}, t[CAMELLIA_MAX_SUBKEYS] = {0};
    memcpy(k, sk, n * sizeof *k);
    /* 1: kw2 forward through the even rounds, kw4 backward through the odd ones */
    uint64_t d = k[1];
    for (unsigned g = 0; g < groups; g++) {
        for (unsigned j = 6 * g + 2; j <= 6 * g + 6; j += 2) k[round_at(j)] ^= d;
        if (g + 1 < groups) d = fl_offset(d, k[8 * (g + 1) + 1]);
    }
    k[n - 2] ^= d;
    d = k[n - 1];
    for (unsigned g = groups; g-- > 0;) {
        for (unsigned j = 1; j <= 5; j += 2) k[round_at(6 * g + j)] ^= d;
        if (g > 0) d = fl_offset(d, k[8 * g]);
    }
    k[0] ^= d;
    /* 2: every key at the end of the F-function before its own */
#define K(j) k[round_at(j)]
    t[0] = k[0] ^ K(1);
    for (unsigned j = 1; j <= rounds; j++) {
        uint64_t v;
        if (j == 1) v = K(2);
        else if (j == rounds) v = K(rounds - 1);
        else if (j % 6 == 0) v = K(j - 1) ^ fl_offset(K(j + 1), k[8 * (j / 6)]);
        else if (j % 6 == 1) v = K(j + 1) ^ fl_offset(K(j - 1), k[8 * (j / 6) + 1]);
        else v = K(j - 1) ^ K(j + 1);
        t[round_at(j)] = v;
    }
#undef K
    for (unsigned g = 1; g < groups; g++) t[8 * g] = k[8 * g], t[8 * g + 1] = k[8 * g + 1];
    t[n - 2] = k[n - 2] ^ k[round_at(rounds)];
    memset(table, 0, UPSTREAM_CTX_LENGTH);
    for (size_t i = 0; i < n; i++) {
        uint32_t w[2] = {(uint32_t)(t[i] >> 32), (uint32_t)t[i]};
        memcpy(table + 8 * i, w, 8);
    }
}

/* sk and rounds: an encryption schedule of the reference (struct camellia_key's) */
static void upstream_context(uint8_t ctx[UPSTREAM_CTX_BYTES], const uint64_t *sk, unsigned rounds,
                             size_t keylen, int linux_ctx)
{
    upstream_table(ctx, sk, rounds);
    uint32_t length = (uint32_t)(linux_ctx ? keylen : 8 * keylen);
    memcpy(ctx + UPSTREAM_CTX_LENGTH, &length, sizeof length);
}

/* What an entry point is: its operation (blockcipher.h: 0 ECB encrypt, 1 ECB decrypt, 2 CTR),
 * the blocks one call takes (exactly, or at most for libgcrypt's blk1_32 ones, which take the
 * count as a fourth argument), and whose context it reads. */
struct outside_entry {
    const char *name;
    int op;
    size_t width;
    int count_arg; /* takes the block count (1..width) as its fourth argument */
    int linux_ctx;
};
static const struct outside_entry gcry_entries[] = {
    {"enc_blk64", 0, 64, 0, 0},   {"dec_blk64", 1, 64, 0, 0},   {"ctr_enc (64 blocks)", 2, 64, 0, 0},
    {"enc_blk1_32", 0, 32, 1, 0}, {"dec_blk1_32", 1, 32, 1, 0}, {"ctr_enc (32 blocks)", 2, 32, 0, 0},
};
static const struct outside_entry linux_entries[] = {
    {"ecb_enc_32way", 0, 32, 0, 1},
    {"ecb_dec_32way", 1, 32, 0, 1},
};
static const char *const gcry_ops[] = {"enc_blk64", "dec_blk64", "ctr_enc (64 blocks)",
                                       "enc_blk1_32", "dec_blk1_32", "ctr_enc (32 blocks)"};
static const char *const linux_ops[] = {"ecb_enc_32way", "ecb_dec_32way"};

struct outside_ops {
    const void *fn;
    const struct outside_entry *entry;
};
static struct outside_ops outside_kernels[OUTSIDE_MAX]; /* one per outside kernel */
static size_t noutside;

static const void *entry_ops(const void *fn, const struct outside_entry *e)
{
    if (noutside == OUTSIDE_MAX) return NULL; /* outside.c makes at most OUTSIDE_MAX */
    outside_kernels[noutside] = (struct outside_ops){fn, e};
    return &outside_kernels[noutside++];
}

static const void *gcry_make_ops(const void *fn, size_t op)
{
    return entry_ops(fn, &gcry_entries[op]);
}

static const void *linux_make_ops(const void *fn, size_t op)
{
    return entry_ops(fn, &linux_entries[op]);
}

static int outside_does(const struct impl *im, int op)
{
    const struct outside_ops *o = im->ops;
    return o->entry->op == op;
}

/* ECB in calls of width blocks (the last one shorter for a blk1_32 entry point); CTR in the
 * calls the case splits it into, each a multiple of width (entry_accepts). */
static void outside_call(const struct impl *im, const struct bc_case *c, int op, uint8_t *dst,
                         const uint8_t *src, uint8_t *ctr)
{
    const struct outside_ops *o = im->ops;
    const struct outside_entry *e = o->entry;
    unsigned rounds;
    size_t bytes;
    uint8_t ctxbuf[UPSTREAM_CTX_BYTES];
    const uint64_t *sk = bc_reference_schedule(0, &rounds, &bytes);
    upstream_context(ctxbuf, sk, rounds, c->keylen, e->linux_ctx);
    const uint8_t *ctx = drv_in(BC_BUF_SCHEDULE, ctxbuf, UPSTREAM_CTX_BYTES);
    size_t done = 0;
    for (size_t i = 0; i <= (op == 2 ? c->nsplits : 0); i++) {
        size_t n = op == 2 && i < c->nsplits ? c->split[i] : c->nblocks - done;
        for (size_t left = n; left;) {
            size_t now = left < e->width ? left : e->width;
            if (op == 2) DRV_CALL(o->fn, ctx, dst + 16 * done, src + 16 * done, ctr);
            else if (e->count_arg)
                DRV_CALL(o->fn, ctx, dst + 16 * done, src + 16 * done, (unsigned)now);
            else DRV_CALL(o->fn, ctx, dst + 16 * done, src + 16 * done);
            done += now, left -= now;
        }
    }
}

/* Which entry point: 64 blocks of zeros under a fixed key, the output filled with a marker,
 * against the reference's encryption, decryption and CTR from a zero counter; how much of the
 * marker is left gives the width.  A CTR entry point takes a counter pointer where a blk1_32
 * one takes a count, so the symbol's name decides which of the two is probed (libgcrypt's
 * names all say "ctr" for CTR); an entry point of three arguments ignores the fourth. */
/* The symbol of the outside kernel at fn (identify() is given its address). */
static const char *symbol_of(const void *fn)
{
    const struct outside_kernel *const all[OUTSIDE_MAX] = {&asmdiff_outside, &asmdiff_outside1,
                                                           &asmdiff_outside2, &asmdiff_outside3};
    for (size_t i = 0; i < OUTSIDE_MAX; i++)
        if (all[i] && all[i]->fn == fn)
            return all[i]->symbol;
    return "";
}

static int identify(const void *fn, const struct outside_entry *entries, size_t nentries)
{
    static uint8_t in[16 * 64], out[16 * 64], want[3][16 * 64];
    uint8_t ctx[UPSTREAM_CTX_BYTES], key[16] = {1, 2, 3, 4}, ctr0[16] = {0}, iv[16] = {0};
    struct camellia_key ek, dk;
    camellia_set_encrypt_key(&ek, key, 16);
    camellia_set_decrypt_key(&dk, key, 16);
    camellia_ecb(&ek, want[0], in, 64);
    camellia_ecb(&dk, want[1], in, 64);
    camellia_ctr(&ek, want[2], in, 64, ctr0);
    upstream_context(ctx, ek.sk, ek.rounds, 16, entries[0].linux_ctx);
    memset(out, 0xa5, sizeof out);
    int ctr = strstr(symbol_of(fn), "ctr") != NULL;
    if (ctr) DRV_PROBE(fn, ctx, out, (const uint8_t *)in, iv);
    else DRV_PROBE(fn, ctx, out, (const uint8_t *)in, 32u);
    for (size_t i = 0; i < nentries; i++) {
        const struct outside_entry *e = &entries[i];
        if ((e->op == 2) != ctr) continue;
        size_t w = e->count_arg ? 32 : e->width;
        if (!memcmp(out, want[e->op], 16 * w) &&
            (w == 64 || memcmp(out + 16 * w, want[e->op] + 16 * w, 16 * w)))
            return (int)i;
    }
    return -1;
}

static int gcry_identify(const void *fn)
{
    return identify(fn, gcry_entries, sizeof gcry_entries / sizeof gcry_entries[0]);
}

static int linux_identify(const void *fn)
{
    return identify(fn, linux_entries, sizeof linux_entries / sizeof linux_entries[0]);
}

/* Linux's ECB entry points take exactly 32 blocks.  libgcrypt's: blk64 exactly 64; blk1_32
 * 2 to 32 (its glue calls the GFNI one from 2 blocks, the AES-NI one from 5; the C code does
 * fewer); CTR exactly 64 or 32 per call, as libgcrypt's ctr16be bulk interface: its caller
 * never lets the low 16 bits of the big-endian counter wrap inside a call, and the assembly
 * adds to those 16 bits only (vpaddw) on its fast path. */
static int entry_accepts(const void *cv)
{
    const struct bc_case *c = cv;
    const struct outside_ops *o = drv_outside_asking();
    const struct outside_entry *e = o->entry;
    if (!c->nblocks) return 0;
    if (e->count_arg) return c->nblocks % e->width != 1;
    if (c->nblocks % e->width) return 0;
    for (size_t i = 0; i < c->nsplits; i++)
        if (c->split[i] % e->width) return 0;
    size_t low16 = (size_t)c->ctr[14] << 8 | c->ctr[15];
    return e->op != 2 || low16 + c->nblocks < 0x10000;
}

static const struct convention conventions[] = {
    {.name = "libgcrypt",
     .prototype = "void _gcry_camellia_gfni_avx512_enc_blk64(const CAMELLIA_context *ctx, "
                  "unsigned char *out, const unsigned char *in) (and dec_blk64, and "
                  "ctr_enc(ctx, out, in, unsigned char *ctr): 64 blocks); the AVX2 files' "
                  "_gcry_camellia_{aesni,vaes,gfni}_avx2_enc_blk1_32(ctx, out, in, "
                  "unsigned int nblocks) (and dec_blk1_32: 2..32 blocks) and ctr_enc (32 "
                  "blocks); ctx: the NTT key table (272 bytes), keybitlength at 272; CTR as "
                  "ctr16be: the low 16 counter bits do not wrap inside a call",
     .clean = CONV_CLEAN_VECTORS,
     .leftovers = "the C caller wipes the stack depth the function returns (_gcry_burn_stack)",
     .ops = gcry_ops,
     .nops = sizeof gcry_ops / sizeof gcry_ops[0],
     .make_ops = gcry_make_ops,
     .identify = gcry_identify,
     .accepts = entry_accepts},
    {.name = "linux",
     .prototype = "asmlinkage void camellia_ecb_enc_32way(const void *ctx, u8 *dst, "
                  "const u8 *src) (and camellia_ecb_dec_32way): exactly 32 blocks; ctx = "
                  "struct camellia_ctx (the NTT key table, key_length in bytes at 272)",
     .clean = 0,
     .leftovers = CONV_LINUX_LEFTOVERS,
     .ops = linux_ops,
     .nops = sizeof linux_ops / sizeof linux_ops[0],
     .make_ops = linux_make_ops,
     .identify = linux_identify,
     .accepts = entry_accepts},
    /* our own kernels' prototypes (a patch to one of our forms): blockcipher.h's row, with its
     * own state per kernel, so a --baseline pair is one check build */
    BC_OWN_CONVENTION(
        "as kernels/camellia/camellia.h: void camellia_ecb_*(const uint64_t *sk, unsigned int "
        "rounds, uint8_t *out, const uint8_t *in, size_t nblocks) or camellia_ctr_*(sk, "
        "rounds, out, in, nblocks, uint8_t ctr[16]); sk the reference's subkeys in order of "
        "use (encryption or decryption schedule), any block count, ctr a 128-bit big-endian "
        "counter"),
};
#define OUTSIDE_HOOKS .outside_does = outside_does, .outside_call = outside_call,
#define CONVENTIONS .conventions = conventions, .nconventions = 3
#else
#define OUTSIDE_HOOKS
#define CONVENTIONS .nconventions = 0
#endif

const struct bc_cipher bc_cipher = {
    .name = "CAMELLIA",
    .kat_file = "corpus/camellia/kat.txt",
    .widths = {16, 32, 64},
    .schedule = schedule,
    .ecb = ecb,
    .ctr = ctr,
    .kernel_offset = offsetof(struct camellia_key, sk),
#if ARCH_X86_64
    .extra_run = setkey_run,
#endif
    OUTSIDE_HOOKS
};

static const struct bc_lib_ops reference = {ref_ecb, ref_ctr};
#if ARCH_X86_64
#define KOPS(e, c) {(bc_kernel_ecb)(e), (bc_kernel_ctr)(c)}
static const struct bc_kernel_ops cmpmask =
    KOPS(camellia_ecb_avx512_gfni_cmpmask, camellia_ctr_avx512_gfni_cmpmask);
static const struct bc_kernel_ops gfnishift =
    KOPS(camellia_ecb_avx512_gfni_gfnishift, camellia_ctr_avx512_gfni_gfnishift);
static const struct bc_kernel_ops field =
    KOPS(camellia_ecb_avx512_gfni_field, camellia_ctr_avx512_gfni_field);
static const struct bc_kernel_ops avx2 = KOPS(camellia_ecb_avx2_gfni, camellia_ctr_avx2_gfni);
#define NEEDS_AVX512_GFNI (CPU_AVX512F | CPU_AVX512BW | CPU_AVX512VL | CPU_GFNI)
#endif
#if ASMDIFF_HAVE_OPENSSL
static const struct bc_lib_ops openssl = {oracle_openssl_camellia_ecb, oracle_openssl_camellia_ctr};
#endif
#if ASMDIFF_HAVE_NETTLE
static const struct bc_lib_ops nettle = {oracle_nettle_camellia_ecb, oracle_nettle_camellia_ctr};
#else
static const char *nettle_not_built(void)
{
    return "not built: nettle was not found when this build was configured (nettle-dev)";
}
#endif
#if ASMDIFF_HAVE_GCRYPT
static const struct bc_lib_ops gcrypt = {oracle_gcrypt_camellia_ecb, oracle_gcrypt_camellia_ctr};
#endif

static const struct impl impls[] = {
    IMPL("c-reference", 0, IMPL_REFERENCE, &reference),
#if ARCH_X86_64
    IMPL("x86_64-avx512-gfni-cmpmask", NEEDS_AVX512_GFNI, IMPL_KERNEL | IMPL_CLEAN, &cmpmask),
    IMPL("x86_64-avx512-gfni-gfnishift", NEEDS_AVX512_GFNI, IMPL_KERNEL | IMPL_CLEAN, &gfnishift),
    IMPL("x86_64-avx512-gfni-field", NEEDS_AVX512_GFNI, IMPL_KERNEL | IMPL_CLEAN, &field),
    IMPL("x86_64-avx2-gfni", CPU_AVX2 | CPU_GFNI, IMPL_KERNEL | IMPL_CLEAN, &avx2),
#endif
#if ASMDIFF_HAVE_OPENSSL
    IMPL("openssl", 0, IMPL_LIBRARY, &openssl, .describe = oracle_openssl_camellia_describe),
#endif
#if ASMDIFF_HAVE_NETTLE
    IMPL("nettle", 0, IMPL_LIBRARY, &nettle, .describe = oracle_nettle_camellia_describe),
#else
    IMPL("nettle", 0, IMPL_LIBRARY, NULL, .unavailable = nettle_not_built),
#endif
#if ASMDIFF_HAVE_GCRYPT
    IMPL("libgcrypt", 0, IMPL_LIBRARY, &gcrypt, .describe = oracle_gcrypt_describe,
         .label = oracle_gcrypt_label,
         .version = oracle_gcrypt_version, .hwf = oracle_gcrypt_hwf),
#endif
};

const struct family asmdiff_family = BC_FAMILY("camellia", "RFC 3713", impls, CONVENTIONS);
