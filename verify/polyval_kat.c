/* Known answers and cross-checks for the plain C POLYVAL, AES and AES-GCM-SIV
 * in reference/: the properties checked are
 *   - the AES S-box table equals its FIPS-197 definition on all 256 bytes,
 *     and AES-128/256 give the FIPS-197 Appendix B and C outputs;
 *   - POLYVAL gives RFC 8452 Appendix A's worked example, whole or split
 *     across updates, and dot() has x^128 as its identity and commutes;
 *   - AES-GCM-SIV gives every RFC 8452 Appendix C value carried in
 *     corpus/gcmsiv/rfc8452.txt (keys, POLYVAL result, tag, ciphertext), and
 *     decrypts it back;
 *   - decrypt(encrypt(x)) == x, also in place, and a flipped bit in tag,
 *     ciphertext or AAD is rejected with the plaintext zeroed;
 *   - the installed libgcrypt's GCM-SIV agrees on random keys, nonces, AAD
 *     and plaintext lengths 0..100, both directions.
 *
 * Usage: polyval_kat [VECTOR_FILE [SEED]]; VECTOR_FILE defaults to
 * corpus/gcmsiv/rfc8452.txt, relative to the repository root. Prints one line
 * per group, then "N passed, M failed"; exits 0 only if nothing failed, 99 if
 * the vector file cannot be read or parsed. */
#include <gcrypt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aes.h"
#include "gcmsiv.h"
#include "polyval.h"

/* ---- outcome bookkeeping: a case passes when none of its checks failed ---- */

static int total_passed, total_failed;
static int group_passed, group_failed;
static const char *group_name;
static int case_ok;

static void group_begin(const char *name)
{
    group_name = name;
    group_passed = group_failed = 0;
}

static void group_end(void)
{
    printf("%-34s %d passed, %d failed\n", group_name, group_passed, group_failed);
    total_passed += group_passed;
    total_failed += group_failed;
}

static void case_begin(void)
{
    case_ok = 1;
}

static void case_end(void)
{
    if (case_ok)
        group_passed++;
    else
        group_failed++;
}

static void fail(const char *fmt, ...)
{
    va_list ap;
    case_ok = 0;
    printf("FAIL [%s] ", group_name);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

static void print_hex(const char *label, const uint8_t *p, size_t n)
{
    printf("    %-9s", label);
    for (size_t i = 0; i < n; i++)
        printf("%02x", p[i]);
    printf("\n");
}

/* One message per mismatch, naming what differed and the first differing byte. */
static void expect_bytes(const char *what, const uint8_t *got, const uint8_t *want, size_t n)
{
    if (n == 0 || memcmp(got, want, n) == 0)
        return;
    size_t at = 0;
    while (got[at] == want[at])
        at++;
    fail("%s differs at byte %zu of %zu", what, at, n);
    print_hex("got", got, n);
    print_hex("expected", want, n);
}

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

static int hex_decode(const char *hex, uint8_t *out, size_t max, size_t *len)
{
    size_t n = strlen(hex);
    if (n % 2 != 0 || n / 2 > max)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return -1;
        out[i] = (uint8_t)v;
    }
    *len = n / 2;
    return 0;
}

/* Test data from a hex literal that is known to be well formed. */
static void from_hex(uint8_t *out, size_t n, const char *hex)
{
    size_t len = 0;
    if (hex_decode(hex, out, n, &len) != 0 || len != n) {
        fprintf(stderr, "polyval_kat: bad built-in hex literal %s\n", hex);
        exit(99);
    }
}

/* splitmix64: a fixed seed makes every run, and every failure, repeatable. */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static void rng_fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rng_next();
}

static size_t rng_below(size_t n)
{
    return (size_t)(rng_next() % n);
}

/* ---- AES: S-box definition, FIPS-197 vectors ---- */

static uint8_t gf256_mul(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    while (b) {
        if (b & 1)
            r ^= a;
        a = (uint8_t)((a << 1) ^ ((a >> 7) * 0x1b));
        b >>= 1;
    }
    return r;
}

static uint8_t rotl8(uint8_t v, int n)
{
    return (uint8_t)((v << n) | (v >> (8 - n)));
}

/* FIPS-197 5.1.1: multiplicative inverse (b^254; 0 maps to 0), then the
 * affine map b ^ rotl(b,1) ^ rotl(b,2) ^ rotl(b,3) ^ rotl(b,4) ^ 0x63. */
