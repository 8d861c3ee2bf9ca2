/* backend_guided.c — the native mode with guidance that sees the kernels, for fuzz_<family>.
 * libFuzzer's coverage never sees inside a .S kernel, and the harness is left uninstrumented
 * for speed, so nothing tells the fuzzer that an input reached a kernel's tail, loop count or
 * counter carry it had not reached before.  Each case sets counters in libFuzzer's
 * extra-counters section (__libfuzzer_extra_counters; libFuzzer clears it before each input
 * and keeps an input that sets a counter none before it did):
 *   - the family's case properties (properties.h: blocks mod the batch, the CTR counter's
 *     carry position, n mod 4 ...), one counter per (property, value);
 *   - for a family that declares none, each kernel call's small integer arguments (below
 *     2^20: the value mod 64 and its power-of-two bucket, per function and argument).
 * Calls run exactly as in the native mode.  ASMDIFF_GUIDANCE=0 turns it off, =1 on; the
 * default and the measurement behind it are in docs/coverage.md. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "properties.h"

/* On unless ASMDIFF_GUIDANCE=0 (see docs/coverage.md, "Guidance"). */
#define GUIDE_DEFAULT_ON 1

#define GUIDE_FNS 32 /* slots for the functions called, by address */
#define GUIDE_ARGS 6
#define GUIDE_MOD 64
#define GUIDE_LOG 21 /* 0, then [2^k, 2^(k+1)) for k < 20 */
#define GUIDE_PER_ARG (GUIDE_MOD + GUIDE_LOG)
#define GUIDE_ARG_COUNTERS (GUIDE_FNS * GUIDE_ARGS * GUIDE_PER_ARG)

/* libFuzzer reads the section __libfuzzer_extra_counters as features (Linux, x86-64): the
 * properties first, then the arguments' counters. */
__attribute__((section("__libfuzzer_extra_counters"), used))
static unsigned char guide_counters[PROP_IDS * PROP_VALUES + GUIDE_ARG_COUNTERS];

static int by_properties; /* the family declares properties: the arguments set nothing */

static void note(size_t slot, size_t arg, uint64_t v)
{
    unsigned char *c = &guide_counters[PROP_IDS * PROP_VALUES +
                                       (slot * GUIDE_ARGS + arg) * GUIDE_PER_ARG];
    unsigned log = 0;
    if (v >= (1u << 20)) return;
    c[v % GUIDE_MOD]++;
    while (v >> log) log++;
    c[GUIDE_MOD + log]++;
}

static uint64_t guided_call(struct drv_pass *p, const void *fn, const uint64_t *argv,
                            size_t argc)
{
    if (!by_properties && (p->impl->flags & IMPL_KERNEL)) {
        size_t slot = (size_t)(((uintptr_t)fn * 0x9e3779b97f4a7c15ull) >> 59) % GUIDE_FNS;
        for (size_t i = 0; i < argc && i < GUIDE_ARGS; i++) note(slot, i, argv[i]);
    }
    return backend_native.call(p, fn, argv, argc);
}

static void guided_check_case(const struct drv_case *k)
{
    if (by_properties) {
        struct case_property p[PROP_MAX];
        size_t n = asmdiff_properties.of(k->c, p, PROP_MAX);
        for (size_t i = 0; i < n; i++)
            if (p[i].id < PROP_IDS) guide_counters[p[i].id * PROP_VALUES + p[i].value]++;
    }
    drv_check_placements(k);
}

static int guided_setup(const char **why)
{
    const char *e = getenv("ASMDIFF_GUIDANCE");
    int on = e && *e ? strcmp(e, "0") != 0 : GUIDE_DEFAULT_ON;
    if (!on) {
        *why = GUIDE_DEFAULT_ON ? "ASMDIFF_GUIDANCE=0 turned it off"
                                : "ASMDIFF_GUIDANCE=1 turns it on";
        return -1;
    }
    by_properties = &asmdiff_properties && asmdiff_properties.of;
    return 0;
}

const struct backend backend_guided = {
    .name = "native",
    .setup = guided_setup,
    .emulated = emulated_runs,
    .call = guided_call,
    .check_case = guided_check_case,
};
