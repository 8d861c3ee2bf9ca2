/* fuzz/gcm.c — the AES-GCM family: the libraries' GCM against a reference from SP 800-38D.
 *
 * Property: for every key size, IV length (12 bytes mostly, 1..64 others), AAD and payload
 * length (0 to several KiB, every tail), tag length (4..16) and every way of cutting the AAD
 * and the payload into update calls (splits.h: at any byte, empty pieces included, each piece
 * in a guarded buffer of its own), each library's streaming API seals to the reference's
 * ciphertext and tag, opens the reference's message to its plaintext, and rejects it, as the
 * reference does, when one bit of its tag, ciphertext or AAD is flipped.  The reference judges
 * the whole stream, uncut.  The libraries are the implementations under test (there are no
 * kernels of ours yet): OpenSSL's EVP, libgcrypt at one hardware-feature level per process
 * (ASMDIFF_GCRYPT_DISABLE; the gcrypt-levels test walks them all), nettle.
 *
 * Counter-block cases: one case in eight chooses the pre-counter block J0 itself, its 32-bit
 * counter just below the 2^32 wrap so that the wrap falls inside the payload (or on its first
 * block), its upper 96 bits from the edge patterns (all ones shows a carry out of the counter).
 * No 96-bit IV reaches such a J0; the case's IV is the 16-byte one whose GHASH is that J0
 * (reference/gcm.c, gcm_iv_for_j0), so every library, which takes an IV, runs it too, and an
 * implementation that takes a counter block (Linux's aes-gcm-avx10 convention, to come) will
 * take J0 as it is.  Reports say "counter block: J0 = ..., IV solved for it".
 *
 * A library that does not take the case's tag length (libgcrypt: SP 800-38D's lengths only)
 * runs the case with the full 16-byte tag, and is also asked to open with the truncated one,
 * which it must refuse; a library that takes cuts only at whole blocks (nettle) is given the
 * case's cuts at multiples of 16 bytes, the pieces around the others merged. */
#include <string.h>

#include "asmdiff-config.h"
#include "driver.h"
#include "gcm_upstream.h"
#include "properties.h"
#include "report.h"
#include "rng.h"
#include "splits.h"
#include "vectors.h"
#include "reference/aes.h"
#include "reference/gcm.h"
#include "reference/oracles/gcm_oracles.h"
#if ASMDIFF_HAVE_GCRYPT
#include "reference/oracles/gcrypt_init.h"
#endif

#define AAD_MAX GCM_AAD_MAX
#define PT_MAX GCM_PT_MAX
#define IV_MAX GCM_IV_MAX
#define PIECES (SPLITS_MAX + 1)

/* ---- the reference as a struct gcm_lib (list and bench; it judges through expect) ---- */

static uint8_t gather_in[PT_MAX + AAD_MAX];

/* The pieces into one buffer of room bytes; NULL when they do not fit. */
static const uint8_t *gather(const struct gcm_in *s, uint8_t *to, size_t room, size_t *len)
{
    *len = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (s->len[i] > room - *len) return NULL;
        if (s->len[i]) memcpy(to + *len, s->p[i], s->len[i]);
        *len += s->len[i];
    }
    return to;
}

static void scatter(const struct gcm_out *s, const uint8_t *from)
{
    for (size_t i = 0, at = 0; i < s->n; at += s->len[i], i++)
        if (s->len[i]) memcpy(s->p[i], from + at, s->len[i]);
}

static int ref_seal(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                    const struct gcm_in *aad, const struct gcm_in *pt, const struct gcm_out *ct,
                    uint8_t *tag, size_t taglen)
{
    static uint8_t out[PT_MAX];
    size_t alen, len;
    const uint8_t *a = gather(aad, gather_in, AAD_MAX, &alen);
    const uint8_t *p = a ? gather(pt, gather_in + alen, PT_MAX, &len) : NULL;
    if (!p) return -2;
    int rc = gcm_seal(key, keylen, iv, ivlen, a, alen, p, len, out, tag, taglen);
    scatter(ct, out);
    return rc ? -2 : 0;
}

static int ref_open(const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                    const struct gcm_in *aad, const struct gcm_in *ct, const struct gcm_out *pt,
                    const uint8_t *tag, size_t taglen)
{
    static uint8_t out[PT_MAX];
    size_t alen, len;
    const uint8_t *a = gather(aad, gather_in, AAD_MAX, &alen);
    const uint8_t *c = a ? gather(ct, gather_in + alen, PT_MAX, &len) : NULL;
    if (!c) return -2;
    int rc = gcm_open(key, keylen, iv, ivlen, a, alen, c, len, tag, taglen, out);
    scatter(pt, out);
    return rc;
}