static uint8_t sbox_from_definition(uint8_t x)
{
    uint8_t inv = 1, base = x;
    for (int e = 254; e; e >>= 1) {
        if (e & 1)
            inv = gf256_mul(inv, base);
        base = gf256_mul(base, base);
    }
    return inv ^ rotl8(inv, 1) ^ rotl8(inv, 2) ^ rotl8(inv, 3) ^ rotl8(inv, 4) ^ 0x63;
}

static void test_aes(void)
{
    group_begin("aes sbox (all 256 inputs)");
    case_begin();
    for (int x = 0; x < 256; x++) {
        uint8_t want = sbox_from_definition((uint8_t)x);
        if (aes_sbox[x] != want)
            fail("aes_sbox[0x%02x] = 0x%02x, definition gives 0x%02x", x, aes_sbox[x], want);
    }
    case_end();
    group_end();

    /* FIPS-197 Appendix B (cipher example), Appendix C.1 and C.3. */
    static const struct {
        const char *name, *key, *pt, *ct;
    } kat[] = {
        { "FIPS-197 B", "2b7e151628aed2a6abf7158809cf4f3c", "3243f6a8885a308d313198a2e0370734",
          "3925841d02dc09fbdc118597196a0b32" },
        { "FIPS-197 C.1 AES-128", "000102030405060708090a0b0c0d0e0f",
          "00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a" },
        { "FIPS-197 C.3 AES-256",
          "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
          "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089" },
    };
    group_begin("aes FIPS-197 vectors");
    for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
        uint8_t key[32], pt[16], ct[16], out[16];
        size_t keylen = strlen(kat[i].key) / 2;
        struct aes_key k;
        case_begin();
        from_hex(key, keylen, kat[i].key);
        from_hex(pt, 16, kat[i].pt);
        from_hex(ct, 16, kat[i].ct);
        if (aes_expand_key(&k, key, keylen) != 0) {
            fail("%s: key expansion refused a %zu-byte key", kat[i].name, keylen);
        } else {
            aes_encrypt_block(&k, out, pt);
            expect_bytes(kat[i].name, out, ct, 16);
            memcpy(out, pt, 16);
            aes_encrypt_block(&k, out, out);
            expect_bytes("in-place encryption", out, ct, 16);
        }
        case_end();
    }

    /* FIPS-197 Appendix A.1: the last round key of the AES-128 expansion
     * (words w40..w43). */
    {
        uint8_t key[16], last[16];
        struct aes_key k;
        case_begin();
        from_hex(key, 16, "2b7e151628aed2a6abf7158809cf4f3c");
        from_hex(last, 16, "d014f9a8c9ee2589e13f0cc8b6630ca6");
        aes_expand_key(&k, key, 16);
        if (k.rounds != 10)
            fail("AES-128 has %d rounds, expected 10", k.rounds);
        expect_bytes("FIPS-197 A.1 round key 10", k.rk[10], last, 16);
        case_end();
    }
    {
        uint8_t key[24] = { 0 };
        struct aes_key k;
        case_begin();
        if (aes_expand_key(&k, key, 24) != -1)
            fail("a 24-byte key was accepted; only AES-128 and AES-256 are provided");
        case_end();
    }
    group_end();
}

/* ---- POLYVAL ---- */

