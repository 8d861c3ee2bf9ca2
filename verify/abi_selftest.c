/* abi_selftest.c — the checked call (fuzz/harness/abi.h) catches every ABI violation it claims
 * to, names it correctly, survives it, and lets correct functions through.
 *
 * A checker is code too: each deliberately broken function in abi_selftest_x86_64.S breaks one
 * rule, and the report must name that rule and only it.  Correct functions (ten arguments, a
 * vector register used and cleared) must pass without a report.  After each violation the
 * caller's own state (DF, MXCSR, x87 control word) must be back to what it was.
 *
 * Prints one line per case and "N passed, M failed"; exit 0 only when every case behaved.
 */
#include "abi.h"
#include "verify/selftest.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

uint64_t selftest_clobber_rbx(void);
uint64_t selftest_clobber_rbp(void);
uint64_t selftest_clobber_r12(void);
uint64_t selftest_clobber_r13(void);
uint64_t selftest_clobber_r14(void);
uint64_t selftest_clobber_r15(void);
uint64_t selftest_set_df(void);
uint64_t selftest_mxcsr_round_zero(void);
uint64_t selftest_mxcsr_flags_only(void);
uint64_t selftest_x87cw_round_zero(void);
uint64_t selftest_mmx_no_emms(uint64_t x);
uint64_t selftest_rsp_minus_8(void);
uint64_t selftest_return_arg(uint64_t x);
uint64_t selftest_entry_misalign(void);
uint64_t selftest_sum10(uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
                        uint64_t a6, uint64_t a7, uint64_t a8, uint64_t a9, uint64_t a10);
uint64_t selftest_leave_xmm7(uint64_t x);
uint64_t selftest_clear_xmm7(uint64_t x);
uint64_t selftest_leave_ymm7_avx(uint64_t x);
uint64_t selftest_clear_ymm7_avx(uint64_t x);
uint64_t selftest_leave_zmm20_avx512(uint64_t x);
uint64_t selftest_leave_k3_avx512(uint64_t x);
uint64_t selftest_clear_zmm20_k3_avx512(uint64_t x);
uint64_t selftest_w64_clobber_rdi(void);
uint64_t selftest_w64_clobber_rsi(void);
#define W64_CLOBBER_XMM_(n) uint64_t selftest_w64_clobber_xmm##n(void);
W64_CLOBBER_XMM_(6) W64_CLOBBER_XMM_(7) W64_CLOBBER_XMM_(8) W64_CLOBBER_XMM_(9)
W64_CLOBBER_XMM_(10) W64_CLOBBER_XMM_(11) W64_CLOBBER_XMM_(12) W64_CLOBBER_XMM_(13)
W64_CLOBBER_XMM_(14) W64_CLOBBER_XMM_(15)
uint64_t selftest_w64_sum9(uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
                           uint64_t a6, uint64_t a7, uint64_t a8, uint64_t a9);

/* What the fail handler saw since the last case. */
static int violations;
static char seen_impl[64], seen_what[400];

static void record_violation(const char *impl, const char *what)
{
    violations++;
    snprintf(seen_impl, sizeof seen_impl, "%s", impl);
    snprintf(seen_what, sizeof seen_what, "%s", what);
}

/* Counts the case and clears what the fail handler saw, for the next case. */
static void result(int ok, const char *label, const char *detail)
{
    ST_CHECK(ok, "%s: %s", label, detail);
    violations = 0;
    seen_impl[0] = seen_what[0] = '\0';
}

/* The case must have produced exactly one report, from `impl`, starting with `want`. */
static void expect_violation(const char *label, const char *impl, const char *want)
{
    char detail[512];
    int ok = violations == 1 && !strcmp(seen_impl, impl) && !strncmp(seen_what, want, strlen(want));
    if (ok)
        snprintf(detail, sizeof detail, "%s", seen_what);
    else
        snprintf(detail, sizeof detail, "expected one report \"%s...\" from %s, got %d (last: %s: %s)",
                 want, impl, violations, seen_impl, seen_what);
    result(ok, label, detail);
}

/* The case must have produced no report, and `extra_ok` must hold; `what` says what was seen
 * (or "" for just "no violation"). */
