/* abi_selftest_riscv64.S — deliberately broken (and a few correct) functions for
 * verify/riscv/abi_selftest_riscv64.c: each broken one breaks exactly one rule of the RISC-V
 * LP64 calling convention that the checked call (fuzz/harness/abi_riscv64.S) must catch.
 * Calling convention: LP64D; arguments in a0-a7, then the stack; result in a0. */

        .option arch, +v
        .text

/* selftest_clobber_sN / selftest_clobber_fsN: overwrite one callee-saved register. */
.macro clobber_s n
        .globl  selftest_clobber_s\n
        .type   selftest_clobber_s\n, @function
selftest_clobber_s\n:
        li      s\n, 0x0123456789abcdef
        ret
        .size   selftest_clobber_s\n, . - selftest_clobber_s\n
.endm
.macro clobber_fs n
        .globl  selftest_clobber_fs\n
        .type   selftest_clobber_fs\n, @function
selftest_clobber_fs\n:
        li      t0, 0x400921fb54442d18       /* pi as a double */
        fmv.d.x fs\n, t0
        ret
        .size   selftest_clobber_fs\n, . - selftest_clobber_fs\n
.endm
        .irp    n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
        clobber_s \n
        clobber_fs \n
        .endr

        .globl  selftest_clobber_gp
        .type   selftest_clobber_gp, @function
selftest_clobber_gp:
        li      gp, 0x6770
        ret
        .size   selftest_clobber_gp, . - selftest_clobber_gp

/* tp: the thread pointer; the C code after this call uses TLS, so it must have its own back */
        .globl  selftest_clobber_tp
        .type   selftest_clobber_tp, @function
selftest_clobber_tp:
        li      tp, 0x7470
        ret
        .size   selftest_clobber_tp, . - selftest_clobber_tp

/* returns with sp 16 bytes lower, as a function that forgot its epilogue's addi */
        .globl  selftest_sp_minus_16
        .type   selftest_sp_minus_16, @function
selftest_sp_minus_16:
        addi    sp, sp, -16
        ret
        .size   selftest_sp_minus_16, . - selftest_sp_minus_16

/* sp mod 16 at entry (the psABI requires 0) */
        .globl  selftest_entry_sp_mod16
        .type   selftest_entry_sp_mod16, @function
selftest_entry_sp_mod16:
        andi    a0, sp, 15
        ret
        .size   selftest_entry_sp_mod16, . - selftest_entry_sp_mod16

/* changes the floating-point rounding mode to round-towards-zero and leaves it so */
        .globl  selftest_set_frm
        .type   selftest_set_frm, @function
selftest_set_frm:
        fsrmi   1
        ret
        .size   selftest_set_frm, . - selftest_set_frm

/* only the exception flags: caller-saved, must pass */
        .globl  selftest_set_fflags
        .type   selftest_set_fflags, @function
selftest_set_fflags:
        fsflagsi 0x1f
        ret
        .size   selftest_set_fflags, . - selftest_set_fflags

/* leaves vstart nonzero, which the psABI forbids on return */
        .globl  selftest_leave_vstart
        .type   selftest_leave_vstart, @function
selftest_leave_vstart:
        csrwi   vstart, 3
        ret
        .size   selftest_leave_vstart, . - selftest_leave_vstart

        .globl  selftest_return_arg
        .type   selftest_return_arg, @function
selftest_return_arg:
        ret
        .size   selftest_return_arg, . - selftest_return_arg

/* sum of (i+1) * argument i over ten arguments: a0-a7 and two on the stack */
        .globl  selftest_sum10
        .type   selftest_sum10, @function
selftest_sum10:
        li      t1, 2
        mul     t0, a1, t1
        add     a0, a0, t0
        li      t1, 3
        mul     t0, a2, t1
        add     a0, a0, t0
        li      t1, 4
        mul     t0, a3, t1
        add     a0, a0, t0
        li      t1, 5
        mul     t0, a4, t1
        add     a0, a0, t0
        li      t1, 6
        mul     t0, a5, t1
        add     a0, a0, t0
        li      t1, 7
        mul     t0, a6, t1
        add     a0, a0, t0
        li      t1, 8
        mul     t0, a7, t1
        add     a0, a0, t0
        ld      t2, 0(sp)
        li      t1, 9
        mul     t0, t2, t1
        add     a0, a0, t0
        ld      t2, 8(sp)
        li      t1, 10
        mul     t0, t2, t1
        add     a0, a0, t0
        ret
        .size   selftest_sum10, . - selftest_sum10

/* vector CSRs as the checked call left them: what a kernel that forgot vsetvli would see */
        .globl  selftest_read_vxrm
        .type   selftest_read_vxrm, @function
selftest_read_vxrm:
        csrr    a0, vxrm
        ret
        .size   selftest_read_vxrm, . - selftest_read_vxrm

        .globl  selftest_read_vxsat
        .type   selftest_read_vxsat, @function
selftest_read_vxsat:
        csrr    a0, vxsat
        ret
        .size   selftest_read_vxsat, . - selftest_read_vxsat

        .globl  selftest_read_vtype
        .type   selftest_read_vtype, @function
selftest_read_vtype:
        csrr    a0, vtype
        ret
        .size   selftest_read_vtype, . - selftest_read_vtype

        .globl  selftest_read_vl
        .type   selftest_read_vl, @function
selftest_read_vl:
        csrr    a0, vl
        ret
        .size   selftest_read_vl, . - selftest_read_vl

/* puts its argument ("a secret") into v5 and leaves it there */
        .globl  selftest_leave_v5
        .type   selftest_leave_v5, @function
selftest_leave_v5:
        vsetivli zero, 2, e64, m1, ta, ma
        vmv.v.x v5, a0
        ret
        .size   selftest_leave_v5, . - selftest_leave_v5

/* the same in v31, in the upper half of a register group of eight */
        .globl  selftest_leave_v31
        .type   selftest_leave_v31, @function
selftest_leave_v31:
        vsetivli zero, 2, e64, m1, ta, ma
        vmv.v.x v31, a0
        ret
        .size   selftest_leave_v31, . - selftest_leave_v31

/* uses v5, returns 2 * secret, then zeroes v5 whole (vl = VLMAX at LMUL=1) */
        .globl  selftest_clear_v5
        .type   selftest_clear_v5, @function
selftest_clear_v5:
        vsetivli zero, 2, e64, m1, ta, ma
        vmv.v.x v5, a0
        vadd.vv v5, v5, v5
        vmv.x.s a0, v5
        vsetvli t0, zero, e8, m1, ta, ma
        vmv.v.i v5, 0
        ret
        .size   selftest_clear_v5, . - selftest_clear_v5

/* clears only the first 16 bytes of v5 (vl = 2 at e64): with VLEN > 128 the rest keeps data */
        .globl  selftest_clear_v5_partly
        .type   selftest_clear_v5_partly, @function
selftest_clear_v5_partly:
        vsetvli t0, zero, e64, m1, ta, ma
        vmv.v.x v5, a0
        vsetivli zero, 2, e64, m1, tu, ma
        vmv.v.i v5, 0
        ret
        .size   selftest_clear_v5_partly, . - selftest_clear_v5_partly

        .section .note.GNU-stack, "", @progbits
