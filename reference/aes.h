/* AES-128 and AES-256 encryption, FIPS-197: key expansion and one block.
 * Only the forward cipher: AES-GCM-SIV (RFC 8452) never decrypts a block. */
#ifndef ASMDIFF_REFERENCE_AES_H
#define ASMDIFF_REFERENCE_AES_H

#include <stddef.h>
#include <stdint.h>

/* Nr + 1 round keys of 16 bytes; Nr = 10 (AES-128) or 14 (AES-256). */
struct aes_key {
    int rounds;
    uint8_t rk[15][16];
};

/* keylen 16 or 32; returns 0, or -1 (k untouched) for any other length. */
int aes_expand_key(struct aes_key *k, const uint8_t *key, size_t keylen);
/* out may alias in. */
void aes_encrypt_block(const struct aes_key *k, uint8_t out[16], const uint8_t in[16]);

/* FIPS-197 section 5.1.1, Figure 7; exposed so a test can rebuild it from the
 * definition (inverse in GF(2^8), then the affine map) and compare. */
extern const uint8_t aes_sbox[256];

#endif