static const struct gcm_lib reference = {ref_seal, ref_open, 1, GCM_TAGS_1_TO_16};

static const struct impl impls[] = {
    IMPL("c-reference", 0, IMPL_REFERENCE, &reference),
#if ASMDIFF_HAVE_OPENSSL
    IMPL("openssl", 0, IMPL_LIBRARY, &oracle_openssl_gcm, .describe = oracle_openssl_gcm_describe),
#endif
#if ASMDIFF_HAVE_GCRYPT
    IMPL("libgcrypt", 0, IMPL_LIBRARY, &oracle_gcrypt_gcm, .describe = oracle_gcrypt_describe,
         .label = oracle_gcrypt_label, .version = oracle_gcrypt_version, .hwf = oracle_gcrypt_hwf),
#endif
#if ASMDIFF_HAVE_NETTLE
    IMPL("nettle", 0, IMPL_LIBRARY, &oracle_nettle_gcm, .describe = oracle_nettle_gcm_describe),
#endif
};

enum { B_KEY = GCM_B_KEY, B_IV = GCM_B_IV, B_AAD = GCM_B_AAD, B_IN = GCM_B_IN,
       B_OUT = GCM_B_OUT, B_TAG = GCM_B_TAG };
/* (an outside kernel's buffers last, granule 64: gcm_upstream.h) */
static const struct buf_spec bufs[] = {
    {"key", 1, BUF_SECRET}, {"iv", 1, 0},     {"aad", 1, 0},
    {"input", 1, BUF_SECRET}, {"output", 1, 0}, {"tag", 1, 0},
    {"key struct", 64, BUF_SECRET}, {"ghash accumulator", 64, BUF_SECRET},
    {"counter", 64, 0}, {"block", 64, BUF_SECRET}};
_Static_assert(sizeof bufs / sizeof bufs[0] == GCM_NBUFS, "gcm_upstream.h's buffers");

#define TAMPER_NONE GCM_TAMPER_NONE
#define TAMPER_TAG GCM_TAMPER_TAG
#define TAMPER_CT GCM_TAMPER_CT
#define TAMPER_AAD GCM_TAMPER_AAD
#define TAMPER_COUNT GCM_TAMPER_COUNT
static const char *const tamper_names[] = {"none", "tag", "ciphertext", "aad"};

/* the case (gcm_upstream.h: the conventions read it too) */
static struct gcm_case the_case;

static struct gcm_want {
    uint8_t ct[PT_MAX], tag[16]; /* the full tag T: a case's is its leftmost taglen bytes */
    uint8_t bad_ct[PT_MAX], bad_tag[16], bad_aad[AAD_MAX]; /* the tampered message */
    uint8_t bad_full[16]; /* the full tag the tampered message has */
    uint8_t j0[16];       /* the pre-counter block */
    /* CIPH_K(J0) xor CIPH_K(J0's leftmost 96 bits || 0^31 || 1): what turns each tag into the
     * one a home whose final takes the latter block gives (gcm_upstream.h, tag_ctr_one; zero
     * for every 96-bit IV) */
    uint8_t ctr_one_delta[16];
} want_;

/* ---- decode ---- */

/* A stream's length: short (tails around the first blocks, 3 in 8), medium (3 in 8), long
 * (the libraries' bulk paths: OpenSSL's stitched AES-NI/AVX code from 288 bytes in 96-byte
 * groups, libgcrypt's VAES batches of 16 and 32 blocks), or up to max (1 in 8: the reference's
 * bit-serial GHASH makes a case's cost its length); edges at the widths, as input_length. */
static size_t stream_length(struct input *in, size_t max)
{
    static const size_t widths[] = {16, 96, 256};
    static const size_t tiers[] = {64, 64, 64, 512, 512, 512, 1536, 0};
    size_t t = tiers[input_pick(in, 8)];
    return input_length(in, t && t < max ? t : max, widths, 3);
}

