/* fuzz/poly1305.c — the Poly1305 family: the one-time authenticator of RFC 8439 section 2.5.
 *
 * Property: for every key (r clamped by the implementation, s), every message length 0..
 * P1305_MAX_BLOCKS blocks plus every tail length 0..15, and every split of the message into
 * update calls at any byte (a partial block carried across calls by the caller, as Linux's and
 * OpenSSL's glue do, the final partial block padded with 0x01 and zeros and given with hibit
 * 0), each implementation's tag equals ONE call of the plain C reference (reference/poly1305.c)
 * over the whole message ("mac").  Our kernels are also run from a chained state ("chained",
 * a quarter of the cases): any accumulator h < 5 2^128 the state format allows (near p =
 * 2^130 - 5, all ones, top limbs full), whole blocks with hibit 0 or 1 split at block
 * boundaries, then emit; the reference starts from the same h.  That reaches the maximal limbs
 * directly, on top of what all-ones keys and messages reach over long runs.
 *
 * Implementations: ours (kernels/poly1305: the mulx form, the AVX-512 IFMA form, and
 * x86_64-alternating: both forms on ONE state, each blocks call going to the one the case's
 * bits choose, so the forms are switched at the case's block boundaries: the class of Linux
 * 16f2c30e290e, a state left in one form's radix read by the other), each call checked
 * (registers, guard pages, no data left in vector registers); OpenSSL's EVP_MAC POLY1305 and
 * libgcrypt's GCRY_MAC_POLY1305 fed the same pieces (their own partial-block carrying under
 * test).  Libraries have no chained state: they run "mac" only.
 */
#include <stdlib.h>
#include <string.h>

#include "asmdiff-config.h"
#include "cpu.h"
#include "driver.h"
#include "poly_upstream.h"
#include "properties.h"
#include "report.h"
#include "rng.h"
#include "vectors.h"
#include "reference/poly1305.h"
#include "reference/oracles/poly1305_oracles.h"
#if ASMDIFF_HAVE_GCRYPT
#include "reference/oracles/gcrypt_init.h"
#endif
#if ARCH_X86_64
#include "kernels/poly1305/poly1305.h"
#endif

#define P1305_MAX_BLOCKS 4160 /* past 4096: thousands of maximal blocks in one call */
#define P1305_MAX_SPLITS 7    /* at most 8 update calls */

#if !ARCH_X86_64
struct poly1305_state {
    uint64_t h[3];
    uint64_t r[2];
};
#define POLY1305_STATE_BYTES 40
#endif

typedef void (*init_fn)(struct poly1305_state *st, const uint8_t key[16]);
typedef void (*blocks_fn)(struct poly1305_state *st, const uint8_t *m, size_t nblocks,
                          uint64_t hibit);
typedef void (*emit_fn)(const struct poly1305_state *st, const uint8_t s[16], uint8_t tag[16]);

/* What an implementation is: a library's MAC over pieces, or our init/blocks/emit with one or
 * more blocks forms (more: alternated on one state, chosen per call by the case). */
struct p1305_ops {
    poly1305_lib_fn mac;
    init_fn init;
    emit_fn emit;
    blocks_fn blocks[2];
    size_t nforms;
};

/* The reference as a library: for the bench and the list. */
static int ref_mac(const uint8_t key[32], const uint8_t *msg, size_t len, const size_t *cuts,
                   size_t ncuts, uint8_t tag[16])
{
    (void)cuts, (void)ncuts;
    poly1305_ref_mac(tag, msg, len, key);
    return 0;
}

static const struct p1305_ops reference_ops = {.mac = ref_mac};
#if ARCH_X86_64
static const struct p1305_ops mulx_ops = {
    .init = poly1305_init_x86_64, .emit = poly1305_emit_x86_64,
    .blocks = {poly1305_blocks_x86_64_mulx}, .nforms = 1};
