/* fuzz/gcmsiv.c — the GCM-SIV family (host side): library AES-GCM-SIV against our reference.
 *
 * Property: for both key sizes, every nonce, AAD and plaintext length (empty included), the
 * installed libgcrypt's GCM-SIV gives the reference's ciphertext and tag, decrypts the
 * reference's output to the plaintext, and rejects it — as the reference does — when one bit of
 * the tag, ciphertext or AAD is flipped.  libgcrypt runs at one hardware-feature level per
 * process (ASMDIFF_GCRYPT_DISABLE, see reference/oracles/gcrypt_init.h); the `gcrypt-levels`
 * test walks every level the library reports, so its PCLMUL/VPCLMUL POLYVAL and AES-NI/VAES
 * paths are all fuzzed.  Here the library is the implementation under test: the bug found may
 * be theirs.
 */
#include <string.h>

#include "asmdiff-config.h"
#include "cpu.h"
#include "driver.h"
#include "report.h"
#include "rng.h"
#include "vectors.h"
#include "reference/aes.h"
#include "reference/gcmsiv.h"
#include "reference/oracles/gcmsiv_oracles.h"
#include "reference/oracles/gcrypt_init.h"

#define AAD_MAX 512
#define PT_MAX 1024

typedef int (*seal_fn)(const uint8_t *key, size_t keylen, const uint8_t nonce[12],
                       const uint8_t *aad, size_t aadlen, const uint8_t *pt, size_t ptlen,
                       uint8_t *ct, uint8_t tag[16]);
typedef int (*open_fn)(const uint8_t *key, size_t keylen, const uint8_t nonce[12],
                       const uint8_t *aad, size_t aadlen, const uint8_t *ct, size_t ctlen,
                       const uint8_t tag[16], uint8_t *pt);
struct gcmsiv_ops {
    seal_fn seal;
    open_fn open;
};

static const struct gcmsiv_ops reference = {gcmsiv_encrypt, gcmsiv_decrypt};
static const struct gcmsiv_ops gcrypt = {oracle_gcrypt_gcmsiv_encrypt,
                                         oracle_gcrypt_gcmsiv_decrypt};

static const struct impl impls[] = {
    IMPL("c-reference", 0, IMPL_REFERENCE, &reference),
    IMPL("libgcrypt", 0, IMPL_LIBRARY, &gcrypt, .describe = oracle_gcrypt_describe,
     .label = oracle_gcrypt_label,
         .version = oracle_gcrypt_version, .hwf = oracle_gcrypt_hwf),
};

enum { B_KEY, B_NONCE, B_AAD, B_IN, B_OUT, B_TAG };
static const struct buf_spec bufs[] = {
    {"key", 1, BUF_SECRET}, {"nonce", 1, 0},  {"aad", 1, 0},
    {"input", 1, BUF_SECRET}, {"output", 1, 0}, {"tag", 1, 0}};

enum tamper { TAMPER_NONE, TAMPER_TAG, TAMPER_CT, TAMPER_AAD, TAMPER_COUNT };
static const char *const tamper_names[] = {"none", "tag", "ciphertext", "aad"};

static struct gcmsiv_case {
    size_t keylen, aadlen, ptlen;
    uint8_t key[32], nonce[12], aad[AAD_MAX], pt[PT_MAX];
    enum tamper tamper;
    size_t flip_bit;
} the_case;

static struct gcmsiv_want {
    uint8_t ct[PT_MAX], tag[16];
    uint8_t bad_ct[PT_MAX], bad_tag[16], bad_aad[AAD_MAX]; /* the tampered message */
} want_;

static void *decode(struct input *in)
{
    struct gcmsiv_case *c = &the_case;
    static const size_t widths[] = {16};
    c->keylen = input_bool(in) ? 32 : 16;
    c->aadlen = input_length(in, AAD_MAX, widths, 1);
    c->ptlen = input_length(in, PT_MAX, widths, 1);
    c->tamper = (enum tamper)input_pick(in, TAMPER_COUNT);
    size_t span = c->tamper == TAMPER_TAG ? 16 : c->tamper == TAMPER_CT ? c->ptlen : c->aadlen;
    if (span == 0) c->tamper = TAMPER_TAG, span = 16;
    c->flip_bit = (size_t)input_range(in, 0, 8 * span - 1);
    input_fill_words(in, c->key, c->keylen / 4, 4);
    input_bytes(in, c->nonce, 12);
    input_fill_words(in, c->aad, c->aadlen, 1);
    input_fill_words(in, c->pt, c->ptlen, 1);
    return c;
}

