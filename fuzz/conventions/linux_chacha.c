/* linux_chacha.c — Linux's x86 ChaCha assembly (arch/x86/crypto/chacha-{ssse3,avx2,avx512vl}-
 * x86_64.S of Linux 6.12) as a convention of the chacha family (./asmdiff check chacha
 * --convention linux), as its glue (chacha_glue.c, chacha_dosimd) declares and calls them:
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

struct lc_row {
    const char *name; /* the operation (--op), and the end of its symbol */
    size_t blocks;
};

/* longer names first: "_4block_xor_ssse3" also ends with "block_xor_ssse3" */
static const struct lc_row rows[] = {
    {"8block_xor_avx512vl", 8}, {"4block_xor_avx512vl", 4}, {"2block_xor_avx512vl", 2},
    {"8block_xor_avx2", 8},     {"4block_xor_avx2", 4},     {"2block_xor_avx2", 2},
    {"4block_xor_ssse3", 4},    {"_block_xor_ssse3", 1},
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
                 "state not written; the glue's state[12] += blocks (a u32: wraps at 2^32)",
    .clean = 0,
    .leftovers = CONV_LINUX_LEFTOVERS,
    .nops = NROWS,
    .op_name = op_name,
    .make_ops = make_ops,
    .identify = identify,
    .rows = rows,
};
