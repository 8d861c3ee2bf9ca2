/* linux_chacha.c — Linux's x86 ChaCha assembly (arch/x86/crypto/chacha-{ssse3,avx2,avx512vl}-
 * x86_64.S of Linux 6.12) as a convention of the chacha family (./asmdiff check chacha
 * --convention linux), and on riscv64 arch/riscv/crypto's chacha-riscv64-zvkb.S (below), as
 * their glue (chacha_glue.c, chacha_dosimd; chacha-riscv64-glue.c) declares and calls them:
 *
 *   asmlinkage void chacha_8block_xor_avx512vl(u32 *state, u8 *dst, const u8 *src,
 *                                              unsigned int len, int nrounds);
 *
 * and likewise the 2- and 4-block AVX-512VL, the 2-, 4- and 8-block AVX2 and the 1- and
 * 4-block SSSE3 entry points: each XORs min(len, width * 64) bytes of src with the keystream
 * from the state (RFC 8439's layout: constants, key, word 12 the block counter, words 13-15
 * the nonce) at nrounds, and writes nothing of the state.  The glue advances the counter in C:
 * state[12] += the blocks each call used, a 32-bit add, so the counter wraps at 2^32 and word
 * 13 is never touched: the family's ctr32 contract; Linux has no 64-bit counter form (ctr64 is
 * not run).  The rows: a symbol is one entry point, identified by the end of its name; each of
 * the family's calls is made as calls of at most the row's width (every one a length the glue
 * passes: the glue calls the 8-block function with more than 512 bytes left too, of which it
 * takes 512), none for an empty call (the glue makes none).
 *
 * HChaCha: the SSSE3 file's hchacha_block_ssse3(const u32 *state, u32 *out, int nrounds) is
 * what xchacha_simd computes XChaCha's subkey with (state from chacha_init over the key and
 * the IV's first 16 bytes; out the subkey's 8 words, as subctx.key); the glue then streams
 * under it with chacha_dosimd and the IV's last 16 bytes rearranged (counter, 0, nonce[16..24)).
 * Its row runs the family's xchacha operation with the subkey from one checked call of it and
 * the keystream from the reference: the stream entry points are rows of their own (each judged
 * on its own check), and a finding of this row is then the subkey's alone.
 *
 * The length: the prototype says unsigned int, but every entry point of the AVX-512VL file
 * compares and masks all of rcx (cmp $0x10,%rcx ...).  The SysV ABI leaves the upper half of a
 * 32-bit argument undefined, and the checked call puts junk there for one (abi.h): passed so,
 * every entry point misreads the length (no output for 64 bytes, reads past the input: seen
 * when this convention was written, docs/chacha.md).  The glue's compiler zero-extends in
 * practice (its unsigned int arithmetic is 32-bit), so the convention passes len zero-extended,
 * as a 64-bit value, and the other checks judge the rest.
 *
 * What each file needs of the CPU differs (SSSE3; AVX2; AVX-512VL with AVX512BW, which the
 * glue checks before using them): the convention declares none, the check's --needs says.
 * Linux's leftovers (vector and opmask registers, stack) are information (CONV_LINUX_LEFTOVERS).
 * Only the prototypes and the glue's calls are facts we use; nothing of the files is copied. */
#include <string.h>

#include "driver.h"
#include "stream_upstream.h"

#if defined(__riscv)
/* riscv64: arch/riscv/crypto/chacha-riscv64-zvkb.S, as chacha-riscv64-glue.c declares and
 * calls it:
 *   asmlinkage void chacha20_zvkb(const u32 key[8], const u8 *in, u8 *out, size_t len,
 *                                 const u32 iv[4]);
 * ChaCha20 only (20 rounds; the constants are the file's own): key the 8 key words, iv words
 * 12-15 (iv[0] the block counter), len a nonzero multiple of 64: the file takes whole blocks,
 * lane i of a vector group at counter iv[0] + i in 32-bit lanes, and writes neither key nor iv.
 * The glue, per request: one call on the message's whole blocks, then iv[0] += their count (a
 * u32: the counter wraps at 2^32, word 13 untouched: the family's ctr32 contract, as on x86);
 * a tail of 1..63 bytes copied into a 64-byte block buffer, one call of 64 bytes in place on
 * it at the advanced counter, the tail copied out.  So each of the family's calls is such a
 * request: key and iv are the placed state's words 4-11 and 12-15 (the family's final state
 * compare sees any write to them), the tail goes through the family's block buffer
 * (STREAM_B_BLOCK, guarded, its bytes past the tail junk as the glue's uninitialised stack
 * array), and the counter moves by the blocks used (the tail's one included, the family's
 * contract; the glue's request ends there).  An empty call makes no call (nor does the glue).
 * Needs V and Zvkb (the glue also wants VLEN >= 128, which every check VLEN is). */