static const struct p1305_ops ifma_ops = {
    .init = poly1305_init_x86_64, .emit = poly1305_emit_x86_64,
    .blocks = {poly1305_blocks_x86_64_avx512_ifma}, .nforms = 1};
/* both forms on one state: blocks call i goes to blocks[(forms >> i) & 1] */
static const struct p1305_ops alternating_ops = {
    .init = poly1305_init_x86_64, .emit = poly1305_emit_x86_64,
    .blocks = {poly1305_blocks_x86_64_mulx, poly1305_blocks_x86_64_avx512_ifma}, .nforms = 2};
#define NEEDS_MULX (CPU_X86_64 | CPU_BMI2)
/* its final lane sum is VEX ymm/xmm (AVX2); its tail is the mulx form's */
#define NEEDS_IFMA (NEEDS_MULX | CPU_AVX | CPU_AVX2 | CPU_AVX512F | CPU_AVX512IFMA)
#endif
#if ASMDIFF_HAVE_OPENSSL
/* OpenSSL's AVX2 poly1305_blocks loads the upper 16 bytes of each ymm with vinserti128 from
 * memory, and qemu-x86_64 10.0.2's TCG reads 32 bytes for that instruction (a 16-byte
 * vinserti128 ending at a page end faults under -cpu Haswell, not on the CPU), so under the
 * host profiles' qemu models it faults in the message's guard page on every long message.
 * Where OpenSSL takes that path (a CPU without AVX-512F, as those models are) it is given a
 * copy of the message with 32 bytes of room after it; elsewhere the guarded buffer itself. */
static int openssl_mac(const uint8_t key[32], const uint8_t *msg, size_t len, const size_t *cuts,
                       size_t ncuts, uint8_t tag[16])
{
    static uint8_t copy[16 * P1305_MAX_BLOCKS + 15 + 32];
    if (cpu_features_detected() & CPU_AVX512F)
        return oracle_openssl_poly1305(key, msg, len, cuts, ncuts, tag);
    memcpy(copy, msg, len);
    return oracle_openssl_poly1305(key, copy, len, cuts, ncuts, tag);
}
static const struct p1305_ops openssl_ops = {.mac = openssl_mac};
#endif
#if ASMDIFF_HAVE_GCRYPT
static const struct p1305_ops gcrypt_ops = {.mac = oracle_gcrypt_poly1305};
#endif

static const struct impl impls[] = {
    IMPL("c-reference", 0, IMPL_REFERENCE, &reference_ops),
#if ARCH_X86_64
    IMPL("x86_64-mulx", NEEDS_MULX, IMPL_KERNEL | IMPL_CLEAN, &mulx_ops),
    IMPL("x86_64-avx512-ifma", NEEDS_IFMA, IMPL_KERNEL | IMPL_CLEAN, &ifma_ops),
    IMPL("x86_64-alternating", NEEDS_IFMA, IMPL_KERNEL | IMPL_CLEAN, &alternating_ops),
#endif
#if ASMDIFF_HAVE_OPENSSL
    IMPL("openssl", 0, IMPL_LIBRARY, &openssl_ops,
         .unavailable = oracle_openssl_poly1305_unavailable,
         .describe = oracle_openssl_poly1305_describe),
#endif
#if ASMDIFF_HAVE_GCRYPT
    IMPL("libgcrypt", 0, IMPL_LIBRARY, &gcrypt_ops,
         .unavailable = oracle_gcrypt_poly1305_unavailable, .describe = oracle_gcrypt_describe,
         .label = oracle_gcrypt_label, .version = oracle_gcrypt_version, .hwf = oracle_gcrypt_hwf),
#endif
};

enum { B_KEY, B_MSG, B_STATE, B_PARTIAL, B_TAG };
static const struct buf_spec bufs[] = {{"key", 1, BUF_SECRET},
                                       {"message", 1, BUF_SECRET},
                                       {"state", 8, BUF_SECRET},
                                       {"partial block", 1, BUF_SECRET},
                                       {"tag", 1, 0}};

