/* camellia_openssl.c — OpenSSL's EVP Camellia (camellia-{128,192,256}-{ecb,ctr}) as an oracle. */
#include "camellia_oracles.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "openssl_evp.h"
#include <stdio.h>

static const EVP_CIPHER *cipher(size_t keylen, int ctr)
{
    switch (keylen) {
    case 16: return ctr ? EVP_camellia_128_ctr() : EVP_camellia_128_ecb();
    case 24: return ctr ? EVP_camellia_192_ctr() : EVP_camellia_192_ecb();
    case 32: return ctr ? EVP_camellia_256_ctr() : EVP_camellia_256_ecb();
    default: return NULL;
    }
}

int oracle_openssl_camellia_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out,
                                const uint8_t *in, size_t nblocks)
{
    return oracle_openssl_evp_run(cipher(keylen, 0), encrypt, key, NULL, out, in, 16 * nblocks);
}

int oracle_openssl_camellia_ctr(const uint8_t *key, size_t keylen, uint8_t *out,
                                const uint8_t *in, size_t nblocks, uint8_t ctr[16])
{
    int rc = oracle_openssl_evp_run(cipher(keylen, 1), 1, key, ctr, out, in, 16 * nblocks);
    /* EVP keeps its counter inside the context: advance ours by nblocks (128-bit, big-endian) */
    unsigned __int128 add = nblocks;
    for (int i = 15; i >= 0 && add; i--) {
        add += ctr[i];
        ctr[i] = (uint8_t)add;
        add >>= 8;
    }
    return rc;
}

const char *oracle_openssl_camellia_describe(void)
{
    static char text[160];
    snprintf(text, sizeof text, "%s, EVP camellia-{128,192,256}-{ecb,ctr}",
             OpenSSL_version(OPENSSL_VERSION));
    return text;
}
