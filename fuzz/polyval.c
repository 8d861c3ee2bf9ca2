/* fuzz/polyval.c — the POLYVAL family: the running-state update of RFC 8452's universal hash.
 *
 * Property: for every key, every starting state, every block count 0..POLYVAL_MAX_BLOCKS and
 * every split of the message into successive update calls (empty calls included), each
 * implementation's final state equals ONE call of the plain C reference (reference/polyval.c)
 * over the whole message.  Implementations run through the checked call, in guarded buffers at
 * any alignment; they must not write outside the 16-byte state nor into the key or the message,
 * and the assembly kernels must leave no data in vector registers (abi_call_clean).
 *
 * Implementations: the Zvkg kernels in both forms (kernels/polyval/polyval-riscv64-zvkg.S) on
 * riscv64 CPUs with V and Zvkg, and everywhere the portable GHASH-route model
 * (kernels/polyval/polyval-portable-ghash.c), which is also what a CPU without Zvkg still tests.
 * Block counts cluster around the kernels' VLEN-dependent group sizes: the blocks one vector
 * register holds (vlenb / 16) and the groups of LMUL 4 and 8.
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
#include "kernels/polyval/polyval.h"
#include "polyval.h" /* reference */
#include "report.h"
#include "vectors.h"

#if !defined(ASMDIFF_HAVE_LIBFUZZER)
/* meson.build: cdata.set10('ASMDIFF_HAVE_LIBFUZZER', fuzzing) */
#error "asmdiff-config.h lacks ASMDIFF_HAVE_LIBFUZZER"
#endif

#define POLYVAL_MAX_BLOCKS 136 /* past two LMUL=8 groups at VLEN 1024 (2 x 64 blocks) */
#define POLYVAL_MAX_SPLITS 7   /* at most 8 update calls per input */

typedef void (*polyval_fn)(uint8_t state[16], const uint8_t key_h[16], const uint8_t *blocks,
                           size_t nblocks);

struct polyval_impl {
    struct impl_info info;
    polyval_fn update;
    int clears_vectors; /* promises no data left in vector registers: checked */
};

static const struct polyval_impl impls[] = {
#if ARCH_RISCV64
    {{"zvkg-lmul1", CPU_RV_V | CPU_RV_ZVKG}, polyval_update_zvkg_lmul1, 1},
    {{"zvkg-fraclmul", CPU_RV_V | CPU_RV_ZVKG}, polyval_update_zvkg_fraclmul, 1},
#endif
    /* C: the compiler may leave anything in vector registers, so only the ABI is checked */
    {{"portable-ghash", 0}, polyval_update_portable_ghash, 0},
    {{"", 0}, NULL, 0}, /* end marker; keeps the array's shape on every ISA */
};
#define NIMPLS (sizeof impls / sizeof impls[0] - 1)

ASMDIFF_DEFINE_CRASH(polyval)

/* Everything one check needs; decoded once from the input. */
struct polyval_case {
    uint8_t h[16];
    uint8_t start[16]; /* state before the first call: 0 in POLYVAL, anything when chained */
    size_t nblocks;
    uint8_t msg[16 * POLYVAL_MAX_BLOCKS];
    size_t nsplits;
    size_t split[POLYVAL_MAX_SPLITS]; /* ascending block indices where a new call begins */
    enum guard_place place[3];        /* message, state, key */
    size_t offset[3];
};

static struct gbuf g_msg, g_state, g_key;

/* Bytes per vector register, 0 where there is none (x86-64 builds, riscv64 without V). */
static unsigned vlenb(void)
{
#if ARCH_RISCV64
    return cpu_riscv_vlenb();
#else
    return 0;
#endif
}

/* The LMUL the fraclmul form reverses at, for the list and reports. */
static const char *fraclmul_lmul(unsigned b)
{
    return b >= 128 ? "mf8" : b >= 64 ? "mf4" : b >= 32 ? "mf2" : "m1";
}

