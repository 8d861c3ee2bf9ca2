/* linux_polyval.c — Linux's x86 POLYVAL assembly (arch/x86/crypto/polyval-clmulni_asm.S of
 * Linux 6.12) as a convention of the polyval family (./asmdiff check polyval --convention
 * linux), as its glue (polyval-clmulni_glue.c) declares and calls the two entry points:
 *
 *   asmlinkage void clmul_polyval_update(const struct polyval_tfm_ctx *keys, const u8 *in,
 *                                        size_t nblocks, u8 *accumulator);
 *   asmlinkage void clmul_polyval_mul(u8 *op1, const u8 *op2);
 *
 * Field elements, the accumulator and the message blocks are RFC 8452's 16-byte strings as
 * they are (no byte reversal: the file multiplies in POLYVAL's own representation, a product
 * carrying the factor x^-128 that RFC 8452's dot() has).  struct polyval_tfm_ctx is eight key
 * powers of 16 bytes, 16-byte aligned (the glue aligns the context; the file reads the powers
 * with aligned loads), in the order H^8, ..., H^1: H at offset 112, and each power before it
 * dot(H, the one after it), so the power at offset 16 * (8 - i) is dot's i-th power of H.  They
 * are built here from our reference's dot() (reference/polyval.c), never from the file.
 *
 * The rows, one per entry point:
 *  - update: one call per call of the case, on the placed key powers, message and state.
 *    Contract, from the glue: nblocks is at least 1 and at most 256 (it calls the update only
 *    while 16 bytes or more are left, at most 4096 bytes a call, and keeps a partial block in
 *    C); the accumulator is POLYVAL's running state, read and written.  A case with an empty
 *    call (0 blocks) is outside that contract and is not run on this row, though the file
 *    returns the accumulator unchanged then: the glue never asks it.
 *  - mul: op1 = dot(op1, op2), 16 bytes each, op1 written in place.  It is the family's update
 *    in the glue's own use of it (its partial-block path): the C caller adds each block into
 *    the accumulator, then calls mul(accumulator, H), once per block.  So every case is run,
 *    one call per block (an empty call of the case makes no call), with op2 the placed 16-byte
 *    key H and op1 the placed state; the message is read by that C caller, not by the kernel.
 *
 * Both need PCLMULQDQ and AVX (the glue registers the algorithm only when the CPU has both;
 * the file mixes legacy SSE with VEX forms): the convention declares them, so a check without
 * --needs runs them on this CPU, and emulated where they are masked.  Linux's leftovers
 * (vector registers, stack) are information (CONV_LINUX_LEFTOVERS).  Only the prototypes, the
 * context's layout and the glue's calls are facts we use; nothing of the files is copied. */
#include <string.h>

#include "driver.h"
#include "uhash.h"
#include "reference/polyval.h"

#define KEY_POWERS 8
#define CTX_BYTES (16 * KEY_POWERS)
#define UPDATE_MAX_BLOCKS 256 /* the glue's calls: 4096 bytes at most */

enum linux_polyval_shape {
    LP_UPDATE, /* fn(keys, in, nblocks, accumulator) */
    LP_MUL,    /* fn(op1, op2): op1 = dot(op1, op2) */
};

struct lp_row {
    const char *name; /* the operation (--op), and the end of its symbol */
    enum linux_polyval_shape shape;
};

static const struct lp_row rows[] = {
    {"polyval_update", LP_UPDATE},
    {"polyval_mul", LP_MUL},
};
#define NROWS (sizeof rows / sizeof rows[0])

/* The context: H^8 ... H^1 under dot(), from our reference. */
static void key_powers(uint8_t ctx[CTX_BYTES], const uint8_t h[16])
{
    memcpy(ctx + 16 * (KEY_POWERS - 1), h, 16);
    for (int i = KEY_POWERS - 2; i >= 0; i--)
        polyval_mul(ctx + 16 * i, h, ctx + 16 * (i + 1));
}

typedef void (*update_fn)(const uint8_t *keys, const uint8_t *in, size_t nblocks,
                          uint8_t *accumulator);
typedef void (*mul_fn)(uint8_t *op1, const uint8_t *op2);

static void run(const struct uhash_upstream *k, const struct uhash_case *c, uint8_t got[16])
{
    const struct lp_row *r = k->row;
    const uint8_t *msg = drv_in(UHASH_B_MSG, c->msg, 16 * c->nblocks);
    uint8_t *state = drv_inout(UHASH_B_STATE, c->start, 16);
    if (r->shape == LP_UPDATE) {
        uint8_t ctx[CTX_BYTES];
        key_powers(ctx, c->h);
        const uint8_t *keys = drv_in(UHASH_B_SCHEDULE, ctx, CTX_BYTES);
        for (size_t i = 0; i <= c->nsplits; i++) {
            size_t from = uhash_call_from(c, i), to = uhash_call_to(c, i);
            DRV_CALL((update_fn)k->fn, keys, msg + 16 * from, to - from, state);
        }
    } else {
        const uint8_t *h = drv_in(UHASH_B_KEY, c->h, 16);
        for (size_t b = 0; b < c->nblocks; b++) {
            for (int j = 0; j < 16; j++) state[j] ^= msg[16 * b + j];
            DRV_CALL((mul_fn)k->fn, state, h);
        }
    }
    memcpy(got, state, 16);
}

