/* fuzz/mpi.c — the MPI family: n-limb add_n and sub_n.
 *
 * Property: for every n, every limb pattern, every aliasing a real caller uses (rp == s1,
 * rp == s2, s1 == s2) and every buffer placement, each kernel's limbs and carry (borrow) equal
 * those of the plain C reference computed on unaliased copies, and each library oracle agrees
 * with the reference.  Kernels run through the checked call, in guarded buffers; they must not
 * write outside rp[0..n) nor into an input they do not alias.
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
#include "mpi.h" /* reference */
#include "mpi_oracles.h"
#include "report.h"
#include "vectors.h"
#if ARCH_X86_64
#include "kernels/mpi/mpi.h"
#endif

#define MPI_MAX_N 320 /* limbs: covers every entry path and many loop trips */

typedef uint64_t (*mpi_fn)(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n);

/* Kernels under test: assembly, run through the checked call in guarded buffers. */
struct mpi_impl {
    struct impl_info info;
    mpi_fn add_n, sub_n;
};

static const struct mpi_impl impls[] = {
#if ARCH_X86_64
    {{"x86_64-simple", CPU_X86_64}, mpi_add_n_x86_64_simple, mpi_sub_n_x86_64_simple},
    {{"x86_64-unroll4", CPU_X86_64}, mpi_add_n_x86_64_unroll4, mpi_sub_n_x86_64_unroll4},
#endif
    {{"", 0}, NULL, NULL}, /* keeps the array non-empty on other ISAs */
};
#define NIMPLS (sizeof impls / sizeof impls[0] - 1)

/* Library oracles: second opinions on the reference, called directly on plain copies. */
struct mpi_oracle {
    const char *name;
    mpi_fn add_n, sub_n;
    size_t min_n;
    const char *(*version)(void);
};

static const struct mpi_oracle oracles[] = {
#if ASMDIFF_HAVE_GMP
    {"gmp-mpn", oracle_gmp_add_n, oracle_gmp_sub_n, 1, oracle_gmp_version},
#endif
#if ASMDIFF_HAVE_GCRYPT
    {"libgcrypt-mpi", oracle_gcrypt_add_n, oracle_gcrypt_sub_n, 0, oracle_gcrypt_version},
#endif
#if ASMDIFF_HAVE_OPENSSL
    {"openssl-bn", oracle_openssl_add_n, oracle_openssl_sub_n, 0, oracle_openssl_version},
#endif
    {NULL, NULL, NULL, 0, NULL},
};
#define NORACLES (sizeof oracles / sizeof oracles[0] - 1)

ASMDIFF_DEFINE_CRASH(mpi)

enum alias { ALIAS_NONE, ALIAS_RP_S1, ALIAS_RP_S2, ALIAS_S1_S2, ALIAS_ALL, ALIAS_COUNT };
static const char *const alias_names[] = {"none", "rp==s1", "rp==s2", "s1==s2", "rp==s1==s2"};

enum op { OP_ADD, OP_SUB };
static const char *const op_names[] = {"add_n", "sub_n"};

/* Everything one check needs; decoded once from the input. */
struct mpi_case {
    size_t n;
    enum alias alias;
    uint64_t s1[MPI_MAX_N], s2[MPI_MAX_N];
    enum guard_place place[3]; /* s1, s2, rp */
    size_t offset[3];
};

static struct gbuf g_s1, g_s2, g_rp;

static void report_case(const struct mpi_case *c, enum op op, const char *impl, const char *what)
{
    char title[160];
    snprintf(title, sizeof title, "%s %s: %s", impl, op_names[op], what);
    report_begin("mpi", title);
    report_param("implementation", "%s", impl);
    report_param("operation", "%s", op_names[op]);
    report_param("n", "%zu limbs", c->n);
    report_param("aliasing", "%s", alias_names[c->alias]);
    report_param("s1 buffer", "%s, offset %zu", guard_place_name(c->place[0]), c->offset[0]);
    report_param("s2 buffer", "%s, offset %zu", guard_place_name(c->place[1]), c->offset[1]);
    report_param("rp buffer", "%s, offset %zu", guard_place_name(c->place[2]), c->offset[2]);
    size_t show = c->n * 8 < 512 ? c->n * 8 : 512;
    report_hex("s1 (limbs little-endian)", c->s1, show);
    report_hex("s2", c->alias == ALIAS_S1_S2 || c->alias == ALIAS_ALL ? c->s1 : c->s2, show);
}

