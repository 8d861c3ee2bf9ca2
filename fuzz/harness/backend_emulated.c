/* backend_emulated.c — the emulated call: a kernel whose ISA this CPU lacks (or the mask
 * hides) runs inside emu_call (emu/emu_call.h) with the checked call's contract, so the same
 * checks judge it.  Used by the native and emu-diff modes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmdiff-config.h"
#include "backend.h"
#include "cpu.h"

#if ARCH_X86_64
#include "emu/emu_call.h"
_Static_assert(EMU_MAX_ARGS >= ABI_MAX_ARGS, "the emulator passes every argument a checked call has");
#endif

/* Linked in (Unicorn present), and ASMDIFF_EMULATE is not 0. */
static int emulator_allowed(void)
{
#if ARCH_X86_64
    static int allowed = -1;
    if (allowed < 0) {
        const char *e = getenv("ASMDIFF_EMULATE");
        allowed = !(e && !strcmp(e, "0")) && emu_available();
        if (allowed) abi_set_emulator(emu_call, emu_stack, EMU_STACK_POISON);
    }
    return allowed;
#else
    return 0;
#endif
}

int emulated_runs(const struct impl *im)
{
    /* the features it needs that this CPU lacks or the mask hides: the test of
     * cpu_unavailable_reason without formatting its message (a snprintf per call, 7% of an
     * emulated Camellia input) */
    return emulator_allowed() && (im->flags & IMPL_KERNEL) && (im->needs & ~cpu_features()) &&
           !(im->unavailable && im->unavailable());
}

uint64_t emulated_call(const char *name, int clean, const void *fn, const uint64_t *argv,
                       size_t argc)
{
#if ARCH_X86_64
    /* A function of the implementation that needs nothing this CPU could lack (a scalar key
     * schedule beside the AVX-512 kernels) runs natively, through the same checked call: in
     * the executor it cost half of an emulated Camellia input. */
    if (!emu_needs_emulation(fn))
        return clean ? abi_call_clean(name, fn, argv, argc) : abi_call(name, fn, argv, argc);
    abi_emulate(1);
    uint64_t r = clean ? abi_call_clean(name, fn, argv, argc) : abi_call(name, fn, argv, argc);
    abi_emulate(0);
    return r;
#else
    (void)name, (void)clean, (void)fn, (void)argv, (void)argc;
    abort(); /* emulated_runs is 0 here */
#endif
}

int emulated_available(void)
{
    return emulator_allowed();
}

uint64_t emulated_call_isa(const char *name, int clean, uint32_t declared, const void *fn,
                           const uint64_t *argv, size_t argc)
{
#if ARCH_X86_64
    if (!emulator_allowed()) abort(); /* backend_isa's setup said so first */
    emu_set_isa(1, declared);
    abi_emulate(1);
    uint64_t r = clean ? abi_call_clean(name, fn, argv, argc) : abi_call(name, fn, argv, argc);
    abi_emulate(0);
    emu_set_isa(0, 0);
    return r;
#else
    (void)name, (void)clean, (void)declared, (void)fn, (void)argv, (void)argc;
    abort();
#endif
}

/* The bench's emulated row: fn(argv) in the emulator with no verdicts (the engine's own speed;
 * bounds and faults still stop it).  0, or -1 with the reason in err. */
int emulated_plain_call(const void *fn, const uint64_t *argv, size_t argc, uint64_t *ret,
                        char *err, size_t errlen)
{
#if ARCH_X86_64
    struct abi_state before, after;
    memset(&before, 0, sizeof before);
    before.vec_mode = ABI_VEC_AVX512;
    before.mxcsr = 0x1f80;
    before.x87cw = 0x37f;
    uint64_t r = 0;
    int rc = emu_call(fn, argv, argc, &before, &after, &r, err, errlen);
    if (ret) *ret = r;
    return rc;
#else
    (void)fn, (void)argv, (void)argc, (void)ret;
    snprintf(err, errlen, "no emulator on this architecture");
    return -1;
#endif
}

uint64_t emulated_last_pc(void)
{
#if ARCH_X86_64
    return emu_last_pc();
#else
    return 0;
#endif
}