static struct p1305_case {
    uint8_t key[32];
    size_t len; /* message bytes */
    uint8_t msg[16 * P1305_MAX_BLOCKS + 15];
    size_t nsplits;
    size_t split[P1305_MAX_SPLITS]; /* ascending byte offsets where an update call begins */
    uint32_t forms;                 /* bit i: the form of blocks call i (alternating) */
    /* the chained run: from h (h[2] <= 4), whole blocks with hibit */
    int chained;
    uint64_t start[3];
    unsigned hibit;
} the_case;

struct p1305_want {
    uint8_t mac[16];
    uint8_t chained[16];
};

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

static void *decode(struct input *in)
{
    struct p1305_case *c = &the_case;
    /* the IFMA form's group of 8 blocks, and the mulx form's one */
    static const size_t widths[] = {8, 16, 64};
    size_t blocks = input_length(in, P1305_MAX_BLOCKS, widths, 3);
    size_t tail = input_pick(in, 16);
    if (blocks == P1305_MAX_BLOCKS && tail) blocks--;
    c->len = 16 * blocks + tail;
    /* key first: r and s words from the edge patterns (all ones: r maximal after clamping) */
    input_fill_words(in, c->key, 4, 8);
    input_fill_words(in, c->msg, (c->len + 7) / 8, 8);
    c->nsplits = input_pick(in, 3) == 0 ? (size_t)input_range(in, 1, P1305_MAX_SPLITS) : 0;
    for (size_t i = 0; i < c->nsplits; i++) c->split[i] = (size_t)input_range(in, 0, c->len);
    qsort(c->split, c->nsplits, sizeof c->split[0], cmp_size);
    c->forms = (uint32_t)input_range(in, 0, UINT32_MAX);
    c->chained = input_pick(in, 4) == 0;
    if (c->chained) {
        input_fill_words(in, c->start, 2, 8);
        c->start[2] = input_range(in, 0, 4);
        c->hibit = input_bool(in) ? 0 : 1;
    } else {
        memset(c->start, 0, sizeof c->start);
        c->hibit = 1;
    }
    return c;
}

/* ---- the calls a case makes, shared by the reference check and run() ----
 * "mac": update calls over the pieces, a partial block carried by the caller. */

struct caller {
    const struct p1305_ops *ops;
    const struct poly_upstream *up; /* an outside kernel's calls (its convention's), or NULL */
    const struct p1305_case *c;
    void *st;
    size_t calls; /* blocks calls made: call i goes to form (c->forms >> i) & 1 */
};

static void call_blocks(struct caller *k, const uint8_t *m, size_t n, uint64_t hibit)
{
    k->calls++;
    unsigned bit = (k->c->forms >> ((k->calls - 1) % 32)) & 1;
    if (k->up) { /* the bit: the runtime choice of its glue, if it has one (poly_upstream.h) */
        k->up->blocks(k->up, k->st, m, n, (unsigned)hibit, bit);
        return;
    }
    DRV_CALL(k->ops->blocks[k->ops->nforms > 1 ? bit : 0], k->st, m, n, hibit);
}

/* One block from C memory: placed on its own guarded buffer for the call. */
static void call_one(struct caller *k, const uint8_t block[16], uint64_t hibit)
{
    const uint8_t *b = drv_in(B_PARTIAL, block, 16);
    call_blocks(k, b, 1, hibit);
}

static size_t cut(const struct p1305_case *c, size_t i)
{
    return i < c->nsplits ? c->split[i] : c->len;
}

/* The block counts of the blocks calls a case makes, in run()'s order: "mac" (a carried
 * block filled: 1; the whole blocks of a piece; the padded last block: 1), then "chained"
 * (one call per piece, empty ones included).  Returns how many (at most max are stored). */
