/* AES-GCM, NIST SP 800-38D: authenticated encryption (GCM-AE, Algorithm 4) and decryption
 * (GCM-AD, Algorithm 5) with AES-128, -192 or -256 (reference/aes.c), the GHASH of
 * reference/ghash.c, any IV length of at least one byte, and the tag truncated to its
 * leftmost 1..16 bytes (section 5.2.1.2 lists 16, 15, 14, 13, 12 and, for some uses, 8 and 4).
 *
 * Besides the IV entry points, an entry from a given pre-counter block J0: GCTR's 32-bit
 * counter then starts wherever J0 puts it, near its 2^32 wrap included, which no 96-bit IV
 * reaches (J0 = IV || 0^31 || 1).  gcm_iv_for_j0 finds the 16-byte IV whose J0 (section 7.1,
 * step 2: GHASH of the IV and its length block) is a given block, so an API that takes only
 * an IV can be started there too. */
#ifndef ASMDIFF_REFERENCE_GCM_H
#define ASMDIFF_REFERENCE_GCM_H

#include <stddef.h>
#include <stdint.h>

#include "aes.h"

/* The key: AES's schedule and the hash subkey H = CIPH_K(0^128) (Algorithm 4, step 1). */
struct gcm_key {
    struct aes_key aes;
    uint8_t h[16];
};

/* keylen 16, 24 or 32; 0, or -1 for another length. */
int gcm_setkey(struct gcm_key *k, const uint8_t *key, size_t keylen);

/* inc32 (section 6.2): the rightmost 32 bits of the block, big-endian, plus one mod 2^32; the
 * leftmost 96 bits never change. */
void gcm_inc32(uint8_t block[16]);

/* J0 from the IV (Algorithm 4, step 2): IV || 0^31 || 1 for a 12-byte IV, else
 * GHASH_H(IV || 0^(s+64) || [len(IV)]_64).  ivlen >= 1. */
void gcm_j0(const struct gcm_key *k, const uint8_t *iv, size_t ivlen, uint8_t j0[16]);

/* The 16-byte IV whose J0 is the given block: the solution of GHASH_H(X || L) = J0 for one
 * block X, L = 0^64 || [128]_64, i.e. X = (J0 xor L.H) . H^-2.  0, or -1 when H = 0 (then
 * every 16-byte IV gives J0 = 0: none other is reachable). */
int gcm_iv_for_j0(const struct gcm_key *k, const uint8_t j0[16], uint8_t iv[16]);

/* Seal: ct (len bytes; may equal pt) and the tag's leftmost taglen bytes (1..16).
 * 0, or -1 for a bad key, IV or tag length (nothing written). NULL is fine for empty buffers. */
int gcm_seal(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
             const uint8_t *aad, size_t aadlen, const uint8_t *pt, size_t len, uint8_t *ct,
             uint8_t *tag, size_t taglen);
/* Open: 0 and the plaintext when the tag verifies; -1 otherwise, pt zeroed (section 7.2,
 * step 8: FAIL, no plaintext released). */
int gcm_open(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
             const uint8_t *aad, size_t aadlen, const uint8_t *ct, size_t len,
             const uint8_t *tag, size_t taglen, uint8_t *pt);

/* The same from a pre-counter block J0 instead of an IV: the tag is CIPH_K(J0) xor S, the
 * payload GCTR from inc32(J0). */
int gcm_seal_j0(const struct gcm_key *k, const uint8_t j0[16], const uint8_t *aad,
                size_t aadlen, const uint8_t *pt, size_t len, uint8_t *ct, uint8_t *tag,
                size_t taglen);
int gcm_open_j0(const struct gcm_key *k, const uint8_t j0[16], const uint8_t *aad,
                size_t aadlen, const uint8_t *ct, size_t len, const uint8_t *tag,
                size_t taglen, uint8_t *pt);

/* S = GHASH_H(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64) (Algorithm 4, steps 4-5),
 * for tests that check the published intermediate values. */
void gcm_ghash_s(const struct gcm_key *k, const uint8_t *aad, size_t aadlen, const uint8_t *ct,
                 size_t len, uint8_t s[16]);

#endif
