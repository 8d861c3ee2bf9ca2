/* outside_slot.c — one outside kernel of a check build (./asmdiff check), as the driver sees it
 * (driver.h: struct outside_kernel).  Compiled only into check builds, once per kernel, with that
 * kernel's meson options (outside_symbol, outside_source, ... one element each) as macros:
 * OUTSIDE_VAR names the slot (asmdiff_outside, asmdiff_outside1, ...), OUTSIDE_LINK the symbol
 * as linked (the old file's symbols are renamed when the new file defines the same ones). */
#include "driver.h"

#define OUTSIDE_STR_(x) #x
#define OUTSIDE_STR(x) OUTSIDE_STR_(x)

/* The kernel itself: its real prototype is the convention's; the family calls it that way. */
void OUTSIDE_LINK(void);

const struct outside_kernel OUTSIDE_VAR = {
    .symbol = OUTSIDE_STR(OUTSIDE_SYMBOL),
    .source = OUTSIDE_SOURCE,
    .convention = OUTSIDE_CONVENTION,
    .needs = OUTSIDE_NEEDS,
    .op = OUTSIDE_OP,
    .name = OUTSIDE_NAME,
    .fn = (const void *)OUTSIDE_LINK,
};
