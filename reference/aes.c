/* AES from FIPS-197, byte by byte as the standard describes it: SubBytes
 * with the S-box table, ShiftRows, MixColumns with xtime, and AddRoundKey;
 * the inverse cipher (5.3) and the equivalent inverse cipher (5.3.5) with
 * the inverse S-box computed from the forward one. Table lookups indexed by secret bytes are not constant time;
 * this is a reference to judge kernels with, not one to protect keys with.
 *
 * The state is kept as FIPS-197 lays out the input: byte r + 4c is row r,
 * column c, so a column is 4 consecutive bytes. */
#include "aes.h"

#include <string.h>

/* FIPS-197, Figure 7 (row = high nibble, column = low nibble). */
const uint8_t aes_sbox[256] = {
    0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76,
    0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0, 0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0,
    0xb7, 0xfd, 0x93, 0x26, 0x36, 0x3f, 0xf7, 0xcc, 0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15,
    0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a, 0x07, 0x12, 0x80, 0xe2, 0xeb, 0x27, 0xb2, 0x75,
    0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0, 0x52, 0x3b, 0xd6, 0xb3, 0x29, 0xe3, 0x2f, 0x84,
    0x53, 0xd1, 0x00, 0xed, 0x20, 0xfc, 0xb1, 0x5b, 0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58, 0xcf,
    0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85, 0x45, 0xf9, 0x02, 0x7f, 0x50, 0x3c, 0x9f, 0xa8,
    0x51, 0xa3, 0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5, 0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2,
    0xcd, 0x0c, 0x13, 0xec, 0x5f, 0x97, 0x44, 0x17, 0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73,
    0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88, 0x46, 0xee, 0xb8, 0x14, 0xde, 0x5e, 0x0b, 0xdb,
    0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c, 0xc2, 0xd3, 0xac, 0x62, 0x91, 0x95, 0xe4, 0x79,
    0xe7, 0xc8, 0x37, 0x6d, 0x8d, 0xd5, 0x4e, 0xa9, 0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a, 0xae, 0x08,
    0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6, 0xe8, 0xdd, 0x74, 0x1f, 0x4b, 0xbd, 0x8b, 0x8a,
    0x70, 0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e, 0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e,
    0xe1, 0xf8, 0x98, 0x11, 0x69, 0xd9, 0x8e, 0x94, 0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf,
    0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42, 0x68, 0x41, 0x99, 0x2d, 0x0f, 0xb0, 0x54, 0xbb, 0x16,
};

/* Multiplication by x in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (FIPS-197 4.2.1). */
static uint8_t xtime(uint8_t b)
{
    return (uint8_t)((b << 1) ^ ((b >> 7) * 0x1b));
}

/* FIPS-197 section 5.2 (Nk = 4, 6, 8; Nr = Nk + 6). The Nk-word key is followed by words
 * w[i] = w[i - Nk] ^ f(w[i - 1]), where f is RotWord, SubWord and the round
 * constant when i % Nk == 0, SubWord alone when Nk == 8 and i % Nk == 4, and
 * the identity otherwise. */
int aes_expand_key(struct aes_key *k, const uint8_t *key, size_t keylen)
{
    if (keylen != 16 && keylen != 24 && keylen != 32)
        return -1;

    int nk = (int)(keylen / 4);
    int nr = nk + 6;
    int nwords = 4 * (nr + 1);
    uint8_t w[60][4];
    uint8_t rcon = 0x01;

    memcpy(w, key, keylen);
    for (int i = nk; i < nwords; i++) {
        uint8_t t[4];
        memcpy(t, w[i - 1], 4);
        if (i % nk == 0) {
            uint8_t first = t[0];
            t[0] = (uint8_t)(aes_sbox[t[1]] ^ rcon);
            t[1] = aes_sbox[t[2]];
            t[2] = aes_sbox[t[3]];
            t[3] = aes_sbox[first];
            rcon = xtime(rcon);
        } else if (nk == 8 && i % nk == 4) {
            for (int j = 0; j < 4; j++)
                t[j] = aes_sbox[t[j]];
        }
        for (int j = 0; j < 4; j++)
            w[i][j] = w[i - nk][j] ^ t[j];
    }

    k->rounds = nr;
    memcpy(k->rk, w, (size_t)nwords * 4);
    memset(w, 0, sizeof w);
    return 0;
}

static void add_round_key(uint8_t s[16], const uint8_t rk[16])
{
    for (int i = 0; i < 16; i++)
        s[i] ^= rk[i];
}

static void sub_bytes(uint8_t s[16])
{
    for (int i = 0; i < 16; i++)
        s[i] = aes_sbox[s[i]];
}

/* Row r moves left by r columns: new s[r][c] = s[r][(c + r) % 4]. */
static void shift_rows(uint8_t s[16])
{
    uint8_t t[16];
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            t[r + 4 * c] = s[r + 4 * ((c + r) % 4)];
    memcpy(s, t, 16);
}

/* Each column times {03}x^3 + {01}x^2 + {01}x + {02} (FIPS-197 5.1.3):
 * out[r] = 2*a[r] ^ 3*a[r+1] ^ a[r+2] ^ a[r+3], indices mod 4. */
