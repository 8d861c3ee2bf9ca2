/* uhash.h — a keyed universal hash over 16-byte blocks (POLYVAL, GHASH), as the families and the
 * upstream conventions of ./asmdiff check share it: the case, the family's buffers, and what a
 * convention's make_ops returns for an outside kernel.
 *
 * Each family (fuzz/polyval.c, fuzz/ghash.c) decodes inputs into a struct uhash_case: a key H, a starting
 * state, whole blocks, and the calls the message is split into.  An outside kernel's ops (what
 * its convention's make_ops returned) are a struct uhash_upstream: the convention places what
 * its home's entry point takes (the key in that home's layout, the state, the message) with
 * drv_in/drv_inout on the family's buffers below, makes its calls through DRV_CALL and hands
 * back the final state, which the family compares with its reference, once.  A convention
 * reads the case but never the family's code (docs/architecture.md's layers), so one case
 * layout serves the family and every home's file (fuzz/conventions/<home>_polyval.c,
 * <home>_ghash.c). */
#ifndef ASMDIFF_UHASH_H
#define ASMDIFF_UHASH_H

#include <stddef.h>
#include <stdint.h>

#define UHASH_MAX_BLOCKS 136 /* past two LMUL=8 groups of the Zvkg kernels at VLEN 1024 */
#define UHASH_MAX_SPLITS 7   /* at most 8 update calls per input */

struct uhash_case {
    uint8_t h[16];
    uint8_t start[16]; /* the state before the first call: 0 in POLYVAL, anything when chained */
    size_t nblocks;
    uint8_t msg[16 * UHASH_MAX_BLOCKS];
    size_t nsplits;
    size_t split[UHASH_MAX_SPLITS]; /* ascending block indices where a new call begins */
};

/* The family's buffers (indices into its bufs), in this order. */
enum uhash_buf {
    UHASH_B_MSG,      /* the blocks, any byte offset */
    UHASH_B_STATE,    /* the 16-byte state, read and written */
    UHASH_B_KEY,      /* the key as the family keeps it (16 bytes), or a home's 16-byte form */
    UHASH_B_SCHEDULE, /* a home's precomputed key material (Linux's key powers), placed 16-byte
                       * aligned (granule 64: never misaligned, whatever the input asks) */
};

/* The calls of a case: call i takes the blocks [uhash_call_from(c, i), uhash_call_to(c, i)),
 * i from 0 to c->nsplits. */
static inline size_t uhash_call_to(const struct uhash_case *c, size_t i)
{
    return i < c->nsplits ? c->split[i] : c->nblocks;
}
static inline size_t uhash_call_from(const struct uhash_case *c, size_t i)
{
    return i ? c->split[i - 1] : 0;
}

/* RFC 8452 Appendix A's conversions, on 16-byte strings, for the homes that keep a GHASH
 * key in POLYVAL's form (Linux's ghash-clmulni glue) or the reverse (uhash_mulx_ghash below):
 * rev(b), the bytes in reverse order (out may be in), and mulX_POLYVAL(v) = v * x in
 * POLYVAL's field, v a 16-byte little-endian element; the x^128 that falls out is
 * x^127 + x^126 + x^121 + 1. */
static inline void uhash_reverse16(uint8_t out[16], const uint8_t in[16])
{
    uint8_t t[16];
    for (int i = 0; i < 16; i++) t[i] = in[15 - i];
    for (int i = 0; i < 16; i++) out[i] = t[i];
}
static inline void uhash_mulx_polyval(uint8_t v[16])
{
    int top = v[15] >> 7;
    for (int i = 15; i > 0; i--) v[i] = (uint8_t)(v[i] << 1 | v[i - 1] >> 7);
    v[0] = (uint8_t)(v[0] << 1);
    if (top) {
        v[0] ^= 0x01;
        v[15] ^= 0xc2;
    }
}

/* mulX_GHASH(v) = v * x in GHASH's field (RFC 8452 Appendix A), v a 16-byte string in GCM's bit
 * order: one place right, 0xe1 folded into byte 0 for the bit that falls out (libgcrypt's
 * GCM-SIV keeps its POLYVAL key as mulX_GHASH(rev(H)) on its GHASH engine). */
static inline void uhash_mulx_ghash(uint8_t v[16])
{
    int carry = v[15] & 1;
    for (int i = 15; i > 0; i--) v[i] = (uint8_t)(v[i] >> 1 | v[i - 1] << 7);
    v[0] >>= 1;
    if (carry) v[0] ^= 0xe1;
}

/* An outside kernel as its convention calls it (struct impl.ops of an IMPL_OUTSIDE kernel). */
struct uhash_upstream {
    const void *fn;  /* the entry point (renamed in the check build) */
    const void *row; /* the convention's row for it */
    /* every call of the case on the placed buffers; the final state into got */
    void (*run)(const struct uhash_upstream *k, const struct uhash_case *c, uint8_t got[16]);
    /* ./asmdiff bench (optional): the family's update contract on plain memory, the key
     * raw H, whatever the home keeps made from it in the call; NULL: no bench row */
    void (*bench)(const struct uhash_upstream *k, uint8_t state[16], const uint8_t h[16],
                  const uint8_t *blocks, size_t nblocks);
};

#endif
