/* poly1305.h — the Poly1305 family's kernel interface (x86-64).
 *
 * Every kernel computes what reference/poly1305.c computes (RFC 8439 section 2.5), in the
 * streaming shape a caller drives:
 *
 *   poly1305_init_x86_64(st, key)           r = clamp(key[0, 16)), h = 0
 *   poly1305_blocks_<form>(st, m, n, hibit) for each 16-byte block b of m[0, 16 n):
 *                                             h = (h + b + hibit * 2^128) * r  mod p
 *   poly1305_emit_x86_64(st, s, tag)        tag = (h mod p + s) mod 2^128
 *
 * with p = 2^130 - 5.  A caller carries a partial block across its own update calls and pads
 * the final one (its bytes, 0x01, zeros) for a last blocks call with hibit 0.
 *
 * ONE state format for every form, so that forms can be alternated on one state between
 * blocks calls (fuzz/poly1305.c's x86_64-alternating implementation does exactly that):
 *   h = h[0] + h[1] 2^64 + h[2] 2^128, any value with h[2] <= 4 (h < 5 * 2^128), the
 *       accumulator, congruent mod p to the true one but not reduced;
 *   r[0], r[1]: the clamped r, radix 2^64.
 * Every blocks form accepts any h with h[2] <= 4 and leaves one with h[2] <= 4; emit reduces
 * fully.  Nothing else (no precomputed powers, no radix flag) lives in the state: a form that
 * works in another radix converts on entry and back on return.
 *
 * hibit is 0 or 1.  No alignment is required of any pointer.  The kernels use no stack
 * beyond the callee-saved registers they push, and leave no data in vector registers.
 */
#ifndef ASMDIFF_KERNELS_POLY1305_H
#define ASMDIFF_KERNELS_POLY1305_H

#include <stddef.h>
#include <stdint.h>

struct poly1305_state {
    uint64_t h[3];
    uint64_t r[2];
};
#define POLY1305_STATE_BYTES 40
_Static_assert(sizeof(struct poly1305_state) == POLY1305_STATE_BYTES, "the kernels' layout");

/* Plain x86-64 (no feature beyond the baseline). */
void poly1305_init_x86_64(struct poly1305_state *st, const uint8_t key[16]);
void poly1305_emit_x86_64(const struct poly1305_state *st, const uint8_t s[16],
                          uint8_t tag[16]);

/* Scalar, radix 2^64, products by mulx (BMI2); one block per iteration. */
void poly1305_blocks_x86_64_mulx(struct poly1305_state *st, const uint8_t *m, size_t nblocks,
                                 uint64_t hibit);

/* AVX-512 IFMA (vpmadd52luq/huq on zmm), radix 2^44: eight blocks per iteration against
 * r^8 in every lane, the lanes joined by r^8..r^1 at the end; fewer than 8 blocks (and the
 * tail past the last group of 8) by the mulx form. Needs AVX512F, AVX512_IFMA and BMI2. */
void poly1305_blocks_x86_64_avx512_ifma(struct poly1305_state *st, const uint8_t *m,
                                        size_t nblocks, uint64_t hibit);

#endif
