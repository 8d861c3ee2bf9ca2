/* mpi_kernel_selftest: every x86-64 add_n/sub_n kernel equals a plain C loop, limb for limb and in
 * the returned carry, for every n in 0..40, on random limbs and on limbs drawn from the edge set
 * {0, 1, 2^63, 2^64-1} (which makes long carry/borrow ripples common), with rp distinct from the
 * sources, rp == s1, rp == s2, s1 == s2 and rp == s1 == s2. It also checks that nothing is
 * written outside rp[0..n) and that distinct sources are left unchanged.
 *
 * Exit 0 when all agree; otherwise print the first difference and exit 1.
 * `--bench` instead times simple against unroll4 at n = 256.
 *
 * Standalone on purpose (no fuzz/harness) so that a kernel can be judged by hand:
 *   clang-19 -O2 -Wall -Wextra -Wundef -Ikernels/mpi verify/mpi_kernel_selftest.c \
 *       kernels/mpi/mpi-x86_64-simple.S kernels/mpi/mpi-x86_64-unroll4.S -o /tmp/mpi_selftest
 *   /tmp/mpi_selftest */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "mpi.h"

#define MAX_N 40
#define GUARD 4 /* limbs of canary on each side of every buffer */
#define TRIALS 64 /* random draws per (n, fill, aliasing) */
#define CANARY UINT64_C(0xa5a5a5a55a5a5a5a)

typedef mpi_limb_t (*mpi_fn)(mpi_limb_t *, const mpi_limb_t *, const mpi_limb_t *, size_t);

struct impl {
    const char *name;
    mpi_fn fn;
    int is_sub;
};

static const struct impl impls[] = {
    { "add_n x86_64-simple", mpi_add_n_x86_64_simple, 0 },
    { "sub_n x86_64-simple", mpi_sub_n_x86_64_simple, 1 },
    { "add_n x86_64-unroll4", mpi_add_n_x86_64_unroll4, 0 },
    { "sub_n x86_64-unroll4", mpi_sub_n_x86_64_unroll4, 1 },
};
#define N_IMPLS (sizeof impls / sizeof impls[0])

/* The judge: one limb at a time, carry and borrow from comparisons, no tricks. */
static mpi_limb_t ref_op(int is_sub, mpi_limb_t *rp, const mpi_limb_t *s1, const mpi_limb_t *s2,
                         size_t n)
{
    mpi_limb_t c = 0;
    for (size_t i = 0; i < n; i++) {
        mpi_limb_t a = s1[i], b = s2[i], r;
        if (!is_sub) {
            r = a + b;
            mpi_limb_t c1 = r < a;
            r += c;
            c = c1 | (r < c);
        } else {
            r = a - b;
            mpi_limb_t c1 = a < b;
            mpi_limb_t r2 = r - c;
            c = c1 | (r < c);
            r = r2;
        }
        rp[i] = r;
    }
    return c;
}

static uint64_t rng_state = UINT64_C(0x853c49e6748fea9b);
static uint64_t rng(void) /* splitmix64: fixed seed, so a failure reproduces */
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

enum fill { FILL_RANDOM, FILL_EDGE, N_FILLS };
static const char *const fill_names[] = { "random", "edge {0,1,2^63,2^64-1}" };

static mpi_limb_t draw(enum fill f)
{
    static const mpi_limb_t edge[] = { 0, 1, UINT64_C(1) << 63, UINT64_MAX };
    return f == FILL_RANDOM ? rng() : edge[rng() & 3];
}

enum alias { DISTINCT, RP_IS_S1, RP_IS_S2, S1_IS_S2, ALL_SAME, N_ALIASES };
static const char *const alias_names[] = { "distinct", "rp == s1", "rp == s2", "s1 == s2",
                                           "rp == s1 == s2" };

/* Three guarded buffers; which of them rp, s1, s2 use depends on the aliasing. */
static mpi_limb_t buf[3][GUARD + MAX_N + GUARD];

static void dump(const char *label, const mpi_limb_t *v, size_t n)
{
    fprintf(stderr, "  %-9s", label);
    for (size_t i = n; i-- > 0;)
        fprintf(stderr, " %016" PRIx64, v[i]);
    fprintf(stderr, "%s\n", n ? "" : " (empty)");
}

