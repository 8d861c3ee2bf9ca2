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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmdiff-config.h"
#include "bench.h"
#include "cpu.h"
#include "family.h"
#include "gcmsiv_oracles.h"
#include "guard.h"
#include "input.h"
#include "report.h"
#include "vectors.h"
#include "reference/gcmsiv.h"

#define AAD_MAX 512
#define PT_MAX 1024

typedef int (*seal_fn)(const uint8_t *key, size_t keylen, const uint8_t nonce[12],
                       const uint8_t *aad, size_t aadlen, const uint8_t *pt, size_t ptlen,
                       uint8_t *ct, uint8_t tag[16]);
typedef int (*open_fn)(const uint8_t *key, size_t keylen, const uint8_t nonce[12],
                       const uint8_t *aad, size_t aadlen, const uint8_t *ct, size_t ctlen,
                       const uint8_t tag[16], uint8_t *pt);

struct gcmsiv_impl {
    struct impl_info info;
    seal_fn seal;
    open_fn open;
};

static const struct gcmsiv_impl impls[] = {
#if ASMDIFF_HAVE_GCRYPT
    {{"libgcrypt", 0}, oracle_gcrypt_gcmsiv_encrypt, oracle_gcrypt_gcmsiv_decrypt},
#endif
    {{"", 0}, NULL, NULL},
};
#define NIMPLS (sizeof impls / sizeof impls[0] - 1)

ASMDIFF_DEFINE_CRASH(gcmsiv)

enum tamper { TAMPER_NONE, TAMPER_TAG, TAMPER_CT, TAMPER_AAD, TAMPER_COUNT };
static const char *const tamper_names[] = {"none", "tag", "ciphertext", "aad"};

struct gcmsiv_case {
    size_t keylen, aadlen, ptlen;
    uint8_t key[32], nonce[12], aad[AAD_MAX], pt[PT_MAX];
    enum tamper tamper;
    size_t flip_bit;
    enum guard_place place;
    size_t offset;
};

static struct gbuf g_key, g_nonce, g_aad, g_in, g_out;

static void report_case(const struct gcmsiv_case *c, const char *impl, const char *what)
{
    char title[200];
    snprintf(title, sizeof title, "%s: %s", impl, what);
    report_begin("gcmsiv", title);
    report_param("implementation", "%s", impl);
#if ASMDIFF_HAVE_GCRYPT
    report_param("library", "%s", oracle_gcrypt_describe());
#endif
    report_param("key size", "%zu bits", 8 * c->keylen);
    report_param("aad length", "%zu", c->aadlen);
    report_param("pt length", "%zu", c->ptlen);
    report_param("tamper", "%s, bit %zu", tamper_names[c->tamper], c->flip_bit);
    report_param("buffers", "%s, offset %zu", guard_place_name(c->place), c->offset);
    report_hex("key", c->key, c->keylen);
    report_hex("nonce", c->nonce, 12);
    report_hex("aad", c->aad, c->aadlen < 256 ? c->aadlen : 256);
    report_hex("plaintext", c->pt, c->ptlen < 256 ? c->ptlen : 256);
}

/* Put the inputs into guarded buffers: libraries run assembly that ASan cannot see into. */
static void place_inputs(const struct gcmsiv_case *c, const uint8_t *in, size_t inlen,
                         const uint8_t **key, const uint8_t **nonce, const uint8_t **aad,
                         const uint8_t **inp, uint8_t **out)
{
    uint8_t *k = gbuf_place(&g_key, c->keylen, c->place, c->offset);
    uint8_t *n = gbuf_place(&g_nonce, 12, c->place, c->offset);
    uint8_t *a = gbuf_place(&g_aad, c->aadlen, c->place, c->offset);
    uint8_t *i = gbuf_place(&g_in, inlen, c->place, c->offset);
    *out = gbuf_place(&g_out, inlen, c->place, c->offset);
    memcpy(k, c->key, c->keylen);
    memcpy(n, c->nonce, 12);
    memcpy(a, c->aad, c->aadlen);
    memcpy(i, in, inlen);
    *key = k, *nonce = n, *aad = a, *inp = i;
}

