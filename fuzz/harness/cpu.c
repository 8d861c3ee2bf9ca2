/* cpu.c — feature detection: CPUID and XGETBV on x86-64 (a feature counts only when the OS
 * saves its register state), hwprobe/HWCAP on riscv64 (added by the RISC-V family). */
#include "cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif
#if defined(__riscv)
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

static const struct {
    uint64_t bit;
    const char *name;
} feature_names[] = {
    {CPU_X86_64, "x86_64"},     {CPU_SSE2, "sse2"},         {CPU_SSSE3, "ssse3"},
    {CPU_SSE41, "sse4.1"},      {CPU_PCLMUL, "pclmul"},     {CPU_AESNI, "aesni"},
    {CPU_AVX, "avx"},           {CPU_AVX2, "avx2"},         {CPU_BMI2, "bmi2"},
    {CPU_ADX, "adx"},           {CPU_AVX512F, "avx512f"},   {CPU_AVX512BW, "avx512bw"},
    {CPU_AVX512DQ, "avx512dq"}, {CPU_AVX512VL, "avx512vl"}, {CPU_AVX512VBMI, "avx512vbmi"},
    {CPU_AVX512BITALG, "avx512bitalg"}, {CPU_AVX512IFMA, "avx512ifma"}, {CPU_GFNI, "gfni"},
    {CPU_VAES, "vaes"},         {CPU_VPCLMULQDQ, "vpclmulqdq"}, {CPU_RV_V, "v"},
    {CPU_RV_ZVKG, "zvkg"},      {CPU_RV_ZVKNED, "zvkned"},  {CPU_RV_ZVKB, "zvkb"},
    {CPU_RV_ZVBB, "zvbb"},
};
#define NFEATURES (sizeof feature_names / sizeof feature_names[0])

static uint64_t detected, masked;
static int initialised;

#if defined(__x86_64__)
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static uint64_t detect(void)
{
    unsigned a, b, c, d, max;
    uint64_t f = CPU_X86_64 | CPU_SSE2; /* architectural on x86-64 */

    max = __get_cpuid_max(0, NULL);
    __cpuid(1, a, b, c, d);
    if (c & (1u << 9)) f |= CPU_SSSE3;
    if (c & (1u << 19)) f |= CPU_SSE41;
    if (c & (1u << 1)) f |= CPU_PCLMUL;
    if (c & (1u << 25)) f |= CPU_AESNI;
    /* AVX state usable only when the OS enabled XSAVE and saves XMM and YMM (XCR0 bits 1, 2). */
    int os_avx = 0, os_avx512 = 0;
    if ((c & (1u << 27)) && (c & (1u << 28))) {
        uint64_t xcr0 = xgetbv0();
        os_avx = (xcr0 & 6) == 6;
        /* opmask, upper ZMM0-15, ZMM16-31 (bits 5, 6, 7) */
        os_avx512 = os_avx && (xcr0 & 0xe0) == 0xe0;
    }
    if (os_avx) f |= CPU_AVX;
    if (max >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        if (os_avx && (b & (1u << 5))) f |= CPU_AVX2;
        if (b & (1u << 8)) f |= CPU_BMI2;
        if (b & (1u << 19)) f |= CPU_ADX;
        if (os_avx512) {
            if (b & (1u << 16)) f |= CPU_AVX512F;
            if (b & (1u << 17)) f |= CPU_AVX512DQ;
            if (b & (1u << 30)) f |= CPU_AVX512BW;
            if (b & (1u << 31)) f |= CPU_AVX512VL;
            if (c & (1u << 1)) f |= CPU_AVX512VBMI;
            if (c & (1u << 12)) f |= CPU_AVX512BITALG;
            if (b & (1u << 21)) f |= CPU_AVX512IFMA;
        }
        if (c & (1u << 8)) f |= CPU_GFNI;
        if (os_avx && (c & (1u << 9))) f |= CPU_VAES;
        if (os_avx && (c & (1u << 10))) f |= CPU_VPCLMULQDQ;
    }
    return f;
}
#elif defined(__riscv)
/* riscv_hwprobe(2), from the kernel UAPI <asm/hwprobe.h> (Linux 6.4 and later; the cross
 * headers of bookworm predate it, hence the numbers here).  Key 4, RISCV_HWPROBE_KEY_IMA_EXT_0,
 * answers with one bit per extension. */
#define RV_SYS_RISCV_HWPROBE 258
#define RV_HWPROBE_KEY_IMA_EXT_0 4
#define RV_HWPROBE_IMA_V (1ull << 2)
#define RV_HWPROBE_EXT_ZVBB (1ull << 17)
#define RV_HWPROBE_EXT_ZVKB (1ull << 19)
#define RV_HWPROBE_EXT_ZVKG (1ull << 20)
#define RV_HWPROBE_EXT_ZVKNED (1ull << 21)
#define RV_HWCAP_V (1ul << ('V' - 'A'))

struct rv_hwprobe_pair {
    int64_t key;
    uint64_t value;
};

