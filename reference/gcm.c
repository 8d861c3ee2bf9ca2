/* AES-GCM from NIST SP 800-38D, written for reading: GCTR (section 6.5) block by block with
 * inc32, GHASH through reference/ghash.c's ghash_update (Algorithm 2) and, for a padded last
 * block, the same on a copy padded with zeros; AES from reference/aes.c.  No multiply of its
 * own: the one field operation is ghash_mul (Algorithm 1), which gcm_iv_for_j0 also uses to
 * invert H.  Not constant time (the judge of kernels, not a library). */
#include "gcm.h"

#include <string.h>

#include "ghash.h"

int gcm_setkey(struct gcm_key *k, const uint8_t *key, size_t keylen)
{
    static const uint8_t zero[16];
    if (aes_expand_key(&k->aes, key, keylen)) return -1;
    aes_encrypt_block(&k->aes, k->h, zero);
    return 0;
}

void gcm_inc32(uint8_t block[16])
{
    for (int i = 15; i >= 12; i--)
        if (++block[i]) break; /* a carry out of byte 12 is dropped: mod 2^32 */
}

/* GHASH's running value over a byte string, its last partial block padded with zeros: the
 * 0^v and 0^u of Algorithm 4, step 5. */
static void ghash_padded(struct ghash_ctx *g, const uint8_t *p, size_t len)
{
    if (len >= 16) ghash_update(g, p, len / 16);
    if (len % 16) {
        uint8_t last[16] = {0};
        memcpy(last, p + len - len % 16, len % 16);
        ghash_update(g, last, 1);
    }
}

/* [a]_64 || [b]_64: two bit lengths, big-endian. */
static void lengths_block(uint8_t out[16], uint64_t abytes, uint64_t bbytes)
{
    uint64_t a = abytes * 8, b = bbytes * 8;
    for (int i = 0; i < 8; i++) {
        out[7 - i] = (uint8_t)(a >> (8 * i));
        out[15 - i] = (uint8_t)(b >> (8 * i));
    }
}

void gcm_j0(const struct gcm_key *k, const uint8_t *iv, size_t ivlen, uint8_t j0[16])
{
    if (ivlen == 12) {
        memcpy(j0, iv, 12);
        j0[12] = j0[13] = j0[14] = 0;
        j0[15] = 1;
        return;
    }
    struct ghash_ctx g;
    uint8_t len_block[16];
    ghash_init(&g, k->h);
    ghash_padded(&g, iv, ivlen); /* IV || 0^s */
    lengths_block(len_block, 0, ivlen); /* 0^64 || [len(IV)]_64 */
    ghash_update(&g, len_block, 1);
    ghash_final(&g, j0);
}

/* out = a^2 . b (a may alias out) */
static void square_times(uint8_t out[16], const uint8_t a[16], const uint8_t b[16])
{
    uint8_t t[16];
    ghash_mul(t, a, a);
    ghash_mul(out, t, b);
}

int gcm_iv_for_j0(const struct gcm_key *k, const uint8_t j0[16], uint8_t iv[16])
{
    static const uint8_t zero[16];
    if (!memcmp(k->h, zero, 16)) return -1;
    /* H^-1 = H^(2^128 - 2), the field having 2^128 - 1 nonzero elements: from H^(2^1 - 1),
     * each step r = r^2 . H gives H^(2^(i+1) - 1); 126 steps, then one squaring. */
    uint8_t r[16], inv2[16], l[16], lh[16], x[16];
    memcpy(r, k->h, 16);
    for (int i = 0; i < 126; i++) square_times(r, r, k->h);
    ghash_mul(r, r, r);      /* H^-1 */
    ghash_mul(inv2, r, r);   /* H^-2 */
    /* GHASH_H(X || L) = (X . H xor L) . H = X . H^2 xor L . H */
    lengths_block(l, 0, 16);
    ghash_mul(lh, l, k->h);
    for (int i = 0; i < 16; i++) x[i] = j0[i] ^ lh[i];
    ghash_mul(iv, x, inv2);
    return 0;
}

