/* properties.h — a family's case properties: the few small values its kernels branch on (a
 * block count mod the kernel's batch, a tail length, how far a counter's carry runs inside a
 * call), computed from a decoded case at native speed.  Two consumers: the guided fuzz mode
 * (backend_guided.c) turns each (property, value) into a libFuzzer extra counter, so an input
 * that reaches a new class of case is kept even though the kernel itself adds no counters; and
 * the coverage mode (backend_coverage.c, ASMDIFF_COVERAGE_PROPERTIES=1) shows against the
 * emulator which property value implies each branch direction a kernel took, so the
 * properties are shown to track the kernels' paths (docs/coverage.md).
 *
 * A family that declares properties defines asmdiff_properties (strong); blockcipher.c holds a
 * weak one for the cipher families.  Without one, the guided mode falls back to the kernels'
 * small integer arguments. */
#ifndef ASMDIFF_PROPERTIES_H
#define ASMDIFF_PROPERTIES_H

#include <stddef.h>
#include <stdint.h>

#define PROP_IDS 16    /* properties per family */
#define PROP_VALUES 256 /* values per property: a larger value counts as the last */
#define PROP_MAX 96    /* (property, value) pairs per case */

struct case_property {
    uint8_t id;    /* index into names */
    uint16_t value; /* < PROP_VALUES */
};

struct family_properties {
    const char *const *names; /* per id: "ctr-carry-byte" */
    size_t nnames;
    /* The case's pairs into out (at most max); returns how many.  A pair may repeat (one per
     * kernel call of the case). */
    size_t (*of)(const void *c, struct case_property *out, size_t max);
};

extern const struct family_properties asmdiff_properties __attribute__((weak));

/* 0 for 0, else 1 + floor(log2 v), at most PROP_VALUES - 1: the loop count's scale. */
static inline uint8_t prop_log2(uint64_t v)
{
    uint8_t k = 0;
    while (v) k++, v >>= 1;
    return k;
}

static inline size_t prop_add(struct case_property *out, size_t n, size_t max, unsigned id,
                              uint64_t value)
{
    if (n < max) {
        out[n].id = (uint8_t)id;
        out[n].value = (uint16_t)(value < PROP_VALUES ? value : PROP_VALUES - 1);
        n++;
    }
    return n;
}

#endif