static void *decode(struct input *in)
{
    struct gcm_case *c = &the_case;
    c->keylen = 16 + 8 * (size_t)input_pick(in, 3);
    c->from_j0 = input_pick(in, 8) == 0;
    c->ivlen = c->from_j0 ? 16 : input_pick(in, 4) ? 12 : (size_t)input_range(in, 1, IV_MAX);
    c->taglen = input_bool(in) ? 16 : (size_t)input_range(in, 4, 16);
    c->aadlen = stream_length(in, AAD_MAX);
    c->len = stream_length(in, PT_MAX);
    input_splits(in, &c->aad_cuts, c->aadlen, 16);
    input_splits(in, &c->pt_cuts, c->len, 16);
    c->tamper = (enum gcm_tamper)input_pick(in, TAMPER_COUNT);
    size_t span = c->tamper == TAMPER_TAG ? c->taglen : c->tamper == TAMPER_CT ? c->len
                                                                             : c->aadlen;
    if (c->tamper != TAMPER_NONE && span == 0) c->tamper = TAMPER_TAG, span = c->taglen;
    c->flip_bit = c->tamper == TAMPER_NONE ? 0 : (size_t)input_range(in, 0, 8 * span - 1);
    /* the counter-block case's distance to the wrap: the payload's block `below` (from 0)
     * is the first after it, or, at the payload's block count, none is */
    uint64_t below = c->from_j0 ? input_range(in, 0, (c->len + 15) / 16) : 0;
    input_fill_words(in, c->key, c->keylen / 4, 4);
    input_bytes(in, c->iv, c->ivlen);
    if (c->from_j0) {
        struct gcm_key k;
        input_fill_words(in, c->j0, 3, 4);
        uint32_t low = 0xffffffffu - (uint32_t)below;
        for (int i = 0; i < 4; i++) c->j0[15 - i] = (uint8_t)(low >> (8 * i));
        gcm_setkey(&k, c->key, c->keylen);
        if (gcm_iv_for_j0(&k, c->j0, c->iv)) c->from_j0 = 0; /* H = 0: the IV as read */
    }
    input_fill_words(in, c->aad, c->aadlen, 1);
    input_fill_words(in, c->pt, c->len, 1);
    return c;
}

/* The secrets (the key and the payload) replaced by others of the same shape, for the Unicorn
 * ct-trace mode: every length, cut, tag length and tamper kept, and so the pre-counter block:
 * a 12-byte IV's J0 does not depend on the key, and a counter-block case's IV is solved again
 * for the same J0 under the new key (its wrap stays where it was). */
static void vary_secrets(void *cv, uint64_t seed)
{
    struct gcm_case *c = cv;
    rng_fill(&seed, c->key, c->keylen);
    rng_fill(&seed, c->pt, c->len);
    if (c->from_j0) {
        struct gcm_key k;
        gcm_setkey(&k, c->key, c->keylen);
        if (gcm_iv_for_j0(&k, c->j0, c->iv)) c->from_j0 = 0; /* H = 0: the IV as it was */
    }
}

/* ---- the reference's answer ---- */

/* The 32-bit counter wraps inside the payload: inc32(J0) + n - 1 passes 2^32 - 1. */
static int counter_wraps(const struct gcm_case *c, const uint8_t j0[16])
{
    uint64_t low = (uint64_t)j0[12] << 24 | j0[13] << 16 | j0[14] << 8 | j0[15];
    return low + (c->len + 15) / 16 > 0xffffffffu;
}

static const void *expect(const void *cv)
{
    const struct gcm_case *c = cv;
    struct gcm_key k;
    uint8_t j0[16], s[16], ek[16];
    gcm_setkey(&k, c->key, c->keylen);
    gcm_j0(&k, c->iv, c->ivlen, j0);
    /* the solved IV must give the chosen J0: GHASH and its inverse agree */
    if (c->from_j0) drv_expect_true(!memcmp(j0, c->j0, 16), "the IV solved for J0 gives another J0");
    gcm_seal_j0(&k, j0, c->aad, c->aadlen, c->pt, c->len, want_.ct, want_.tag, 16);
    memcpy(want_.j0, j0, 16);
    uint8_t one[16];
    memcpy(one, j0, 12), one[12] = one[13] = one[14] = 0, one[15] = 1;
    aes_encrypt_block(&k.aes, ek, j0);
    aes_encrypt_block(&k.aes, one, one);
    for (int i = 0; i < 16; i++) want_.ctr_one_delta[i] = ek[i] ^ one[i];
    drv_tally("split points", c->aad_cuts.n + c->pt_cuts.n);
    drv_tally("32-bit counter wraps", (unsigned long long)counter_wraps(c, j0));

    memcpy(want_.bad_ct, want_.ct, c->len);
    memcpy(want_.bad_tag, want_.tag, 16);
    memcpy(want_.bad_aad, c->aad, c->aadlen);
    memcpy(want_.bad_full, want_.tag, 16);
    if (c->tamper == TAMPER_NONE) return &want_;
    uint8_t *t = c->tamper == TAMPER_TAG ? want_.bad_tag
                 : c->tamper == TAMPER_CT ? want_.bad_ct
                                          : want_.bad_aad;
    t[c->flip_bit / 8] ^= (uint8_t)(1u << (c->flip_bit % 8));
    if (c->tamper != TAMPER_TAG) { /* the tag the tampered message has: CIPH_K(J0) xor S' */
        gcm_ghash_s(&k, want_.bad_aad, c->aadlen, want_.bad_ct, c->len, s);
        aes_encrypt_block(&k.aes, ek, j0);
        for (int i = 0; i < 16; i++) want_.bad_full[i] = ek[i] ^ s[i];
    }
    return &want_;
}

