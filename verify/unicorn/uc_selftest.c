/* uc_selftest.c — the Unicorn checks (ucheck.h) fire on broken code, and the MPI, NH, ARIA and
 * Camellia kernels pass them.
 *
 * Property: run inside Unicorn with each buffer mapped to its exact byte range,
 *   bounds: every kernel access lies inside its documented ranges (MPI: rp, s1, s2 exactly
 *           n limbs; NH: key exactly [0, n + 48), message [0, n), hash 32 bytes, n = len & ~15),
 *           and the emulated result equals the plain C one;
 *   ct:     the trace (instruction addresses, accessed region offsets) is the same for
 *           different secret data of the same public length;
 *   abi:    callee-saved registers, rsp, DF, MXCSR and x87 control survive, and no stack is
 *           used (both kernel families document "no stack").
 * The controls come first: a checker that does not fire on uc_controls_x86_64.S proves
 * nothing about the kernels.  Each mode runs the controls of its own check; `controls` runs
 * them all and no kernel.
 *
 *   uc_selftest controls|bounds|ct|abi|all
 * One line per check, per-call costs, then "N passed, M failed"; exit 0 only when all pass,
 * 99 on a usage error.
 */
#include "ucheck.h"
#include "ucheck_elf.h"

#include "kernels/aria/aria.h"
#include "kernels/camellia/camellia.h"
#include "kernels/mpi/mpi.h"
#include "kernels/nh/nh.h"
#include "reference/aria.h"
#include "reference/camellia.h"
#include "reference/nh.h"

#include <cpuid.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern const uint8_t uc_ctl_table[256];
uint32_t uc_ctl_table_lookup(const uint8_t *secret);
uint32_t uc_ctl_secret_branch(const uint8_t *secret);
void uc_ctl_overread16(const uint8_t *in, size_t len, uint8_t out[16]);
uint32_t uc_ctl_underread1(const uint8_t *in, size_t len);
uint64_t uc_ctl_clobber_rbx(uint64_t x);
uint64_t uc_ctl_leave_df(uint64_t x);
uint64_t uc_ctl_mxcsr_round_zero(uint64_t x);
void uc_ctl_overwrite1(uint8_t *out, size_t len);
void uc_ctl_xor(uint8_t *dst, const uint8_t *a, const uint8_t *b, size_t len);

static int passed, failed;

/* What this CPU can run natively: the emulated checks never need it, only the native timing
 * beside them (on a host without AVX-512 or GFNI the kernels run emulated only). */
static int cpu_avx2, cpu_avx512, cpu_gfni;

static void detect_cpu(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return;
    unsigned lo = 0, hi = 0;
    unsigned a1 = 0, b1 = 0, c1 = 0, d1 = 0;
    __get_cpuid(1, &a1, &b1, &c1, &d1);
    if ((c1 >> 27) & 1) __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    int ymm_os = (lo & 6) == 6, zmm_os = (lo & 0xe6) == 0xe6;
    cpu_avx2 = ((b >> 5) & 1) && ymm_os;
    cpu_avx512 = ((b >> 16) & 1) && ((b >> 30) & 1) && ((b >> 31) & 1) && zmm_os;
    cpu_gfni = (c >> 8) & 1;
}

static void check(int ok, const char *mode, const char *what, const char *detail)
{
    printf("%s %-8s %s: %s\n", ok ? "ok  " : "FAIL", mode, what, detail);
    if (ok)
        passed++;
    else
        failed++;
}

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Secret fills, as checkasm's: random hunts everything, all-ones hunts carry chains and
 * overflow, zero hunts underflow and early exits. */
enum fill { FILL_RANDOM, FILL_RANDOM2, FILL_ONES, FILL_ZERO, NFILLS };
static const char *const fill_name[NFILLS] = {"random", "random'", "all-ones", "zero"};

static void fill(void *p, size_t len, enum fill f)
{
    uint8_t *b = p;
    rng_state = f == FILL_RANDOM2 ? 0x2222 + len : 0x1111 + len;
    for (size_t i = 0; i < len; i++)
        b[i] = f == FILL_ONES ? 0xff : f == FILL_ZERO ? 0 : (uint8_t)rnd();
}

/* Runs one call; a run that did not complete is a failure of every check. */
static int run(const struct uc_call *c, struct uc_result *r, char *why, size_t len)
{
    if (ucheck_run(c, r) == 0) return 0;
    snprintf(why, len, "%s", r->error);
    return -1;
}

/* One check over many calls: how many failed, and the first failure in words. */
struct tally {
    int fails, calls;
    char first[512];
};

static void tally(struct tally *t, int ok, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void tally(struct tally *t, int ok, const char *fmt, ...)
{
    t->calls++;
    if (ok || t->fails++) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->first, sizeof t->first, fmt, ap);
    va_end(ap);
}

static void tally_check(const struct tally *t, const char *mode, const char *name,
                        const char *pass_detail)
{
    char detail[700];
    if (t->fails)
        snprintf(detail, sizeof detail, "%d of %d calls failed, the first: %s", t->fails,
                 t->calls, t->first);
    check(!t->fails && t->calls, mode, name, t->fails ? detail : pass_detail);
}

/* Per-call cost in steady state (engine set up, code translated): the best of 5 batches, so
 * that a busy machine inflates the figure less.  native is NULL when the kernel broke the ABI
 * or its bounds in the emulator: called natively, it could corrupt this very program (a
 * clobbered rbx did: the timing loop never ended). */
static double cost_bytes; /* bytes per call, for a MiB/s figure; 0: none */

static void print_cost(const char *what, const struct uc_call *c, void (*native)(void *),
                       void *arg)
{
    struct uc_result r = {0};
    double best_us = 1e30, best_native = 1e30;
    uint64_t insns = 0;
    for (int batch = 0; batch < 5; batch++) {
        uint64_t ns = 0;
        for (int i = 0; i < 40; i++) {
            if (ucheck_run(c, &r)) return;
            ns += r.nanoseconds;
        }
        insns = r.insn_count;
        if (ns / 40e3 < best_us) best_us = ns / 40e3;
        if (!native) continue;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (int i = 0; i < 2000; i++) native(arg);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double nat = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 2000;
        if (nat < best_native) best_native = nat;
    }
    ucheck_result_free(&r);
    printf("cost     %s: %.1f us/call emulated and checked, %llu instructions/call, "
           "%.1f M instructions/s", what, best_us, (unsigned long long)insns, insns / best_us);
    if (native)
        printf(" (native %.0f ns/call: %.0fx slower)", best_native, best_us * 1e3 / best_native);
    if (cost_bytes)
        printf("; %.2f MiB/s", cost_bytes / (best_us * 1e-6) / 1048576.0);
    printf("\n");
}

/* ---- controls ------------------------------------------------------------------------------ */

enum { DO_BOUNDS = 1, DO_CT = 2, DO_ABI = 4 };

static int have_symbols;

/* Does msg say want, and, when this program has its symbol table, also name the instruction
 * (named)?  A stripped build prints instruction addresses in hex instead. */
static int says(const char *msg, const char *want, const char *named)
{
    return strstr(msg, want) && (!named || !have_symbols || strstr(msg, named));
}

