/* POLYVAL, RFC 8452 section 3: the universal hash inside AES-GCM-SIV.
 *
 * Field elements are 16-byte strings read as little-endian 128-bit integers:
 * bit i of that integer (bit i%8 of byte i/8) is the coefficient of x^i, in
 * GF(2^128) modulo x^128 + x^127 + x^126 + x^121 + 1. */
#ifndef ASMDIFF_REFERENCE_POLYVAL_H
#define ASMDIFF_REFERENCE_POLYVAL_H

#include <stddef.h>
#include <stdint.h>

/* h is the key; s is the running value, S_j in the RFC. */
struct polyval_ctx {
    uint8_t h[16];
    uint8_t s[16];
};

/* s = 0 */
void polyval_init(struct polyval_ctx *c, const uint8_t h[16]);
/* For each 16-byte block X: s = dot(s + X, h). nblocks may be 0. */
void polyval_update(struct polyval_ctx *c, const uint8_t *blocks, size_t nblocks);
/* out = s; the context stays usable, so more updates may follow. */
void polyval_final(const struct polyval_ctx *c, uint8_t out[16]);
/* dot(a, b) = a * b * x^-128. out may alias a or b. */
void polyval_mul(uint8_t out[16], const uint8_t a[16], const uint8_t b[16]);

#endif
