/* asm-common-amd64.h — asmdiff's stand-in for libgcrypt's amd64 assembly helper macros, so a
 * cipher/<name>-amd64.S or mpi/amd64 file builds outside libgcrypt's tree (./asmdiff check).
 *
 * Written from what each macro must do on x86-64 ELF with the System V calling convention,
 * which is all the checked call exercises: ELF() keeps its ELF-only directives, CFI_*() emit
 * the matching .cfi directives, ret_spec_stop returns (and stops straight-line speculation with
 * int3), the Win64 parameter shims are empty, and the register clearing helpers zero what they
 * name.  An author who prefers the real header passes --include with their cipher/ folder (and
 * their build's config.h). */
#ifndef ASMDIFF_OUTSIDE_ASM_COMMON_AMD64_H
#define ASMDIFF_OUTSIDE_ASM_COMMON_AMD64_H

#define ELF(...) __VA_ARGS__
#define SECTION_RODATA .section .rodata

#define CFI_STARTPROC() .cfi_startproc
#define CFI_ENDPROC() .cfi_endproc
#define CFI_REMEMBER_STATE() .cfi_remember_state
#define CFI_RESTORE_STATE() .cfi_restore_state
#define CFI_ADJUST_CFA_OFFSET(off) .cfi_adjust_cfa_offset off
#define CFI_REL_OFFSET(reg, off) .cfi_rel_offset reg, off
#define CFI_DEF_CFA_REGISTER(reg) .cfi_def_cfa_register reg
#define CFI_REGISTER(ro, rn) .cfi_register ro, rn
#define CFI_RESTORE(reg) .cfi_restore reg
#define CFI_PUSH(reg) CFI_ADJUST_CFA_OFFSET(8); CFI_REL_OFFSET(reg, 0)
#define CFI_POP(reg) CFI_ADJUST_CFA_OFFSET(-8); CFI_RESTORE(reg)
#define CFI_POP_TMP_REG() CFI_ADJUST_CFA_OFFSET(-8)
#define CFI_LEAVE() CFI_ADJUST_CFA_OFFSET(-8); CFI_DEF_CFA_REGISTER(%rsp)

/* System V only: the Win64 argument shuffles are not needed */
#define ENTER_SYSV_FUNC_PARAMS_0_4
#define ENTER_SYSV_FUNC_PARAMS_5
#define ENTER_SYSV_FUNC_PARAMS_6
#define EXIT_SYSV_FUNC

#define rRIP (%rip)
#define GET_EXTERN_POINTER(name, reg) leaq name(%rip), reg

#define ret_spec_stop ret; int3;

#define CLEAR_REG(reg) pxor reg, reg
#define vzeroall_clear vzeroall

#endif