static size_t case_calls(const struct p1305_case *c, size_t *calls, unsigned *forms, size_t max)
{
    size_t n = 0, have = 0, index = 0; /* index: the call's bit in c->forms */
#define CALL(k)                                                                              \
    do {                                                                                     \
        if (n < max) calls[n] = (k), forms[n] = (c->forms >> (index % 32)) & 1;             \
        n++, index++;                                                                        \
    } while (0)
    for (size_t i = 0, from = 0; i <= c->nsplits; i++) {
        size_t to = cut(c, i), at = from;
        if (have) {
            size_t take = 16 - have < to - at ? 16 - have : to - at;
            have += take;
            at += take;
            if (have == 16) {
                CALL(1);
                have = 0;
            }
        }
        if ((to - at) / 16) CALL((to - at) / 16);
        have += (to - at) % 16;
        from = to;
    }
    if (have) CALL(1);
    index = 0; /* run() counts the chained calls' forms from bit 0 again */
    if (c->chained)
        for (size_t i = 0, b0 = 0; i <= c->nsplits; i++) {
            size_t b1 = cut(c, i) / 16;
            CALL(b1 - b0);
            b0 = b1;
        }
#undef CALL
    return n;
}

/* ---- case properties (properties.h) ----
 * Per blocks call: its count mod 8 (the IFMA form's lanes; what it leaves to the mulx form),
 * and its groups of 8 as the kernels branch on them (0: no block, the mulx form's early
 * return; 1: 1..7 blocks, the mulx form alone; 2: one group, the last group only; from two
 * groups, pairs of groups: 3 + whether the count is odd (the single-chain step first) + 2
 * when there are two pairs or more (the 16-block loop entered) + 2 more from three pairs (the
 * loop taken back)); the same with the form x86_64-alternating gives the call (9 form +
 * groups: whether that implementation enters the IFMA form, and how far); per case: the tail
 * length and the chained start's top limb (0: not chained). */
static const char *const property_names[] = {"call blocks mod 8", "call groups", "tail",
                                             "chained top limb", "alternating form, groups"};
static size_t properties_of(const void *cv, struct case_property *out, size_t max)
{
    const struct p1305_case *c = cv;
    size_t calls[2 * P1305_MAX_SPLITS + 4];
    unsigned forms[2 * P1305_MAX_SPLITS + 4];
    size_t k = case_calls(c, calls, forms, sizeof calls / sizeof calls[0]), n = 0;
    for (size_t i = 0; i < k && i < sizeof calls / sizeof calls[0]; i++) {
        size_t g = calls[i] / 8;
        size_t groups = !calls[i]  ? 0
                        : g == 0   ? 1
                        : g == 1   ? 2
                                   : 3 + g % 2 + 2 * (g / 2 >= 2) + 2 * (g / 2 >= 3);
        n = prop_add(out, n, max, 0, calls[i] % 8);
        n = prop_add(out, n, max, 1, groups);
        n = prop_add(out, n, max, 4, 9 * forms[i] + groups);
    }
    n = prop_add(out, n, max, 2, c->len % 16);
    return prop_add(out, n, max, 3, c->chained ? 1 + c->start[2] : 0);
}
const struct family_properties asmdiff_properties = {property_names, 5, properties_of};

static void start_bytes(const struct p1305_case *c, uint8_t acc[17])
{
    for (int i = 0; i < 17; i++) acc[i] = (uint8_t)(c->start[i / 8] >> (8 * (i % 8)));
}

static const void *expect(const void *cv)
{
    static struct p1305_want want;
    const struct p1305_case *c = cv;
    poly1305_ref_mac(want.mac, c->msg, c->len, c->key);
    struct poly1305_ref ref;
    uint8_t acc[17];
    poly1305_ref_init(&ref, c->key);
    start_bytes(c, acc);
    poly1305_ref_set_acc(&ref, acc);
    poly1305_ref_blocks(&ref, c->msg, c->len / 16, c->hibit);
    poly1305_ref_final(&ref, want.chained);
    return &want;
}

