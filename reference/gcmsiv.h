/* AES-GCM-SIV, RFC 8452: AEAD_AES_128_GCM_SIV and AEAD_AES_256_GCM_SIV with
 * a 12-byte nonce and a detached 16-byte tag (the RFC's ciphertext is ct || tag). */
#ifndef ASMDIFF_REFERENCE_GCMSIV_H
#define ASMDIFF_REFERENCE_GCMSIV_H

#include <stddef.h>
#include <stdint.h>

/* RFC 8452 section 6: plaintext and AAD are at most 2^36 bytes each. */
#define GCMSIV_MAX_LEN (UINT64_C(1) << 36)

/* Both return 0, or -1 when keylen is not 16 or 32 or a length exceeds
 * GCMSIV_MAX_LEN (nothing is written then). ct may equal pt (in place), but
 * must not overlap it otherwise. NULL is allowed for zero-length buffers. */
int gcmsiv_encrypt(const uint8_t *key, size_t keylen, const uint8_t nonce[12],
                   const uint8_t *aad, size_t aadlen, const uint8_t *pt, size_t ptlen,
                   uint8_t *ct /* ptlen bytes */, uint8_t tag[16]);
/* Returns 0 if the tag verifies; -1 otherwise, with pt (ctlen bytes) zeroed. */
int gcmsiv_decrypt(const uint8_t *key, size_t keylen, const uint8_t nonce[12],
                   const uint8_t *aad, size_t aadlen, const uint8_t *ct, size_t ctlen,
                   const uint8_t tag[16], uint8_t *pt /* ctlen bytes */);

/* The steps, for tests that check the RFC's intermediate values. */

/* Section 4: message-authentication key (16 bytes) and message-encryption key
 * (keylen bytes), from AES(key, LE32(i) || nonce). Returns 0, or -1 for a bad keylen. */
int gcmsiv_derive_keys(const uint8_t *key, size_t keylen, const uint8_t nonce[12],
                       uint8_t auth_key[16], uint8_t *enc_key);
/* POLYVAL(auth_key, pad(aad) || pad(pt) || LE64(8 * aadlen) || LE64(8 * ptlen)):
 * the RFC's "POLYVAL result", before the nonce is mixed in. */
void gcmsiv_polyval(const uint8_t auth_key[16], const uint8_t *aad, size_t aadlen,
                    const uint8_t *pt, size_t ptlen, uint8_t s[16]);

#endif