static void report_case(const struct polyval_case *c, const char *impl, const char *what)
{
    char title[200], calls[160];
    snprintf(title, sizeof title, "%s: %s", impl, what);
    report_begin("polyval", title);
    report_param("implementation", "%s", impl);
    report_param("blocks", "%zu (%zu bytes)", c->nblocks, 16 * c->nblocks);
    size_t used = (size_t)snprintf(calls, sizeof calls, "%zu:", c->nsplits + 1);
    size_t from = 0;
    for (size_t k = 0; k <= c->nsplits && used < sizeof calls; k++) {
        size_t to = k < c->nsplits ? c->split[k] : c->nblocks;
        used += (size_t)snprintf(calls + used, sizeof calls - used, " [%zu,%zu)", from, to);
        from = to;
    }
    report_param("update calls", "%s (expected: one reference call over all blocks)", calls);
    report_param("message buffer", "%s, offset %zu", guard_place_name(c->place[0]), c->offset[0]);
    report_param("state buffer", "%s, offset %zu", guard_place_name(c->place[1]), c->offset[1]);
    report_param("key buffer", "%s, offset %zu", guard_place_name(c->place[2]), c->offset[2]);
    if (vlenb())
        report_param("vector length",
                     "VLEN %u (vlenb %u; zvkg-fraclmul is meant to reverse at e8, %s)",
                     8 * vlenb(), vlenb(), fraclmul_lmul(vlenb()));
    report_hex("key H", c->h, 16);
    report_hex("start state", c->start, 16);
    size_t show = 16 * c->nblocks < 512 ? 16 * c->nblocks : 512;
    report_hex(show < 16 * c->nblocks ? "message (first 512 bytes)" : "message", c->msg, show);
}

/* Expected: the reference, one call over the whole message. */
static void expected(const struct polyval_case *c, uint8_t out[16])
{
    struct polyval_ctx ctx;
    polyval_init(&ctx, c->h);
    memcpy(ctx.s, c->start, 16);
    polyval_update(&ctx, c->msg, c->nblocks);
    polyval_final(&ctx, out);
}

static void check_impl(const struct polyval_case *c, const struct polyval_impl *k,
                       const uint8_t exp[16])
{
    size_t bytes = 16 * c->nblocks;
    uint8_t *msg = gbuf_place(&g_msg, bytes, c->place[0], c->offset[0]);
    uint8_t *state = gbuf_place(&g_state, 16, c->place[1], c->offset[1]);
    uint8_t *key = gbuf_place(&g_key, 16, c->place[2], c->offset[2]);
    memcpy(msg, c->msg, bytes);
    memcpy(state, c->start, 16);
    memcpy(key, c->h, 16);

    size_t from = 0;
    for (size_t i = 0; i <= c->nsplits; i++) {
        size_t to = i < c->nsplits ? c->split[i] : c->nblocks;
        if (k->clears_vectors)
            ABI_CALL_CLEAN(k->info.name, k->update, state, key, msg + 16 * from, to - from);
        else
            ABI_CALL(k->info.name, k->update, state, key, msg + 16 * from, to - from);
        from = to;
    }

    if (memcmp(state, exp, 16)) {
        report_case(c, k->info.name, "final state differs from the C reference");
        report_diff("c-reference", exp, k->info.name, state, 16);
        report_end("polyval", asmdiff_mismatch_polyval);
    }
    const struct gbuf_use bufs[] = {
        {"message", &g_msg, c->msg}, {"state", &g_state, NULL}, {"key", &g_key, c->h}};
    char what[128];
    size_t bad;
    int why = gbuf_after_call(bufs, 3, what, sizeof what, &bad);
    if (why) {
        report_case(c, k->info.name, what);
        if (why == 2)
            report_diff("original", bufs[bad].orig, k->info.name, bufs[bad].g->p, bufs[bad].g->len);
        report_end("polyval", asmdiff_mismatch_polyval);
    }
}

