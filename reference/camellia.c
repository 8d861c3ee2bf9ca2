/* Camellia from RFC 3713, written for reading, not for speed: table look-ups
 * indexed by key and data (this file is the judge of kernels, not a
 * constant-time implementation). Section numbers below are the RFC's; the
 * subkey layout is described in camellia.h. */
#include "camellia.h"

#include <string.h>

/* Section 2.4.4: SBOX1 as the RFC tabulates it (row = high nibble). */
const uint8_t camellia_sbox1[256] = {
    112, 130,  44, 236, 179,  39, 192, 229, 228, 133,  87,  53, 234,  12, 174,  65,
     35, 239, 107, 147,  69,  25, 165,  33, 237,  14,  79,  78,  29, 101, 146, 189,
    134, 184, 175, 143, 124, 235,  31, 206,  62,  48, 220,  95,  94, 197,  11,  26,
    166, 225,  57, 202, 213,  71,  93,  61, 217,   1,  90, 214,  81,  86, 108,  77,
    139,  13, 154, 102, 251, 204, 176,  45, 116,  18,  43,  32, 240, 177, 132, 153,
    223,  76, 203, 194,  52, 126, 118,   5, 109, 183, 169,  49, 209,  23,   4, 215,
     20,  88,  58,  97, 222,  27,  17,  28,  50,  15, 156,  22,  83,  24, 242,  34,
    254,  68, 207, 178, 195, 181, 122, 145,  36,   8, 232, 168,  96, 252, 105,  80,
    170, 208, 160, 125, 161, 137,  98, 151,  84,  91,  30, 149, 224, 255, 100, 210,
     16, 196,   0,  72, 163, 247, 117, 219, 138,   3, 230, 218,   9,  63, 221, 148,
    135,  92, 131,   2, 205,  74, 144,  51, 115, 103, 246, 243, 157, 127, 191, 226,
     82, 155, 216,  38, 200,  55, 198,  59, 129, 150, 111,  75,  19, 190,  99,  46,
    233, 121, 167, 140, 159, 110, 188, 142,  41, 245, 249, 182,  47, 253, 180,  89,
    120, 152,   6, 106, 231,  70, 113, 186, 212,  37, 171,  66, 136, 162, 141, 250,
    114,   7, 185,  85, 248, 238, 172,  10,  54,  73,  42, 104,  60,  56, 241, 164,
     64,  40, 211, 123, 187, 201,  67, 193,  21, 227, 173, 244, 119, 199, 128, 158,
};

static uint8_t rotl8(uint8_t x, unsigned n) { return (uint8_t)((x << n) | (x >> (8 - n))); }
static uint32_t rotl32(uint32_t x, unsigned n) { return (x << n) | (x >> (32 - n)); }

/* Section 2.4.4: SBOX2(x) = SBOX1(x) <<< 1, SBOX3(x) = SBOX1(x) <<< 7,
 * SBOX4(x) = SBOX1(x <<< 1). */
static uint8_t sbox1(uint8_t x) { return camellia_sbox1[x]; }
static uint8_t sbox2(uint8_t x) { return rotl8(camellia_sbox1[x], 1); }
static uint8_t sbox3(uint8_t x) { return rotl8(camellia_sbox1[x], 7); }
static uint8_t sbox4(uint8_t x) { return camellia_sbox1[rotl8(x, 1)]; }

/* Section 2.4.1: the F-function. t1 is the most significant byte. */
static uint64_t camellia_f(uint64_t in, uint64_t ke)
{
    uint64_t x = in ^ ke;
    uint8_t t1 = sbox1((uint8_t)(x >> 56));
    uint8_t t2 = sbox2((uint8_t)(x >> 48));
    uint8_t t3 = sbox3((uint8_t)(x >> 40));
    uint8_t t4 = sbox4((uint8_t)(x >> 32));
    uint8_t t5 = sbox2((uint8_t)(x >> 24));
    uint8_t t6 = sbox3((uint8_t)(x >> 16));
    uint8_t t7 = sbox4((uint8_t)(x >> 8));
    uint8_t t8 = sbox1((uint8_t)x);
    uint8_t y1 = t1 ^ t3 ^ t4 ^ t6 ^ t7 ^ t8;
    uint8_t y2 = t1 ^ t2 ^ t4 ^ t5 ^ t7 ^ t8;
    uint8_t y3 = t1 ^ t2 ^ t3 ^ t5 ^ t6 ^ t8;
    uint8_t y4 = t2 ^ t3 ^ t4 ^ t5 ^ t6 ^ t7;
    uint8_t y5 = t1 ^ t2 ^ t6 ^ t7 ^ t8;
    uint8_t y6 = t2 ^ t3 ^ t5 ^ t7 ^ t8;
    uint8_t y7 = t3 ^ t4 ^ t5 ^ t6 ^ t8;
    uint8_t y8 = t1 ^ t4 ^ t5 ^ t6 ^ t7;
    return (uint64_t)y1 << 56 | (uint64_t)y2 << 48 | (uint64_t)y3 << 40 | (uint64_t)y4 << 32 |
           (uint64_t)y5 << 24 | (uint64_t)y6 << 16 | (uint64_t)y7 << 8 | (uint64_t)y8;
}

