/* fuzz/aria.c — the ARIA family: RFC 5794 block cipher, ECB and CTR.
 *
 * Property: for every key size and key, every block count (weighted at the kernels' parallel
 * widths 16/32/64 and ±1), every counter (biased to just below the 2^32, 2^64 and 2^128 wraps),
 * in place and out of place, at every buffer placement, each kernel's ECB encryption and
 * decryption and its CTR output and final counter equal the plain C reference's; CTR continued
 * across several calls (split points from the input) equals one call; decrypt(encrypt(x)) == x;
 * OpenSSL (and libgcrypt from 1.11) agree with the reference.  Every kernel call goes through
 * the checked call with the vector-register check: no zmm/ymm/xmm lane and no k register may
 * hold key-derived data after return.  The round keys sit in a guarded buffer of exactly
 * (rounds + 1) * 16 bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "aria_oracles.h"
#include "asmdiff-config.h"
#include "bench.h"
#include "cpu.h"
#include "family.h"
#include "guard.h"
#include "input.h"
#include "report.h"
#include "vectors.h"
#include "reference/aria.h"
#if ARCH_X86_64
#include "kernels/aria/aria.h"
#endif

#define MAX_BLOCKS 300 /* > 4 passes of the widest kernel, tails of every width */
#define MAX_SPLITS 3

typedef void (*ecb_fn)(const uint8_t *rk, unsigned int rounds, uint8_t *out, const uint8_t *in,
                       size_t nblocks);
typedef void (*ctr_fn)(const uint8_t *rk, unsigned int rounds, uint8_t *out, const uint8_t *in,
                       size_t nblocks, uint8_t ctr[16]);

struct aria_impl {
    struct impl_info info;
    ecb_fn ecb;
    ctr_fn ctr;
};

#define NEEDS_AVX512_GFNI (CPU_AVX512F | CPU_AVX512BW | CPU_AVX512VL | CPU_GFNI)
static const struct aria_impl impls[] = {
#if ARCH_X86_64
    {{"avx512-gfni-xor", NEEDS_AVX512_GFNI}, aria_ecb_avx512_gfni_xor, aria_ctr_avx512_gfni_xor},
    {{"avx512-gfni-ternlog", NEEDS_AVX512_GFNI}, aria_ecb_avx512_gfni_ternlog,
     aria_ctr_avx512_gfni_ternlog},
    {{"avx2-gfni", CPU_AVX2 | CPU_GFNI}, aria_ecb_avx2_gfni, aria_ctr_avx2_gfni},
#endif
    {{"", 0}, NULL, NULL},
};
#define NIMPLS (sizeof impls / sizeof impls[0] - 1)

ASMDIFF_DEFINE_CRASH(aria)

enum op { OP_ECB_ENC, OP_ECB_DEC, OP_CTR, OP_COUNT };
static const char *const op_names[] = {"ecb-encrypt", "ecb-decrypt", "ctr"};

struct aria_case {
    size_t keylen, nblocks;
    uint8_t key[32], ctr[16];
    uint8_t in[16 * MAX_BLOCKS];
    int in_place;
    size_t nsplits, split[MAX_SPLITS]; /* CTR: block counts of the first calls; rest in the last */
    enum guard_place place;
    size_t offset;
};

static struct gbuf g_rk, g_in, g_out, g_ctr;

static void report_case(const struct aria_case *c, const char *impl, enum op op, const char *what)
{
    char title[200];
    snprintf(title, sizeof title, "%s %s: %s", impl, op_names[op], what);
    report_begin("aria", title);
    report_param("implementation", "%s", impl);
    report_param("operation", "%s", op_names[op]);
    report_param("key size", "%zu bits (%d rounds)", 8 * c->keylen,
                 c->keylen == 16 ? 12 : c->keylen == 24 ? 14 : 16);
    report_param("blocks", "%zu", c->nblocks);
    report_param("in place", "%s", c->in_place ? "yes" : "no");
    report_param("buffers", "%s, offset %zu", guard_place_name(c->place), c->offset);
    if (op == OP_CTR) {
        char s[64] = "";
        for (size_t i = 0; i < c->nsplits; i++)
            snprintf(s + strlen(s), sizeof s - strlen(s), "%zu+", c->split[i]);
        report_param("ctr calls", "%srest", s);
        report_hex("initial counter", c->ctr, 16);
    }
    report_hex("key", c->key, c->keylen);
    report_hex("input (first 64 bytes)", c->in, 16 * c->nblocks < 64 ? 16 * c->nblocks : 64);
}

