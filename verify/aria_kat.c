/* aria_kat: the plain-C ARIA reference (reference/aria.c) computes RFC 5794.
 *
 * Checked: the RFC's Appendix A vectors for all three key sizes, both
 * directions; the S-box tables are bijections and the inverse tables invert
 * them; bad key lengths are refused; decrypt(encrypt(x)) == x; and agreement
 * with OpenSSL's ECB and CTR, an independent implementation, for random keys,
 * many block counts and counters just below the 2^32, 2^64 and 2^128 wraps.
 *
 * Random inputs come from a fixed-seed generator, so a failure reproduces;
 * `aria_kat SEED` runs with another seed. Prints one line per check group,
 * then "N passed, M failed"; exits 0 only if nothing failed. */
#include "aria.h"

#include <openssl/evp.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long total_passed, total_failed;
static unsigned long group_passed, group_failed;

static void group_begin(void)
{
    group_passed = group_failed = 0;
}

static void group_end(const char *name)
{
    printf("%-4s %-52s %lu passed, %lu failed\n", group_failed ? "FAIL" : "ok", name,
           group_passed, group_failed);
    total_passed += group_passed;
    total_failed += group_failed;
}

static void hex(const char *label, const uint8_t *p, size_t n)
{
    fprintf(stderr, "    %-9s", label);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "%02x", p[i]);
    fputc('\n', stderr);
}

/* One check: on a mismatch, say what and where, and dump the first differing
 * block of both sides. Only the first few failures of a group are printed. */
static int check_bytes(const char *what, const uint8_t *got, const uint8_t *want, size_t n)
{
    if (memcmp(got, want, n) == 0) {
        group_passed++;
        return 1;
    }
    size_t at = 0;
    while (got[at] == want[at])
        at++;
    if (group_failed++ < 5) {
        size_t block = at / 16 * 16, len = n - block < 16 ? n - block : 16;
        fprintf(stderr, "  %s: first difference at byte %zu (block %zu)\n", what, at, at / 16);
        hex("got", got + block, len);
        hex("expected", want + block, len);
    }
    return 0;
}

static void check_true(const char *what, int ok)
{
    if (ok) {
        group_passed++;
        return;
    }
    if (group_failed++ < 5)
        fprintf(stderr, "  %s\n", what);
}

/* splitmix64: small, seedable, good enough to pick test inputs. */
static uint64_t rng_state;

static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
}

static void rng_fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rng();
}

static size_t parse_hex(uint8_t *out, const char *s)
{
    size_t n = 0;
    for (; s[0] && s[1]; s += 2) {
        unsigned v;
        sscanf(s, "%2x", &v);
        out[n++] = (uint8_t)v;
    }
    return n;
}

/* RFC 5794 Appendix A: Example Data of ARIA (A.1, A.2, A.3). */
static const struct {
    const char *key, *plaintext, *ciphertext;
} rfc5794_vectors[] = {
    { "000102030405060708090a0b0c0d0e0f",
      "00112233445566778899aabbccddeeff", "d718fbd6ab644c739da95f3be6451778" },
    { "000102030405060708090a0b0c0d0e0f1011121314151617",
      "00112233445566778899aabbccddeeff", "26449c1805dbe7aa25a468ce263a9e79" },
    { "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
      "00112233445566778899aabbccddeeff", "f92bd7c79fb72e2f2b8f80c1972d24fc" },
};

static void test_rfc_vectors(void)
{
    group_begin();
    for (size_t v = 0; v < sizeof(rfc5794_vectors) / sizeof(rfc5794_vectors[0]); v++) {
        uint8_t key[32], pt[16], ct[16], out[16];
        size_t keylen = parse_hex(key, rfc5794_vectors[v].key);
        parse_hex(pt, rfc5794_vectors[v].plaintext);
        parse_hex(ct, rfc5794_vectors[v].ciphertext);
        char what[64];
        struct aria_key ek, dk;

        check_true("set_encrypt_key refused an RFC key",
                   aria_set_encrypt_key(&ek, key, keylen) == 0);
        check_true("set_decrypt_key refused an RFC key",
                   aria_set_decrypt_key(&dk, key, keylen) == 0);
        check_true("wrong round count", ek.rounds == 12 + 2 * (int)v && dk.rounds == ek.rounds);

        snprintf(what, sizeof(what), "ARIA-%zu encrypt, RFC 5794 A.%zu", keylen * 8, v + 1);
        aria_encrypt_block(&ek, out, pt);
        check_bytes(what, out, ct, 16);
        snprintf(what, sizeof(what), "ARIA-%zu decrypt, RFC 5794 A.%zu", keylen * 8, v + 1);
        aria_encrypt_block(&dk, out, ct);
        check_bytes(what, out, pt, 16);
        snprintf(what, sizeof(what), "ARIA-%zu encrypt in place, A.%zu", keylen * 8, v + 1);
        memcpy(out, pt, 16);
        aria_ecb(&ek, out, out, 1);
        check_bytes(what, out, ct, 16);
    }
    group_end("RFC 5794 Appendix A, 128/192/256, both directions");
}

