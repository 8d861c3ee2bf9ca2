/* chacha_openssl.c — OpenSSL's EVP_chacha20 as an oracle: its 16-byte IV is state words 12-15,
 * little-endian (the counter word first); one EVP_CipherUpdate per piece of the message. */
#include "chacha_oracles.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdio.h>

int oracle_openssl_chacha_xor(int ctr64, const uint8_t key[32], const uint32_t w[4], uint8_t *out,
                              const uint8_t *in, size_t len, const size_t *split, size_t nsplit)
{
    uint8_t iv[16];
    (void)ctr64; /* one API for both: words 12-15 as given, the counter carried into word 13 */
    for (int i = 0; i < 4; i++) oracle_chacha_put_le32(iv + 4 * i, w[i]);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int ok = ctx && EVP_EncryptInit_ex(ctx, EVP_chacha20(), NULL, key, iv);
    size_t from = 0;
    for (size_t i = 0; ok && i <= nsplit; i++) {
        size_t to = oracle_chacha_piece_end(split, nsplit, i, len);
        int outl = 0;
        if (to > from)
            ok = EVP_EncryptUpdate(ctx, out + from, &outl, in + from, (int)(to - from)) &&
                 (size_t)outl == to - from;
        from = to;
    }
    EVP_CIPHER_CTX_free(ctx);
    return ok ? 0 : -1;
}

const char *oracle_openssl_chacha_describe(void)
{
    static char text[160];
    snprintf(text, sizeof text, "%s, EVP chacha20 (16-byte IV: words 12-15)",
             OpenSSL_version(OPENSSL_VERSION));
    return text;
}