/* Run one kernel operation in guarded buffers; result into res (16 * nblocks bytes), the final
 * counter into ctr_out. */
static void run_kernel(const struct aria_case *c, const struct aria_impl *k, enum op op,
                       const struct aria_key *key, const uint8_t *in, uint8_t *res,
                       uint8_t ctr_out[16])
{
    size_t bytes = 16 * c->nblocks, rklen = 16 * (size_t)(key->rounds + 1);
    uint8_t *rk = gbuf_place(&g_rk, rklen, c->place, c->offset);
    uint8_t *src = gbuf_place(&g_in, bytes, c->place, c->offset);
    uint8_t *dst = c->in_place ? src : gbuf_place(&g_out, bytes, c->place, c->offset);
    memcpy(rk, key->rk, rklen);
    memcpy(src, in, bytes);
    unsigned int rounds = (unsigned int)key->rounds;
    if (op != OP_CTR) {
        ABI_CALL_CLEAN(k->info.name, k->ecb, (const uint8_t *)rk, rounds, dst,
                       (const uint8_t *)src, c->nblocks);
    } else {
        uint8_t *ctr = gbuf_place(&g_ctr, 16, c->place, 0);
        memcpy(ctr, c->ctr, 16);
        size_t done = 0;
        for (size_t i = 0; i <= c->nsplits; i++) {
            size_t n = i < c->nsplits ? c->split[i] : c->nblocks - done;
            ABI_CALL_CLEAN(k->info.name, k->ctr, (const uint8_t *)rk, rounds, dst + 16 * done,
                           (const uint8_t *)src + 16 * done, n, ctr);
            done += n;
        }
        memcpy(ctr_out, ctr, 16);
    }
    memcpy(res, dst, bytes);
    const struct gbuf_use bufs[] = {{"round keys", &g_rk, key->rk},
                                     {"input", &g_in, c->in_place ? NULL : in},
                                     {"output", &g_out, NULL},
                                     {"counter", &g_ctr, NULL}};
    char what[128];
    size_t bad;
    if (gbuf_after_call(bufs, 4, what, sizeof what, &bad)) {
        report_case(c, k->info.name, op, what);
        report_end("aria", asmdiff_mismatch_aria);
    }
}

static void compare(const struct aria_case *c, const char *who, enum op op, const uint8_t *want,
                    const uint8_t *got, const uint8_t *want_ctr, const uint8_t *got_ctr)
{
    size_t bytes = 16 * c->nblocks;
    if (memcmp(want, got, bytes)) {
        report_case(c, who, op, "output differs from the C reference");
        report_diff("c-reference", want, who, got, bytes);
        report_end("aria", asmdiff_mismatch_aria);
    }
    if (want_ctr && memcmp(want_ctr, got_ctr, 16)) {
        report_case(c, who, op, "final counter differs from the C reference");
        report_diff("c-reference", want_ctr, who, got_ctr, 16);
        report_end("aria", asmdiff_mismatch_aria);
    }
}

