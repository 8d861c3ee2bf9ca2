/* poly_upstream.h — a Poly1305 implementation from an upstream home (./asmdiff check), for the
 * poly1305 family: what its convention files return from make_ops, so a convention needs
 * nothing of the family's file (docs/architecture.md's layers).
 *
 * The family keeps its contract (RFC 8439 section 2.5: the tag of a message given in update
 * calls split at any byte, a partial block carried by the caller, the last one padded with
 * 0x01 and zeros and given with hibit 0).  For an outside kernel it places a state of
 * state_bytes (zeros), the key, the message and the tag as for its own kernels and calls the
 * convention's three functions, which make the home's calls through DRV_CALL (or
 * DRV_CALL_WIN64) as its C code does.  Its state format is the home's own: an outside kernel
 * runs the "mac" operation only (no chained start). */
#ifndef ASMDIFF_POLY_UPSTREAM_H
#define ASMDIFF_POLY_UPSTREAM_H

#include <stddef.h>
#include <stdint.h>

struct poly_upstream {
    const void *fn;     /* the entry point (renamed in the check build) */
    size_t state_bytes; /* the state the home's functions keep (at most 256) */
    /* the state from the key (32 bytes: r, then s) */
    void (*init)(const struct poly_upstream *k, void *state, const uint8_t *key);
    /* nblocks (>= 1) whole blocks of 16 bytes, each with hibit (1; 0 for the padded last).
     * alt: one bit of the case for this call (bit i of its forms word for blocks call i), for
     * a home whose glue chooses its path at run time for a reason the message does not give
     * (Linux's crypto_simd_usable(), false in an interrupt): its paths then alternate on one
     * state at the case's call boundaries.  A home without such a choice ignores it. */
    void (*blocks)(const struct poly_upstream *k, void *state, const uint8_t *m, size_t nblocks,
                   unsigned hibit, unsigned alt);
    /* the tag: (h + s) mod 2^128, s the key's second half */
    void (*emit)(const struct poly_upstream *k, void *state, const uint8_t *s, uint8_t *tag);
    /* for the bench: blocks' calls with hibit 1 made directly (no checked call); NULL: the
     * home is not benched */
    void (*bench_blocks)(const struct poly_upstream *k, void *state, const uint8_t *m,
                         size_t nblocks);
};

#endif