/* The one comparison path: fuzz inputs, vectors and the exhaustive check all come here. */
static void check_case(const struct polyval_case *c)
{
    uint8_t exp[16];
    expected(c, exp);
    for (size_t i = 0; i < NIMPLS; i++)
        if (!impl_unavailable(&impls[i].info)) check_impl(c, &impls[i], exp);
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

static int polyval_one_input(const uint8_t *data, size_t size)
{
    static struct polyval_case c;
    struct input in;
    input_init(&in, data, size);

    /* Group sizes in blocks: one vector register, and LMUL 4 and 8 groups of them.  Without
     * vectors, the blocks one register holds at VLEN 256, 512 and 1024, so inputs found on
     * other hosts still land near group boundaries when replayed on riscv64. */
    size_t widths[3] = {2, 4, 8};
    if (vlenb() >= 16) {
        widths[0] = vlenb() / 16;
        widths[1] = vlenb() / 4;
        widths[2] = vlenb() / 2;
    }
    /* What decides the hash comes first: a short input (where coverage-guided fuzzing starts)
     * then already gets a nonzero key and message from the patterns (all-ones, top bits, ...),
     * and a zero key or message, which hides most bugs, is no more likely than any other. */
    c.nblocks = input_length(&in, POLYVAL_MAX_BLOCKS, widths, 3);
    input_fill_words(&in, c.h, 2, 8);
    input_fill_words(&in, c.msg, 2 * c.nblocks, 8);
    if (input_pick(&in, 4) == 0)
        input_fill_words(&in, c.start, 2, 8);
    else
        memset(c.start, 0, 16);
    c.nsplits = input_pick(&in, 3) == 0 ? (size_t)input_range(&in, 1, POLYVAL_MAX_SPLITS) : 0;
    for (size_t i = 0; i < c.nsplits; i++) c.split[i] = (size_t)input_range(&in, 0, c.nblocks);
    qsort(c.split, c.nsplits, sizeof c.split[0], cmp_size);
    for (int i = 0; i < 3; i++) {
        c.place[i] = input_bool(&in) ? GUARD_HEAD : GUARD_TAIL;
        /* any byte offset: vle8 has no alignment requirement, so none may be assumed */
        c.offset[i] = input_pick(&in, 4) == 0 ? (size_t)input_range(&in, 1, 63) : 0;
    }
    check_case(&c);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return polyval_one_input(data, size);
}

/* ---- known-answer vectors: corpus/polyval/kat.txt ---- */

static int polyval_kat(const char *srcdir)
{
    static struct polyval_case c;
    uint8_t want[16], got[16];
    struct vec_file vf;
    int fails = 0, count = 0;
    if (vec_open(&vf, srcdir, "corpus/polyval/kat.txt")) return 1;
    while (vec_next(&vf)) {
        memset(&c, 0, sizeof c);
        long hlen = vec_get_hex(&vf, "H", c.h, 16);
        long xlen = vec_get_hex(&vf, "X", c.msg, sizeof c.msg);
        long rlen = vec_get_hex(&vf, "Result", want, 16);
        vec_done(&vf);
        if (hlen != 16 || rlen != 16 || xlen < 0 || xlen % 16) {
            fprintf(stderr, "%s:%d: want H and Result of 16 bytes, X of whole 16-byte blocks\n",
                    vf.path, vf.b.line);
            fails++;
            continue;
        }
        c.nblocks = (size_t)xlen / 16;
        /* The reference must give the published answer ... */
        expected(&c, got);
        if (memcmp(got, want, 16)) {
            fprintf(stderr, "%s:%d: c-reference gives the wrong answer\n", vf.path, vf.b.line);
            fails++;
            continue;
        }
        /* ... and then every implementation must equal it: whole, split before every block,
         * and in both buffer placements. */
        for (int p = 0; p < 2; p++) {
            for (int i = 0; i < 3; i++) c.place[i] = p ? GUARD_HEAD : GUARD_TAIL;
            c.nsplits = 0;
            check_case(&c);
            c.nsplits = 1;
            for (size_t s = 0; s <= c.nblocks; s++) {
                c.split[0] = s;
                check_case(&c);
            }
        }
        count++;
    }
    fails += vec_close(&vf);
    size_t runnable = 0;
    for (size_t i = 0; i < NIMPLS; i++) runnable += !impl_unavailable(&impls[i].info);
    printf("polyval kat: %d vectors on %zu of %zu implementations, %d failures\n", count, runnable,
           NIMPLS, fails);
    return fails || count == 0;
}

/* ---- exhaustive: the whole multiplication table on one block ----
 * dot(X, H) is bilinear, so one block with H and X running over all 128 x 128 pairs of basis
 * elements (single set bits) pins down every product an implementation can form; then the same
 * with the starting state as the basis element and X = 0, which checks that the state is read
 * in the right bit order as well. */

static int polyval_exhaustive(void)
{
    static struct polyval_case c;
    unsigned long long cases = 0;
    memset(&c, 0, sizeof c);
    c.nblocks = 1;
    for (int i = 0; i < 128; i++)
        for (int j = 0; j < 128; j++) {
            memset(c.h, 0, 16);
            memset(c.msg, 0, 16);
            memset(c.start, 0, 16);
            c.h[i / 8] = (uint8_t)(1u << (i % 8));
            c.msg[j / 8] = (uint8_t)(1u << (j % 8));
            check_case(&c);
            memset(c.msg, 0, 16);
            c.start[j / 8] = (uint8_t)(1u << (j % 8));
            check_case(&c);
            cases += 2;
        }
    size_t runnable = 0;
    for (size_t i = 0; i < NIMPLS; i++) runnable += !impl_unavailable(&impls[i].info);
    printf("polyval exhaustive: %llu basis products (key x block, key x state) on %zu "
           "implementations, no mismatch\n",
           cases, runnable);
    return 0;
}

/* ---- bench ---- */

#define BENCH_BYTES 4096

struct bench_ctx {
    polyval_fn fn;
    uint8_t state[16], key[16];
    const uint8_t *msg;
};

static void bench_op(void *ctx, size_t bytes)
{
    struct bench_ctx *b = ctx;
    b->fn(b->state, b->key, b->msg, bytes / 16);
}

static void reference_update(uint8_t state[16], const uint8_t key_h[16], const uint8_t *blocks,
                             size_t nblocks)
{
    struct polyval_ctx ctx;
    polyval_init(&ctx, key_h);
    memcpy(ctx.s, state, 16);
    polyval_update(&ctx, blocks, nblocks);
    polyval_final(&ctx, state);
}

static void bench_row(FILE *out, int csv, const char *name, polyval_fn fn, const uint8_t *msg)
{
    struct bench_ctx b = {fn, {0}, {0}, msg};
    for (int i = 0; i < 16; i++) b.key[i] = (uint8_t)(0x9e * (i + 1));
    struct bench_result r = bench_slope(bench_op, &b, 16, BENCH_BYTES);
    bench_table_row(out, "polyval", name, "update", &r, csv);
}

static int polyval_bench(FILE *out, int csv)
{
    static uint8_t msg[BENCH_BYTES];
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 0x9d + 7);
    bench_table_begin(out, "polyval", csv);
    for (size_t i = 0; i < NIMPLS; i++) {
        const char *why = impl_unavailable(&impls[i].info);
        if (why) {
            bench_table_na(out, "polyval", impls[i].info.name, "update", why, csv);
            continue;
        }
        bench_row(out, csv, impls[i].info.name, impls[i].update, msg);
    }
    bench_row(out, csv, "c-reference", reference_update, msg);
    bench_table_end(out, csv);
    return 0;
}

