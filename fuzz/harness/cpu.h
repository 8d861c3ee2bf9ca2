/* cpu.h — CPU features, detected once and maskable from the environment.
 *
 * ASMDIFF_CPU_MASK=-avx512f,-gfni makes one run pretend the host lacks those features, so every
 * implementation level gets tested on a machine that has them all.  Masking only removes:
 * a feature the host lacks cannot be added.
 */
#ifndef ASMDIFF_CPU_H
#define ASMDIFF_CPU_H

#include <stddef.h>
#include <stdint.h>

enum cpu_feature {
    CPU_SSE2 = 1ull << 0,
    CPU_SSSE3 = 1ull << 1,
    CPU_SSE41 = 1ull << 2,
    CPU_PCLMUL = 1ull << 3,
    CPU_AESNI = 1ull << 4,
    CPU_AVX = 1ull << 5,
    CPU_AVX2 = 1ull << 6,
    CPU_BMI2 = 1ull << 7,
    CPU_ADX = 1ull << 8,
    CPU_AVX512F = 1ull << 9,
    CPU_AVX512BW = 1ull << 10,
    CPU_AVX512VL = 1ull << 11,
    CPU_AVX512VBMI = 1ull << 12,
    CPU_GFNI = 1ull << 13,
    CPU_VAES = 1ull << 14,
    CPU_VPCLMULQDQ = 1ull << 15,
    CPU_X86_64 = 1ull << 16, /* baseline x86-64: scalar kernels */
    CPU_AVX512DQ = 1ull << 17,
    CPU_AVX512BITALG = 1ull << 18,
    CPU_AVX512IFMA = 1ull << 19, /* vpmadd52luq/huq (cpuid 7.ebx.21) */
    CPU_RV_V = 1ull << 32,
    CPU_RV_ZVKG = 1ull << 33,
    CPU_RV_ZVKNED = 1ull << 34,
    CPU_RV_ZVKB = 1ull << 35,
    CPU_RV_ZVBB = 1ull << 36,
};

/* Features this process may use: detected & ~masked.  Detected on first call. */
uint64_t cpu_features(void);
/* Features the hardware and OS offer, before the mask. */
uint64_t cpu_features_detected(void);
/* Features removed by ASMDIFF_CPU_MASK. */
uint64_t cpu_features_masked(void);

/* Space-separated names of the features in `set` into buf ("sse2 avx2 gfni"). */
const char *cpu_feature_names(uint64_t set, char *buf, size_t buflen);
/* Why an implementation that needs `needs` cannot run: NULL when it can, else a static string
 * such as "host lacks gfni" or "masked by ASMDIFF_CPU_MASK: avx512f". */
const char *cpu_unavailable_reason(uint64_t needs);

/* Parse a mask string ("-avx512f,-gfni"); returns 0 and sets *out, or -1 with a message in err. */
int cpu_parse_mask(const char *s, uint64_t *out, char *err, size_t errlen);

#if defined(__riscv)
/* Bytes per vector register (VLEN / 8) when the CPU has V (detected, before the mask), else 0. */
unsigned cpu_riscv_vlenb(void);
#endif

#endif