static unsigned rv_vlenb;

static uint64_t detect(void)
{
    uint64_t f = 0;
    struct rv_hwprobe_pair pair = {RV_HWPROBE_KEY_IMA_EXT_0, 0};

    /* All CPUs (cpusetsize 0, cpus NULL): an extension counts only if every hart has it. */
    long rc = syscall(RV_SYS_RISCV_HWPROBE, &pair, 1ul, 0ul, (void *)0, 0u);
    if (rc == 0 && pair.key == RV_HWPROBE_KEY_IMA_EXT_0) {
        if (pair.value & RV_HWPROBE_IMA_V) f |= CPU_RV_V;
        /* the kernel reports vector crypto only with V enabled; the check repeats it */
        if ((f & CPU_RV_V) && (pair.value & RV_HWPROBE_EXT_ZVKG)) f |= CPU_RV_ZVKG;
        if ((f & CPU_RV_V) && (pair.value & RV_HWPROBE_EXT_ZVKNED)) f |= CPU_RV_ZVKNED;
        if ((f & CPU_RV_V) && (pair.value & RV_HWPROBE_EXT_ZVKB)) f |= CPU_RV_ZVKB;
        if ((f & CPU_RV_V) && (pair.value & RV_HWPROBE_EXT_ZVBB)) f |= CPU_RV_ZVBB;
    } else if (getauxval(AT_HWCAP) & RV_HWCAP_V) {
        /* Kernels before hwprobe: HWCAP knows single-letter extensions only, so V but never
         * Zvkg: the Zvkg kernels then count as unavailable, which is the safe answer. */
        f |= CPU_RV_V;
    }
    if (f & CPU_RV_V) {
        unsigned long b;
        __asm__ volatile(".option push\n\t.option arch, +v\n\tcsrr %0, vlenb\n\t.option pop"
                         : "=r"(b));
        rv_vlenb = (unsigned)b;
    }
    return f;
}
#else
static uint64_t detect(void)
{
    return 0;
}
#endif

int cpu_parse_mask(const char *s, uint64_t *out, char *err, size_t errlen)
{
    uint64_t m = 0;
    const char *p = s;

    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0) {
            p += end ? 1 : 0;
            if (!end) break;
            continue;
        }
        if (p[0] != '-') {
            snprintf(err, errlen, "'%.*s': each entry must start with '-' (a feature to remove)",
                     (int)len, p);
            return -1;
        }
        size_t i;
        for (i = 0; i < NFEATURES; i++)
            if (strlen(feature_names[i].name) == len - 1 &&
                !strncmp(feature_names[i].name, p + 1, len - 1))
                break;
        if (i == NFEATURES) {
            snprintf(err, errlen, "unknown CPU feature '%.*s'", (int)len - 1, p + 1);
            return -1;
        }
        m |= feature_names[i].bit;
        p += len + (end ? 1 : 0);
    }
    *out = m;
    return 0;
}

static void init(void)
{
    if (initialised) return;
    initialised = 1;
    detected = detect();
    const char *env = getenv("ASMDIFF_CPU_MASK");
    if (env && *env) {
        char err[160];
        if (cpu_parse_mask(env, &masked, err, sizeof err)) {
            char names[512];
            fprintf(stderr, "asmdiff: ASMDIFF_CPU_MASK: %s\n  known features: %s\n", err,
                    cpu_feature_names(~0ull, names, sizeof names));
            exit(2);
        }
    }
}

uint64_t cpu_features(void)
{
    init();
    return detected & ~masked;
}

uint64_t cpu_features_detected(void)
{
    init();
    return detected;
}

uint64_t cpu_features_masked(void)
{
    init();
    return masked;
}

const char *cpu_feature_names(uint64_t set, char *buf, size_t buflen)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < NFEATURES; i++) {
        if (!(set & feature_names[i].bit)) continue;
        int n = snprintf(buf + used, buflen - used, "%s%s", used ? " " : "", feature_names[i].name);
        if (n < 0 || (size_t)n >= buflen - used) break;
        used += (size_t)n;
    }
    return buf;
}

/* The message, out of line: under ASan its name buffer would take a fake stack frame on every
 * call, and the driver asks for every implementation on every input. */
__attribute__((noinline)) static const char *unavailable_why(uint64_t lacking, uint64_t off)
{
    static char why[256];
    char names[200];
    if (lacking) {
        snprintf(why, sizeof why, "host lacks %s", cpu_feature_names(lacking, names, sizeof names));
        return why;
    }
    snprintf(why, sizeof why, "masked by ASMDIFF_CPU_MASK: %s",
             cpu_feature_names(off, names, sizeof names));
    return why;
}

const char *cpu_unavailable_reason(uint64_t needs)
{
    init();
    uint64_t lacking = needs & ~detected, off = needs & masked;
    return lacking || off ? unavailable_why(lacking, off) : NULL;
}

#if defined(__riscv)
unsigned cpu_riscv_vlenb(void)
{
    init();
    return rv_vlenb;
}
#endif
