/* aes_oracles.h — library AES implementations: OpenSSL EVP, libgcrypt (at each of its
 * hardware-feature levels: AES-NI, VAES/AVX2, VAES/AVX-512 paths), nettle.  Each returns 0, or
 * -1 on a library error; ECB encrypts when encrypt != 0; CTR and CBC advance ctr/iv as the
 * kernels do; XTS takes key1 || key2 (keylen bytes each) and the data unit's tweak. */
#ifndef ASMDIFF_AES_ORACLES_H
#define ASMDIFF_AES_ORACLES_H

#include <stddef.h>
#include <stdint.h>

#include "asmdiff-config.h"

#define AES_ORACLE(lib)                                                                       \
    int oracle_##lib##_aes_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out,  \
                               const uint8_t *in, size_t nblocks);                            \
    int oracle_##lib##_aes_ctr(const uint8_t *key, size_t keylen, uint8_t *out,               \
                               const uint8_t *in, size_t nblocks, uint8_t ctr[16]);           \
    int oracle_##lib##_aes_cbc_dec(const uint8_t *key, size_t keylen, uint8_t *out,           \
                                   const uint8_t *in, size_t nblocks, uint8_t iv[16]);        \
    int oracle_##lib##_aes_xts(int encrypt, const uint8_t *keys, size_t keylen, uint8_t *out, \
                               const uint8_t *in, size_t len, const uint8_t iv[16]);          \
    const char *oracle_##lib##_aes_describe(void);

#if ASMDIFF_HAVE_OPENSSL
AES_ORACLE(openssl)
#endif
#if ASMDIFF_HAVE_GCRYPT
AES_ORACLE(gcrypt)
#endif
#if ASMDIFF_HAVE_NETTLE
AES_ORACLE(nettle)
#endif

/* Advance a 128-bit big-endian counter by n (the libraries keep theirs in their context). */
static inline void oracle_ctr_advance(uint8_t ctr[16], size_t n)
{
    unsigned __int128 add = n;
    for (int i = 15; i >= 0 && add; i--) {
        add += ctr[i];
        ctr[i] = (uint8_t)add;
        add >>= 8;
    }
}

#endif
