/* records.h — the driver's records in the result stream (records.c, docs/results.md). */
#ifndef ASMDIFF_RECORDS_H
#define ASMDIFF_RECORDS_H

#include <stddef.h>

#include "driver.h"

/* `start`: argv, the CPU seen, detected and masked, the environment that chose what ran. */
void drv_record_start(int argc, char **argv);
/* `impl` for drv_impl_at(i); with_counts 0 at list and a fuzzer's start (counts null). */
void drv_record_impl(size_t i, int with_counts);
/* "reference", "kernel", "library", "outside" */
const char *drv_impl_kind(const struct impl *im);

/* A fuzzer's end (atexit): every implementation again with its counts, so a consumer knows
 * how many calls each made in the run (./asmdiff check's fuzz row: the outside kernel's). */
void drv_record_impls_at_exit(void);

#endif
