/* fuzz/nh.c — the NH family: the ε-almost-universal hash of Adiantum and NHPoly1305.
 *
 * Property: for every message length in NH's domain (16..1024 bytes in steps of 16), every key
 * and message (random, all-ones, top-bit words that maximise carries), each kernel's 32-byte
 * hash equals the plain C reference's (reference/nh.c, from the Adiantum paper).  The buffers
 * are exactly what the kernels' contract says they read: key bytes [0, n + 48), message
 * [0, n), hash [0, 32), with n = len & ~15.  Exhaustive: every len 0..1024 (not only multiples
 * of 16) behaves as kernels/nh/nh.h documents — the low 4 bits are ignored and n == 0 gives an
 * all-zero hash.
 */
#include <string.h>

#include "asmdiff-config.h"
#include "cpu.h"
#include "driver.h"
#include "properties.h"
#include "report.h"
#include "rng.h"
#include "vectors.h"
#include "reference/nh.h"
#if ARCH_X86_64
#include "kernels/nh/nh.h"
#endif

typedef void (*nh_fn)(const uint32_t *key, const uint8_t *message, size_t len, uint8_t hash[32]);

/* The reference with the kernels' documented edges: n = len & ~15, n == 0 hashes to zero. */
static void c_reference(const uint32_t *key, const uint8_t *message, size_t len, uint8_t hash[32])
{
    size_t n = len & ~(size_t)15;
    memset(hash, 0, NH_HASH_BYTES);
    if (n) nh_ref(key, message, n, hash);
}

static const struct impl impls[] = {
    IMPL("c-reference", 0, IMPL_REFERENCE, c_reference),
#if ARCH_X86_64
    IMPL("x86_64-sse2-addperm", CPU_SSE2, IMPL_KERNEL | IMPL_CLEAN, nh_sse2_addperm),
    IMPL("x86_64-sse2-permload", CPU_SSE2, IMPL_KERNEL | IMPL_CLEAN, nh_sse2_permload),
    IMPL("x86_64-avx2", CPU_AVX2, IMPL_KERNEL | IMPL_CLEAN, nh_avx2),
#endif
};

enum { B_KEY, B_MSG, B_HASH };
static const struct buf_spec bufs[] = {
    {"key", 1, BUF_SECRET}, {"message", 1, BUF_SECRET}, {"hash", 1, 0}};

/* The key bytes a message of n bytes reaches: 4 passes, 16 bytes apart. */
#define KEY_SPAN(n) ((n) + 16 * (NH_PASSES - 1))

static struct nh_case {
    size_t len; /* the length argument; the kernels use len & ~15 */
    uint32_t key[NH_KEY_WORDS];
    uint8_t msg[NH_MESSAGE_BYTES_MAX];
} the_case;

static void *decode(struct input *in)
{
    struct nh_case *c = &the_case;
    static const size_t widths[] = {4, 8}; /* units of 16 bytes: SSE2 takes 4 per trip, AVX2 8 */
    size_t units = input_length(in, NH_MESSAGE_BYTES_MAX / NH_MESSAGE_UNIT, widths, 2);
    c->len = (units ? units : 1) * NH_MESSAGE_UNIT;
    /* only the key words the message reaches matter */
    input_fill_words(in, c->key, KEY_SPAN(c->len) / 4, 4);
    input_fill_words(in, c->msg, c->len / 4, 4);
    return c;
}

/* Case properties (properties.h): the length in 16-byte units against the kernels' trips (4
 * units for SSE2, 8 for AVX2), its scale, and the short lengths one by one. */
static const char *const property_names[] = {"units mod 8", "units scale", "units"};
static size_t properties_of(const void *cv, struct case_property *out, size_t max)
{
    const struct nh_case *c = cv;
    size_t units = c->len / NH_MESSAGE_UNIT;
    size_t n = prop_add(out, 0, max, 0, units % 8);
    n = prop_add(out, n, max, 1, prop_log2(units / 8));
    return prop_add(out, n, max, 2, units);
}
const struct family_properties asmdiff_properties = {property_names, 3, properties_of};

static const void *expect(const void *cv)
{
    static uint8_t want[NH_HASH_BYTES];
    const struct nh_case *c = cv;
    c_reference(c->key, c->msg, c->len, want);
    return want;
}

static void run(const struct impl *im, const void *cv, const void *want)
{
    const struct nh_case *c = cv;
    size_t n = c->len & ~(size_t)15;
    const uint32_t *key = drv_in(B_KEY, c->key, KEY_SPAN(n));
    const uint8_t *msg = drv_in(B_MSG, c->msg, n);
    uint8_t *hash = drv_out(B_HASH, NH_HASH_BYTES);
    DRV_CALL((nh_fn)im->ops, key, msg, c->len, hash);
    drv_expect_equal("hash", want, hash, NH_HASH_BYTES);
}

static void params(const void *cv)
{
    const struct nh_case *c = cv;
    size_t n = c->len & ~(size_t)15;
    report_param("message_len", "%zu bytes (%zu used)", c->len, n);
    report_hex("key (first 64 bytes)", c->key, 64);
    report_hex("message (first 64 bytes)", c->msg, n < 64 ? n : 64);
}

static void vary_secrets(void *cv, uint64_t seed)
{
    struct nh_case *c = cv;
    rng_fill(&seed, c->key, sizeof c->key);
    rng_fill(&seed, c->msg, sizeof c->msg);
}

