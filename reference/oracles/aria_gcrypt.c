/* aria_gcrypt.c — libgcrypt's ARIA (1.11 and later, with its own GFNI/AVX-512 and AVX2
 * kernels) as an oracle and target.  The code is compiled against any version; the cipher
 * constant is looked up by name at run time, so an older library says why it cannot run
 * instead of failing to build. */
#include "aria_oracles.h"
#include "gcrypt_init.h"

#include <gcrypt.h>
#include <stdio.h>

static int algo_for(size_t keylen)
{
    const char *name = keylen == 16 ? "ARIA128" : keylen == 24 ? "ARIA192" :
                       keylen == 32 ? "ARIA256" : NULL;
    oracle_gcrypt_init();
    return name ? gcry_cipher_map_name(name) : 0;
}

const char *oracle_gcrypt_aria_unavailable(void)
{
    static char why[128];
    if (algo_for(16) && !gcry_cipher_algo_info(algo_for(16), GCRYCTL_TEST_ALGO, NULL, NULL))
        return NULL;
    snprintf(why, sizeof why, "not available in libgcrypt %s (ARIA arrived in 1.11)",
             gcry_check_version(NULL));
    return why;
}

static int run(int mode, int encrypt, const uint8_t *key, size_t keylen, const uint8_t *ctr,
               uint8_t *out, const uint8_t *in, size_t len)
{
    gcry_cipher_hd_t h;
    int algo = algo_for(keylen);
    if (!algo || gcry_cipher_open(&h, algo, mode, 0)) return -1;
    gcry_error_t err = gcry_cipher_setkey(h, key, keylen);
    if (!err && ctr) err = gcry_cipher_setctr(h, ctr, 16);
    if (!err && len)
        err = encrypt ? gcry_cipher_encrypt(h, out, len, in, len)
                      : gcry_cipher_decrypt(h, out, len, in, len);
    gcry_cipher_close(h);
    return err ? -1 : 0;
}

int oracle_gcrypt_aria_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out,
                           const uint8_t *in, size_t nblocks)
{
    return run(GCRY_CIPHER_MODE_ECB, encrypt, key, keylen, NULL, out, in, 16 * nblocks);
}

int oracle_gcrypt_aria_ctr(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                           size_t nblocks, uint8_t ctr[16])
{
    int rc = run(GCRY_CIPHER_MODE_CTR, 1, key, keylen, ctr, out, in, 16 * nblocks);
    unsigned __int128 add = nblocks;
    for (int i = 15; i >= 0 && add; i--) {
        add += ctr[i];
        ctr[i] = (uint8_t)add;
        add >>= 8;
    }
    return rc;
}
