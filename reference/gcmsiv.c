/* AES-GCM-SIV from RFC 8452 sections 4 (encryption) and 5 (decryption),
 * built from reference/polyval.c and reference/aes.c. */
#include "gcmsiv.h"

#include <string.h>

#include "aes.h"
#include "polyval.h"

static void store_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Each AES output contributes only its first 8 bytes: two blocks make the
 * authentication key, two or four more the encryption key. */
int gcmsiv_derive_keys(const uint8_t *key, size_t keylen, const uint8_t nonce[12],
                       uint8_t auth_key[16], uint8_t *enc_key)
{
    struct aes_key kgk;
    if ((keylen != 16 && keylen != 32) || aes_expand_key(&kgk, key, keylen) != 0)
        return -1;

    uint32_t nblocks = keylen == 16 ? 4 : 6;
    for (uint32_t i = 0; i < nblocks; i++) {
        uint8_t in[16], out[16];
        store_le32(in, i);
        memcpy(in + 4, nonce, 12);
        aes_encrypt_block(&kgk, out, in);
        if (i < 2)
            memcpy(auth_key + 8 * i, out, 8);
        else
            memcpy(enc_key + 8 * (i - 2), out, 8);
        memset(out, 0, sizeof out);
    }
    memset(&kgk, 0, sizeof kgk);
    return 0;
}

/* Whole blocks straight from the buffer, then the tail zero-padded. */
static void polyval_padded(struct polyval_ctx *c, const uint8_t *p, size_t len)
{
    size_t whole = len / 16;
    polyval_update(c, p, whole);
    if (len % 16) {
        uint8_t last[16] = { 0 };
        memcpy(last, p + 16 * whole, len % 16);
        polyval_update(c, last, 1);
    }
}

void gcmsiv_polyval(const uint8_t auth_key[16], const uint8_t *aad, size_t aadlen,
                    const uint8_t *pt, size_t ptlen, uint8_t s[16])
{
    struct polyval_ctx c;
    uint8_t length_block[16];

    polyval_init(&c, auth_key);
    polyval_padded(&c, aad, aadlen);
    polyval_padded(&c, pt, ptlen);
    store_le64(length_block, (uint64_t)aadlen * 8);
    store_le64(length_block + 8, (uint64_t)ptlen * 8);
    polyval_update(&c, length_block, 1);
    polyval_final(&c, s);
    memset(&c, 0, sizeof c);
}

/* Section 4: tag = AES(enc_key, (S_s ^ (nonce || 0^32)) with bit 127 cleared). */
static void compute_tag(const struct aes_key *enc, const uint8_t auth_key[16],
                        const uint8_t nonce[12], const uint8_t *aad, size_t aadlen,
                        const uint8_t *pt, size_t ptlen, uint8_t tag[16])
{
    uint8_t s[16];
    gcmsiv_polyval(auth_key, aad, aadlen, pt, ptlen, s);
    for (int i = 0; i < 12; i++)
        s[i] ^= nonce[i];
    s[15] &= 0x7f;
    aes_encrypt_block(enc, tag, s);
}

/* Counter blocks start at the tag with bit 127 set; only the first 32 bits,
 * little-endian, count, and they wrap modulo 2^32 without carrying into the
 * other 96 (the RFC's counter-wrap vectors in Appendix C.3 cross that edge). */
static void aes_ctr(const struct aes_key *enc, const uint8_t tag[16],
                    const uint8_t *in, size_t len, uint8_t *out)
{
    uint8_t counter[16], keystream[16];

    memcpy(counter, tag, 16);
    counter[15] |= 0x80;
    for (size_t off = 0; off < len; off += 16) {
        size_t n = len - off < 16 ? len - off : 16;
        aes_encrypt_block(enc, keystream, counter);
        for (size_t i = 0; i < n; i++)
            out[off + i] = in[off + i] ^ keystream[i];
        store_le32(counter, load_le32(counter) + 1);
    }
    memset(keystream, 0, sizeof keystream);
}

/* Key schedule for one message: auth_key and the expanded enc_key. */
static int setup(const uint8_t *key, size_t keylen, const uint8_t nonce[12],
                 size_t aadlen, size_t len, uint8_t auth_key[16], struct aes_key *enc)
{
    uint8_t enc_key[32];

    if ((uint64_t)aadlen > GCMSIV_MAX_LEN || (uint64_t)len > GCMSIV_MAX_LEN)
        return -1;
    if (gcmsiv_derive_keys(key, keylen, nonce, auth_key, enc_key) != 0)
        return -1;
    aes_expand_key(enc, enc_key, keylen);
    memset(enc_key, 0, sizeof enc_key);
    return 0;
}

int gcmsiv_encrypt(const uint8_t *key, size_t keylen, const uint8_t nonce[12],
                   const uint8_t *aad, size_t aadlen, const uint8_t *pt, size_t ptlen,
                   uint8_t *ct, uint8_t tag[16])
{
    uint8_t auth_key[16];
    struct aes_key enc;

    if (setup(key, keylen, nonce, aadlen, ptlen, auth_key, &enc) != 0)
        return -1;
    /* The tag covers the plaintext, so it is computed before an in-place
     * encryption overwrites it. */
    compute_tag(&enc, auth_key, nonce, aad, aadlen, pt, ptlen, tag);
    aes_ctr(&enc, tag, pt, ptlen, ct);
    memset(auth_key, 0, sizeof auth_key);
    memset(&enc, 0, sizeof enc);
    return 0;
}

int gcmsiv_decrypt(const uint8_t *key, size_t keylen, const uint8_t nonce[12],
                   const uint8_t *aad, size_t aadlen, const uint8_t *ct, size_t ctlen,
                   const uint8_t tag[16], uint8_t *pt)
{
    uint8_t auth_key[16], expected[16], tag_copy[16];
    struct aes_key enc;

    if (setup(key, keylen, nonce, aadlen, ctlen, auth_key, &enc) != 0) {
        if (ctlen)
            memset(pt, 0, ctlen);
        return -1;
    }
    /* tag may live inside the caller's pt buffer; keep it before pt is written. */
    memcpy(tag_copy, tag, 16);
    aes_ctr(&enc, tag_copy, ct, ctlen, pt);
    compute_tag(&enc, auth_key, nonce, aad, aadlen, pt, ctlen, expected);

    /* Accumulate every difference, so the time taken does not say where the
     * first wrong byte is (section 5 asks for a constant-time comparison). */
    uint8_t diff = 0;
    for (int i = 0; i < 16; i++)
        diff |= expected[i] ^ tag_copy[i];

    memset(auth_key, 0, sizeof auth_key);
    memset(&enc, 0, sizeof enc);
    memset(expected, 0, sizeof expected);
    if (diff != 0) {
        if (ctlen)
            memset(pt, 0, ctlen);
        return -1;
    }
    return 0;
}
