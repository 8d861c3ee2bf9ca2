/* guard.c — see guard.h. */
#include "guard.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Set by the checked call (abi.c) around each kernel call; weak so the guard pages work in
 * programs without it. */
extern const char *volatile abi_current_impl __attribute__((weak));

/* Live mappings, so a fault at a guard page can be told in terms of the buffer it guards. */
#define GUARD_MAX_LIVE 64
static struct gbuf *live[GUARD_MAX_LIVE];

/* SIGSEGV/SIGBUS at a guard page: say which buffer, how far past it, and whose code; then die
 * as before (abort: libFuzzer keeps the input, and ASan, when present, prints the stack). */
static void on_fault(int sig, siginfo_t *si, void *uctx)
{
    (void)uctx;
    uint8_t *a = si->si_addr;
    for (int i = 0; i < GUARD_MAX_LIVE; i++) {
        struct gbuf *b = live[i];
        if (!b || !b->map || a < b->map || a >= b->map + b->maplen) continue;
        const char *who = &abi_current_impl && abi_current_impl ? abi_current_impl : "(not in a checked call)";
        if (a >= b->data + b->cap || a < b->data)
            fprintf(stderr, "\n==== asmdiff: GUARD PAGE: %s touched byte %ld of a %zu-byte buffer "
                            "(%s, offset %zu): outside it, in the unmapped page %s it\n",
                    who, (long)(a - b->p), b->len, guard_place_name(b->place), b->offset,
                    a < b->data ? "before" : "after");
        break;
    }
    signal(sig, SIG_DFL);
    abort();
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

uint8_t *gbuf_place_input(struct gbuf *b, size_t len, size_t granule, struct input *in)
{
    enum guard_place place = input_bool(in) ? GUARD_HEAD : GUARD_TAIL;
    size_t offset = 0;
    if (granule == 0) granule = 1;
    if (input_pick(in, 4) == 0) offset = granule * (size_t)input_range(in, 1, (64 - 1) / granule);
    return gbuf_place(b, len, place, offset);
}

int gbuf_check_canary(const struct gbuf *b, long *where)
{
    uint8_t *lo = b->p - GUARD_CANARY_SPAN < b->data ? b->data : b->p - GUARD_CANARY_SPAN;
    for (uint8_t *q = lo; q < b->p; q++)
        if (*q != GUARD_CANARY) {
            *where = (long)(q - b->p);
            return -1;
        }
    uint8_t *hi = b->p + b->len, *hi_end = b->data + b->cap;
    if ((size_t)(hi_end - hi) > GUARD_CANARY_SPAN) hi_end = hi + GUARD_CANARY_SPAN;
    for (uint8_t *q = hi; q < hi_end; q++)
        if (*q != GUARD_CANARY) {
            *where = (long)(q - b->p);
            return -1;
        }
    return 0;
}

int gbuf_after_call(const struct gbuf_use *bufs, size_t n, char *what, size_t whatlen,
                    size_t *bad)
{
    for (size_t i = 0; i < n; i++) {
        const struct gbuf *g = bufs[i].g;
        long where;
        if (!g->map) continue;
        *bad = i;
        if (gbuf_check_canary(g, &where)) {
            snprintf(what, whatlen, "wrote outside %s: byte %ld relative to its start",
                     bufs[i].name, where);
            return 1;
        }
        if (bufs[i].orig && memcmp(g->p, bufs[i].orig, g->len)) {
            snprintf(what, whatlen, "modified its input %s", bufs[i].name);
            return 2;
        }
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