/* Each control is asserted by the check it is for; (f) by all of them. */
static void controls(int modes)
{
    struct uc_result a = {0}, b = {0};
    char msg[700], why[256] = "";

    /* (a) secret-indexed table lookup: ct must name the two table offsets. */
    if (modes & DO_CT) {
        uint8_t s1 = 0x12, s2 = 0x40;
        struct uc_call c = {.fn = (const void *)uc_ctl_table_lookup, .nargs = 1, .nregions = 2,
                            .regions = {{"secret", &s1, 1, 0},
                                        {"uc_ctl_table", uc_ctl_table, 256, 0}},
                            .args = {(uintptr_t)&s1}};
        /* The same region from the symbol table, where there is one (the .size directive). */
        struct uc_region sym = {0};
        int ok = !have_symbols || (!ucheck_symbol_region("uc_ctl_table", &sym) &&
                                   sym.host == uc_ctl_table && sym.len == 256);
        if (!ok) snprintf(why, sizeof why, "ucheck_symbol_region(uc_ctl_table) is wrong");
        ok = ok && !run(&c, &a, why, sizeof why);
        c.regions[0].host = &s2;
        c.args[0] = (uintptr_t)&s2;
        ok = ok && !run(&c, &b, why, sizeof why);
        long at = ok ? ucheck_trace_diff(&c, &a, &b, msg, sizeof msg) : -1;
        ok = ok && at >= 0 && says(msg, "read uc_ctl_table+18 (1 byte) vs uc_ctl_table+64",
                                   "instruction uc_ctl_table_lookup+0x") &&
             !a.bounds_violation && !b.bounds_violation && a.rax == (0x12 ^ 0x5c);
        check(ok, "controls", "(a) secret-indexed table lookup flagged by ct",
              at >= 0 ? msg : why[0] ? why : "traces equal");
    }
    /* (b) secret-dependent branch: the instruction sequences differ. */
    if (modes & DO_CT) {
        uint8_t s1 = 0x02, s2 = 0x03;
        struct uc_call c = {.fn = (const void *)uc_ctl_secret_branch, .nargs = 1, .nregions = 1,
                            .regions = {{"secret", &s1, 1, 0}}, .args = {(uintptr_t)&s1}};
        int ok = !run(&c, &a, why, sizeof why);
        c.regions[0].host = &s2;
        c.args[0] = (uintptr_t)&s2;
        ok = ok && !run(&c, &b, why, sizeof why);
        long at = ok ? ucheck_trace_diff(&c, &a, &b, msg, sizeof msg) : -1;
        ok = ok && at >= 0 && says(msg, "control flow after ", "uc_ctl_secret_branch+0x") &&
             a.rax == 2 && b.rax == 9;
        check(ok, "controls", "(b) secret-dependent branch flagged by ct",
              at >= 0 ? msg : why[0] ? why : "traces equal");
    }
    /* (c) 16 bytes past the end: one movdqu, reported as one 16-byte read at input+64 although
     * Unicorn delivers it as two 8-byte reads. */
    if (modes & DO_BOUNDS) {
        uint8_t in[64], out[16];
        fill(in, sizeof in, FILL_RANDOM);
        struct uc_call c = {.fn = (const void *)uc_ctl_overread16, .nargs = 3, .nregions = 2,
                            .regions = {{"input", in, sizeof in, 0}, {"out", out, 16, 1}},
                            .args = {(uintptr_t)in, sizeof in, (uintptr_t)out}};
        int ok = !run(&c, &a, why, sizeof why);
        ok = ok && a.bounds_violation == 1 && says(a.bounds_msg, "read of 16 bytes at "
             "input+64 (16 bytes past its end) by instruction at ", "uc_ctl_overread16+0x");
        check(ok, "controls", "(c) overread of 16 bytes past the input flagged by bounds",
              a.bounds_violation ? a.bounds_msg : why[0] ? why : "not flagged");
    }
    /* (d) one byte before the start: same page, invisible to a guard page after the buffer. */
    if (modes & DO_BOUNDS) {
        uint8_t in[32];
        fill(in, sizeof in, FILL_RANDOM);
        struct uc_call c = {.fn = (const void *)uc_ctl_underread1, .nargs = 2, .nregions = 1,
                            .regions = {{"input", in, sizeof in, 0}},
                            .args = {(uintptr_t)in, sizeof in}};
        int ok = !run(&c, &a, why, sizeof why);
        ok = ok && a.bounds_violation == 1 && says(a.bounds_msg, "read of 1 byte at input-1 "
             "(1 byte before its start) by instruction at ", "uc_ctl_underread1+0x");
        check(ok, "controls", "(d) read of 1 byte before the input flagged by bounds",
              a.bounds_violation ? a.bounds_msg : why[0] ? why : "not flagged");
    }
    /* (d2) one byte written past the end of the output. */
    if (modes & DO_BOUNDS) {
        uint8_t out[32];
        struct uc_call c = {.fn = (const void *)uc_ctl_overwrite1, .nargs = 2, .nregions = 1,
                            .regions = {{"out", out, sizeof out, 1}},
                            .args = {(uintptr_t)out, sizeof out}};
        int ok = !run(&c, &a, why, sizeof why);
        ok = ok && a.bounds_violation == 1 && strstr(a.bounds_msg, "write of 1 byte at out+32 "
             "(1 byte past its end)");
        check(ok, "controls", "(d2) write of 1 byte past the output flagged by bounds",
              a.bounds_violation ? a.bounds_msg : why[0] ? why : "not flagged");
    }
    /* (d3) a write to a region declared read-only (33 bytes: only the read-only rule is
     * broken, 33 times). */
    if (modes & DO_BOUNDS) {
        uint8_t out[33];
        struct uc_call c = {.fn = (const void *)uc_ctl_overwrite1, .nargs = 2, .nregions = 1,
                            .regions = {{"out", out, sizeof out, 0}},
                            .args = {(uintptr_t)out, sizeof out - 1}};
        int ok = !run(&c, &a, why, sizeof why);
        ok = ok && a.bounds_violation == 33 && strstr(a.bounds_msg, "write of 1 byte at out+0 "
             "(out is read-only)");
        check(ok, "controls", "(d3) write to a read-only input flagged by bounds",
              a.bounds_violation ? a.bounds_msg : why[0] ? why : "not flagged");
    }
    /* (d4) no false alarm from the emulator itself: Unicorn re-reads an unaligned load that
     * crosses a page as two aligned loads, and its hook reports those too.  With the region
     * "a" 4099 bytes long, it starts 3 bytes below a page boundary, so the first 8-byte load
     * crosses it and the emulator's first re-read lies 5 bytes before the region. */
    if (modes & (DO_BOUNDS | DO_CT)) {
        static uint8_t x[4099], y[4096], d[4096];
        fill(x, sizeof x, FILL_RANDOM);
        fill(y, sizeof y, FILL_RANDOM2);
        struct uc_call c = {.fn = (const void *)uc_ctl_xor, .nargs = 4, .nregions = 3,
                            .regions = {{"dst", d, sizeof d, 1}, {"a", x, sizeof x, 0},
                                        {"b", y, sizeof y, 0}},
                            .args = {(uintptr_t)d, (uintptr_t)x, (uintptr_t)y, sizeof d}};
        int ok = !run(&c, &a, why, sizeof why), reads = 0, right = 1;
        for (size_t i = 0; ok && i < a.trace_len; i++) {
            const struct uc_event *ev = &a.trace[i];
            if (ev->kind != UC_EV_READ || ev->region != 1) continue;
            right &= ev->size == 8 && ev->offset == 8 * reads;
            reads++;
        }
        ok = ok && (a.region_addr[1] & 4095) == 4093 && !a.bounds_violation && right &&
             reads == 512;
        snprintf(msg, sizeof msg, "%d reads of a, %s; %s", reads, right ? "each 8 bytes at "
                 "8i" : "some not at 8i", a.bounds_violation ? a.bounds_msg : "no violation");
        check(ok, "controls", "(d4) unaligned reads across a page: no false alarm from the "
              "emulator's re-reads", why[0] ? why : msg);
    }
    /* (e) callee-saved rbx clobbered; (e2) DF left set. */
    if (modes & DO_ABI) {
        struct uc_call c = {.fn = (const void *)uc_ctl_clobber_rbx, .nargs = 1, .args = {42}};
        int ok = !run(&c, &a, why, sizeof why);
        ok = ok && a.abi_violation == 1 && strstr(a.abi_msg, "callee-saved register rbx "
             "modified") && a.rax == 42;
        check(ok, "controls", "(e) clobbered rbx flagged by abi",
              a.abi_violation ? a.abi_msg : why[0] ? why : "not flagged");
        c.fn = (const void *)uc_ctl_leave_df;
        ok = !run(&c, &a, why, sizeof why);
        ok = ok && a.abi_violation == 1 && strstr(a.abi_msg, "direction flag");
        check(ok, "controls", "(e2) direction flag left set flagged by abi",
              a.abi_violation ? a.abi_msg : why[0] ? why : "not flagged");
        c.fn = (const void *)uc_ctl_mxcsr_round_zero;
        ok = !run(&c, &a, why, sizeof why);
        ok = ok && a.abi_violation == 1 && strstr(a.abi_msg, "MXCSR control bits modified "
             "(before 0x1f80, after 0x7f80)") && a.stack_bytes == 4 && !a.bounds_violation;
        check(ok, "controls", "(e3) MXCSR rounding mode left changed flagged by abi",
              a.abi_violation ? a.abi_msg : why[0] ? why : "not flagged");
    }
    /* (f) correct, constant-time XOR: no check may fire, and the result is right. */
    {
        uint8_t x[64], y[64], d[64], want[64];
        struct uc_call c = {.fn = (const void *)uc_ctl_xor, .nargs = 4, .nregions = 3,
                            .regions = {{"dst", d, 64, 1}, {"a", x, 64, 0}, {"b", y, 64, 0}},
                            .args = {(uintptr_t)d, (uintptr_t)x, (uintptr_t)y, 64}};
        int ok = 1;
        struct uc_result *r[2] = {&a, &b};
        for (int k = 0; k < 2 && ok; k++) {
            fill(x, 64, k ? FILL_RANDOM2 : FILL_RANDOM);
            fill(y, 64, k ? FILL_ONES : FILL_RANDOM2);
            for (int i = 0; i < 64; i++) want[i] = x[i] ^ y[i];
            ok = !run(&c, r[k], why, sizeof why) && !memcmp(d, want, 64) &&
                 !r[k]->bounds_violation && !r[k]->abi_violation;
        }
        long at = ok ? ucheck_trace_diff(&c, &a, &b, msg, sizeof msg) : 0;
        snprintf(msg, sizeof msg, "%s", !ok ? (why[0] ? why : a.bounds_violation ? a.bounds_msg
                 : a.abi_violation ? a.abi_msg : "wrong result") : at >= 0 ? msg :
                 "no violation, result right, traces equal for two secrets");
        check(ok && at < 0, "controls", "(f) constant-time XOR passes every check", msg);
    }
    ucheck_result_free(&a);
    ucheck_result_free(&b);
}