/* GCTR_K(ICB, X) (section 6.5): block i is X_i xor CIPH_K(CB_i), CB_1 = ICB, CB_i+1 =
 * inc32(CB_i); the last block may be partial (its leftmost bytes of the keystream). */
static void gctr(const struct aes_key *aes, const uint8_t icb[16], const uint8_t *in,
                 size_t len, uint8_t *out)
{
    uint8_t cb[16], ks[16];
    memcpy(cb, icb, 16);
    for (size_t off = 0; off < len; off += 16) {
        size_t n = len - off < 16 ? len - off : 16;
        aes_encrypt_block(aes, ks, cb);
        for (size_t i = 0; i < n; i++) out[off + i] = in[off + i] ^ ks[i];
        gcm_inc32(cb);
    }
}

void gcm_ghash_s(const struct gcm_key *k, const uint8_t *aad, size_t aadlen, const uint8_t *ct,
                 size_t len, uint8_t s[16])
{
    struct ghash_ctx g;
    uint8_t len_block[16];
    ghash_init(&g, k->h);
    ghash_padded(&g, aad, aadlen);
    ghash_padded(&g, ct, len);
    lengths_block(len_block, aadlen, len);
    ghash_update(&g, len_block, 1);
    ghash_final(&g, s);
}

/* T = MSB_t(GCTR_K(J0, S)): one block, so CIPH_K(J0) xor S. */
static void full_tag(const struct gcm_key *k, const uint8_t j0[16], const uint8_t *aad,
                     size_t aadlen, const uint8_t *ct, size_t len, uint8_t t[16])
{
    uint8_t s[16];
    gcm_ghash_s(k, aad, aadlen, ct, len, s);
    gctr(&k->aes, j0, s, 16, t);
}

int gcm_seal_j0(const struct gcm_key *k, const uint8_t j0[16], const uint8_t *aad,
                size_t aadlen, const uint8_t *pt, size_t len, uint8_t *ct, uint8_t *tag,
                size_t taglen)
{
    uint8_t icb[16], t[16];
    if (taglen < 1 || taglen > 16) return -1;
    memcpy(icb, j0, 16);
    gcm_inc32(icb);
    gctr(&k->aes, icb, pt, len, ct);
    full_tag(k, j0, aad, aadlen, ct, len, t);
    memcpy(tag, t, taglen);
    return 0;
}

int gcm_open_j0(const struct gcm_key *k, const uint8_t j0[16], const uint8_t *aad,
                size_t aadlen, const uint8_t *ct, size_t len, const uint8_t *tag,
                size_t taglen, uint8_t *pt)
{
    uint8_t icb[16], t[16];
    if (taglen < 1 || taglen > 16) return -1;
    full_tag(k, j0, aad, aadlen, ct, len, t); /* of the ciphertext, before pt is written */
    unsigned diff = 0;
    for (size_t i = 0; i < taglen; i++) diff |= (unsigned)(t[i] ^ tag[i]);
    if (diff) {
        if (len) memset(pt, 0, len);
        return -1;
    }
    memcpy(icb, j0, 16);
    gcm_inc32(icb);
    gctr(&k->aes, icb, ct, len, pt);
    return 0;
}

int gcm_seal(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
             const uint8_t *aad, size_t aadlen, const uint8_t *pt, size_t len, uint8_t *ct,
             uint8_t *tag, size_t taglen)
{
    struct gcm_key k;
    uint8_t j0[16];
    if (ivlen < 1 || gcm_setkey(&k, key, keylen)) return -1;
    gcm_j0(&k, iv, ivlen, j0);
    return gcm_seal_j0(&k, j0, aad, aadlen, pt, len, ct, tag, taglen);
}

int gcm_open(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
             const uint8_t *aad, size_t aadlen, const uint8_t *ct, size_t len,
             const uint8_t *tag, size_t taglen, uint8_t *pt)
{
    struct gcm_key k;
    uint8_t j0[16];
    if (ivlen < 1 || gcm_setkey(&k, key, keylen)) return -1;
    gcm_j0(&k, iv, ivlen, j0);
    return gcm_open_j0(&k, j0, aad, aadlen, ct, len, tag, taglen, pt);
}
