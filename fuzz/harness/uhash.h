/* uhash.h — a keyed universal hash over 16-byte blocks (POLYVAL), as the family and the
 * upstream conventions of ./asmdiff check share it: the case, the family's buffers, and what a
 * convention's make_ops returns for an outside kernel.
 *
 * The family (fuzz/polyval.c) decodes inputs into a struct uhash_case: a key H, a starting
 * state, whole blocks, and the calls the message is split into.  An outside kernel's ops (what
 * its convention's make_ops returned) are a struct uhash_upstream: the convention places what
 * its home's entry point takes (the key in that home's layout, the state, the message) with
 * drv_in/drv_inout on the family's buffers below, makes its calls through DRV_CALL and hands
 * back the final state, which the family compares with its reference, once.  A convention
 * reads the case but never the family's code (docs/architecture.md's layers), so one case
 * layout serves the family and every home's file (fuzz/conventions/<home>_polyval.c). */
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

/* An outside kernel as its convention calls it (struct impl.ops of an IMPL_OUTSIDE kernel). */
struct uhash_upstream {
    const void *fn;  /* the entry point (renamed in the check build) */
    const void *row; /* the convention's row for it */
    /* every call of the case on the placed buffers; the final state into got */
    void (*run)(const struct uhash_upstream *k, const struct uhash_case *c, uint8_t got[16]);
};

#endif