static void run(const struct impl *im, const void *cv, const void *want_)
{
    const struct p1305_case *c = cv;
    const struct p1305_want *want = want_;
    const struct p1305_ops *ops = im->ops;
    const uint8_t *key = drv_in(B_KEY, c->key, 32);
    const uint8_t *msg = drv_in(B_MSG, c->msg, c->len);
    uint8_t *tag;

    /* an outside kernel: its convention's calls on a state of its home's size, "mac" only */
    const struct poly_upstream *up = (im->flags & IMPL_OUTSIDE) ? im->ops : NULL;
    drv_op("mac");
    if (!up && ops->mac) { /* a library: its own update calls over the same pieces */
        tag = drv_out(B_TAG, 16);
        drv_expect_word("library return", 0,
                        (uint64_t)ops->mac(key, msg, c->len, c->split, c->nsplits, tag));
        drv_expect_equal("tag", want->mac, tag, 16);
        return;
    }

    static const uint64_t zeros[32];
    struct caller k = {.ops = up ? NULL : ops, .up = up, .c = c};
    if (up) {
        k.st = drv_inout(B_STATE, zeros, up->state_bytes);
        up->init(up, k.st, key);
    } else {
        k.st = drv_inout(B_STATE, zeros, POLY1305_STATE_BYTES);
        DRV_CALL(ops->init, k.st, key);
    }
    uint8_t partial[16];
    size_t have = 0, from = 0;
    for (size_t i = 0; i <= c->nsplits; i++) {
        size_t to = cut(c, i), at = from;
        if (have) { /* fill the carried block first */
            size_t take = 16 - have < to - at ? 16 - have : to - at;
            memcpy(partial + have, c->msg + at, take);
            have += take;
            at += take;
            if (have == 16) {
                call_one(&k, partial, 1);
                have = 0;
            }
        }
        size_t whole = (to - at) / 16;
        if (whole) call_blocks(&k, msg + at, whole, 1);
        at += 16 * whole;
        memcpy(partial + have, c->msg + at, to - at);
        have += to - at;
        from = to;
    }
    if (have) { /* the last partial block: its bytes, 0x01, zeros; hibit 0 */
        partial[have] = 1;
        memset(partial + have + 1, 0, 15 - have);
        call_one(&k, partial, 0);
    }
    tag = drv_out(B_TAG, 16);
    if (up)
        up->emit(up, k.st, key + 16, tag);
    else
        DRV_CALL(ops->emit, k.st, key + 16, tag);
    drv_expect_equal("tag", want->mac, tag, 16);

    if (!c->chained || up) return;
    /* the chained run: the state built in the shared format, whole blocks split at block
     * boundaries (each split rounded down to its block), then emit */
    drv_op("chained");
    struct poly1305_state s0;
    memcpy(s0.h, c->start, sizeof s0.h);
    s0.r[0] = (c->key[0] | (uint64_t)c->key[1] << 8 | (uint64_t)c->key[2] << 16 |
               (uint64_t)c->key[3] << 24 | (uint64_t)c->key[4] << 32 |
               (uint64_t)c->key[5] << 40 | (uint64_t)c->key[6] << 48 |
               (uint64_t)c->key[7] << 56) & 0x0ffffffc0fffffffull;
    s0.r[1] = (c->key[8] | (uint64_t)c->key[9] << 8 | (uint64_t)c->key[10] << 16 |
               (uint64_t)c->key[11] << 24 | (uint64_t)c->key[12] << 32 |
               (uint64_t)c->key[13] << 40 | (uint64_t)c->key[14] << 48 |
               (uint64_t)c->key[15] << 56) & 0x0ffffffc0ffffffcull;
    k.st = drv_inout(B_STATE, &s0, POLY1305_STATE_BYTES);
    k.calls = 0;
    size_t b0 = 0;
    for (size_t i = 0; i <= c->nsplits; i++) {
        size_t b1 = cut(c, i) / 16;
        call_blocks(&k, msg + 16 * b0, b1 - b0, c->hibit);
        b0 = b1;
    }
    tag = drv_out(B_TAG, 16);
    DRV_CALL(ops->emit, k.st, key + 16, tag);
    drv_expect_equal("chained tag", want->chained, tag, 16);
}