/* Whether the reference accepts the tampered message with a tag of taglen bytes (only a
 * collision of the truncated tags would: the implementations must then accept it too). */
static int bad_accepted(const struct gcm_want *w, size_t taglen)
{
    return !memcmp(w->bad_full, w->bad_tag, taglen);
}

/* ---- one library on one case ---- */

struct placed {
    const uint8_t *ap[PIECES], *ip[PIECES];
    uint8_t *op[PIECES];
    size_t an[PIECES], in[PIECES], on[PIECES];
    struct gcm_in aad, pin;
    struct gcm_out pout;
};

/* The case's AAD, payload in and payload out, each piece placed apart, cut where the library
 * takes cuts. */
static void place_streams(struct placed *s, const struct splits *ac, const struct splits *pc,
                          const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len)
{
    drv_in_pieces(B_AAD, ac, aad, aadlen, s->ap, s->an);
    drv_in_pieces(B_IN, pc, in, len, s->ip, s->in);
    drv_out_pieces(B_OUT, pc, len, s->op, s->on);
    s->aad = (struct gcm_in){ac->n + 1, s->ap, s->an};
    s->pin = (struct gcm_in){pc->n + 1, s->ip, s->in};
    s->pout = (struct gcm_out){pc->n + 1, s->op, s->on};
}

/* ---- an outside kernel (./asmdiff check): its convention's calls (gcm_upstream.h) ---- */

/* A tag as a home whose final takes J0's leftmost 96 bits || 1 gives it (tag_ctr_one), else
 * as it is. */
static void upstream_tag(const struct gcm_upstream *u, const uint8_t *t, uint8_t out[16])
{
    for (int i = 0; i < 16; i++) out[i] = t[i] ^ (u->tag_ctr_one ? want_.ctr_one_delta[i] : 0);
}

/* The tag an open is given: its leftmost taglen bytes, then what a caller's 16-byte buffer
 * holds past them (the true tag's bytes changed, so a compare of more than taglen bytes
 * rejects). */
static void tag_buffer(uint8_t out[16], const uint8_t *t, const uint8_t *full, size_t taglen)
{
    for (size_t i = 0; i < 16; i++) out[i] = i < taglen ? t[i] : (uint8_t)(full[i] ^ 0x5a);
}

static void upstream_pieces(const struct placed *s, struct gcm_pieces *aad,
                            struct gcm_pieces *in, struct gcm_out_pieces *out)
{
    *aad = (struct gcm_pieces){s->aad.n, s->ap, s->an};
    *in = (struct gcm_pieces){s->pin.n, s->ip, s->in};
    *out = (struct gcm_out_pieces){s->pout.n, s->op, s->on};
}

static void run_upstream(const struct impl *im, const struct gcm_case *c,
                         const struct gcm_want *w)
{
    const struct gcm_upstream *u = im->ops;
    static uint8_t got[PT_MAX];
    static uint8_t tag_in[16];
    uint8_t full[16], tag[16], bad_full[16], bad_tag[16];
    struct placed s;
    struct gcm_pieces aad, in;
    struct gcm_out_pieces out;
    upstream_tag(u, w->tag, full);
    upstream_tag(u, w->bad_full, bad_full);
    upstream_tag(u, w->bad_tag, bad_tag);

    u->setkey(u, c); /* its own op: the key struct, completed by the home's code */
    drv_op("seal");
    place_streams(&s, &c->aad_cuts, &c->pt_cuts, c->aad, c->aadlen, c->pt, c->len);
    upstream_pieces(&s, &aad, &in, &out);
    u->seal(u, c, w->j0, &aad, &in, &out, tag);
    splits_gather(&c->pt_cuts, s.op, s.on, got);
    drv_expect_equal("ciphertext", w->ct, got, c->len);
    drv_expect_equal("tag (the 16 bytes the final writes)", full, tag, 16);

    drv_op("open");
    place_streams(&s, &c->aad_cuts, &c->pt_cuts, c->aad, c->aadlen, w->ct, c->len);
    upstream_pieces(&s, &aad, &in, &out);
    tag_buffer(tag_in, full, full, c->taglen);
    int ok = u->open(u, c, w->j0, &aad, &in, &out, tag_in, c->taglen);
    drv_expect_true(ok == 1, ok == 0 ? "rejects the reference's valid message"
                                     : "gives a verdict that is neither accept nor reject on "
                                       "the reference's valid message");
    splits_gather(&c->pt_cuts, s.op, s.on, got);
    drv_expect_equal("plaintext", c->pt, got, c->len);

    if (c->tamper != TAMPER_NONE) {
        drv_op(c->tamper == TAMPER_TAG ? "open of a message with one tag bit flipped"
               : c->tamper == TAMPER_CT ? "open of a message with one ciphertext bit flipped"
                                        : "open of a message with one aad bit flipped");
        place_streams(&s, &c->aad_cuts, &c->pt_cuts, w->bad_aad, c->aadlen, w->bad_ct, c->len);
        upstream_pieces(&s, &aad, &in, &out);
        tag_buffer(tag_in, bad_tag, bad_full, c->taglen);
        ok = u->open(u, c, w->j0, &aad, &in, &out, tag_in, c->taglen);
        int want_ok = !memcmp(bad_full, bad_tag, c->taglen);
        drv_expect_true(ok == want_ok, ok == 1   ? "accepts a tampered message"
                                       : ok == 0 ? "rejects a message the reference accepts "
                                                   "(its truncated tags collide)"
                                                 : "gives a verdict that is neither accept "
                                                   "nor reject on a tampered message");
    }
}