/* in: what the input buffer held (plaintext or ciphertext) */
static void check_canaries(const struct gcmsiv_case *c, const char *impl, const uint8_t *in)
{
    const struct gbuf_use bufs[] = {{"key", &g_key, c->key}, {"nonce", &g_nonce, c->nonce},
                                     {"aad", &g_aad, c->aad}, {"input", &g_in, in},
                                     {"output", &g_out, NULL}};
    char what[128];
    size_t bad;
    if (gbuf_after_call(bufs, 5, what, sizeof what, &bad)) {
        report_case(c, impl, what);
        report_end("gcmsiv", asmdiff_mismatch_gcmsiv);
    }
}

static void check_impl(const struct gcmsiv_case *c, const struct gcmsiv_impl *m,
                       const uint8_t *ct_ref, const uint8_t tag_ref[16])
{
    static uint8_t buf[PT_MAX];
    const uint8_t *key, *nonce, *aad, *in;
    uint8_t *out, tag[16];
    const char *name = m->info.name;

    place_inputs(c, c->pt, c->ptlen, &key, &nonce, &aad, &in, &out);
    int rc = m->seal(key, c->keylen, nonce, aad, c->aadlen, in, c->ptlen, out, tag);
    if (rc || memcmp(out, ct_ref, c->ptlen) || memcmp(tag, tag_ref, 16)) {
        report_case(c, name, rc ? "encryption failed" : "encryption differs from the reference");
        report_diff("reference ct", ct_ref, name, out, c->ptlen);
        report_diff("reference tag", tag_ref, name, tag, 16);
        report_end("gcmsiv", asmdiff_mismatch_gcmsiv);
    }
    check_canaries(c, name, c->pt);

    place_inputs(c, ct_ref, c->ptlen, &key, &nonce, &aad, &in, &out);
    rc = m->open(key, c->keylen, nonce, aad, c->aadlen, in, c->ptlen, tag_ref, out);
    if (rc || memcmp(out, c->pt, c->ptlen)) {
        report_case(c, name, rc ? "rejects the reference's valid ciphertext"
                                : "decryption differs from the plaintext");
        if (!rc) report_diff("plaintext", c->pt, name, out, c->ptlen);
        report_end("gcmsiv", asmdiff_mismatch_gcmsiv);
    }
    check_canaries(c, name, ct_ref);

    if (c->tamper == TAMPER_NONE) return;
    /* One flipped bit: both must refuse, and the reference must not release plaintext. */
    struct gcmsiv_case t = *c;
    uint8_t ct[PT_MAX], tg[16];
    memcpy(ct, ct_ref, c->ptlen);
    memcpy(tg, tag_ref, 16);
    uint8_t *target = c->tamper == TAMPER_TAG ? tg : c->tamper == TAMPER_CT ? ct : t.aad;
    target[c->flip_bit / 8] ^= (uint8_t)(1u << (c->flip_bit % 8));
    int ref_rc = gcmsiv_decrypt(t.key, t.keylen, t.nonce, t.aad, t.aadlen, ct, t.ptlen, tg, buf);
    size_t nz = 0;
    for (size_t i = 0; i < t.ptlen; i++) nz |= buf[i];
    if (ref_rc != -1 || nz) {
        report_case(c, "c-reference", "accepts a tampered message or leaks plaintext");
        report_end("gcmsiv", asmdiff_mismatch_gcmsiv);
    }
    place_inputs(&t, ct, t.ptlen, &key, &nonce, &aad, &in, &out);
    rc = m->open(key, t.keylen, nonce, aad, t.aadlen, in, t.ptlen, tg, out);
    if (rc != -1) {
        report_case(c, name, rc ? "fails on a tampered message with an error other than "
                                  "an authentication failure"
                                : "accepts a tampered message");
        report_end("gcmsiv", asmdiff_mismatch_gcmsiv);
    }
}

