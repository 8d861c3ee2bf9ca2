/* gcm_nettle.c — nettle's AES-GCM (gcm_aes128/192/256: its fat build's AES-NI and PCLMUL GHASH
 * where the CPU has them, else C) as an implementation under test.  nettle takes update and
 * crypt calls of whole blocks but the last (its gcm.c asserts it): the family merges the
 * pieces at other cuts (align 16), so each call here is a piece as it comes.  nettle has no
 * open: the digest is compared with memeql_sec, as its own CCM code does for its tags. */
#include "gcm_oracles.h"

#include <nettle/gcm.h>
#include <nettle/memops.h>
#include <nettle/version.h>
#include <stdio.h>
#include <string.h>

union ctx {
    struct gcm_aes128_ctx c128;
    struct gcm_aes192_ctx c192;
    struct gcm_aes256_ctx c256;
};

/* One stream of calls of key size keylen: set_key, set_iv, update per AAD piece, then encrypt
 * or decrypt per payload piece, then the digest's leftmost taglen bytes.  -2: a bad size. */
static int run(int encrypt, const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
               const struct gcm_in *aad, const struct gcm_in *in, const struct gcm_out *out,
               uint8_t *digest, size_t taglen)
{
    union ctx c;
    if (in->n != out->n || !ivlen || taglen > GCM_DIGEST_SIZE) return -2;
#define RUN(bits, ctx)                                                                           \
    do {                                                                                      \
        gcm_aes##bits##_set_key(ctx, key);                                                       \
        gcm_aes##bits##_set_iv(ctx, ivlen, iv);                                                  \
        for (size_t i = 0; i < aad->n; i++) gcm_aes##bits##_update(ctx, aad->len[i], aad->p[i]); \
        for (size_t i = 0; i < in->n; i++) {                                                  \
            if (encrypt) gcm_aes##bits##_encrypt(ctx, in->len[i], out->p[i], in->p[i]);          \
            else gcm_aes##bits##_decrypt(ctx, in->len[i], out->p[i], in->p[i]);                  \
        }                                                                                     \
        gcm_aes##bits##_digest(ctx, taglen, digest);                                             \
    } while (0)
    switch (keylen) {
    case 16: RUN(128, &c.c128); break;
    case 24: RUN(192, &c.c192); break;
    case 32: RUN(256, &c.c256); break;
    default: return -2;
    }
#undef RUN
    memset(&c, 0, sizeof c);
    return 0;
}

static int seal(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                const struct gcm_in *aad, const struct gcm_in *pt, const struct gcm_out *ct,
                uint8_t *tag, size_t taglen)
{
    return run(1, key, keylen, iv, ivlen, aad, pt, ct, tag, taglen);
}

static int open_(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                 const struct gcm_in *aad, const struct gcm_in *ct, const struct gcm_out *pt,
                 const uint8_t *tag, size_t taglen)
{
    uint8_t digest[GCM_DIGEST_SIZE];
    int rc = run(0, key, keylen, iv, ivlen, aad, ct, pt, digest, taglen);
    if (rc) return rc;
    return memeql_sec(digest, tag, taglen) ? 0 : -1;
}

const struct gcm_lib oracle_nettle_gcm = {seal, open_, 16, GCM_TAGS_1_TO_16};

const char *oracle_nettle_gcm_describe(void)
{
    static char text[120];
    snprintf(text, sizeof text, "nettle %d.%d, gcm_aes{128,192,256}_*, an update call per "
             "piece (whole blocks but the last)", nettle_version_major(), nettle_version_minor());
    return text;
}
