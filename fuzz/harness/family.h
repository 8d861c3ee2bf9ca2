/* family.h — what every fuzz/<family>.c provides to the shared drivers.
 *
 * The same fuzz target source is linked two ways: with libFuzzer (fuzz_<family>, sanitizers on)
 * and with tool_main.c (asmdiff-<family>, plain optimized build), which replays files and
 * directories, lists implementations, runs the known-answer and exhaustive checks, and benches.
 */
#ifndef ASMDIFF_FAMILY_H
#define ASMDIFF_FAMILY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct impl_info {
    const char *name;  /* "x86_64-unroll4": <isa>[-<form>] */
    uint64_t needs;    /* CPU features (cpu.h); 0 for portable C */
};

struct family {
    const char *name;
    /* One fuzz input: decode, run the reference and every runnable implementation, compare. */
    int (*one_input)(const uint8_t *data, size_t size);
    /* Registered implementations, for `list`. */
    size_t nimpls;
    const struct impl_info *(*impl)(size_t i);
    /* Oracles and library paths this build has, one line each, for `list` (may be NULL). */
    void (*list_extra)(FILE *out);
    /* Published vectors on every implementation; returns the number of failures. */
    int (*kat)(const char *srcdir);
    /* Small domains checked completely; returns the number of failures. */
    int (*exhaustive)(void);
    /* bench-slope rows for every implementation and peer; 0 on success. */
    int (*bench)(FILE *out, int csv);
};

extern const struct family asmdiff_family;

/* Runnable here?  NULL if so, else why not (host lacks / masked). */
const char *impl_unavailable(const struct impl_info *info);

#endif