/* ---- MPI ------------------------------------------------------------------------------------ */

typedef mpi_limb_t (*mpi_fn)(mpi_limb_t *, const mpi_limb_t *, const mpi_limb_t *, size_t);
static const struct {
    const char *name;
    mpi_fn fn;
    int sub;
} mpi_impls[] = {
    {"mpi_add_n_x86_64_simple", mpi_add_n_x86_64_simple, 0},
    {"mpi_sub_n_x86_64_simple", mpi_sub_n_x86_64_simple, 1},
    {"mpi_add_n_x86_64_unroll4", mpi_add_n_x86_64_unroll4, 0},
    {"mpi_sub_n_x86_64_unroll4", mpi_sub_n_x86_64_unroll4, 1},
};
static const size_t mpi_ns[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 31, 32, 33};
#define MPI_MAX 33

/* The plain C computation, limb by limb. */
static mpi_limb_t mpi_c(int sub, mpi_limb_t *rp, const mpi_limb_t *a, const mpi_limb_t *b,
                        size_t n)
{
    mpi_limb_t c = 0;
    for (size_t i = 0; i < n; i++) {
        mpi_limb_t x = a[i], y = b[i], r;
        if (sub) {
            r = x - y - c;
            c = (x < y) | ((x == y) & c);
        } else {
            r = x + y + c;
            c = (r < x) | ((r == x) & c);
        }
        rp[i] = r;
    }
    return c;
}

static mpi_limb_t mpi_rp[MPI_MAX], mpi_s1[MPI_MAX], mpi_s2[MPI_MAX];

/* The call: rp, s1, s2 each exactly n limbs, or rp = s1 (in place) as one region. */
static struct uc_call mpi_call(size_t k, size_t n, int in_place)
{
    mpi_limb_t *rp = in_place ? mpi_s1 : mpi_rp;
    struct uc_call c = {.fn = (const void *)mpi_impls[k].fn, .nargs = 4,
                        .args = {(uintptr_t)rp, (uintptr_t)mpi_s1, (uintptr_t)mpi_s2, n}};
    if (in_place) {
        c.regions[0] = (struct uc_region){"rp=s1", mpi_s1, 8 * n, 1};
        c.regions[1] = (struct uc_region){"s2", mpi_s2, 8 * n, 0};
        c.nregions = 2;
    } else {
        c.regions[0] = (struct uc_region){"rp", mpi_rp, 8 * n, 1};
        c.regions[1] = (struct uc_region){"s1", mpi_s1, 8 * n, 0};
        c.regions[2] = (struct uc_region){"s2", mpi_s2, 8 * n, 0};
        c.nregions = 3;
    }
    return c;
}

static void mpi_native(void *p)
{
    size_t k = *(size_t *)p;
    __asm__ volatile("" ::: "memory"); /* keep every call */
    mpi_impls[k].fn(mpi_rp, mpi_s1, mpi_s2, 32);
}

static void mpi_checks(int modes)
{
    struct uc_result r = {0}, base = {0};
    char why[512], msg[512];
    mpi_limb_t want[MPI_MAX];
    for (size_t k = 0; k < sizeof mpi_impls / sizeof mpi_impls[0]; k++) {
        struct tally tb = {0}, tc = {0}, ta = {0};
        for (size_t i = 0; i < sizeof mpi_ns / sizeof mpi_ns[0]; i++) {
            size_t n = mpi_ns[i];
            for (int f = 0; f < NFILLS; f++)
                for (int ip = 0; ip < 2; ip++) {
                    fill(mpi_s1, 8 * n, f);
                    fill(mpi_s2, 8 * n, f == FILL_RANDOM ? FILL_RANDOM2 : f == FILL_RANDOM2 ?
                         FILL_RANDOM : f);
                    memset(mpi_rp, 0x5a, sizeof mpi_rp);
                    mpi_limb_t carry = mpi_c(mpi_impls[k].sub, want, mpi_s1, mpi_s2, n);
                    struct uc_call c = mpi_call(k, n, ip);
                    const char *how = ip ? "in place" : "separate";
                    if (run(&c, &r, why, sizeof why)) {
                        tally(&tb, 0, "n = %zu, %s, %s: %s", n, fill_name[f], how, why);
                        tally(&tc, 0, "n = %zu, %s, %s: %s", n, fill_name[f], how, why);
                        tally(&ta, 0, "n = %zu, %s, %s: %s", n, fill_name[f], how, why);
                        continue;
                    }
                    mpi_limb_t *rp = ip ? mpi_s1 : mpi_rp;
                    int right = !memcmp(rp, want, 8 * n) && r.rax == carry;
                    tally(&tb, !r.bounds_violation && right, "n = %zu, %s limbs, %s: %s", n,
                          fill_name[f], how, r.bounds_violation ? r.bounds_msg
                          : "result differs from C");
                    tally(&ta, !r.abi_violation && !r.stack_bytes, "n = %zu: %s", n,
                          r.abi_violation ? r.abi_msg : "uses the stack, documented not to");
                    if (ip) continue;
                    /* Every fill's trace must equal the first fill's. */
                    if (f == 0) {
                        struct uc_result t = base;
                        base = r;
                        r = t;
                        continue;
                    }
                    long at = ucheck_trace_diff(&c, &base, &r, msg, sizeof msg);
                    tally(&tc, at < 0, "n = %zu, %s vs %s limbs: %s", n, fill_name[0],
                          fill_name[f], msg);
                }
        }
        const char *name = mpi_impls[k].name;
        if (modes & DO_BOUNDS)
            tally_check(&tb, "bounds", name, "n = 0..12, 31, 32, 33, 4 fills, separate and in "
                        "place: every access inside rp, s1, s2 (8n bytes each); results equal C");
        if (modes & DO_CT)
            tally_check(&tc, "ct", name, "n = 0..12, 31, 32, 33: traces identical for random, "
                        "random', all-ones and zero limbs");
        if (modes & DO_ABI)
            tally_check(&ta, "abi", name, "n = 0..12, 31, 32, 33: rbx, rbp, r12-r15, rsp "
                        "restored, DF clear, MXCSR and x87 control kept, no stack used");
        char what[96];
        snprintf(what, sizeof what, "%s n=32", name);
        struct uc_call c = mpi_call(k, 32, 0);
        print_cost(what, &c, tb.fails || ta.fails ? NULL : mpi_native, &k);
    }
    ucheck_result_free(&r);
    ucheck_result_free(&base);
}

