/* uhash_family.h — what the two universal-hash families (fuzz/polyval.c, fuzz/ghash.c) do alike,
 * once: decode a case, run our kernels' and an outside kernel's update calls over its split,
 * report it, vary its secrets, check a known answer whole and split before every block, walk the
 * multiplication table, and bench the update contract.  What differs stays in each family: the
 * field (the reference and its bit order), the group widths the decoder aims at, the case
 * properties, the vectors' file and the families' own lines in a report.
 *
 * For the family files only (it uses the driver): conventions read uhash.h alone. */
#ifndef ASMDIFF_UHASH_FAMILY_H
#define ASMDIFF_UHASH_FAMILY_H

#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "input.h"
#include "report.h"
#include "rng.h"
#include "uhash.h"

/* Our kernels' and the reference's update contract (kernels/polyval/polyval.h,
 * kernels/ghash/ghash.h): state updated by the blocks under the raw key H. */
typedef void (*uhash_update_fn)(uint8_t state[16], const uint8_t key_h[16],
                                const uint8_t *blocks, size_t nblocks);

/* The family's buffers' indices (its bufs[] in uhash.h's order). */
enum { UHASH_FAM_MSG = UHASH_B_MSG, UHASH_FAM_STATE = UHASH_B_STATE, UHASH_FAM_KEY = UHASH_B_KEY };

