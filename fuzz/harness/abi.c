/* abi.c — the checked call (abi.h): fresh random callee-saved values and a known MXCSR, x87
 * control word and vector fill go in through the trampoline (abi_x86_64.S); what comes back is
 * compared property by property, and the first broken one is reported by name. */
#include "abi.h"

#include <setjmp.h>

#include "report.h" /* enum finding: what a failed check found */

const char *volatile abi_current_impl;

#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <signal.h>
#include <sys/mman.h>
#endif

#if defined(__riscv)
#include <sys/auxv.h>
#endif

#if !defined(__x86_64__) && !defined(__riscv)
#error "abi.c implements the x86-64 SysV and RISC-V LP64 checked calls; other ISAs need their own"
#endif

#if defined(__x86_64__)
/* The trampoline addresses struct abi_state by the ABI_ST_* numbers (emu/regstate.h); the
 * callee-saved registers come first, packed in list order (ST_<NAME> in abi_x86_64.S). */
#define SAVED_IS_GPR_(kind, r, R) _Static_assert(ABI_REG_SIZE_##kind == 8, #r ": the SysV "   \
                                                 "checks here compare 64-bit registers");
ABI_X86_64_SYSV_SAVED(SAVED_IS_GPR_)
#undef SAVED_IS_GPR_
_Static_assert(offsetof(struct abi_state, rsp_delta) == ABI_ST_RSP_DELTA, "ST_RSP_DELTA");
_Static_assert(offsetof(struct abi_state, rflags) == ABI_ST_RFLAGS, "ST_RFLAGS");
_Static_assert(offsetof(struct abi_state, mxcsr) == ABI_ST_MXCSR, "ST_MXCSR");
_Static_assert(offsetof(struct abi_state, x87cw) == ABI_ST_X87CW, "ST_X87CW");
_Static_assert(offsetof(struct abi_state, x87tw) == ABI_ST_X87TW, "ST_X87TW");
_Static_assert(offsetof(struct abi_state, vec_mode) == ABI_ST_VEC_MODE, "ST_VEC_MODE");
_Static_assert(offsetof(struct abi_state, vec_fill) == ABI_ST_VEC_FILL, "ST_VEC_FILL");
_Static_assert(offsetof(struct abi_state, vec) == ABI_ST_VEC, "ST_VEC");
_Static_assert(sizeof(((struct abi_state *)0)->vec[0]) == ABI_ST_VEC_ROW, "ST_VEC row stride");
_Static_assert(offsetof(struct abi_state, k) == ABI_ST_K, "ST_K");
_Static_assert(offsetof(struct abi_state, stack_top) == ABI_ST_STACK_TOP, "ST_STACK_TOP");
_Static_assert(ABI_MAX_ARGS == 10, "MAX_ARGS in the .S");

#define MXCSR_DEFAULT 0x1f80u     /* all exceptions masked, round to nearest */
#define MXCSR_CONTROL 0xffc0u     /* bits 0-5 are exception flags: caller-saved */
#define X87CW_DEFAULT 0x037fu     /* all exceptions masked, 64-bit precision, round to nearest */
#define X87TW_EMPTY 0xffffu
#define RFLAGS_DF (1u << 10)
/* A fill no kernel computes by accident; neither 0 (the "cleared" value) nor all-ones. */
#define VEC_MARKER 0x5ac1ea4d5ac1ea4dull

#endif

/* xorshift64*: cheap, and its output is never 0 (nonzero state times an odd constant), so a
 * kernel that zeroes a callee-saved register is always caught.  Fixed seed: a failing run
 * repeats exactly. */
static _Thread_local uint64_t prng_state = 0x9e3779b97f4a7c15ull;

static uint64_t prng_next(void)
{
    uint64_t x = prng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    prng_state = x;
    return x * 0x2545f4914f6cdd1dull;
}

#if defined(__x86_64__)
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

/* The widest snapshot the hardware and OS allow.  AVX-512 also needs BW because the trampoline
 * moves opmask registers with the 64-bit kmovq.  Deliberately not cpu_features(): a masked
 * feature changes which kernels run, not which registers exist to hold leftovers. */
static enum abi_vec_mode detect_vec_mode(void)
{
    unsigned a, b, c, d;

    if (!__get_cpuid(1, &a, &b, &c, &d)) return ABI_VEC_SSE;
    if (!(c & bit_OSXSAVE) || !(c & bit_AVX)) return ABI_VEC_SSE;
    uint64_t xcr0 = xgetbv0();
    if ((xcr0 & 0x6) != 0x6) return ABI_VEC_SSE; /* OS saves XMM and YMM */
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return ABI_VEC_AVX;
    if (!(b & bit_AVX512F) || !(b & bit_AVX512BW)) return ABI_VEC_AVX;
    if ((xcr0 & 0xe0) != 0xe0) return ABI_VEC_AVX; /* opmask, ZMM0-15 upper, ZMM16-31 */
    return ABI_VEC_AVX512;
}