/* The reference's answer, and the reference's own promises: it decrypts its ciphertext, and
 * refuses the tampered message without releasing plaintext. */
static const void *expect(const void *cv)
{
    const struct gcmsiv_case *c = cv;
    static uint8_t back[PT_MAX];
    int rc = gcmsiv_encrypt(c->key, c->keylen, c->nonce, c->aad, c->aadlen, c->pt, c->ptlen,
                            want_.ct, want_.tag);
    rc |= gcmsiv_decrypt(c->key, c->keylen, c->nonce, c->aad, c->aadlen, want_.ct, c->ptlen,
                         want_.tag, back);
    drv_expect_true(!rc && !memcmp(back, c->pt, c->ptlen), "does not decrypt its own ciphertext");
    memcpy(want_.bad_ct, want_.ct, c->ptlen);
    memcpy(want_.bad_tag, want_.tag, 16);
    memcpy(want_.bad_aad, c->aad, c->aadlen);
    if (c->tamper != TAMPER_NONE) {
        uint8_t *t = c->tamper == TAMPER_TAG ? want_.bad_tag
                     : c->tamper == TAMPER_CT ? want_.bad_ct
                                              : want_.bad_aad;
        t[c->flip_bit / 8] ^= (uint8_t)(1u << (c->flip_bit % 8));
        rc = gcmsiv_decrypt(c->key, c->keylen, c->nonce, want_.bad_aad, c->aadlen, want_.bad_ct,
                            c->ptlen, want_.bad_tag, back);
        size_t nz = 0;
        for (size_t i = 0; i < c->ptlen; i++) nz |= back[i];
        drv_expect_true(rc == -1 && !nz, "accepts a tampered message or leaks plaintext");
    }
    return &want_;
}

static void run(const struct impl *im, const void *cv, const void *wv)
{
    const struct gcmsiv_case *c = cv;
    const struct gcmsiv_want *w = wv;
    const struct gcmsiv_ops *ops = im->ops;

    drv_op("seal");
    const uint8_t *key = drv_in(B_KEY, c->key, c->keylen);
    const uint8_t *nonce = drv_in(B_NONCE, c->nonce, 12);
    const uint8_t *aad = drv_in(B_AAD, c->aad, c->aadlen);
    const uint8_t *in = drv_in(B_IN, c->pt, c->ptlen);
    uint8_t *out = drv_out(B_OUT, c->ptlen);
    uint8_t *tag = drv_out(B_TAG, 16);
    int rc = (int)DRV_CALL(ops->seal, key, c->keylen, nonce, aad, c->aadlen, in, c->ptlen, out, tag);
    drv_expect_true(rc == 0, "encryption failed");
    drv_expect_equal("ciphertext", w->ct, out, c->ptlen);
    drv_expect_equal("tag", w->tag, tag, 16);

    drv_op("open");
    in = drv_in(B_IN, w->ct, c->ptlen);
    out = drv_out(B_OUT, c->ptlen);
    tag = drv_in(B_TAG, w->tag, 16);
    rc = (int)DRV_CALL(ops->open, key, c->keylen, nonce, aad, c->aadlen, in, c->ptlen, tag, out);
    drv_expect_true(rc == 0, "rejects the reference's valid ciphertext");
    drv_expect_equal("plaintext", c->pt, out, c->ptlen);

    if (c->tamper == TAMPER_NONE) return;
    drv_op("open of a message with one bit flipped");
    aad = drv_in(B_AAD, w->bad_aad, c->aadlen);
    in = drv_in(B_IN, w->bad_ct, c->ptlen);
    out = drv_out(B_OUT, c->ptlen);
    tag = drv_in(B_TAG, w->bad_tag, 16);
    rc = (int)DRV_CALL(ops->open, key, c->keylen, nonce, aad, c->aadlen, in, c->ptlen, tag, out);
    drv_expect_true(rc == -1, rc ? "fails on a tampered message with an error other than an "
                                   "authentication failure"
                                 : "accepts a tampered message");
}

