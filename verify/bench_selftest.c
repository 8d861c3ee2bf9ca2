/* bench_selftest.c — the bench module measures what it claims to.
 *
 * Property: on two operations of known character — memcpy (wide, vectorized) and a CRC-32 byte
 * loop (one table lookup per byte on a dependent chain) — bench_slope gives positive slopes that
 * order them correctly, bench_mhz gives a believable clock, the two combine into a believable
 * cycles/byte, and one bench_slope call stays inside its time budget.
 */
#define _XOPEN_SOURCE 700 /* clock_gettime even under -std=c11 */

#include "bench.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define BUF_BYTES 65536
#define MAX_BYTES 8192
/* The brief for one row is ~0.3 s; twice that means the budget logic is broken. */
#define CALL_LIMIT_S 0.6

struct bufs {
    unsigned char src[BUF_BYTES];
    unsigned char dst[BUF_BYTES];
    uint32_t crc_table[256];
    uint32_t crc; /* kept so the loop's result is observable */
};

static struct bufs g;

static void op_memcpy(void *ctx, size_t bytes)
{
    struct bufs *b = ctx;
    memcpy(b->dst, b->src, bytes);
}

/* Each byte's lookup index depends on the previous byte's result: no vectorizing, no overlap. */
static void op_crc_bytes(void *ctx, size_t bytes)
{
    struct bufs *b = ctx;
    uint32_t c = b->crc;
    for (size_t i = 0; i < bytes; i++)
        c = b->crc_table[(c ^ b->src[i]) & 0xff] ^ (c >> 8);
    b->crc = c;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int passed, failed;

static void check(int ok, const char *what)
{
    printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
    if (ok)
        passed++;
    else
        failed++;
}

int main(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
        g.crc_table[n] = c;
    }
    for (size_t i = 0; i < BUF_BYTES; i++)
        g.src[i] = (unsigned char)(i * 131 + 7);

    double t0 = now_s();
    struct bench_result rm = bench_slope(op_memcpy, &g, 64, MAX_BYTES);
    double t_first = now_s() - t0; /* includes the one-off MHz estimate */
    t0 = now_s();
    struct bench_result rc = bench_slope(op_crc_bytes, &g, 1, MAX_BYTES);
    double t_second = now_s() - t0;

    for (int csv = 0; csv <= 1; csv++) {
        bench_table_begin(stdout, "bench-selftest", csv);
        bench_table_row(stdout, "bench-selftest", "libc", "memcpy", &rm, csv);
        bench_table_row(stdout, "bench-selftest", "c-bytewise", "crc32", &rc, csv);
        bench_table_na(stdout, "bench-selftest", "example-avx10", "crc32",
                       "host lacks AVX10 (shows the n/a row)", csv);
        bench_table_end(stdout, csv);
    }
    printf("bench_slope wall time: %.3f s (first call, with MHz estimate), %.3f s (second)\n",
           t_first, t_second);

    char msg[160];
    double mhz = bench_mhz();
    if (mhz == 0) {
        printf("skip: MHz estimate needs x86-64 (this host: none)\n");
    } else {
        snprintf(msg, sizeof msg, "auto MHz %.0f in [300, 10000]", mhz);
        check(mhz >= 300 && mhz <= 10000, msg);
        /* A table lookup has >= 3 cycles of load latency on any core, so below 1 c/B either the
         * clock or the slope is wrong. */
        snprintf(msg, sizeof msg, "crc32 byte loop %.3f c/B >= 1", rc.cycles_per_byte);
        check(rc.cycles_per_byte >= 1, msg);
    }
    snprintf(msg, sizeof msg, "memcpy slope %.5f ns/B > 0", rm.ns_per_byte);
    check(rm.ns_per_byte > 0, msg);
    snprintf(msg, sizeof msg, "crc32 slope %.5f ns/B > 0", rc.ns_per_byte);
    check(rc.ns_per_byte > 0, msg);
    snprintf(msg, sizeof msg, "crc32 byte loop (%.5f ns/B) slower than memcpy (%.5f ns/B)",
             rc.ns_per_byte, rm.ns_per_byte);
    check(rc.ns_per_byte > rm.ns_per_byte, msg);
    snprintf(msg, sizeof msg, "each bench_slope call under %.1f s (%.3f s, %.3f s)", CALL_LIMIT_S,
             t_first, t_second);
    check(t_first < CALL_LIMIT_S && t_second < CALL_LIMIT_S, msg);

    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
