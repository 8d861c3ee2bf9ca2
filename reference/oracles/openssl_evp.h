/* openssl_evp.h — one EVP call for the OpenSSL block-cipher oracles (ARIA, Camellia): the
 * whole buffer through EVP_CipherUpdate, no padding, in chunks that fit EVP's int lengths. */
#ifndef ASMDIFF_OPENSSL_EVP_H
#define ASMDIFF_OPENSSL_EVP_H

#include <openssl/evp.h>
#include <stddef.h>
#include <stdint.h>

/* 0 on success, -1 when c is NULL or EVP fails. */
int oracle_openssl_evp_run(const EVP_CIPHER *c, int encrypt, const uint8_t *key, const uint8_t *iv,
                           uint8_t *out, const uint8_t *in, size_t len);

#endif