/* Section 2.4.2: FL and FL^-1. */
static uint64_t camellia_fl(uint64_t in, uint64_t ke)
{
    uint32_t x1 = (uint32_t)(in >> 32), x2 = (uint32_t)in;
    uint32_t k1 = (uint32_t)(ke >> 32), k2 = (uint32_t)ke;
    x2 ^= rotl32(x1 & k1, 1);
    x1 ^= x2 | k2;
    return (uint64_t)x1 << 32 | x2;
}

static uint64_t camellia_flinv(uint64_t in, uint64_t ke)
{
    uint32_t y1 = (uint32_t)(in >> 32), y2 = (uint32_t)in;
    uint32_t k1 = (uint32_t)(ke >> 32), k2 = (uint32_t)ke;
    y1 ^= y2 | k2;
    y2 ^= rotl32(y1 & k1, 1);
    return (uint64_t)y1 << 32 | y2;
}

static uint64_t load_be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

static void store_be64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

/* A 128-bit value as its two 64-bit halves. */
struct u128 { uint64_t hi, lo; };

/* x <<< n, 0 <= n < 128 */
static struct u128 rotl128(struct u128 x, unsigned n)
{
    if (n >= 64) {
        uint64_t t = x.hi;
        x.hi = x.lo, x.lo = t, n -= 64;
    }
    if (n == 0)
        return x;
    struct u128 r = { x.hi << n | x.lo >> (64 - n), x.lo << n | x.hi >> (64 - n) };
    return r;
}

/* Section 2.2: the key constants Sigma1..Sigma6. */
static const uint64_t sigma[6] = {
    UINT64_C(0xA09E667F3BCC908B), UINT64_C(0xB67AE8584CAA73B2), UINT64_C(0xC6EF372FE94F82BE),
    UINT64_C(0x54FF53A5F1D36F1C), UINT64_C(0x10E527FADE682D1D), UINT64_C(0xB05688C2B3E6C1FD),
};

/* Section 2.2: which of KL, KR, KA, KB is rotated by how much, and which half
 * is taken, for each subkey in order of use (the layout of camellia.h). */
enum { KL, KR, KA, KB };
struct subkey_source { unsigned char from, rot, low_half; };

static const struct subkey_source schedule_128[26] = {
    {KL,   0, 0}, {KL,   0, 1},                                     /* kw1, kw2 */
    {KA,   0, 0}, {KA,   0, 1}, {KL,  15, 0}, {KL,  15, 1},         /* k1 .. k4 */
    {KA,  15, 0}, {KA,  15, 1},                                     /* k5, k6 */
    {KA,  30, 0}, {KA,  30, 1},                                     /* ke1, ke2 */
    {KL,  45, 0}, {KL,  45, 1}, {KA,  45, 0}, {KL,  60, 1},         /* k7 .. k10 */
    {KA,  60, 0}, {KA,  60, 1},                                     /* k11, k12 */
    {KL,  77, 0}, {KL,  77, 1},                                     /* ke3, ke4 */
    {KL,  94, 0}, {KL,  94, 1}, {KA,  94, 0}, {KA,  94, 1},         /* k13 .. k16 */
    {KL, 111, 0}, {KL, 111, 1},                                     /* k17, k18 */
    {KA, 111, 0}, {KA, 111, 1},                                     /* kw3, kw4 */
};

static const struct subkey_source schedule_256[34] = {
    {KL,   0, 0}, {KL,   0, 1},                                     /* kw1, kw2 */
    {KB,   0, 0}, {KB,   0, 1}, {KR,  15, 0}, {KR,  15, 1},         /* k1 .. k4 */
    {KA,  15, 0}, {KA,  15, 1},                                     /* k5, k6 */
    {KR,  30, 0}, {KR,  30, 1},                                     /* ke1, ke2 */
    {KB,  30, 0}, {KB,  30, 1}, {KL,  45, 0}, {KL,  45, 1},         /* k7 .. k10 */
    {KA,  45, 0}, {KA,  45, 1},                                     /* k11, k12 */
    {KL,  60, 0}, {KL,  60, 1},                                     /* ke3, ke4 */
    {KR,  60, 0}, {KR,  60, 1}, {KB,  60, 0}, {KB,  60, 1},         /* k13 .. k16 */
    {KL,  77, 0}, {KL,  77, 1},                                     /* k17, k18 */
    {KA,  77, 0}, {KA,  77, 1},                                     /* ke5, ke6 */
    {KR,  94, 0}, {KR,  94, 1}, {KA,  94, 0}, {KA,  94, 1},         /* k19 .. k22 */
    {KL, 111, 0}, {KL, 111, 1},                                     /* k23, k24 */
    {KB, 111, 0}, {KB, 111, 1},                                     /* kw3, kw4 */
};