static void expect_pass(const char *label, int extra_ok, const char *what)
{
    char detail[512];
    int ok = violations == 0 && extra_ok;
    if (violations)
        snprintf(detail, sizeof detail, "unexpected report: %s", seen_what);
    else
        snprintf(detail, sizeof detail, "no violation%s%s", *what ? ", " : "", what);
    result(ok, label, detail);
}

static uint64_t caller_rflags(void)
{
    uint64_t f;
    __asm__ volatile("pushfq\n\tpopq %0" : "=r"(f));
    return f;
}

static uint32_t caller_mxcsr(void)
{
    uint32_t m;
    __asm__ volatile("stmxcsr %0" : "=m"(m));
    return m;
}

static uint16_t caller_x87cw(void)
{
    uint16_t cw;
    __asm__ volatile("fnstcw %0" : "=m"(cw));
    return cw;
}

static uint64_t sum10_reference(const uint64_t a[10])
{
    uint64_t s = 0;
    for (int i = 0; i < 10; i++) s += (uint64_t)(i + 1) * a[i];
    return s;
}

static void test_callee_saved(void)
{
    static const struct {
        const char *reg;
        uint64_t (*fn)(void);
    } clobbers[] = {
        {"rbx", selftest_clobber_rbx}, {"rbp", selftest_clobber_rbp},
        {"r12", selftest_clobber_r12}, {"r13", selftest_clobber_r13},
        {"r14", selftest_clobber_r14}, {"r15", selftest_clobber_r15},
    };
    for (size_t i = 0; i < sizeof clobbers / sizeof clobbers[0]; i++) {
        char label[64], want[64];
        snprintf(label, sizeof label, "%s clobber detected", clobbers[i].reg);
        snprintf(want, sizeof want, "callee-saved register %s modified (before 0x",
                 clobbers[i].reg);
        abi_call("clobber", (const void *)clobbers[i].fn, NULL, 0);
        expect_violation(label, "clobber", want);
    }
}

static void test_flags_and_control_words(void)
{
    abi_call("set-df", (const void *)selftest_set_df, NULL, 0);
    int df_clear = !(caller_rflags() & (1u << 10));
    expect_violation("DF set detected", "set-df", "direction flag set on return");
    result(df_clear, "DF clear again for the caller", df_clear ? "DF = 0" : "DF = 1");

    uint32_t mxcsr = caller_mxcsr();
    abi_call("mxcsr", (const void *)selftest_mxcsr_round_zero, NULL, 0);
    uint32_t mxcsr_after = caller_mxcsr();
    expect_violation("MXCSR rounding change detected", "mxcsr", "MXCSR modified");
    char detail[96];
    snprintf(detail, sizeof detail, "0x%04x before, 0x%04x after", mxcsr, mxcsr_after);
    result(mxcsr == mxcsr_after, "MXCSR restored for the caller", detail);

    abi_call("mxcsr-flags", (const void *)selftest_mxcsr_flags_only, NULL, 0);
    expect_pass("MXCSR exception flag only (caller-saved) passes", 1, "");

    uint16_t cw = caller_x87cw();
    abi_call("x87cw", (const void *)selftest_x87cw_round_zero, NULL, 0);
    uint16_t cw_after = caller_x87cw();
    expect_violation("x87 control word change detected", "x87cw", "x87 control word modified");
    snprintf(detail, sizeof detail, "0x%04x before, 0x%04x after", cw, cw_after);
    result(cw == cw_after, "x87 control word restored for the caller", detail);

    ABI_CALL("mmx", selftest_mmx_no_emms, (uint64_t)1);
    expect_violation("MMX without emms detected", "mmx", "x87 register stack not empty");
    /* the trampoline emptied the stack again: x87 arithmetic must work */
    volatile long double x = 3.0L;
    int x87_ok = x * x == 9.0L;
    result(x87_ok, "x87 usable for the caller after it", x87_ok ? "3 * 3 = 9" : "3 * 3 != 9");
}

static void test_stack(void)
{
    abi_call("rsp", (const void *)selftest_rsp_minus_8, NULL, 0);
    expect_violation("rsp off by 8 detected and survived", "rsp", "rsp not restored (off by -8 bytes)");

    uint64_t mis = abi_call("align", (const void *)selftest_entry_misalign, NULL, 0);
    char detail[64];
    snprintf(detail, sizeof detail, "rsp mod 16 = %llu at the call", (unsigned long long)mis);
    expect_pass("stack 16-byte aligned at the call", mis == 0, detail);
}