/* ---- NH ------------------------------------------------------------------------------------- */

typedef void (*nh_fn)(const uint32_t *, const uint8_t *, size_t, uint8_t *);
static const struct {
    const char *name;
    nh_fn fn;
} nh_impls[] = {
    {"nh_sse2_addperm", nh_sse2_addperm},
    {"nh_sse2_permload", nh_sse2_permload},
    {"nh_avx2", nh_avx2}, /* AVX2: runs in the vector executor */
};

/* Room for the edge cases: n = 1040 reads key[0, 1088). */
static uint32_t nh_key[1104 / 4];
static uint8_t nh_message[1056], nh_hash[32];

/* The kernels' documented ranges (nh.h and each .S), with n = len & ~15: key bytes
 * [0, n + 48), message [0, n) (not [0, len): the low 4 bits of len must be ignored), hash
 * [0, 32) written.  The regions are exactly those. */
static struct uc_call nh_call(size_t k, size_t len)
{
    size_t n = len & ~(size_t)15;
    return (struct uc_call){
        .fn = (const void *)nh_impls[k].fn, .nargs = 4, .nregions = 3,
        /* the AVX2 kernel documents that it zeroes ymm0-15: the key must not stay there */
        .check_vectors = nh_impls[k].fn == nh_avx2,
        .regions = {{"key", nh_key, n + 48, 0}, {"message", nh_message, n, 0},
                    {"hash", nh_hash, 32, 1}},
        .args = {(uintptr_t)nh_key, (uintptr_t)nh_message, len, (uintptr_t)nh_hash}};
}

static void nh_native(void *p)
{
    size_t k = *(size_t *)p;
    __asm__ volatile("" ::: "memory");
    nh_impls[k].fn(nh_key, nh_message, 1024, nh_hash);
}

static void nh_checks(int modes)
{
    struct uc_result r = {0}, base = {0};
    char why[512], msg[512];
    uint8_t want[32];
    /* Outside NH's domain, but documented: the low 4 bits are ignored, n == 0 gives a zero
     * hash and still reads key[0, 48), n > 1024 reads key[0, n + 48) (past a 1072-byte key). */
    static const size_t edges[] = {0, 1, 8, 15, 17, 31, 63, 1023, 1025, 1039, 1040, 1055};
    for (size_t k = 0; k < sizeof nh_impls / sizeof nh_impls[0]; k++) {
        struct tally tb = {0}, tc = {0}, ta = {0}, te = {0};
        for (size_t len = 16; len <= 1024; len += 16)
            for (int f = 0; f < NFILLS; f++) {
                fill(nh_key, sizeof nh_key, f);
                fill(nh_message, sizeof nh_message, f == FILL_RANDOM ? FILL_RANDOM2 : f);
                memset(nh_hash, 0x5a, sizeof nh_hash);
                nh_ref(nh_key, nh_message, len, want);
                struct uc_call c = nh_call(k, len);
                if (run(&c, &r, why, sizeof why)) {
                    tally(&tb, 0, "len %zu, %s: %s", len, fill_name[f], why);
                    tally(&tc, 0, "len %zu, %s: %s", len, fill_name[f], why);
                    tally(&ta, 0, "len %zu, %s: %s", len, fill_name[f], why);
                    continue;
                }
                tally(&tb, !r.bounds_violation && !memcmp(nh_hash, want, 32), "len %zu, %s "
                      "key and message: %s", len, fill_name[f], r.bounds_violation ?
                      r.bounds_msg : "hash differs from nh_ref");
                tally(&ta, !r.abi_violation && !r.stack_bytes, "len %zu: %s", len,
                      r.abi_violation ? r.abi_msg : "uses the stack, documented not to");
                if (f == 0) {
                    struct uc_result t = base;
                    base = r;
                    r = t;
                    continue;
                }
                long at = ucheck_trace_diff(&c, &base, &r, msg, sizeof msg);
                tally(&tc, at < 0, "len %zu, %s vs %s key and message: %s", len, fill_name[0],
                      fill_name[f], msg);
            }
        for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
            size_t len = edges[i], n = len & ~(size_t)15;
            fill(nh_key, sizeof nh_key, FILL_RANDOM);
            fill(nh_message, sizeof nh_message, FILL_RANDOM2);
            /* nh_ref is defined on NH's domain only: the hash is compared where n is in it. */
            memset(want, 0, sizeof want);
            if (n && n <= 1024) nh_ref(nh_key, nh_message, n, want);
            struct uc_call c = nh_call(k, len);
            if (run(&c, &r, why, sizeof why)) {
                tally(&te, 0, "len %zu: %s", len, why);
                continue;
            }
            tally(&te, !r.bounds_violation && (n > 1024 || !memcmp(nh_hash, want, 32)),
                  "len %zu: %s", len, r.bounds_violation ? r.bounds_msg : "hash differs");
        }
        const char *name = nh_impls[k].name;
        char label[96];
        if (modes & DO_BOUNDS) {
            tally_check(&tb, "bounds", name, "len 16..1024 step 16, 4 fills: every access inside "
                        "key[0, len+48), message[0, len), hash[0, 32); hash equals nh_ref");
            snprintf(label, sizeof label, "%s edges", name);
            tally_check(&te, "bounds", label, "len 0, 1, 8, 15, 17, 31, 63, 1023, 1025, 1039, "
                        "1040, 1055 (outside the precondition): accesses stay in key[0, n+48), "
                        "message[0, n), n = len & ~15, as documented; hash = nh_ref (zero for "
                        "n = 0)");
        }
        if (modes & DO_CT)
            tally_check(&tc, "ct", name, "len 16..1024 step 16: traces identical for random, "
                        "random', all-ones and zero key and message");
        if (modes & DO_ABI)
            tally_check(&ta, "abi", name, nh_impls[k].fn == nh_avx2 ?
                        "len 16..1024 step 16: rbx, rbp, r12-r15, rsp restored, DF clear, "
                        "MXCSR and x87 control kept, no stack used; zmm0-31 and k0-7 hold no "
                        "data after return" : "len 16..1024 step 16: rbx, rbp, r12-r15, rsp "
                        "restored, DF clear, MXCSR and x87 control kept, no stack used");
        snprintf(label, sizeof label, "%s len=1024", name);
        struct uc_call c = nh_call(k, 1024);
        cost_bytes = 1024;
        int native_ok = nh_impls[k].fn != nh_avx2 || cpu_avx2;
        print_cost(label, &c, tb.fails || ta.fails || !native_ok ? NULL : nh_native, &k);
        cost_bytes = 0;
    }
    ucheck_result_free(&r);
    ucheck_result_free(&base);
}

