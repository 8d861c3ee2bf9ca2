/* guard.c — see guard.h. */
#define _GNU_SOURCE /* REG_RIP, dladdr */
#include "guard.h"

#include "report.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

/* Set by the checked call (abi.c) around each kernel call; weak so the guard pages work in
 * programs without it. */
extern const char *volatile abi_current_impl __attribute__((weak));
extern void abi_abandon_call(void) __attribute__((weak));

/* Live mappings, so a fault at a guard page can be told in terms of the buffer it guards. */
#define GUARD_MAX_LIVE 64
static struct gbuf *live[GUARD_MAX_LIVE];

/* SIGSEGV/SIGBUS at a guard page: say which buffer, how far past it, whose code and which
 * instruction, through the one report printer.  Inside a checked call the call is then
 * abandoned (abi.c) and the run goes on; anywhere else the process ends as a finding does. */
static void on_fault(int sig, siginfo_t *si, void *uctx)
{
    uint8_t *a = si->si_addr;
    for (int i = 0; i < GUARD_MAX_LIVE; i++) {
        struct gbuf *b = live[i];
        if (!b || !b->map || a < b->map || a >= b->map + b->maplen) continue;
        const char *who = &abi_current_impl && abi_current_impl ? abi_current_impl : NULL;
        char what[256], title[512];
        snprintf(what, sizeof what,
                 "touched byte %ld of the %zu-byte buffer %s (%s, offset %zu): in the unmapped "
                 "page %s it",
                 (long)(a - b->p), b->len, b->name ? b->name : "?", guard_place_name(b->place),
                 b->offset, a < b->data ? "before" : "after");
        snprintf(title, sizeof title, "%s: %s", who ? who : "(outside a checked call)", what);
        report_begin(FINDING_GUARD_PAGE, title);
        report_location(b->name ? b->name : "?", (long)(a - b->p));
#if defined(__x86_64__)
        report_instruction((uintptr_t)((ucontext_t *)uctx)->uc_mcontext.gregs[REG_RIP]);
#else
        (void)uctx;
#endif
        report_end();
        if (who && &abi_abandon_call) abi_abandon_call();
        /* outside a checked call: nothing to go back to */
        if (report_policy()->go_on) _exit(report_policy()->exit_status);
        abort();
    }
    /* not ours: the default action (a crash libFuzzer and ASan report as such) */
    signal(sig, SIG_DFL);
    raise(sig);
}

/* The instruction's text and the features it needs (emu/emu_call.h); weak, as a program
 * without the engines (a self-test) links this file too: its bytes are told then. */
extern void emu_describe_insn(uint64_t pc, char *text, size_t tlen, char *needs, size_t nlen)
    __attribute__((weak));

#if defined(__x86_64__)
/* SIGILL: the CPU refused an instruction, as a CPU without the feature it needs does (#UD).
 * Natively it means code chosen for a CPU this one is not: a library whose own dispatch took
 * a path its CPUID check should have ruled out (under a host profile, qemu-x86_64 -cpu MODEL
 * refuses what the model lacks), or one of our kernels, or an outside one, whose declared
 * needs leave a feature out.  Said through the one report printer, naming the instruction,
 * the feature it needs, the module and symbol it is in; inside a checked call the call is
 * abandoned (abi.c) and the run goes on, anywhere else the process ends as a finding does.
 * Installed with the guard pages' handlers, before the first call. */
static void on_illegal(int sig, siginfo_t *si, void *uctx)
{
    (void)sig;
    (void)si;
    uintptr_t pc = (uintptr_t)((ucontext_t *)uctx)->uc_mcontext.gregs[REG_RIP];
    const char *who = &abi_current_impl && abi_current_impl ? abi_current_impl : NULL;
    char text[160], needs[160], on[96] = "", what[512], title[640];
    text[0] = needs[0] = 0;
    if (&emu_describe_insn) {
        emu_describe_insn(pc, text, sizeof text, needs, sizeof needs);
    } else {
        const uint8_t *b = (const uint8_t *)pc;
        snprintf(text, sizeof text, "bytes %02x %02x %02x %02x", b[0], b[1], b[2], b[3]);
    }
    Dl_info dl;
    const char *module = "?", *path = "?";
    if (dladdr((void *)pc, &dl) && dl.dli_fname) {
        const char *slash = strrchr(dl.dli_fname, '/');
        path = dl.dli_fname;
        module = slash ? slash + 1 : dl.dli_fname;
    }
    const char *profile = getenv("ASMDIFF_HOST_PROFILE");
    if (profile && *profile) snprintf(on, sizeof on, "; host profile %s", profile);
    if (needs[0])
        snprintf(what, sizeof what, "the CPU refused %s in %s (it needs %s, which this CPU "
                 "lacks%s)", text, module, needs, on);
    else
        snprintf(what, sizeof what, "the CPU refused %s in %s (an instruction this CPU "
                 "lacks%s)", text, module, on);
    snprintf(title, sizeof title, "%s: %s", who ? who : "(outside a checked call)", what);
    report_begin(FINDING_ILLEGAL, title);
    report_what(what);
    report_param("module", "%s", path);
    report_instruction(pc);
    report_end();
    if (who && &abi_abandon_call) abi_abandon_call();
    /* outside a checked call: nothing to go back to */
    if (report_policy()->go_on) _exit(report_policy()->exit_status);
    abort();
}
#endif

