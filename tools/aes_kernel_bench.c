/* aes_kernel_bench: cycles per byte of our VAES AES kernels alone, linked straight to their
 * objects, for ablations (docs/aes.md, "Where the cycles go"): a copy of kernels/aes with one
 * thing taken out (the tweak step, a store, a shuffle) built beside the real one shows what
 * that thing costs, which ./asmdiff bench cannot (it runs only the build's kernels, and a
 * kernel with a part removed computes the wrong thing).
 *   Each row: 16 KiB in place, 8 calls a sample, the fastest sample of REPS rounds (default
 *   40), the rows taken in turn in every round so that a busy neighbour hits all alike.
 *   Cycles: a dependent chain of scalar adds, timed in every round (its fastest), 1 cycle an
 *   add, as tools/aes_op_bench.c.
 * Not part of the build (it needs VAES and AVX-512 to run every row); from the source root:
 *   d=kernels/aes; for f in $d/aes-x86_64-vaes-*.S; do clang-19 -c -I$d $f -o /tmp/$(basename $f .S).o; done
 *   clang-19 -O2 -I. tools/aes_kernel_bench.c /tmp/aes-x86_64-vaes-*.o -o /tmp/aes_kernel_bench
 *   /tmp/aes_kernel_bench [REPS]
 * (an ablation: the same with d a changed copy of kernels/aes). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "kernels/aes/aes.h"

#define LEN 16384

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static double cycle_ns(void)
{
    double best = 1e30;
    for (int r = 0; r < 30; r++) {
        unsigned long x = 0;
        double t0 = now_ns();
        for (long i = 0; i < 100000; i++)
            __asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                             "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0" : "+r"(x));
        double t = (now_ns() - t0) / 800000.0;
        if (t < best)
            best = t;
    }
    return best;
}

typedef void (*aes_fn)(const uint8_t *, unsigned int, uint8_t *, const uint8_t *, size_t,
                       uint8_t *);
static uint8_t ks[240] __attribute__((aligned(64)));
static uint8_t buf[LEN] __attribute__((aligned(64)));

/* ECB takes no iv: the same signature as the rest through a wrapper */
#define ECB_WRAP(form)                                                                     \
    static void ecb_##form(const uint8_t *k, unsigned int r, uint8_t *o, const uint8_t *i, \
                           size_t nb, uint8_t *iv)                                         \
    {                                                                                      \
        (void)iv;                                                                          \
        aes_ecb_enc_##form(k, r, o, i, nb);                                                \
    }
ECB_WRAP(vaes_avx512_clmul)
ECB_WRAP(vaes_avx512_shift)
ECB_WRAP(vaes_avx2_clmul)
ECB_WRAP(vaes_avx2_shift)

struct row {
    const char *mode, *form;
    aes_fn f;
    unsigned int rounds;
    int xts; /* the length in bytes, not blocks */
    double best;
};
#define FORM(form)                                                                      \
    { "ECB enc AES-128", #form, ecb_##form, 10, 0, 1e30 },              \
    { "ECB enc AES-256", #form, ecb_##form, 14, 0, 1e30 },              \
    { "CTR AES-128", #form, aes_ctr_##form, 10, 0, 1e30 },                      \
    { "CTR32LE AES-128", #form, aes_ctr32le_##form, 10, 0, 1e30 },              \
    { "XTS enc AES-256", #form, aes_xts_enc_##form, 14, 1, 1e30 },              \
    { "XTS dec AES-256", #form, aes_xts_dec_##form, 14, 1, 1e30 },              \
    { "XTS enc AES-128", #form, aes_xts_enc_##form, 10, 1, 1e30 }

int main(int argc, char **argv)
{
    struct row rows[] = { FORM(vaes_avx512_clmul), FORM(vaes_avx512_shift), FORM(vaes_avx2_clmul),
                          FORM(vaes_avx2_shift) };
    size_t n = sizeof rows / sizeof rows[0];
    int reps = argc > 1 ? atoi(argv[1]) : 40;
    uint8_t iv[16] = { 1, 2, 3 };
    double cbest = 1e30;
    for (int i = 0; i < 240; i++)
        ks[i] = (uint8_t)(i * 7);
    for (int r = 0; r < reps; r++) {
        double c = cycle_ns();
        if (c < cbest)
            cbest = c;
        for (size_t i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++) {
                double t0 = now_ns();
                for (int j = 0; j < 8; j++)
                    rows[i].f(ks, rows[i].rounds, buf, buf, rows[i].xts ? LEN : LEN / 16, iv);
                double t = (now_ns() - t0) / 8;
                if (t < rows[i].best)
                    rows[i].best = t;
            }
        }
    }
    printf("clock %.3f GHz (scalar add chain); 16 KiB in place, fastest of %d rounds\n",
           1 / cbest, reps);
    for (size_t i = 0; i < n; i++)
        printf("%-18s %-18s %6.3f c/B\n", rows[i].mode, rows[i].form, rows[i].best / cbest / LEN);
    return 0;
}
