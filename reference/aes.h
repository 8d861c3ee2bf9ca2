/* AES-128, -192 and -256, FIPS-197: key expansion, one block forward, one block
 * back by the inverse cipher (5.3) and by the equivalent inverse cipher (5.3.5),
 * whose schedule is what AES-NI's aesdec takes. */
#ifndef ASMDIFF_REFERENCE_AES_H
#define ASMDIFF_REFERENCE_AES_H

#include <stddef.h>
#include <stdint.h>

/* Nr + 1 round keys of 16 bytes; Nr = 10, 12, 14 (AES-128, -192, -256). */
struct aes_key {
    int rounds;
    uint8_t rk[15][16];
};

/* keylen 16, 24 or 32; returns 0, or -1 (k untouched) for any other length. */
int aes_expand_key(struct aes_key *k, const uint8_t *key, size_t keylen);
/* out may alias in. */
void aes_encrypt_block(const struct aes_key *k, uint8_t out[16], const uint8_t in[16]);

/* FIPS-197 section 5.1.1, Figure 7; exposed so a test can rebuild it from the
 * definition (inverse in GF(2^8), then the affine map) and compare. */
extern const uint8_t aes_sbox[256];

/* FIPS-197 5.3 with the encryption schedule; out may alias in. */
void aes_decrypt_block(const struct aes_key *k, uint8_t out[16], const uint8_t in[16]);
/* The equivalent inverse cipher's schedule (5.3.5): rk[0] = the last encryption round key,
 * rk[i] = InvMixColumns of encryption round key Nr - i, rk[Nr] = the first; and the cipher
 * that takes it (out may alias in). */
int aes_expand_key_decrypt(struct aes_key *dk, const uint8_t *key, size_t keylen);
void aes_decrypt_block_equivalent(const struct aes_key *dk, uint8_t out[16],
                                  const uint8_t in[16]);

#endif
