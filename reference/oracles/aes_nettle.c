/* aes_nettle.c — nettle's AES as an oracle: aes128/192/256 contexts (each crypt takes whole
 * blocks independently: ECB), and nettle's generic cbc_decrypt, ctr_crypt and
 * xts_{en,de}crypt_message over them. */
#include "aes_oracles.h"

#include <nettle/aes.h>
#include <nettle/cbc.h>
#include <nettle/ctr.h>
#include <nettle/version.h>
#include <nettle/xts.h>
#include <stdio.h>
#include <string.h>

union ctx {
    struct aes128_ctx c128;
    struct aes192_ctx c192;
    struct aes256_ctx c256;
};

/* Sets up ctx for keylen; returns the crypt function, NULL for an unsupported keylen. */
static nettle_cipher_func *setup(union ctx *ctx, int encrypt, const uint8_t *key, size_t keylen)
{
    switch (keylen) {
    case 16:
        if (encrypt) aes128_set_encrypt_key(&ctx->c128, key);
        else aes128_set_decrypt_key(&ctx->c128, key);
        return (nettle_cipher_func *)(encrypt ? aes128_encrypt : aes128_decrypt);
    case 24:
        if (encrypt) aes192_set_encrypt_key(&ctx->c192, key);
        else aes192_set_decrypt_key(&ctx->c192, key);
        return (nettle_cipher_func *)(encrypt ? aes192_encrypt : aes192_decrypt);
    case 32:
        if (encrypt) aes256_set_encrypt_key(&ctx->c256, key);
        else aes256_set_decrypt_key(&ctx->c256, key);
        return (nettle_cipher_func *)(encrypt ? aes256_encrypt : aes256_decrypt);
    default:
        return NULL;
    }
}

int oracle_nettle_aes_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out,
                          const uint8_t *in, size_t nblocks)
{
    union ctx ctx;
    nettle_cipher_func *crypt = setup(&ctx, encrypt, key, keylen);
    if (!crypt) return -1;
    crypt(&ctx, 16 * nblocks, out, in);
    memset(&ctx, 0, sizeof ctx);
    return 0;
}

int oracle_nettle_aes_ctr(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                          size_t nblocks, uint8_t ctr[16])
{
    union ctx ctx;
    nettle_cipher_func *crypt = setup(&ctx, 1, key, keylen);
    if (!crypt) return -1;
    /* ctr_crypt: one 16-byte big-endian counter, left at the next unused value */
    ctr_crypt(&ctx, crypt, 16, ctr, 16 * nblocks, out, in);
    memset(&ctx, 0, sizeof ctx);
    return 0;
}

int oracle_nettle_aes_cbc_dec(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                              size_t nblocks, uint8_t iv[16])
{
    union ctx ctx;
    nettle_cipher_func *crypt = setup(&ctx, 0, key, keylen);
    if (!crypt) return -1;
    /* cbc_decrypt leaves iv at the last ciphertext block */
    cbc_decrypt(&ctx, crypt, 16, iv, 16 * nblocks, out, in);
    memset(&ctx, 0, sizeof ctx);
    return 0;
}

/* XTS-AES-128 and -256 (xts_aes128/256 of nettle 3.5 and later, through the generic message
 * functions so that the data key may decrypt while the tweak key encrypts). */
int oracle_nettle_aes_xts(int encrypt, const uint8_t *keys, size_t keylen, uint8_t *out,
                          const uint8_t *in, size_t len, const uint8_t iv[16])
{
    union ctx data, tweak;
    if (keylen == 24) return 1;
    if (!len) return 0;
    nettle_cipher_func *crypt = setup(&data, encrypt, keys, keylen);
    nettle_cipher_func *tcrypt = setup(&tweak, 1, keys + keylen, keylen);
    if (!crypt || !tcrypt) return -1;
    if (encrypt) xts_encrypt_message(&data, &tweak, crypt, iv, len, out, in);
    else xts_decrypt_message(&data, &tweak, crypt, tcrypt, iv, len, out, in);
    memset(&data, 0, sizeof data), memset(&tweak, 0, sizeof tweak);
    return 0;
}

const char *oracle_nettle_aes_describe(void)
{
    static char text[96];
    snprintf(text, sizeof text, "nettle %d.%d, aes128/192/256 + cbc, ctr, xts",
             nettle_version_major(), nettle_version_minor());
    return text;
}
