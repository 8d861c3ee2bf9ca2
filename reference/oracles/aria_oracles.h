/* aria_oracles.h — library ARIA implementations: OpenSSL EVP (ECB, CTR) and libgcrypt when its
 * version has ARIA (1.11 or later; its GFNI/AVX-512 kernels are then also targets). */
#ifndef ASMDIFF_ARIA_ORACLES_H
#define ASMDIFF_ARIA_ORACLES_H

#include <stddef.h>
#include <stdint.h>

#include "asmdiff-config.h"

#if ASMDIFF_HAVE_OPENSSL
/* encrypt != 0: encrypt; ECB. Returns 0, -1 on a library error. */
int oracle_openssl_aria_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out,
                            const uint8_t *in, size_t nblocks);
/* CTR from ctr (128-bit big-endian), which is advanced by nblocks. */
int oracle_openssl_aria_ctr(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                            size_t nblocks, uint8_t ctr[16]);
const char *oracle_openssl_aria_describe(void);
#endif

#if ASMDIFF_HAVE_GCRYPT
/* NULL when the installed libgcrypt has ARIA, else why not ("not available in libgcrypt
 * 1.10.1: ARIA arrived in 1.11"). */
const char *oracle_gcrypt_aria_unavailable(void);
int oracle_gcrypt_aria_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out,
                           const uint8_t *in, size_t nblocks);
int oracle_gcrypt_aria_ctr(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                           size_t nblocks, uint8_t ctr[16]);
#endif

#endif
