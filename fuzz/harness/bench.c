/* bench.c — bench-slope measurement and the bench table; see bench.h for the interface.
 *
 * Method (after libgcrypt's tests/bench-slope.c, written anew):
 *  - sizes: up to BENCH_POINTS evenly spaced multiples of `unit`, the largest max_bytes rounded
 *    down to a whole unit;
 *  - calibration: the per-call time at the smallest and the largest size, by doubling the call
 *    count until one timing lasts CALIB_MIN_NS; sizes in between are interpolated;
 *  - samples: each size is run for about the same wall time, so small sizes are not lost in timer
 *    resolution and large ones do not eat the budget; the sweep over all sizes is repeated
 *    (BENCH_REPS_MIN..BENCH_REPS_MAX times, whatever fits ROW_BUDGET_NS) and each size keeps its
 *    fastest per-call time;
 *  - fit: ordinary least squares ns = a + slope * bytes; the intercept a absorbs call overhead
 *    and the slope is the cost per byte.
 */
#define _XOPEN_SOURCE 700 /* clock_gettime, setpriority even under -std=c11 */

#include "bench.h"

#include "results.h"

#include <errno.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define BENCH_POINTS 16
#define BENCH_REPS_MIN 3
#define BENCH_REPS_MAX 7
/* Wall time for the repeated sweeps of one row; with calibration and the one-off MHz estimate
 * the first call stays under 0.6 s, later ones near 0.3 s. */
#define ROW_BUDGET_NS 300e6
/* Long enough to dwarf clock_gettime's cost and resolution (tens of ns, ~1 us on HPET). */
#define CALIB_MIN_NS 1e6
/* A single sample never shorter than this, whatever the budget says. */
#define SAMPLE_MIN_NS 200e3

/* bench_pairs: the wall time of the pairs of one operation (beyond calibration), and how many
 * sweeps over the sizes each pair's two fits take the fastest of. */
#define PAIRS_BUDGET_NS 500e6
#define PAIR_SWEEPS 2

#define MHZ_ESTIMATES 9
#define MHZ_BUDGET_NS 25e6
#define MHZ_MIN 400
#define MHZ_MAX 8000
/* Cycles per iteration of mhz_chain: 256 dependent 64-bit imul of 3 cycles' latency each (every
 * x86-64 core since Nehalem, Zen 1-5 included).  A chain of adds was used before; some cores
 * now run dependent register-immediate adds faster than one a cycle, which read as 6-15 GHz. */
#define MHZ_ADDS_PER_ITER (256 * 3)

#define NAME_WIDTH 46

struct fit {
    double intercept_ns;
    double ns_per_byte;
};

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double time_calls(bench_op_fn op, void *ctx, size_t bytes, uint64_t calls)
{
    double t0 = now_ns();
    for (uint64_t i = 0; i < calls; i++)
        op(ctx, bytes);
    return now_ns() - t0;
}

/* Per-call ns at one size; doubling also warms caches, branch predictors and the clock.  With
 * retime (bench_pairs), timed again at the count the estimate asks for, see below. */
static double calibrate(bench_op_fn op, void *ctx, size_t bytes, int retime)
{
    uint64_t calls = 1;
    double t;
    while ((t = time_calls(op, ctx, bytes, calls)) < CALIB_MIN_NS && calls < (UINT64_C(1) << 40))
        calls *= 2;
    double per_call = t / (double)calls;
    /* A preemption during one of the short timings ends the doubling early with a per-call time
     * many times too long (on the loaded 2-core machine 5-50x at the largest size, most rows;
     * 4 calls a sample where 400 were meant was seen, the clock's own cost then a few percent
     * of each sample, and one implementation read 0.88x against itself): time again at the
     * count the estimate asks for, and keep the fastest.  bench_pairs needs it; bench_slope's
     * rows do without (their samples are then shorter than ROW_BUDGET_NS plans, and a row
     * takes ~0.1 s instead of 0.3 s: docs/speed.md). */
    for (int again = 0; retime && again < 2; again++) {
        double c = CALIB_MIN_NS / per_call;
        if (c > (double)(UINT64_C(1) << 40))
            break;
        uint64_t n = c < 1 ? 1 : (uint64_t)c;
        double u = time_calls(op, ctx, bytes, n) / (double)n;
        if (u < per_call)
            per_call = u;
    }
    return per_call;
}