/* ---- registration ---- */

static const struct impl_info *polyval_impl(size_t i)
{
    return &impls[i].info;
}

static void polyval_list_extra(FILE *out)
{
    fprintf(out, "  %-28s %-10s (authoritative)\n", "c-reference", "reference");
#if ARCH_RISCV64
    if (!vlenb())
        fprintf(out, "  vector length: none (the CPU has no V)\n");
    else if (impl_unavailable(&impls[0].info))
        fprintf(out, "  vector length: VLEN %u bits (vlenb %u); the Zvkg forms do not run here\n",
                8 * vlenb(), vlenb());
    else
        fprintf(out, "  vector length: VLEN %u bits (vlenb %u): zvkg-fraclmul reverses at e8, %s; "
                     "zvkg-lmul1 at e8, m1\n",
                8 * vlenb(), vlenb(), fraclmul_lmul(vlenb()));
#endif
    /* ASMDIFF_HAVE_LIBFUZZER: this build also links fuzz_polyval with a libFuzzer runtime (on
     * riscv64 only when tools/fetch_riscv_fuzzer_runtime could provide one) */
    fprintf(out, "  driver: %s\n",
            ASMDIFF_HAVE_LIBFUZZER
                ? "libFuzzer, coverage-guided (fuzz_polyval in this build)"
                : "replay driver: files, and seeded structure-aware random inputs; no coverage "
                  "guidance (no libFuzzer runtime for this target in this build)");
}

const struct family asmdiff_family = {
    .name = "polyval",
    .one_input = polyval_one_input,
    .nimpls = NIMPLS,
    .impl = polyval_impl,
    .list_extra = polyval_list_extra,
    .kat = polyval_kat,
    .exhaustive = polyval_exhaustive,
    .bench = polyval_bench,
};
