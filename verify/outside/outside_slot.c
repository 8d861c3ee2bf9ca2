/* outside_slot.c — one outside kernel of a check build (./asmdiff check), as the driver sees it
 * (driver.h: struct outside_kernel).  Compiled only into check builds, once per kernel, with that
 * kernel's meson options (outside_symbol, outside_source, ... one element each) as macros:
 * OUTSIDE_VAR names the slot (asmdiff_outside, asmdiff_outside1, ...); OUTSIDE_RENAMED is the
 * entry point as rename_syms.py renamed it in this kernel's object alone (asmdiff_slot<i>_<name>),
 * so the function called is the one the file given defines, never a function of the same name
 * elsewhere in the program (our own kernel, the file before a patch). */
#include "driver.h"

#define OUTSIDE_STR_(x) #x
#define OUTSIDE_STR(x) OUTSIDE_STR_(x)

/* The kernel itself: its real prototype is the convention's; the family calls it that way.
 * A strong reference: a file that does not define the symbol does not link (rename_syms.py
 * stops the build before, naming the symbols the file does define). */
void OUTSIDE_RENAMED(void);
/* Every global function of the same file, by its name there (generated beside its renamed
 * object: rename_syms.py --entries). */
extern const struct outside_entry OUTSIDE_ENTRIES[];

const struct outside_kernel OUTSIDE_VAR = {
    .symbol = OUTSIDE_STR(OUTSIDE_SYMBOL),
    .source = OUTSIDE_SOURCE,
    .convention = OUTSIDE_CONVENTION,
    .needs = OUTSIDE_NEEDS,
    .op = OUTSIDE_OP,
    .name = OUTSIDE_NAME,
    .fn = (const void *)OUTSIDE_RENAMED,
    .entries = OUTSIDE_ENTRIES,
};