/* Expected: the reference on unaliased copies (the mathematical value of s1 op s2). */
static uint64_t expected(const struct mpi_case *c, enum op op, uint64_t *out)
{
    const uint64_t *b = c->alias == ALIAS_S1_S2 || c->alias == ALIAS_ALL ? c->s1 : c->s2;
    return op == OP_ADD ? mpi_add_n_ref(out, c->s1, b, c->n) : mpi_sub_n_ref(out, c->s1, b, c->n);
}

static void check_oracles(const struct mpi_case *c, enum op op, const uint64_t *exp,
                          uint64_t exp_carry)
{
    static uint64_t a[MPI_MAX_N], b[MPI_MAX_N], r[MPI_MAX_N];
    const uint64_t *s2 = c->alias == ALIAS_S1_S2 || c->alias == ALIAS_ALL ? c->s1 : c->s2;
    for (size_t i = 0; i < NORACLES; i++) {
        const struct mpi_oracle *o = &oracles[i];
        if (c->n < o->min_n) continue;
        memcpy(a, c->s1, 8 * c->n);
        memcpy(b, s2, 8 * c->n);
        memset(r, 0x5c, 8 * c->n);
        uint64_t carry = (op == OP_ADD ? o->add_n : o->sub_n)(r, a, b, c->n);
        if (carry != exp_carry || memcmp(r, exp, 8 * c->n)) {
            report_case(c, op, o->name, "library oracle disagrees with the C reference");
            report_param("carry", "expected %llu (c-reference), actual %llu (%s)",
                         (unsigned long long)exp_carry, (unsigned long long)carry, o->name);
            report_diff("c-reference", exp, o->name, r, 8 * c->n);
            report_end("mpi", asmdiff_mismatch_mpi);
        }
    }
}

static void check_kernel(const struct mpi_case *c, enum op op, const struct mpi_impl *k,
                         const uint64_t *exp, uint64_t exp_carry)
{
    size_t bytes = 8 * c->n;
    uint64_t *s1 = (uint64_t *)gbuf_place(&g_s1, bytes, c->place[0], c->offset[0]);
    uint64_t *s2 = (uint64_t *)gbuf_place(&g_s2, bytes, c->place[1], c->offset[1]);
    uint64_t *rp = (uint64_t *)gbuf_place(&g_rp, bytes, c->place[2], c->offset[2]);
    memcpy(s1, c->s1, bytes);
    memcpy(s2, c->s2, bytes);
    memset(rp, 0x5c, bytes);
    const uint64_t *a = s1, *b = s2;
    uint64_t *r = rp;
    switch (c->alias) {
    case ALIAS_NONE: break;
    case ALIAS_RP_S1: r = s1; break;
    case ALIAS_RP_S2: r = s2; break;
    case ALIAS_S1_S2: b = s1; break;
    case ALIAS_ALL: b = s1, r = s1; break;
    default: abort();
    }
    mpi_fn fn = op == OP_ADD ? k->add_n : k->sub_n;
    uint64_t carry = ABI_CALL(k->info.name, fn, r, a, b, c->n);

    if (carry != exp_carry || memcmp(r, exp, bytes)) {
        report_case(c, op, k->info.name, "result differs from the C reference");
        report_param("carry", "expected %llu, actual %llu", (unsigned long long)exp_carry,
                     (unsigned long long)carry);
        report_diff("c-reference", exp, k->info.name, r, bytes);
        report_end("mpi", asmdiff_mismatch_mpi);
    }
    /* Inputs the kernel does not write must come back unchanged, and nothing next to any
     * buffer may change. */
    const struct gbuf_use bufs[] = {{"s1", &g_s1, (uint64_t *)g_s1.p == r ? NULL : c->s1},
                                     {"s2", &g_s2, (uint64_t *)g_s2.p == r ? NULL : c->s2},
                                     {"rp", &g_rp, NULL}};
    char what[128];
    size_t bad;
    int why = gbuf_after_call(bufs, 3, what, sizeof what, &bad);
    if (why) {
        report_case(c, op, k->info.name, what);
        if (why == 2) report_diff("original", bufs[bad].orig, k->info.name, bufs[bad].g->p, bytes);
        report_end("mpi", asmdiff_mismatch_mpi);
    }
}

