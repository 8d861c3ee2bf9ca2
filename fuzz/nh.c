/* fuzz/nh.c — the NH family: the ε-almost-universal hash of Adiantum and NHPoly1305.
 *
 * Property: for every message length in NH's domain (16..1024 bytes in steps of 16), every key
 * and message (random, all-ones, top-bit words that maximise carries), and every buffer
 * placement, each kernel's 32-byte hash equals the plain C reference's.  Kernels run through the
 * checked call with the vector-register check (no key or message data may stay in xmm/ymm), in
 * guarded buffers sized to exactly what the kernels' precondition says they read: key bytes
 * [0, len + 48), message [0, len), hash [0, 32).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "asmdiff-config.h"
#include "bench.h"
#include "cpu.h"
#include "family.h"
#include "guard.h"
#include "input.h"
#include "report.h"
#include "vectors.h"
#include "reference/nh.h"
#if ARCH_X86_64
#include "kernels/nh/nh.h"
#endif

typedef void (*nh_fn)(const uint32_t *key, const uint8_t *message, size_t len, uint8_t hash[32]);

struct nh_impl {
    struct impl_info info;
    nh_fn fn;
};

static const struct nh_impl impls[] = {
#if ARCH_X86_64
    {{"sse2-addperm", CPU_SSE2}, nh_sse2_addperm},
    {{"sse2-permload", CPU_SSE2}, nh_sse2_permload},
    {{"avx2", CPU_AVX2}, nh_avx2},
#endif
    {{"", 0}, NULL},
};
#define NIMPLS (sizeof impls / sizeof impls[0] - 1)

ASMDIFF_DEFINE_CRASH(nh)

/* The key bytes a message of len bytes reaches: 4 passes, 16 bytes apart. */
#define KEY_SPAN(len) ((len) + 16 * (NH_PASSES - 1))

struct nh_case {
    size_t len;
    uint32_t key[NH_KEY_WORDS];
    uint8_t msg[NH_MESSAGE_BYTES_MAX];
    enum guard_place place[3]; /* key, message, hash */
    size_t offset[3];
};

static struct gbuf g_key, g_msg, g_hash;

static void report_case(const struct nh_case *c, const char *impl, const char *what)
{
    char title[160];
    snprintf(title, sizeof title, "%s: %s", impl, what);
    report_begin("nh", title);
    report_param("implementation", "%s", impl);
    report_param("message_len", "%zu bytes", c->len);
    report_param("key buffer", "%zu bytes, %s, offset %zu", KEY_SPAN(c->len),
                 guard_place_name(c->place[0]), c->offset[0]);
    report_param("message buf", "%s, offset %zu", guard_place_name(c->place[1]), c->offset[1]);
    report_param("hash buffer", "%s, offset %zu", guard_place_name(c->place[2]), c->offset[2]);
    report_hex("key (first 64 bytes)", c->key, 64);
    report_hex("message (first 64 bytes)", c->msg, c->len < 64 ? c->len : 64);
}

static void check_kernel(const struct nh_case *c, const struct nh_impl *k, const uint8_t *want)
{
    size_t kspan = KEY_SPAN(c->len);
    uint8_t *key = gbuf_place(&g_key, kspan, c->place[0], c->offset[0]);
    uint8_t *msg = gbuf_place(&g_msg, c->len, c->place[1], c->offset[1]);
    uint8_t *hash = gbuf_place(&g_hash, NH_HASH_BYTES, c->place[2], c->offset[2]);
    memcpy(key, c->key, kspan);
    memcpy(msg, c->msg, c->len);
    memset(hash, 0x5c, NH_HASH_BYTES);

    ABI_CALL_CLEAN(k->info.name, k->fn, (const uint32_t *)key, (const uint8_t *)msg, c->len, hash);

    if (memcmp(hash, want, NH_HASH_BYTES)) {
        report_case(c, k->info.name, "hash differs from the C reference");
        report_diff("c-reference", want, k->info.name, hash, NH_HASH_BYTES);
        report_end("nh", asmdiff_mismatch_nh);
    }
    const struct gbuf_use bufs[] = {
        {"key", &g_key, c->key}, {"message", &g_msg, c->msg}, {"hash", &g_hash, NULL}};
    char what[128];
    size_t bad;
    int why = gbuf_after_call(bufs, 3, what, sizeof what, &bad);
    if (why) {
        report_case(c, k->info.name, what);
        if (why == 2)
            report_diff("original", bufs[bad].orig, k->info.name, bufs[bad].g->p, bufs[bad].g->len);
        report_end("nh", asmdiff_mismatch_nh);
    }
}

/* The one comparison path for fuzz inputs, vectors and edge checks. */
static void check_case(const struct nh_case *c)
{
    uint8_t want[NH_HASH_BYTES];
    nh_ref(c->key, c->msg, c->len, want);
    for (size_t i = 0; i < NIMPLS; i++)
        if (!impl_unavailable(&impls[i].info)) check_kernel(c, &impls[i], want);
}

