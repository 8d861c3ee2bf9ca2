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
/* Rows printed while on are of an implementation run in the emulator: the result stream's
 * record says `"emulated": true` (impl stays the implementation's name), the table and the
 * CSV show the name followed by " (emulated)". */
void bench_table_emulated(int on);

#endif
