/* fuzz_main.c — the libFuzzer entry points of fuzz_<family>: the family driver's one input.
 * At start it says what will run, natively or emulated (on stderr, and as records in the result
 * stream), and refuses to fuzz when no kernel of ours would run, natively or emulated, whatever
 * the reason (masked away, or a host without their ISA and a build without the executor): a
 * fuzz run that checks nothing of ours is a failure, not a pass, on a bot as anywhere. */
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "cpu.h"
#include "driver.h"
#include "records.h"
#include "report.h"
#include "results.h"
#include "stats.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const struct family *f = &asmdiff_family;
    size_t total = 0, runs = 0, kernels = 0, kernels_run = 0, emulated = 0;
    cpu_features(); /* validates ASMDIFF_CPU_MASK */
    report_set_policy(&report_stop_at_first); /* libFuzzer keeps the input of the first */
    /* guidance: the family's case properties as extra features (backend_guided.c; its
     * default and ASMDIFF_GUIDANCE there); else the plain native mode */
    const char *no_guidance;
    if (!drv_use_backend(&backend_guided, &no_guidance))
        fprintf(stderr, "asmdiff: fuzz_%s: kernel guidance on (case properties as extra "
                        "counters)\n", f->name);
    results_init(*argc ? (*argv)[0] : "fuzz", f->name, "libfuzzer");
    drv_record_start(*argc, *argv);
    fprintf(stderr, "asmdiff: fuzz_%s:", f->name);
    for (size_t i = 0; i < drv_nimpls(); i++) {
        const struct impl *im = drv_impl_at(i);
        if (im->flags & IMPL_REFERENCE) continue;
        const char *why = impl_unavailable(im);
        total++, runs += !why;
        if (im->flags & IMPL_KERNEL) kernels++, kernels_run += !why;
        int emu = !why && impl_emulated(im);
        emulated += emu;
        fprintf(stderr, " %s%s%s", impl_name(im), why ? " (n/a: " : emu ? " (emulated" : "",
                why ? why : "");
        if (why || emu) fputc(')', stderr);
        drv_record_impl(i, 0);
    }
    fprintf(stderr, "; runs %zu of %zu implementations", runs, total);
    if (emulated) fprintf(stderr, " (%zu of them emulated)", emulated);
    fputc('\n', stderr);
    if ((kernels && !kernels_run) || !runs) {
        fprintf(stderr, "asmdiff: fuzz_%s: none of the kernels can run: nothing of ours would be "
                        "checked\n", f->name);
        exit(1);
    }
    atexit(drv_print_stats);
    atexit(drv_record_impls_at_exit); /* the calls each made: docs/results.md */
    atexit(drv_print_tallies_at_exit); /* the family's own counts per case (drv_tally) */
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return drv_one_input(data, size);
}
