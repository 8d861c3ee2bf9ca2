/* bench.h — bench-slope measurement, as libgcrypt's tests/bench-slope does it.
 *
 * An operation is timed over a series of buffer sizes; the slope of a least-squares line
 * through (bytes, nanoseconds) is the cost per byte, free of the fixed per-call overhead.
 * The clock rate ("auto Mhz") is estimated from a loop of known cycle count (a chain of
 * dependent one-cycle adds), so cycles/byte = ns/byte * MHz / 1000.
 */
#ifndef ASMDIFF_BENCH_H
#define ASMDIFF_BENCH_H

#include <stddef.h>
#include <stdio.h>

/* Run the operation once over `bytes` bytes.  ctx is the caller's. */
typedef void (*bench_op_fn)(void *ctx, size_t bytes);

struct bench_result {
    double ns_per_byte;
    double mib_per_s;
    double cycles_per_byte; /* 0 when the MHz estimate failed */
    double mhz;
};

/* Estimate the core clock in MHz once per process (cached), unless bench_set_mhz gave it. */
double bench_mhz(void);
/* The clock for every row of this process, as libgcrypt's bench-slope --cpu-mhz N: a run over
 * several processes (./asmdiff bench over families, check's two builds) estimates once and
 * gives every process the same clock, so cycles/byte compare across their tables.  The header
 * then says "Mhz", not "auto Mhz". */
void bench_set_mhz(double mhz);
/* Parse a --cpu-mhz value: a number of MHz in [400, 8000] (what an x86-64 core can run at,
 * as bench_mhz's own bounds).  0 when valid (*mhz set), -1 otherwise. */
int bench_parse_mhz(const char *text, double *mhz);

/* Measure the slope of op over sizes up to max_bytes (in steps of `unit` bytes, so block
 * kernels see whole blocks).  Repeats each size and keeps the fastest, as bench-slope does. */
struct bench_result bench_slope(bench_op_fn op, void *ctx, size_t unit, size_t max_bytes);

/* Two implementations of one operation timed in alternation in this process, for the ratio of
 * their costs with its spread (docs/speed.md, "A ratio and its spread"): each pair is one
 * bench-slope fit of each (the fastest of two sweeps at each size), the two run one after the
 * other at every size, in an order that alternates, so that a drift of the clock or a busy
 * neighbour hits both alike.  BENCH_PAIRS_MIN pairs at least, more (up to BENCH_PAIRS_MAX)
 * while about 0.5 s allows.  ratio[] is old ns/byte over new ns/byte per pair (above 1: new is
 * faster); the interval over them is computed by the reader (tools/asmdiff/spread.py). */
#define BENCH_PAIRS_MIN 16
#define BENCH_PAIRS_MAX 32
struct bench_pairs {
    int tried;                              /* pairs measured */
    int n;                                  /* of them, with a ratio (both slopes above 0) */
    double ratio[BENCH_PAIRS_MAX];          /* the n ratios, in the order measured */
    double new_ns_per_byte[BENCH_PAIRS_MAX]; /* each pair's own fits, in the order measured */
    double old_ns_per_byte[BENCH_PAIRS_MAX];
};
void bench_pairs(bench_op_fn new_op, void *new_ctx, bench_op_fn old_op, void *old_ctx,
                 size_t unit, size_t max_bytes, struct bench_pairs *out);

/* Table output.  bench_table_begin prints the header (human table, or CSV header
 * "family,implementation,operation,ns_per_byte,mib_per_s,cycles_per_byte,mhz" when csv != 0);
 * bench_table_row prints one measurement. */
void bench_table_begin(FILE *out, const char *family, int csv);
void bench_table_row(FILE *out, const char *family, const char *impl, const char *op,
                     const struct bench_result *r, int csv);
/* A row for an implementation that cannot run here, with the reason (human table only). */
void bench_table_na(FILE *out, const char *family, const char *impl, const char *op,
                    const char *why, int csv);
void bench_table_end(FILE *out, int csv);
/* A pair's line (after the operation's rows; not in the CSV) and its bench-pairs record
 * (docs/results.md): the median and the range of the per-pair ratios; why, when non-NULL,
 * says why the pair was not measured (p is then NULL). */
void bench_table_pairs(FILE *out, const char *new_impl, const char *old_impl, const char *op,
                       const struct bench_pairs *p, const char *why, int csv);
/* Rows printed while on are of an implementation run in the emulator: the result stream's
 * record says `"emulated": true` (impl stays the implementation's name), the table and the
 * CSV show the name followed by " (emulated)". */
void bench_table_emulated(int on);

#endif
