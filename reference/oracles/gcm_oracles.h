/* gcm_oracles.h — library AES-GCM (SP 800-38D) seal and open through each library's streaming
 * API, for the gcm family (fuzz/gcm.c), where the libraries are the implementations under test.
 *
 * A stream (the AAD, the payload in, the payload out) comes in pieces, each in a buffer of its
 * own (fuzz/harness/splits.h): the adapter makes one update call per piece, in order, the AAD's
 * before the payload's, exactly as the pieces come; the family has already merged the pieces
 * at cuts the library does not accept (struct gcm_lib.align).  Each library's rules, as its
 * sources state them (docs/gcm.md):
 *   - OpenSSL 3.0 EVP: EVP_CTRL_GCM_SET_IVLEN 1..128 bytes; AAD as EVP_CipherUpdate with a NULL
 *     output, any number of calls of any length (empty ones are no-ops), all before the first
 *     payload call; payload calls of any length; tags of 1..16 bytes (EVP_CTRL_GCM_GET_TAG,
 *     EVP_CTRL_GCM_SET_TAG before EVP_DecryptFinal_ex, which verifies).
 *   - libgcrypt (GCRY_CIPHER_MODE_GCM): gcry_cipher_authenticate any number of times, any
 *     length, before the first gcry_cipher_encrypt/decrypt (after it: GPG_ERR_INV_STATE);
 *     encrypt/decrypt calls of any length (partial blocks carried in the handle); IVs of any
 *     length >= 1; tags of 4, 8, 12, 13, 14, 15 and 16 bytes only (SP 800-38D 5.2.1.2), others
 *     GPG_ERR_INV_LENGTH; gcry_cipher_checktag verifies.
 *   - nettle (gcm_aes128/192/256_*): gcm_*_set_iv any length >= 1; every gcm_*_update call but
 *     the last a multiple of 16 bytes, likewise every encrypt/decrypt call but the last (nettle
 *     asserts it); digests of 1..16 bytes; no verification of its own: open compares the digest
 *     with nettle's memeql_sec.
 * Each returns 0; open -1 when the tag does not verify; -2 on any other library error.  The
 * payload's output pieces have the input's cuts. */
#ifndef ASMDIFF_GCM_ORACLES_H
#define ASMDIFF_GCM_ORACLES_H

#include <stddef.h>
#include <stdint.h>

#include "asmdiff-config.h"

/* A stream in n pieces: piece i is len[i] bytes at p[i]. */
struct gcm_in {
    size_t n;
    const uint8_t *const *p;
    const size_t *len;
};
struct gcm_out {
    size_t n;
    uint8_t *const *p;
    const size_t *len;
};

typedef int (*gcm_seal_fn)(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                           const struct gcm_in *aad, const struct gcm_in *pt,
                           const struct gcm_out *ct, uint8_t *tag, size_t taglen);
typedef int (*gcm_open_fn)(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                           const struct gcm_in *aad, const struct gcm_in *ct,
                           const struct gcm_out *pt, const uint8_t *tag, size_t taglen);

/* What a library is to the family: its two operations and what its API takes. */
struct gcm_lib {
    gcm_seal_fn seal;
    gcm_open_fn open;
    size_t align;       /* its update calls cut a stream at multiples of this many bytes only */
    unsigned tag_mask;  /* bit t: it takes tags of t bytes (1..16) */
};

#define GCM_TAGS_1_TO_16 0x1fffeu
#define GCM_TAGS_SP800_38D (1u << 4 | 1u << 8 | 1u << 12 | 1u << 13 | 1u << 14 | 1u << 15 | 1u << 16)

#if ASMDIFF_HAVE_OPENSSL
extern const struct gcm_lib oracle_openssl_gcm;
const char *oracle_openssl_gcm_describe(void);
#endif
#if ASMDIFF_HAVE_GCRYPT
extern const struct gcm_lib oracle_gcrypt_gcm;
#endif
#if ASMDIFF_HAVE_NETTLE
extern const struct gcm_lib oracle_nettle_gcm;
const char *oracle_nettle_gcm_describe(void);
#endif

#endif
