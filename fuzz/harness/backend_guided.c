/* backend_guided.c — the native mode with guidance that sees the kernels, for fuzz_<family>.
 * libFuzzer's coverage never sees inside a .S kernel, and the harness is left uninstrumented
 * for speed, so nothing tells the fuzzer that an input reached a kernel's tail or loop count
 * it had not reached before.  What a kernel branches on is mostly in its integer arguments
 * (block and word counts, lengths, key sizes): each call of a kernel of ours sets counters in
 * libFuzzer's extra-counters section for every small argument — the value mod 64 (n mod 4,
 * blocks mod 64, the tail length) and its power-of-two bucket (the loop count) — per
 * function called (an ECB and a CTR entry point of one implementation apart) and argument.  A pointer (any value of 2^20 or more) sets none.  libFuzzer
 * clears the section before each input and keeps an input that sets a counter none before it
 * did.  Calls run exactly as in the native mode.  Opt-in, ASMDIFF_GUIDANCE=1: measured from
 * an empty corpus it did not reach the kernels' blocks sooner (docs/coverage.md), while it
 * doubles the corpus. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"

#define GUIDE_FNS 32 /* slots for the functions called, by address */
#define GUIDE_ARGS 6
#define GUIDE_MOD 64
#define GUIDE_LOG 21 /* 0, then [2^k, 2^(k+1)) for k < 20 */
#define GUIDE_PER_ARG (GUIDE_MOD + GUIDE_LOG)

/* libFuzzer reads the section __libfuzzer_extra_counters as features (Linux, x86-64). */
__attribute__((section("__libfuzzer_extra_counters"), used))
static unsigned char guide_counters[GUIDE_FNS * GUIDE_ARGS * GUIDE_PER_ARG];

static void note(size_t slot, size_t arg, uint64_t v)
{
    unsigned char *c = &guide_counters[(slot * GUIDE_ARGS + arg) * GUIDE_PER_ARG];
    unsigned log = 0;
    if (v >= (1u << 20)) return;
    c[v % GUIDE_MOD]++;
    while (v >> log) log++;
    c[GUIDE_MOD + log]++;
}

static uint64_t guided_call(const void *fn, const uint64_t *argv, size_t argc)
{
    if (drv.cur->flags & IMPL_KERNEL) {
        size_t slot = (size_t)(((uintptr_t)fn * 0x9e3779b97f4a7c15ull) >> 59) % GUIDE_FNS;
        for (size_t i = 0; i < argc && i < GUIDE_ARGS; i++) note(slot, i, argv[i]);
    }
    return backend_native.call(fn, argv, argc);
}

static int guided_setup(const char **why)
{
    const char *e = getenv("ASMDIFF_GUIDANCE");
    if (!e || strcmp(e, "1")) {
        *why = "ASMDIFF_GUIDANCE=1 turns it on";
        return -1;
    }
    return 0;
}

const struct backend backend_guided = {
    .name = "native",
    .setup = guided_setup,
    .emulated = emulated_runs,
    .call = guided_call,
    .check_case = drv_check_placements,
};
