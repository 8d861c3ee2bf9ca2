/* linux/linkage.h — asmdiff's stand-in for the Linux kernel's assembly symbol macros, so a
 * kernel .S from lib/crypto or arch/x86/crypto builds as a user-space object (./asmdiff check).
 *
 * Written from what each macro has to produce in an ELF object that the checked call can reach,
 * not from the kernel's definitions: a global (or local) function symbol with its type and size,
 * aligned to 16 bytes.  Control-flow-integrity type hashes, objtool annotations and return
 * thunks have no meaning outside the kernel and expand to nothing; RET is a plain ret.
 * An author who prefers the real headers passes --include pointing into their tree instead (the
 * kernel's own headers then need its generated include files and __ASSEMBLY__). */
#ifndef ASMDIFF_OUTSIDE_LINUX_LINKAGE_H
#define ASMDIFF_OUTSIDE_LINUX_LINKAGE_H

#define SYM_FUNC_START(name) .text; .globl name; .type name, @function; .p2align 4; name:
#define SYM_FUNC_START_NOALIGN(name) .text; .globl name; .type name, @function; name:
#define SYM_FUNC_START_LOCAL(name) .text; .type name, @function; .p2align 4; name:
#define SYM_FUNC_START_WEAK(name) .text; .weak name; .type name, @function; .p2align 4; name:
#define SYM_FUNC_END(name) .size name, . - name
#define SYM_FUNC_ALIAS(alias, name) .globl alias; .set alias, name
#define SYM_FUNC_ALIAS_LOCAL(alias, name) .set alias, name
#define SYM_FUNC_ALIAS_WEAK(alias, name) .weak alias; .set alias, name
#define SYM_TYPED_FUNC_START(name) SYM_FUNC_START(name)
#define SYM_CODE_START(name) SYM_FUNC_START(name)
#define SYM_CODE_START_LOCAL(name) SYM_FUNC_START_LOCAL(name)
#define SYM_CODE_END(name) SYM_FUNC_END(name)
#define SYM_DATA_START(name) .globl name; name:
#define SYM_DATA_START_LOCAL(name) name:
#define SYM_DATA_END(name) .size name, . - name
#define SYM_DATA(name, ...) .globl name; name: __VA_ARGS__
#define SYM_DATA_LOCAL(name, ...) name: __VA_ARGS__

#define RET ret
#define ENDBR
#define ANNOTATE_NOENDBR
#define ANNOTATE_UNRET_SAFE
#define ANNOTATE_RETPOLINE_SAFE
#define ANNOTATE_INTRA_FUNCTION_CALL
#define ANNOTATE_UNRET_END
#define ANNOTATE_NOCFI_SYM(name)

#define __ALIGN .p2align 4
#define ALIGN __ALIGN

#endif