/* The one comparison path: fuzz inputs, vectors and the exhaustive check all come here. */
static void check_case(const struct mpi_case *c)
{
    static uint64_t exp[MPI_MAX_N];
    for (enum op op = OP_ADD; op <= OP_SUB; op++) {
        uint64_t exp_carry = expected(c, op, exp);
        check_oracles(c, op, exp, exp_carry);
        for (size_t i = 0; i < NIMPLS; i++)
            if (!impl_unavailable(&impls[i].info)) check_kernel(c, op, &impls[i], exp, exp_carry);
    }
}

static int mpi_one_input(const uint8_t *data, size_t size)
{
    static struct mpi_case c;
    static const size_t widths[] = {4, 8, 16};
    struct input in;
    input_init(&in, data, size);
    c.n = input_length(&in, MPI_MAX_N, widths, 3);
    c.alias = (enum alias)input_pick(&in, ALIAS_COUNT);
    for (int i = 0; i < 3; i++) {
        c.place[i] = input_bool(&in) ? GUARD_HEAD : GUARD_TAIL;
        c.offset[i] = input_pick(&in, 4) == 0 ? 8 * (size_t)input_range(&in, 1, 7) : 0;
    }
    input_fill_words(&in, c.s1, c.n, 8);
    input_fill_words(&in, c.s2, c.n, 8);
    check_case(&c);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return mpi_one_input(data, size);
}

/* ---- known-answer vectors: corpus/mpi/kat.txt ---- */

/* Big-endian hex of exactly 8n bytes into n little-endian limbs. */
static int hex_to_limbs(struct vec_file *vf, const char *name, uint64_t *limbs, size_t n)
{
    static uint8_t be[8 * MPI_MAX_N];
    long len = vec_get_hex(vf, name, be, sizeof be);
    if (len != (long)(8 * n)) {
        fprintf(stderr, "%s:%d: %s must have exactly %zu bytes\n", vf->path, vf->b.line, name,
                8 * n);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t v = 0;
        for (size_t j = 0; j < 8; j++) v = v << 8 | be[8 * (n - 1 - i) + j];
        limbs[i] = v;
    }
    return 0;
}