static void raise_priority_once(void)
{
    static int tried;
    if (tried)
        return;
    tried = 1;
    /* Fewer preemptions by ordinary tasks on a shared host; unprivileged runs just fail. */
    (void)setpriority(PRIO_PROCESS, 0, -10);
}

/* Up to BENCH_POINTS evenly spaced multiples of unit, the largest max_bytes rounded down to a
 * whole unit; returns how many. */
static int slope_sizes(size_t unit, size_t max_bytes, size_t sizes[BENCH_POINTS])
{
    if (unit == 0)
        unit = 1;
    size_t nunits = max_bytes / unit;
    if (nunits == 0)
        nunits = 1;
    int npoints = nunits < BENCH_POINTS ? (int)nunits : BENCH_POINTS;
    for (int i = 0; i < npoints; i++)
        sizes[i] = unit * (nunits * (size_t)(i + 1) / (size_t)npoints);
    return npoints;
}

/* Calls per sample at each size, from the per-call times at the smallest and the largest size
 * (interpolated in between), so that each sample lasts about sample_ns; returns the time of
 * one sweep over all sizes. */
static double slope_calls(const size_t *sizes, int npoints, double t_lo, double t_hi,
                          double sample_ns, uint64_t *calls)
{
    double sweep_ns = 0;
    for (int i = 0; i < npoints; i++) {
        double frac = npoints > 1 ? (double)(sizes[i] - sizes[0]) /
                                        (double)(sizes[npoints - 1] - sizes[0])
                                  : 0;
        double t_est = t_lo + frac * (t_hi - t_lo);
        if (t_est < 1)
            t_est = 1;
        double c = sample_ns / t_est;
        calls[i] = c < 1 ? 1 : (uint64_t)c;
        sweep_ns += (double)calls[i] * t_est;
    }
    return sweep_ns;
}

/* Ordinary least squares per-call ns = a + slope * bytes over the sizes' fastest times. */
static struct fit slope_fit(const size_t *sizes, const double *best, int npoints)
{
    struct fit f = { 0, 0 };
    if (npoints == 1) {
        /* One size cannot separate overhead from per-byte cost; report the plain ratio. */
        f.ns_per_byte = best[0] / (double)sizes[0];
        return f;
    }
    /* Centred sums: numerically stable even when bytes are large and slopes tiny. */
    double xm = 0, ym = 0;
    for (int i = 0; i < npoints; i++) {
        xm += (double)sizes[i];
        ym += best[i];
    }
    xm /= npoints;
    ym /= npoints;
    double sxy = 0, sxx = 0;
    for (int i = 0; i < npoints; i++) {
        double dx = (double)sizes[i] - xm;
        sxy += dx * (best[i] - ym);
        sxx += dx * dx;
    }
    f.ns_per_byte = sxy / sxx;
    f.intercept_ns = ym - f.ns_per_byte * xm;
    return f;
}

static struct fit slope_measure(bench_op_fn op, void *ctx, size_t unit, size_t max_bytes,
                                double budget_ns)
{
    size_t sizes[BENCH_POINTS] = { 0 };
    uint64_t calls[BENCH_POINTS];
    double best[BENCH_POINTS];

    int npoints = slope_sizes(unit, max_bytes, sizes);
    double t_lo = calibrate(op, ctx, sizes[0], 0);
    double t_hi = npoints > 1 ? calibrate(op, ctx, sizes[npoints - 1], 0) : t_lo;

    double sample_ns = budget_ns / (npoints * BENCH_REPS_MAX);
    if (sample_ns < SAMPLE_MIN_NS)
        sample_ns = SAMPLE_MIN_NS;
    double sweep_ns = slope_calls(sizes, npoints, t_lo, t_hi, sample_ns, calls);
    for (int i = 0; i < npoints; i++)
        best[i] = -1;
    /* A slow op (one call longer than a sample) gets fewer repetitions, never fewer than 3. */
    double fit_reps = budget_ns / sweep_ns;
    int reps = fit_reps >= BENCH_REPS_MAX   ? BENCH_REPS_MAX
               : fit_reps <= BENCH_REPS_MIN ? BENCH_REPS_MIN
                                            : (int)fit_reps;

    /* Sweep all sizes per repetition (rather than all repetitions per size) so that a burst of
     * noise or a clock change hits different sizes at different times, and the minimum of each
     * size comes from a quiet moment. */
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < npoints; i++) {
            double t = time_calls(op, ctx, sizes[i], calls[i]) / (double)calls[i];
            if (best[i] < 0 || t < best[i])
                best[i] = t;
        }
    }
    return slope_fit(sizes, best, npoints);
}

