/* stream_upstream.h — a keystream entry point from an upstream home (./asmdiff check), for a
 * family whose operation is a counter-mode keystream XOR over a 16-word state (chacha): what
 * such a family's convention files return from make_ops, so a convention needs nothing of the
 * family's file (docs/architecture.md's layers).
 *
 * The family keeps its own contract (kernels/chacha/chacha.h): one of its calls XORs len bytes
 * from the state's counter on and leaves the counter advanced by ceil(len / 64) blocks.  For an
 * outside kernel it places the state, input and output of each such call as it does for its
 * own kernels and hands them to the convention's function for that counter, which makes the
 * entry point's calls through DRV_CALL as that home's glue does (a width's worth of bytes a
 * call) and advances the counter between and after them as the glue does. */
#ifndef ASMDIFF_STREAM_UPSTREAM_H
#define ASMDIFF_STREAM_UPSTREAM_H

#include <stddef.h>
#include <stdint.h>

struct stream_upstream;
/* One call of the family's: dst = src ^ keystream for len bytes (any len, 0 included) from
 * state, whose counter it advances. */
typedef void (*stream_upstream_call)(const struct stream_upstream *k, uint32_t state[16],
                                     uint8_t *dst, const uint8_t *src, size_t len,
                                     unsigned int nrounds);

/* An outside kernel as its convention calls it (struct impl.ops of an IMPL_OUTSIDE kernel). */
struct stream_upstream {
    const void *fn;     /* the entry point (renamed in the check build) */
    size_t max_blocks;  /* blocks one call of it takes at most (its width) */
    /* RFC 8439's 32-bit counter in word 12, and the original design's 64-bit counter in words
     * 12-13; NULL where the home has no such form (the family then does not run it). */
    stream_upstream_call ctr32, ctr64;
    /* ctr32 for the bench: the same calls made directly (no checked call, nothing placed);
     * NULL: not benched */
    void (*bench32)(const struct stream_upstream *k, uint32_t state[16], uint8_t *buf,
                    size_t len, unsigned int nrounds);
    /* the one rounds count its home has (20: ChaCha20 only), 0 for any: the bench's rows at
     * another count are not run (as the family's cases at another are not admitted) */
    unsigned int rounds_only;
    /* HChaCha (draft-irtf-cfrg-xchacha-03 2.2), for an entry point that computes the subkey:
     * out = its 8 words (words 0-3 and 12-15 after nrounds rounds, no final addition) from a
     * state whose words 12-15 are the nonce's first 16 bytes, by the entry point's call(s) as
     * its home's glue makes them.  The family places state (an input: 64 bytes, never written)
     * and out (32 bytes) and judges out and the XChaCha keystream under it; NULL: none. */
    void (*hchacha)(const struct stream_upstream *k, const uint32_t *state, uint32_t *out,
                    unsigned int nrounds);
};

/* A buffer of the family's that a convention places itself, for an entry point whose glue
 * hands it one of its own: a glue's 64-byte block buffer, through which a home that takes
 * whole blocks only XORs a message's tail (copied in, the block XORed in place, the tail
 * copied out).  Placed 64-byte aligned, flush against its guard pages (never misaligned:
 * its granule is 64).  fuzz/chacha.c asserts the index. */
#define STREAM_B_BLOCK 5

/* The start of the family's case, as a convention's accepts() may read it (fuzz/chacha.c checks
 * that its case begins so): the rounds (8, 12 or 20), for a home that has ChaCha20 only. */
struct stream_case_head {
    unsigned rounds;
};

#endif
