/* abi_selftest_riscv64.c — the riscv64 checked call (fuzz/harness/abi.h, abi_riscv64.S) catches
 * every ABI violation it claims to, names the register, survives it, and lets correct
 * functions through.
 *
 * Each deliberately broken function in abi_selftest_riscv64.S breaks one rule (an s- or
 * fs-register, gp, tp, sp, frm, vstart, data left in a vector register), and the report must
 * name that rule and only it.  After each violation the caller's own state must be whole again:
 * TLS still works (tp), the rounding mode is back.  Correct functions (ten arguments, two on
 * the stack; a vector register used and cleared) must pass without a report, and the state the
 * kernel starts in must be the scrambled one (vxrm, vxsat nonzero; vtype and vl as chosen).
 * 32-bit arguments must arrive sign-extended, as the psABI defines them.
 *
 * Prints one line per case and "N passed, M failed"; exit 0 only when every case behaved.
 * Runs under qemu-riscv64 (any VLEN; with v=false the vector cases are skipped, with a note).
 */
#include "abi.h"
#include "verify/selftest.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>

#define DECLARE_CLOBBER(n)                                                                   \
    uint64_t selftest_clobber_s##n(void);                                                    \
    uint64_t selftest_clobber_fs##n(void);
DECLARE_CLOBBER(0) DECLARE_CLOBBER(1) DECLARE_CLOBBER(2) DECLARE_CLOBBER(3)
DECLARE_CLOBBER(4) DECLARE_CLOBBER(5) DECLARE_CLOBBER(6) DECLARE_CLOBBER(7)
DECLARE_CLOBBER(8) DECLARE_CLOBBER(9) DECLARE_CLOBBER(10) DECLARE_CLOBBER(11)
uint64_t selftest_clobber_gp(void);
uint64_t selftest_clobber_tp(void);
uint64_t selftest_sp_minus_16(void);
uint64_t selftest_entry_sp_mod16(void);
uint64_t selftest_set_frm(void);
uint64_t selftest_set_fflags(void);
uint64_t selftest_leave_vstart(void);
uint64_t selftest_return_arg(uint64_t x);
uint64_t selftest_sum10(uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
                        uint64_t a6, uint64_t a7, uint64_t a8, uint64_t a9, uint64_t a10);
uint64_t selftest_read_vxrm(void);
uint64_t selftest_read_vxsat(void);
uint64_t selftest_read_vtype(void);
uint64_t selftest_read_vl(void);
uint64_t selftest_leave_v5(uint64_t secret);
uint64_t selftest_leave_v31(uint64_t secret);
uint64_t selftest_clear_v5(uint64_t secret);
uint64_t selftest_clear_v5_partly(uint64_t secret);

/* What the fail handler saw since the last case. */
static int violations;
static char seen_impl[64], seen_what[256];

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
        snprintf(detail, sizeof detail,
                 "expected one report \"%s...\" from %s, got %d (last: %s: %s)", want, impl,
                 violations, seen_impl, seen_what);
    result(ok, label, detail);
}

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

static _Thread_local volatile uint64_t tls_probe = 0x7e57;