void bench_pairs(bench_op_fn new_op, void *new_ctx, bench_op_fn old_op, void *old_ctx,
                 size_t unit, size_t max_bytes, struct bench_pairs *out)
{
    size_t sizes[BENCH_POINTS] = { 0 };
    uint64_t calls[2][BENCH_POINTS];
    bench_op_fn op[2] = { new_op, old_op };
    void *ctx[2] = { new_ctx, old_ctx };
    double sweep_ns = 0;

    raise_priority_once();
    memset(out, 0, sizeof *out);
    int npoints = slope_sizes(unit, max_bytes, sizes);
    for (int k = 0; k < 2; k++) { /* calibration warms both before the first pair */
        double t_lo = calibrate(op[k], ctx[k], sizes[0], 1);
        double t_hi = npoints > 1 ? calibrate(op[k], ctx[k], sizes[npoints - 1], 1) : t_lo;
        sweep_ns += slope_calls(sizes, npoints, t_lo, t_hi, SAMPLE_MIN_NS, calls[k]);
    }
    /* As many pairs as PAIRS_BUDGET_NS holds, never fewer than BENCH_PAIRS_MIN. */
    double fit_pairs = PAIRS_BUDGET_NS / (sweep_ns * PAIR_SWEEPS);
    int npairs = fit_pairs >= BENCH_PAIRS_MAX   ? BENCH_PAIRS_MAX
                 : fit_pairs <= BENCH_PAIRS_MIN ? BENCH_PAIRS_MIN
                                                : (int)fit_pairs;
    for (int p = 0; p < npairs; p++) {
        double best[2][BENCH_POINTS];
        for (int i = 0; i < npoints; i++)
            best[0][i] = best[1][i] = -1;
        /* Alternate at every size: new then old, then old then new at the next size and sweep
         * (neither always runs first, after the other has warmed the caches), so a drift or a
         * clock change hits both alike; each size keeps its fastest of PAIR_SWEEPS. */
        for (int r = 0; r < PAIR_SWEEPS; r++) {
            for (int i = 0; i < npoints; i++) {
                for (int j = 0; j < 2; j++) {
                    int k = (p + r + i + j) & 1;
                    double t = time_calls(op[k], ctx[k], sizes[i], calls[k][i]) /
                               (double)calls[k][i];
                    if (best[k][i] < 0 || t < best[k][i])
                        best[k][i] = t;
                }
            }
        }
        struct fit fn = slope_fit(sizes, best[0], npoints);
        struct fit fo = slope_fit(sizes, best[1], npoints);
        out->new_ns_per_byte[p] = fn.ns_per_byte;
        out->old_ns_per_byte[p] = fo.ns_per_byte;
        /* a pair whose fit failed (a slope of 0 or below: noise on a flat op) has no ratio */
        if (fn.ns_per_byte > 0 && fo.ns_per_byte > 0)
            out->ratio[out->n++] = fo.ns_per_byte / fn.ns_per_byte;
        out->tried = p + 1;
    }
}

#if defined(__x86_64__)
/* `iters` passes over 1024 dependent one-cycle adds: 1024 cycles per pass on any x86-64 core
 * since the P6 (the loop counter runs in parallel on another port). */
static void mhz_chain(void *ctx, size_t iters)
{
    (void)ctx;
    uint64_t acc = 3, k = 0x9e3779b97f4a7c15ull;
    if (iters == 0)
        return;
    __asm__ volatile("1:\n\t"
                     ".rept 256\n\t"
                     "imul %2, %0\n\t"
                     ".endr\n\t"
                     "dec %1\n\t"
                     "jnz 1b"
                     : "+r"(acc), "+r"(iters)
                     : "r"(k)
                     : "cc");
}
#endif

static double cached = -1;
static int mhz_given;

