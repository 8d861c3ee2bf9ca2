/* outside_slot.c — one outside kernel of a check build (./asmdiff check), as the driver sees it
 * (driver.h: struct outside_kernel).  Compiled only into check builds, once per kernel, with that
 * kernel's meson options (outside_symbol, outside_source, ... one element each) as macros:
 * OUTSIDE_VAR names the slot (asmdiff_outside, asmdiff_outside1, ...); OUTSIDE_RENAMED is the
 * symbol's name when its object was renamed (rename_syms.py: the family's own kernels or an
 * earlier outside kernel define the same one: the file before a patch, our own file). */
#include "driver.h"

#define OUTSIDE_STR_(x) #x
#define OUTSIDE_STR(x) OUTSIDE_STR_(x)

/* The kernel itself: its real prototype is the convention's; the family calls it that way.
 * Both names weak: outside.c takes the renamed one when it is there, else the symbol, and
 * refuses a slot with neither. */
void OUTSIDE_SYMBOL(void) __attribute__((weak));
void OUTSIDE_RENAMED(void) __attribute__((weak));

const struct outside_kernel OUTSIDE_VAR = {
    .symbol = OUTSIDE_STR(OUTSIDE_SYMBOL),
    .source = OUTSIDE_SOURCE,
    .convention = OUTSIDE_CONVENTION,
    .needs = OUTSIDE_NEEDS,
    .op = OUTSIDE_OP,
    .name = OUTSIDE_NAME,
    .fn = (const void *)OUTSIDE_SYMBOL,
    .fn_renamed = (const void *)OUTSIDE_RENAMED,
};