static void test_polyval(void)
{
    uint8_t h[16], x[32], want[16], got[16];

    group_begin("polyval RFC 8452 Appendix A");
    from_hex(h, 16, "25629347589242761d31f826ba4b757b");
    from_hex(x, 16, "4f4f95668c83dfb6401762bb2d01a262");
    from_hex(x + 16, 16, "d1a24ddd2721d006bbe45f20d3c9f362");
    from_hex(want, 16, "f7a3b47b846119fae5b7866cf5e5b77e");

    struct polyval_ctx c;
    case_begin();
    polyval_init(&c, h);
    polyval_update(&c, x, 2);
    polyval_final(&c, got);
    expect_bytes("POLYVAL(H, X_1, X_2), one update", got, want, 16);
    case_end();

    case_begin();
    polyval_init(&c, h);
    polyval_update(&c, x, 0);
    polyval_update(&c, x, 1);
    polyval_update(&c, x + 16, 1);
    polyval_final(&c, got);
    expect_bytes("POLYVAL(H, X_1, X_2), block by block", got, want, 16);
    case_end();

    /* By section 3's definition, S_2 = dot(dot(X_1, H) + X_2, H). */
    case_begin();
    polyval_mul(got, x, h);
    for (int i = 0; i < 16; i++)
        got[i] ^= x[16 + i];
    polyval_mul(got, got, h);
    expect_bytes("dot(dot(X_1, H) + X_2, H)", got, want, 16);
    case_end();
    group_end();

    group_begin("polyval properties (random)");
    /* x^128 mod p = x^127 + x^126 + x^121 + 1 is dot()'s identity:
     * dot(a, x^128) = a * x^128 * x^-128 = a. */
    uint8_t one[16] = { 0 };
    one[0] = 0x01;
    one[15] = 0xc2;
    for (int t = 0; t < 200; t++) {
        uint8_t a[16], b[16], ab[16], ba[16];
        case_begin();
        rng_fill(a, 16);
        rng_fill(b, 16);
        polyval_mul(got, a, one);
        expect_bytes("dot(a, x^128) == a", got, a, 16);
        polyval_mul(ab, a, b);
        polyval_mul(ba, b, a);
        expect_bytes("dot(a, b) == dot(b, a)", ab, ba, 16);
        case_end();
    }
    /* Any split of the blocks over updates gives the same result. */
    for (int t = 0; t < 100; t++) {
        uint8_t key[16], msg[16 * 40], whole[16];
        size_t n = rng_below(41);
        case_begin();
        rng_fill(key, 16);
        rng_fill(msg, sizeof msg);
        polyval_init(&c, key);
        polyval_update(&c, msg, n);
        polyval_final(&c, whole);
        polyval_init(&c, key);
        for (size_t done = 0; done < n;) {
            size_t step = rng_below(n - done + 1);
            polyval_update(&c, msg + 16 * done, step);
            done += step;
        }
        polyval_final(&c, got);
        expect_bytes("POLYVAL split across updates", got, whole, 16);
        case_end();
    }
    group_end();
}

/* ---- RFC 8452 Appendix C from the vector file ---- */

#define MAX_ATTRS 16
#define MAX_VALUE 256

struct attr {
    char name[32];
    uint8_t value[MAX_VALUE];
    size_t len;
    int used;
};

struct vector {
    int line;
    int nattrs;
    struct attr attrs[MAX_ATTRS];
};

/* Marks the attribute consumed; a missing one fails the case. */
static const struct attr *get_attr(struct vector *v, const char *name)
{
    for (int i = 0; i < v->nattrs; i++) {
        if (strcmp(v->attrs[i].name, name) == 0) {
            v->attrs[i].used = 1;
            return &v->attrs[i];
        }
    }
    fail("vector at line %d has no %s", v->line, name);
    return NULL;
}

static void flip_bit(uint8_t *p, size_t nbits)
{
    size_t bit = rng_below(nbits);
    p[bit / 8] ^= (uint8_t)(1u << (bit % 8));
}

/* Every check one RFC vector allows: derived keys, POLYVAL result, tag and
 * ciphertext, decryption back to the plaintext, and rejection of a flipped bit. */
static void run_vector(struct vector *v)
{
    const struct attr *key = get_attr(v, "Key"), *nonce = get_attr(v, "Nonce");
    const struct attr *aad = get_attr(v, "AAD"), *pt = get_attr(v, "Plaintext");
    const struct attr *auth = get_attr(v, "AuthKey"), *enc = get_attr(v, "EncKey");
    const struct attr *pv = get_attr(v, "PolyvalResult"), *tag = get_attr(v, "Tag");
    const struct attr *result = get_attr(v, "Result");
    if (!key || !nonce || !aad || !pt || !auth || !enc || !pv || !tag || !result)
        return;
    if (nonce->len != 12 || auth->len != 16 || pv->len != 16 || tag->len != 16
        || enc->len != key->len || result->len != pt->len + 16) {
        fail("vector at line %d: field lengths do not fit together", v->line);
        return;
    }

    uint8_t got_auth[16], got_enc[32], got_pv[16], got_tag[16];
    uint8_t ct[MAX_VALUE], back[MAX_VALUE];

    if (gcmsiv_derive_keys(key->value, key->len, nonce->value, got_auth, got_enc) != 0) {
        fail("vector at line %d: key of %zu bytes refused", v->line, key->len);
        return;
    }
    expect_bytes("record authentication key", got_auth, auth->value, 16);
    expect_bytes("record encryption key", got_enc, enc->value, enc->len);
    gcmsiv_polyval(auth->value, aad->value, aad->len, pt->value, pt->len, got_pv);
    expect_bytes("POLYVAL result", got_pv, pv->value, 16);

    if (gcmsiv_encrypt(key->value, key->len, nonce->value, aad->value, aad->len, pt->value,
                       pt->len, ct, got_tag) != 0) {
        fail("vector at line %d: encryption refused", v->line);
        return;
    }
    expect_bytes("tag", got_tag, tag->value, 16);
    expect_bytes("tag at the end of Result", result->value + pt->len, tag->value, 16);
    expect_bytes("ciphertext", ct, result->value, pt->len);

    if (gcmsiv_decrypt(key->value, key->len, nonce->value, aad->value, aad->len, result->value,
                       pt->len, result->value + pt->len, back) != 0)
        fail("vector at line %d: the RFC's ciphertext and tag were rejected", v->line);
    else
        expect_bytes("decrypted plaintext", back, pt->value, pt->len);

    uint8_t bad_tag[16];
    memcpy(bad_tag, tag->value, 16);
    flip_bit(bad_tag, 128);
    memset(back, 0xa5, sizeof back);
    if (gcmsiv_decrypt(key->value, key->len, nonce->value, aad->value, aad->len, result->value,
                       pt->len, bad_tag, back) != -1)
        fail("vector at line %d: a flipped tag bit was accepted", v->line);
    else if (!all_zero(back, pt->len))
        fail("vector at line %d: plaintext not zeroed after a rejected tag", v->line);
}

