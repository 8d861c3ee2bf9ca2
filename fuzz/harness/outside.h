/* outside.h — the outside kernels of a check build (outside.c; ./asmdiff check): each one more
 * implementation made from the family's convention of its name (driver.h: struct convention).
 * Internal to the driver: families see driver.h only. */
#ifndef ASMDIFF_OUTSIDE_H
#define ASMDIFF_OUTSIDE_H

#include <stddef.h>

#include "driver.h"
#include "report.h"

/* The outside kernels of a check build (outside.c). */
void outside_setup(void);
const struct impl *outside_impl(void); /* the first; NULL in other builds */
size_t outside_count(void);
const struct impl *outside_at(size_t i);
const struct outside_kernel *outside_kernel_of(const struct impl *im); /* NULL: not one */
/* 0 when c is outside the convention's precondition (not its contract). */
int outside_accepts(const struct impl *im, const void *c);
/* The operations it was checked as, and those it was not ("a, b"; "none"). */
const char *outside_covers(const struct impl *im);
const char *outside_not_covered(const struct impl *im);
/* 1 when im is an outside kernel whose convention allows this leftover (noted as
 * information, not a finding). */
int outside_allows(const struct impl *im, enum finding kind, const char *what);

#endif
