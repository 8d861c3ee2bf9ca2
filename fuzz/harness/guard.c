/* guard.c — see guard.h. */
#define _GNU_SOURCE /* REG_RIP */
#include "guard.h"

#include "report.h"

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
        if (report_exit_status) _exit(report_exit_status);
        abort();
    }
    /* not ours: the default action (a crash libFuzzer and ASan report as such) */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void track(struct gbuf *b)
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

static void ensure(struct gbuf *b, size_t need)
{
    size_t ps = page_size();
    /* room for the canary span on the far side too */
    need += GUARD_CANARY_SPAN;
    if (b->map && b->cap >= need) return;
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
    memset(lo, GUARD_CANARY, (size_t)(b->p - lo));
    memset(hi, GUARD_CANARY, (size_t)(hi_end - hi));
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