static void params(const void *cv)
{
    const struct p1305_case *c = cv;
    char calls[200];
    report_param("message_len", "%zu bytes (%zu blocks and %zu)", c->len, c->len / 16,
                 c->len % 16);
    size_t used = (size_t)snprintf(calls, sizeof calls, "%zu:", c->nsplits + 1);
    for (size_t i = 0, from = 0; i <= c->nsplits && used < sizeof calls; i++) {
        used += (size_t)snprintf(calls + used, sizeof calls - used, " [%zu,%zu)", from, cut(c, i));
        from = cut(c, i);
    }
    report_param("update calls", "%s (expected: the reference over the whole message)", calls);
    report_param("forms", "0x%08x (bit i for blocks call i: x86_64-alternating's form, 0 mulx, "
                 "1 avx512-ifma; an outside kernel's glue choice, linux: 1 SIMD unusable)",
                 (unsigned)c->forms);
    if (c->chained)
        report_param("chained start", "h = %#llx %016llx %016llx, hibit %u",
                     (unsigned long long)c->start[2], (unsigned long long)c->start[1],
                     (unsigned long long)c->start[0], c->hibit);
    report_hex("key (r || s)", c->key, 32);
    report_hex(c->len > 256 ? "message (first 256 bytes)" : "message", c->msg,
               c->len > 256 ? 256 : c->len);
}

static void vary_secrets(void *cv, uint64_t seed)
{
    struct p1305_case *c = cv;
    rng_fill(&seed, c->key, sizeof c->key);
    rng_fill(&seed, c->msg, c->len);
    if (c->chained) {
        rng_fill(&seed, c->start, 16);
        c->start[2] = rng_next(&seed) % 5;
    }
}

/* ---- known answers: corpus/poly1305/kat.txt (RFC 8439 2.5.2 and A.3) ----
 * each whole, then split once at each of the first and last 18 byte offsets: every length of
 * a carried partial block, at the message's start and end */

static int kat(const char *srcdir)
{
    struct p1305_case *c = &the_case;
    uint8_t want[16], got[16];
    struct vec_file vf;
    int count = 0;
    if (vec_open(&vf, srcdir, "corpus/poly1305/kat.txt")) return -1;
    while (vec_next(&vf)) {
        memset(c, 0, sizeof *c);
        long klen = vec_get_hex(&vf, "Key", c->key, 32);
        long mlen = vec_get_hex(&vf, "Message", c->msg, sizeof c->msg);
        long tlen = vec_get_hex(&vf, "Tag", want, 16);
        vec_done(&vf);
        if (klen != 32 || mlen < 0 || tlen != 16) {
            fprintf(stderr, "%s:%d: want Key of 32 bytes, Message, Tag of 16 bytes\n", vf.path,
                    vf.b.line);
            drv_vector_errors(1);
            continue;
        }
        c->len = (size_t)mlen;
        c->hibit = 1;
        count++;
        poly1305_ref_mac(got, c->msg, c->len, c->key);
        if (!drv_reference_agrees(vf.path, "tag", want, got, 16)) continue;
        drv_check(c);
        c->nsplits = 1;
        for (size_t s = 0; s <= c->len; s++) {
            if (s > 17 && s + 17 < c->len) continue; /* every carried length, early and late */
            c->split[0] = s;
            c->forms = (uint32_t)s * 0x9e3779b9u;
            drv_check(c);
        }
    }
    drv_vector_errors(vec_close(&vf));
    return count;
}