static void run(const struct impl *im, const void *cv, const void *wv)
{
    if (im->flags & IMPL_OUTSIDE) {
        run_upstream(im, cv, wv);
        return;
    }
    const struct gcm_case *c = cv;
    const struct gcm_want *w = wv;
    const struct gcm_lib *lib = im->ops;
    static uint8_t got[PT_MAX];
    struct splits ac, pc;
    struct placed s;
    splits_kept(&c->aad_cuts, lib->align, &ac);
    splits_kept(&c->pt_cuts, lib->align, &pc);
    size_t taglen = lib->tag_mask >> c->taglen & 1 ? c->taglen : 16;

    drv_op("seal");
    const uint8_t *key = drv_in(B_KEY, c->key, c->keylen);
    const uint8_t *iv = drv_in(B_IV, c->iv, c->ivlen);
    place_streams(&s, &ac, &pc, c->aad, c->aadlen, c->pt, c->len);
    uint8_t *tag = drv_out(B_TAG, taglen);
    int rc = (int)DRV_CALL(lib->seal, key, c->keylen, iv, c->ivlen, &s.aad, &s.pin, &s.pout,
                           tag, taglen);
    drv_expect_true(rc == 0, "seal failed");
    splits_gather(&pc, s.op, s.on, got);
    drv_expect_equal("ciphertext", w->ct, got, c->len);
    drv_expect_equal("tag", w->tag, tag, taglen);

    drv_op("open");
    place_streams(&s, &ac, &pc, c->aad, c->aadlen, w->ct, c->len);
    tag = drv_in(B_TAG, w->tag, taglen);
    rc = (int)DRV_CALL(lib->open, key, c->keylen, iv, c->ivlen, &s.aad, &s.pin, &s.pout, tag,
                       taglen);
    drv_expect_true(rc == 0, rc == -1 ? "rejects the reference's valid message"
                                      : "open failed with an error");
    splits_gather(&pc, s.op, s.on, got);
    drv_expect_equal("plaintext", c->pt, got, c->len);

    if (c->tamper != TAMPER_NONE) {
        drv_op(c->tamper == TAMPER_TAG ? "open of a message with one tag bit flipped"
               : c->tamper == TAMPER_CT ? "open of a message with one ciphertext bit flipped"
                                        : "open of a message with one aad bit flipped");
        place_streams(&s, &ac, &pc, w->bad_aad, c->aadlen, w->bad_ct, c->len);
        tag = drv_in(B_TAG, w->bad_tag, taglen);
        rc = (int)DRV_CALL(lib->open, key, c->keylen, iv, c->ivlen, &s.aad, &s.pin, &s.pout,
                           tag, taglen);
        int want_rc = bad_accepted(w, taglen) ? 0 : -1;
        drv_expect_true(rc == want_rc, rc == 0    ? "accepts a tampered message"
                                       : rc == -1 ? "rejects a message the reference accepts "
                                                    "(its truncated tags collide)"
                                                  : "fails on a tampered message with an "
                                                    "error other than an authentication "
                                                    "failure");
    }
    if (taglen != c->taglen) {
        /* the truncated tag it does not take: refused, whatever the error */
        drv_op("open with a tag length it does not take");
        place_streams(&s, &ac, &pc, c->aad, c->aadlen, w->ct, c->len);
        tag = drv_in(B_TAG, w->tag, c->taglen);
        rc = (int)DRV_CALL(lib->open, key, c->keylen, iv, c->ivlen, &s.aad, &s.pin, &s.pout,
                           tag, c->taglen);
        drv_expect_true(rc != 0, "accepts a tag of a length it says it does not take");
    }
}

/* ---- reports ---- */