static enum abi_vec_mode best_vec_mode(void)
{
    static int cached = -1;
    int m = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (m < 0) {
        m = (int)detect_vec_mode();
        __atomic_store_n(&cached, m, __ATOMIC_RELAXED);
    }
    return (enum abi_vec_mode)m;
}
#endif

__attribute__((noinline, noreturn)) void abi_violation(const char *impl, const char *what);

void abi_violation(const char *impl, const char *what)
{
    fprintf(stderr, "asmdiff: ABI violation in %s: %s\n", impl, what);
    fflush(stderr);
    abort();
}

static abi_fail_fn fail_handler = abi_violation;

void abi_set_fail_handler(abi_fail_fn fn)
{
    fail_handler = fn ? fn : abi_violation;
}

/* The scans below read only the checked call's own snapshot and stack: ASan's checks of every
 * load there would cost more than the kernels they judge. */
#define SCAN __attribute__((no_sanitize("address", "undefined")))

static _Thread_local char message[320];
static _Thread_local enum finding last_kind = FINDING_ABI;

enum finding abi_last_kind(void)
{
    return last_kind;
}

#if defined(__x86_64__)

/* "not cleared" holds for a lane that is neither the marker nor zero. */
SCAN static int lane_holds_data(const uint8_t *lane, uint64_t fill)
{
    uint64_t lo, hi;
    memcpy(&lo, lane, 8);
    memcpy(&hi, lane + 8, 8);
    return !((lo == fill && hi == fill) || (lo == 0 && hi == 0));
}

SCAN const char *abi_check(const struct abi_state *before, const struct abi_state *after,
                      int check_vectors)
{
    last_kind = FINDING_ABI;

#define CHECK_SAVED_(kind, r, R)                                                             \
    if (before->r != after->r) {                                                             \
        snprintf(message, sizeof message,                                                    \
                 "callee-saved register %s modified (before 0x%016llx, after 0x%016llx)",   \
                 #r, (unsigned long long)before->r, (unsigned long long)after->r);          \
        return message;                                                                      \
    }
    ABI_X86_64_SYSV_SAVED(CHECK_SAVED_)
#undef CHECK_SAVED_
    if (after->rsp_delta != 0) {
        snprintf(message, sizeof message, "rsp not restored (off by %lld bytes)",
                 (long long)after->rsp_delta);
        return message;
    }
    if (after->rflags & RFLAGS_DF) return "direction flag set on return";
    if ((before->mxcsr & MXCSR_CONTROL) != (after->mxcsr & MXCSR_CONTROL)) {
        snprintf(message, sizeof message, "MXCSR modified (before 0x%04x, after 0x%04x)",
                 before->mxcsr, after->mxcsr);
        return message;
    }
    if (before->x87cw != after->x87cw) {
        snprintf(message, sizeof message,
                 "x87 control word modified (before 0x%04x, after 0x%04x)", before->x87cw,
                 after->x87cw);
        return message;
    }
    if (after->x87tw != X87TW_EMPTY) {
        snprintf(message, sizeof message,
                 "x87 register stack not empty on return (tag word 0x%04x; missing emms?)",
                 after->x87tw);
        return message;
    }
    if (!check_vectors) return NULL;

    static const struct {
        char prefix;
        int nregs, width;
    } shape[] = {
        [ABI_VEC_SSE] = {'x', 16, 16},
        [ABI_VEC_AVX] = {'y', 16, 32},
        [ABI_VEC_AVX512] = {'z', 32, 64},
    };
    uint32_t mode = before->vec_mode;
    if (mode < ABI_VEC_SSE || mode > ABI_VEC_AVX512) return NULL;
    /* The common case first, branch-free over the whole snapshot (vectorizes): every lane is
     * the marker or zero.  Only a lane that is neither is looked for register by register. */
    uint64_t dirty = 0, fill = before->vec_fill;
    for (int r = 0; r < shape[mode].nregs; r++) {
        const uint64_t *w = (const uint64_t *)(const void *)after->vec[r];
        for (int i = 0; i < shape[mode].width / 8; i += 2) {
            uint64_t lo = w[i], hi = w[i + 1];
            dirty |= (uint64_t)(((lo ^ fill) | (hi ^ fill)) != 0) & (uint64_t)((lo | hi) != 0);
        }
    }
    for (int r = 0; dirty && r < shape[mode].nregs; r++)
        for (int off = 0; off < shape[mode].width; off += 16)
            if (lane_holds_data(after->vec[r] + off, before->vec_fill)) {
                snprintf(message, sizeof message, "%cmm%d not cleared: holds data",
                         shape[mode].prefix, r);
                last_kind = FINDING_RESIDUE;
                return message;
            }
    if (mode == ABI_VEC_AVX512)
        for (int k = 0; k < 8; k++)
            if (after->k[k] != before->vec_fill && after->k[k] != 0) {
                snprintf(message, sizeof message, "k%d not cleared: holds data", k);
                last_kind = FINDING_RESIDUE;
                return message;
            }
    return NULL;
}

/* ---- the separate stack of clean calls ---- */

#define STACK_SIZE (256u * 1024u)
#define STACK_ABOVE 256u  /* above the callee's rsp: 32 bytes of stack arguments, fn, canary */
#define STACK_CANARY_FROM 40u
#define STACK_MARKER ABI_STACK_MARKER /* emu/regstate.h: the emulator's stack holds it too */
#define NOT_DATA_SPAN (1ull << 20)

extern const char abi_trampoline_return_separate[];

static _Thread_local uint8_t *stack_lo; /* lowest usable byte (a guard page lies below) */

/* A signal that arrives during a clean call would push its frame (saved registers, the xsave
 * area, the handler's own frames: libFuzzer's SIGALRM timer does, once a second) onto the
 * separate stack, where the leftover check would take it for the kernel's.  So every handler
 * installed by then (libFuzzer's, ASan's, the guard pages') is moved onto an alternate signal
 * stack, which the thread gets if it has none. */
static void signals_off_the_checked_stack(void)
{
    stack_t ss;
    if (sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_DISABLE)) {
        size_t size = 256 * 1024;
        void *alt = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (alt == MAP_FAILED) return;
        ss.ss_sp = alt, ss.ss_size = size, ss.ss_flags = 0;
        if (sigaltstack(&ss, NULL)) return;
    }
    for (int sig = 1; sig < NSIG; sig++) {
        struct sigaction sa;
        if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, NULL, &sa)) continue;
        if (!(sa.sa_flags & SA_SIGINFO) && (sa.sa_handler == SIG_DFL || sa.sa_handler == SIG_IGN))
            continue;
        if (sa.sa_flags & SA_ONSTACK) continue;
        sa.sa_flags |= SA_ONSTACK;
        sigaction(sig, &sa, NULL);
    }
}