/* ---- exhaustive: every tail length, and long maximal runs ----
 * (1) every length 0..16 * 17 + 15 bytes, all-ones key and message (r and s maximal after
 *     clamping), then random ones, each whole and split at each byte below 16;
 * (2) maximal runs: P1305_MAX_BLOCKS all-ones blocks with hibit 1 from the largest
 *     accumulators the state allows (5 2^128 - 1; p - 1, p, p + 4 = 2^130 - 1; 0), the class
 *     of Linux 678cce4019d7 (a partial reduction that overflowed on long maximal input). */

static int exhaustive(void)
{
    struct p1305_case *c = &the_case;
    uint64_t x = 0x706f6c7931333035ull;
    memset(c, 0, sizeof *c);
    for (int pattern = 0; pattern < 2; pattern++)
        for (size_t len = 0; len <= 16 * 17 + 15; len++) {
            if (pattern) {
                rng_fill(&x, c->key, 32);
                rng_fill(&x, c->msg, len);
            } else {
                memset(c->key, 0xff, 32);
                memset(c->msg, 0xff, len);
            }
            c->len = len;
            c->nsplits = 0;
            c->chained = 0;
            c->hibit = 1;
            memset(c->start, 0, sizeof c->start);
            drv_check(c);
            c->nsplits = 1;
            c->split[0] = len % 16;
            c->forms = (uint32_t)rng_next(&x);
            drv_check(c);
        }
    static const uint64_t starts[][3] = {
        {~0ull, ~0ull, 4},       /* 5 2^128 - 1: the largest state */
        {~0ull - 5, ~0ull, 3},   /* p - 1 */
        {~0ull - 4, ~0ull, 3},   /* p */
        {~0ull, ~0ull, 3},       /* 2^130 - 1 = p + 4 */
        {0, 0, 0},
    };
    memset(c->key, 0xff, 32);
    c->len = 16 * P1305_MAX_BLOCKS;
    memset(c->msg, 0xff, c->len);
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
        for (unsigned hibit = 0; hibit < 2; hibit++) {
            memcpy(c->start, starts[i], sizeof c->start);
            c->chained = 1;
            c->hibit = hibit;
            c->nsplits = 0;
            c->forms = (uint32_t)rng_next(&x);
            drv_check(c);
        }
    return 0;
}

/* ---- bench ---- */

static const struct bench_op bench_ops[] = {{"mac", 16, 16384}};

static int bench_run(const struct impl *im, size_t op, uint8_t *buf, size_t bytes)
{
    static const uint8_t key[32] = {0x85, 0xd6, 0xbe, 0x78, 0x57, 0x55, 0x6d, 0x33,
                                    0x7f, 0x44, 0x52, 0xfe, 0x42, 0xd5, 0x06, 0xa8};
    const struct p1305_ops *ops = im->ops;
    uint8_t tag[16];
    (void)op;
    if (im->flags & IMPL_OUTSIDE) { /* its convention's direct calls: one of all the blocks */
        const struct poly_upstream *k = im->ops;
        uint64_t state[32]; /* state_bytes: at most 256 */
        if (!k->bench_blocks || !bytes) return -1;
        k->init(k, state, key);
        k->bench_blocks(k, state, buf, bytes / 16);
        k->emit(k, state, key + 16, tag);
        return 0;
    }
    if (ops->mac) return ops->mac(key, buf, bytes, NULL, 0, tag);
    if (ops->nforms > 1) return -1; /* the alternation is a test, not a speed */
    struct poly1305_state st;
    ops->init(&st, key);
    ops->blocks[ops->nforms - 1](&st, buf, bytes / 16, 1);
    ops->emit(&st, key + 16, tag);
    return 0;
}

const struct family asmdiff_family = {
    .name = "poly1305",
    .spec = "RFC 8439 section 2.5",
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
