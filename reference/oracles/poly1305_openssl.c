/* poly1305_openssl.c — OpenSSL's EVP_MAC "POLY1305" (OpenSSL 3.0) as an oracle and target. */
#include "poly1305_oracles.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

static EVP_MAC *mac_algo(void)
{
    static EVP_MAC *m;
    static int tried;
    if (!tried) {
        tried = 1;
        m = EVP_MAC_fetch(NULL, "POLY1305", NULL);
    }
    return m;
}

const char *oracle_openssl_poly1305_unavailable(void)
{
    return mac_algo() ? NULL : "this OpenSSL has no POLY1305 MAC (built with no-poly1305)";
}

const char *oracle_openssl_poly1305_describe(void)
{
    return OpenSSL_version(OPENSSL_VERSION);
}

int oracle_openssl_poly1305(const uint8_t key[32], const uint8_t *msg, size_t len,
                            const size_t *cuts, size_t ncuts, uint8_t tag[16])
{
    EVP_MAC *m = mac_algo();
    EVP_MAC_CTX *ctx = m ? EVP_MAC_CTX_new(m) : NULL;
    size_t outl = 0, from = 0;
    int ok = ctx && EVP_MAC_init(ctx, key, 32, NULL);
    for (size_t i = 0; ok && i <= ncuts; i++) {
        size_t to = i < ncuts ? cuts[i] : len;
        ok = EVP_MAC_update(ctx, msg + from, to - from);
        from = to;
    }
    ok = ok && EVP_MAC_final(ctx, tag, &outl, 16) && outl == 16;
    EVP_MAC_CTX_free(ctx);
    return ok ? 0 : -1;
}