typedef void (*zvkb_fn)(const uint32_t key[8], const uint8_t *in, uint8_t *out, size_t len,
                        const uint32_t iv[4]);

static void zvkb_glue(const struct stream_upstream *k, uint32_t state[16], uint8_t *dst,
                      const uint8_t *src, size_t len, int checked)
{
    size_t whole = len & ~(size_t)63, tail = len & 63;
    zvkb_fn fn = (zvkb_fn)k->fn;
    if (whole) {
        if (checked) DRV_CALL(fn, state + 4, src, dst, whole, state + 12);
        else fn(state + 4, src, dst, whole, state + 12);
        state[12] += (uint32_t)(whole / 64);
    }
    if (tail) {
        static uint8_t staged[64], local[64];
        memset(staged, 0xa5 ^ (int)tail, sizeof staged); /* the glue's array: not cleared */
        memcpy(staged, src + whole, tail);
        uint8_t *blk = local;
        if (checked) {
            blk = drv_inout(STREAM_B_BLOCK, staged, 64);
            DRV_CALL(fn, state + 4, blk, blk, (size_t)64, state + 12);
        } else {
            memcpy(blk, staged, 64);
            fn(state + 4, blk, blk, 64, state + 12);
        }
        memcpy(dst + whole, blk, tail);
        state[12] += 1;
    }
}

static void zvkb_ctr32(const struct stream_upstream *k, uint32_t state[16], uint8_t *dst,
                       const uint8_t *src, size_t len, unsigned int nrounds)
{
    (void)nrounds; /* 20: accepts() */
    zvkb_glue(k, state, dst, src, len, 1);
}

static void zvkb_bench32(const struct stream_upstream *k, uint32_t state[16], uint8_t *buf,
                         size_t len, unsigned int nrounds)
{
    (void)nrounds;
    zvkb_glue(k, state, buf, buf, len, 0);
}

static struct stream_upstream kernels[OUTSIDE_MAX];
static size_t nkernels;

static const void *make_ops(const struct convention *cv, const void *fn, size_t op)
{
    (void)cv, (void)op;
    if (nkernels == OUTSIDE_MAX) return NULL;
    kernels[nkernels] = (struct stream_upstream){.fn = fn, .max_blocks = 0, .ctr32 = zvkb_ctr32,
                                                 .bench32 = zvkb_bench32, .rounds_only = 20};
    return &kernels[nkernels++];
}

/* ChaCha20 only: the file's rounds are 20 */
static int accepts(const struct convention *cv, const void *ops, const void *c)
{
    (void)cv, (void)ops;
    return ((const struct stream_case_head *)c)->rounds == 20;
}

static const char *const zvkb_ops[] = {"chacha20_zvkb"};
/* registered by name in fuzz/meson.build's 'conventions' list (driver.h: struct convention) */
const struct convention convention_linux_chacha = {
    .name = "linux",
    .prototype = "asmlinkage void chacha20_zvkb(const u32 key[8], const u8 *in, u8 *out, "
                 "size_t len, const u32 iv[4]): ChaCha20, len a nonzero multiple of 64, iv[0] "
                 "the block counter (32-bit lanes), key and iv not written; the glue's "
                 "iv[0] += blocks (a u32: wraps at 2^32) and a tail through a 64-byte block "
                 "buffer, XORed in place",
    .clean = 0,
    .leftovers = CONV_LINUX_LEFTOVERS,
    .ops = zvkb_ops,
    .nops = 1,
    .make_ops = make_ops,
    .accepts = accepts,
    .needs = "v,zvkb",
};
#else
enum lc_kind {
    LC_XOR,     /* fn(state, dst, src, len, nrounds): min(len, width * 64) bytes XORed */
    LC_HCHACHA, /* fn(state, out, nrounds): HChaCha's 8 words */
};

struct lc_row {
    const char *name; /* the operation (--op), and the end of its symbol */
    size_t blocks;
    enum lc_kind kind;
};

/* longer names first: "_4block_xor_ssse3" also ends with "block_xor_ssse3" */
static const struct lc_row rows[] = {
    {"8block_xor_avx512vl", 8, LC_XOR}, {"4block_xor_avx512vl", 4, LC_XOR},
    {"2block_xor_avx512vl", 2, LC_XOR}, {"8block_xor_avx2", 8, LC_XOR},
    {"4block_xor_avx2", 4, LC_XOR},     {"2block_xor_avx2", 2, LC_XOR},
    {"4block_xor_ssse3", 4, LC_XOR},    {"_block_xor_ssse3", 1, LC_XOR},
    {"hchacha_block_ssse3", 0, LC_HCHACHA},
};
#define NROWS (sizeof rows / sizeof rows[0])