/* The one comparison path. */
static void check_case(const struct aria_case *c)
{
    static uint8_t want[3][16 * MAX_BLOCKS], got[16 * MAX_BLOCKS], back[16 * MAX_BLOCKS];
    struct aria_key ek, dk;
    uint8_t want_ctr[16], got_ctr[16];
    size_t bytes = 16 * c->nblocks;

    aria_set_encrypt_key(&ek, c->key, c->keylen);
    aria_set_decrypt_key(&dk, c->key, c->keylen);
    aria_ecb(&ek, want[OP_ECB_ENC], c->in, c->nblocks);
    aria_ecb(&dk, want[OP_ECB_DEC], c->in, c->nblocks);
    memcpy(want_ctr, c->ctr, 16);
    aria_ctr(&ek, want[OP_CTR], c->in, c->nblocks, want_ctr);

#if ASMDIFF_HAVE_OPENSSL
    {
        uint8_t ctr[16];
        memcpy(ctr, c->ctr, 16);
        if (oracle_openssl_aria_ecb(1, c->key, c->keylen, got, c->in, c->nblocks)) abort();
        compare(c, "openssl", OP_ECB_ENC, want[OP_ECB_ENC], got, NULL, NULL);
        if (oracle_openssl_aria_ecb(0, c->key, c->keylen, got, c->in, c->nblocks)) abort();
        compare(c, "openssl", OP_ECB_DEC, want[OP_ECB_DEC], got, NULL, NULL);
        if (oracle_openssl_aria_ctr(c->key, c->keylen, got, c->in, c->nblocks, ctr)) abort();
        compare(c, "openssl", OP_CTR, want[OP_CTR], got, want_ctr, ctr);
    }
#endif
#if ASMDIFF_HAVE_GCRYPT
    if (!oracle_gcrypt_aria_unavailable()) {
        uint8_t ctr[16];
        memcpy(ctr, c->ctr, 16);
        if (oracle_gcrypt_aria_ecb(1, c->key, c->keylen, got, c->in, c->nblocks)) abort();
        compare(c, "libgcrypt", OP_ECB_ENC, want[OP_ECB_ENC], got, NULL, NULL);
        if (oracle_gcrypt_aria_ecb(0, c->key, c->keylen, got, c->in, c->nblocks)) abort();
        compare(c, "libgcrypt", OP_ECB_DEC, want[OP_ECB_DEC], got, NULL, NULL);
        if (oracle_gcrypt_aria_ctr(c->key, c->keylen, got, c->in, c->nblocks, ctr)) abort();
        compare(c, "libgcrypt", OP_CTR, want[OP_CTR], got, want_ctr, ctr);
    }
#endif

    for (size_t i = 0; i < NIMPLS; i++) {
        const struct aria_impl *k = &impls[i];
        if (impl_unavailable(&k->info)) continue;
        run_kernel(c, k, OP_ECB_ENC, &ek, c->in, got, NULL);
        compare(c, k->info.name, OP_ECB_ENC, want[OP_ECB_ENC], got, NULL, NULL);
        /* round trip through the kernel itself */
        run_kernel(c, k, OP_ECB_DEC, &dk, got, back, NULL);
        if (memcmp(back, c->in, bytes)) {
            report_case(c, k->info.name, OP_ECB_DEC, "decrypt(encrypt(x)) != x");
            report_diff("x", c->in, k->info.name, back, bytes);
            report_end("aria", asmdiff_mismatch_aria);
        }
        run_kernel(c, k, OP_ECB_DEC, &dk, c->in, got, NULL);
        compare(c, k->info.name, OP_ECB_DEC, want[OP_ECB_DEC], got, NULL, NULL);
        run_kernel(c, k, OP_CTR, &ek, c->in, got, got_ctr);
        compare(c, k->info.name, OP_CTR, want[OP_CTR], got, want_ctr, got_ctr);
    }
}

static int aria_one_input(const uint8_t *data, size_t size)
{
    static struct aria_case c;
    static const size_t widths[] = {16, 32, 64};
    struct input in;
    input_init(&in, data, size);
    c.keylen = 16 + 8 * (size_t)input_pick(&in, 3);
    c.nblocks = input_length(&in, MAX_BLOCKS, widths, 3);
    c.in_place = input_bool(&in);
    c.place = input_bool(&in) ? GUARD_HEAD : GUARD_TAIL;
    c.offset = input_pick(&in, 4) == 0 ? (size_t)input_range(&in, 1, 63) : 0;
    /* CTR split into up to three calls plus the rest, at input-chosen block counts */
    c.nsplits = input_pick(&in, MAX_SPLITS + 1);
    size_t left = c.nblocks;
    for (size_t i = 0; i < c.nsplits; i++) {
        c.split[i] = input_length(&in, left, widths, 3);
        left -= c.split[i];
    }
    /* counter: random, or just below a wrap of the low 32, 64 or all 128 bits */
    int bias = (int)input_pick(&in, 4);
    uint64_t below = input_range(&in, 0, 2 * 64);
    input_bytes(&in, c.ctr, 16);
    if (bias) {
        size_t low = bias == 1 ? 4 : bias == 2 ? 8 : 16;
        uint64_t v = ~(uint64_t)0 - below;
        for (size_t i = 0; i < low; i++)
            c.ctr[15 - i] = i < 8 ? (uint8_t)(v >> (8 * i)) : 0xff;
    }
    input_fill_words(&in, c.key, c.keylen / 4, 4);
    input_fill_words(&in, c.in, 4 * c.nblocks, 4);
    check_case(&c);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return aria_one_input(data, size);
}

