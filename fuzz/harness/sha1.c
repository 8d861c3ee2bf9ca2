/* sha1.c — see sha1.h; FIPS 180-4 section 6.1, one block at a time. */
#include "sha1.h"

#include <string.h>

static uint32_t rol(uint32_t x, int n)
{
    return x << n | x >> (32 - n);
}

static void block(uint32_t h[5], const uint8_t *p)
{
    uint32_t w[80];
    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 |
               (uint32_t)p[4 * t + 2] << 8 | p[4 * t + 3];
    for (int t = 16; t < 80; t++) w[t] = rol(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int t = 0; t < 80; t++) {
        uint32_t f, k;
        if (t < 20) f = (b & c) | (~b & d), k = 0x5a827999;
        else if (t < 40) f = b ^ c ^ d, k = 0x6ed9eba1;
        else if (t < 60) f = (b & c) | (b & d) | (c & d), k = 0x8f1bbcdc;
        else f = b ^ c ^ d, k = 0xca62c1d6;
        uint32_t tmp = rol(a, 5) + f + e + k + w[t];
        e = d, d = c, c = rol(b, 30), b = a, a = tmp;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
}

void sha1(const uint8_t *data, size_t len, uint8_t digest[20])
{
    uint32_t h[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
    size_t i = 0;
    for (; len - i >= 64; i += 64) block(h, data + i);
    uint8_t tail[128] = {0};
    size_t rest = len - i;
    if (rest) memcpy(tail, data + i, rest);
    tail[rest] = 0x80;
    size_t n = rest < 56 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int b = 0; b < 8; b++) tail[n - 1 - b] = (uint8_t)(bits >> (8 * b));
    block(h, tail);
    if (n == 128) block(h, tail + 64);
    for (int j = 0; j < 5; j++)
        for (int b = 0; b < 4; b++) digest[4 * j + b] = (uint8_t)(h[j] >> (24 - 8 * b));
}
