/* guard.c — see guard.h. */
#include "guard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

void gbuf_free(struct gbuf *b)
{
    if (b->map) munmap(b->map, b->maplen);
    memset(b, 0, sizeof *b);
}

const char *guard_place_name(enum guard_place p)
{
    return p == GUARD_HEAD ? "guard-before" : "guard-after";
}
