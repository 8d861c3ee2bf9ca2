/* GHASH from NIST SP 800-38D sections 6.3 and 6.4, written for reading, not for speed: the
 * product of blocks is Algorithm 1 as printed, one bit of X at a time, with the right shift
 * and the constant R = 11100001 || 0^120; it branches on key and data bits (this file is the
 * judge of kernels, not a constant-time implementation).
 *
 * A block is kept as its 16 bytes; bit i of the SP's block (i = 0 leftmost) is bit 7 - i % 8 of
 * byte i / 8.  "V >> 1" moves every bit one place to the right across the whole block. */
#include "ghash.h"

#include <string.h>

static int block_bit(const uint8_t b[16], int i)
{
    return (b[i / 8] >> (7 - i % 8)) & 1;
}

/* V >> 1 over the 128-bit block; returns the bit shifted out (V's rightmost, LSB_1(V)). */
static int shift_right(uint8_t v[16])
{
    int out = v[15] & 1;
    for (int i = 15; i > 0; i--)
        v[i] = (uint8_t)((v[i] >> 1) | (v[i - 1] << 7));
    v[0] >>= 1;
    return out;
}

/* Algorithm 1: Z_0 = 0, V_0 = Y; for i = 0..127: Z_{i+1} = Z_i xor V_i if x_i = 1;
 * V_{i+1} = V_i >> 1, xor R if LSB_1(V_i) = 1.  The result is Z_128. */
void ghash_mul(uint8_t out[16], const uint8_t x[16], const uint8_t y[16])
{
    uint8_t z[16] = {0}, v[16], xb[16];
    memcpy(v, y, 16);
    memcpy(xb, x, 16);
    for (int i = 0; i < 128; i++) {
        if (block_bit(xb, i))
            for (int j = 0; j < 16; j++) z[j] ^= v[j];
        if (shift_right(v)) v[0] ^= 0xe1; /* R = 11100001 || 0^120 */
    }
    memcpy(out, z, 16);
}

void ghash_init(struct ghash_ctx *c, const uint8_t h[16])
{
    memcpy(c->h, h, 16);
    memset(c->y, 0, 16);
}

void ghash_update(struct ghash_ctx *c, const uint8_t *blocks, size_t nblocks)
{
    for (size_t j = 0; j < nblocks; j++) {
        uint8_t t[16];
        for (int i = 0; i < 16; i++) t[i] = c->y[i] ^ blocks[16 * j + i];
        ghash_mul(c->y, t, c->h);
    }
}

void ghash_final(const struct ghash_ctx *c, uint8_t out[16])
{
    memcpy(out, c->y, 16);
}