/* The one comparison path. */
static void check_case(const struct gcmsiv_case *c)
{
    static uint8_t ct_ref[PT_MAX], back[PT_MAX];
    uint8_t tag_ref[16];
    if (gcmsiv_encrypt(c->key, c->keylen, c->nonce, c->aad, c->aadlen, c->pt, c->ptlen, ct_ref,
                       tag_ref) ||
        gcmsiv_decrypt(c->key, c->keylen, c->nonce, c->aad, c->aadlen, ct_ref, c->ptlen, tag_ref,
                       back) ||
        memcmp(back, c->pt, c->ptlen)) {
        report_case(c, "c-reference", "does not decrypt its own ciphertext");
        report_end("gcmsiv", asmdiff_mismatch_gcmsiv);
    }
    for (size_t i = 0; i < NIMPLS; i++) check_impl(c, &impls[i], ct_ref, tag_ref);
}

static int gcmsiv_one_input(const uint8_t *data, size_t size)
{
    static struct gcmsiv_case c;
    static const size_t widths[] = {16};
    struct input in;
    input_init(&in, data, size);
    c.keylen = input_bool(&in) ? 32 : 16;
    c.aadlen = input_length(&in, AAD_MAX, widths, 1);
    c.ptlen = input_length(&in, PT_MAX, widths, 1);
    c.tamper = (enum tamper)input_pick(&in, TAMPER_COUNT);
    size_t span = c.tamper == TAMPER_TAG ? 16 : c.tamper == TAMPER_CT ? c.ptlen : c.aadlen;
    if (span == 0) c.tamper = TAMPER_TAG, span = 16;
    c.flip_bit = (size_t)input_range(&in, 0, 8 * span - 1);
    c.place = input_bool(&in) ? GUARD_HEAD : GUARD_TAIL;
    c.offset = input_pick(&in, 4) == 0 ? (size_t)input_range(&in, 1, 63) : 0;
    input_fill_words(&in, c.key, c.keylen / 4, 4);
    input_bytes(&in, c.nonce, 12);
    input_fill_words(&in, c.aad, c.aadlen, 1);
    input_fill_words(&in, c.pt, c.ptlen, 1);
    check_case(&c);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return gcmsiv_one_input(data, size);
}

/* ---- RFC 8452 Appendix C vectors: the reference's intermediate values, then everything ---- */