/* len as the files read it: all of rcx (the prototype's unsigned int, zero-extended) */
typedef void (*linux_chacha_fn)(uint32_t *state, uint8_t *dst, const uint8_t *src, size_t len,
                                int nrounds);

/* chacha_dosimd's loop on one entry point: calls of at most the width, the counter advanced
 * by the blocks of each (a u32 add) after it; each call checked, or direct (the bench). */
static void glue(const struct stream_upstream *k, uint32_t state[16], uint8_t *dst,
                 const uint8_t *src, size_t len, unsigned int nrounds, int checked)
{
    size_t width = 64 * k->max_blocks;
    while (len) {
        size_t n = len < width ? len : width;
        /* len zero-extended to 64 bits: the files use all of rcx (above) */
        if (checked) DRV_CALL((linux_chacha_fn)k->fn, state, dst, src, (size_t)n, (int)nrounds);
        else ((linux_chacha_fn)k->fn)(state, dst, src, n, (int)nrounds);
        state[12] += (uint32_t)((n + 63) / 64);
        dst += n, src += n, len -= n;
    }
}

static void ctr32(const struct stream_upstream *k, uint32_t state[16], uint8_t *dst,
                  const uint8_t *src, size_t len, unsigned int nrounds)
{
    glue(k, state, dst, src, len, nrounds, 1);
}

static void bench32(const struct stream_upstream *k, uint32_t state[16], uint8_t *buf,
                    size_t len, unsigned int nrounds)
{
    glue(k, state, buf, buf, len, nrounds, 0);
}

/* xchacha_simd's subkey: hchacha_block_ssse3(state, subctx.key, nrounds), one call, the state
 * from chacha_init over the key and the XChaCha IV's first 16 bytes (words 12-15) */
typedef void (*hchacha_fn)(const uint32_t *state, uint32_t *out, int nrounds);

static void hchacha(const struct stream_upstream *k, const uint32_t *state, uint32_t *out,
                    unsigned int nrounds)
{
    DRV_CALL((hchacha_fn)k->fn, state, out, (int)nrounds);
}

static struct stream_upstream kernels[OUTSIDE_MAX];
static size_t nkernels;

static const char *op_name(const struct convention *cv, size_t op)
{
    (void)cv;
    return op < NROWS ? rows[op].name : "?";
}

static const void *make_ops(const struct convention *cv, const void *fn, size_t op)
{
    (void)cv;
    if (nkernels == OUTSIDE_MAX || op >= NROWS) return NULL;
    if (rows[op].kind == LC_HCHACHA)
        kernels[nkernels] = (struct stream_upstream){.fn = fn, .hchacha = hchacha};
    else
        kernels[nkernels] = (struct stream_upstream){.fn = fn, .max_blocks = rows[op].blocks,
                                                     .ctr32 = ctr32, .ctr64 = NULL,
                                                     .bench32 = bench32};
    return &kernels[nkernels++];
}

static int ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), m = strlen(end);
    return n >= m && !strcmp(s + n - m, end);
}

/* The row the symbol's name ends with (Linux names its entry points by width and ISA). */
static int identify(const struct convention *cv, const void *fn, const char *symbol)
{
    (void)cv, (void)fn;
    for (size_t i = 0; i < NROWS; i++)
        if (ends_with(symbol, rows[i].name)) return (int)i;
    return -1;
}

/* registered by name in fuzz/meson.build's 'conventions' list (driver.h: struct convention) */
const struct convention convention_linux_chacha = {
    .name = "linux",
    .prototype = "asmlinkage void chacha_{2,4,8}block_xor_avx512vl / _avx2, "
                 "chacha_{,4}block_xor_ssse3(u32 *state, u8 *dst, const u8 *src, unsigned int "
                 "len, int nrounds) (len passed zero-extended: the files read all of rcx): "
                 "min(len, width * 64) bytes from state's counter (word 12), "
                 "state not written; the glue's state[12] += blocks (a u32: wraps at 2^32); "
                 "hchacha_block_ssse3(const u32 *state, u32 *out, int nrounds): HChaCha's 8 "
                 "words, XChaCha's subkey (its keystream then from the reference)",
    .clean = 0,
    .leftovers = CONV_LINUX_LEFTOVERS,
    .nops = NROWS,
    .op_name = op_name,
    .make_ops = make_ops,
    .identify = identify,
    .rows = rows,
};
#endif