static void test_callee_saved(void)
{
    static const struct {
        const char *reg;
        uint64_t (*fn)(void);
    } clobbers[] = {
#define CLOBBER_ROW(n) {"s" #n, selftest_clobber_s##n},
        CLOBBER_ROW(0) CLOBBER_ROW(1) CLOBBER_ROW(2) CLOBBER_ROW(3) CLOBBER_ROW(4) CLOBBER_ROW(5)
        CLOBBER_ROW(6) CLOBBER_ROW(7) CLOBBER_ROW(8) CLOBBER_ROW(9) CLOBBER_ROW(10) CLOBBER_ROW(11)
#define CLOBBER_FROW(n) {"fs" #n, selftest_clobber_fs##n},
        CLOBBER_FROW(0) CLOBBER_FROW(1) CLOBBER_FROW(2) CLOBBER_FROW(3) CLOBBER_FROW(4)
        CLOBBER_FROW(5) CLOBBER_FROW(6) CLOBBER_FROW(7) CLOBBER_FROW(8) CLOBBER_FROW(9)
        CLOBBER_FROW(10) CLOBBER_FROW(11)
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

static void test_fixed_registers(void)
{
    char detail[128];

    abi_call("clobber-gp", (const void *)selftest_clobber_gp, NULL, 0);
    expect_violation("gp clobber detected", "clobber-gp", "global pointer gp modified");

    abi_call("clobber-tp", (const void *)selftest_clobber_tp, NULL, 0);
    expect_violation("tp clobber detected", "clobber-tp", "thread pointer tp modified");
    tls_probe += 1; /* through tp: faults or lands elsewhere if tp was not given back */
    snprintf(detail, sizeof detail, "thread-local variable reads 0x%llx",
             (unsigned long long)tls_probe);
    result(tls_probe == 0x7e58, "TLS usable for the caller after it", detail);

    abi_call("sp", (const void *)selftest_sp_minus_16, NULL, 0);
    expect_violation("sp off by 16 detected and survived", "sp",
                     "sp not restored (off by -16 bytes)");

    uint64_t mis = abi_call("align", (const void *)selftest_entry_sp_mod16, NULL, 0);
    snprintf(detail, sizeof detail, "sp mod 16 = %llu at the call", (unsigned long long)mis);
    expect_pass("stack 16-byte aligned at the call", mis == 0, detail);
}

static unsigned long caller_frm(void)
{
    unsigned long m;
    __asm__ volatile("frrm %0" : "=r"(m));
    return m;
}

static void test_float_state(void)
{
    unsigned long before = caller_frm();
    abi_call("frm", (const void *)selftest_set_frm, NULL, 0);
    unsigned long after = caller_frm();
    expect_violation("frm change detected", "frm",
                     "rounding mode frm modified (before 0, after 1)");
    char detail[96];
    snprintf(detail, sizeof detail, "frm %lu before, %lu after", before, after);
    result(before == after, "rounding mode restored for the caller", detail);

    abi_call("fflags", (const void *)selftest_set_fflags, NULL, 0);
    expect_pass("exception flags only (caller-saved) pass", 1, "");
}

static void test_arguments(void)
{
    char detail[160];

    uint64_t r = ABI_CALL("u32-arg", selftest_return_arg, 0x80000001u);
    snprintf(detail, sizeof detail, "unsigned int 0x80000001 arrived as 0x%016llx",
             (unsigned long long)r);
    expect_pass("unsigned int sign-extended from bit 31 (psABI)", r == 0xffffffff80000001ull,
                detail);

    r = ABI_CALL("int-arg", selftest_return_arg, -5);
    snprintf(detail, sizeof detail, "int -5 arrived as 0x%016llx", (unsigned long long)r);
    expect_pass("int sign-extended", r == (uint64_t)-5, detail);

    r = ABI_CALL("u16-arg", selftest_return_arg, (unsigned short)0xbeef);
    snprintf(detail, sizeof detail, "unsigned short 0xbeef arrived as 0x%016llx",
             (unsigned long long)r);
    expect_pass("unsigned short zero-extended", r == 0xbeefull, detail);

    r = ABI_CALL("s8-arg", selftest_return_arg, (signed char)-2);
    snprintf(detail, sizeof detail, "signed char -2 arrived as 0x%016llx", (unsigned long long)r);
    expect_pass("signed char sign-extended", r == (uint64_t)-2, detail);

    int here;
    r = ABI_CALL("ptr-arg", selftest_return_arg, &here);
    expect_pass("pointer argument arrives unchanged", r == (uint64_t)(uintptr_t)&here,
                r == (uint64_t)(uintptr_t)&here ? "" : "pointer changed");

    uint64_t a[10], s = 0x0123456789abcdefull;
    int all_ok = 1;
    detail[0] = '\0';
    for (int iter = 0; iter < 1000 && all_ok; iter++) {
        uint64_t want = 0;
        for (int i = 0; i < 10; i++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            a[i] = s;
            want += (uint64_t)(i + 1) * a[i];
        }
        uint64_t got = ABI_CALL("sum10", selftest_sum10, a[0], a[1], a[2], a[3], a[4], a[5],
                                a[6], a[7], a[8], a[9]);
        if (got != want) {
            snprintf(detail, sizeof detail, "iteration %d: 0x%016llx, reference 0x%016llx", iter,
                     (unsigned long long)got, (unsigned long long)want);
            all_ok = 0;
        }
        if (violations) all_ok = 0;
    }
    expect_pass("10 arguments (2 on the stack), 1000 random sets, correct sum", all_ok, detail);
}

/* Drive the trampoline directly with a chosen vector configuration. */
static uint64_t run_direct(const void *fn, uint64_t arg, uint64_t vtype, uint64_t avl,
                           uint64_t vxrm, uint64_t vxsat, enum abi_vec_mode mode,
                           unsigned vlenb, const char **what)
{
    static struct abi_state before, after;
    memset(&before, 0, sizeof before);
    /* s0-s11: 0x1111... times 1..12, fs0-fs11: 0x0101... times 0x20..0x2b, in the list's
     * order (emu/regstate.h); what must be caught is stated by the cases */
    uint64_t ns = 0, nfs = 0x1f;
#define DISTINCT_GPR_ 0x1111111111111111ull * ++ns
#define DISTINCT_FPR_ 0x0101010101010101ull * ++nfs
#define DISTINCT_SAVED_(kind, r, R) before.r = DISTINCT_##kind##_;
    ABI_RISCV64_LP64_SAVED(DISTINCT_SAVED_)
#undef DISTINCT_SAVED_
    __asm__ volatile("mv %0, gp" : "=r"(before.gp));
    __asm__ volatile("mv %0, tp" : "=r"(before.tp));
    before.has_v = 1;
    before.vtype = vtype, before.avl = avl, before.vxrm = vxrm, before.vxsat = vxsat;
    before.vec_mode = mode;
    before.vec_fill = 0x7e57f111a7e57f11ull;
    before.vlenb = vlenb;
    after = before;
    uint64_t r = abi_trampoline(fn, &after, &arg, 1);
    *what = abi_check(&before, &after, mode != ABI_VEC_NONE);
    return r;
}

static void test_vector_state(unsigned vlenb)
{
    char detail[256];
    const char *what;

    uint64_t r = abi_call("vxrm", (const void *)selftest_read_vxrm, NULL, 0);
    snprintf(detail, sizeof detail, "vxrm = %llu at entry", (unsigned long long)r);
    expect_pass("vxrm scrambled (nonzero) before the call", r >= 1 && r <= 3, detail);
    r = abi_call("vxsat", (const void *)selftest_read_vxsat, NULL, 0);
    snprintf(detail, sizeof detail, "vxsat = %llu at entry", (unsigned long long)r);
    expect_pass("vxsat set before the call", r == 1, detail);

    /* e16, mf2, tu, mu with AVL 3: vtype 0x0f, vl 3 */
    r = run_direct((const void *)selftest_read_vtype, 0, 0x0f, 3, 2, 1, ABI_VEC_NONE,
                   vlenb, &what);
    snprintf(detail, sizeof detail, "vtype 0x%llx at entry, 0x0f set", (unsigned long long)r);
    result(r == 0x0f && !what, "vtype as the trampoline set it", detail);
    r = run_direct((const void *)selftest_read_vl, 0, 0x0f, 3, 2, 1, ABI_VEC_NONE,
                   vlenb, &what);
    snprintf(detail, sizeof detail, "vl %llu at entry, AVL 3 given", (unsigned long long)r);
    result(r == 3 && !what, "vl as the trampoline set it", detail);
    r = run_direct((const void *)selftest_read_vxrm, 0, 0x0f, 3, 2, 1, ABI_VEC_NONE,
                   vlenb, &what);
    snprintf(detail, sizeof detail, "vxrm %llu at entry, 2 set", (unsigned long long)r);
    result(r == 2 && !what, "vxrm as the trampoline set it", detail);

    /* the scramble differs from call to call, and is always a legal configuration (vill, bit
     * 63, would turn a kernel that forgot vsetvli into a crash instead of a finding) */
    uint64_t seen = 0, vill = 0;
    for (int i = 0; i < 64; i++) {
        uint64_t vt = abi_call("vtype", (const void *)selftest_read_vtype, NULL, 0);
        seen |= 1ull << (vt & 63);
        vill |= vt >> 63;
    }
    snprintf(detail, sizeof detail, "%d distinct vtype values (low 6 bits) in 64 calls, %s",
             __builtin_popcountll(seen), vill ? "some with vill set" : "none with vill set");
    expect_pass("vtype varies between calls, always legal",
                __builtin_popcountll(seen) >= 8 && !vill, detail);

    abi_call("vstart", (const void *)selftest_leave_vstart, NULL, 0);
    expect_violation("vstart left nonzero detected", "vstart", "vstart not zero on return (3)");

    const uint64_t secret = 0x0123456789abcdefull;
    ABI_CALL_CLEAN("leave-v5", selftest_leave_v5, secret);
    expect_violation("data left in v5 detected by abi_call_clean", "leave-v5",
                     "v5 not cleared: holds data");
    ABI_CALL_CLEAN("leave-v31", selftest_leave_v31, secret);
    expect_violation("data left in v31 detected by abi_call_clean", "leave-v31",
                     "v31 not cleared: holds data");
    ABI_CALL("leave-v5", selftest_leave_v5, secret);
    expect_pass("abi_call does not look at vector registers", 1, "");
    r = ABI_CALL_CLEAN("clear-v5", selftest_clear_v5, secret);
    expect_pass("v5 used, then cleared whole, passes", r == 2 * secret,
                r == 2 * secret ? "" : "wrong result");
    ABI_CALL_CLEAN("clear-v5-partly", selftest_clear_v5_partly, secret);
    if (vlenb > 16)
        expect_violation("v5 cleared only in its first 16 bytes detected", "clear-v5-partly",
                         "v5 not cleared: holds data (bytes 16..31)");
    else
        expect_pass("v5 cleared in its first 16 bytes = whole register at VLEN 128", 1, "");

    run_direct((const void *)selftest_leave_v5, secret, 0xc0, 16, 1, 1, ABI_VEC_RVV, vlenb, &what);
    snprintf(detail, sizeof detail, "%s", what ? what : "no violation");
    result(what && !strncmp(what, "v5 not cleared", 14), "vector mode: v5 leak", detail);
    run_direct((const void *)selftest_leave_v5, secret, 0xc0, 16, 1, 1, ABI_VEC_NONE, vlenb, &what);
    result(!what, "no-vector mode ignores the leak", what ? what : "no violation");
}

/* Without a handler of ours, a violation must print the one-line report and abort. */
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
        abi_call("clobber-s3", (const void *)selftest_clobber_s3, NULL, 0);
        _exit(0);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t k;
    while (n < sizeof buf - 1 && (k = read(fds[0], buf + n, sizeof buf - 1 - n)) > 0)
        n += (size_t)k;
    buf[n] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    const char *want = "asmdiff: ABI violation in clobber-s3: callee-saved register s3 modified";
    int ok = pid > 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT && strstr(buf, want);
    char *nl = strchr(buf, '\n');
    if (nl) *nl = '\0';
    result(ok, "default handler prints and aborts", ok ? buf : "no abort or wrong message");
}

int main(void)
{
    /* Independent of abi.c: the V bit of AT_HWCAP, then vlenb. */
    unsigned vlenb = 0;
    if (getauxval(AT_HWCAP) & (1ul << ('V' - 'A'))) {
        unsigned long b;
        __asm__ volatile(".option push\n\t.option arch, +v\n\tcsrr %0, vlenb\n\t.option pop"
                         : "=r"(b));
        vlenb = (unsigned)b;
    }

    abi_set_fail_handler(record_violation);
    test_callee_saved();
    test_fixed_registers();
    test_float_state();
    test_arguments();
    if (vlenb)
        test_vector_state(vlenb);
    else
        printf("skip vector cases: the CPU has no V (vtype, vxrm, vxsat and v0-v31 do not "
               "exist)\n");
    test_default_handler();

    return st_finish();
}
