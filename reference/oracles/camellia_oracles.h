/* camellia_oracles.h — library Camellia implementations: OpenSSL EVP, nettle and libgcrypt, ECB
 * and CTR.  Each is a second opinion on reference/camellia.c; libgcrypt's and OpenSSL's own
 * assembly paths (libgcrypt: AES-NI, AVX2, VAES, selected per process through
 * ASMDIFF_GCRYPT_DISABLE, see gcrypt_init.h) are thereby also targets.
 *
 * Common shapes: keylen in bytes (16, 24, 32); ECB with encrypt != 0 encrypts, else decrypts;
 * CTR from ctr (a 128-bit big-endian counter, wrapping modulo 2^128), which is advanced by
 * nblocks, as the kernels' interface does.  out may equal in.  Return 0, or -1 on a library
 * error (including an unsupported keylen).  *_describe says which library and version. */
#ifndef ASMDIFF_CAMELLIA_ORACLES_H
#define ASMDIFF_CAMELLIA_ORACLES_H

#include <stddef.h>
#include <stdint.h>

#include "asmdiff-config.h"

#if ASMDIFF_HAVE_OPENSSL
int oracle_openssl_camellia_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out,
                                const uint8_t *in, size_t nblocks);
int oracle_openssl_camellia_ctr(const uint8_t *key, size_t keylen, uint8_t *out,
                                const uint8_t *in, size_t nblocks, uint8_t ctr[16]);
/* "OpenSSL 3.0.19 ... EVP camellia-{128,192,256}-{ecb,ctr}" */
const char *oracle_openssl_camellia_describe(void);
#endif

#if ASMDIFF_HAVE_NETTLE
/* nettle's camellia128/192/256 API (ECB through *_crypt), CTR through nettle's ctr_crypt. */
int oracle_nettle_camellia_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out,
                               const uint8_t *in, size_t nblocks);
int oracle_nettle_camellia_ctr(const uint8_t *key, size_t keylen, uint8_t *out,
                               const uint8_t *in, size_t nblocks, uint8_t ctr[16]);
const char *oracle_nettle_camellia_describe(void);
#endif

#if ASMDIFF_HAVE_GCRYPT
/* GCRY_CIPHER_CAMELLIA128/192/256, at the hardware-feature level gcrypt_init.c selected. */
int oracle_gcrypt_camellia_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out,
                               const uint8_t *in, size_t nblocks);
int oracle_gcrypt_camellia_ctr(const uint8_t *key, size_t keylen, uint8_t *out,
                               const uint8_t *in, size_t nblocks, uint8_t ctr[16]);
#endif

#endif