static void cuts_param(const char *name, const struct splits *s, size_t len)
{
    char text[400];
    size_t used = (size_t)snprintf(text, sizeof text, "%zu:", s->n + 1);
    for (size_t i = 0; i <= s->n && used < sizeof text; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, " [%zu,%zu)", splits_from(s, i),
                                 splits_to(s, i, len));
    report_param(name, "%s", text);
}

static void params(const void *cv)
{
    const struct gcm_case *c = cv;
    report_param("key size", "%zu bits", 8 * c->keylen);
    report_param("iv length", "%zu bytes", c->ivlen);
    report_param("aad length", "%zu", c->aadlen);
    report_param("payload length", "%zu (%zu blocks and %zu)", c->len, c->len / 16, c->len % 16);
    report_param("tag length", "%zu bytes", c->taglen);
    cuts_param("aad update calls", &c->aad_cuts, c->aadlen);
    cuts_param("payload update calls", &c->pt_cuts, c->len);
    report_param("tamper", "%s, bit %zu", tamper_names[c->tamper], c->flip_bit);
    if (c->from_j0) {
        char j0[33];
        for (int i = 0; i < 16; i++) snprintf(j0 + 2 * i, 3, "%02x", c->j0[i]);
        report_param("counter block", "J0 = %s, the IV solved for it", j0);
    }
    report_hex("key", c->key, c->keylen);
    report_hex("iv", c->iv, c->ivlen);
    report_hex(c->aadlen > 256 ? "aad (first 256 bytes)" : "aad", c->aad,
               c->aadlen < 256 ? c->aadlen : 256);
    report_hex(c->len > 256 ? "plaintext (first 256 bytes)" : "plaintext", c->pt,
               c->len < 256 ? c->len : 256);
}

/* ---- case properties (properties.h): what the libraries' paths turn on, as the guided
 * fuzzer's extra counters (their code carries no coverage instrumentation of ours) ---- */

static const char *const property_names[] = {
    "aad piece length mod 16", "payload piece length mod 16", "payload piece start mod 16",
    "aad pieces", "payload pieces", "payload length scale", "aad length scale",
    "payload piece length scale", "iv length", "tag length", "key bytes",
    "counter wrap block", "tamper"};
static size_t properties_of(const void *cv, struct case_property *out, size_t max)
{
    const struct gcm_case *c = cv;
    size_t n = 0;
    for (size_t i = 0; i <= c->aad_cuts.n; i++) {
        size_t l = splits_to(&c->aad_cuts, i, c->aadlen) - splits_from(&c->aad_cuts, i);
        n = prop_add(out, n, max, 0, l % 16);
    }
    for (size_t i = 0; i <= c->pt_cuts.n; i++) {
        size_t from = splits_from(&c->pt_cuts, i), l = splits_to(&c->pt_cuts, i, c->len) - from;
        n = prop_add(out, n, max, 1, l % 16);
        n = prop_add(out, n, max, 2, from % 16);
        n = prop_add(out, n, max, 7, prop_log2(l / 16));
    }
    n = prop_add(out, n, max, 3, c->aad_cuts.n + 1);
    n = prop_add(out, n, max, 4, c->pt_cuts.n + 1);
    n = prop_add(out, n, max, 5, prop_log2(c->len));
    n = prop_add(out, n, max, 6, prop_log2(c->aadlen));
    n = prop_add(out, n, max, 8, c->ivlen);
    n = prop_add(out, n, max, 9, c->taglen);
    n = prop_add(out, n, max, 10, c->keylen);
    uint32_t low = (uint32_t)c->j0[12] << 24 | c->j0[13] << 16 | c->j0[14] << 8 | c->j0[15];
    n = prop_add(out, n, max, 11, c->from_j0 ? 1 + (uint64_t)(0xffffffffu - low) : 0);
    return prop_add(out, n, max, 12, c->tamper);
}
const struct family_properties asmdiff_properties = {property_names, 13, properties_of};

/* ---- kat: McGrew-Viega's test cases (corpus/gcm/kat.txt), each through every library whole,
 * cut and tampered; and the counter's unit checks ---- */

/* inc32 at its wrap, and the reference's GCTR across it, against counter blocks written out
 * by hand (not by gcm_inc32): the leftmost 96 bits all ones, so a carry into them shows. */
