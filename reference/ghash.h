/* GHASH, NIST SP 800-38D section 6.4: the universal hash inside GCM.
 *
 * Field elements are 16-byte strings read as SP 800-38D's 128-bit blocks: the leftmost bit
 * (bit 7 of byte 0) is the coefficient of x^0, the rightmost (bit 0 of byte 15) of x^127, in
 * GF(2^128) modulo x^128 + x^7 + x^2 + x + 1 (section 6.3, "bit-reflected" against POLYVAL's
 * order: RFC 8452 Appendix A relates the two, and verify/reference/ghash_polyval.c checks that
 * relation between this file and reference/polyval.c). */
#ifndef ASMDIFF_REFERENCE_GHASH_H
#define ASMDIFF_REFERENCE_GHASH_H

#include <stddef.h>
#include <stdint.h>

/* h is the hash subkey H; y the running value, Y_i in SP 800-38D's Algorithm 2. */
struct ghash_ctx {
    uint8_t h[16];
    uint8_t y[16];
};

/* y = 0 */
void ghash_init(struct ghash_ctx *c, const uint8_t h[16]);
/* For each 16-byte block X: y = (y xor X) . H (Algorithm 2, step 2). nblocks may be 0. */
void ghash_update(struct ghash_ctx *c, const uint8_t *blocks, size_t nblocks);
/* out = y; the context stays usable. */
void ghash_final(const struct ghash_ctx *c, uint8_t out[16]);
/* out = a . b, SP 800-38D Algorithm 1. out may alias a or b. */
void ghash_mul(uint8_t out[16], const uint8_t a[16], const uint8_t b[16]);

#endif
