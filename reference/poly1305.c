/* poly1305.c — Poly1305 from RFC 8439 section 2.5, written for reading (see poly1305.h).
 *
 * Numbers are five limbs of 26 bits.  A product of two numbers is formed in full (nine
 * columns), carried, and folded with 2^130 = 5 (mod p); nothing is clever, every intermediate
 * has a bound written next to it. */
#include "poly1305.h"

#include <string.h>

#define M26 ((1ull << 26) - 1)

/* Little-endian bytes b[0, n) (n <= 17) as limbs: limb i holds bits 26 i .. 26 i + 25 of
 * the number, limb 4 everything from bit 104 up (at most 32 bits). */
static void limbs_from_bytes(uint64_t x[5], const uint8_t *b, size_t n)
{
    uint8_t v[17] = {0};
    uint64_t lo = 0, hi = 0;
    memcpy(v, b, n);
    for (int i = 7; i >= 0; i--) {
        lo = lo << 8 | v[i];
        hi = hi << 8 | v[8 + i];
    }
    x[0] = lo & M26;                         /* bits 0..25 */
    x[1] = (lo >> 26) & M26;                 /* bits 26..51 */
    x[2] = (lo >> 52 | hi << 12) & M26;      /* bits 52..77: 12 from lo, 14 from hi */
    x[3] = (hi >> 14) & M26;                 /* bits 78..103 */
    x[4] = hi >> 40 | (uint64_t)v[16] << 24; /* bits 104..135 */
}

/* Carry until every limb is below 2^26, folding what passes 2^130 back in times 5.  The value
 * mod p is unchanged; the result is below 2^130. */
static void carry(uint64_t h[5])
{
    for (;;) {
        uint64_t over = 0;
        for (int i = 0; i < 5; i++) over |= h[i] >> 26;
        if (!over) return;
        for (int i = 0; i < 4; i++) {
            h[i + 1] += h[i] >> 26;
            h[i] &= M26;
        }
        uint64_t c = h[4] >> 26;
        h[4] &= M26;
        h[0] += 5 * c;
    }
}

/* h = h * r mod p (partially reduced).  h limbs below 2^32, r limbs below 2^26: each of the
 * nine columns is a sum of at most five products below 2^58, so below 2^61. */
static void mul_r(uint64_t h[5], const uint64_t r[5])
{
    uint64_t d[10] = {0};
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) d[i + j] += h[i] * r[j];
    /* carry the columns into 26-bit limbs (d[9] takes the rest) */
    for (int k = 0; k < 9; k++) {
        d[k + 1] += d[k] >> 26;
        d[k] &= M26;
    }
    /* 2^(26 * (k + 5)) = 2^130 * 2^(26 * k) = 5 * 2^(26 * k) mod p */
    for (int k = 4; k >= 0; k--) d[k] += 5 * d[k + 5];
    memcpy(h, d, 5 * sizeof h[0]);
    carry(h);
}

void poly1305_ref_init(struct poly1305_ref *ctx, const uint8_t key[POLY1305_KEY_BYTES])
{
    uint8_t r[16];
    memcpy(r, key, 16);
    /* RFC 8439 2.5.1: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff, i.e. the top four bits of
     * bytes 3, 7, 11, 15 and the bottom two bits of bytes 4, 8, 12 cleared */
    r[3] &= 15;
    r[7] &= 15;
    r[11] &= 15;
    r[15] &= 15;
    r[4] &= 252;
    r[8] &= 252;
    r[12] &= 252;
    limbs_from_bytes(ctx->r, r, 16);
    memset(ctx->h, 0, sizeof ctx->h);
    memcpy(ctx->s, key + 16, 16);
}

void poly1305_ref_set_acc(struct poly1305_ref *ctx, const uint8_t acc[17])
{
    limbs_from_bytes(ctx->h, acc, 17);
    carry(ctx->h);
}

void poly1305_ref_blocks(struct poly1305_ref *ctx, const uint8_t *m, size_t nblocks,
                         unsigned hibit)
{
    for (size_t b = 0; b < nblocks; b++) {
        uint8_t n[17];
        uint64_t x[5];
        memcpy(n, m + 16 * b, 16);
        n[16] = (uint8_t)(hibit & 1);
        limbs_from_bytes(x, n, 17);
        for (int i = 0; i < 5; i++) ctx->h[i] += x[i]; /* below 2^27 each */
        mul_r(ctx->h, ctx->r);
    }
}

/* h mod p, fully: h is below 2^130 after carry(), so one subtraction of p is enough. */
static void reduce_full(const uint64_t h_in[5], uint64_t h[5])
{
    uint64_t g[5];
    memcpy(h, h_in, 5 * sizeof h[0]);
    carry(h);
    /* g = h + 5; h >= p exactly when g reaches 2^130, and then h - p = g - 2^130 */
    memcpy(g, h, sizeof g);
    g[0] += 5;
    for (int i = 0; i < 4; i++) {
        g[i + 1] += g[i] >> 26;
        g[i] &= M26;
    }
    if (g[4] >> 26) {
        g[4] &= M26;
        memcpy(h, g, sizeof g);
    }
}

void poly1305_ref_acc(const struct poly1305_ref *ctx, uint8_t acc[17])
{
    uint64_t h[5];
    reduce_full(ctx->h, h);
    memset(acc, 0, 17);
    for (int k = 0; k < 130; k++)
        if ((h[k / 26] >> (k % 26)) & 1) acc[k / 8] |= (uint8_t)(1u << (k % 8));
}

void poly1305_ref_final(const struct poly1305_ref *ctx, uint8_t tag[POLY1305_TAG_BYTES])
{
    uint8_t acc[17];
    poly1305_ref_acc(ctx, acc);
    /* (acc + s) mod 2^128: byte-wise addition, the carry out of byte 15 dropped */
    unsigned c = 0;
    for (int i = 0; i < 16; i++) {
        c += (unsigned)acc[i] + ctx->s[i];
        tag[i] = (uint8_t)c;
        c >>= 8;
    }
}

void poly1305_ref_mac(uint8_t tag[POLY1305_TAG_BYTES], const uint8_t *msg, size_t len,
                      const uint8_t key[POLY1305_KEY_BYTES])
{
    struct poly1305_ref ctx;
    poly1305_ref_init(&ctx, key);
    size_t whole = len / 16;
    poly1305_ref_blocks(&ctx, msg, whole, 1);
    if (len % 16) {
        uint8_t last[16] = {0};
        memcpy(last, msg + 16 * whole, len % 16);
        last[len % 16] = 1; /* the 0x01 byte right after the message */
        poly1305_ref_blocks(&ctx, last, 1, 0);
    }
    poly1305_ref_final(&ctx, tag);
}