/* ---- RFC 5794 vectors, each also as N identical blocks ---- */

static int aria_kat(const char *srcdir)
{
    static struct aria_case c;
    static const size_t counts[] = {1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 128, 129, 200};
    uint8_t pt[16], ct[16];
    static uint8_t got[16 * MAX_BLOCKS];
    struct vec_file vf;
    int fails = 0, count = 0;
    if (vec_open(&vf, srcdir, "corpus/aria/kat.txt")) return 1;
    while (vec_next(&vf)) {
        memset(&c, 0, sizeof c);
        long kl = vec_get_hex(&vf, "Key", c.key, sizeof c.key);
        long pl = vec_get_hex(&vf, "Plaintext", pt, sizeof pt);
        long cl = vec_get_hex(&vf, "Ciphertext", ct, sizeof ct);
        vec_done(&vf);
        if ((kl != 16 && kl != 24 && kl != 32) || pl != 16 || cl != 16) {
            fails++;
            continue;
        }
        c.keylen = (size_t)kl;
        struct aria_key ek, dk;
        aria_set_encrypt_key(&ek, c.key, c.keylen);
        aria_set_decrypt_key(&dk, c.key, c.keylen);
        for (size_t n = 0; n < sizeof counts / sizeof counts[0]; n++) {
            c.nblocks = counts[n];
            for (int dir = 0; dir < 2; dir++) {
                const uint8_t *from = dir ? ct : pt, *to = dir ? pt : ct;
                for (size_t b = 0; b < c.nblocks; b++) memcpy(c.in + 16 * b, from, 16);
                aria_ecb(dir ? &dk : &ek, got, c.in, c.nblocks);
                for (size_t b = 0; b < c.nblocks; b++)
                    if (memcmp(got + 16 * b, to, 16)) {
                        fprintf(stderr, "%s:%d: the C reference gives the wrong %s\n", vf.path,
                                vf.b.line, dir ? "plaintext" : "ciphertext");
                        fails++;
                        break;
                    }
                c.in_place = (int)(n & 1);
                c.place = dir ? GUARD_HEAD : GUARD_TAIL;
                check_case(&c); /* every kernel and oracle against the reference */
            }
        }
        count++;
    }
    fails += vec_close(&vf);
    printf("aria kat: %d RFC 5794 vectors (as 1..200 blocks, both directions) on %zu kernels, "
           "%d failures\n", count, NIMPLS, fails);
    return fails || !count;
}

/* ---- bench: ARIA128/192/256 x {ECB enc, ECB dec, CTR enc, CTR dec}, every implementation ---- */

#define BENCH_BYTES (16 * 1024)

struct bench_ctx {
    const struct aria_impl *k; /* NULL: a library or the reference, via `lib` */
    enum op op;
    int lib; /* 0 kernel, 1 reference, 2 openssl, 3 libgcrypt */
    struct aria_key *key;
    const uint8_t *rawkey;
    size_t keylen;
    uint8_t *buf;
};

