/* aes_openssl.c — OpenSSL's EVP AES (aes-{128,192,256}-{ecb,ctr,cbc,xts}) as an oracle.  EVP
 * takes its own path by the CPU's features (AES-NI, VAES with AVX-512 for XTS and CTR); the
 * library level suites mask them (OPENSSL_ia32cap). */
#include "aes_oracles.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

#include "openssl_evp.h"

enum mode { ECB, CTR, CBC, XTS };

static const EVP_CIPHER *cipher(size_t keylen, enum mode m)
{
    switch (keylen) {
    case 16: return (const EVP_CIPHER *[]){EVP_aes_128_ecb(), EVP_aes_128_ctr(), EVP_aes_128_cbc(),
                                            EVP_aes_128_xts()}[m];
    case 24: return m == XTS ? NULL : (const EVP_CIPHER *[]){EVP_aes_192_ecb(), EVP_aes_192_ctr(),
                                                             EVP_aes_192_cbc()}[m];
    case 32: return (const EVP_CIPHER *[]){EVP_aes_256_ecb(), EVP_aes_256_ctr(), EVP_aes_256_cbc(),
                                            EVP_aes_256_xts()}[m];
    default: return NULL;
    }
}

int oracle_openssl_aes_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out,
                           const uint8_t *in, size_t nblocks)
{
    return oracle_openssl_evp_run(cipher(keylen, ECB), encrypt, key, NULL, out, in, 16 * nblocks);
}

int oracle_openssl_aes_ctr(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                           size_t nblocks, uint8_t ctr[16])
{
    int rc = oracle_openssl_evp_run(cipher(keylen, CTR), 1, key, ctr, out, in, 16 * nblocks);
    oracle_ctr_advance(ctr, nblocks);
    return rc;
}

int oracle_openssl_aes_cbc_dec(const uint8_t *key, size_t keylen, uint8_t *out,
                               const uint8_t *in, size_t nblocks, uint8_t iv[16])
{
    uint8_t last[16];
    if (nblocks) memcpy(last, in + 16 * (nblocks - 1), 16);
    int rc = oracle_openssl_evp_run(cipher(keylen, CBC), 0, key, iv, out, in, 16 * nblocks);
    if (nblocks) memcpy(iv, last, 16);
    return rc;
}

/* One EVP_CipherUpdate: XTS takes the data unit in one call (an update of under 16 bytes is
 * refused, so an empty unit is no call at all). */
int oracle_openssl_aes_xts(int encrypt, const uint8_t *keys, size_t keylen, uint8_t *out,
                           const uint8_t *in, size_t len, const uint8_t iv[16])
{
    if (keylen == 24) return 1; /* IEEE 1619 defines XTS-AES-128 and -256 only */
    /* OpenSSL 3 refuses a key1 equal to key2 (IEEE 1619-2018 5.1 asks for distinct keys) */
    if (!memcmp(keys, keys + keylen, keylen)) return 1;
    if (!len) return 0;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int outl = 0;
    int ok = ctx && cipher(keylen, XTS) &&
             EVP_CipherInit_ex(ctx, cipher(keylen, XTS), NULL, keys, iv, encrypt) &&
             EVP_CipherUpdate(ctx, out, &outl, in, (int)len) && (size_t)outl == len;
    EVP_CIPHER_CTX_free(ctx);
    return ok ? 0 : -1;
}

const char *oracle_openssl_aes_describe(void)
{
    static char text[160];
    snprintf(text, sizeof text, "%s, EVP aes-{128,192,256}-{ecb,ctr,cbc}, aes-{128,256}-xts",
             OpenSSL_version(OPENSSL_VERSION));
    return text;
}