static void test_sboxes(void)
{
    static const struct {
        const char *name;
        const uint8_t *s, *inv;
    } pairs[] = {
        { "SB1/SB3", aria_sb1, aria_sb1_inv },
        { "SB2/SB4", aria_sb2, aria_sb2_inv },
    };

    group_begin();
    for (size_t p = 0; p < 2; p++) {
        const uint8_t *tables[2] = { pairs[p].s, pairs[p].inv };
        for (int t = 0; t < 2; t++) {
            int seen[256] = { 0 }, bijective = 1;
            for (int x = 0; x < 256; x++)
                seen[tables[t][x]]++;
            for (int y = 0; y < 256; y++)
                bijective &= seen[y] == 1;
            char what[64];
            snprintf(what, sizeof(what), "%s: table %d is not a bijection", pairs[p].name, t);
            check_true(what, bijective);
        }
        int inverse = 1;
        for (int x = 0; x < 256; x++)
            inverse &= pairs[p].inv[pairs[p].s[x]] == x && pairs[p].s[pairs[p].inv[x]] == x;
        char what[64];
        snprintf(what, sizeof(what), "%s: the inverse table does not invert", pairs[p].name);
        check_true(what, inverse);
    }
    /* The RFC's own examples (section 2.4.2), and SB1 being AES's S-box. */
    check_true("SB1(0x23) != 0x26", aria_sb1[0x23] == 0x26);
    check_true("SB4(0xef) != 0xd3", aria_sb2_inv[0xef] == 0xd3);
    check_true("SB1(0x00) != 0x63", aria_sb1[0x00] == 0x63);
    group_end("S-boxes are bijections, inverse tables invert");
}

static void test_bad_key_lengths(void)
{
    static const size_t bad[] = { 0, 1, 8, 15, 17, 20, 23, 25, 31, 33, 48, 64 };
    uint8_t key[64] = { 0 };
    struct aria_key k;

    group_begin();
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char what[64];
        snprintf(what, sizeof(what), "key length %zu accepted", bad[i]);
        check_true(what, aria_set_encrypt_key(&k, key, bad[i]) == -1 && k.rounds == 0);
        check_true(what, aria_set_decrypt_key(&k, key, bad[i]) == -1 && k.rounds == 0);
    }
    group_end("key lengths other than 16/24/32 are refused");
}

static const size_t key_lengths[3] = { 16, 24, 32 };

/* Block counts: every small count, then around powers of two and a few
 * larger ones, since kernels to come work in groups of 16, 32 or 64. */
static size_t pick_nblocks(unsigned i)
{
    static const size_t more[] = { 63, 64, 65, 127, 128, 129, 255, 256, 257, 300 };
    if (i < 40)
        return i;
    return more[i % (sizeof(more) / sizeof(more[0]))];
}

#define MAX_BLOCKS 300

static void test_round_trip(void)
{
    static uint8_t pt[16 * MAX_BLOCKS], ct[16 * MAX_BLOCKS], back[16 * MAX_BLOCKS];

    group_begin();
    for (unsigned i = 0; i < 300; i++) {
        size_t keylen = key_lengths[i % 3], n = pick_nblocks(i / 3);
        uint8_t key[32];
        struct aria_key ek, dk;
        rng_fill(key, keylen);
        rng_fill(pt, 16 * n);
        aria_set_encrypt_key(&ek, key, keylen);
        aria_set_decrypt_key(&dk, key, keylen);
        aria_ecb(&ek, ct, pt, n);
        aria_ecb(&dk, back, ct, n);
        char what[64];
        snprintf(what, sizeof(what), "ARIA-%zu decrypt(encrypt(x)), %zu blocks", keylen * 8, n);
        check_bytes(what, back, pt, 16 * n);
    }
    group_end("decrypt(encrypt(x)) == x, random keys");
}

static const EVP_CIPHER *openssl_cipher(size_t keylen, int ctr)
{
    switch (keylen) {
    case 16: return ctr ? EVP_aria_128_ctr() : EVP_aria_128_ecb();
    case 24: return ctr ? EVP_aria_192_ctr() : EVP_aria_192_ecb();
    default: return ctr ? EVP_aria_256_ctr() : EVP_aria_256_ecb();
    }
}

/* OpenSSL's one-shot answer; iv is the initial counter for CTR, NULL for
 * ECB. Returns 0 if OpenSSL itself failed. */
static int openssl_crypt(size_t keylen, int ctr, int enc, const uint8_t *key, const uint8_t *iv,
                         uint8_t *out, const uint8_t *in, size_t nbytes)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int len = 0, fin = 0, ok = c != NULL
        && EVP_CipherInit_ex(c, openssl_cipher(keylen, ctr), NULL, key, iv, enc) == 1
        && EVP_CIPHER_CTX_set_padding(c, 0) == 1
        && EVP_CipherUpdate(c, out, &len, in, (int)nbytes) == 1
        && EVP_CipherFinal_ex(c, out + len, &fin) == 1
        && (size_t)(len + fin) == nbytes;
    EVP_CIPHER_CTX_free(c);
    return ok;
}