static int read_vectors(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "polyval_kat: cannot open %s (run from the repository root or pass "
                        "the vector file)\n", path);
        return -1;
    }

    static struct vector v;
    char line[1024], section[128] = "";
    int lineno = 0, in_vector = 0, status = 0, nvectors = 0;

    for (;;) {
        char *got = fgets(line, sizeof line, f);
        if (got)
            lineno++;
        size_t n = got ? strlen(line) : 0;
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
            line[--n] = '\0';

        /* A blank line or the end of the file closes the vector being read. */
        if ((!got || n == 0) && in_vector) {
            case_begin();
            run_vector(&v);
            for (int i = 0; i < v.nattrs; i++)
                if (!v.attrs[i].used)
                    fail("attribute %s of the vector at line %d is not checked by this test",
                         v.attrs[i].name, v.line);
            case_end();
            nvectors++;
            in_vector = 0;
        }
        if (!got)
            break;
        if (n == 0 || line[0] == '#')
            continue;

        if (line[0] == '[') {
            char *end = strchr(line, ']');
            if (!end || end[1] != '\0') {
                fprintf(stderr, "%s:%d: malformed section line\n", path, lineno);
                status = -1;
                break;
            }
            if (section[0])
                group_end();
            *end = '\0';
            snprintf(section, sizeof section, "RFC 8452 %s", line + 1);
            group_begin(section);
            continue;
        }

        char *eq = strstr(line, " =");
        if (!eq || !section[0]) {
            fprintf(stderr, "%s:%d: expected 'Name = Value' inside a [section]\n", path, lineno);
            status = -1;
            break;
        }
        *eq = '\0';
        char *value = eq + 2;
        while (*value == ' ')
            value++;
        if (!in_vector) {
            memset(&v, 0, sizeof v);
            v.line = lineno;
            in_vector = 1;
        }
        if (v.nattrs == MAX_ATTRS || strlen(line) >= sizeof v.attrs[0].name) {
            fprintf(stderr, "%s:%d: too many or too long attribute names\n", path, lineno);
            status = -1;
            break;
        }
        for (int i = 0; i < v.nattrs; i++) {
            if (strcmp(v.attrs[i].name, line) == 0) {
                fprintf(stderr, "%s:%d: %s given twice\n", path, lineno, line);
                status = -1;
            }
        }
        struct attr *a = &v.attrs[v.nattrs++];
        strcpy(a->name, line);
        if (hex_decode(value, a->value, sizeof a->value, &a->len) != 0) {
            fprintf(stderr, "%s:%d: %s is not hex of at most %d bytes\n", path, lineno, line,
                    MAX_VALUE);
            status = -1;
        }
        if (status)
            break;
    }
    if (section[0])
        group_end();
    fclose(f);
    if (status == 0 && nvectors == 0) {
        fprintf(stderr, "%s: no vectors\n", path);
        status = -1;
    }
    return status;
}

/* ---- properties of the reference on random inputs ---- */