static int nh_one_input(const uint8_t *data, size_t size)
{
    static struct nh_case c;
    /* Units of 16 bytes; SSE2 kernels take 4 units per loop trip, AVX2 8. */
    static const size_t widths[] = {4, 8};
    struct input in;
    input_init(&in, data, size);
    size_t units = input_length(&in, NH_MESSAGE_BYTES_MAX / NH_MESSAGE_UNIT, widths, 2);
    c.len = (units ? units : 1) * NH_MESSAGE_UNIT;
    for (int i = 0; i < 3; i++) {
        c.place[i] = input_bool(&in) ? GUARD_HEAD : GUARD_TAIL;
        c.offset[i] = input_pick(&in, 4) == 0 ? (size_t)input_range(&in, 1, 63) & ~(size_t)3 : 0;
    }
    /* Only the key words the message reaches matter; the rest stay as they are. */
    input_fill_words(&in, c.key, KEY_SPAN(c.len) / 4, 4);
    input_fill_words(&in, c.msg, c.len / 4, 4);
    check_case(&c);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return nh_one_input(data, size);
}

/* ---- known-answer vectors ---- */

/* corpus/nh/kat.txt: published vectors and the hand-derived all-ones ones. */
static int kat_published(const char *srcdir, int *count)
{
    static struct nh_case c;
    static uint8_t keybytes[NH_KEY_BYTES];
    uint8_t want[NH_HASH_BYTES], got[NH_HASH_BYTES];
    struct vec_file vf;
    int fails = 0;
    if (vec_open(&vf, srcdir, "corpus/nh/kat.txt")) return 1;
    while (vec_next(&vf)) {
        memset(&c, 0, sizeof c);
        memset(keybytes, 0, sizeof keybytes);
        long klen = vec_get_hex(&vf, "Key", keybytes, sizeof keybytes);
        long mlen = vec_get_hex(&vf, "Message", c.msg, sizeof c.msg);
        long hlen = vec_get_hex(&vf, "Hash", want, sizeof want);
        vec_done(&vf);
        if (klen < 0 || mlen < 16 || mlen % 16 || hlen != NH_HASH_BYTES) {
            fails++;
            continue;
        }
        c.len = (size_t)mlen;
        nh_key_from_bytes(c.key, keybytes);
        nh_ref(c.key, c.msg, c.len, got);
        if (memcmp(got, want, sizeof want)) {
            fprintf(stderr, "%s:%d: the C reference gives the wrong hash\n", vf.path, vf.b.line);
            fails++;
            continue;
        }
        for (int p = 0; p < 2; p++) {
            for (int i = 0; i < 3; i++) c.place[i] = p ? GUARD_HEAD : GUARD_TAIL;
            check_case(&c);
        }
        (*count)++;
    }
    return fails + vec_close(&vf);
}

/* corpus/nh/vectors.txt: (seed, length, digest) for every length, as the Linux KUnit tests
 * store them; the inputs are regenerated here with the generator tools/gen_nh_vectors.c
 * documents (xorshift64*, state = seed; key words first, then message words). */
static uint64_t xorshift64star(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 0x2545f4914f6cdd1dull;
}

static int kat_seeded(const char *srcdir, int *count)
{
    static struct nh_case c;
    char path[4096], line[256];
    int fails = 0, lineno = 0;
    snprintf(path, sizeof path, "%s/corpus/nh/vectors.txt", srcdir);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "asmdiff: cannot open %s\n", path);
        return 1;
    }
    while (fgets(line, sizeof line, f)) {
        unsigned long long seed;
        size_t len;
        char hex[65];
        lineno++;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (sscanf(line, "%llu %zu %64s", &seed, &len, hex) != 3 || strlen(hex) != 64 ||
            len < 16 || len > NH_MESSAGE_BYTES_MAX || len % 16) {
            fprintf(stderr, "%s:%d: malformed (want 'seed length digest_hex')\n", path, lineno);
            fails++;
            continue;
        }
        memset(&c, 0, sizeof c);
        c.len = len;
        uint64_t x = seed;
        for (size_t i = 0; i < NH_KEY_WORDS; i++) c.key[i] = (uint32_t)(xorshift64star(&x) >> 32);
        for (size_t i = 0; i < len / 4; i++) {
            uint32_t w = (uint32_t)(xorshift64star(&x) >> 32);
            for (int b = 0; b < 4; b++) c.msg[4 * i + (size_t)b] = (uint8_t)(w >> (8 * b));
        }
        uint8_t want[NH_HASH_BYTES], got[NH_HASH_BYTES];
        for (int i = 0; i < NH_HASH_BYTES; i++) {
            unsigned v;
            sscanf(hex + 2 * i, "%2x", &v);
            want[i] = (uint8_t)v;
        }
        nh_ref(c.key, c.msg, c.len, got);
        if (memcmp(got, want, sizeof want)) {
            fprintf(stderr, "%s:%d: the C reference gives the wrong hash\n", path, lineno);
            fails++;
            continue;
        }
        check_case(&c);
        (*count)++;
    }
    fclose(f);
    return fails;
}