/* The callee's rsp on the separate stack, with the scanned span and the canary filled; NULL
 * when the stack could not be mapped (the call then runs on the caller's stack, unchecked). */
static uint8_t *separate_stack(void)
{
    if (!stack_lo) {
        signals_off_the_checked_stack();
        size_t page = 4096;
        uint8_t *m = mmap(NULL, STACK_SIZE + page, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) return NULL;
        mprotect(m, page, PROT_NONE); /* a runaway stack faults instead of corrupting memory */
        stack_lo = m + page;
        for (uint64_t *w = (uint64_t *)stack_lo; w < (uint64_t *)(stack_lo + STACK_SIZE); w++)
            *w = STACK_MARKER;
    }
    return stack_lo + STACK_SIZE - STACK_ABOVE;
}

static int near(uint64_t w, uint64_t p, uint64_t span)
{
    return w - p < span || p - w < span;
}

/* Not data: what a correct kernel may leave in its frame (see abi.h). */
SCAN static int not_data(uint64_t w, const struct abi_state *before, const void *fn,
                    const uint64_t *argv, size_t argc, const uint8_t *lo, const uint8_t *top)
{
    if (w == 0 || w == STACK_MARKER || w < NOT_DATA_SPAN) return 1;
    if (w == (uint64_t)(uintptr_t)abi_trampoline_return_separate) return 1;
#define SAVED_VALUE_(kind, r, R) if (w == before->r) return 1;
    ABI_X86_64_SYSV_SAVED(SAVED_VALUE_)
#undef SAVED_VALUE_
    if (abi_win64_loaded_value(w)) return 1;
    if (w >= (uint64_t)(uintptr_t)lo && w <= (uint64_t)(uintptr_t)(top + STACK_ABOVE))
        return 1;
    if (near(w, (uint64_t)(uintptr_t)fn, 16ull << 20)) return 1;
    for (size_t i = 0; i < argc; i++)
        if (w == argv[i] || (argv[i] >= NOT_DATA_SPAN && near(w, argv[i], NOT_DATA_SPAN)))
            return 1;
    return 0;
}

/* After a clean call: the first data word below top, or the caller's frame written.  Puts the
 * marker back wherever the call wrote, so the next call starts from a known stack. */
