/* backend_native.c — the default mode: every call through the checked call (abi.h), every
 * implementation in every placement; a kernel this CPU cannot run goes to the emulated call
 * (backend_emulated.c). */
#include <string.h>

#include "backend.h"
#include "stats.h"

static uint64_t native_call(struct drv_pass *p, const void *fn, const uint64_t *argv,
                            size_t argc)
{
    const struct impl *im = p->impl;
    const char *name = impl_name(im);
    int clean = (im->flags & IMPL_CLEAN) != 0;
    double t0 = drv_timing() ? drv_now_ns() : 0;
    int emulated = emulated_runs(im);
    drv_stats.emulated_calls += (unsigned)emulated;
    uint64_t r = emulated ? emulated_call(name, clean, fn, argv, argc)
                 : clean           ? abi_call_clean(name, fn, argv, argc)
                                   : abi_call(name, fn, argv, argc);
    if (abi_call_abandoned()) p->abandoned = 1; /* it faulted: guard.c reported it */
    if (drv_timing())
        *(im->flags & IMPL_LIBRARY ? &drv_stats.ns_libraries : &drv_stats.ns_kernels) +=
            drv_now_ns() - t0;
    drv_stats.calls++;
    drv_stats.impl_calls[p->index]++;
    if (!p->abandoned) drv_after_call(p);
    return r;
}

void drv_check_placements(const struct drv_case *k)
{
    void *c = k->c;
    const void *want = k->want;
    for (size_t i = 0; i < drv_nimpls(); i++) {
        if (!drv_takes(i, c, 1)) continue;
        if (drv_impl_at(i)->flags & IMPL_LIBRARY) {
            /* a library is an oracle first: one placement per case, the side the input chose
             * (its bounds are the library's business; ours are checked on every side) */
            drv_pass(i, c, want, k->input_side, NULL,
                     k->input_side == GUARD_TAIL
                         ? "flush against the guard page after each buffer"
                         : "flush against the guard page before each buffer");
            drv_stats.ran[i]++;
            continue;
        }
        /* flush after, flush before: an overread or overwrite in either direction faults */
        drv_pass(i, c, want, GUARD_TAIL, NULL, "flush against the guard page after each buffer");
        drv_pass(i, c, want, GUARD_HEAD, NULL, "flush against the guard page before each buffer");
        if (k->input_offset)
            drv_pass(i, c, want, k->input_side, k->input_offset,
                     "misaligned as the input chose (canaries on both sides)");
        drv_stats.ran[i]++;
    }
}

const struct backend backend_native = {
    .name = "native",
    .emulated = emulated_runs,
    .call = native_call,
    .check_case = drv_check_placements,
};
