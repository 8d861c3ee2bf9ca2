/* Camellia, RFC 3713: a 128-bit block cipher with 128-, 192- and 256-bit keys,
 * 18 rounds (128-bit keys) or 24 rounds (192- and 256-bit keys).
 *
 * Blocks and keys are byte strings in the RFC's order: byte 0 is the leftmost
 * (most significant) byte of the RFC's 128-bit values.
 *
 * Subkeys are kept as 64-bit integers holding the RFC's 64-bit values (kw1,
 * k1, ke1 ...): the RFC's most significant byte is bits 63..56 of the word.
 * On a little-endian machine (x86-64) byte j of a subkey in the RFC's order is
 * therefore at byte 7 - j of the word in memory; kernels rely on this. */
#ifndef ASMDIFF_REFERENCE_CAMELLIA_H
#define ASMDIFF_REFERENCE_CAMELLIA_H

#include <stddef.h>
#include <stdint.h>

#define CAMELLIA_BLOCK_SIZE 16
#define CAMELLIA_MAX_SUBKEYS 34

/* sk holds the subkeys IN ORDER OF USE, so that one data path serves both
 * directions:
 *   rounds = 18 (26 words):  kw1 kw2 | k1..k6 | ke1 ke2 | k7..k12 | ke3 ke4 | k13..k18 | kw3 kw4
 *   rounds = 24 (34 words):  ... k13..k18 | ke5 ke6 | k19..k24 | kw3 kw4
 * i.e. sk[0], sk[1] pre-whitening (XORed into the left and right halves),
 * then groups of six round keys separated by FL-layer key pairs (first for
 * FL on the left half, second for FL^-1 on the right half), and
 * sk[n-2], sk[n-1] post-whitening (XORed into the right and left halves
 * before they are swapped).  n = 26 or 34; words past n are zero.
 *
 * A decryption schedule has the same layout filled in the order decryption
 * uses them (RFC 3713 section 2.3.3): kw3 kw4 | k18..k13 | ke4 ke3 | k12..k7 |
 * ke2 ke1 | k6..k1 | kw1 kw2 (and for 24 rounds k24..k19, ke6 ke5 first). */
struct camellia_key {
    unsigned rounds;                   /* 18 or 24 */
    uint64_t sk[CAMELLIA_MAX_SUBKEYS];
};

/* The number of sk words a schedule of `rounds` rounds uses. */
#define CAMELLIA_SUBKEYS(rounds) ((rounds) == 18 ? 26 : 34)

_Static_assert(CAMELLIA_SUBKEYS(18) == 2 + 18 + 4 + 2, "18 rounds: kw1-2, k1-18, ke1-4, kw3-4");
_Static_assert(CAMELLIA_SUBKEYS(24) == 2 + 24 + 6 + 2, "24 rounds: kw1-2, k1-24, ke1-6, kw3-4");

/* keylen is in bytes: 16, 24 or 32. Any other length leaves *k zeroed
 * (rounds 0). */
void camellia_set_encrypt_key(struct camellia_key *k, const uint8_t *key, size_t keylen);
void camellia_set_decrypt_key(struct camellia_key *k, const uint8_t *key, size_t keylen);

/* One block through the data randomizing part with the schedule given:
 * encrypts with an encryption schedule, decrypts with a decryption one. out
 * may alias in. */
void camellia_crypt_block(const struct camellia_key *k, uint8_t out[16], const uint8_t in[16]);

/* nblocks independent blocks, encrypt or decrypt by the schedule. nblocks may
 * be 0; out may equal in, other overlaps are not allowed. */
void camellia_ecb(const struct camellia_key *k, uint8_t *out, const uint8_t *in, size_t nblocks);

/* Counter mode: out = in XOR E(ctr), E(ctr + 1), ... with ctr a 128-bit
 * big-endian counter that carries across all 16 bytes and wraps modulo 2^128;
 * ctr is left at the value for the next block. Always takes an encryption
 * schedule. out may equal in. */
void camellia_ctr(const struct camellia_key *k, uint8_t *out, const uint8_t *in, size_t nblocks,
                  uint8_t ctr[16]);

/* The RFC's SBOX1 (section 2.4.4); SBOX2..4 are derived from it there. */
extern const uint8_t camellia_sbox1[256];

#endif
