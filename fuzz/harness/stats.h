/* stats.h — what the driver ran, for honest summaries (driver.c counts, tool_main.c prints). */
#ifndef ASMDIFF_STATS_H
#define ASMDIFF_STATS_H

#include <stdint.h>
#include <stdio.h>

struct drv_stats {
    unsigned long long cases, calls;
    unsigned long long emulated_calls; /* of them, calls that ran in an emulator */
    unsigned long long ran[64];     /* cases each implementation ran, by table index */
    unsigned long long skipped[64]; /* cases it could not run here */
    unsigned long long refused[64]; /* cases outside its convention's precondition (an
                                       outside kernel's: not its contract) */
    unsigned long long impl_calls[64]; /* calls each implementation made (the impl record's
                                          calls: ./asmdiff check counts an outside kernel's) */
    unsigned long long vector_failures; /* the reference itself against published answers */
    /* ASMDIFF_STATS=1: where an exec's time goes, and how buffers were placed */
    unsigned long long execs;
    double ns_total, ns_decode, ns_reference, ns_kernels, ns_libraries;
    unsigned long long placed[3]; /* buffer placements: flush after, flush before, misaligned */
};

/* Print the time and placement shares to stderr (when ASMDIFF_STATS=1). */
void drv_print_stats(void);
/* The family's tallies (drv_tally), each a line "<prefix><name> per case: ..." on human and
 * a `tally` record; nothing when the family keeps none. */
void drv_print_tallies(FILE *human, const char *prefix);
/* The same at a fuzzer's exit (atexit), on stderr. */
void drv_print_tallies_at_exit(void);

extern struct drv_stats drv_stats;

#endif