/* Out of line, as is ensure's mapping path: under ASan a function with an address-taken local
 * (the sigaction here) takes a fake stack frame on every call, and gbuf_place runs for every
 * buffer of every call. */
__attribute__((noinline)) static void track(struct gbuf *b)
{
    static int installed;
    if (!installed) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_fault;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGSEGV, &sa, NULL);
        sigaction(SIGBUS, &sa, NULL);
#if defined(__x86_64__)
        sa.sa_sigaction = on_illegal;
        sigaction(SIGILL, &sa, NULL);
#endif
        installed = 1;
    }
    for (int i = 0; i < GUARD_MAX_LIVE; i++)
        if (live[i] == b) return;
    for (int i = 0; i < GUARD_MAX_LIVE; i++)
        if (!live[i]) {
            live[i] = b;
            return;
        }
}

static size_t page_size(void)
{
    static size_t ps;
    if (!ps) ps = (size_t)sysconf(_SC_PAGESIZE);
    return ps;
}

__attribute__((noinline)) static void map_anew(struct gbuf *b, size_t need)
{
    size_t ps = page_size();
    gbuf_free(b);
    size_t cap = (need + ps - 1) / ps * ps;
    size_t len = cap + 2 * ps;
    uint8_t *m = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED || mprotect(m + ps, cap, PROT_READ | PROT_WRITE)) {
        perror("asmdiff: guarded buffer: mmap/mprotect");
        exit(99);
    }
    b->map = m;
    b->maplen = len;
    track(b);
    b->data = m + ps;
    b->cap = cap;
}

static void ensure(struct gbuf *b, size_t need)
{
    /* room for the canary span on the far side too */
    need += GUARD_CANARY_SPAN;
    if (!b->map || b->cap < need) map_anew(b, need);
}

/* Unaligned 8-byte accesses the compiler neither splits nor turns back into libc calls. */
typedef uint64_t __attribute__((may_alias, aligned(1))) word_u;
/* ASan's check of every word would cost more than the copy: the spans are the harness's own
 * buffers and the family's case, whose lengths the family's own code sets. */
#if defined(__clang__)
#define NO_LIBC_IDIOMS __attribute__((no_builtin, no_sanitize("address", "undefined")))
#else
#define NO_LIBC_IDIOMS                                                                         \
    __attribute__((optimize("no-tree-loop-distribute-patterns"),                               \
                   no_sanitize("address", "undefined")))
#endif

NO_LIBC_IDIOMS void guard_fill(uint8_t *p, uint8_t byte, size_t n)
{
    const uint64_t w = 0x0101010101010101ull * byte;
    if (n < 8) {
        for (size_t i = 0; i < n; i++) p[i] = byte;
        return;
    }
    for (size_t i = 0; i + 8 <= n; i += 8) *(word_u *)(p + i) = w;
    *(word_u *)(p + n - 8) = w; /* the tail, overlapping the last whole word */
}

NO_LIBC_IDIOMS void guard_copy(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n < 8) {
        for (size_t i = 0; i < n; i++) dst[i] = src[i];
        return;
    }
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        uint64_t a = *(const word_u *)(src + i), b = *(const word_u *)(src + i + 8);
        uint64_t c = *(const word_u *)(src + i + 16), d = *(const word_u *)(src + i + 24);
        *(word_u *)(dst + i) = a, *(word_u *)(dst + i + 8) = b;
        *(word_u *)(dst + i + 16) = c, *(word_u *)(dst + i + 24) = d;
    }
    for (; i + 8 <= n; i += 8) *(word_u *)(dst + i) = *(const word_u *)(src + i);
    *(word_u *)(dst + n - 8) = *(const word_u *)(src + n - 8);
}

