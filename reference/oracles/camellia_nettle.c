/* camellia_nettle.c — nettle's Camellia as an oracle: camellia128/192/256 set-key and crypt
 * functions for ECB (nettle's *_crypt takes any whole number of blocks, each independently),
 * nettle's generic ctr_crypt for CTR.  nettle has no 192-bit context of its own: camellia192
 * uses struct camellia256_ctx (its set-key functions differ, its crypt is camellia256_crypt). */
#include "camellia_oracles.h"

#include <nettle/camellia.h>
#include <nettle/ctr.h>
#include <nettle/version.h>
#include <stdio.h>
#include <string.h>

union ctx {
    struct camellia128_ctx c128;
    struct camellia256_ctx c256;        /* also the 192-bit keys' context */
};

/* Sets up ctx for keylen; returns the crypt function, NULL for an unsupported keylen. */
static nettle_cipher_func *setup(union ctx *ctx, int encrypt, const uint8_t *key, size_t keylen)
{
    switch (keylen) {
    case 16:
        if (encrypt) camellia128_set_encrypt_key(&ctx->c128, key);
        else camellia128_set_decrypt_key(&ctx->c128, key);
        return (nettle_cipher_func *)camellia128_crypt;
    case 24:
        if (encrypt) camellia192_set_encrypt_key(&ctx->c256, key);
        else camellia192_set_decrypt_key(&ctx->c256, key);
        return (nettle_cipher_func *)camellia192_crypt;
    case 32:
        if (encrypt) camellia256_set_encrypt_key(&ctx->c256, key);
        else camellia256_set_decrypt_key(&ctx->c256, key);
        return (nettle_cipher_func *)camellia256_crypt;
    default:
        return NULL;
    }
}

int oracle_nettle_camellia_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out,
                               const uint8_t *in, size_t nblocks)
{
    union ctx ctx;
    nettle_cipher_func *crypt = setup(&ctx, encrypt, key, keylen);
    if (!crypt) return -1;
    crypt(&ctx, 16 * nblocks, out, in);
    memset(&ctx, 0, sizeof ctx);
    return 0;
}

int oracle_nettle_camellia_ctr(const uint8_t *key, size_t keylen, uint8_t *out,
                               const uint8_t *in, size_t nblocks, uint8_t ctr[16])
{
    union ctx ctx;
    nettle_cipher_func *crypt = setup(&ctx, 1, key, keylen);
    if (!crypt) return -1;
    /* ctr_crypt increments ctr as one 16-byte big-endian integer per block and leaves it at
     * the next unused value: exactly the kernels' contract. */
    ctr_crypt(&ctx, crypt, 16, ctr, 16 * nblocks, out, in);
    memset(&ctx, 0, sizeof ctx);
    return 0;
}

const char *oracle_nettle_camellia_describe(void)
{
    static char text[96];
    snprintf(text, sizeof text, "nettle %d.%d, camellia128/192/256 + ctr_crypt",
             nettle_version_major(), nettle_version_minor());
    return text;
}