/* ./asmdiff bench: the glue's calls of at most 256 blocks, its setkey (the powers, from our
 * reference's slow dot(): not the file's cost) made once per key, as Linux keeps them in the
 * tfm: our kernels, whose contract passes the raw H, make theirs in every call */
static void bench(const struct uhash_upstream *k, uint8_t state[16], const uint8_t h[16],
                  const uint8_t *blocks, size_t nblocks)
{
    static uint8_t ctx[CTX_BYTES] __attribute__((aligned(16))), made_for[16];
    static int made;
    if (!made || memcmp(made_for, h, 16)) {
        key_powers(ctx, h);
        memcpy(made_for, h, 16);
        made = 1;
    }
    if (((const struct lp_row *)k->row)->shape == LP_UPDATE) {
        for (size_t done = 0; done < nblocks; done += UPDATE_MAX_BLOCKS) {
            size_t n = nblocks - done < UPDATE_MAX_BLOCKS ? nblocks - done : UPDATE_MAX_BLOCKS;
            ((update_fn)k->fn)(ctx, blocks + 16 * done, n, state);
        }
        return;
    }
    for (size_t b = 0; b < nblocks; b++) {
        for (int j = 0; j < 16; j++) state[j] ^= blocks[16 * b + j];
        ((mul_fn)k->fn)(state, h);
    }
}

static struct uhash_upstream kernels[OUTSIDE_MAX];
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
    kernels[nkernels] =
        (struct uhash_upstream){.fn = fn, .row = &rows[op], .run = run, .bench = bench};
    return &kernels[nkernels++];
}

static int ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), m = strlen(end);
    return n >= m && !strcmp(s + n - m, end);
}

/* The row the symbol's name ends with; else the one a known answer says: the update shape
 * first (nine blocks: a full stride and one more), then the multiplication, called with a
 * block count of 0 and a scratch accumulator past its two arguments, so an update that got
 * the first probe wrong still reads and writes nothing outside the probe's buffers. */
static int identify(const struct convention *cv, const void *fn, const char *symbol)
{
    (void)cv;
    for (size_t i = 0; i < NROWS; i++)
        if (ends_with(symbol, rows[i].name)) return (int)i;
    static uint8_t ctx[CTX_BYTES] __attribute__((aligned(16)));
    static uint8_t msg[16 * 9], acc[16], want[16], scratch[64];
    const uint8_t h[16] = {0x25, 0x62, 0x93, 0x47, 0x58, 0x92, 0x42, 0x76,
                           0x1d, 0x31, 0xf8, 0x26, 0xba, 0x4b, 0x75, 0x7b};
    struct polyval_ctx ref;
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 11 + 3);
    key_powers(ctx, h);
    polyval_init(&ref, h);
    polyval_update(&ref, msg, 9);
    polyval_final(&ref, want);
    memset(acc, 0, sizeof acc);
    DRV_PROBE((update_fn)fn, ctx, msg, (size_t)9, acc);
    if (!memcmp(acc, want, 16)) return 0;
    memcpy(acc, msg, 16);
    polyval_mul(want, msg, h);
    DRV_PROBE((mul_fn)fn, acc, h, (size_t)0, scratch);
    return memcmp(acc, want, 16) ? -1 : 1;
}

/* The update row takes the glue's calls alone: every call of the case 1..256 blocks. */
static int accepts(const struct convention *cv, const void *ops, const void *cv_case)
{
    const struct uhash_upstream *k = ops;
    const struct uhash_case *c = cv_case;
    (void)cv;
    if (((const struct lp_row *)k->row)->shape != LP_UPDATE) return 1;
    for (size_t i = 0; i <= c->nsplits; i++) {
        size_t n = uhash_call_to(c, i) - uhash_call_from(c, i);
        if (n == 0 || n > UPDATE_MAX_BLOCKS) return 0;
    }
    return 1;
}

/* registered by name in fuzz/meson.build's 'conventions' list (driver.h: struct convention) */
const struct convention convention_linux_polyval = {
    .name = "linux",
    .prototype = "asmlinkage void clmul_polyval_update(const struct polyval_tfm_ctx *keys, "
                 "const u8 *in, size_t nblocks, u8 *accumulator) and clmul_polyval_mul(u8 "
                 "*op1, const u8 *op2) (op1 = dot(op1, op2), run as the glue runs it on a "
                 "partial block: each block added into the accumulator in C, then mul by H): "
                 "keys = struct polyval_tfm_ctx, the key powers H^8..H^1 under dot(), 16-byte "
                 "aligned; update's nblocks 1..256 (the glue's calls), the accumulator "
                 "POLYVAL's state",
    .clean = 0,
    .leftovers = CONV_LINUX_LEFTOVERS,
    .nops = NROWS,
    .op_name = op_name,
    .make_ops = make_ops,
    .identify = identify,
    .accepts = accepts,
    .rows = rows,
    .needs = "pclmul,avx",
};
