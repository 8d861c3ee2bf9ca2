/* input.h — the structure-aware input decoder: the only code that reads a fuzz input's bytes.
 *
 * As libFuzzer's FuzzedDataProvider does: control values (lengths, flags, choices) come from the
 * tail of the input, payload bytes from the head, so a mutation of the payload does not shift
 * every decision after it.  When the input runs out, control values read as their minimum and
 * payload as zeros: every input, even the empty one, decodes to valid parameters.
 *
 * Weight is put on edges: lengths cluster at 0, at multiples of each kernel's unroll width and
 * ±1 around them, and at the maximum; words are often all-zero, all-ones, the top bit alone, or
 * long runs that make carries ripple.
 */
#ifndef ASMDIFF_INPUT_H
#define ASMDIFF_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct input {
    const uint8_t *data;
    size_t size;
};

static inline void input_init(struct input *in, const uint8_t *data, size_t size)
{
    in->data = data;
    in->size = size;
}

/* An integer in [min, max], using only as many tail bytes as the range needs. */
uint64_t input_range(struct input *in, uint64_t min, uint64_t max);
/* 0 .. n-1 (n >= 1). */
static inline unsigned input_pick(struct input *in, unsigned n)
{
    return (unsigned)input_range(in, 0, n - 1);
}
static inline int input_bool(struct input *in)
{
    return (int)input_range(in, 0, 1);
}

/* A length in [0, max] with weight on edges: 0 and small values, k*w-1, k*w, k*w+1 for each
 * width w in widths[] (the kernel's unroll or parallel widths), powers of two ±1, max-1, max. */
size_t input_length(struct input *in, size_t max, const size_t *widths, size_t nwidths);

/* n payload bytes from the head; zeros once the input is exhausted. */
void input_bytes(struct input *in, void *out, size_t n);

/* Fill nwords little-endian words of wordsize bytes (1, 2, 4 or 8) with one of several
 * patterns chosen by the input: payload bytes; all zero; all ones; the top bit alone; a carry
 * chain (all ones with the occasional payload word); or word by word from {0, 1, top bit,
 * all ones, payload}. */
void input_fill_words(struct input *in, void *out, size_t nwords, size_t wordsize);

static inline size_t input_remaining(const struct input *in)
{
    return in->size;
}

#endif