/* ---- vector controls (uc_vcontrols_x86_64.S): the checks fire on AVX-512 code too ---------- */

void uc_vctl_overread1(uint8_t out[64], const uint8_t in[63]);
void uc_vctl_xor64_masked(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t len);
uint32_t uc_vctl_key_branch(const uint8_t key[64]);
uint32_t uc_vctl_key_index(const uint8_t key[16], const uint8_t table[256]);
void uc_vctl_leave_key(const uint8_t key[64]);
void uc_vctl_leave_mask(const uint8_t key[64]);
void uc_vctl_unsupported(void);
void uc_vctl_store_table(uint8_t *table);

static void vector_controls(int modes)
{
    struct uc_result a = {0}, b = {0};
    static uint8_t in[64], out[64], x[64], y[64], key[64], key2[64];
    char why[512], msg[512];
    fill(in, sizeof in, FILL_RANDOM);
    if (modes & DO_BOUNDS) {
        struct uc_call c = {.fn = (const void *)uc_vctl_overread1, .nargs = 2, .nregions = 2,
                            .regions = {{"out", out, 64, 1}, {"in", in, 63, 0}},
                            .args = {(uintptr_t)out, (uintptr_t)in}};
        int ok = run(&c, &a, why, sizeof why) == 0 && a.bounds_violation &&
                 says(a.bounds_msg, "read of 64 bytes at in+0 (1 byte past its end)",
                      "uc_vctl_overread1+");
        check(ok, "controls", "(v1) unmasked 64-byte load one byte past a 63-byte buffer "
              "flagged by bounds", a.bounds_violation ? a.bounds_msg : why);
        int all = 1;
        for (size_t len = 0; len <= 64 && all; len += 1) {
            fill(x, 64, FILL_RANDOM);
            fill(y, 64, FILL_RANDOM2);
            struct uc_call m = {.fn = (const void *)uc_vctl_xor64_masked, .nargs = 4,
                                .nregions = 3, .check_vectors = 1,
                                .regions = {{"out", out, len, 1}, {"a", x, len, 0},
                                            {"b", y, len, 0}},
                                .args = {(uintptr_t)out, (uintptr_t)x, (uintptr_t)y, len}};
            int r = run(&m, &a, why, sizeof why);
            for (size_t i = 0; i < len && !r; i++) all &= out[i] == (x[i] ^ y[i]);
            if (r || a.bounds_violation || a.abi_violation) {
                all = 0;
                snprintf(why, sizeof why, "len %zu: %.400s", len, r ? a.error : a.bounds_violation
                         ? a.bounds_msg : a.abi_msg);
            }
        }
        check(all, "controls", "(v2) masked 64-byte loads and stores of len 0..64 bytes: no "
              "violation (masked-off bytes are never accessed), right result, registers "
              "cleared", all ? "clean, as it must be" : why);
        struct uc_region ro;
        if (ucheck_symbol_region("uc_ctl_table", &ro) == 0) {
            struct uc_call w = {.fn = (const void *)uc_vctl_store_table, .nargs = 1,
                                .nregions = 1, .regions = {ro},
                                .args = {(uintptr_t)ro.host}};
            int stopped = ucheck_run(&w, &a) != 0;
            int fired = stopped && a.bounds_violation &&
                        says(a.bounds_msg, "write of 8 bytes at uc_ctl_table+16 (uc_ctl_table "
                             "is read-only)", "uc_vctl_store_table+") &&
                        uc_ctl_table[16] == (16 ^ 0x5c);
            check(fired, "controls", "(v8) masked vector store into a read-only table flagged by "
                  "bounds, and not done", a.bounds_violation ? a.bounds_msg : a.error);
        } else {
            check(0, "controls", "(v8) masked vector store into a read-only table",
                  "uc_ctl_table not found in the symbol table");
        }
    }
    if (modes & DO_CT) {
        fill(key, 64, FILL_RANDOM);
        for (int i = 0; i < 64; i++) key[i] |= 1; /* no zero byte */
        memcpy(key2, key, 64);
        key2[40] = 0;
        struct uc_call c = {.fn = (const void *)uc_vctl_key_branch, .nargs = 1, .nregions = 1,
                            .regions = {{"key", key, 64, 0}}, .args = {(uintptr_t)key}};
        struct uc_call c2 = c;
        c2.regions[0].host = key2;
        c2.args[0] = (uintptr_t)key2;
        int ok = run(&c, &a, why, sizeof why) == 0 && run(&c2, &b, why, sizeof why) == 0 &&
                 ucheck_trace_diff(&c, &a, &b, msg, sizeof msg) >= 0 &&
                 says(msg, "control flow after", "uc_vctl_key_branch+");
        check(ok, "controls", "(v3) branch on an opmask test of the key flagged by ct",
              ok ? msg : why);
        struct uc_region tab;
        if (ucheck_symbol_region("uc_ctl_table", &tab)) {
            check(0, "controls", "(v4) key-indexed load flagged by ct", "uc_ctl_table not "
                  "found in the symbol table");
        } else {
            key2[3] = (uint8_t)(key[3] + 1);
            struct uc_call d = {.fn = (const void *)uc_vctl_key_index, .nargs = 2, .nregions = 2,
                                .regions = {{"key", key, 16, 0}, tab},
                                .args = {(uintptr_t)key, (uintptr_t)tab.host}};
            struct uc_call d2 = d;
            d2.regions[0].host = key2;
            d2.args[0] = (uintptr_t)key2;
            ok = run(&d, &a, why, sizeof why) == 0 && run(&d2, &b, why, sizeof why) == 0 &&
                 ucheck_trace_diff(&d, &a, &b, msg, sizeof msg) >= 0 &&
                 says(msg, "uc_ctl_table+", "uc_vctl_key_index+");
            check(ok, "controls", "(v4) table index taken from the key with vpextrb flagged "
                  "by ct", ok ? msg : why);
        }
    }
    if (modes & DO_ABI) {
        fill(key, 64, FILL_RANDOM);
        struct uc_call c = {.fn = (const void *)uc_vctl_leave_key, .nargs = 1, .nregions = 1,
                            .check_vectors = 1, .regions = {{"key", key, 64, 0}},
                            .args = {(uintptr_t)key}};
        int ok = run(&c, &a, why, sizeof why) == 0 && a.abi_violation &&
                 says(a.abi_msg, "zmm17 not cleared", NULL);
        check(ok, "controls", "(v5) key left in zmm17 flagged by abi", ok ? a.abi_msg : why);
        c.fn = (const void *)uc_vctl_leave_mask;
        ok = run(&c, &a, why, sizeof why) == 0 && a.abi_violation &&
             says(a.abi_msg, "k3 not cleared", NULL);
        check(ok, "controls", "(v6) key-derived mask left in k3 flagged by abi",
              ok ? a.abi_msg : why);
    }
    {
        struct uc_call c = {.fn = (const void *)uc_vctl_unsupported};
        int r = ucheck_run(&c, &a);
        int ok = r != 0 && says(a.error, "unsupported instruction: ", "uc_vctl_unsupported+0x0");
        check(ok, "controls", "(v7) an instruction outside the executor's table stops the run "
              "by name", a.error);
    }
    ucheck_result_free(&a);
    ucheck_result_free(&b);
}

/* ---- ARIA (AVX-512 + GFNI in two forms, AVX2 + GFNI) in the vector executor ----------------- */

