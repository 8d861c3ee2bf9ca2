/* ghash_nettle.c — nettle's GHASH (its public GCM API) as an oracle on an arbitrary key H.
 *
 * gcm_set_key(key, cipher, f) makes the hash subkey by calling f(cipher, 16, H, 0^128), the
 * block cipher's encryption of the zero block (SP 800-38D: H = CIPH_K(0^128)); a "cipher" that
 * writes our H instead gives nettle's GHASH under any H.  gcm_update hashes whole blocks of
 * additional data into the context's public running value x, which is GHASH's Y_i in GCM's
 * byte order, so the family's state goes in and out as it is.  nettle picks its own GHASH code
 * (C tables, or its PCLMULQDQ assembly where built with it): an implementation independent of
 * ours and of Linux's.  The key table is made on every call (the contract passes the raw H). */
#include "ghash_oracles.h"

#include <nettle/gcm.h>
#include <nettle/version.h>
#include <stdio.h>
#include <string.h>

/* nettle_cipher_func: "encrypts" length bytes by writing the key H held in ctx */
static void write_h(const void *ctx, size_t length, uint8_t *dst, const uint8_t *src)
{
    (void)src;
    for (size_t off = 0; off + 16 <= length; off += 16) memcpy(dst + off, ctx, 16);
}

void oracle_nettle_ghash_update(uint8_t state[16], const uint8_t key_h[16],
                                const uint8_t *blocks, size_t nblocks)
{
    struct gcm_key key;
    struct gcm_ctx ctx;
    uint8_t h[16];
    memcpy(h, key_h, 16);
    gcm_set_key(&key, h, write_h);
    memset(&ctx, 0, sizeof ctx); /* auth_size 0, data_size 0: gcm_update's precondition */
    memcpy(ctx.x.b, state, 16);
    gcm_update(&ctx, &key, 16 * nblocks, blocks);
    memcpy(state, ctx.x.b, 16);
    memset(&key, 0, sizeof key);
    memset(&ctx, 0, sizeof ctx);
}

const char *oracle_nettle_ghash_describe(void)
{
    static char text[96];
    snprintf(text, sizeof text, "nettle %d.%d, gcm_set_key on H + gcm_update (additional data)",
             nettle_version_major(), nettle_version_minor());
    return text;
}
