/* linux_ghash.c — Linux's x86 GHASH assembly (arch/x86/crypto/ghash-clmulni-intel_asm.S of
 * Linux 6.12) as a convention of the ghash family (and on riscv64 arch/riscv/crypto's
 * ghash-riscv64-zvkg.S, below) (./asmdiff check ghash --convention linux),
 * as its glue (ghash-clmulni-intel_glue.c) declares and calls the two entry points:
 *
 *   void clmul_ghash_update(char *dst, const char *src, unsigned int srclen, const le128 *shash);
 *   void clmul_ghash_mul(char *dst, const le128 *shash);
 *
 * dst is GHASH's running value in GCM's byte order, src the message as it is.  The key is not
 * H: the glue's setkey stores, per its own comment, bitreflect(H) * x in POLYVAL's field (its
 * Montgomery form of bitreflect(H) * x^-127), and bitreflect of a GCM string is its byte
 * reversal, so the 16 bytes of struct ghash_ctx's le128 (b, the low 64 bits, first; each
 * little-endian) are RFC 8452 Appendix A's mulX_POLYVAL(ByteReverse(H)) as a POLYVAL string.
 * It is built here with uhash.h's conversions (checked against RFC 8452 by test
 * ghash-polyval-relation), never from the glue's code.  The file loads it with movups: the
 * key goes in the family's 16-byte key buffer, at any offset the input picks.
 *
 * The rows, one per entry point:
 *  - update: one call per call of the case.  The glue hands it the whole rest of an update
 *    (srclen in bytes, any length: it calls even with fewer than 16 bytes) and hashes a
 *    trailing partial block itself, in C, from the same bytes: the file must take the whole
 *    blocks and leave the last srclen mod 16 bytes alone.  So each call gets srclen = 16 *
 *    blocks + t with t tail bytes (0..15, from the case's key and call index) of junk after
 *    its blocks, inside the placed message (the last call's tail flush against the guard
 *    page), and the expected value is over the whole blocks only.
 *  - mul: dst = dst . H, run as the glue runs it on a partial block: the C caller adds each
 *    block into dst, then calls mul(dst, shash), once per block.
 *
 * Needs: the glue registers the algorithm when the CPU has PCLMULQDQ; the file's byte
 * reversal is pshufb, SSSE3 (every CPU with PCLMULQDQ has it, but it is a feature of its own):
 * the convention declares both, so a check without --needs runs them on this CPU and emulated
 * where they are masked.  Linux's leftovers (vector registers) are information. */
#include <string.h>

#include "driver.h"
#include "uhash.h"
#include "reference/ghash.h"

#if defined(__riscv)
/* riscv64: arch/riscv/crypto/ghash-riscv64-zvkg.S, as ghash-riscv64-glue.c declares and calls
 * it:
 *   asmlinkage void ghash_zvkg(be128 *accumulator, const be128 *key, const u8 *data,
 *                              size_t len);
 * The key is H as it is (the glue's setkey copies the 16 bytes), the accumulator GHASH's state,
 * both GCM strings; len is a nonzero multiple of 16 (the glue keeps partial blocks in C and
 * calls only with whole ones), so a case with an empty call is not run on it.  Needs V and
 * Zvkg (the glue also wants VLEN >= 128, which every riscv64 check VLEN is). */
typedef void (*zvkg_fn)(uint8_t *accumulator, const uint8_t *key, const uint8_t *data,
                        size_t len);

static void run(const struct uhash_upstream *k, const struct uhash_case *c, uint8_t got[16])
{
    const uint8_t *msg = drv_in(UHASH_B_MSG, c->msg, 16 * c->nblocks);
    uint8_t *state = drv_inout(UHASH_B_STATE, c->start, 16);
    const uint8_t *key = drv_in(UHASH_B_KEY, c->h, 16);
    for (size_t i = 0; i <= c->nsplits; i++) {
        size_t from = uhash_call_from(c, i), to = uhash_call_to(c, i);
        DRV_CALL((zvkg_fn)k->fn, state, key, msg + 16 * from, 16 * (to - from));
    }
    memcpy(got, state, 16);
}

static void bench(const struct uhash_upstream *k, uint8_t state[16], const uint8_t h[16],
                  const uint8_t *blocks, size_t nblocks)
{
    if (nblocks) ((zvkg_fn)k->fn)(state, h, blocks, 16 * nblocks);
}

static struct uhash_upstream kernels[OUTSIDE_MAX];
static size_t nkernels;