static void bench_op(void *ctx, size_t bytes)
{
    struct bench_ctx *b = ctx;
    uint8_t ctr[16] = {0};
    size_t n = bytes / 16;
    switch (b->lib) {
    case 0:
        if (b->op == OP_CTR) b->k->ctr(b->key->rk[0], (unsigned)b->key->rounds, b->buf, b->buf, n, ctr);
        else b->k->ecb(b->key->rk[0], (unsigned)b->key->rounds, b->buf, b->buf, n);
        break;
    case 1:
        if (b->op == OP_CTR) aria_ctr(b->key, b->buf, b->buf, n, ctr);
        else aria_ecb(b->key, b->buf, b->buf, n);
        break;
#if ASMDIFF_HAVE_OPENSSL
    case 2:
        if (b->op == OP_CTR) oracle_openssl_aria_ctr(b->rawkey, b->keylen, b->buf, b->buf, n, ctr);
        else oracle_openssl_aria_ecb(b->op == OP_ECB_ENC, b->rawkey, b->keylen, b->buf, b->buf, n);
        break;
#endif
#if ASMDIFF_HAVE_GCRYPT
    case 3:
        if (b->op == OP_CTR) oracle_gcrypt_aria_ctr(b->rawkey, b->keylen, b->buf, b->buf, n, ctr);
        else oracle_gcrypt_aria_ecb(b->op == OP_ECB_ENC, b->rawkey, b->keylen, b->buf, b->buf, n);
        break;
#endif
    default:
        abort();
    }
}

static int aria_bench(FILE *out, int csv)
{
    static uint8_t buf[BENCH_BYTES], raw[32];
    static const char *const opnames[] = {"ECB enc", "ECB dec", "CTR enc", "CTR dec"};
    for (size_t i = 0; i < sizeof raw; i++) raw[i] = (uint8_t)(i * 29 + 7);
    bench_table_begin(out, "aria", csv);
    for (size_t keylen = 16; keylen <= 32; keylen += 8) {
        struct aria_key ek, dk;
        aria_set_encrypt_key(&ek, raw, keylen);
        aria_set_decrypt_key(&dk, raw, keylen);
        for (int o = 0; o < 4; o++) {
            char opname[48];
            snprintf(opname, sizeof opname, "ARIA%zu %s", 8 * keylen, opnames[o]);
            enum op op = o == 0 ? OP_ECB_ENC : o == 1 ? OP_ECB_DEC : OP_CTR;
            struct aria_key *key = o == 1 ? &dk : &ek;
            for (size_t i = 0; i < NIMPLS + 3; i++) {
                struct bench_ctx b = {NULL, op, 0, key, raw, keylen, buf};
                const char *name, *why = NULL;
                if (i < NIMPLS) {
                    b.k = &impls[i];
                    name = impls[i].info.name;
                    why = impl_unavailable(&impls[i].info);
                } else if (i == NIMPLS) {
                    b.lib = 1, name = "c-reference";
                } else if (i == NIMPLS + 1) {
                    b.lib = 2, name = "openssl";
#if !ASMDIFF_HAVE_OPENSSL
                    why = "not built (libssl-dev)";
#endif
                } else {
                    b.lib = 3, name = "libgcrypt";
#if ASMDIFF_HAVE_GCRYPT
                    why = oracle_gcrypt_aria_unavailable();
#else
                    why = "not built (libgcrypt20-dev)";
#endif
                }
                if (why) {
                    bench_table_na(out, "aria", name, opname, why, csv);
                    continue;
                }
                struct bench_result r = bench_slope(bench_op, &b, 16, BENCH_BYTES);
                bench_table_row(out, "aria", name, opname, &r, csv);
            }
        }
    }
    bench_table_end(out, csv);
    return 0;
}

static const struct impl_info *aria_impl(size_t i)
{
    return &impls[i].info;
}

static void aria_list_extra(FILE *out)
{
    fprintf(out, "  %-28s %-10s (authoritative; RFC 5794)\n", "c-reference", "reference");
#if ASMDIFF_HAVE_OPENSSL
    fprintf(out, "  %-28s %-10s EVP aria-{128,192,256}-{ecb,ctr}\n", "openssl", "oracle");
#endif
#if ASMDIFF_HAVE_GCRYPT
    const char *why = oracle_gcrypt_aria_unavailable();
    fprintf(out, "  %-28s %-10s %s\n", "libgcrypt", why ? "n/a" : "oracle", why ? why : "ARIA");
#endif
}

const struct family asmdiff_family = {
    .name = "aria",
    .one_input = aria_one_input,
    .nimpls = NIMPLS,
    .impl = aria_impl,
    .list_extra = aria_list_extra,
    .kat = aria_kat,
    .exhaustive = NULL,
    .bench = aria_bench,
};