static int nh_kat(const char *srcdir)
{
    int published = 0, seeded = 0;
    int fails = kat_published(srcdir, &published) + kat_seeded(srcdir, &seeded);
    printf("nh kat: %d published/derived and %d seed-based vectors on %zu kernels, %d failures\n",
           published, seeded, NIMPLS, fails);
    return fails || !published || !seeded;
}

/* ---- edges of the length precondition ----
 * What each kernel does at and outside the documented domain, as its entry comment states:
 * with n = len & ~15, it reads exactly key bytes [0, n + 48) and message [0, n), and n == 0
 * gives an all-zero hash.  Every len in 0..1024 (not only multiples of 16) is checked with the
 * buffers sized exactly to that, against the reference at n. */
static int nh_edges(void)
{
    static struct nh_case c;
    uint64_t x = 0x6e68656467657321ull;
    unsigned long long calls = 0;
    for (size_t len = 0; len <= NH_MESSAGE_BYTES_MAX; len++) {
        size_t n = len & ~(size_t)15;
        for (size_t i = 0; i < NH_KEY_WORDS; i++) c.key[i] = (uint32_t)(xorshift64star(&x) >> 32);
        for (size_t i = 0; i < NH_MESSAGE_BYTES_MAX; i++) c.msg[i] = (uint8_t)xorshift64star(&x);
        uint8_t want[NH_HASH_BYTES] = {0};
        if (n) nh_ref(c.key, c.msg, n, want);
        for (size_t k = 0; k < NIMPLS; k++) {
            if (impl_unavailable(&impls[k].info)) continue;
            for (int p = 0; p < 2; p++) {
                enum guard_place place = p ? GUARD_HEAD : GUARD_TAIL;
                uint8_t *key = gbuf_place(&g_key, KEY_SPAN(n), place, 0);
                uint8_t *msg = gbuf_place(&g_msg, n, place, 0);
                uint8_t *hash = gbuf_place(&g_hash, NH_HASH_BYTES, place, 0);
                memcpy(key, c.key, KEY_SPAN(n));
                memcpy(msg, c.msg, n);
                ABI_CALL_CLEAN(impls[k].info.name, impls[k].fn, (const uint32_t *)key,
                               (const uint8_t *)msg, len, hash);
                long where;
                if (memcmp(hash, want, NH_HASH_BYTES) || gbuf_check_canary(&g_hash, &where)) {
                    c.len = len;
                    report_case(&c, impls[k].info.name,
                                "at the edge of the length precondition: not as documented");
                    report_diff("documented", want, impls[k].info.name, hash, NH_HASH_BYTES);
                    report_end("nh", asmdiff_mismatch_nh);
                }
                calls++;
            }
        }
    }
    printf("nh edges: every length 0..1024 on %zu kernels (%llu calls): reads stay in key[0, n+48)"
           " and message[0, n), n = len & ~15, n == 0 gives a zero hash\n",
           NIMPLS, calls);
    return 0;
}

/* ---- bench: bench-slope over messages up to 1024 bytes ---- */

struct bench_ctx {
    nh_fn fn;
    const uint32_t *key;
    const uint8_t *msg;
    uint8_t *hash;
};

static void bench_op(void *ctx, size_t bytes)
{
    struct bench_ctx *b = ctx;
    b->fn(b->key, b->msg, bytes, b->hash);
}

static void ref_fn(const uint32_t *key, const uint8_t *message, size_t len, uint8_t hash[32])
{
    nh_ref(key, message, len, hash);
}

static int nh_bench(FILE *out, int csv)
{
    static uint32_t key[NH_KEY_WORDS];
    static uint8_t msg[NH_MESSAGE_BYTES_MAX], hash[NH_HASH_BYTES];
    for (size_t i = 0; i < NH_KEY_WORDS; i++) key[i] = (uint32_t)(0x9e3779b9u * (i + 1));
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 7 + 1);
    bench_table_begin(out, "nh", csv);
    for (size_t i = 0; i <= NIMPLS; i++) {
        const char *name = i < NIMPLS ? impls[i].info.name : "c-reference";
        if (i < NIMPLS) {
            const char *why = impl_unavailable(&impls[i].info);
            if (why) {
                bench_table_na(out, "nh", name, "hash", why, csv);
                continue;
            }
        }
        struct bench_ctx b = {i < NIMPLS ? impls[i].fn : ref_fn, key, msg, hash};
        struct bench_result r = bench_slope(bench_op, &b, NH_MESSAGE_UNIT, NH_MESSAGE_BYTES_MAX);
        bench_table_row(out, "nh", name, "hash", &r, csv);
    }
    bench_table_end(out, csv);
    return 0;
}

static const struct impl_info *nh_impl(size_t i)
{
    return &impls[i].info;
}

static void nh_list_extra(FILE *out)
{
    fprintf(out, "  %-28s %-10s (authoritative)\n", "c-reference", "reference");
}

const struct family asmdiff_family = {
    .name = "nh",
    .one_input = nh_one_input,
    .nimpls = NIMPLS,
    .impl = nh_impl,
    .list_extra = nh_list_extra,
    .kat = nh_kat,
    .exhaustive = nh_edges,
    .bench = nh_bench,
};