static int mpi_kat(const char *srcdir)
{
    static struct mpi_case c;
    static uint64_t want[MPI_MAX_N], got[MPI_MAX_N];
    struct vec_file vf;
    int fails = 0, count = 0;
    if (vec_open(&vf, srcdir, "corpus/mpi/kat.txt")) return 1;
    while (vec_next(&vf)) {
        const char *op = vec_get(&vf, "Op");
        long long n = vec_get_uint(&vf, "N"), carry = vec_get_uint(&vf, "Carry");
        if (!op || n < 0 || n > MPI_MAX_N || carry < 0 || carry > 1 ||
            (strcmp(op, "add") && strcmp(op, "sub"))) {
            fails++;
            continue;
        }
        memset(&c, 0, sizeof c);
        c.n = (size_t)n;
        if (hex_to_limbs(&vf, "S1", c.s1, c.n) || hex_to_limbs(&vf, "S2", c.s2, c.n) ||
            hex_to_limbs(&vf, "R", want, c.n)) {
            fails++;
            continue;
        }
        vec_done(&vf);
        enum op o = strcmp(op, "add") ? OP_SUB : OP_ADD;
        /* The reference must give the published answer ... */
        uint64_t rc = expected(&c, o, got);
        if (rc != (uint64_t)carry || memcmp(got, want, 8 * c.n)) {
            fprintf(stderr, "%s:%d: c-reference %s gives the wrong answer\n", vf.path,
                    vf.b.line, op_names[o]);
            fails++;
            continue;
        }
        /* ... and then every oracle and kernel must equal it, in every aliasing and placement. */
        for (int a = 0; a < ALIAS_COUNT; a++) {
            c.alias = (enum alias)a;
            if (a == ALIAS_S1_S2 || a == ALIAS_ALL) continue; /* operands differ in vectors */
            for (int p = 0; p < 2; p++) {
                for (int i = 0; i < 3; i++) c.place[i] = p ? GUARD_HEAD : GUARD_TAIL;
                check_case(&c);
            }
        }
        count++;
    }
    fails += vec_close(&vf);
    printf("mpi kat: %d vectors on %zu kernels and %zu oracles, %d failures\n", count, NIMPLS,
           NORACLES, fails);
    return fails || count == 0;
}

/* ---- exhaustive: every n <= 16, limbs from {0, 1, 2^63, 2^64-1} ---- */

static const uint64_t edge[4] = {0, 1, 1ull << 63, ~0ull};

static int mpi_exhaustive(void)
{
    static struct mpi_case c;
    unsigned long long cases = 0;
    uint64_t x = 0x2545f4914f6cdd1dull;
    memset(&c, 0, sizeof c);
    /* Complete enumeration of both operands over the edge set while 16^n pairs stay within
     * budget (n <= 4: 65536 pairs), then a fixed-seed sample of 20000 pairs for each larger n:
     * the carry and borrow chains of every length through every entry path. */
    for (size_t n = 0; n <= 16; n++) {
        c.n = n;
        unsigned long long total = 1ull << (4 * n); /* 4^n * 4^n */
        int complete = n <= 4;
        unsigned long long count = complete ? total : 20000;
        for (unsigned long long k = 0; k < count; k++) {
            unsigned long long code = k;
            if (!complete) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                code = x;
            }
            for (size_t i = 0; i < n; i++) {
                c.s1[i] = edge[code & 3];
                c.s2[i] = edge[(code >> 2) & 3];
                code >>= 4;
                if (!complete && i % 15 == 14) {
                    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                    code = x;
                }
            }
            c.alias = (enum alias)(k % 3); /* none, rp==s1, rp==s2 in turn */
            check_case(&c);
            cases++;
        }
    }
    printf("mpi exhaustive: %llu operand pairs over n = 0..16, each add and sub on %zu kernels "
           "and %zu oracles, no mismatch\n",
           cases, NIMPLS, NORACLES);
    return 0;
}

/* ---- bench ---- */

#define BENCH_LIMBS 1024 /* three 8 KiB operands: all in L1 */

struct bench_ctx {
    mpi_fn fn;
    void (*lib)(size_t n);
    uint64_t *rp, *s1, *s2;
};

static void bench_kernel(void *ctx, size_t bytes)
{
    struct bench_ctx *b = ctx;
    b->fn(b->rp, b->s1, b->s2, bytes / 8);
}

static void bench_library(void *ctx, size_t bytes)
{
    struct bench_ctx *b = ctx;
    b->lib(bytes / 8);
}

/* Two rows per implementation and operation: the slope up to 1024 limbs (the loop's steady
 * state), and up to 16 limbs ("<op>-short": entry paths and loop overhead, where unrolling and
 * the n mod 4 dispatch show; the sizes of RSA/ECC field elements). */