static const void *make_ops(const struct convention *cv, const void *fn, size_t op)
{
    (void)cv, (void)op;
    if (nkernels == OUTSIDE_MAX) return NULL;
    kernels[nkernels] = (struct uhash_upstream){.fn = fn, .run = run, .bench = bench};
    return &kernels[nkernels++];
}

/* the glue's calls: every call of the case at least one block */
static int accepts(const struct convention *cv, const void *ops, const void *cv_case)
{
    const struct uhash_case *c = cv_case;
    (void)cv, (void)ops;
    for (size_t i = 0; i <= c->nsplits; i++)
        if (uhash_call_to(c, i) == uhash_call_from(c, i)) return 0;
    return 1;
}

static const char *const zvkg_ops[] = {"ghash_zvkg"};
/* registered by name in fuzz/meson.build's 'conventions' list (driver.h: struct convention) */
const struct convention convention_linux_ghash = {
    .name = "linux",
    .prototype = "asmlinkage void ghash_zvkg(be128 *accumulator, const be128 *key, const u8 "
                 "*data, size_t len): key = H as it is, the accumulator GHASH's state, len a "
                 "nonzero multiple of 16 (the glue's calls)",
    .clean = 0,
    .leftovers = CONV_LINUX_LEFTOVERS,
    .ops = zvkg_ops,
    .nops = 1,
    .make_ops = make_ops,
    .accepts = accepts,
    .needs = "v,zvkg",
};
#else
enum linux_ghash_shape {
    LG_UPDATE,      /* fn(dst, src, srclen, shash), srclen an unsigned int as declared */
    LG_MUL,         /* fn(dst, shash): dst = dst . H */
    LG_UPDATE_ZEXT, /* the update with srclen zero-extended to 64 bits */
};

struct lg_row {
    const char *name; /* the operation (--op), and the end of its symbol */
    enum linux_ghash_shape shape;
};

static const struct lg_row rows[] = {
    {"ghash_update", LG_UPDATE},
    {"ghash_mul", LG_MUL},
    {"ghash_update_zext", LG_UPDATE_ZEXT},
};
#define NROWS (sizeof rows / sizeof rows[0])

/* struct ghash_ctx's key: mulX_POLYVAL(ByteReverse(H)) */
static void glue_key(uint8_t shash[16], const uint8_t h[16])
{
    uhash_reverse16(shash, h);
    uhash_mulx_polyval(shash);
}

typedef void (*update_fn)(uint8_t *dst, const uint8_t *src, unsigned int srclen,
                          const uint8_t *shash);
typedef void (*mul_fn)(uint8_t *dst, const uint8_t *shash);
/* the same entry point, its length passed as a 64-bit value with bits 32-63 zero */
typedef void (*update_zext_fn)(uint8_t *dst, const uint8_t *src, size_t srclen,
                               const uint8_t *shash);

/* The junk tail of call i: 0..15 bytes, a function of the key and i. */
static size_t tail_of(const struct uhash_case *c, size_t i)
{
    return (size_t)(c->h[i % 16] ^ c->h[15] >> 4 ^ i) % 16;
}

static void run(const struct uhash_upstream *k, const struct uhash_case *c, uint8_t got[16])
{
    const struct lg_row *r = k->row;
    uint8_t shash_bytes[16];
    glue_key(shash_bytes, c->h);
    const uint8_t *shash = drv_in(UHASH_B_KEY, shash_bytes, 16);
    uint8_t *state = drv_inout(UHASH_B_STATE, c->start, 16);
    if (r->shape != LG_MUL) {
        /* the message with each call's tail written over the next call's first bytes (it
         * reads none of them) and the last call's tail after the blocks */
        static uint8_t with_tail[sizeof c->msg + 16];
        size_t last = tail_of(c, c->nsplits);
        memcpy(with_tail, c->msg, 16 * c->nblocks);
        memset(with_tail + 16 * c->nblocks, 0xa5 ^ c->h[0], last);
        const uint8_t *msg = drv_in(UHASH_B_MSG, with_tail, 16 * c->nblocks + last);
        for (size_t i = 0; i <= c->nsplits; i++) {
            size_t from = uhash_call_from(c, i), to = uhash_call_to(c, i);
            size_t t = i < c->nsplits ? 0 : last;
            unsigned int srclen = (unsigned int)(16 * (to - from) + t);
            if (r->shape == LG_UPDATE) /* the checked call puts junk in bits 32-63 */
                DRV_CALL((update_fn)k->fn, state, msg + 16 * from, srclen, shash);
            else
                DRV_CALL((update_zext_fn)k->fn, state, msg + 16 * from, (size_t)srclen, shash);
        }
    } else {
        const uint8_t *msg = drv_in(UHASH_B_MSG, c->msg, 16 * c->nblocks);
        for (size_t b = 0; b < c->nblocks; b++) {
            for (int j = 0; j < 16; j++) state[j] ^= msg[16 * b + j];
            DRV_CALL((mul_fn)k->fn, state, shash);
        }
    }
    memcpy(got, state, 16);
}