static void test_arguments(void)
{
    char detail[160];

    uint64_t r = ABI_CALL("u32-arg", selftest_return_arg, 0x12345678u);
    snprintf(detail, sizeof detail, "unsigned int 0x12345678 arrived as 0x%016llx",
             (unsigned long long)r);
    expect_pass("junk in the upper half of a 32-bit argument", r == 0xaaaaaaaa12345678ull, detail);

    r = ABI_CALL("u16-arg", selftest_return_arg, (unsigned short)0xbeef);
    snprintf(detail, sizeof detail, "unsigned short 0xbeef arrived as 0x%016llx",
             (unsigned long long)r);
    expect_pass("junk above a 16-bit argument", r == 0xaaaaaaaaaaaabeefull, detail);

    int here;
    r = ABI_CALL("ptr-arg", selftest_return_arg, &here);
    expect_pass("pointer argument arrives unchanged", r == (uint64_t)(uintptr_t)&here,
                r == (uint64_t)(uintptr_t)&here ? "" : "pointer changed");

    /* weights 1..10 and full-width random values: a swapped, dropped or truncated argument
     * changes the sum */
    uint64_t a[10], s = 0x0123456789abcdefull;
    int all_ok = 1;
    detail[0] = '\0';
    for (int iter = 0; iter < 1000 && all_ok; iter++) {
        for (int i = 0; i < 10; i++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            a[i] = s;
        }
        uint64_t got = ABI_CALL("sum10", selftest_sum10, a[0], a[1], a[2], a[3], a[4], a[5],
                                a[6], a[7], a[8], a[9]);
        if (got != sum10_reference(a)) {
            snprintf(detail, sizeof detail, "iteration %d: 0x%016llx, reference 0x%016llx", iter,
                     (unsigned long long)got, (unsigned long long)sum10_reference(a));
            all_ok = 0;
        }
        if (violations) all_ok = 0;
    }
    expect_pass("10 arguments (4 on the stack), 1000 random sets, correct sum", all_ok, detail);
}

static char vec_prefix(enum abi_vec_mode mode)
{
    return mode == ABI_VEC_AVX512 ? 'z' : mode == ABI_VEC_AVX ? 'y' : 'x';
}

/* The best mode, decided here independently of abi.c. */
static enum abi_vec_mode expected_best_mode(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
        return ABI_VEC_AVX512;
    if (__builtin_cpu_supports("avx")) return ABI_VEC_AVX;
    return ABI_VEC_SSE;
}

static void test_clean_call(enum abi_vec_mode best)
{
    char label[96], want[64];
    const uint64_t secret = 0x0123456789abcdefull;

    snprintf(label, sizeof label, "data left in xmm7 detected by abi_call_clean (%cmm mode)",
             vec_prefix(best));
    snprintf(want, sizeof want, "%cmm7 not cleared: holds data", vec_prefix(best));
    ABI_CALL_CLEAN("leave-xmm7", selftest_leave_xmm7, secret);
    expect_violation(label, "leave-xmm7", want);

    ABI_CALL("leave-xmm7", selftest_leave_xmm7, secret);
    expect_pass("abi_call does not look at vector registers", 1, "");

    uint64_t r = ABI_CALL_CLEAN("clear-xmm7", selftest_clear_xmm7, secret);
    expect_pass("xmm7 used, then cleared with legacy pxor, passes", r == 2 * secret,
                r == 2 * secret ? "" : "wrong result");

    uint64_t a[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    r = ABI_CALL_CLEAN("sum10", selftest_sum10, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7],
                       a[8], a[9]);
    expect_pass("10-argument function passes abi_call_clean", r == sum10_reference(a),
                r == sum10_reference(a) ? "" : "wrong sum");

    if (best < ABI_VEC_AVX512) {
        printf("skip zmm16-31 and k0-7 cases: no AVX-512 (F+BW) here\n");
        return;
    }
    ABI_CALL_CLEAN("leave-zmm20", selftest_leave_zmm20_avx512, secret);
    expect_violation("data left in zmm20 detected", "leave-zmm20", "zmm20 not cleared: holds data");
    ABI_CALL_CLEAN("leave-k3", selftest_leave_k3_avx512, secret);
    expect_violation("data left in k3 detected", "leave-k3", "k3 not cleared");
    r = ABI_CALL_CLEAN("clear-zmm20-k3", selftest_clear_zmm20_k3_avx512, secret);
    expect_pass("zmm20 and k3 used, then cleared, pass", r == secret,
                r == secret ? "" : "wrong result");
}

