/* guard.h — guarded buffers: every buffer a kernel reads or writes sits flush against an
 * unmapped page, after it (GUARD_TAIL) on some inputs and before it (GUARD_HEAD) on others, at
 * an alignment offset the input chooses.  An overread or overwrite in assembly, which ASan
 * cannot see, then faults.  The bytes next to the buffer inside the mapping hold a canary, so a
 * stray write that stays inside the page is caught too (gbuf_check_canary).
 *
 * Mappings are kept and reused between inputs: only the placement changes, so the cost per
 * input is a pointer computation and a 64-byte canary fill at each end.
 */
#ifndef ASMDIFF_GUARD_H
#define ASMDIFF_GUARD_H

#include <stddef.h>
#include <stdint.h>


enum guard_place { GUARD_TAIL = 0, GUARD_HEAD = 1 };

struct gbuf {
    uint8_t *map;    /* whole mapping: guard page, data pages, guard page */
    size_t maplen;
    uint8_t *data;   /* first byte after the head guard */
    size_t cap;      /* data bytes between the guards */
    uint8_t *p;      /* the buffer handed to kernels */
    size_t len;
    enum guard_place place;
    size_t offset;   /* bytes between the buffer and its guard */
    const char *name; /* for a fault report: "key", "message" */
};

#define GUARD_CANARY 0xa5
#define GUARD_CANARY_SPAN 64

/* Place a buffer of len bytes: flush against the guard at `place`, `offset` bytes away from it.
 * Grows the mapping when needed.  Returns b->p.  Exits with a message if mmap fails. */
uint8_t *gbuf_place(struct gbuf *b, size_t len, enum guard_place place, size_t offset);

/* 0 when the canary bytes on both sides of the buffer are intact; else -1 and *where is the
 * signed offset of the first changed byte relative to b->p (negative: before the buffer). */
int gbuf_check_canary(const struct gbuf *b, long *where);

/* 1 when the canary bytes on both sides are intact: gbuf_check_canary's question without the
 * location, for the check after every call (the location is asked only when this says 0). */
int gbuf_canary_intact(const struct gbuf *b);

void gbuf_free(struct gbuf *b);

/* Fill, copy and compare bytes next to a guard page, by plain 8-byte words that never leave
 * [p, p + n).  libc's AVX-512 string functions do a short length (or a short tail) with one
 * masked 64-byte access; on the AMD cores these suites run on, each such masked access next to
 * a guarded buffer cost about as much as an NH kernel call (12% of an NH exec went to the
 * canary memsets alone).  guard_equal returns 1 when the n bytes are equal. */
void guard_fill(uint8_t *p, uint8_t byte, size_t n);
void guard_copy(uint8_t *dst, const uint8_t *src, size_t n);
int guard_equal(const uint8_t *a, const uint8_t *b, size_t n);

const char *guard_place_name(enum guard_place p);

#endif
