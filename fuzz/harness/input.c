/* input.c — see input.h.  Pure functions of the input: no global state, no randomness. */
#include "input.h"

#include <string.h>

uint64_t input_range(struct input *in, uint64_t min, uint64_t max)
{
    if (min >= max) return min;
    uint64_t range = max - min, result = 0;
    size_t used = 0;
    /* One tail byte per 8 bits of range, as FuzzedDataProvider::ConsumeIntegralInRange. */
    while (used < sizeof(uint64_t) && (range >> (used * 8)) > 0 && in->size > 0) {
        result = (result << 8) | in->data[in->size - 1];
        in->size--;
        used++;
    }
    if (range != UINT64_MAX) result %= range + 1;
    return min + result;
}

static size_t clamp(long long v, size_t max)
{
    if (v < 0) return 0;
    if ((unsigned long long)v > max) return max;
    return (size_t)v;
}

size_t input_length(struct input *in, size_t max, const size_t *widths, size_t nwidths)
{
    switch (input_pick(in, 8)) {
    case 0: /* small: where loops have not started yet */
        return (size_t)input_range(in, 0, max < 8 ? max : 8);
    case 1: case 2: { /* around a multiple of a kernel width */
        size_t w = nwidths ? widths[input_pick(in, (unsigned)nwidths)] : 1;
        if (w == 0) w = 1;
        size_t k = (size_t)input_range(in, 0, max / w);
        int d = (int)input_range(in, 0, 2) - 1;
        return clamp((long long)(k * w) + d, max);
    }
    case 3: { /* a power of two, or one either side */
        unsigned bits = 0;
        while (bits < 63 && (1ull << (bits + 1)) <= max) bits++;
        size_t p = (size_t)1 << input_range(in, 0, bits);
        int d = (int)input_range(in, 0, 2) - 1;
        return clamp((long long)p + d, max);
    }
    case 4: /* the largest ones */
        return max - (size_t)input_range(in, 0, max < 2 ? max : 2);
    default: /* anywhere */
        return (size_t)input_range(in, 0, max);
    }
}

void input_bytes(struct input *in, void *out, size_t n)
{
    size_t take = n < in->size ? n : in->size;
    memcpy(out, in->data, take);
    memset((uint8_t *)out + take, 0, n - take);
    in->data += take;
    in->size -= take;
}

static void put_word(uint8_t *p, size_t wordsize, uint64_t v)
{
    for (size_t i = 0; i < wordsize; i++) p[i] = (uint8_t)(v >> (8 * i));
}

void input_fill_words(struct input *in, void *out, size_t nwords, size_t wordsize)
{
    uint8_t *p = out;
    const uint64_t ones = wordsize >= 8 ? UINT64_MAX : (1ull << (8 * wordsize)) - 1;
    const uint64_t top = 1ull << (8 * wordsize - 1);

    switch (input_pick(in, 8)) {
    case 0: case 1: case 2: /* payload */
        input_bytes(in, p, nwords * wordsize);
        return;
    case 3:
        memset(p, 0, nwords * wordsize);
        return;
    case 4:
        memset(p, 0xff, nwords * wordsize);
        return;
    case 5:
        for (size_t i = 0; i < nwords; i++) put_word(p + i * wordsize, wordsize, top);
        return;
    case 6: { /* carry chain: all ones, with one payload word every so often */
        size_t every = (size_t)input_range(in, 1, 64);
        memset(p, 0xff, nwords * wordsize);
        for (size_t i = every - 1; i < nwords; i += every) input_bytes(in, p + i * wordsize, wordsize);
        return;
    }
    default: { /* word by word from the edge values, chosen by payload bits */
        uint8_t sel = 0;
        for (size_t i = 0; i < nwords; i++) {
            if (i % 2 == 0) input_bytes(in, &sel, 1);
            else sel >>= 4;
            uint64_t v;
            switch (sel & 7) {
            case 0: v = 0; break;
            case 1: v = 1; break;
            case 2: v = top; break;
            case 3: case 4: v = ones; break;
            case 5: v = ones - 1; break;
            default:
                input_bytes(in, p + i * wordsize, wordsize);
                continue;
            }
            put_word(p + i * wordsize, wordsize, v);
        }
        return;
    }
    }
}