/* The trampoline's store code differs per mode; drive each mode the CPU has directly. */
static const char *run_in_mode(enum abi_vec_mode mode, uint64_t (*fn)(uint64_t))
{
    struct abi_state before, after;
    memset(&before, 0, sizeof before);
    /* 0x1111..., 0x2222..., ... in the list's order (emu/regstate.h): the registers the
     * trampoline loads are the list's; what must be caught is stated by the cases above */
    uint64_t v = 0;
#define DISTINCT_SAVED_(kind, r, R) before.r = v += 0x1111111111111111ull;
    ABI_X86_64_SYSV_SAVED(DISTINCT_SAVED_)
#undef DISTINCT_SAVED_
    before.mxcsr = 0x1f80, before.x87cw = 0x037f, before.x87tw = 0xffff;
    before.vec_mode = mode;
    before.vec_fill = 0x7e57f111a7e57f11ull;
    after = before;
    const uint64_t arg = 0xfeedfacecafebeefull;
    abi_trampoline((const void *)fn, &after, &arg, 1);
    return abi_check(&before, &after, 1);
}

static void expect_mode(const char *label, const char *got, const char *want)
{
    char detail[256];
    int ok = want ? got && !strncmp(got, want, strlen(want)) : !got;
    snprintf(detail, sizeof detail, "%s%s%s", got ? got : "no violation", ok ? "" : ", expected ",
             ok ? "" : want ? want : "no violation");
    result(ok, label, detail);
}

static void test_each_mode(enum abi_vec_mode best)
{
    expect_mode("SSE mode: xmm7 leak", run_in_mode(ABI_VEC_SSE, selftest_leave_xmm7),
                "xmm7 not cleared");
    expect_mode("SSE mode: xmm7 cleared", run_in_mode(ABI_VEC_SSE, selftest_clear_xmm7), NULL);
    expect_mode("no-vector mode ignores the leak", run_in_mode(ABI_VEC_NONE, selftest_leave_xmm7),
                NULL);
    if (best < ABI_VEC_AVX) {
        printf("skip AVX and AVX-512 modes: no AVX here\n");
        return;
    }
    expect_mode("AVX mode: ymm7 leak", run_in_mode(ABI_VEC_AVX, selftest_leave_ymm7_avx),
                "ymm7 not cleared");
    expect_mode("AVX mode: xmm7 leak", run_in_mode(ABI_VEC_AVX, selftest_leave_xmm7),
                "ymm7 not cleared");
    expect_mode("AVX mode: ymm7 cleared", run_in_mode(ABI_VEC_AVX, selftest_clear_ymm7_avx), NULL);
    expect_mode("AVX mode: xmm7 cleared by legacy pxor",
                run_in_mode(ABI_VEC_AVX, selftest_clear_xmm7), NULL);
    if (best < ABI_VEC_AVX512) {
        printf("skip AVX-512 mode: no AVX-512 (F+BW) here\n");
        return;
    }
    expect_mode("AVX-512 mode: ymm7 leak", run_in_mode(ABI_VEC_AVX512, selftest_leave_ymm7_avx),
                "zmm7 not cleared");
    expect_mode("AVX-512 mode: zmm20 leak", run_in_mode(ABI_VEC_AVX512, selftest_leave_zmm20_avx512),
                "zmm20 not cleared");
    expect_mode("AVX-512 mode: k3 leak", run_in_mode(ABI_VEC_AVX512, selftest_leave_k3_avx512),
                "k3 not cleared");
    expect_mode("AVX-512 mode: ymm7 cleared by VEX vpxor",
                run_in_mode(ABI_VEC_AVX512, selftest_clear_ymm7_avx), NULL);
    expect_mode("AVX-512 mode: zmm20, k3 cleared",
                run_in_mode(ABI_VEC_AVX512, selftest_clear_zmm20_k3_avx512), NULL);
}

/* Without a handler of ours, a violation must print the one-line report and abort. */
/* The Win64 checked call (abi_call_win64): each register only Windows keeps is caught when
 * broken, by name; a correct Win64 function of nine arguments (four in registers, five above
 * the shadow space, its home slots written, rsi, rdi and xmm6 saved and restored) gets its
 * arguments where Windows puts them, passes, and also passes the clean call (its spills of the
 * caller's values are not data).  The same clobbers under the System V call pass: there those
 * registers are the callee's to use, which is why only this call can see the class. */