/* Returns 0 when impl agrees with the reference on this case, else prints it and returns 1. */
static int check_one(const struct impl *im, size_t n, enum fill f, enum alias a)
{
    mpi_limb_t in1[MAX_N], in2[MAX_N], want[MAX_N];
    for (size_t i = 0; i < n; i++) {
        in1[i] = draw(f);
        in2[i] = a == S1_IS_S2 || a == ALL_SAME ? in1[i] : draw(f);
    }
    for (int b = 0; b < 3; b++)
        for (size_t i = 0; i < GUARD + MAX_N + GUARD; i++)
            buf[b][i] = CANARY;

    mpi_limb_t *b0 = buf[0] + GUARD, *b1 = buf[1] + GUARD, *b2 = buf[2] + GUARD;
    mpi_limb_t *rp = b0, *s1 = b1, *s2 = b2;
    switch (a) {
    case DISTINCT: break;
    case RP_IS_S1: s1 = rp; break;
    case RP_IS_S2: s2 = rp; break;
    case S1_IS_S2: s2 = s1; break;
    case ALL_SAME: s1 = s2 = rp; break;
    default: break;
    }
    memcpy(s1, in1, n * sizeof *in1);
    if (s2 != s1)
        memcpy(s2, in2, n * sizeof *in2);

    mpi_limb_t want_c = ref_op(im->is_sub, want, in1, in2, n);
    mpi_limb_t got_c = im->fn(rp, s1, s2, n);

    const char *what = NULL;
    size_t where = 0;
    char detail[80] = "";
    for (size_t i = 0; i < n && !what; i++)
        if (rp[i] != want[i])
            what = "result limb", where = i;
    if (!what && got_c != want_c)
        what = im->is_sub ? "returned borrow differs" : "returned carry differs";
    /* Canaries: outside rp[0..n) in every buffer, and all of a source that rp does not alias. */
    for (int b = 0; b < 3 && !what; b++) {
        const mpi_limb_t *base = buf[b] + GUARD;
        for (size_t i = 0; i < GUARD + MAX_N + GUARD && !what; i++) {
            ptrdiff_t limb = (ptrdiff_t)i - GUARD;
            int inside = limb >= 0 && (size_t)limb < n;
            if (inside && (base == rp || base == s1 || base == s2))
                continue;
            if (buf[b][i] != CANARY) {
                what = "write outside rp[0..n)";
                snprintf(detail, sizeof detail, "  buffer %s, limb %td changed\n",
                         base == rp ? "rp" : base == s1 ? "s1" : base == s2 ? "s2" : "unused",
                         limb);
            }
        }
    }
    if (!what && s1 != rp && memcmp(s1, in1, n * sizeof *in1) != 0)
        what = "s1 modified";
    if (!what && s2 != rp && memcmp(s2, in2, n * sizeof *in2) != 0)
        what = "s2 modified";
    if (!what)
        return 0;

    fprintf(stderr, "FAIL %s: %s", im->name, what);
    if (!strcmp(what, "result limb"))
        fprintf(stderr, " %zu differs", where);
    fprintf(stderr, "; n = %zu, fill %s, %s\n%s", n, fill_names[f], alias_names[a], detail);
    fprintf(stderr, "  %s: expected %" PRIu64 ", got %" PRIu64 "\n",
            im->is_sub ? "borrow" : "carry", want_c, got_c);
    fprintf(stderr, "  limbs, most significant first:\n");
    dump("s1", in1, n);
    dump("s2", in2, n);
    dump("expected", want, n);
    dump("got", rp, n);
    return 1;
}

/* The judge is code too: pin it to answers worked out by hand before trusting it. */
static int reference_known_answers(void)
{
    static const struct {
        int is_sub;
        mpi_limb_t s1[3], s2[3], r[3], c;
    } kat[] = {
        { 0, { UINT64_MAX, UINT64_MAX, 5 }, { 1, 0, 0 }, { 0, 0, 6 }, 0 },
        { 0, { UINT64_MAX, UINT64_MAX, UINT64_MAX }, { 1, 0, 0 }, { 0, 0, 0 }, 1 },
        { 0, { UINT64_MAX, 1, 0 }, { UINT64_MAX, UINT64_MAX, 0 }, { UINT64_MAX - 1, 1, 1 }, 0 },
        { 1, { 0, 0, 7 }, { 1, 0, 0 }, { UINT64_MAX, UINT64_MAX, 6 }, 0 },
        { 1, { 0, 0, 0 }, { 1, 0, 0 }, { UINT64_MAX, UINT64_MAX, UINT64_MAX }, 1 },
        { 1, { 5, 0, 0 }, { 5, 0, 0 }, { 0, 0, 0 }, 0 },
        { 1, { 4, 0, 0 }, { 5, UINT64_MAX, 0 }, { UINT64_MAX, 0, UINT64_MAX }, 1 },
    };
    for (size_t k = 0; k < sizeof kat / sizeof kat[0]; k++) {
        mpi_limb_t r[3];
        mpi_limb_t c = ref_op(kat[k].is_sub, r, kat[k].s1, kat[k].s2, 3);
        if (c != kat[k].c || memcmp(r, kat[k].r, sizeof r) != 0) {
            fprintf(stderr, "FAIL reference known answer %zu\n", k);
            return 1;
        }
    }
    return 0;
}

