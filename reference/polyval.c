/* POLYVAL from RFC 8452 section 3, written for reading, not for speed: one bit
 * of the multiplier at a time, with branches on key and data bits (this file
 * is the judge of kernels, not a constant-time implementation).
 *
 * The element v = v_lo + v_hi * x^64 lives in two uint64_t halves; bit i of
 * v_lo is the coefficient of x^i, as POLYVAL's little-endian byte order says. */
#include "polyval.h"

#include <string.h>

struct gf128 {
    uint64_t lo, hi;
};

static struct gf128 gf128_load(const uint8_t b[16])
{
    struct gf128 v = { 0, 0 };
    for (int i = 7; i >= 0; i--) {
        v.lo = (v.lo << 8) | b[i];
        v.hi = (v.hi << 8) | b[8 + i];
    }
    return v;
}

static void gf128_store(uint8_t b[16], struct gf128 v)
{
    for (int i = 0; i < 8; i++) {
        b[i] = (uint8_t)(v.lo >> (8 * i));
        b[8 + i] = (uint8_t)(v.hi >> (8 * i));
    }
}

/* v / x modulo p = x^128 + x^127 + x^126 + x^121 + 1. When v has a constant
 * term, v + p is divisible by x and equal to v modulo p; halving it gives
 * (v >> 1) + x^127 + x^126 + x^125 + x^120. */
static struct gf128 gf128_div_x(struct gf128 v)
{
    uint64_t odd = v.lo & 1;
    v.lo = (v.lo >> 1) | (v.hi << 63);
    v.hi >>= 1;
    if (odd)
        v.hi ^= (UINT64_C(1) << 63) | (UINT64_C(1) << 62) | (UINT64_C(1) << 61)
              | (UINT64_C(1) << 56);
    return v;
}

/* a * b * x^-128 = sum over the bits b_i of b of b_i * a * x^(i - 128).
 * Horner's rule from bit 0 upwards: acc = (acc + b_i * a) / x, 128 times;
 * the term added at step i is divided by x 128 - i times. */
void polyval_mul(uint8_t out[16], const uint8_t a_bytes[16], const uint8_t b_bytes[16])
{
    struct gf128 a = gf128_load(a_bytes);
    struct gf128 b = gf128_load(b_bytes);
    struct gf128 acc = { 0, 0 };

    for (int i = 0; i < 128; i++) {
        uint64_t bit = i < 64 ? (b.lo >> i) & 1 : (b.hi >> (i - 64)) & 1;
        if (bit) {
            acc.lo ^= a.lo;
            acc.hi ^= a.hi;
        }
        acc = gf128_div_x(acc);
    }
    gf128_store(out, acc);
}

void polyval_init(struct polyval_ctx *c, const uint8_t h[16])
{
    memcpy(c->h, h, 16);
    memset(c->s, 0, 16);
}

void polyval_update(struct polyval_ctx *c, const uint8_t *blocks, size_t nblocks)
{
    for (size_t j = 0; j < nblocks; j++) {
        uint8_t t[16];
        for (int i = 0; i < 16; i++)
            t[i] = c->s[i] ^ blocks[16 * j + i];
        polyval_mul(c->s, t, c->h);
    }
}

void polyval_final(const struct polyval_ctx *c, uint8_t out[16])
{
    memcpy(out, c->s, 16);
}