static void test_roundtrip(void)
{
    group_begin("gcmsiv round trip and tampering");
    for (int t = 0; t < 400; t++) {
        uint8_t key[32], nonce[12], aad[100], pt[100], ct[100], back[100], tag[16], tag2[16];
        size_t keylen = (t & 1) ? 32 : 16;
        size_t ptlen = (size_t)t % 101, aadlen = rng_below(101);

        case_begin();
        rng_fill(key, sizeof key);
        rng_fill(nonce, sizeof nonce);
        rng_fill(aad, sizeof aad);
        rng_fill(pt, sizeof pt);
        gcmsiv_encrypt(key, keylen, nonce, aad, aadlen, pt, ptlen, ct, tag);
        if (gcmsiv_decrypt(key, keylen, nonce, aad, aadlen, ct, ptlen, tag, back) != 0)
            fail("keylen %zu aadlen %zu ptlen %zu: own ciphertext rejected", keylen, aadlen, ptlen);
        else
            expect_bytes("decrypt(encrypt(pt))", back, pt, ptlen);

        /* In place, both ways: the buffer holds pt, then ct, then pt again. */
        memcpy(back, pt, ptlen);
        gcmsiv_encrypt(key, keylen, nonce, aad, aadlen, back, ptlen, back, tag2);
        expect_bytes("in-place ciphertext", back, ct, ptlen);
        expect_bytes("in-place tag", tag2, tag, 16);
        if (gcmsiv_decrypt(key, keylen, nonce, aad, aadlen, back, ptlen, tag2, back) != 0)
            fail("ptlen %zu: in-place decryption rejected", ptlen);
        else
            expect_bytes("in-place decryption", back, pt, ptlen);

        /* One flipped bit anywhere in what the tag covers must be rejected. */
        memcpy(tag2, tag, 16);
        flip_bit(tag2, 128);
        memset(back, 0xa5, sizeof back);
        if (gcmsiv_decrypt(key, keylen, nonce, aad, aadlen, ct, ptlen, tag2, back) != -1)
            fail("ptlen %zu: flipped tag bit accepted", ptlen);
        else if (!all_zero(back, ptlen))
            fail("ptlen %zu: plaintext not zeroed after a flipped tag bit", ptlen);
        if (ptlen) {
            uint8_t ct2[100];
            memcpy(ct2, ct, ptlen);
            flip_bit(ct2, 8 * ptlen);
            memset(back, 0xa5, sizeof back);
            if (gcmsiv_decrypt(key, keylen, nonce, aad, aadlen, ct2, ptlen, tag, back) != -1)
                fail("ptlen %zu: flipped ciphertext bit accepted", ptlen);
            else if (!all_zero(back, ptlen))
                fail("ptlen %zu: plaintext not zeroed after a flipped ciphertext bit", ptlen);
        }
        if (aadlen) {
            uint8_t aad2[100];
            memcpy(aad2, aad, aadlen);
            flip_bit(aad2, 8 * aadlen);
            if (gcmsiv_decrypt(key, keylen, nonce, aad2, aadlen, ct, ptlen, tag, back) != -1)
                fail("aadlen %zu: flipped AAD bit accepted", aadlen);
        }
        case_end();
    }

    /* Key lengths other than 16 and 32 are refused, and leave the output alone. */
    case_begin();
    {
        uint8_t key[32] = { 0 }, nonce[12] = { 0 }, pt[4] = { 0 }, ct[4] = { 7, 7, 7, 7 }, tag[16];
        if (gcmsiv_encrypt(key, 24, nonce, NULL, 0, pt, 4, ct, tag) != -1)
            fail("a 24-byte key was accepted");
        else if (ct[0] != 7)
            fail("a refused encryption wrote its output");
    }
    case_end();
    group_end();
}

/* ---- libgcrypt as a second opinion ---- */