typedef void (*aria_fn)(const uint8_t *, unsigned int, uint8_t *, const uint8_t *, size_t);
typedef void (*aria_ctr_fn)(const uint8_t *, unsigned int, uint8_t *, const uint8_t *, size_t,
                            uint8_t *);
static const struct {
    const char *name;
    const void *fn;
    int ctr; /* CTR: a sixth argument, the 16-byte counter, read and updated */
} aria_impls[] = {
    {"aria_ecb_avx512_gfni_xor", (const void *)aria_ecb_avx512_gfni_xor, 0},
    {"aria_ecb_avx512_gfni_ternlog", (const void *)aria_ecb_avx512_gfni_ternlog, 0},
    {"aria_ecb_avx2_gfni", (const void *)aria_ecb_avx2_gfni, 0},
    {"aria_ctr_avx512_gfni_xor", (const void *)aria_ctr_avx512_gfni_xor, 1},
    {"aria_ctr_avx512_gfni_ternlog", (const void *)aria_ctr_avx512_gfni_ternlog, 1},
    {"aria_ctr_avx2_gfni", (const void *)aria_ctr_avx2_gfni, 1},
};

#define ARIA_MAXB 130
static uint8_t aria_in[ARIA_MAXB * 16], aria_out[ARIA_MAXB * 16], aria_want[ARIA_MAXB * 16];
static struct aria_key aria_k;
static struct uc_region aria_consts;
/* The counter is public: the same for every fill, near a 64-bit carry so that the kernels'
 * 128-bit increment carries within a call. */
static uint8_t aria_ctr_block[16], aria_ctr_want[16];
static const uint8_t aria_ctr_start[16] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
                                           0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xc0};

/* aria.h: exactly rk[0, (rounds+1)*16), in[0, 16n) read and out[0, 16n) written; the
 * constants are local labels of the kernel's .rodata, judged against the program's .rodata. */
static struct uc_call aria_call(size_t k, size_t nblocks, int in_place)
{
    size_t n = 16 * nblocks, rk = (size_t)(aria_k.rounds + 1) * 16;
    struct uc_call c = {.fn = aria_impls[k].fn, .nargs = 5, .check_vectors = 1,
                        .args = {(uintptr_t)aria_k.rk, (uint64_t)aria_k.rounds,
                                 (uintptr_t)aria_out, (uintptr_t)(in_place ? aria_out : aria_in),
                                 nblocks, (uintptr_t)aria_ctr_block}};
    if (aria_impls[k].ctr) {
        c.nargs = 6;
        c.regions[c.nregions++] = (struct uc_region){"ctr", aria_ctr_block, 16, 1};
    }
    c.regions[c.nregions++] = (struct uc_region){"rk", aria_k.rk, rk, 0};
    c.regions[c.nregions++] = (struct uc_region){"out", aria_out, n, 1};
    if (!in_place) c.regions[c.nregions++] = (struct uc_region){"in", aria_in, n, 0};
    c.regions[c.nregions++] = aria_consts;
    return c;
}

static void aria_native(void *p)
{
    size_t k = *(size_t *)p;
    __asm__ volatile("" ::: "memory");
    if (aria_impls[k].ctr)
        ((aria_ctr_fn)aria_impls[k].fn)(&aria_k.rk[0][0], (unsigned)aria_k.rounds, aria_out,
                                        aria_in, 64, aria_ctr_block);
    else
        ((aria_fn)aria_impls[k].fn)(&aria_k.rk[0][0], (unsigned)aria_k.rounds, aria_out,
                                    aria_in, 64);
}

static void aria_checks(int modes)
{
    uint64_t lo, size;
    if (elfsec_lookup(".rodata", &lo, &size)) {
        check(0, "bounds", "aria", "the program's .rodata section was not found");
        return;
    }
    aria_consts = (struct uc_region){"program .rodata", (const void *)(uintptr_t)lo, size, 0};
    static const size_t counts[] = {1, 2, 3, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 96, 128, 129};
    static const size_t keylens[] = {16, 24, 32};
    struct uc_result r = {0}, base = {0};
    char why[512], msg[512];
    for (size_t k = 0; k < sizeof aria_impls / sizeof aria_impls[0]; k++) {
        struct tally tb = {0}, tc = {0}, ta = {0};
        for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
            size_t nb = counts[ci];
            for (int f = 0; f < NFILLS; f++) {
                size_t kl = keylens[(ci + (size_t)f) % 3];
                uint8_t key[32];
                fill(key, sizeof key, f);
                fill(aria_in, sizeof aria_in, f == FILL_RANDOM ? FILL_RANDOM2 : f);
                aria_set_encrypt_key(&aria_k, key, kl);
                memcpy(aria_ctr_block, aria_ctr_start, 16);
                memcpy(aria_ctr_want, aria_ctr_start, 16);
                if (aria_impls[k].ctr)
                    aria_ctr(&aria_k, aria_want, aria_in, nb, aria_ctr_want);
                else
                    aria_ecb(&aria_k, aria_want, aria_in, nb);
                int in_place = f == FILL_ONES;
                if (in_place) memcpy(aria_out, aria_in, 16 * nb);
                else memset(aria_out, 0x5a, sizeof aria_out);
                struct uc_call c = aria_call(k, nb, in_place);
                if (run(&c, &r, why, sizeof why)) {
                    tally(&tb, 0, "%zu blocks, %s: %s", nb, fill_name[f], why);
                    tally(&tc, 0, "%zu blocks, %s: %s", nb, fill_name[f], why);
                    tally(&ta, 0, "%zu blocks, %s: %s", nb, fill_name[f], why);
                    continue;
                }
                int ctr_ok = !aria_impls[k].ctr || !memcmp(aria_ctr_block, aria_ctr_want, 16);
                tally(&tb, !r.bounds_violation && !memcmp(aria_out, aria_want, 16 * nb) &&
                      ctr_ok, "%zu blocks, ARIA-%zu, %s%s: %s", nb, 8 * kl, fill_name[f],
                      in_place ? ", in place" : "", r.bounds_violation ? r.bounds_msg : !ctr_ok
                      ? "counter after the call differs from aria_ctr's" :
                      "output differs from the reference");
                tally(&ta, !r.abi_violation, "%zu blocks: %s", nb, r.abi_msg);
                if (f == 0) {
                    struct uc_result t = base;
                    base = r;
                    r = t;
                    continue;
                }
                if (in_place) continue; /* another region layout: another trace shape */
                /* same key length for the trace comparison: the round count is public */
                if (kl != keylens[ci % 3]) {
                    fill(key, sizeof key, f);
                    aria_set_encrypt_key(&aria_k, key, keylens[ci % 3]);
                    memcpy(aria_ctr_block, aria_ctr_start, 16);
                    c = aria_call(k, nb, 0);
                    if (run(&c, &r, why, sizeof why)) {
                        tally(&tc, 0, "%zu blocks: %s", nb, why);
                        continue;
                    }
                }
                long at = ucheck_trace_diff(&c, &base, &r, msg, sizeof msg);
                tally(&tc, at < 0, "%zu blocks, %s vs %s key and data: %s", nb, fill_name[0],
                      fill_name[f], msg);
            }
        }
        const char *name = aria_impls[k].name;
        if (modes & DO_BOUNDS)
            tally_check(&tb, "bounds", name, aria_impls[k].ctr ?
                        "1..129 blocks, ARIA-128/192/256, 4 fills, in place too: every access "
                        "inside rk[0, (rounds+1)*16), in[0, 16n), out[0, 16n), ctr[0, 16) and "
                        ".rodata; output and counter equal aria_ctr's" :
                        "1..129 blocks, ARIA-128/192/256, 4 fills, in place too: every access "
                        "inside rk[0, (rounds+1)*16), in[0, 16n), out[0, 16n) and .rodata; "
                        "output equals aria_ecb");
        if (modes & DO_CT)
            tally_check(&tc, "ct", name, "1..129 blocks: traces (every instruction address "
                        "and accessed offset) identical for random, random' and zero keys "
                        "and data");
        if (modes & DO_ABI)
            tally_check(&ta, "abi", name, "1..129 blocks: callee-saved registers, rsp, DF, "
                        "MXCSR, x87 control kept; zmm0-31 and k0-7 hold no data after return");
        char label[96];
        uint8_t key[16];
        fill(key, sizeof key, FILL_RANDOM);
        aria_set_encrypt_key(&aria_k, key, 16);
        snprintf(label, sizeof label, "%s ARIA-128 64 blocks", name);
        memcpy(aria_ctr_block, aria_ctr_start, 16);
        struct uc_call c = aria_call(k, 64, 0);
        cost_bytes = 1024;
        int native_ok = cpu_gfni && (strstr(name, "avx512") ? cpu_avx512 : cpu_avx2);
        print_cost(label, &c, tb.fails || ta.fails || !native_ok ? NULL : aria_native, &k);
        cost_bytes = 0;
        if (run(&c, &r, why, sizeof why) == 0)
            printf("cost     %s: %llu instructions by the vector executor, %llu turns of "
                   "Unicorn\n", label, (unsigned long long)r.vexec_insns,
                   (unsigned long long)r.unicorn_turns);
    }
    ucheck_result_free(&r);
    ucheck_result_free(&base);
}