static void bench_row(FILE *out, int csv, const char *name, struct bench_ctx *b, const char *op)
{
    char shortop[32];
    struct bench_result r = bench_slope(b->lib ? bench_library : bench_kernel, b, 8,
                                        8 * BENCH_LIMBS);
    bench_table_row(out, "mpi", name, op, &r, csv);
    snprintf(shortop, sizeof shortop, "%s-short", op);
    r = bench_slope(b->lib ? bench_library : bench_kernel, b, 8, 8 * 16);
    bench_table_row(out, "mpi", name, shortop, &r, csv);
}

static int mpi_bench(FILE *out, int csv)
{
    static uint64_t rp[BENCH_LIMBS], s1[BENCH_LIMBS], s2[BENCH_LIMBS];
    for (size_t i = 0; i < BENCH_LIMBS; i++) {
        s1[i] = 0x9e3779b97f4a7c15ull * (i + 1);
        s2[i] = 0xc2b2ae3d27d4eb4full * (i + 3);
    }
    bench_table_begin(out, "mpi", csv);
    for (enum op op = OP_ADD; op <= OP_SUB; op++) {
        for (size_t i = 0; i < NIMPLS; i++) {
            const char *why = impl_unavailable(&impls[i].info);
            if (why) {
                bench_table_na(out, "mpi", impls[i].info.name, op_names[op], why, csv);
                continue;
            }
            struct bench_ctx b = {op == OP_ADD ? impls[i].add_n : impls[i].sub_n, NULL, rp, s1, s2};
            bench_row(out, csv, impls[i].info.name, &b, op_names[op]);
        }
        struct bench_ctx ref = {op == OP_ADD ? mpi_add_n_ref : mpi_sub_n_ref, NULL, rp, s1, s2};
        bench_row(out, csv, "c-reference", &ref, op_names[op]);
#if ASMDIFF_HAVE_GMP
        struct bench_ctx gmp = {op == OP_ADD ? oracle_gmp_add_n : oracle_gmp_sub_n, NULL, rp, s1, s2};
        bench_row(out, csv, "gmp-mpn", &gmp, op_names[op]);
#endif
#if ASMDIFF_HAVE_GCRYPT
        struct bench_ctx gc = {NULL, op == OP_ADD ? oracle_gcrypt_bench_add : oracle_gcrypt_bench_sub,
                               rp, s1, s2};
        bench_row(out, csv, "libgcrypt-mpi", &gc, op_names[op]);
#endif
#if ASMDIFF_HAVE_OPENSSL
        struct bench_ctx os = {NULL, op == OP_ADD ? oracle_openssl_bench_add : oracle_openssl_bench_sub,
                               rp, s1, s2};
        bench_row(out, csv, "openssl-bn", &os, op_names[op]);
#endif
    }
    bench_table_end(out, csv);
    return 0;
}

/* ---- registration ---- */

static const struct impl_info *mpi_impl(size_t i)
{
    return &impls[i].info;
}

static void mpi_list_extra(FILE *out)
{
    fprintf(out, "  %-28s %-10s (authoritative)\n", "c-reference", "reference");
    for (size_t i = 0; i < NORACLES; i++)
        fprintf(out, "  %-28s %-10s %s\n", oracles[i].name, "oracle", oracles[i].version());
#if !ASMDIFF_HAVE_GMP
    fprintf(out, "  %-28s %-10s not built: dependency gmp not found (libgmp-dev)\n", "gmp-mpn", "oracle");
#endif
#if !ASMDIFF_HAVE_GCRYPT
    fprintf(out, "  %-28s %-10s not built: dependency libgcrypt not found (libgcrypt20-dev)\n", "libgcrypt-mpi", "oracle");
#endif
#if !ASMDIFF_HAVE_OPENSSL
    fprintf(out, "  %-28s %-10s not built: dependency libcrypto not found (libssl-dev)\n", "openssl-bn", "oracle");
#endif
}

const struct family asmdiff_family = {
    .name = "mpi",
    .one_input = mpi_one_input,
    .nimpls = NIMPLS,
    .impl = mpi_impl,
    .list_extra = mpi_list_extra,
    .kat = mpi_kat,
    .exhaustive = mpi_exhaustive,
    .bench = mpi_bench,
};