NO_LIBC_IDIOMS int guard_equal(const uint8_t *a, const uint8_t *b, size_t n)
{
    if (n < 8) {
        uint8_t d = 0;
        for (size_t i = 0; i < n; i++) d |= (uint8_t)(a[i] ^ b[i]);
        return d == 0;
    }
    uint64_t d = 0;
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        d |= (*(const word_u *)(a + i) ^ *(const word_u *)(b + i)) |
             (*(const word_u *)(a + i + 8) ^ *(const word_u *)(b + i + 8)) |
             (*(const word_u *)(a + i + 16) ^ *(const word_u *)(b + i + 16)) |
             (*(const word_u *)(a + i + 24) ^ *(const word_u *)(b + i + 24));
    for (; i + 8 <= n; i += 8) d |= *(const word_u *)(a + i) ^ *(const word_u *)(b + i);
    d |= *(const word_u *)(a + n - 8) ^ *(const word_u *)(b + n - 8);
    return d == 0;
}

uint8_t *gbuf_place(struct gbuf *b, size_t len, enum guard_place place, size_t offset)
{
    ensure(b, len + offset);
    b->len = len;
    b->place = place;
    b->offset = offset;
    b->p = place == GUARD_HEAD ? b->data + offset : b->data + b->cap - len - offset;
    /* canaries on both sides, clipped to the mapping */
    uint8_t *lo = b->p - GUARD_CANARY_SPAN < b->data ? b->data : b->p - GUARD_CANARY_SPAN;
    uint8_t *hi_end = b->data + b->cap;
    uint8_t *hi = b->p + len;
    if ((size_t)(hi_end - hi) > GUARD_CANARY_SPAN) hi_end = hi + GUARD_CANARY_SPAN;
    guard_fill(lo, GUARD_CANARY, (size_t)(b->p - lo));
    guard_fill(hi, GUARD_CANARY, (size_t)(hi_end - hi));
    return b->p;
}

/* Every kernel call ends here: word-wide compares first, the byte only when one differs;
 * the span is ours (not the kernel's buffer), so ASan's checks of it are left out. */
__attribute__((no_sanitize("address", "undefined"))) static int first_changed(const uint8_t *from,
                                                                            const uint8_t *to,
                                                                            const uint8_t **at)
{
    const uint64_t pat = 0x0101010101010101ull * GUARD_CANARY;
    const uint8_t *q = from;
    for (; q + 8 <= to; q += 8) {
        uint64_t w;
        memcpy(&w, q, 8);
        if (w != pat) break;
    }
    for (; q < to; q++)
        if (*q != GUARD_CANARY) {
            *at = q;
            return 1;
        }
    return 0;
}

int gbuf_check_canary(const struct gbuf *b, long *where)
{
    const uint8_t *at;
    uint8_t *lo = b->p - GUARD_CANARY_SPAN < b->data ? b->data : b->p - GUARD_CANARY_SPAN;
    uint8_t *hi = b->p + b->len, *hi_end = b->data + b->cap;
    if ((size_t)(hi_end - hi) > GUARD_CANARY_SPAN) hi_end = hi + GUARD_CANARY_SPAN;
    if (first_changed(lo, b->p, &at) || first_changed(hi, hi_end, &at)) {
        *where = (long)(at - b->p);
        return -1;
    }
    return 0;
}

/* The common case of every call, branch-free over both spans (no location wanted). */
__attribute__((no_sanitize("address", "undefined"))) static int span_intact(const uint8_t *from,
                                                                          const uint8_t *to)
{
    const uint64_t pat = 0x0101010101010101ull * GUARD_CANARY;
    size_t n = (size_t)(to - from);
    if (n < 8) {
        uint8_t d = 0;
        for (size_t i = 0; i < n; i++) d |= (uint8_t)(from[i] ^ GUARD_CANARY);
        return d == 0;
    }
    uint64_t d = *(const word_u *)(to - 8) ^ pat;
    for (size_t i = 0; i + 8 <= n; i += 8) d |= *(const word_u *)(from + i) ^ pat;
    return d == 0;
}

int gbuf_canary_intact(const struct gbuf *b)
{
    uint8_t *lo = b->p - GUARD_CANARY_SPAN < b->data ? b->data : b->p - GUARD_CANARY_SPAN;
    uint8_t *hi = b->p + b->len, *hi_end = b->data + b->cap;
    if ((size_t)(hi_end - hi) > GUARD_CANARY_SPAN) hi_end = hi + GUARD_CANARY_SPAN;
    return span_intact(lo, b->p) && span_intact(hi, hi_end);
}

void gbuf_free(struct gbuf *b)
{
    for (int i = 0; i < GUARD_MAX_LIVE; i++)
        if (live[i] == b) live[i] = NULL;
    if (b->map) munmap(b->map, b->maplen);
    memset(b, 0, sizeof *b);
}

const char *guard_place_name(enum guard_place p)
{
    return p == GUARD_HEAD ? "guard-before" : "guard-after";
}