static int counter_unit_checks(void)
{
    static const char *const where = "reference/gcm.c (counter unit check)";
    uint8_t b[16], want[16];
    memset(b, 0xff, 16);
    gcm_inc32(b);
    memset(want, 0xff, 12), memset(want + 12, 0, 4);
    int ok = drv_reference_agrees(where, "inc32 of ff..ff (the carry must stop at bit 32)",
                                  want, b, 16);
    static const uint8_t key[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                    0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};
    struct gcm_key k;
    gcm_setkey(&k, key, 16);
    uint8_t j0[16], pt[40], ct[40], tag[16], hand[40], cb[16], ks[16];
    memset(j0, 0xff, 15), j0[15] = 0xfe; /* payload counters ff..ff, then 0, then 1 */
    for (int i = 0; i < 40; i++) pt[i] = (uint8_t)(3 * i + 1);
    gcm_seal_j0(&k, j0, NULL, 0, pt, sizeof pt, ct, tag, 16);
    static const uint8_t lows[3][4] = {{0xff, 0xff, 0xff, 0xff}, {0, 0, 0, 0}, {0, 0, 0, 1}};
    for (int blk = 0; blk < 3; blk++) {
        memset(cb, 0xff, 12);
        memcpy(cb + 12, lows[blk], 4);
        aes_encrypt_block(&k.aes, ks, cb);
        for (int i = 0; i < 16 && 16 * blk + i < 40; i++)
            hand[16 * blk + i] = pt[16 * blk + i] ^ ks[i];
    }
    ok &= drv_reference_agrees(where, "ciphertext across the 32-bit wrap", hand, ct, sizeof ct);
    /* the IV solved for a J0 gives it back, for a J0 at the wrap and another */
    uint8_t iv[16], back[16];
    for (int t = 0; t < 2; t++) {
        memset(j0, t ? 0x5a : 0xff, 16);
        gcm_iv_for_j0(&k, j0, iv);
        gcm_j0(&k, iv, 16, back);
        ok &= drv_reference_agrees(where, "J0 of the IV solved for it", j0, back, 16);
    }
    return ok;
}

/* the cuts a vector is run with besides none: one at 1 byte, several at odd places */
static void kat_cuts(struct splits *s, size_t len, int shape)
{
    s->n = 0;
    if (shape == 1 && len) s->at[s->n++] = 1;
    if (shape == 2)
        for (size_t at = 0; at <= len && s->n < 5; at += 7) s->at[s->n++] = at;
}

static int kat(const char *srcdir)
{
    struct gcm_case *c = &the_case;
    static uint8_t want_ct[PT_MAX], ct[PT_MAX], back[PT_MAX];
    uint8_t want_tag[16], tag[16];
    struct vec_file vf;
    int count = 0;
    if (vec_open(&vf, srcdir, "corpus/gcm/kat.txt")) return -1;
    while (vec_next(&vf)) {
        memset(c, 0, sizeof *c);
        long kl = vec_get_hex(&vf, "K", c->key, sizeof c->key);
        long pl = vec_get_hex(&vf, "P", c->pt, sizeof c->pt);
        long al = vec_get_hex(&vf, "A", c->aad, sizeof c->aad);
        long il = vec_get_hex(&vf, "IV", c->iv, sizeof c->iv);
        long cl = vec_get_hex(&vf, "C", want_ct, sizeof want_ct);
        long tl = vec_get_hex(&vf, "T", want_tag, sizeof want_tag);
        vec_done(&vf);
        if ((kl != 16 && kl != 24 && kl != 32) || pl < 0 || al < 0 || il < 1 || cl != pl ||
            tl != 16) {
            drv_vector_errors(1);
            continue;
        }
        c->keylen = (size_t)kl, c->len = (size_t)pl, c->aadlen = (size_t)al;
        c->ivlen = (size_t)il, c->taglen = 16;
        count++;
        gcm_seal(c->key, c->keylen, c->iv, c->ivlen, c->aad, c->aadlen, c->pt, c->len, ct, tag,
                 16);
        int opened = gcm_open(c->key, c->keylen, c->iv, c->ivlen, c->aad, c->aadlen, want_ct,
                              c->len, want_tag, 16, back);
        if (!drv_reference_agrees(vf.path, "ciphertext", want_ct, ct, c->len) ||
            !drv_reference_agrees(vf.path, "tag", want_tag, tag, 16) ||
            !drv_reference_agrees(vf.path, "plaintext (open)", c->pt, back, c->len) ||
            !drv_reference_agrees(vf.path, "verdict of open", &(int){0}, &opened, sizeof opened))
            continue;
        /* every library: whole and untouched; cut at byte 1 with a 12-byte tag, one tag bit
         * flipped; cut every 7 bytes with a 5-byte tag (libgcrypt refuses it), one bit of the
         * ciphertext (or of the AAD, or the tag, where there is none) flipped */
        for (int shape = 0; shape < 3; shape++) {
            kat_cuts(&c->aad_cuts, c->aadlen, shape);
            kat_cuts(&c->pt_cuts, c->len, shape);
            c->tamper = shape == 0 ? TAMPER_NONE : shape == 1 ? TAMPER_TAG
                        : c->len ? TAMPER_CT : c->aadlen ? TAMPER_AAD : TAMPER_TAG;
            c->taglen = shape == 1 ? 12 : shape == 2 ? 5 : 16;
            c->flip_bit = shape == 0 ? 0 : 5 + (size_t)shape;
            drv_check(c);
        }
    }
    drv_vector_errors(vec_close(&vf));
    counter_unit_checks(); /* not vectors: a failure counts as one (drv_reference_agrees) */
    return count;
}

