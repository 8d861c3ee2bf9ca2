/* gcmsiv_gcrypt.c — libgcrypt's GCM-SIV mode (since 1.10) as an implementation under test. */
#include "gcmsiv_oracles.h"
#include "gcrypt_init.h"

#include <gcrypt.h>
#include <stdio.h>

static int run(int encrypt, const uint8_t *key, size_t keylen, const uint8_t nonce[12],
               const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len, uint8_t *out,
               uint8_t tag[16])
{
    static uint8_t empty[1];
    gcry_cipher_hd_t h;
    oracle_gcrypt_init();
    int algo = keylen == 16 ? GCRY_CIPHER_AES128 : keylen == 32 ? GCRY_CIPHER_AES256 : 0;
    if (!algo || gcry_cipher_open(&h, algo, GCRY_CIPHER_MODE_GCM_SIV, 0)) return -2;
    /* libgcrypt rejects NULL even for empty buffers */
    if (!len) in = out = empty;
    if (!aadlen) aad = empty;
    gcry_error_t err = gcry_cipher_setkey(h, key, keylen);
    if (!err) err = gcry_cipher_setiv(h, nonce, 12);
    if (!err) err = gcry_cipher_authenticate(h, aad, aadlen);
    if (!err && !encrypt) err = gcry_cipher_set_decryption_tag(h, tag, 16);
    /* GCM-SIV is two-pass: the whole message in one call, announced as the last */
    if (!err) err = gcry_cipher_final(h);
    if (!err)
        err = encrypt ? gcry_cipher_encrypt(h, out, len, in, len)
                      : gcry_cipher_decrypt(h, out, len, in, len);
    if (!err && encrypt) err = gcry_cipher_gettag(h, tag, 16);
    gcry_cipher_close(h);
    if (err && !encrypt && gcry_err_code(err) == GPG_ERR_CHECKSUM) return -1;
    return err ? -2 : 0;
}

int oracle_gcrypt_gcmsiv_encrypt(const uint8_t *key, size_t keylen, const uint8_t nonce[12],
                                 const uint8_t *aad, size_t aadlen, const uint8_t *pt,
                                 size_t ptlen, uint8_t *ct, uint8_t tag[16])
{
    return run(1, key, keylen, nonce, aad, aadlen, pt, ptlen, ct, tag);
}

int oracle_gcrypt_gcmsiv_decrypt(const uint8_t *key, size_t keylen, const uint8_t nonce[12],
                                 const uint8_t *aad, size_t aadlen, const uint8_t *ct,
                                 size_t ctlen, const uint8_t tag[16], uint8_t *pt)
{
    uint8_t t[16];
    for (int i = 0; i < 16; i++) t[i] = tag[i];
    return run(0, key, keylen, nonce, aad, aadlen, ct, ctlen, pt, t);
}

