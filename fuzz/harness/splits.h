/* splits.h — a stream (AAD, a payload, a message) cut into the pieces of an API's update calls:
 * the cuts come from the input, at any byte, empty pieces included; each API is given the cuts
 * it accepts and the pieces around the others merged; each piece sits in a guarded buffer of
 * its own (drv_in_piece / drv_out_piece, driver.h).
 *
 * blockcipher.h's chained modes cut a count of blocks and call each piece at its offset in one
 * placed buffer; this is the same idea for APIs that take bytes, with the pieces apart: a read
 * past a piece's end faults (or, inside the page, hits a canary) instead of reading the next
 * piece's bytes, which a contiguous buffer would hand it as if they were right.
 *
 * The gcm family is the first user (fuzz/gcm.c); a case keeps one struct splits per stream and
 * the reference judges the whole stream, uncut. */
#ifndef ASMDIFF_SPLITS_H
#define ASMDIFF_SPLITS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "driver.h"
#include "input.h"

#define SPLITS_MAX 15 /* cuts per stream: at most 16 update calls */

/* Ascending byte offsets into a stream of some length, each in [0, len]; a repeated offset (or
 * 0, or len) is an empty piece.  Piece i is [splits_from(s, i), splits_to(s, i, len)), for
 * i = 0 .. s->n. */
struct splits {
    size_t n;
    size_t at[SPLITS_MAX];
};

static inline size_t splits_from(const struct splits *s, size_t i)
{
    return i ? s->at[i - 1] : 0;
}
static inline size_t splits_to(const struct splits *s, size_t i, size_t len)
{
    return i < s->n ? s->at[i] : len;
}

/* The cuts of a stream of len bytes, from the input: none, one, a few or many (up to
 * SPLITS_MAX), each at a multiple of block bytes or one either side of it, just after the
 * previous cut (empty and one-byte pieces), or anywhere. */
static inline void input_splits(struct input *in, struct splits *s, size_t len, size_t block)
{
    static const size_t counts[][2] = {{0, 0}, {1, 1}, {2, 4}, {5, SPLITS_MAX}};
    unsigned shape = input_pick(in, 4);
    s->n = (size_t)input_range(in, counts[shape][0], counts[shape][1]);
    size_t prev = 0;
    for (size_t i = 0; i < s->n; i++) {
        size_t at;
        switch (input_pick(in, 4)) {
        case 0: { /* at a block boundary, or one byte either side */
            size_t k = (size_t)input_range(in, 0, len / block);
            size_t d = (size_t)input_range(in, 0, 2);
            at = k * block + d < 1 ? 0 : k * block + d - 1;
            break;
        }
        case 1: /* right after the previous cut: an empty piece, or a short one */
            at = prev + (size_t)input_range(in, 0, block + 1);
            break;
        default:
            at = (size_t)input_range(in, 0, len);
        }
        s->at[i] = prev = at > len ? len : at;
    }
    for (size_t i = 1; i < s->n; i++) /* ascending: insertion sort of at most 15 */
        for (size_t j = i; j > 0 && s->at[j - 1] > s->at[j]; j--) {
            size_t t = s->at[j];
            s->at[j] = s->at[j - 1];
            s->at[j - 1] = t;
        }
}

/* The cuts an API that takes a cut only at a multiple of align bytes into the stream keeps
 * (align 1: every cut); the pieces around the others are merged into one. */
static inline void splits_kept(const struct splits *s, size_t align, struct splits *out)
{
    out->n = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->at[i] % align == 0) out->at[out->n++] = s->at[i];
}

/* Each piece of src (len bytes) cut by s placed as piece i of buffer idx (drv_in_piece):
 * p[i] and n[i] for i = 0 .. s->n. */
static inline void drv_in_pieces(size_t idx, const struct splits *s, const uint8_t *src,
                                 size_t len, const uint8_t **p, size_t *n)
{
    for (size_t i = 0; i <= s->n; i++) {
        size_t from = splits_from(s, i);
        n[i] = splits_to(s, i, len) - from;
        p[i] = drv_in_piece(idx, i, src + from, n[i]);
    }
}

/* The output pieces of a stream of len bytes cut by s (drv_out_piece), poisoned. */
static inline void drv_out_pieces(size_t idx, const struct splits *s, size_t len, uint8_t **p,
                                  size_t *n)
{
    for (size_t i = 0; i <= s->n; i++) {
        n[i] = splits_to(s, i, len) - splits_from(s, i);
        p[i] = drv_out_piece(idx, i, n[i]);
    }
}

/* The pieces p[0 .. s->n] back into one stream, for the one comparison with the reference. */
static inline void splits_gather(const struct splits *s, uint8_t *const *p, const size_t *n,
                                 uint8_t *out)
{
    size_t at = 0;
    for (size_t i = 0; i <= s->n; i++) {
        if (n[i]) memcpy(out + at, p[i], n[i]);
        at += n[i];
    }
}

#endif
