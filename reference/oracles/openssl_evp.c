/* openssl_evp.c — see openssl_evp.h. */
#include "openssl_evp.h"

int oracle_openssl_evp_run(const EVP_CIPHER *c, int encrypt, const uint8_t *key, const uint8_t *iv,
               uint8_t *out, const uint8_t *in, size_t len)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int ok = ctx && c && EVP_CipherInit_ex(ctx, c, NULL, key, iv, encrypt) &&
             EVP_CIPHER_CTX_set_padding(ctx, 0);
    /* EVP lengths are int: feed in chunks */
    while (ok && len) {
        int chunk = len > (1u << 30) ? 1 << 30 : (int)len, outl = 0;
        ok = EVP_CipherUpdate(ctx, out, &outl, in, chunk) && outl == chunk;
        out += chunk, in += chunk, len -= (size_t)chunk;
    }
    EVP_CIPHER_CTX_free(ctx);
    return ok ? 0 : -1;
}
