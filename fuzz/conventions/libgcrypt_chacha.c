/* libgcrypt_chacha.c — libgcrypt 1.12's x86-64 ChaCha20 assembly (cipher/chacha20-amd64-
 * {ssse3,avx2,avx512}.S) as a convention of the chacha family (./asmdiff check chacha
 * --convention libgcrypt), as cipher/chacha20.c declares and calls the entry points:
 *
 *   unsigned int _gcry_chacha20_amd64_avx2_blocks8(u32 *state, byte *dst, const byte *src,
 *                                                  size_t nblks);
 *
 * and likewise _gcry_chacha20_amd64_ssse3_blocks4, _ssse3_blocks1 and _avx512_blocks: nblks
 * whole 64-byte blocks of src XORed with the ChaCha20 keystream (20 rounds, fixed in the
 * files) from the 16-word state (RFC 8439's layout: constants, key, words 12-15), each call
 * advancing the state's counter itself by nblks.  The counter is words 12-13 as ONE 64-bit
 * number (the files add to it with a 64-bit add, and their lanes carry from word 12 into word
 * 13), words 14-15 the nonce: the family's ctr64 contract, wrapping at 2^64.  libgcrypt's
 * RFC 8439 use (a 12-byte nonce in words 13-15, chacha20_ivsetup) is the same computation, so
 * at 2^32 its counter carries into word 13, the nonce's first word: what docs/chacha.md states
 * for libgcrypt, here judged on the assembly itself (the family's cases put word 12 1..40 blocks
 * before 2^32 and word 13 at all-ones, so both wraps fall on every block of a call).  The
 * family's ctr32 operations (block, ctr32, xchacha: word 12 wrapping alone) are not this
 * function's and are not run; they are listed as not covered.
 *
 * How many blocks a call takes is the row's (chacha20.c's do_chacha20_encrypt_stream_tail and
 * chacha20_blocks): blocks8 a multiple of 8, blocks4 a multiple of 4, blocks1 and the AVX-512
 * function any number of at least one (blocks1 with none would loop: the glue never passes 0).
 * Each of the family's calls is made as the glue makes it: one call of all the whole blocks the
 * row takes; then what is left (fewer blocks than the row's multiple, and a partial block) is
 * made as the glue makes a partial block's keystream (chacha20_blocks(ctx, ctx->pad, zero_pad,
 * 1)): one call of the row's smallest count (1, or its multiple) from zeros into a pad
 * (stream_upstream.h's STREAM_B_BLOCK, a guarded buffer, filled with zeros and given as source
 * and destination: the glue's zero_pad and pad are two arrays, the computation the same), the
 * bytes needed XORed in C, and the counter then set to the blocks used (the glue keeps the rest of the pad
 * for its next call; the family's contract is a counter advanced by the blocks used) after the
 * call's own advance was checked.  For blocks8 and blocks4 that stands in for the functions the
 * glue hands those blocks to (blocks4, blocks1), so every case, the known answers of a block
 * or two included, calls the entry point.  The return value is the stack depth the glue burns
 * (_gcry_burn_stack): 0 from every entry point here, each clears its stack and vector
 * registers itself, so leftovers are findings (libgcrypt's SIMD code promises that).
 *
 * Not covered: the stitched _gcry_chacha20_poly1305_amd64_{ssse3_blocks1,ssse3_blocks4,
 * avx2_blocks8}(state, dst, src, nblks, poly1305_state, poly1305_src) compute ChaCha20 and
 * Poly1305 in one call (the keystream XOR, and Poly1305 blocks over another buffer into
 * libgcrypt's POLY1305_STATE); each family's contract judges one of the two, and half a call's
 * results judged is not a check: they need an AEAD family (RFC 8439 2.8), and refuse() says so
 * before anything runs (struct convention.refuse).  The System V call is every platform's (chacha20.c calls them sysv_abi on Win64 too).
 * Only the prototypes, the state layout and how chacha20.c calls them are facts used here. */
#include <string.h>

#include "driver.h"
#include "stream_upstream.h"

struct lc_row {
    const char *name; /* the operation (--op), and the end of its symbol */
    size_t multiple;  /* the blocks of a call are a multiple of it (1: any number) */
};

static const struct lc_row rows[] = {
    {"avx512_blocks", 1},
    {"avx2_blocks8", 8},
    {"ssse3_blocks4", 4},
    {"ssse3_blocks1", 1},
};
#define NROWS (sizeof rows / sizeof rows[0])

typedef unsigned int (*gcry_chacha_fn)(uint32_t *state, uint8_t *dst, const uint8_t *src,
                                       size_t nblks);

struct lc_kernel {
    struct stream_upstream k; /* first: the family's view (stream_upstream.h) */
    const struct lc_row *row;
};

static uint64_t counter(const uint32_t state[16])
{
    return state[12] | (uint64_t)state[13] << 32;
}

