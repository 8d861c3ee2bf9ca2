/* stats.h — what the driver ran, for honest summaries (driver.c counts, tool_main.c prints). */
#ifndef ASMDIFF_STATS_H
#define ASMDIFF_STATS_H

#include <stdint.h>

struct drv_stats {
    unsigned long long cases, calls;
    unsigned long long ran[64];     /* cases each implementation ran, by table index */
    unsigned long long skipped[64]; /* cases it could not run here */
    unsigned long long vector_failures; /* the reference itself against published answers */
};

extern struct drv_stats drv_stats;

#endif
