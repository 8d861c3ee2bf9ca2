/* srcline.h — an instruction's run-time address told the way a kernel author reads it: the
 * symbol and offset (`nh_sse2_permload+0x2d`) and the source line
 * (`kernels/nh/nh-x86_64-sse2-permload.S:87`).
 *
 * Built on libdw (elfutils) where the build has it (ASMDIFF_HAVE_LIBDW): the process's own
 * modules, their symbol tables (local symbols included) and their DWARF line tables, read on
 * the first lookup, never on the fuzzing hot path.  Without libdw nothing is known and every
 * lookup says so.  A file under the source root is named relative to it (ASMDIFF_SOURCE_ROOT),
 * any other (an outside kernel's) by its absolute path. */
#ifndef ASMDIFF_SRCLINE_H
#define ASMDIFF_SRCLINE_H

#include <stddef.h>
#include <stdint.h>

struct srcline {
    const char *symbol;   /* NULL when no symbol covers the address */
    uintptr_t sym_offset; /* the address less the symbol's value */
    const char *file;     /* NULL when the address has no line information */
    int line;             /* 0 likewise */
};

/* 1 when this build can find source lines (built with libdw). */
int srcline_available(void);
/* Fills *out for pc; returns 1 when a symbol or a line was found.  The strings stay valid until
 * the next lookup.  The first call loads the tables: it allocates, and may run inside the
 * guard-page signal handler (the fault is in a kernel, not in malloc, so the heap is whole). */
int srcline_lookup(uintptr_t pc, struct srcline *out);
/* "sym+0x2d (file:87)", "sym+0x2d (source line unknown)", "0x7f... (no symbol; source line
 * unknown)": the report's instruction line. */
void srcline_format(uintptr_t pc, const struct srcline *s, char *buf, size_t len);

#endif