SCAN static const char *stack_check(const struct abi_state *before, const void *fn,
                                    const uint64_t *argv, size_t argc, uint8_t *top,
                                    uint64_t marker, const uint8_t *stack_base, int canary)
{
    static _Thread_local char smsg[192];
    const char *what = NULL;
    uint64_t *lo = (uint64_t *)(top - ABI_STACK_SCAN);
    /* Most kernels touch only the top of the span (the return address, pushes): one
     * branch-free pass over the rest first (it vectorizes), the word-by-word look only where
     * something changed. */
    uint64_t deep = 0;
    for (uint64_t *w = lo; w < (uint64_t *)(top - 256); w++) deep |= *w ^ marker;
    if (!deep) lo = (uint64_t *)(top - 256);
    for (uint64_t *blk = lo; blk < (uint64_t *)top; blk += 32) {
        uint64_t acc = 0;
        for (int i = 0; i < 32; i++) acc |= blk[i] ^ marker;
        if (!acc) continue;
        for (int i = 0; i < 32; i++) {
            uint64_t w = blk[i];
            if (w == marker) continue;
            int ok = not_data(w, before, fn, argv, argc, stack_base, top);
            /* a 32-bit store into a marked word: judge the half that was written */
            if (!ok && (w >> 32) == (marker >> 32)) ok = (uint32_t)w < NOT_DATA_SPAN;
            if (!ok && (uint32_t)w == (uint32_t)marker) ok = (w >> 32) < NOT_DATA_SPAN;
            if (!ok && !what) {
                size_t below = (size_t)(top - (uint8_t *)&blk[i]);
                snprintf(smsg, sizeof smsg,
                         "stack below the caller's frame holds data after return: 8 bytes at "
                         "rsp-%zu = 0x%016llx (%s)",
                         below, (unsigned long long)w,
                         below <= 128 ? "the red zone" : "the kernel's own frame");
                what = smsg;
            }
            blk[i] = marker;
        }
    }
    for (uint8_t *p = top + STACK_CANARY_FROM; canary && p < top + STACK_ABOVE; p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        if (w != STACK_MARKER) {
            if (!what) {
                snprintf(smsg, sizeof smsg,
                         "wrote the caller's frame: 8 bytes at rsp+%zu (above its stack "
                         "arguments) = 0x%016llx",
                         (size_t)(p - top), (unsigned long long)w);
                what = smsg;
            }
            memcpy(p, &(uint64_t){STACK_MARKER}, 8);
        }
    }
    return what;
}

static _Thread_local sigjmp_buf abandon_jmp;
static _Thread_local volatile int abandon_armed, abandoned;

int abi_call_abandoned(void)
{
    return abandoned;
}

void abi_abandon_call(void)
{
    if (!abandon_armed) return;
    /* The call's sigsetjmp saves no mask (a system call per checked call would cost more than
     * many kernels): unblock what the handler's entry blocked, the fault signals. */
    sigset_t faults;
    sigemptyset(&faults);
    sigaddset(&faults, SIGSEGV);
    sigaddset(&faults, SIGBUS);
    sigaddset(&faults, SIGILL);
    sigprocmask(SIG_UNBLOCK, &faults, NULL);
    siglongjmp(abandon_jmp, 1);
}

uint64_t abi_trampoline_guarded(const char *name, const void *fn, struct abi_state *st,
                                const uint64_t *argv, size_t argc)
{
    /* A fault inside the call may leave it through abi_abandon_call: the mode registers it
     * may have changed are put back as they were. */
    unsigned mxcsr_saved = __builtin_ia32_stmxcsr();
    uint16_t x87cw_saved;
    __asm__ volatile("fnstcw %0" : "=m"(x87cw_saved));
    abandoned = 0;
    if (sigsetjmp(abandon_jmp, 0)) {
        abandon_armed = 0;
        abi_current_impl = NULL;
        __builtin_ia32_ldmxcsr(mxcsr_saved);
        __asm__ volatile("fninit\n\tfldcw %0" : : "m"(x87cw_saved));
        abandoned = 1;
        return 0;
    }
    abandon_armed = 1;
    abi_current_impl = name;
    uint64_t ret = abi_trampoline(fn, st, argv, argc);
    abi_current_impl = NULL;
    abandon_armed = 0;
    return ret;
}

static abi_emulator_fn emulator;
static abi_emu_stack_fn emulator_stack;
static uint64_t emulator_poison;
static _Thread_local int emulate;

void abi_set_emulator(abi_emulator_fn run, abi_emu_stack_fn stack, uint64_t stack_poison)
{
    emulator = run;
    emulator_stack = stack;
    emulator_poison = stack_poison;
}

void abi_emulate(int on)
{
    emulate = on;
}

/* The call in the emulator: the same states in and out, the same verdicts; a fault or an
 * instruction the emulator cannot run stops the call with its own kind. */
