/* chacha.c — see chacha.h.  Written from RFC 8439 section 2 and draft-irtf-cfrg-xchacha-03. */
#include "chacha.h"

#include <string.h>

static uint32_t rotl(uint32_t x, int n)
{
    return x << n | x >> (32 - n);
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

/* RFC 8439 2.1: the quarter round on words a, b, c, d of x. */
static void quarter(uint32_t x[16], int a, int b, int c, int d)
{
    x[a] += x[b], x[d] ^= x[a], x[d] = rotl(x[d], 16);
    x[c] += x[d], x[b] ^= x[c], x[b] = rotl(x[b], 12);
    x[a] += x[b], x[d] ^= x[a], x[d] = rotl(x[d], 8);
    x[c] += x[d], x[b] ^= x[c], x[b] = rotl(x[b], 7);
}

/* RFC 8439 2.3: nrounds / 2 times a column round and a diagonal round. */
static void rounds(uint32_t x[16], unsigned nrounds)
{
    for (unsigned i = 0; i < nrounds; i += 2) {
        quarter(x, 0, 4, 8, 12), quarter(x, 1, 5, 9, 13);
        quarter(x, 2, 6, 10, 14), quarter(x, 3, 7, 11, 15);
        quarter(x, 0, 5, 10, 15), quarter(x, 1, 6, 11, 12);
        quarter(x, 2, 7, 8, 13), quarter(x, 3, 4, 9, 14);
    }
}

void chacha_init(uint32_t state[16], const uint8_t key[CHACHA_KEY_BYTES], const uint32_t w12_15[4])
{
    /* "expand 32-byte k" */
    state[0] = 0x61707865, state[1] = 0x3320646e, state[2] = 0x79622d32, state[3] = 0x6b206574;
    for (int i = 0; i < 8; i++) state[4 + i] = le32(key + 4 * i);
    for (int i = 0; i < 4; i++) state[12 + i] = w12_15[i];
}

void chacha_block(const uint32_t state[16], unsigned nrounds, uint8_t out[CHACHA_BLOCK_BYTES])
{
    uint32_t x[16];
    memcpy(x, state, sizeof x);
    rounds(x, nrounds);
    for (int i = 0; i < 16; i++) put_le32(out + 4 * i, x[i] + state[i]);
}

void chacha_advance(uint32_t state[16], enum chacha_ctr ctr)
{
    state[12]++;
    if (ctr == CHACHA_CTR64 && state[12] == 0) state[13]++;
}

void chacha_xor(uint32_t state[16], unsigned nrounds, enum chacha_ctr ctr, uint8_t *out,
                const uint8_t *in, size_t len)
{
    uint8_t ks[CHACHA_BLOCK_BYTES];
    for (size_t off = 0; off < len; off += CHACHA_BLOCK_BYTES) {
        chacha_block(state, nrounds, ks);
        chacha_advance(state, ctr);
        size_t n = len - off < CHACHA_BLOCK_BYTES ? len - off : CHACHA_BLOCK_BYTES;
        for (size_t i = 0; i < n; i++) out[off + i] = in[off + i] ^ ks[i];
    }
}

void hchacha(const uint8_t key[CHACHA_KEY_BYTES], const uint8_t nonce[HCHACHA_NONCE_BYTES],
             unsigned nrounds, uint8_t subkey[CHACHA_KEY_BYTES])
{
    uint32_t w[4], x[16];
    for (int i = 0; i < 4; i++) w[i] = le32(nonce + 4 * i);
    chacha_init(x, key, w);
    rounds(x, nrounds);
    for (int i = 0; i < 4; i++) {
        put_le32(subkey + 4 * i, x[i]);
        put_le32(subkey + 16 + 4 * i, x[12 + i]);
    }
}

void xchacha_xor(const uint8_t key[CHACHA_KEY_BYTES], const uint8_t nonce[XCHACHA_NONCE_BYTES],
                 uint32_t counter, unsigned nrounds, enum chacha_ctr ctr, uint8_t *out,
                 const uint8_t *in, size_t len)
{
    uint8_t subkey[CHACHA_KEY_BYTES];
    uint32_t state[16], w[4] = {counter, 0, le32(nonce + 16), le32(nonce + 20)};
    hchacha(key, nonce, nrounds, subkey);
    chacha_init(state, subkey, w);
    chacha_xor(state, nrounds, ctr, out, in, len);
}