/* ./asmdiff bench: the update row on the whole buffer (the glue's setkey done per call, as
 * the family's kernels transform H per call) */
static void bench(const struct uhash_upstream *k, uint8_t state[16], const uint8_t h[16],
                  const uint8_t *blocks, size_t nblocks)
{
    uint8_t shash[16] __attribute__((aligned(16)));
    glue_key(shash, h);
    if (((const struct lg_row *)k->row)->shape != LG_MUL) {
        ((update_zext_fn)k->fn)(state, blocks, 16 * nblocks, shash);
        return;
    }
    for (size_t b = 0; b < nblocks; b++) {
        for (int j = 0; j < 16; j++) state[j] ^= blocks[16 * b + j];
        ((mul_fn)k->fn)(state, shash);
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
 * first (nine blocks), then the multiplication (its second argument a key, the update's
 * third-argument slot a harmless count), each on probe buffers with room to spare. */
static int identify(const struct convention *cv, const void *fn, const char *symbol)
{
    (void)cv;
    for (size_t i = 0; i < NROWS; i++)
        if (ends_with(symbol, rows[i].name)) return (int)i;
    static uint8_t msg[16 * 9 + 64], acc[64], want[16], shash[64];
    const uint8_t h[16] = {0x66, 0xe9, 0x4b, 0xd4, 0xef, 0x8a, 0x2c, 0x3b,
                           0x88, 0x4c, 0xfa, 0x59, 0xca, 0x34, 0x2b, 0x2e};
    struct ghash_ctx ref;
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 11 + 3);
    glue_key(shash, h);
    ghash_init(&ref, h);
    ghash_update(&ref, msg, 9);
    ghash_final(&ref, want);
    memset(acc, 0, sizeof acc);
    DRV_PROBE((update_zext_fn)fn, acc, msg, (size_t)(16 * 9), shash);
    if (!memcmp(acc, want, 16)) return 0;
    memset(acc, 0, sizeof acc);
    memcpy(acc, msg, 16);
    ghash_mul(want, msg, h);
    DRV_PROBE((mul_fn)fn, acc, shash, (size_t)0, shash);
    return memcmp(acc, want, 16) ? -1 : 1;
}

/* the two update rows are one computation, the length passed two ways */
static int same_operation(const struct convention *cv, size_t a, size_t b)
{
    (void)cv;
    return rows[a].shape != LG_MUL && rows[b].shape != LG_MUL;
}

/* every case: the glue calls the update with any length, the multiplication per block */
static int accepts(const struct convention *cv, const void *ops, const void *cv_case)
{
    (void)cv, (void)ops, (void)cv_case;
    return 1;
}

/* registered by name in fuzz/meson.build's 'conventions' list (driver.h: struct convention) */
const struct convention convention_linux_ghash = {
    .name = "linux",
    .prototype = "void clmul_ghash_update(char *dst, const char *src, unsigned int srclen, "
                 "const le128 *shash) and clmul_ghash_mul(char *dst, const le128 *shash) "
                 "(dst = dst . H, run as the glue runs it on a partial block: each block added "
                 "into dst in C, then mul): shash = struct ghash_ctx's key, mulX_POLYVAL("
                 "ByteReverse(H)) (RFC 8452 Appendix A), as the glue's setkey describes it; "
                 "update's srclen any length, its last srclen mod 16 bytes left to the C glue; "
                 "ghash_update_zext: the update with srclen zero-extended to 64 bits",
    .clean = 0,
    .leftovers = CONV_LINUX_LEFTOVERS,
    .nops = NROWS,
    .op_name = op_name,
    .make_ops = make_ops,
    .identify = identify,
    .accepts = accepts,
    .same_operation = same_operation,
    .rows = rows,
    .needs = "pclmul,ssse3",
};
#endif