void camellia_set_encrypt_key(struct camellia_key *k, const uint8_t *key, size_t keylen)
{
    memset(k, 0, sizeof *k);
    if (keylen != 16 && keylen != 24 && keylen != 32)
        return;

    /* Section 2.2: KL is the first 128 bits; KR is 0 (128-bit keys), the
     * last 64 bits followed by their complement (192), the last 128 (256). */
    struct u128 kx[4] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    kx[KL].hi = load_be64(key);
    kx[KL].lo = load_be64(key + 8);
    if (keylen == 24) {
        kx[KR].hi = load_be64(key + 16);
        kx[KR].lo = ~kx[KR].hi;
    } else if (keylen == 32) {
        kx[KR].hi = load_be64(key + 16);
        kx[KR].lo = load_be64(key + 24);
    }

    /* KA and KB from KL and KR through four and two rounds of F. */
    uint64_t d1 = kx[KL].hi ^ kx[KR].hi, d2 = kx[KL].lo ^ kx[KR].lo;
    d2 ^= camellia_f(d1, sigma[0]);
    d1 ^= camellia_f(d2, sigma[1]);
    d1 ^= kx[KL].hi;
    d2 ^= kx[KL].lo;
    d2 ^= camellia_f(d1, sigma[2]);
    d1 ^= camellia_f(d2, sigma[3]);
    kx[KA].hi = d1, kx[KA].lo = d2;
    d1 = kx[KA].hi ^ kx[KR].hi, d2 = kx[KA].lo ^ kx[KR].lo;
    d2 ^= camellia_f(d1, sigma[4]);
    d1 ^= camellia_f(d2, sigma[5]);
    kx[KB].hi = d1, kx[KB].lo = d2;

    const struct subkey_source *src = keylen == 16 ? schedule_128 : schedule_256;
    k->rounds = keylen == 16 ? 18 : 24;
    for (unsigned i = 0; i < CAMELLIA_SUBKEYS(k->rounds); i++) {
        struct u128 r = rotl128(kx[src[i].from], src[i].rot);
        k->sk[i] = src[i].low_half ? r.lo : r.hi;
    }
    memset(kx, 0, sizeof kx);
}

/* Section 2.3.3: decryption is the same process with the subkeys in reverse
 * order, kw1/kw2 exchanged with kw3/kw4 and each FL pair reversed, so that
 * each FL^-1 of decryption meets the key its FL used in encryption. In
 * order-of-use layout: the whitening pairs swap ends, the rest reverses. */
void camellia_set_decrypt_key(struct camellia_key *k, const uint8_t *key, size_t keylen)
{
    struct camellia_key e;
    camellia_set_encrypt_key(&e, key, keylen);
    memset(k, 0, sizeof *k);
    if (!e.rounds)
        return;
    unsigned n = CAMELLIA_SUBKEYS(e.rounds);
    k->rounds = e.rounds;
    k->sk[0] = e.sk[n - 2];
    k->sk[1] = e.sk[n - 1];
    for (unsigned i = 2; i < n - 2; i++)
        k->sk[i] = e.sk[n - 1 - i];
    k->sk[n - 2] = e.sk[0];
    k->sk[n - 1] = e.sk[1];
    memset(&e, 0, sizeof e);
}

/* Section 2.3.2 (18 rounds) and its 24-round form: pre-whitening, groups of
 * six rounds separated by FL / FL^-1, post-whitening, halves swapped. */
void camellia_crypt_block(const struct camellia_key *k, uint8_t out[16], const uint8_t in[16])
{
    const uint64_t *sk = k->sk;
    uint64_t d1 = load_be64(in) ^ *sk++;
    uint64_t d2 = load_be64(in + 8) ^ *sk++;
    for (unsigned group = 0; group < k->rounds / 6; group++) {
        if (group > 0) {
            d1 = camellia_fl(d1, *sk++);
            d2 = camellia_flinv(d2, *sk++);
        }
        for (int r = 0; r < 3; r++) {
            d2 ^= camellia_f(d1, *sk++);
            d1 ^= camellia_f(d2, *sk++);
        }
    }
    d2 ^= *sk++;
    d1 ^= *sk++;
    store_be64(out, d2);
    store_be64(out + 8, d1);
}

void camellia_ecb(const struct camellia_key *k, uint8_t *out, const uint8_t *in, size_t nblocks)
{
    for (size_t i = 0; i < nblocks; i++)
        camellia_crypt_block(k, out + 16 * i, in + 16 * i);
}

void camellia_ctr(const struct camellia_key *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                  uint8_t ctr[16])
{
    for (size_t i = 0; i < nblocks; i++) {
        uint8_t ks[16];
        camellia_crypt_block(k, ks, ctr);
        for (int j = 0; j < 16; j++)
            out[16 * i + j] = in[16 * i + j] ^ ks[j];
        for (int j = 15; j >= 0 && ++ctr[j] == 0; j--)
            ;
    }
}