/* ---- Camellia (AVX-512 + GFNI in two forms, AVX2 + GFNI; the scalar key schedule) ---------- */

typedef void (*cam_fn)(const uint64_t *, unsigned int, uint8_t *, const uint8_t *, size_t);
typedef void (*cam_ctr_fn)(const uint64_t *, unsigned int, uint8_t *, const uint8_t *, size_t,
                           uint8_t *);
static const struct {
    const char *name;
    const void *fn;
    int ctr; /* CTR: a sixth argument, the 16-byte counter, read and updated */
} cam_impls[] = {
    {"camellia_ecb_avx512_gfni_cmpmask", (const void *)camellia_ecb_avx512_gfni_cmpmask, 0},
    {"camellia_ecb_avx512_gfni_gfnishift", (const void *)camellia_ecb_avx512_gfni_gfnishift, 0},
    {"camellia_ecb_avx2_gfni", (const void *)camellia_ecb_avx2_gfni, 0},
    {"camellia_ctr_avx512_gfni_cmpmask", (const void *)camellia_ctr_avx512_gfni_cmpmask, 1},
    {"camellia_ctr_avx512_gfni_gfnishift", (const void *)camellia_ctr_avx512_gfni_gfnishift, 1},
    {"camellia_ctr_avx2_gfni", (const void *)camellia_ctr_avx2_gfni, 1},
};

static uint8_t cam_in[ARIA_MAXB * 16], cam_out[ARIA_MAXB * 16], cam_want[ARIA_MAXB * 16];
static struct camellia_key cam_k;
static uint8_t cam_ctr_block[16], cam_ctr_want[16];

/* camellia.h: exactly sk[0, CAMELLIA_KERNEL_SUBKEYS(rounds)) words, in[0, 16n) read and
 * out[0, 16n) written, and the kernels' .rodata constants. */
static struct uc_call cam_call(size_t k, size_t nblocks, int in_place)
{
    size_t n = 16 * nblocks, skb = 8 * (size_t)CAMELLIA_KERNEL_SUBKEYS(cam_k.rounds);
    struct uc_call c = {.fn = cam_impls[k].fn, .nargs = 5, .check_vectors = 1,
                        .args = {(uintptr_t)cam_k.sk, (uint64_t)cam_k.rounds,
                                 (uintptr_t)cam_out, (uintptr_t)(in_place ? cam_out : cam_in),
                                 nblocks, (uintptr_t)cam_ctr_block}};
    if (cam_impls[k].ctr) {
        c.nargs = 6;
        c.regions[c.nregions++] = (struct uc_region){"ctr", cam_ctr_block, 16, 1};
    }
    c.regions[c.nregions++] = (struct uc_region){"sk", cam_k.sk, skb, 0};
    c.regions[c.nregions++] = (struct uc_region){"out", cam_out, n, 1};
    if (!in_place) c.regions[c.nregions++] = (struct uc_region){"in", cam_in, n, 0};
    c.regions[c.nregions++] = aria_consts; /* the program's .rodata */
    return c;
}

static void cam_native(void *p)
{
    size_t k = *(size_t *)p;
    __asm__ volatile("" ::: "memory");
    if (cam_impls[k].ctr)
        ((cam_ctr_fn)cam_impls[k].fn)(cam_k.sk, cam_k.rounds, cam_out, cam_in, 64,
                                      cam_ctr_block);
    else
        ((cam_fn)cam_impls[k].fn)(cam_k.sk, cam_k.rounds, cam_out, cam_in, 64);
}

/* camellia_setkey_x86_64: bounds and ABI only.  Its S-box look-ups index a table by key bytes
 * (a key schedule runs once per key; camellia-x86_64-setkey.S makes no constant-time claim). */
static void cam_setkey_checks(int modes)
{
    struct uc_result r = {0};
    struct tally tb = {0}, ta = {0};
    char why[512];
    static const size_t keylens[] = {16, 24, 32, 20};
    for (size_t t = 0; t < 2 * sizeof keylens / sizeof keylens[0]; t++)
        for (int f = 0; f < NFILLS; f++) {
            size_t kl = keylens[t % 4];
            int dec = t >= 4;
            uint8_t key[32];
            uint64_t sk[CAMELLIA_MAX_SUBKEYS];
            unsigned rounds = 12345;
            fill(key, sizeof key, f);
            memset(sk, 0x5a, sizeof sk);
            struct camellia_key want;
            if (dec) camellia_set_decrypt_key(&want, key, kl);
            else camellia_set_encrypt_key(&want, key, kl);
            size_t nw = kl == 20 ? 0 : CAMELLIA_KERNEL_SUBKEYS(want.rounds);
            struct uc_call c = {.fn = (const void *)camellia_setkey_x86_64, .nargs = 5,
                                .args = {(uintptr_t)sk, (uintptr_t)&rounds, (uintptr_t)key, kl,
                                         (uint64_t)dec}};
            c.regions[c.nregions++] = (struct uc_region){"sk", sk, 8 * nw, 1};
            c.regions[c.nregions++] = (struct uc_region){"rounds", &rounds, sizeof rounds, 1};
            c.regions[c.nregions++] = (struct uc_region){"key", key, kl == 20 ? 0 : kl, 0};
            c.regions[c.nregions++] = aria_consts;
            if (run(&c, &r, why, sizeof why)) {
                tally(&tb, 0, "%zu-byte key, %s: %s", kl, fill_name[f], why);
                tally(&ta, 0, "%zu-byte key, %s: %s", kl, fill_name[f], why);
                continue;
            }
            int ok = rounds == (kl == 20 ? 0 : want.rounds) && !memcmp(sk, want.sk, 8 * nw);
            tally(&tb, !r.bounds_violation && ok, "%zu-byte key, %s, %s: %s", kl,
                  dec ? "decrypt" : "encrypt", fill_name[f], r.bounds_violation ?
                  r.bounds_msg : "schedule or rounds differ from the reference");
            tally(&ta, !r.abi_violation, "%zu-byte key: %s", kl, r.abi_msg);
        }
    if (modes & DO_BOUNDS)
        tally_check(&tb, "bounds", "camellia_setkey_x86_64", "16/24/32-byte keys (and 20: "
                    "nothing written, rounds 0), both orders, 4 fills: every access inside "
                    "sk[0, 8*words), rounds, key[0, keylen), .rodata and its stack; schedule "
                    "equals reference/camellia.c's");
    if (modes & DO_ABI)
        tally_check(&ta, "abi", "camellia_setkey_x86_64", "callee-saved registers, rsp, DF, "
                    "MXCSR, x87 control kept");
    ucheck_result_free(&r);
}