static int selftest(void)
{
    unsigned long cases = 0;
    if (reference_known_answers())
        return 1;
    for (size_t k = 0; k < N_IMPLS; k++)
        for (size_t n = 0; n <= MAX_N; n++)
            for (int f = 0; f < N_FILLS; f++)
                for (int a = 0; a < N_ALIASES; a++)
                    for (int t = 0; t < TRIALS; t++, cases++)
                        if (check_one(&impls[k], n, (enum fill)f, (enum alias)a))
                            return 1;
    printf("mpi_kernel_selftest: %zu kernels x n 0..%d x %d fills x %d aliasings x %d trials: "
           "%lu cases, all equal to the reference\n",
           N_IMPLS, MAX_N, N_FILLS, N_ALIASES, TRIALS, cases);
    return 0;
}

/* ---- --bench ---------------------------------------------------------------------------- */

#define BENCH_N 256
#define BENCH_REPS 20000 /* calls per round */
#define BENCH_ROUNDS 40 /* the fastest round counts: other load only ever slows one down */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The TSC ticks at a fixed rate, not at the core clock; a chain of dependent 1-cycle adds
 * measures how many core cycles one tick is, so cycles/limb below are core cycles. Preemption
 * only ever lowers the ratio, so the best of several runs is kept; the first run also brings
 * the core up to its clock. */
static double core_cycles_per_tick_once(void)
{
    const uint64_t iters = 10000000;
    uint64_t x = 0, k = iters;
    uint64_t t0 = __rdtsc();
    __asm__ volatile("1:\n\t"
                     "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                     "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                     "dec %1\n\tjnz 1b"
                     : "+r"(x), "+r"(k)
                     :
                     : "cc");
    uint64_t t1 = __rdtsc();
    return 8.0 * iters / (double)(t1 - t0);
}

static double core_cycles_per_tick(void)
{
    double best = 0;
    for (int i = 0; i < 8; i++) {
        double r = core_cycles_per_tick_once();
        best = r > best ? r : best;
    }
    return best;
}

static int bench(void)
{
    static mpi_limb_t a[BENCH_N], b[BENCH_N], r[BENCH_N];
    for (size_t i = 0; i < BENCH_N; i++)
        a[i] = rng(), b[i] = rng();
    double ratio = core_cycles_per_tick();
    printf("n = %d limbs, best of %d rounds of %d calls; core cycles per TSC tick %.3f\n", BENCH_N,
           BENCH_ROUNDS, BENCH_REPS, ratio);
    printf("%-22s %12s %12s %10s\n", "kernel", "TSC/limb", "cycles/limb", "ns/limb");
    for (size_t k = 0; k < N_IMPLS; k++) {
        double best_ticks = 1e300, best_ns = 1e300;
        for (int round = 0; round < BENCH_ROUNDS; round++) {
            double t0 = now_ns();
            uint64_t c0 = __rdtsc();
            for (int i = 0; i < BENCH_REPS; i++)
                impls[k].fn(r, a, b, BENCH_N);
            uint64_t c1 = __rdtsc();
            double t1 = now_ns();
            if ((double)(c1 - c0) < best_ticks)
                best_ticks = (double)(c1 - c0), best_ns = t1 - t0;
        }
        double per = (double)BENCH_REPS * BENCH_N;
        printf("%-22s %12.3f %12.3f %10.3f\n", impls[k].name, best_ticks / per,
               best_ticks * ratio / per, best_ns / per);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--bench"))
        return bench();
    if (argc > 1) {
        fprintf(stderr, "usage: %s [--bench]\n", argv[0]);
        return 2;
    }
    return selftest();
}