void bench_set_mhz(double mhz)
{
    cached = mhz;
    mhz_given = 1;
}

int bench_parse_mhz(const char *text, double *mhz)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !(v >= MHZ_MIN && v <= MHZ_MAX)) return -1;
    *mhz = v;
    return 0;
}

double bench_mhz(void)
{
    if (cached >= 0)
        return cached;
    cached = 0;
#if defined(__x86_64__)
    raise_priority_once();
    /* The median of several slope estimates: on a loaded machine a single fit can come out too
     * steep or too flat (an "estimate" of 15 GHz was seen), and no x86-64 core runs below 400
     * or above 8000 MHz, so those are not estimates at all. */
    double est[MHZ_ESTIMATES];
    int n = 0;
    for (int i = 0; i < MHZ_ESTIMATES; i++) {
        struct fit f = slope_measure(mhz_chain, NULL, 1, 16, MHZ_BUDGET_NS);
        if (f.ns_per_byte <= 0)
            continue;
        double mhz = MHZ_ADDS_PER_ITER / f.ns_per_byte * 1e3;
        if (mhz < MHZ_MIN || mhz > MHZ_MAX)
            continue;
        int j = n++;
        while (j > 0 && est[j - 1] > mhz) est[j] = est[j - 1], j--;
        est[j] = mhz;
    }
    if (n) cached = est[n / 2];
    else /* ns/B and the ratios stay valid; cycles would be a guess */
        fprintf(stderr, "asmdiff: bench: the clock estimate failed (a busy machine?): no c/B\n");
#endif
    return cached;
}

struct bench_result bench_slope(bench_op_fn op, void *ctx, size_t unit, size_t max_bytes)
{
    struct bench_result r = { 0, 0, 0, 0 };
    raise_priority_once();
    r.mhz = bench_mhz();
    struct fit f = slope_measure(op, ctx, unit, max_bytes, ROW_BUDGET_NS);
    r.ns_per_byte = f.ns_per_byte;
    if (f.ns_per_byte > 0) {
        r.mib_per_s = 1e9 / f.ns_per_byte / (1024.0 * 1024.0);
        r.cycles_per_byte = f.ns_per_byte * r.mhz / 1e3;
    }
    return r;
}

/* Three significant digits, like "0.0312", "0.156", "30567"; "-" when there is no value. */
static void fmt3(char *buf, size_t len, double v)
{
    if (!(v > 0)) {
        snprintf(buf, len, "-");
        return;
    }
    int decimals = 2;
    for (double x = v; x < 1 && decimals < 9; x *= 10)
        decimals++;
    for (double x = v; x >= 10 && decimals > 0; x /= 10)
        decimals--;
    snprintf(buf, len, "%.*f", decimals, v);
}

/* RFC 4180 quoting, only when a name would otherwise break the columns. */
static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static int row_emulated;

void bench_table_emulated(int on)
{
    row_emulated = on;
}

/* The implementation as the table and the CSV name it. */
static const char *shown_impl(const char *impl, char *buf, size_t len)
{
    if (!row_emulated) return impl;
    snprintf(buf, len, "%s (emulated)", impl);
    return buf;
}

static void name_column(FILE *out, const char *impl, const char *op)
{
    char name[256], shown[200];
    snprintf(name, sizeof name, "%s %s", shown_impl(impl, shown, sizeof shown), op);
    fprintf(out, " %-*s | ", NAME_WIDTH, name);
}

void bench_table_begin(FILE *out, const char *family, int csv)
{
    if (csv) {
        fputs("family,implementation,operation,ns_per_byte,mib_per_s,cycles_per_byte,mhz\n",
              out);
        return;
    }
    /* Widths match the row format below column for column, as bench-slope's do. */
    fprintf(out, " %-*s | %14s %15s %13s %9s\n", NAME_WIDTH, family, "nanosecs/byte",
            "mebibytes/sec", "cycles/byte", mhz_given ? "Mhz" : "auto Mhz");
}