/* ---- known answers: corpus/nh/kat.txt (published) and vectors.txt (seed-based) ---- */

static int kat(const char *srcdir)
{
    struct nh_case *c = &the_case;
    static uint8_t keybytes[NH_KEY_BYTES];
    uint8_t want[NH_HASH_BYTES], got[NH_HASH_BYTES];
    struct vec_file vf;
    int count = 0;

    if (vec_open(&vf, srcdir, "corpus/nh/kat.txt")) return -1;
    while (vec_next(&vf)) {
        memset(c, 0, sizeof *c);
        memset(keybytes, 0, sizeof keybytes);
        long klen = vec_get_hex(&vf, "Key", keybytes, sizeof keybytes);
        long mlen = vec_get_hex(&vf, "Message", c->msg, sizeof c->msg);
        long hlen = vec_get_hex(&vf, "Hash", want, sizeof want);
        vec_done(&vf);
        if (klen < 0 || mlen < 16 || mlen % 16 || hlen != NH_HASH_BYTES) {
            drv_vector_errors(1);
            continue;
        }
        c->len = (size_t)mlen;
        nh_key_from_bytes(c->key, keybytes);
        c_reference(c->key, c->msg, c->len, got);
        if (drv_reference_agrees(vf.path, "hash", want, got, sizeof want)) drv_check(c);
        count++;
    }
    drv_vector_errors(vec_close(&vf));

    /* (seed, length, digest), as the Linux KUnit tests store theirs: the input is regenerated
     * with the generator tools/gen_nh_vectors.c documents */
    if (vec_open(&vf, srcdir, "corpus/nh/vectors.txt")) return -1;
    while (vec_next(&vf)) {
        long long seed = vec_get_uint(&vf, "Seed"), len = vec_get_uint(&vf, "Length");
        long hlen = vec_get_hex(&vf, "Hash", want, sizeof want);
        vec_done(&vf);
        if (seed <= 0 || len < 16 || len > NH_MESSAGE_BYTES_MAX || len % 16 ||
            hlen != NH_HASH_BYTES) {
            drv_vector_errors(1);
            continue;
        }
        memset(c, 0, sizeof *c);
        c->len = (size_t)len;
        uint64_t x = (uint64_t)seed;
        for (size_t i = 0; i < NH_KEY_WORDS; i++) c->key[i] = (uint32_t)(rng_next(&x) >> 32);
        for (size_t i = 0; i < c->len / 4; i++) {
            uint32_t w = (uint32_t)(rng_next(&x) >> 32);
            for (int b = 0; b < 4; b++) c->msg[4 * i + (size_t)b] = (uint8_t)(w >> (8 * b));
        }
        c_reference(c->key, c->msg, c->len, got);
        if (drv_reference_agrees(vf.path, "hash", want, got, sizeof want)) drv_check(c);
        count++;
    }
    drv_vector_errors(vec_close(&vf));
    return count;
}

/* ---- exhaustive: every length argument 0..1024, at the edges of the documented contract ---- */

static int exhaustive(void)
{
    struct nh_case *c = &the_case;
    uint64_t x = 0x6e68656467657321ull;
    for (size_t len = 0; len <= NH_MESSAGE_BYTES_MAX; len++) {
        rng_fill(&x, c->key, sizeof c->key);
        rng_fill(&x, c->msg, sizeof c->msg);
        c->len = len;
        drv_check(c);
    }
    return 0;
}

/* ---- bench ---- */

static const struct bench_op bench_ops[] = {{"hash", NH_MESSAGE_UNIT, NH_MESSAGE_BYTES_MAX}};

static int bench_run(const struct impl *im, size_t op, uint8_t *buf, size_t bytes)
{
    static uint32_t key[NH_KEY_WORDS];
    static uint8_t hash[NH_HASH_BYTES];
    (void)op;
    ((nh_fn)im->ops)(key, buf, bytes, hash);
    return 0;
}

/* ---- conventions an outside kernel may follow (./asmdiff check) ---- */

static const char *const nh_ops[] = {"hash"};

static const void *nh_make_ops(const struct convention *cv, const void *fn, size_t op)
{
    (void)cv, (void)op;
    return fn; /* the argument order of ours and Linux's is the same */
}

static int nh_linux_accepts(const struct convention *cv, const void *ops, const void *c_)
{
    const struct nh_case *c = c_;
    (void)cv, (void)ops;
    return c->len >= 16 && c->len % 16 == 0;
}

/* registered by name in fuzz/meson.build's 'conventions' list (driver.h: struct convention) */
const struct convention convention_linux_nh = {
    .name = "linux",
     .prototype = "void nh_sse2(const u32 *key, const u8 *message, size_t message_len, "
                  "__le64 hash[NH_NUM_PASSES]); message_len a nonzero multiple of 16, at most "
                  "1024",
     .clean = 0,
     .leftovers = CONV_LINUX_LEFTOVERS,
     .ops = nh_ops,
     .nops = 1,
     .make_ops = nh_make_ops,
     .accepts = nh_linux_accepts};
const struct convention convention_asmdiff_nh = {
    .name = "asmdiff",
     .prototype = "as kernels/nh/nh.h: any message_len, the low 4 bits ignored",
     .clean = CONV_CLEAN_VECTORS | CONV_CLEAN_STACK,
     .leftovers = "",
     .ops = nh_ops,
     .nops = 1,
     .make_ops = nh_make_ops};

const struct family asmdiff_family = {
    .name = "nh",
    .spec = "Adiantum paper, NH",
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