static void params(const void *cv)
{
    const struct gcmsiv_case *c = cv;
    report_param("key size", "%zu bits", 8 * c->keylen);
    report_param("aad length", "%zu", c->aadlen);
    report_param("pt length", "%zu", c->ptlen);
    report_param("tamper", "%s, bit %zu", tamper_names[c->tamper], c->flip_bit);
    report_hex("key", c->key, c->keylen);
    report_hex("nonce", c->nonce, 12);
    report_hex("aad", c->aad, c->aadlen < 256 ? c->aadlen : 256);
    report_hex("plaintext", c->pt, c->ptlen < 256 ? c->ptlen : 256);
}

/* ---- RFC 8452 Appendix C vectors: the reference's intermediate values, then everything;
 * and FIPS-197's AES vectors for the AES the reference builds on ---- */

static int kat(const char *srcdir)
{
    struct gcmsiv_case *c = &the_case;
    static uint8_t result[PT_MAX + 16], ct[PT_MAX];
    uint8_t want_auth[16], want_enc[32], want_pv[16], want_tag[16];
    uint8_t auth[16], enc[32], pv[16], tag[16];
    struct vec_file vf;
    int count = 0;
    if (vec_open(&vf, srcdir, "corpus/gcmsiv/rfc8452.txt")) return -1;
    while (vec_next(&vf)) {
        memset(c, 0, sizeof *c);
        long kl = vec_get_hex(&vf, "Key", c->key, sizeof c->key);
        long nl = vec_get_hex(&vf, "Nonce", c->nonce, sizeof c->nonce);
        long al = vec_get_hex(&vf, "AAD", c->aad, sizeof c->aad);
        long pl = vec_get_hex(&vf, "Plaintext", c->pt, sizeof c->pt);
        long akl = vec_get_hex(&vf, "AuthKey", want_auth, sizeof want_auth);
        long ekl = vec_get_hex(&vf, "EncKey", want_enc, sizeof want_enc);
        long pvl = vec_get_hex(&vf, "PolyvalResult", want_pv, sizeof want_pv);
        long tl = vec_get_hex(&vf, "Tag", want_tag, sizeof want_tag);
        long rl = vec_get_hex(&vf, "Result", result, sizeof result);
        vec_done(&vf);
        if ((kl != 16 && kl != 32) || nl != 12 || al < 0 || pl < 0 || akl != 16 || ekl != kl ||
            pvl != 16 || tl != 16 || rl != pl + 16) {
            drv_vector_errors(1);
            continue;
        }
        c->keylen = (size_t)kl, c->aadlen = (size_t)al, c->ptlen = (size_t)pl;
        count++;
        gcmsiv_derive_keys(c->key, c->keylen, c->nonce, auth, enc);
        gcmsiv_polyval(auth, c->aad, c->aadlen, c->pt, c->ptlen, pv);
        gcmsiv_encrypt(c->key, c->keylen, c->nonce, c->aad, c->aadlen, c->pt, c->ptlen, ct, tag);
        if (!drv_reference_agrees(vf.path, "message-authentication key", want_auth, auth, 16) ||
            !drv_reference_agrees(vf.path, "message-encryption key", want_enc, enc, c->keylen) ||
            !drv_reference_agrees(vf.path, "POLYVAL result", want_pv, pv, 16) ||
            !drv_reference_agrees(vf.path, "tag", want_tag, tag, 16) ||
            !drv_reference_agrees(vf.path, "ciphertext", result, ct, c->ptlen) ||
            !drv_reference_agrees(vf.path, "tag in Result", result + c->ptlen, want_tag, 16))
            continue;
        for (int t = 0; t < TAMPER_COUNT; t++) {
            c->tamper = (enum tamper)t;
            if ((t == TAMPER_CT && !c->ptlen) || (t == TAMPER_AAD && !c->aadlen)) continue;
            c->flip_bit = 5;
            drv_check(c);
        }
    }
    drv_vector_errors(vec_close(&vf));

    if (vec_open(&vf, srcdir, "corpus/gcmsiv/aes-fips197.txt")) return -1;
    while (vec_next(&vf)) {
        uint8_t key[32], pt[16], want[16], got[16];
        long kl = vec_get_hex(&vf, "Key", key, sizeof key);
        long pl = vec_get_hex(&vf, "Plaintext", pt, sizeof pt);
        long cl = vec_get_hex(&vf, "Ciphertext", want, sizeof want);
        vec_done(&vf);
        if ((kl != 16 && kl != 32) || pl != 16 || cl != 16) {
            drv_vector_errors(1);
            continue;
        }
        struct aes_key k;
        aes_expand_key(&k, key, (size_t)kl);
        aes_encrypt_block(&k, got, pt);
        drv_reference_agrees(vf.path, "AES ciphertext", want, got, 16);
        count++;
    }
    drv_vector_errors(vec_close(&vf));
    return count;
}

