/* gcm_gcrypt.c — libgcrypt's GCRY_CIPHER_MODE_GCM as an implementation under test, at the
 * hardware-feature level gcrypt_init.c set up for this process (ASMDIFF_GCRYPT_DISABLE): its
 * GHASH (table, PCLMUL, VPCLMUL AVX2/AVX-512) and AES (AES-NI, VAES) paths, including the bulk
 * VAES+VPCLMUL GCM functions.  Each piece of the case is one gcry_cipher_authenticate or one
 * encrypt/decrypt call (gcm_oracles.h: the streaming rules). */
#include "gcm_oracles.h"
#include "gcrypt_init.h"

#include <gcrypt.h>

static int algo_for(size_t keylen)
{
    return keylen == 16 ? GCRY_CIPHER_AES128 : keylen == 24 ? GCRY_CIPHER_AES192 :
           keylen == 32 ? GCRY_CIPHER_AES256 : 0;
}

/* The handle with key and IV set and the AAD given, or NULL. */
static gcry_cipher_hd_t start(const uint8_t *key, size_t keylen, const uint8_t *iv,
                              size_t ivlen, const struct gcm_in *aad)
{
    gcry_cipher_hd_t h;
    oracle_gcrypt_init();
    int algo = algo_for(keylen);
    if (!algo || gcry_cipher_open(&h, algo, GCRY_CIPHER_MODE_GCM, 0)) return NULL;
    gcry_error_t err = gcry_cipher_setkey(h, key, keylen);
    if (!err) err = gcry_cipher_setiv(h, iv, ivlen);
    for (size_t i = 0; !err && i < aad->n; i++)
        err = gcry_cipher_authenticate(h, aad->p[i], aad->len[i]);
    if (!err) return h;
    gcry_cipher_close(h);
    return NULL;
}

static gcry_error_t payload(gcry_cipher_hd_t h, int encrypt, const struct gcm_in *in,
                            const struct gcm_out *out)
{
    gcry_error_t err = in->n == out->n ? 0 : gpg_error(GPG_ERR_INV_ARG);
    for (size_t i = 0; !err && i < in->n; i++)
        err = encrypt ? gcry_cipher_encrypt(h, out->p[i], in->len[i], in->p[i], in->len[i])
                      : gcry_cipher_decrypt(h, out->p[i], in->len[i], in->p[i], in->len[i]);
    return err;
}

static int seal(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                const struct gcm_in *aad, const struct gcm_in *pt, const struct gcm_out *ct,
                uint8_t *tag, size_t taglen)
{
    gcry_cipher_hd_t h = start(key, keylen, iv, ivlen, aad);
    if (!h) return -2;
    gcry_error_t err = payload(h, 1, pt, ct);
    if (!err) err = gcry_cipher_gettag(h, tag, taglen);
    gcry_cipher_close(h);
    return err ? -2 : 0;
}

static int open_(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                 const struct gcm_in *aad, const struct gcm_in *ct, const struct gcm_out *pt,
                 const uint8_t *tag, size_t taglen)
{
    gcry_cipher_hd_t h = start(key, keylen, iv, ivlen, aad);
    if (!h) return -2;
    gcry_error_t err = payload(h, 0, ct, pt);
    if (!err) err = gcry_cipher_checktag(h, tag, taglen);
    gcry_cipher_close(h);
    if (err && gcry_err_code(err) == GPG_ERR_CHECKSUM) return -1;
    return err ? -2 : 0;
}

const struct gcm_lib oracle_gcrypt_gcm = {seal, open_, 1, GCM_TAGS_SP800_38D};
