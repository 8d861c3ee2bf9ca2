/* aes_gcrypt.c — libgcrypt's AES (GCRY_CIPHER_AES128/192/256; its bulk paths are AES-NI,
 * VAES/AVX2 and VAES/AVX-512 assembly) as an oracle and target, at the hardware-feature level
 * that gcrypt_init.c set up for this process (ASMDIFF_GCRYPT_DISABLE). */
#include "aes_oracles.h"
#include "gcrypt_init.h"

#include <gcrypt.h>
#include <string.h>

static int algo_for(size_t keylen)
{
    return keylen == 16 ? GCRY_CIPHER_AES128 : keylen == 24 ? GCRY_CIPHER_AES192 :
           keylen == 32 ? GCRY_CIPHER_AES256 : 0;
}

/* keylen: what setkey takes (XTS: both keys); iv: setctr for CTR, setiv for CBC and XTS. */
static int run(int mode, int encrypt, const uint8_t *key, size_t algo_keylen, size_t keylen,
               const uint8_t *iv, uint8_t *out, const uint8_t *in, size_t len)
{
    gcry_cipher_hd_t h;
    int algo = algo_for(algo_keylen);
    oracle_gcrypt_init();
    if (!algo || gcry_cipher_open(&h, algo, mode, 0)) return -1;
    gcry_error_t err = gcry_cipher_setkey(h, key, keylen);
    if (!err && iv)
        err = mode == GCRY_CIPHER_MODE_CTR ? gcry_cipher_setctr(h, iv, 16)
                                           : gcry_cipher_setiv(h, iv, 16);
    if (!err && len)
        err = encrypt ? gcry_cipher_encrypt(h, out, len, in, len)
                      : gcry_cipher_decrypt(h, out, len, in, len);
    gcry_cipher_close(h);
    return err ? -1 : 0;
}

int oracle_gcrypt_aes_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out,
                          const uint8_t *in, size_t nblocks)
{
    return run(GCRY_CIPHER_MODE_ECB, encrypt, key, keylen, keylen, NULL, out, in, 16 * nblocks);
}

int oracle_gcrypt_aes_ctr(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                          size_t nblocks, uint8_t ctr[16])
{
    int rc = run(GCRY_CIPHER_MODE_CTR, 1, key, keylen, keylen, ctr, out, in, 16 * nblocks);
    oracle_ctr_advance(ctr, nblocks);
    return rc;
}

int oracle_gcrypt_aes_cbc_dec(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                              size_t nblocks, uint8_t iv[16])
{
    uint8_t last[16];
    if (nblocks) memcpy(last, in + 16 * (nblocks - 1), 16);
    int rc = run(GCRY_CIPHER_MODE_CBC, 0, key, keylen, keylen, iv, out, in, 16 * nblocks);
    if (nblocks) memcpy(iv, last, 16);
    return rc;
}

/* XTS-AES-128 and -256 (IEEE 1619 defines no other): setkey takes key1 || key2. */
int oracle_gcrypt_aes_xts(int encrypt, const uint8_t *keys, size_t keylen, uint8_t *out,
                          const uint8_t *in, size_t len, const uint8_t iv[16])
{
    if (keylen == 24) return 1;
    return run(GCRY_CIPHER_MODE_XTS, encrypt, keys, keylen, 2 * keylen, iv, out, in, len);
}

const char *oracle_gcrypt_aes_describe(void)
{
    return oracle_gcrypt_describe();
}
