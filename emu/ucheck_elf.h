/* ucheck_elf.h — names for addresses of the running program, from its own ELF symbol table.
 *
 * The Unicorn checks run a kernel at the address it has in this process, so every address they
 * report (an instruction, a constant table) is an address of this program.  Reading the .symtab
 * of /proc/self/exe turns it into "nh_sse2_permload+0x7c", and gives the size of a symbol that
 * an assembly file declared with .size (a constant table the caller wants to declare as a
 * region).  Only the main executable is read: kernels are linked into it, never loaded from a
 * shared library.  A stripped binary still works; addresses are then printed in hex.
 */
#ifndef ASMDIFF_UCHECK_ELF_H
#define ASMDIFF_UCHECK_ELF_H

#include <stddef.h>
#include <stdint.h>

/* Reads the symbol table once; later calls return at once.  0 on success, -1 when the table
 * could not be read (the other functions then find nothing). */
int elfsym_load(void);

/* The run-time address and size of the function or object `name`.  0 when found. */
int elfsym_lookup(const char *name, uint64_t *addr, uint64_t *size);

/* The size of the function (STT_FUNC, with an ELF .size) that starts at a run-time address.
 * 0 when there is one. */
int elfsym_function_at(uint64_t addr, uint64_t *size);

/* Writes "symbol+0xoff" for a run-time address (the symbol whose [start, start+size) holds it,
 * else the nearest one below it), or "0x..." when none is known.  Returns buf. */
const char *elfsym_format(uint64_t addr, char *buf, size_t len);

/* A sized data object of the program: a symbol with an ELF .size (functions excluded). */
struct elfsym_object {
    uint64_t addr, size;
    const char *name;
};

/* The sized data objects that lie inside [lo, hi) (.rodata: the constant tables of kernels that
 * declare them with .size), sorted by address, one per address; *objs points into a table of
 * this module (valid until the next call).  *unsized gets how many symbols there have no size
 * (a table's label without .size): where they are, a table's bounds are not known.  Returns
 * the number of objects. */
size_t elfsym_objects_in(uint64_t lo, uint64_t hi, const struct elfsym_object **objs,
                         size_t *unsized);

/* The run-time address and size of an allocated section of the program (".rodata").  0 when
 * found.  For kernels whose constant tables are local labels without symbols: their reads are
 * then judged against the section. */
int elfsec_lookup(const char *name, uint64_t *addr, uint64_t *size);

#endif
