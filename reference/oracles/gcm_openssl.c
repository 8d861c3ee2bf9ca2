/* gcm_openssl.c — OpenSSL's EVP AES-GCM (aes-{128,192,256}-gcm) as an implementation under
 * test: its own paths by the CPU (AES-NI with the AVX "stitched" aesni_gcm_encrypt/decrypt
 * for long payloads, CLMUL GHASH; OPENSSL_ia32cap masks select the others), each piece of the
 * case one EVP_CipherUpdate (gcm_oracles.h: the streaming rules). */
#include "gcm_oracles.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdio.h>

static const EVP_CIPHER *cipher(size_t keylen)
{
    return keylen == 16 ? EVP_aes_128_gcm() : keylen == 24 ? EVP_aes_192_gcm()
           : keylen == 32 ? EVP_aes_256_gcm() : NULL;
}

/* The context with key and IV set, the AAD given; NULL on an error. */
static EVP_CIPHER_CTX *start(int enc, const uint8_t *key, size_t keylen, const uint8_t *iv,
                             size_t ivlen, const struct gcm_in *aad)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int outl = 0;
    int ok = ctx && cipher(keylen) && ivlen <= 128 &&
             EVP_CipherInit_ex(ctx, cipher(keylen), NULL, NULL, NULL, enc) &&
             EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, (int)ivlen, NULL) > 0 &&
             EVP_CipherInit_ex(ctx, NULL, NULL, key, iv, enc);
    for (size_t i = 0; ok && i < aad->n; i++) /* a NULL output: the piece is AAD */
        ok = EVP_CipherUpdate(ctx, NULL, &outl, aad->p[i], (int)aad->len[i]) &&
             (size_t)outl == aad->len[i];
    if (ok) return ctx;
    EVP_CIPHER_CTX_free(ctx);
    return NULL;
}

/* The payload, piece by piece: each call writes its piece's bytes and no more. */
static int payload(EVP_CIPHER_CTX *ctx, const struct gcm_in *in, const struct gcm_out *out)
{
    int ok = in->n == out->n, outl = 0;
    for (size_t i = 0; ok && i < in->n; i++)
        ok = EVP_CipherUpdate(ctx, out->p[i], &outl, in->p[i], (int)in->len[i]) &&
             (size_t)outl == in->len[i];
    return ok;
}

static int seal(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                const struct gcm_in *aad, const struct gcm_in *pt, const struct gcm_out *ct,
                uint8_t *tag, size_t taglen)
{
    EVP_CIPHER_CTX *ctx = start(1, key, keylen, iv, ivlen, aad);
    uint8_t last[16];
    int outl = 0;
    int ok = ctx && payload(ctx, pt, ct) && EVP_EncryptFinal_ex(ctx, last, &outl) &&
             outl == 0 && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, (int)taglen, tag) > 0;
    EVP_CIPHER_CTX_free(ctx);
    return ok ? 0 : -2;
}

static int open_(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                 const struct gcm_in *aad, const struct gcm_in *ct, const struct gcm_out *pt,
                 const uint8_t *tag, size_t taglen)
{
    EVP_CIPHER_CTX *ctx = start(0, key, keylen, iv, ivlen, aad);
    uint8_t last[16];
    int outl = 0;
    /* SET_TAG copies the tag (its API takes a non-const pointer) */
    int ok = ctx && payload(ctx, ct, pt) &&
             EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, (int)taglen, (void *)tag) > 0;
    if (!ok) {
        EVP_CIPHER_CTX_free(ctx);
        return -2;
    }
    /* Final is where the tag is compared: <= 0 is the rejection */
    int verified = EVP_DecryptFinal_ex(ctx, last, &outl) > 0 && outl == 0;
    EVP_CIPHER_CTX_free(ctx);
    return verified ? 0 : -1;
}

const struct gcm_lib oracle_openssl_gcm = {seal, open_, 1, GCM_TAGS_1_TO_16};

const char *oracle_openssl_gcm_describe(void)
{
    static char text[160];
    snprintf(text, sizeof text, "%s, EVP aes-{128,192,256}-gcm, an update call per piece",
             OpenSSL_version(OPENSSL_VERSION));
    return text;
}