static uint64_t emulated_call(const char *name, const void *fn, const uint64_t *argv, size_t argc,
                              struct abi_state *before, struct abi_state *after, int judge_clean)
{
    static _Thread_local char err[320];
    uint64_t ret = 0;
    /* the emulated CPU has every register the executor knows: check them all */
    if (before->vec_mode != ABI_VEC_NONE) before->vec_mode = ABI_VEC_AVX512;
    before->stack_top = 0;
    memcpy(after, before, offsetof(struct abi_state, vec));
    abi_current_impl = name;
    int rc = emulator(fn, argv, argc, before, after, &ret, err, sizeof err);
    abi_current_impl = NULL;
    if (rc) {
        last_kind = !strncmp(err, "fault", 5)                 ? FINDING_GUARD_PAGE
                    : !strncmp(err, "beyond the declared", 19) ? FINDING_ISA
                                                               : FINDING_EMULATOR;
        fail_handler(name, err);
        return 0;
    }
    const char *what = abi_check(before, after, judge_clean && before->vec_mode != ABI_VEC_NONE);
    if (!what && judge_clean && before->vec_mode != ABI_VEC_NONE && emulator_stack) {
        uint64_t lo, entry;
        size_t size;
        emulator_stack(&lo, &size, &entry);
        /* nothing is restored: the emulator poisons its stack again before each call */
        if (entry - lo >= ABI_STACK_SCAN)
            what = stack_check(before, fn, argv, argc, (uint8_t *)(uintptr_t)entry, emulator_poison,
                               (const uint8_t *)(uintptr_t)lo, 0);
        if (what) last_kind = FINDING_STACK;
    }
    if (what) fail_handler(name, what);
    return ret;
}

/* The checked call.  mode: the vector snapshot taken (and, with a separate stack, the stack
 * scanned); judge_clean: whether data left there is a finding.  seed: the state to load (NULL:
 * fresh random callee-saved values); after: where the state after the call goes (NULL: kept
 * here).  In the emulator while abi_emulate is on. */
/* SCAN: its two snapshots are the trampoline's (ASan cannot see into it), and as ASan locals
 * they would take a fake stack frame of 5 KiB on every call. */
SCAN static uint64_t checked_call(const char *name, const void *fn, const uint64_t *argv, size_t argc,
                             enum abi_vec_mode mode, int judge_clean,
                             const struct abi_state *seed, struct abi_state *after_out)
{
    struct abi_state before, after_local;
    struct abi_state *after_p = after_out ? after_out : &after_local;

    abandoned = 0;
    if (argc > ABI_MAX_ARGS) {
        snprintf(message, sizeof message, "checked call with %zu arguments (at most %d)", argc,
                 ABI_MAX_ARGS);
        fail_handler(name, message);
        return 0;
    }
    if (seed) {
        before = *seed;
    } else {
#define RANDOM_SAVED_(kind, r, R) before.r = prng_next();
        ABI_X86_64_SYSV_SAVED(RANDOM_SAVED_)
#undef RANDOM_SAVED_
    }
    before.rsp_delta = 0;
    before.rflags = 0;
    before.mxcsr = MXCSR_DEFAULT;
    before.x87cw = X87CW_DEFAULT;
    before.x87tw = X87TW_EMPTY;
    before.vec_mode = mode;
    before.pad1 = 0;
    before.vec_fill = VEC_MARKER;
    if (emulate && emulator)
        return emulated_call(name, fn, argv, argc, &before, after_p, judge_clean);
    uint8_t *top = mode != ABI_VEC_NONE ? separate_stack() : NULL;
    before.stack_top = (uint64_t)(uintptr_t)top;
    struct abi_state *after = after_p;
    /* only the header is input; vec and k are output, left for the trampoline to fill */
    memcpy(after, &before, offsetof(struct abi_state, vec));
    after->stack_top = before.stack_top;

    uint64_t ret = abi_trampoline_guarded(name, fn, after, argv, argc);
    if (abandoned) {
        /* it faulted (guard.c reported it): nothing of it is judged, and the separate stack
         * is marked afresh for the next call */
        if (top)
            for (uint64_t *w = (uint64_t *)stack_lo; w < (uint64_t *)(stack_lo + STACK_SIZE); w++)
                *w = STACK_MARKER;
        return 0;
    }
    const char *what = abi_check(&before, after, judge_clean);
    /* the stack check runs even after another finding, to put the marker back */
    const char *stack =
        top ? stack_check(&before, fn, argv, argc, top, STACK_MARKER, stack_lo, 1) : NULL;
    if (!what && stack && judge_clean) {
        what = stack;
        last_kind = FINDING_STACK;
    }
    if (what) fail_handler(name, what);
    return ret;
}

void abi_stack_range(uint64_t *lo, uint64_t *hi)
{
    *lo = (uint64_t)(uintptr_t)stack_lo;
    *hi = stack_lo ? *lo + STACK_SIZE : 0;
}

uint64_t abi_call_state(const char *name, const void *fn, const uint64_t *argv, size_t argc,
                        int clean, const struct abi_state *seed, struct abi_state *after)
{
    return checked_call(name, fn, argv, argc, best_vec_mode(), clean, seed, after);
}

uint64_t abi_call(const char *name, const void *fn, const uint64_t *argv, size_t argc)
{
    return checked_call(name, fn, argv, argc, ABI_VEC_NONE, 0, NULL, NULL);
}

/* ---- the Win64 checked call (abi.h; the bridge: abi_win64_x86_64.S) ---- */