/* One of the family's calls, as the glue makes it (above). */
static void ctr64(const struct stream_upstream *k, uint32_t state[16], uint8_t *dst,
                  const uint8_t *src, size_t len, unsigned int nrounds)
{
    (void)nrounds; /* 20: accepts() */
    const struct lc_kernel *lk = (const struct lc_kernel *)k;
    size_t m = lk->row->multiple, blocks = len / 64, bulk = blocks - blocks % m;
    if (bulk) DRV_CALL((gcry_chacha_fn)k->fn, state, dst, src, bulk);
    size_t done = 64 * bulk, rest = len - done;
    if (!rest) return;
    /* the rest: the keystream of m blocks from zeros into the pad (in place), XORed in C */
    static const uint8_t zeros[64 * 8];
    uint64_t ctr = counter(state);
    uint8_t *pad = drv_inout(STREAM_B_BLOCK, zeros, 64 * m);
    DRV_CALL((gcry_chacha_fn)k->fn, state, pad, (const uint8_t *)pad, m);
    drv_expect_word("the counter (words 12-13) after the pad's call: advanced by its blocks",
                    ctr + m, counter(state));
    for (size_t i = 0; i < rest; i++) dst[done + i] = src[done + i] ^ pad[i];
    ctr += (rest + 63) / 64;
    state[12] = (uint32_t)ctr, state[13] = (uint32_t)(ctr >> 32);
}

/* The bench: the same calls as ctr64's, made directly (no checked call; the pad a local
 * array).  The bench's counter starts far from 2^32, so its keystream is ctr32's too. */
static void bench32(const struct stream_upstream *k, uint32_t state[16], uint8_t *buf,
                    size_t len, unsigned int nrounds)
{
    (void)nrounds; /* 20: rounds_only */
    const struct lc_kernel *lk = (const struct lc_kernel *)k;
    size_t m = lk->row->multiple, blocks = len / 64, bulk = blocks - blocks % m;
    if (bulk) ((gcry_chacha_fn)k->fn)(state, buf, buf, bulk);
    size_t done = 64 * bulk, rest = len - done;
    if (!rest) return;
    uint8_t pad[64 * 8] = {0};
    uint64_t ctr = counter(state);
    ((gcry_chacha_fn)k->fn)(state, pad, pad, m);
    for (size_t i = 0; i < rest; i++) buf[done + i] ^= pad[i];
    ctr += (rest + 63) / 64;
    state[12] = (uint32_t)ctr, state[13] = (uint32_t)(ctr >> 32);
}

static struct lc_kernel kernels[OUTSIDE_MAX];
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
    kernels[nkernels] = (struct lc_kernel){
        .k = {.fn = fn, .max_blocks = SIZE_MAX / 64, .ctr32 = NULL, .ctr64 = ctr64,
              .bench32 = bench32, .rounds_only = 20},
        .row = &rows[op]};
    return &kernels[nkernels++].k;
}

static int ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), m = strlen(end);
    return n >= m && !strcmp(s + n - m, end);
}

/* The stitched ChaCha20-Poly1305 functions (whose names end like the rows) are not this
 * family's (above). */
static const char *refuse(const struct convention *cv, const char *symbol)
{
    (void)cv;
    return strstr(symbol, "chacha20_poly1305")
               ? "it computes ChaCha20 and Poly1305 in one call (state, dst, src, nblks, "
                 "poly1305_state, poly1305_src): the chacha family judges the keystream alone, "
                 "the poly1305 family the MAC alone; not covered"
               : NULL;
}

/* The row the symbol's name ends with. */
static int identify(const struct convention *cv, const void *fn, const char *symbol)
{
    (void)cv, (void)fn;
    for (size_t i = 0; i < NROWS; i++)
        if (ends_with(symbol, rows[i].name)) return (int)i;
    return -1;
}

/* ChaCha20 only (the files fix 20 rounds): a case at 8 or 12 rounds is not theirs. */
static int accepts(const struct convention *cv, const void *ops, const void *c)
{
    (void)cv, (void)ops;
    return ((const struct stream_case_head *)c)->rounds == 20;
}

/* registered by name in fuzz/meson.build's 'conventions' list (driver.h: struct convention) */
const struct convention convention_libgcrypt_chacha = {
    .name = "libgcrypt",
    .prototype = "unsigned int _gcry_chacha20_amd64_avx512_blocks / _avx2_blocks8 / "
                 "_ssse3_blocks4 / _ssse3_blocks1(u32 *state, byte *dst, const byte *src, "
                 "size_t nblks): ChaCha20 (20 rounds) of nblks whole blocks (blocks8 a multiple "
                 "of 8, blocks4 of 4, the others at least 1), words 12-13 a 64-bit counter the "
                 "call advances (ctr64; at 2^32 word 12 carries into word 13); returns the "
                 "stack depth to burn (0)",
    .clean = CONV_CLEAN_VECTORS | CONV_CLEAN_STACK,
    .leftovers = "",
    .nops = NROWS,
    .op_name = op_name,
    .make_ops = make_ops,
    .identify = identify,
    .accepts = accepts,
    .rows = rows,
    .refuse = refuse,
};