static void mix_columns(uint8_t s[16])
{
    for (int c = 0; c < 4; c++) {
        uint8_t *a = s + 4 * c;
        uint8_t t[4];
        for (int r = 0; r < 4; r++) {
            uint8_t a0 = a[r], a1 = a[(r + 1) % 4];
            uint8_t a2 = a[(r + 2) % 4], a3 = a[(r + 3) % 4];
            t[r] = (uint8_t)(xtime(a0) ^ xtime(a1) ^ a1 ^ a2 ^ a3);
        }
        memcpy(a, t, 4);
    }
}

/* FIPS-197 section 5.1, Figure 5. */
void aes_encrypt_block(const struct aes_key *k, uint8_t out[16], const uint8_t in[16])
{
    uint8_t s[16];

    memcpy(s, in, 16);
    add_round_key(s, k->rk[0]);
    for (int round = 1; round < k->rounds; round++) {
        sub_bytes(s);
        shift_rows(s);
        mix_columns(s);
        add_round_key(s, k->rk[round]);
    }
    sub_bytes(s);
    shift_rows(s);
    add_round_key(s, k->rk[k->rounds]);
    memcpy(out, s, 16);
}

/* ---- the inverse cipher ---- */

static uint8_t inv_sbox(uint8_t y)
{
    static uint8_t inv[256];
    static int ready;
    if (!ready) {
        for (int x = 0; x < 256; x++)
            inv[aes_sbox[x]] = (uint8_t)x;
        ready = 1;
    }
    return inv[y];
}

static void inv_sub_bytes(uint8_t s[16])
{
    for (int i = 0; i < 16; i++)
        s[i] = inv_sbox(s[i]);
}

/* Row r moves right by r columns: new s[r][(c + r) % 4] = s[r][c] (FIPS-197 5.3.1). */
static void inv_shift_rows(uint8_t s[16])
{
    uint8_t t[16];
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++)
            t[r + 4 * ((c + r) % 4)] = s[r + 4 * c];
    memcpy(s, t, 16);
}

/* a times b in GF(2^8), by repeated xtime. */
static uint8_t gmul(uint8_t a, uint8_t b)
{
    uint8_t p = 0;
    for (; b; b >>= 1, a = xtime(a))
        if (b & 1)
            p ^= a;
    return p;
}

/* Each column times {0b}x^3 + {0d}x^2 + {09}x + {0e} (FIPS-197 5.3.3):
 * out[r] = e*a[r] ^ b*a[r+1] ^ d*a[r+2] ^ 9*a[r+3], indices mod 4. */
static void inv_mix_columns(uint8_t s[16])
{
    for (int c = 0; c < 4; c++) {
        uint8_t *a = s + 4 * c;
        uint8_t t[4];
        for (int r = 0; r < 4; r++)
            t[r] = (uint8_t)(gmul(a[r], 0x0e) ^ gmul(a[(r + 1) % 4], 0x0b) ^
                             gmul(a[(r + 2) % 4], 0x0d) ^ gmul(a[(r + 3) % 4], 0x09));
        memcpy(a, t, 4);
    }
}

/* FIPS-197 section 5.3, Figure 12: the encryption schedule, used from its end. */
void aes_decrypt_block(const struct aes_key *k, uint8_t out[16], const uint8_t in[16])
{
    uint8_t s[16];

    memcpy(s, in, 16);
    add_round_key(s, k->rk[k->rounds]);
    for (int round = k->rounds - 1; round > 0; round--) {
        inv_shift_rows(s);
        inv_sub_bytes(s);
        add_round_key(s, k->rk[round]);
        inv_mix_columns(s);
    }
    inv_shift_rows(s);
    inv_sub_bytes(s);
    add_round_key(s, k->rk[0]);
    memcpy(out, s, 16);
}

/* FIPS-197 section 5.3.5: dw is the schedule reversed, InvMixColumns applied to
 * every round key but the first and the last. */
int aes_expand_key_decrypt(struct aes_key *dk, const uint8_t *key, size_t keylen)
{
    struct aes_key k;
    if (aes_expand_key(&k, key, keylen))
        return -1;
    dk->rounds = k.rounds;
    for (int i = 0; i <= k.rounds; i++) {
        memcpy(dk->rk[i], k.rk[k.rounds - i], 16);
        if (i > 0 && i < k.rounds)
            inv_mix_columns(dk->rk[i]);
    }
    memset(&k, 0, sizeof k);
    return 0;
}

/* FIPS-197 section 5.3.5, Figure 15: the order of the encryption rounds. */
void aes_decrypt_block_equivalent(const struct aes_key *dk, uint8_t out[16], const uint8_t in[16])
{
    uint8_t s[16];

    memcpy(s, in, 16);
    add_round_key(s, dk->rk[0]);
    for (int round = 1; round < dk->rounds; round++) {
        inv_sub_bytes(s);
        inv_shift_rows(s);
        inv_mix_columns(s);
        add_round_key(s, dk->rk[round]);
    }
    inv_sub_bytes(s);
    inv_shift_rows(s);
    add_round_key(s, dk->rk[dk->rounds]);
    memcpy(out, s, 16);
}