static int gcmsiv_kat(const char *srcdir)
{
    static struct gcmsiv_case c;
    static uint8_t result[PT_MAX + 16], ct[PT_MAX];
    uint8_t want_auth[16], want_enc[32], want_pv[16], want_tag[16];
    uint8_t auth[16], enc[32], pv[16], tag[16];
    struct vec_file vf;
    int fails = 0, count = 0;
    if (vec_open(&vf, srcdir, "corpus/gcmsiv/rfc8452.txt")) return 1;
    while (vec_next(&vf)) {
        memset(&c, 0, sizeof c);
        long kl = vec_get_hex(&vf, "Key", c.key, sizeof c.key);
        long nl = vec_get_hex(&vf, "Nonce", c.nonce, sizeof c.nonce);
        long al = vec_get_hex(&vf, "AAD", c.aad, sizeof c.aad);
        long pl = vec_get_hex(&vf, "Plaintext", c.pt, sizeof c.pt);
        long akl = vec_get_hex(&vf, "AuthKey", want_auth, sizeof want_auth);
        long ekl = vec_get_hex(&vf, "EncKey", want_enc, sizeof want_enc);
        long pvl = vec_get_hex(&vf, "PolyvalResult", want_pv, sizeof want_pv);
        long tl = vec_get_hex(&vf, "Tag", want_tag, sizeof want_tag);
        long rl = vec_get_hex(&vf, "Result", result, sizeof result);
        vec_done(&vf);
        if ((kl != 16 && kl != 32) || nl != 12 || al < 0 || pl < 0 || akl != 16 || ekl != kl ||
            pvl != 16 || tl != 16 || rl != pl + 16) {
            fails++;
            continue;
        }
        c.keylen = (size_t)kl, c.aadlen = (size_t)al, c.ptlen = (size_t)pl;
        gcmsiv_derive_keys(c.key, c.keylen, c.nonce, auth, enc);
        gcmsiv_polyval(auth, c.aad, c.aadlen, c.pt, c.ptlen, pv);
        gcmsiv_encrypt(c.key, c.keylen, c.nonce, c.aad, c.aadlen, c.pt, c.ptlen, ct, tag);
        if (memcmp(auth, want_auth, 16) || memcmp(enc, want_enc, c.keylen) ||
            memcmp(pv, want_pv, 16) || memcmp(tag, want_tag, 16) ||
            memcmp(ct, result, c.ptlen) || memcmp(result + c.ptlen, want_tag, 16)) {
            fprintf(stderr, "%s:%d: the reference differs from RFC 8452\n", vf.path, vf.b.line);
            fails++;
            continue;
        }
        for (int t = 0; t < TAMPER_COUNT; t++) {
            c.tamper = (enum tamper)t;
            if ((t == TAMPER_CT && !c.ptlen) || (t == TAMPER_AAD && !c.aadlen)) continue;
            c.flip_bit = 5;
            c.place = t % 2 ? GUARD_HEAD : GUARD_TAIL;
            check_case(&c);
        }
        count++;
    }
    fails += vec_close(&vf);
    printf("gcmsiv kat: %d RFC 8452 vectors on the reference and %zu implementations (%s), "
           "%d failures\n", count, NIMPLS,
#if ASMDIFF_HAVE_GCRYPT
           oracle_gcrypt_describe(),
#else
           "libgcrypt not built",
#endif
           fails);
    return fails || !count;
}

/* ---- bench ---- */

struct bench_ctx {
    seal_fn seal;
    uint8_t *buf, *out;
};

static void bench_seal(void *ctx, size_t bytes)
{
    static const uint8_t key[16] = {1}, nonce[12] = {3};
    struct bench_ctx *b = ctx;
    uint8_t tag[16];
    b->seal(key, 16, nonce, NULL, 0, b->buf, bytes, b->out, tag);
}

static int gcmsiv_bench(FILE *out, int csv)
{
    static uint8_t buf[4096], dst[4096];
    bench_table_begin(out, "gcmsiv", csv);
    struct bench_ctx ref = {gcmsiv_encrypt, buf, dst};
    struct bench_result r = bench_slope(bench_seal, &ref, 16, sizeof buf);
    bench_table_row(out, "gcmsiv", "c-reference", "AES128-GCM-SIV enc", &r, csv);
    for (size_t i = 0; i < NIMPLS; i++) {
        struct bench_ctx b = {impls[i].seal, buf, dst};
        r = bench_slope(bench_seal, &b, 16, sizeof buf);
        bench_table_row(out, "gcmsiv", impls[i].info.name, "AES128-GCM-SIV enc", &r, csv);
    }
    bench_table_end(out, csv);
    return 0;
}

static const struct impl_info *gcmsiv_impl(size_t i)
{
    return &impls[i].info;
}

static void gcmsiv_list_extra(FILE *out)
{
    fprintf(out, "  %-28s %-10s (authoritative; RFC 8452)\n", "c-reference", "reference");
#if ASMDIFF_HAVE_GCRYPT
    fprintf(out, "  %-28s %-10s %s\n", "libgcrypt", "level", oracle_gcrypt_describe());
#else
    fprintf(out, "  %-28s %-10s not built: dependency libgcrypt not found (libgcrypt20-dev)\n",
            "libgcrypt", "library");
#endif
}

const struct family asmdiff_family = {
    .name = "gcmsiv",
    .one_input = gcmsiv_one_input,
    .nimpls = NIMPLS,
    .impl = gcmsiv_impl,
    .list_extra = gcmsiv_list_extra,
    .kat = gcmsiv_kat,
    .exhaustive = NULL,
    .bench = gcmsiv_bench,
};