/* ---- exhaustive: the AES S-box from its definition (FIPS-197 5.1.1) over all 256 bytes ---- */

static uint8_t gf256_mul(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    for (int i = 0; i < 8; i++) {
        if (b & 1) r ^= a;
        a = (uint8_t)((a << 1) ^ (a & 0x80 ? 0x1b : 0));
        b >>= 1;
    }
    return r;
}

static int exhaustive(void)
{
    int fails = 0;
    for (int x = 0; x < 256; x++) {
        uint8_t inv = 0; /* the multiplicative inverse, 0 for 0 */
        for (int y = 1; y < 256 && x; y++)
            if (gf256_mul((uint8_t)x, (uint8_t)y) == 1) inv = (uint8_t)y;
        uint8_t s = inv;
        for (int r = 1; r <= 4; r++) s ^= (uint8_t)(inv << r | inv >> (8 - r));
        s ^= 0x63;
        if (aes_sbox[x] != s) {
            fprintf(stderr, "gcmsiv: the reference AES S-box differs from FIPS-197 at 0x%02x\n", x);
            fails++;
        }
    }
    /* and the whole AEAD on every length 0..64 of plaintext and AAD, through the driver */
    struct gcmsiv_case *c = &the_case;
    uint64_t x = 0x67636d736976ull;
    for (size_t len = 0; len <= 64; len++) {
        memset(c, 0, sizeof *c);
        c->keylen = len % 2 ? 32 : 16;
        c->ptlen = len, c->aadlen = 64 - len;
        rng_fill(&x, c->key, 32);
        rng_fill(&x, c->nonce, 12);
        rng_fill(&x, c->pt, len);
        rng_fill(&x, c->aad, c->aadlen);
        c->tamper = TAMPER_TAG, c->flip_bit = len;
        drv_check(c);
    }
    return fails;
}

/* ---- bench ---- */

static const struct bench_op bench_ops[] = {{"AES128-GCM-SIV enc", 16, 4096}};

static int bench_run(const struct impl *im, size_t op, uint8_t *buf, size_t bytes)
{
    static const uint8_t key[16] = {1}, nonce[12] = {3};
    static uint8_t out[4096];
    uint8_t tag[16];
    (void)op;
    ((const struct gcmsiv_ops *)im->ops)->seal(key, 16, nonce, NULL, 0, buf, bytes, out, tag);
    return 0;
}

const struct family asmdiff_family = {
    .name = "gcmsiv",
    .spec = "RFC 8452, FIPS-197",
    .impls = impls,
    .nimpls = sizeof impls / sizeof impls[0],
    .bufs = bufs,
    .nbufs = sizeof bufs / sizeof bufs[0],
    .decode = decode,
    .expect = expect,
    .run = run,
    .params = params,
    .kat = kat,
    .exhaustive = exhaustive,
    .bench_ops = bench_ops,
    .nbench_ops = 1,
    .bench_run = bench_run,
};
