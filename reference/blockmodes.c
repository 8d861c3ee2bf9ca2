/* Block cipher modes of operation, one block at a time as the specifications state them
 * (reference/blockmodes.h). */
#include "blockmodes.h"

#include <string.h>

static void xor16(uint8_t *out, const uint8_t *a, const uint8_t *b)
{
    for (int i = 0; i < 16; i++)
        out[i] = a[i] ^ b[i];
}

/* SP 800-38A 6.2: P_j = CIPH^-1_K(C_j) xor C_(j-1), with C_0's predecessor the IV.  The
 * ciphertext block is kept before the output may overwrite it (in place). */
void mode_cbc_decrypt(block_fn dec, const void *ks, uint8_t *out, const uint8_t *in,
                      size_t nblocks, uint8_t iv[16])
{
    uint8_t prev[16], c[16], p[16];
    memcpy(prev, iv, 16);
    for (size_t i = 0; i < nblocks; i++) {
        memcpy(c, in + 16 * i, 16);
        dec(ks, p, c);
        xor16(out + 16 * i, p, prev);
        memcpy(prev, c, 16);
    }
    memcpy(iv, prev, 16);
}

/* SP 800-38A 6.5 with the standard incrementing function of B.1 over all 128 bits. */
void mode_ctr(block_fn enc, const void *ks, uint8_t *out, const uint8_t *in, size_t nblocks,
              uint8_t ctr[16])
{
    uint8_t ks_block[16];
    for (size_t i = 0; i < nblocks; i++) {
        enc(ks, ks_block, ctr);
        xor16(out + 16 * i, in + 16 * i, ks_block);
        for (int b = 15; b >= 0; b--)
            if (++ctr[b])
                break;
    }
}

/* RFC 8452 section 4: the counter block's first 32 bits, read as a little-endian integer,
 * are incremented modulo 2^32. */
void mode_ctr32le(block_fn enc, const void *ks, uint8_t *out, const uint8_t *in, size_t nblocks,
                  uint8_t ctr[16])
{
    uint8_t ks_block[16];
    for (size_t i = 0; i < nblocks; i++) {
        enc(ks, ks_block, ctr);
        xor16(out + 16 * i, in + 16 * i, ks_block);
        for (int b = 0; b < 4; b++)
            if (++ctr[b])
                break;
    }
}

/* IEEE 1619-2018 5.2: a_(j+1) = a_j shifted left by one bit as a 128-bit little-endian
 * integer, and 135 (x^7 + x^2 + x + 1) added into its first byte when bit 127 was set. */
void xts_mul_x(uint8_t t[16])
{
    int carry = t[15] >> 7;
    for (int i = 15; i > 0; i--)
        t[i] = (uint8_t)(t[i] << 1 | t[i - 1] >> 7);
    t[0] = (uint8_t)(t[0] << 1 ^ (carry ? 0x87 : 0));
}

/* IEEE 1619-2018 5.3.1 / 5.4.1 for one block: out = f(in ^ T) ^ T. */
static void xts_block(block_fn f, const void *ks, uint8_t out[16], const uint8_t in[16],
                      const uint8_t t[16])
{
    uint8_t x[16];
    xor16(x, in, t);
    f(ks, x, x);
    xor16(out, x, t);
}

/* IEEE 1619-2018 5.3.2 (encryption) and 5.4.2 (decryption).  With m whole blocks and b
 * bytes left over (0 < b < 16), blocks 0 .. m-2 are plain XTS.  Encryption: CC = the
 * encryption of block m-1 with T_(m-1); the last output is CC's first b bytes, and output
 * block m-1 is the encryption, with T_m, of the b input bytes followed by CC's last 16-b.
 * Decryption takes block m-1 with T_m first, then the rebuilt block with T_(m-1). */
void mode_xts(block_fn f, const void *ks, int decrypt, uint8_t *out, const uint8_t *in,
              size_t len, uint8_t tweak[16])
{
    size_t m = len / 16, b = len % 16;
    size_t whole = b ? m - 1 : m; /* the blocks without stealing */
    uint8_t t[16];
    memcpy(t, tweak, 16);
    for (size_t j = 0; j < whole; j++) {
        xts_block(f, ks, out + 16 * j, in + 16 * j, t);
        xts_mul_x(t);
    }
    if (b && m) {
        uint8_t t_last[16], cc[16], pp[16], tail[16];
        const uint8_t *first = decrypt ? t_last : t, *second = decrypt ? t : t_last;
        memcpy(t_last, t, 16);
        xts_mul_x(t_last);
        memcpy(tail, in + 16 * m, b);
        xts_block(f, ks, cc, in + 16 * (m - 1), first);
        memcpy(pp, tail, b);
        memcpy(pp + b, cc + b, 16 - b);
        memcpy(out + 16 * m, cc, b);
        xts_block(f, ks, out + 16 * (m - 1), pp, second);
        memcpy(t, t_last, 16);
        xts_mul_x(t);
    }
    memcpy(tweak, t, 16);
}
