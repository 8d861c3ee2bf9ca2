/* backend_dispatch.c — the libraries' own CPU dispatch (mode `dispatch`): only the libraries
 * run (OpenSSL, libgcrypt, nettle, GMP: the family's oracles and targets), natively, each on
 * the path its own CPUID check chooses, and are judged against the C reference.
 *
 * Our library levels (libgcrypt's hardware-feature levels, ASMDIFF_CPU_MASK) mask features
 * from inside the library, so they only ever take a path the CPU has; a guard that admits a
 * path on a CPU without one of its instructions (Linux 8b844753's shape, libgcrypt T7184's,
 * OpenSSL's RISC-V PR 30714's) is never run that way.  This mode is that run: under a host
 * profile (qemu-x86_64 -cpu MODEL refuses what MODEL lacks, and its CPUID is what the
 * libraries see) each library's top path for the model runs, and an instruction the model does
 * not have is the ILLEGAL INSTRUCTION finding (abi.c's SIGILL report: the instruction, the
 * feature it needs, the library and symbol).  On this CPU it is the host's own dispatch.
 * So no mask is taken: with ASMDIFF_CPU_MASK set the mode refuses to run. */
#include <stdlib.h>

#include "backend.h"

static const char *libraries_only(const struct impl *im)
{
    return im->flags & IMPL_LIBRARY ? NULL : "ours (the dispatch mode runs the libraries)";
}

static int never_emulated(const struct impl *im)
{
    (void)im;
    return 0;
}

static uint64_t dispatch_call(struct drv_pass *p, const void *fn, const uint64_t *argv,
                              size_t argc)
{
    return backend_native.call(p, fn, argv, argc);
}

static int dispatch_setup(const char **why)
{
    const char *mask = getenv("ASMDIFF_CPU_MASK");
    if (mask && *mask) {
        *why = "ASMDIFF_CPU_MASK is set: the dispatch mode runs each library as the CPU (or the "
               "host profile's model) makes it choose, with no mask";
        return -1;
    }
    return 0;
}

const struct backend backend_dispatch = {
    .name = "dispatch",
    .setup = dispatch_setup,
    .unavailable = libraries_only,
    .emulated = never_emulated,
    .call = dispatch_call,
    .check_case = drv_check_placements,
    .subject = IMPL_LIBRARY,
};
