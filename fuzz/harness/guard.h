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

#include "input.h"

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
};

#define GUARD_CANARY 0xa5
#define GUARD_CANARY_SPAN 64

/* Place a buffer of len bytes: flush against the guard at `place`, `offset` bytes away from it.
 * Grows the mapping when needed.  Returns b->p.  Exits with a message if mmap fails. */
uint8_t *gbuf_place(struct gbuf *b, size_t len, enum guard_place place, size_t offset);

/* Choose placement and offset from the input: offset 0 (flush) most often, else a multiple of
 * granule (the element size, so C references stay aligned) below 64 bytes.  Then place. */
uint8_t *gbuf_place_input(struct gbuf *b, size_t len, size_t granule, struct input *in);

/* 0 when the canary bytes on both sides of the buffer are intact; else -1 and *where is the
 * signed offset of the first changed byte relative to b->p (negative: before the buffer). */
int gbuf_check_canary(const struct gbuf *b, long *where);

/* One buffer of a kernel call, for gbuf_after_call: orig is what an input the kernel must not
 * write held before the call (NULL for outputs and for an input the call writes in place). */
struct gbuf_use {
    const char *name;
    const struct gbuf *g;
    const void *orig;
};

/* After a kernel call, the first broken promise about its buffers: 1 when a canary next to a
 * buffer changed ("wrote outside key: byte 1072 relative to its start"), 2 when an input changed
 * ("modified its input key"), with the message in what and the buffer's index in *bad; 0 when
 * all is well.  Buffers not placed in this call (never mapped) are skipped. */
int gbuf_after_call(const struct gbuf_use *bufs, size_t n, char *what, size_t whatlen,
                    size_t *bad);

void gbuf_free(struct gbuf *b);

const char *guard_place_name(enum guard_place p);

#endif
