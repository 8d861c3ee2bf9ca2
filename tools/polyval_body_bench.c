/* polyval_body_bench.c: the timing half of tools/polyval_body_bench.sh (which builds it with the
 * old and new aggregated POLYVAL and GHASH bodies renamed pv_old, pv_new, gh_old, gh_new; the
 * head of that script says what it measures). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>
typedef void fn(uint8_t *, const uint8_t *, const uint8_t *, size_t);
extern fn pv_old, pv_new, gh_old, gh_new;
static uint8_t buf[1 << 16] __attribute__((aligned(64)));
static double tick_per_cycle(void) {
    double best = 1e30;
    for (int r = 0; r < 20; r++) {
        uint64_t t = __rdtsc();
        long x = 0;
        for (long i = 0; i < 1000000; i++) __asm__ volatile("add $1, %0" : "+r"(x));
        t = __rdtsc() - t;
        if (t < best) best = t;
    }
    return best / 1e6;
}
static double timeit(fn *f, size_t n, int calls) {
    uint8_t st[16] = {0}, h[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    double best = 1e30;
    for (int r = 0; r < 200; r++) {
        uint64_t t = __rdtsc();
        for (int c = 0; c < calls; c++) f(st, h, buf, n);
        t = __rdtsc() - t;
        if (t < best) best = t;
    }
    return best / calls;
}
int main(void) {
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i * 131 + (i >> 7));
    /* agreement old/new over lengths */
    int bad = 0, checked = 0;
    for (size_t n = 0; n <= 300; n++) {
        uint8_t h[16], a[16], b[16], c[16], d[16];
        for (int i = 0; i < 16; i++) h[i] = (uint8_t)(n * 7 + i * 29 + 3), a[i] = b[i] = c[i] = d[i] = (uint8_t)(i + n);
        pv_old(a, h, buf + n, n); pv_new(b, h, buf + n, n);
        gh_old(c, h, buf + n, n); gh_new(d, h, buf + n, n);
        bad += memcmp(a, b, 16) != 0; bad += memcmp(c, d, 16) != 0; checked += 2;
    }
    printf("agreement: %d of %d calls differ\n", bad, checked);
    double k = tick_per_cycle();
    printf("TSC ticks per core cycle %.3f\n", k);
    size_t ns[] = {1, 4, 16, 64, 96, 128, 1024};
    for (unsigned j = 0; j < sizeof ns / sizeof ns[0]; j++) {
        size_t n = ns[j];
        int calls = n >= 1024 ? 20 : 200;
        double po = timeit(pv_old, n, calls) / k, pn = timeit(pv_new, n, calls) / k;
        double go = timeit(gh_old, n, calls) / k, gn = timeit(gh_new, n, calls) / k;
        printf("n=%5zu  POLYVAL old %8.1f new %8.1f (%.3f c/B, new/old %.3f)   GHASH old %8.1f new %8.1f (%.3f c/B, new/old %.3f)  cyc/32blk new pv %.1f gh %.1f\n",
               n, po, pn, pn / (16.0 * n), pn / po, go, gn, gn / (16.0 * n), gn / go, pn * 32 / n, gn * 32 / n);
    }
    return bad != 0;
}
