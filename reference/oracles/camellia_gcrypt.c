/* camellia_gcrypt.c — libgcrypt's Camellia (GCRY_CIPHER_CAMELLIA128/192/256, with its own
 * AES-NI/AVX2/VAES bulk paths, and GFNI/AVX-512 ones from 1.11) as an oracle and target, at
 * the hardware-feature level that gcrypt_init.c set up for this process
 * (ASMDIFF_GCRYPT_DISABLE). */
#include "camellia_oracles.h"
#include "gcrypt_init.h"

#include <gcrypt.h>

static int algo_for(size_t keylen)
{
    return keylen == 16 ? GCRY_CIPHER_CAMELLIA128 : keylen == 24 ? GCRY_CIPHER_CAMELLIA192 :
           keylen == 32 ? GCRY_CIPHER_CAMELLIA256 : 0;
}

static int run(int mode, int encrypt, const uint8_t *key, size_t keylen, const uint8_t *ctr,
               uint8_t *out, const uint8_t *in, size_t len)
{
    gcry_cipher_hd_t h;
    int algo = algo_for(keylen);
    oracle_gcrypt_init();
    if (!algo || gcry_cipher_open(&h, algo, mode, 0)) return -1;
    gcry_error_t err = gcry_cipher_setkey(h, key, keylen);
    if (!err && ctr) err = gcry_cipher_setctr(h, ctr, 16);
    if (!err && len)
        err = encrypt ? gcry_cipher_encrypt(h, out, len, in, len)
                      : gcry_cipher_decrypt(h, out, len, in, len);
    gcry_cipher_close(h);
    return err ? -1 : 0;
}

int oracle_gcrypt_camellia_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out,
                               const uint8_t *in, size_t nblocks)
{
    return run(GCRY_CIPHER_MODE_ECB, encrypt, key, keylen, NULL, out, in, 16 * nblocks);
}

int oracle_gcrypt_camellia_ctr(const uint8_t *key, size_t keylen, uint8_t *out,
                               const uint8_t *in, size_t nblocks, uint8_t ctr[16])
{
    int rc = run(GCRY_CIPHER_MODE_CTR, 1, key, keylen, ctr, out, in, 16 * nblocks);
    /* the handle kept its counter: advance ours by nblocks (128-bit, big-endian) */
    unsigned __int128 add = nblocks;
    for (int i = 15; i >= 0 && add; i--) {
        add += ctr[i];
        ctr[i] = (uint8_t)add;
        add >>= 8;
    }
    return rc;
}
