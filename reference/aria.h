/* ARIA, RFC 5794: a 128-bit block cipher with 128-, 192- and 256-bit keys
 * and 12, 14 or 16 rounds.
 *
 * Blocks, keys and round keys are byte strings in the RFC's order: byte 0 is
 * x0, the leftmost (most significant) byte of the RFC's 128-bit values. Round
 * keys are kept as bytes, not words, because every layer of ARIA is defined
 * on bytes and a byte-sliced kernel broadcasts them byte by byte. */
#ifndef ASMDIFF_REFERENCE_ARIA_H
#define ASMDIFF_REFERENCE_ARIA_H

#include <stddef.h>
#include <stdint.h>

#define ARIA_BLOCK_SIZE 16
#define ARIA_MAX_ROUNDS 16

/* rk[0 .. rounds] are ek1 .. ek{n+1} (encryption) or dk1 .. dk{n+1}
 * (decryption); rounds is n = 12, 14 or 16. Entries past rk[rounds] are
 * zero. */
struct aria_key {
    uint8_t rk[ARIA_MAX_ROUNDS + 1][16];
    int rounds;
};

/* keylen is in bytes: 16, 24 or 32. Returns 0, or -1 (key left zeroed) for
 * any other length. */
int aria_set_encrypt_key(struct aria_key *k, const uint8_t *key, size_t keylen);
int aria_set_decrypt_key(struct aria_key *k, const uint8_t *key, size_t keylen);

/* One block through the RFC's round sequence. With a decryption key this
 * decrypts (RFC 5794 section 2.3.2). out may alias in. */
void aria_encrypt_block(const struct aria_key *k, uint8_t out[16], const uint8_t in[16]);

/* nblocks independent blocks, encrypt or decrypt by the key given. nblocks
 * may be 0; out may equal in (in place), other overlaps are not allowed. */
void aria_ecb(const struct aria_key *k, uint8_t *out, const uint8_t *in, size_t nblocks);

/* Counter mode: out = in XOR E(ctr), E(ctr + 1), ... where ctr is a 128-bit
 * big-endian counter that carries across all 16 bytes and wraps modulo
 * 2^128. ctr is left at the value for the next block, so consecutive calls
 * continue one stream. Encrypts and decrypts alike; always takes the
 * encryption key. out may equal in. */
void aria_ctr(const struct aria_key *enc_key, uint8_t *out, const uint8_t *in, size_t nblocks,
              uint8_t ctr[16]);

/* The RFC's SB1, SB2, SB3 = SB1^-1 and SB4 = SB2^-1. */
extern const uint8_t aria_sb1[256], aria_sb2[256], aria_sb1_inv[256], aria_sb2_inv[256];

#endif