static void camellia_checks(int modes)
{
    static const size_t counts[] = {1, 2, 3, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 96, 128, 129};
    static const size_t keylens[] = {16, 24, 32};
    struct uc_result r = {0}, base = {0};
    char why[512], msg[512];
    if (!aria_consts.host) {
        check(0, "bounds", "camellia", "the program's .rodata section was not found");
        return;
    }
    for (size_t k = 0; k < sizeof cam_impls / sizeof cam_impls[0]; k++) {
        struct tally tb = {0}, tc = {0}, ta = {0};
        for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
            size_t nb = counts[ci];
            for (int f = 0; f < NFILLS; f++) {
                size_t kl = keylens[(ci + (size_t)f) % 3];
                uint8_t key[32];
                fill(key, sizeof key, f);
                fill(cam_in, sizeof cam_in, f == FILL_RANDOM ? FILL_RANDOM2 : f);
                /* ECB: a decryption schedule for odd counts (one entry point does both) */
                if (!cam_impls[k].ctr && (ci & 1))
                    camellia_set_decrypt_key(&cam_k, key, kl);
                else
                    camellia_set_encrypt_key(&cam_k, key, kl);
                memcpy(cam_ctr_block, aria_ctr_start, 16);
                memcpy(cam_ctr_want, aria_ctr_start, 16);
                if (cam_impls[k].ctr)
                    camellia_ctr(&cam_k, cam_want, cam_in, nb, cam_ctr_want);
                else
                    camellia_ecb(&cam_k, cam_want, cam_in, nb);
                int in_place = f == FILL_ONES;
                if (in_place) memcpy(cam_out, cam_in, 16 * nb);
                else memset(cam_out, 0x5a, sizeof cam_out);
                struct uc_call c = cam_call(k, nb, in_place);
                if (run(&c, &r, why, sizeof why)) {
                    tally(&tb, 0, "%zu blocks, %s: %s", nb, fill_name[f], why);
                    tally(&tc, 0, "%zu blocks, %s: %s", nb, fill_name[f], why);
                    tally(&ta, 0, "%zu blocks, %s: %s", nb, fill_name[f], why);
                    continue;
                }
                int ctr_ok = !cam_impls[k].ctr || !memcmp(cam_ctr_block, cam_ctr_want, 16);
                tally(&tb, !r.bounds_violation && !memcmp(cam_out, cam_want, 16 * nb) &&
                      ctr_ok, "%zu blocks, CAMELLIA-%zu, %s%s: %s", nb, 8 * kl, fill_name[f],
                      in_place ? ", in place" : "", r.bounds_violation ? r.bounds_msg : !ctr_ok
                      ? "counter after the call differs from camellia_ctr's" :
                      "output differs from the reference");
                tally(&ta, !r.abi_violation, "%zu blocks: %s", nb, r.abi_msg);
                if (f == 0) {
                    struct uc_result t = base;
                    base = r;
                    r = t;
                    continue;
                }
                if (in_place) continue; /* another region layout: another trace shape */
                /* same key length and schedule order for the trace comparison: public */
                if (kl != keylens[ci % 3]) {
                    fill(key, sizeof key, f);
                    if (!cam_impls[k].ctr && (ci & 1))
                        camellia_set_decrypt_key(&cam_k, key, keylens[ci % 3]);
                    else
                        camellia_set_encrypt_key(&cam_k, key, keylens[ci % 3]);
                    memcpy(cam_ctr_block, aria_ctr_start, 16);
                    c = cam_call(k, nb, 0);
                    if (run(&c, &r, why, sizeof why)) {
                        tally(&tc, 0, "%zu blocks: %s", nb, why);
                        continue;
                    }
                }
                long at = ucheck_trace_diff(&c, &base, &r, msg, sizeof msg);
                tally(&tc, at < 0, "%zu blocks, %s vs %s key and data: %s", nb, fill_name[0],
                      fill_name[f], msg);
            }
        }
        const char *name = cam_impls[k].name;
        if (modes & DO_BOUNDS)
            tally_check(&tb, "bounds", name, cam_impls[k].ctr ?
                        "1..129 blocks, CAMELLIA-128/192/256, 4 fills, in place too: every "
                        "access inside sk[0, 8*words), in[0, 16n), out[0, 16n), ctr[0, 16), "
                        ".rodata and its stack; output and counter equal camellia_ctr's" :
                        "1..129 blocks, CAMELLIA-128/192/256, both schedule orders, 4 fills, in "
                        "place too: every access inside sk[0, 8*words), in[0, 16n), out[0, 16n), "
                        ".rodata and its stack; output equals camellia_ecb");
        if (modes & DO_CT)
            tally_check(&tc, "ct", name, "1..129 blocks: traces (every instruction address "
                        "and accessed offset) identical for random, random' and zero keys "
                        "and data");
        if (modes & DO_ABI)
            tally_check(&ta, "abi", name, "1..129 blocks: callee-saved registers, rsp, DF, "
                        "MXCSR, x87 control kept; zmm0-31 and k0-7 hold no data after return");
        char label[96];
        uint8_t key[16];
        fill(key, sizeof key, FILL_RANDOM);
        camellia_set_encrypt_key(&cam_k, key, 16);
        snprintf(label, sizeof label, "%s CAMELLIA-128 64 blocks", name);
        memcpy(cam_ctr_block, aria_ctr_start, 16);
        struct uc_call c = cam_call(k, 64, 0);
        cost_bytes = 1024;
        int native_ok = cpu_gfni && (strstr(name, "avx512") ? cpu_avx512 : cpu_avx2);
        print_cost(label, &c, tb.fails || ta.fails || !native_ok ? NULL : cam_native, &k);
        cost_bytes = 0;
        if (run(&c, &r, why, sizeof why) == 0)
            printf("cost     %s: %llu instructions by the vector executor, %llu turns of "
                   "Unicorn\n", label, (unsigned long long)r.vexec_insns,
                   (unsigned long long)r.unicorn_turns);
    }
    ucheck_result_free(&r);
    ucheck_result_free(&base);
    cam_setkey_checks(modes);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int modes;
        int kernels;
    } modes[] = {
        {"controls", DO_BOUNDS | DO_CT | DO_ABI, 0},
        {"bounds", DO_BOUNDS, 1},
        {"ct", DO_CT, 1},
        {"abi", DO_ABI, 1},
        {"all", DO_BOUNDS | DO_CT | DO_ABI, 1},
    };
    size_t m = 0;
    while (m < sizeof modes / sizeof modes[0] && (argc != 2 || strcmp(argv[1], modes[m].name)))
        m++;
    if (m == sizeof modes / sizeof modes[0]) {
        fprintf(stderr, "usage: %s controls|bounds|ct|abi|all\n", argv[0]);
        return 99;
    }
    /* A check is only as good as its control: the controls of the chosen checks run first. */
    have_symbols = elfsym_load() == 0;
    detect_cpu();
    if (!cpu_avx512 || !cpu_gfni)
        printf("note     this CPU lacks %s: the vector kernels run emulated only (no native "
               "timing)\n", !cpu_avx512 ? "AVX-512 F/BW/VL" : "GFNI");
    controls(modes[m].modes);
    vector_controls(modes[m].modes);
    if (modes[m].kernels) {
        mpi_checks(modes[m].modes);
        nh_checks(modes[m].modes);
        aria_checks(modes[m].modes);
        camellia_checks(modes[m].modes);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
