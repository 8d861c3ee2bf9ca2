/* chacha_gcrypt.c — libgcrypt's ChaCha20 (GCRY_CIPHER_CHACHA20, stream mode) as an oracle.
 * Its 8- and 12-byte nonces (the original design's and RFC 8439's) start the counter at 0; a
 * 16-byte IV sets words 12-15 whole, which is how a case's counter is given.  Its counter is
 * 64 bits (word 13 takes the carry) whatever the nonce size: chacha_oracles.h. */
#include "chacha_oracles.h"

#include <gcrypt.h>

#include "gcrypt_init.h"

int oracle_gcrypt_chacha_xor(int ctr64, const uint8_t key[32], const uint32_t w[4], uint8_t *out,
                             const uint8_t *in, size_t len, const size_t *split, size_t nsplit)
{
    uint8_t iv[16];
    gcry_cipher_hd_t h;
    (void)ctr64;
    oracle_gcrypt_init();
    for (int i = 0; i < 4; i++) oracle_chacha_put_le32(iv + 4 * i, w[i]);
    if (gcry_cipher_open(&h, GCRY_CIPHER_CHACHA20, GCRY_CIPHER_MODE_STREAM, 0)) return -1;
    int ok = !gcry_cipher_setkey(h, key, 32) && !gcry_cipher_setiv(h, iv, 16);
    size_t from = 0;
    for (size_t i = 0; ok && i <= nsplit; i++) {
        size_t to = oracle_chacha_piece_end(split, nsplit, i, len);
        if (to > from) ok = !gcry_cipher_encrypt(h, out + from, to - from, in + from, to - from);
        from = to;
    }
    gcry_cipher_close(h);
    return ok ? 0 : -1;
}

const char *oracle_gcrypt_chacha_describe(void)
{
    return oracle_gcrypt_describe();
}