static void test_win64(void)
{
    static const struct {
        const char *reg;
        uint64_t (*fn)(void);
    } clobbers[] = {
        {"rdi", selftest_w64_clobber_rdi},     {"rsi", selftest_w64_clobber_rsi},
        {"xmm6", selftest_w64_clobber_xmm6},   {"xmm7", selftest_w64_clobber_xmm7},
        {"xmm8", selftest_w64_clobber_xmm8},   {"xmm9", selftest_w64_clobber_xmm9},
        {"xmm10", selftest_w64_clobber_xmm10}, {"xmm11", selftest_w64_clobber_xmm11},
        {"xmm12", selftest_w64_clobber_xmm12}, {"xmm13", selftest_w64_clobber_xmm13},
        {"xmm14", selftest_w64_clobber_xmm14}, {"xmm15", selftest_w64_clobber_xmm15},
    };
    for (size_t i = 0; i < sizeof clobbers / sizeof clobbers[0]; i++) {
        char label[64], want[96];
        snprintf(label, sizeof label, "Win64: %s clobber detected", clobbers[i].reg);
        snprintf(want, sizeof want, "callee-saved register %s modified (Win64 ABI",
                 clobbers[i].reg);
        abi_call_win64("w64-clobber", (const void *)clobbers[i].fn, NULL, 0, 0);
        expect_violation(label, "w64-clobber", want);
        snprintf(label, sizeof label, "System V: %s clobber is allowed", clobbers[i].reg);
        abi_call("sysv", (const void *)clobbers[i].fn, NULL, 0);
        expect_pass(label, 1, "");
    }
    uint64_t a[9], s = 0x0fedcba987654321ull;
    int all_ok = 1;
    char detail[160] = "";
    for (int iter = 0; iter < 1000 && all_ok; iter++) {
        uint64_t want = 0;
        for (int i = 0; i < 9; i++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            a[i] = s;
            want += (uint64_t)(i + 1) * s;
        }
        uint64_t got = abi_call_win64("w64-sum9", (const void *)selftest_w64_sum9, a, 9, iter & 1);
        if (got != want || violations) {
            snprintf(detail, sizeof detail, "iteration %d: 0x%016llx, reference 0x%016llx", iter,
                     (unsigned long long)got, (unsigned long long)want);
            all_ok = 0;
        }
    }
    expect_pass("Win64: 9 arguments (5 above the shadow space), plain and clean calls, 1000 "
                "random sets, correct sum", all_ok, detail);
    /* a System V function called as Win64 reads its arguments from the wrong registers */
    uint64_t got = abi_call_win64("w64-sum9", (const void *)selftest_sum10, a, 9, 0);
    uint64_t sysv = 0;
    for (int i = 0; i < 9; i++) sysv += (uint64_t)(i + 1) * a[i];
    expect_pass("Win64: a System V function called as Win64 computes something else",
                got != sysv, "");
}

static void test_default_handler(void)
{
    int fds[2];
    char buf[4096] = "";
    if (pipe(fds)) {
        result(0, "default handler aborts", "pipe failed");
        return;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        abi_set_fail_handler(NULL);
        abi_call("clobber-rbx", (const void *)selftest_clobber_rbx, NULL, 0);
        _exit(0);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t k;
    while (n < sizeof buf - 1 && (k = read(fds[0], buf + n, sizeof buf - 1 - n)) > 0) n += (size_t)k;
    buf[n] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    const char *want = "asmdiff: ABI violation in clobber-rbx: callee-saved register rbx modified";
    int ok = pid > 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT && strstr(buf, want);
    char *nl = strchr(buf, '\n');
    if (nl) *nl = '\0';
    result(ok, "default handler prints and aborts", ok ? buf : "no abort or wrong message");
}

int main(void)
{
    enum abi_vec_mode best = expected_best_mode();

    abi_set_fail_handler(record_violation);
    test_callee_saved();
    test_flags_and_control_words();
    test_stack();
    test_arguments();
    test_clean_call(best);
    test_each_mode(best);
    test_win64();
    test_default_handler();

    return st_finish();
}
