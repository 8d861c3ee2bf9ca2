/* chacha_nettle.c — nettle's ChaCha20 as an oracle: RFC 8439's form (chacha_set_nonce96,
 * chacha_set_counter32, chacha_crypt32: a 32-bit counter) and the original design's
 * (chacha_set_nonce, chacha_set_counter, chacha_crypt: 64 bits).  Every call but the last
 * takes whole blocks (nettle keeps no partial keystream), as every split here is. */
#include "chacha_oracles.h"

#include <nettle/chacha.h>
#include <nettle/version.h>
#include <stdio.h>

int oracle_nettle_chacha_xor(int ctr64, const uint8_t key[32], const uint32_t w[4], uint8_t *out,
                             const uint8_t *in, size_t len, const size_t *split, size_t nsplit)
{
    struct chacha_ctx ctx;
    uint8_t words[16];
    for (int i = 0; i < 4; i++) oracle_chacha_put_le32(words + 4 * i, w[i]);
    chacha_set_key(&ctx, key);
    if (ctr64) {
        chacha_set_nonce(&ctx, words + 8); /* resets the counter: set it after */
        chacha_set_counter(&ctx, words);
    } else {
        chacha_set_nonce96(&ctx, words + 4);
        chacha_set_counter32(&ctx, words);
    }
    size_t from = 0;
    for (size_t i = 0; i <= nsplit; i++) {
        size_t to = oracle_chacha_piece_end(split, nsplit, i, len);
        if (to > from) {
            if (ctr64) chacha_crypt(&ctx, to - from, out + from, in + from);
            else chacha_crypt32(&ctx, to - from, out + from, in + from);
        }
        from = to;
    }
    return 0;
}

const char *oracle_nettle_chacha_describe(void)
{
    static char text[96];
    snprintf(text, sizeof text, "nettle %d.%d, chacha (crypt32: 32-bit counter; crypt: 64-bit)",
             nettle_version_major(), nettle_version_minor());
    return text;
}