_Static_assert(offsetof(struct abi_win64_call, fn) == ABI_W64_FN, "ABI_W64_FN");
_Static_assert(offsetof(struct abi_win64_call, nargs) == ABI_W64_NARGS, "ABI_W64_NARGS");
_Static_assert(offsetof(struct abi_win64_call, in) == ABI_W64_IN, "ABI_W64_IN");
_Static_assert(offsetof(struct abi_win64_call, out) == ABI_W64_OUT, "ABI_W64_OUT");

/* the call in progress (its loaded values are not data on the stack), or NULL */
static _Thread_local const struct abi_win64_call *win64_now;

#define W64_GPR_RANDOM_(r) c->in.r = prng_next();
#define W64_XMM_RANDOM_(r) c->in.r.q[0] = prng_next(), c->in.r.q[1] = prng_next();
#define W64_RANDOM_(kind, r, R) W64_##kind##_RANDOM_(r)

void abi_win64_arm(struct abi_win64_call *c, const void *fn, size_t argc)
{
    memset(c, 0, sizeof *c);
    c->fn = fn;
    c->nargs = argc;
    ABI_X86_64_WIN64_SAVED(W64_RANDOM_)
    win64_now = c;
}

int abi_win64_loaded_value(uint64_t w)
{
    const struct abi_win64_call *c = win64_now;
    if (!c) return 0;
    /* the bridge's frame: its junk, the Win64 function it called */
    if (w == ABI_W64_JUNK || w == (uint64_t)(uintptr_t)c->fn) return 1;
#define W64_GPR_IS_(r) if (w == c->in.r) return 1;
#define W64_XMM_IS_(r) if (w == c->in.r.q[0] || w == c->in.r.q[1]) return 1;
#define W64_IS_(kind, r, R) W64_##kind##_IS_(r)
    ABI_X86_64_WIN64_SAVED(W64_IS_)
    return 0;
}

const char *abi_win64_check(const struct abi_win64_call *c)
{
    static const char *const names[] = ABI_REG_NAMES(ABI_X86_64_WIN64_SAVED);
    size_t i = 0;
    const char *why = "Win64 ABI: rbx, rbp, rdi, rsi, r12-r15 and xmm6-15 are callee-saved there";
#define W64_GPR_CMP_(r)                                                                       \
    if (c->in.r != c->out.r) {                                                                \
        snprintf(message, sizeof message,                                                     \
                 "callee-saved register %s modified (%s) (before 0x%016llx, after 0x%016llx)",\
                 names[i], why, (unsigned long long)c->in.r, (unsigned long long)c->out.r);   \
        return message;                                                                       \
    }
#define W64_XMM_CMP_(r)                                                                       \
    if (memcmp(&c->in.r, &c->out.r, sizeof c->in.r)) {                                        \
        snprintf(message, sizeof message,                                                     \
                 "callee-saved register %s modified (%s) (before 0x%016llx%016llx, after "    \
                 "0x%016llx%016llx)", names[i], why, (unsigned long long)c->in.r.q[1],         \
                 (unsigned long long)c->in.r.q[0], (unsigned long long)c->out.r.q[1],         \
                 (unsigned long long)c->out.r.q[0]);                                          \
        return message;                                                                       \
    }
#define W64_CMP_(kind, r, R) W64_##kind##_CMP_(r) i++;
    ABI_X86_64_WIN64_SAVED(W64_CMP_)
    (void)i;
    return NULL;
}

uint64_t abi_call_win64(const char *name, const void *fn, const uint64_t *argv, size_t argc,
                        int clean)
{
    static _Thread_local struct abi_win64_call c;
    if (argc > ABI_WIN64_MAX_ARGS) {
        snprintf(message, sizeof message, "Win64 checked call with %zu arguments (at most %d)",
                 argc, ABI_WIN64_MAX_ARGS);
        last_kind = FINDING_ABI;
        fail_handler(name, message);
        return 0;
    }
    uint64_t a[ABI_MAX_ARGS];
    a[0] = (uint64_t)(uintptr_t)&c;
    memcpy(a + 1, argv, argc * sizeof *argv);
    abi_win64_arm(&c, fn, argc);
    uint64_t r = clean ? abi_call_clean(name, (const void *)abi_win64_bridge, a, argc + 1)
                       : abi_call(name, (const void *)abi_win64_bridge, a, argc + 1);
    win64_now = NULL;
    if (abandoned) return r;
    const char *what = abi_win64_check(&c);
    if (what) {
        last_kind = FINDING_ABI;
        fail_handler(name, what);
    }
    return r;
}

/* The driver's way: the same, its call made by the caller (drv_call_win64). */
void abi_win64_done(void)
{
    win64_now = NULL;
}

uint64_t abi_call_clean(const char *name, const void *fn, const uint64_t *argv, size_t argc)
{
    enum abi_vec_mode mode = best_vec_mode();
    return checked_call(name, fn, argv, argc, mode, mode != ABI_VEC_NONE, NULL, NULL);
}
#endif

#if defined(__riscv)
/* ---- RISC-V LP64: the trampoline is abi_riscv64.S ---- */