static inline int uhash_cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* A case from the input: what decides the hash comes first (the block count, aimed near the
 * family's three group widths, then the key and the message), so a short input already gets a
 * nonzero key and message from the patterns and a zero key or message, which hides most bugs,
 * is no more likely than any other; then a starting state (one input in four) and the split
 * into update calls (one in three). */
static inline void uhash_decode(struct input *in, struct uhash_case *c, size_t widths[3])
{
    c->nblocks = input_length(in, UHASH_MAX_BLOCKS, widths, 3);
    input_fill_words(in, c->h, 2, 8);
    input_fill_words(in, c->msg, 2 * c->nblocks, 8);
    if (input_pick(in, 4) == 0) input_fill_words(in, c->start, 2, 8);
    else memset(c->start, 0, 16);
    c->nsplits = input_pick(in, 3) == 0 ? (size_t)input_range(in, 1, UHASH_MAX_SPLITS) : 0;
    for (size_t i = 0; i < c->nsplits; i++) c->split[i] = (size_t)input_range(in, 0, c->nblocks);
    qsort(c->split, c->nsplits, sizeof c->split[0], uhash_cmp_size);
}

/* The expected final state: the reference, one call over the whole message. */
static inline const void *uhash_expect(const struct uhash_case *c, uhash_update_fn reference)
{
    static uint8_t want[16];
    memcpy(want, c->start, 16);
    reference(want, c->h, c->msg, c->nblocks);
    return want;
}

/* Every call of the split, checked: an outside kernel through its convention (uhash.h), ours
 * on the family's placed buffers; the final state against want. */
static inline void uhash_run(const struct impl *im, const struct uhash_case *c, const void *want)
{
    if (im->flags & IMPL_OUTSIDE) {
        const struct uhash_upstream *k = im->ops;
        uint8_t got[16];
        k->run(k, c, got);
        drv_expect_equal("final state", want, got, 16);
        return;
    }
    const uint8_t *msg = drv_in(UHASH_FAM_MSG, c->msg, 16 * c->nblocks);
    uint8_t *state = drv_inout(UHASH_FAM_STATE, c->start, 16);
    const uint8_t *key = drv_in(UHASH_FAM_KEY, c->h, 16);
    for (size_t i = 0; i <= c->nsplits; i++) {
        size_t from = uhash_call_from(c, i), to = uhash_call_to(c, i);
        DRV_CALL((uhash_update_fn)im->ops, state, key, msg + 16 * from, to - from);
    }
    drv_expect_equal("final state", want, state, 16);
}

/* The report's lines: the calls (before the family's own lines), then the data. */
static inline void uhash_params_calls(const struct uhash_case *c)
{
    char calls[160];
    report_param("blocks", "%zu (%zu bytes)", c->nblocks, 16 * c->nblocks);
    size_t used = (size_t)snprintf(calls, sizeof calls, "%zu:", c->nsplits + 1);
    for (size_t k = 0; k <= c->nsplits && used < sizeof calls; k++)
        used += (size_t)snprintf(calls + used, sizeof calls - used, " [%zu,%zu)",
                                 uhash_call_from(c, k), uhash_call_to(c, k));
    report_param("update calls", "%s (expected: one reference call over all blocks)", calls);
}
static inline void uhash_params_data(const struct uhash_case *c)
{
    report_hex("key H", c->h, 16);
    report_hex("start state", c->start, 16);
    size_t show = 16 * c->nblocks < 512 ? 16 * c->nblocks : 512;
    report_hex(show < 16 * c->nblocks ? "message (first 512 bytes)" : "message", c->msg, show);
}

/* The secrets (the key and the message) redrawn, for the constant-time runs. */
static inline void uhash_vary_secrets(struct uhash_case *c, uint64_t seed)
{
    rng_fill(&seed, c->h, 16);
    rng_fill(&seed, c->msg, sizeof c->msg);
}

/* A known answer (want, for the case as parsed): 1 when the reference gives it, and then every
 * implementation is checked on it in one call and split in two before every block; 0 (said)
 * when the reference disagrees. */
static inline int uhash_kat_check(const char *path, const char *what, struct uhash_case *c,
                                  const uint8_t want[16], uhash_update_fn reference)
{
    uint8_t got[16];
    memcpy(got, uhash_expect(c, reference), 16);
    if (!drv_reference_agrees(path, what, want, got, 16)) return 0;
    c->nsplits = 0;
    drv_check(c);
    c->nsplits = 1;
    for (size_t s = 0; s <= c->nblocks; s++) {
        c->split[0] = s;
        drv_check(c);
    }
    return 1;
}

/* The whole multiplication table on one block: the product is bilinear, so one block with H
 * and X running over all 128 x 128 pairs of basis elements (single set bits) pins down every
 * product an implementation can form; then the same with the starting state as the basis
 * element and X = 0, which checks that the state is read in the right bit order as well.
 * bit(i) is the field's i-th basis element's byte mask: GHASH counts from the top bit of each
 * byte, POLYVAL from the bottom. */
static inline void uhash_exhaustive(struct uhash_case *c, int msb_first)
{
    memset(c, 0, sizeof *c);
    c->nblocks = 1;
    for (int i = 0; i < 128; i++)
        for (int j = 0; j < 128; j++) {
            uint8_t bi = (uint8_t)(msb_first ? 0x80u >> (i % 8) : 1u << (i % 8));
            uint8_t bj = (uint8_t)(msb_first ? 0x80u >> (j % 8) : 1u << (j % 8));
            memset(c->h, 0, 16);
            memset(c->msg, 0, 16);
            memset(c->start, 0, 16);
            c->h[i / 8] = bi;
            c->msg[j / 8] = bj;
            drv_check(c);
            memset(c->msg, 0, 16);
            c->start[j / 8] = bj;
            drv_check(c);
        }
}

/* One bench sample: the buffer hashed in successive calls of k blocks (k 0: one call over the
 * whole buffer); an outside kernel through its convention's bench (-1: its home has none). */
static inline int uhash_bench_run(const struct impl *im, size_t k, uint8_t *buf, size_t bytes)
{
    static uint8_t state[16], key[16] = {0x9e, 0x3c, 0xda, 0x78};
    if (!k) k = bytes / 16;
    const struct uhash_upstream *up = im->flags & IMPL_OUTSIDE ? im->ops : NULL;
    if (up && !up->bench) return -1;
    for (size_t off = 0; off + 16 * k <= bytes && k; off += 16 * k)
        if (up) up->bench(up, state, key, buf + off, k);
        else ((uhash_update_fn)im->ops)(state, key, buf + off, k);
    return 0;
}

#endif