/* ---- exhaustive: every cut of short streams ----
 * The payload at every length 0..48 cut once at each byte (empty pieces at either end
 * included), then cut at every byte; the AAD likewise beside a 20-byte payload; every tag
 * length 4..16 and every IV length 1..20. */

static void fill_case(struct gcm_case *c, uint64_t *x, size_t keylen, size_t ivlen,
                      size_t aadlen, size_t len)
{
    memset(c, 0, sizeof *c);
    c->keylen = keylen, c->ivlen = ivlen, c->aadlen = aadlen, c->len = len, c->taglen = 16;
    rng_fill(x, c->key, 32);
    rng_fill(x, c->iv, ivlen);
    rng_fill(x, c->aad, aadlen);
    rng_fill(x, c->pt, len);
}

static int exhaustive(void)
{
    struct gcm_case *c = &the_case;
    uint64_t x = 0x67636d2d63757473ull;
    for (size_t len = 0; len <= 48; len++) {
        for (size_t at = 0; at <= len; at++) {
            fill_case(c, &x, 16 + 8 * (len % 3), 12, len % 17, len);
            c->pt_cuts.n = 1, c->pt_cuts.at[0] = at;
            c->tamper = (enum gcm_tamper)(at % TAMPER_COUNT);
            if (c->tamper == TAMPER_CT && !len) c->tamper = TAMPER_TAG;
            if (c->tamper == TAMPER_AAD && !c->aadlen) c->tamper = TAMPER_TAG;
            c->flip_bit = at;
            drv_check(c);
        }
        fill_case(c, &x, 32, 12, 0, len); /* a piece per byte, at most 16 calls */
        c->pt_cuts.n = len < SPLITS_MAX ? len : SPLITS_MAX;
        for (size_t i = 0; i < c->pt_cuts.n; i++) c->pt_cuts.at[i] = i + 1;
        drv_check(c);
    }
    for (size_t alen = 0; alen <= 48; alen++)
        for (size_t at = 0; at <= alen; at++) {
            fill_case(c, &x, 24, 12, alen, 20);
            c->aad_cuts.n = 1, c->aad_cuts.at[0] = at;
            c->tamper = alen ? TAMPER_AAD : TAMPER_TAG, c->flip_bit = at;
            drv_check(c);
        }
    for (size_t t = 4; t <= 16; t++)
        for (size_t ivlen = 1; ivlen <= 20; ivlen++) {
            fill_case(c, &x, 16 + 8 * (ivlen % 3), ivlen, ivlen, 2 * ivlen + 1);
            c->taglen = t, c->tamper = TAMPER_TAG, c->flip_bit = 8 * t - 1;
            drv_check(c);
        }
    return 0;
}

/* ---- bench ---- */

static const struct bench_op bench_ops[] = {{"AES128-GCM seal", 16, 4096}};

static int bench_run(const struct impl *im, size_t op, uint8_t *buf, size_t bytes)
{
    static const uint8_t key[16] = {1}, iv[12] = {3};
    uint8_t tag[16];
    const uint8_t *in[1] = {buf};
    uint8_t *out[1] = {buf};
    size_t len[1] = {bytes};
    const struct gcm_in none = {0, NULL, NULL}, pt = {1, in, len};
    const struct gcm_out ct = {1, out, len};
    (void)op;
    if (im->flags & IMPL_OUTSIDE) { /* its convention's direct calls, if it has them */
        const struct gcm_upstream *u = im->ops;
        if (!u->bench_seal) return -1;
        u->bench_seal(u, key, iv, buf, bytes, tag);
        return 0;
    }
    return ((const struct gcm_lib *)im->ops)->seal(key, 16, iv, 12, &none, &pt, &ct, tag, 16)
               ? -1
               : 0;
}

const struct family asmdiff_family = {
    .name = "gcm",
    .spec = "NIST SP 800-38D, FIPS-197",
    .impls = impls,
    .nimpls = sizeof impls / sizeof impls[0],
    .bufs = bufs,
    .nbufs = sizeof bufs / sizeof bufs[0],
    .decode = decode,
    .expect = expect,
    .run = run,
    .params = params,
    .vary_secrets = vary_secrets,
    .kat = kat,
    .exhaustive = exhaustive,
    .bench_ops = bench_ops,
    .nbench_ops = 1,
    .bench_run = bench_run,
};