/* A fault inside a RISC-V checked call still ends the process (no abandon yet). */
int abi_call_abandoned(void)
{
    return 0;
}

void abi_abandon_call(void)
{
}

/* abi_riscv64.S addresses struct abi_state by the ABI_RV_ST_* numbers (emu/regstate.h); the
 * callee-saved registers come first, packed in list order (ST_<NAME> there). */
#define SAVED_IS_64_(kind, r, R) _Static_assert(ABI_REG_SIZE_##kind == 8, #r ": the checks "  \
                                                "here compare 64-bit registers");
ABI_RISCV64_LP64_SAVED(SAVED_IS_64_)
#undef SAVED_IS_64_
_Static_assert(offsetof(struct abi_state, sp_delta) == ABI_RV_ST_SP_DELTA, "ST_SP_DELTA");
_Static_assert(offsetof(struct abi_state, gp) == ABI_RV_ST_GP, "ST_GP");
_Static_assert(offsetof(struct abi_state, tp) == ABI_RV_ST_TP, "ST_TP");
_Static_assert(offsetof(struct abi_state, frm) == ABI_RV_ST_FRM, "ST_FRM");
_Static_assert(offsetof(struct abi_state, vstart) == ABI_RV_ST_VSTART, "ST_VSTART");
_Static_assert(offsetof(struct abi_state, vtype) == ABI_RV_ST_VTYPE, "ST_VTYPE");
_Static_assert(offsetof(struct abi_state, avl) == ABI_RV_ST_AVL, "ST_AVL");
_Static_assert(offsetof(struct abi_state, vxrm) == ABI_RV_ST_VXRM, "ST_VXRM");
_Static_assert(offsetof(struct abi_state, vxsat) == ABI_RV_ST_VXSAT, "ST_VXSAT");
_Static_assert(offsetof(struct abi_state, has_v) == ABI_RV_ST_HAS_V, "ST_HAS_V");
_Static_assert(offsetof(struct abi_state, vec_mode) == ABI_RV_ST_VEC_MODE, "ST_VEC_MODE");
_Static_assert(offsetof(struct abi_state, vec_fill) == ABI_RV_ST_VEC_FILL, "ST_VEC_FILL");
_Static_assert(offsetof(struct abi_state, vlenb) == ABI_RV_ST_VLENB, "ST_VLENB");
_Static_assert(offsetof(struct abi_state, vec) == ABI_RV_ST_VEC, "ST_VEC");
_Static_assert(sizeof(((struct abi_state *)0)->vec[0]) == 256, "VLENB_MAX in the .S");
_Static_assert(ABI_MAX_ARGS == 10, "MAX_ARGS in the .S");

/* A fill no kernel computes by accident; neither 0 (the "cleared" value) nor all-ones. */
#define RV_VEC_MARKER 0x5ac1ea4d5ac1ea4dull
#define RV_FRM_RNE 0 /* round to nearest, ties to even: what C code runs with */
#define RV_HWCAP_V (1ul << ('V' - 'A'))

/* What the checked call needs of the CPU: whether vector CSRs exist, and vlenb.  Deliberately
 * not cpu_features(): a masked feature changes which kernels run, not which registers exist to
 * hold leftovers.  AT_HWCAP's V bit is enough here (the kernel sets it only when it saves the
 * vector state), and keeps the checked call independent of cpu.c. */
static uint64_t rv_vlenb(void)
{
    static long cached = -1;
    long v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (v < 0) {
        v = 0;
        if (getauxval(AT_HWCAP) & RV_HWCAP_V) {
            unsigned long b;
            __asm__ volatile(".option push\n\t.option arch, +v\n\tcsrr %0, vlenb\n\t.option pop"
                             : "=r"(b));
            v = (long)b;
        }
        __atomic_store_n(&cached, v, __ATOMIC_RELAXED);
    }
    return (uint64_t)v;
}

/* A random legal vtype and an AVL for it: SEW 8..64, LMUL mf8..m8 with SEW <= LMUL * ELEN
 * (ELEN = 64 on V), tail and mask policy at random.  vl then ranges from 0 to past VLMAX. */
static void rv_scramble_vtype(uint64_t *vtype, uint64_t *avl)
{
    uint64_t r = prng_next();
    unsigned vsew = (unsigned)(r & 3);         /* e8 << vsew */
    unsigned lmul_code = (unsigned)(r >> 2) % 7; /* 0..6 -> mf8, mf4, mf2, m1, m2, m4, m8 */
    /* fractional LMUL 2^-k allows SEW <= 64 >> k: mf8 only e8, mf4 up to e16, mf2 up to e32 */
    if (lmul_code < 3 && vsew > lmul_code) lmul_code = vsew > 3 ? 3 : vsew;
    static const unsigned vlmul_field[7] = {5, 6, 7, 0, 1, 2, 3};
    *vtype = (uint64_t)vlmul_field[lmul_code] | (uint64_t)vsew << 3 | ((r >> 8) & 3) << 6;
    *avl = (r >> 16) & 0x3ff;
}

