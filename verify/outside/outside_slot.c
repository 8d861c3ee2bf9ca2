/* outside_slot.c — the outside kernel of a check build (./asmdiff check), as the driver sees it
 * (driver.h: struct outside_kernel).  Compiled only into check builds, with the meson options
 * outside_symbol, outside_source, outside_convention, outside_needs and outside_op as macros. */
#include "driver.h"

#define OUTSIDE_STR_(x) #x
#define OUTSIDE_STR(x) OUTSIDE_STR_(x)

/* The kernel itself: its real prototype is the convention's; the family calls it that way. */
void OUTSIDE_SYMBOL(void);

const struct outside_kernel asmdiff_outside = {
    .symbol = OUTSIDE_STR(OUTSIDE_SYMBOL),
    .source = OUTSIDE_SOURCE,
    .convention = OUTSIDE_CONVENTION,
    .needs = OUTSIDE_NEEDS,
    .op = OUTSIDE_OP,
    .fn = (const void *)OUTSIDE_SYMBOL,
};