static int gcry_gcmsiv(int encrypt, const uint8_t *key, size_t keylen, const uint8_t nonce[12],
                       const uint8_t *aad, size_t aadlen, const uint8_t *in, size_t len,
                       uint8_t *out, uint8_t tag[16])
{
    gcry_cipher_hd_t h;
    int algo = keylen == 16 ? GCRY_CIPHER_AES128 : GCRY_CIPHER_AES256;
    uint8_t dummy[1] = { 0 };
    gcry_error_t err = gcry_cipher_open(&h, algo, GCRY_CIPHER_MODE_GCM_SIV, 0);
    if (err)
        return -2;
    /* libgcrypt wants real pointers even for empty buffers. */
    if (!len) {
        in = dummy;
        out = dummy;
    }
    if (!aadlen)
        aad = dummy;
    err = gcry_cipher_setkey(h, key, keylen);
    if (!err)
        err = gcry_cipher_setiv(h, nonce, 12);
    if (!err)
        err = gcry_cipher_authenticate(h, aad, aadlen);
    if (!err && !encrypt)
        err = gcry_cipher_set_decryption_tag(h, tag, 16);
    /* GCM-SIV takes the whole message in one call, marked as the last. */
    if (!err)
        err = gcry_cipher_final(h);
    if (!err)
        err = encrypt ? gcry_cipher_encrypt(h, out, len, in, len)
                      : gcry_cipher_decrypt(h, out, len, in, len);
    if (!err && encrypt)
        err = gcry_cipher_gettag(h, tag, 16);
    gcry_cipher_close(h);
    if (err && !encrypt && gcry_err_code(err) == GPG_ERR_CHECKSUM)
        return -1;
    return err ? -2 : 0;
}

static void test_libgcrypt(void)
{
    group_begin("libgcrypt GCM-SIV (random)");
    /* Per key size and plaintext length 0..100, four AAD lengths: none, the
     * complement 100 - ptlen (so every AAD length 0..100 occurs too) and two
     * random ones. */
    for (int t = 0; t < 2 * 101 * 4; t++) {
        uint8_t key[32], nonce[12], aad[100], pt[100];
        uint8_t ct_ref[100], ct_lib[100], back[100], tag_ref[16], tag_lib[16];
        size_t keylen = (t & 1) ? 32 : 16;
        size_t ptlen = (size_t)(t / 8);
        int kind = (t / 2) % 4;
        size_t aadlen = kind == 0 ? 0 : kind == 1 ? 100 - ptlen : rng_below(101);

        case_begin();
        rng_fill(key, sizeof key);
        rng_fill(nonce, sizeof nonce);
        rng_fill(aad, sizeof aad);
        rng_fill(pt, sizeof pt);
        gcmsiv_encrypt(key, keylen, nonce, aad, aadlen, pt, ptlen, ct_ref, tag_ref);
        if (gcry_gcmsiv(1, key, keylen, nonce, aad, aadlen, pt, ptlen, ct_lib, tag_lib) != 0) {
            fail("libgcrypt refused to encrypt (keylen %zu aadlen %zu ptlen %zu)", keylen,
                 aadlen, ptlen);
        } else {
            expect_bytes("ciphertext vs libgcrypt", ct_ref, ct_lib, ptlen);
            expect_bytes("tag vs libgcrypt", tag_ref, tag_lib, 16);
            if (gcmsiv_decrypt(key, keylen, nonce, aad, aadlen, ct_lib, ptlen, tag_lib, back) != 0)
                fail("the reference rejected libgcrypt's output (keylen %zu aadlen %zu ptlen %zu)",
                     keylen, aadlen, ptlen);
            else
                expect_bytes("reference decryption of libgcrypt's output", back, pt, ptlen);
        }

        if (gcry_gcmsiv(0, key, keylen, nonce, aad, aadlen, ct_ref, ptlen, back, tag_ref) != 0)
            fail("libgcrypt rejected the reference's output (keylen %zu aadlen %zu ptlen %zu)",
                 keylen, aadlen, ptlen);
        else
            expect_bytes("libgcrypt decryption of the reference's output", back, pt, ptlen);
        flip_bit(tag_ref, 128);
        if (gcry_gcmsiv(0, key, keylen, nonce, aad, aadlen, ct_ref, ptlen, back, tag_ref) != -1)
            fail("libgcrypt accepted a flipped tag bit (keylen %zu aadlen %zu ptlen %zu)", keylen,
                 aadlen, ptlen);
        case_end();
    }
    group_end();
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "corpus/gcmsiv/rfc8452.txt";
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : UINT64_C(8452);
    rng_state = seed;

    if (!gcry_check_version(GCRYPT_VERSION)) {
        fprintf(stderr, "polyval_kat: libgcrypt is older than the headers (%s)\n", GCRYPT_VERSION);
        return 99;
    }
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);

    printf("polyval_kat: seed %" PRIu64 ", vectors %s, libgcrypt %s\n", seed, path,
           gcry_check_version(NULL));
    test_aes();
    test_polyval();
    if (read_vectors(path) != 0)
        return 99;
    test_roundtrip();
    test_libgcrypt();

    printf("%d passed, %d failed\n", total_passed, total_failed);
    return total_failed == 0 ? 0 : 1;
}
