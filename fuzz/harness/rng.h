/* rng.h — the one fixed-seed generator of the project: xorshift64* (S. Vigna, "An experimental
 * exploration of Marsaglia's xorshift generators, scrambled", ACM TOMS 42(4), 2016).  Used where
 * inputs must be regenerated from a seed (seed-based vectors, exhaustive samples, random mode),
 * so a failure repeats exactly.  The state must not be 0. */
#ifndef ASMDIFF_RNG_H
#define ASMDIFF_RNG_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t rng_next(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * UINT64_C(0x2545F4914F6CDD1D);
}

/* n bytes: the low byte of successive outputs' high halves is wasteful; take whole words. */
static inline void rng_fill(uint64_t *x, void *out, size_t n)
{
    uint8_t *p = out;
    while (n) {
        uint64_t w = rng_next(x);
        for (int i = 0; i < 8 && n; i++, n--) *p++ = (uint8_t)(w >> (8 * i));
    }
}

#endif
