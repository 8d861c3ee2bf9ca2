/* poly1305_gcrypt.c — libgcrypt's GCRY_MAC_POLY1305 as an oracle and target (its own assembly
 * at each hardware-feature level: ASMDIFF_GCRYPT_DISABLE, gcrypt_init.c). */
#include "poly1305_oracles.h"
#include "gcrypt_init.h"

#include <gcrypt.h>

const char *oracle_gcrypt_poly1305_unavailable(void)
{
    oracle_gcrypt_init();
    return gcry_mac_test_algo(GCRY_MAC_POLY1305) ? "this libgcrypt has no GCRY_MAC_POLY1305"
                                                  : NULL;
}

int oracle_gcrypt_poly1305(const uint8_t key[32], const uint8_t *msg, size_t len,
                           const size_t *cuts, size_t ncuts, uint8_t tag[16])
{
    gcry_mac_hd_t h;
    size_t outl = 16, from = 0;
    oracle_gcrypt_init();
    if (gcry_mac_open(&h, GCRY_MAC_POLY1305, 0, NULL)) return -1;
    gcry_error_t err = gcry_mac_setkey(h, key, 32);
    for (size_t i = 0; !err && i <= ncuts; i++) {
        size_t to = i < ncuts ? cuts[i] : len;
        err = gcry_mac_write(h, msg + from, to - from);
        from = to;
    }
    if (!err) err = gcry_mac_read(h, tag, &outl);
    gcry_mac_close(h);
    return err || outl != 16 ? -1 : 0;
}