void bench_table_row(FILE *out, const char *family, const char *impl, const char *op,
                     const struct bench_result *r, int csv)
{
    jr_begin("bench"); /* the result stream's row (docs/results.md) */
    jr_str("impl", impl);
    jr_str("op", op);
    if (row_emulated) jr_bool("emulated", 1);
    jr_num("ns_per_byte", r->ns_per_byte);
    jr_num("mib_per_s", r->mib_per_s);
    jr_num("cycles_per_byte", r->mhz > 0 ? r->cycles_per_byte : 0);
    jr_num("mhz", r->mhz);
    jr_str("mhz_from", mhz_given ? "given" : "estimate");
    jr_end();
    if (csv) {
        char shown[200];
        csv_field(out, family);
        fputc(',', out);
        csv_field(out, shown_impl(impl, shown, sizeof shown));
        fputc(',', out);
        csv_field(out, op);
        /* Fixed notation: no exponents for naive consumers, six decimals for sub-0.01 ns/B. */
        fprintf(out, ",%.6f,%.3f,%.6f,%.1f\n", r->ns_per_byte, r->mib_per_s, r->cycles_per_byte,
                r->mhz);
        fflush(out);
        return;
    }
    char ns[32], mib[32], cpb[32], mhz[32];
    fmt3(ns, sizeof ns, r->ns_per_byte);
    fmt3(mib, sizeof mib, r->mib_per_s);
    fmt3(cpb, sizeof cpb, r->mhz > 0 ? r->cycles_per_byte : 0);
    if (r->mhz > 0)
        snprintf(mhz, sizeof mhz, "%.0f", r->mhz);
    else
        snprintf(mhz, sizeof mhz, "-");
    name_column(out, impl, op);
    fprintf(out, "%9s ns/B %9s MiB/s %9s c/B %9s\n", ns, mib, cpb, mhz);
    fflush(out); /* rows take ~0.3 s each: show progress */
}

void bench_table_na(FILE *out, const char *family, const char *impl, const char *op,
                    const char *why, int csv)
{
    (void)family;
    jr_begin("bench");
    jr_str("impl", impl);
    jr_str("op", op);
    if (row_emulated) jr_bool("emulated", 1);
    jr_bool("available", 0);
    jr_str("reason", why);
    jr_end();
    if (csv)
        return; /* a skipped implementation has no numbers; an empty row would break parsers */
    name_column(out, impl, op);
    fprintf(out, "n/a: %s\n", why);
    fflush(out);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_table_pairs(FILE *out, const char *new_impl, const char *old_impl, const char *op,
                       const struct bench_pairs *p, const char *why, int csv)
{
    jr_begin("bench-pairs");
    jr_str("impl", new_impl);
    jr_str("old", old_impl);
    jr_str("op", op);
    if (why) {
        jr_bool("available", 0);
        jr_str("reason", why);
    } else {
        jr_int("pairs", p->n);
        jr_int("tried", p->tried);
        jr_list_begin("ratios");
        for (int i = 0; i < p->n; i++) jr_num(NULL, p->ratio[i]);
        jr_list_end();
        jr_list_begin("new_ns_per_byte");
        for (int i = 0; i < p->tried; i++) jr_num(NULL, p->new_ns_per_byte[i]);
        jr_list_end();
        jr_list_begin("old_ns_per_byte");
        for (int i = 0; i < p->tried; i++) jr_num(NULL, p->old_ns_per_byte[i]);
        jr_list_end();
    }
    jr_end();
    if (csv)
        return; /* the CSV has a row per implementation and operation only */
    char name[512];
    snprintf(name, sizeof name, "%s/%s %s", old_impl, new_impl, op);
    fprintf(out, " %-*s | ", NAME_WIDTH, name);
    if (why || p->n == 0) {
        fprintf(out, "old/new n/a: %s\n", why ? why : "no pair gave two slopes");
        fflush(out);
        return;
    }
    double r[BENCH_PAIRS_MAX];
    memcpy(r, p->ratio, sizeof(double) * (size_t)p->n);
    qsort(r, (size_t)p->n, sizeof r[0], cmp_double);
    double med = p->n & 1 ? r[p->n / 2] : (r[p->n / 2 - 1] + r[p->n / 2]) / 2;
    fprintf(out, "old/new %.2fx, median of %d pairs in alternation (%.2fx to %.2fx)\n", med,
            p->n, r[0], r[p->n - 1]);
    fflush(out);
}

void bench_table_end(FILE *out, int csv)
{
    if (!csv)
        fprintf(out, " %-*s =\n", NAME_WIDTH, "");
    fflush(out);
}