static int rv_lane_holds_data(const uint8_t *lane, uint64_t fill)
{
    uint64_t lo, hi;
    memcpy(&lo, lane, 8);
    memcpy(&hi, lane + 8, 8);
    return !((lo == fill && hi == fill) || (lo == 0 && hi == 0));
}

SCAN const char *abi_check(const struct abi_state *before, const struct abi_state *after,
                      int check_vectors)
{
    last_kind = FINDING_ABI;
#define CHECK_SAVED_(kind, r, R)                                                             \
    if (before->r != after->r) {                                                             \
        snprintf(message, sizeof message,                                                    \
                 "callee-saved register %s modified (before 0x%016llx, after 0x%016llx)",   \
                 #r, (unsigned long long)before->r, (unsigned long long)after->r);          \
        return message;                                                                      \
    }
    ABI_RISCV64_LP64_SAVED(CHECK_SAVED_)
#undef CHECK_SAVED_
    if (after->sp_delta != 0) {
        snprintf(message, sizeof message, "sp not restored (off by %lld bytes)",
                 (long long)after->sp_delta);
        return message;
    }
    if (before->gp != after->gp) {
        snprintf(message, sizeof message,
                 "global pointer gp modified (before 0x%016llx, after 0x%016llx)",
                 (unsigned long long)before->gp, (unsigned long long)after->gp);
        return message;
    }
    if (before->tp != after->tp) {
        snprintf(message, sizeof message,
                 "thread pointer tp modified (before 0x%016llx, after 0x%016llx)",
                 (unsigned long long)before->tp, (unsigned long long)after->tp);
        return message;
    }
    if (before->frm != after->frm) {
        snprintf(message, sizeof message,
                 "rounding mode frm modified (before %llu, after %llu)",
                 (unsigned long long)before->frm, (unsigned long long)after->frm);
        return message;
    }
    if (before->has_v && after->vstart != 0) {
        snprintf(message, sizeof message, "vstart not zero on return (%llu)",
                 (unsigned long long)after->vstart);
        return message;
    }
    if (!check_vectors || before->vec_mode != ABI_VEC_RVV || !before->has_v) return NULL;
    for (int r = 0; r < 32; r++)
        for (uint64_t off = 0; off + 16 <= before->vlenb; off += 16)
            if (rv_lane_holds_data(after->vec[r] + off, before->vec_fill)) {
                /* data left, not a broken ABI: a convention may allow it (outside_allows) */
                last_kind = FINDING_RESIDUE;
                snprintf(message, sizeof message, "v%d not cleared: holds data (bytes %llu..%llu)",
                         r, (unsigned long long)off, (unsigned long long)off + 15);
                return message;
            }
    return NULL;
}

static uint64_t checked_call(const char *name, const void *fn, const uint64_t *argv, size_t argc,
                             int want_vectors)
{
    struct abi_state before, after;

    if (argc > ABI_MAX_ARGS) {
        snprintf(message, sizeof message, "checked call with %zu arguments (at most %d)", argc,
                 ABI_MAX_ARGS);
        fail_handler(name, message);
        return 0;
    }
    memset(&before, 0, offsetof(struct abi_state, vec));
#define RANDOM_SAVED_(kind, r, R) before.r = prng_next();
    ABI_RISCV64_LP64_SAVED(RANDOM_SAVED_)
#undef RANDOM_SAVED_
    __asm__ volatile("mv %0, gp" : "=r"(before.gp));
    __asm__ volatile("mv %0, tp" : "=r"(before.tp));
    before.frm = RV_FRM_RNE;
    uint64_t vlenb = rv_vlenb();
    before.has_v = vlenb != 0;
    if (before.has_v) {
        rv_scramble_vtype(&before.vtype, &before.avl);
        before.vxrm = 1 + prng_next() % 3; /* rnu is 0: any other mode */
        before.vxsat = 1;
        before.vlenb = vlenb;
        before.vec_fill = RV_VEC_MARKER;
        before.vec_mode = want_vectors && vlenb <= ABI_RV_VLENB_MAX ? ABI_VEC_RVV : ABI_VEC_NONE;
    }
    memcpy(&after, &before, offsetof(struct abi_state, vec));

    abi_current_impl = name;
    uint64_t ret = abi_trampoline(fn, &after, argv, argc);
    abi_current_impl = NULL;
    const char *what = abi_check(&before, &after, want_vectors);
    if (what) fail_handler(name, what);
    return ret;
}

uint64_t abi_call(const char *name, const void *fn, const uint64_t *argv, size_t argc)
{
    return checked_call(name, fn, argv, argc, 0);
}

uint64_t abi_call_clean(const char *name, const void *fn, const uint64_t *argv, size_t argc)
{
    return checked_call(name, fn, argv, argc, 1);
}
#endif