static void test_openssl_ecb(void)
{
    static uint8_t in[16 * MAX_BLOCKS], ours[16 * MAX_BLOCKS], theirs[16 * MAX_BLOCKS];

    group_begin();
    for (unsigned i = 0; i < 600; i++) {
        size_t keylen = key_lengths[i % 3], n = pick_nblocks(i / 6);
        int enc = (i / 3) % 2;
        uint8_t key[32];
        struct aria_key k;
        rng_fill(key, keylen);
        rng_fill(in, 16 * n);
        if (enc)
            aria_set_encrypt_key(&k, key, keylen);
        else
            aria_set_decrypt_key(&k, key, keylen);
        aria_ecb(&k, ours, in, n);
        char what[80];
        snprintf(what, sizeof(what), "ARIA-%zu ECB %s vs OpenSSL, %zu blocks", keylen * 8,
                 enc ? "encrypt" : "decrypt", n);
        if (!openssl_crypt(keylen, 0, enc, key, NULL, theirs, in, 16 * n)) {
            check_true("OpenSSL ECB call failed", 0);
            continue;
        }
        check_bytes(what, ours, theirs, 16 * n);
    }
    group_end("ECB encrypt/decrypt == OpenSSL EVP aria-*-ecb");
}

/* ctr + n as a 128-bit big-endian integer modulo 2^128: what the counter
 * must read after n blocks, computed apart from the reference's increment. */
static void ctr_add(uint8_t out[16], const uint8_t ctr[16], uint64_t n)
{
    unsigned carry = 0;
    for (int i = 15; i >= 0; i--) {
        unsigned addend = i >= 8 ? (unsigned)(n >> (8 * (15 - i))) & 0xff : 0;
        unsigned s = ctr[i] + addend + carry;
        out[i] = (uint8_t)s;
        carry = s >> 8;
    }
}

/* A counter a few blocks below a carry out of its low 32, 64 or 128 bits
 * (the 128-bit case wraps to zero), with random bits above the carry. */
static void pick_counter(uint8_t ctr[16], unsigned i)
{
    static const int wrap_bits[4] = { 32, 64, 128, 0 };
    int bits = wrap_bits[i % 4];
    rng_fill(ctr, 16);
    if (bits == 0)
        return;                                     /* fully random */
    for (int b = 16 - bits / 8; b < 16; b++)
        ctr[b] = 0xff;
    ctr[15] = (uint8_t)(0xff - rng() % 40);         /* 0 .. 39 blocks before the wrap */
}

static void test_openssl_ctr(void)
{
    static uint8_t in[16 * MAX_BLOCKS], ours[16 * MAX_BLOCKS], theirs[16 * MAX_BLOCKS],
        split[16 * MAX_BLOCKS];

    group_begin();
    for (unsigned i = 0; i < 720; i++) {
        size_t keylen = key_lengths[i % 3], n = pick_nblocks(i / 12);
        uint8_t key[32], ctr0[16], ctr[16], ctr_after[16];
        struct aria_key k;
        rng_fill(key, keylen);
        rng_fill(in, 16 * n);
        pick_counter(ctr0, i / 3);
        aria_set_encrypt_key(&k, key, keylen);
        memcpy(ctr, ctr0, 16);
        aria_ctr(&k, ours, in, n, ctr);

        char what[96];
        snprintf(what, sizeof(what), "ARIA-%zu CTR vs OpenSSL, %zu blocks, counter %02x%02x..%02x",
                 keylen * 8, n, ctr0[0], ctr0[1], ctr0[15]);
        if (!openssl_crypt(keylen, 1, 1, key, ctr0, theirs, in, 16 * n)) {
            check_true("OpenSSL CTR call failed", 0);
            continue;
        }
        check_bytes(what, ours, theirs, 16 * n);

        ctr_add(ctr_after, ctr0, n);
        snprintf(what, sizeof(what), "ARIA-%zu CTR counter after %zu blocks", keylen * 8, n);
        check_bytes(what, ctr, ctr_after, 16);

        /* The same stream in two calls, split at a random block, in place:
         * the updated counter must carry the stream on. */
        size_t cut = n ? (size_t)(rng() % (n + 1)) : 0;
        memcpy(split, in, 16 * n);
        memcpy(ctr, ctr0, 16);
        aria_ctr(&k, split, split, cut, ctr);
        aria_ctr(&k, split + 16 * cut, split + 16 * cut, n - cut, ctr);
        snprintf(what, sizeof(what), "ARIA-%zu CTR split at block %zu of %zu, in place",
                 keylen * 8, cut, n);
        check_bytes(what, split, theirs, 16 * n);
    }
    group_end("CTR == OpenSSL EVP aria-*-ctr, counters near wraps");
}

int main(int argc, char **argv)
{
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 0x41524941;   /* "ARIA" */
    rng_state = seed;
    printf("aria_kat: seed 0x%" PRIx64 "\n", seed);

    test_rfc_vectors();
    test_sboxes();
    test_bad_key_lengths();
    test_round_trip();
    test_openssl_ecb();
    test_openssl_ctr();

    printf("%lu passed, %lu failed\n", total_passed, total_failed);
    return total_failed ? 1 : 0;
}
