/* abi_riscv64.S — the checked-call trampoline for RISC-V LP64 (interface: abi.h; the C side
 * that fills the state and judges it: abi.c).
 *
 *   uint64_t abi_trampoline(const void *fn, struct abi_state *st,
 *                           const uint64_t *argv, size_t argc);
 *
 * Calls fn(argv[0], ..., argv[argc-1]) (argc clamped to 10: a0-a7, then two on the stack) in a
 * register state chosen by *st: s0-s11 and fs0-fs11 (the list in emu/regstate.h) from st, frm
 * from st; when st->has_v, vxrm and vxsat from st and vtype/vl from vsetvl(st->avl, st->vtype),
 * and when st->vec_mode != ABI_VEC_NONE every vector register filled with st->vec_fill first.  Argument
 * registers beyond argc and t0-t5 hold junk.  After the call it records s0-s11, fs0-fs11, gp,
 * tp, frm, vstart (has_v), sp - (sp before) and, in vector mode, v0-v31 into *st; then it gives
 * the caller back its own registers and CSRs, whatever fn did to them.  Returns fn's a0.
 *
 * Finding the frame after the call: fn may have changed sp, gp, tp and every s-register at once
 * (that is what is being tested), so nothing register-relative can be trusted, and TLS hangs
 * off tp.  The frame address goes into a global reached PC-relatively (lla, never relaxed to
 * gp: .option norelax below), and a process-wide spin lock makes that global safe with threads:
 * checked calls from several threads run one after the other.
 *
 * Calling convention of the trampoline itself: an ordinary LP64D function: it saves and
 * restores s0-s11, fs0-fs11, ra, gp, tp, frm and (has_v) vcsr (written out, not generated from
 * the list: its duty to its C caller holds whatever the list under test says).  Needs the D extension; vector
 * instructions only run when st->has_v says the CPU has V.
 *
 * Frame (FRAME bytes, 16-aligned; the bottom of it is the callee's stack-argument area):
 *     0 ..  15  arguments 9 and 10, already in place for the callee
 *    16 ..  79  arguments 1-8, loaded into a0-a7 just before the call
 *    80         st            88  fn           96  ra       104 gp      112 tp
 *   120 .. 215  caller's s0-s11
 *   216 .. 311  caller's fs0-fs11
 *   312         caller's frm  320 caller's vcsr (has_v)     328 fn's return value
 */

        .option arch, +v
        .option norelax

#include "emu/regstate.h"

/* struct abi_state offsets (emu/regstate.h, checked against offsetof in abi.c).  The
 * callee-saved registers come first, ST_<NAME> for each register of the RISC-V list, packed in
 * list order. */
        .set    ST_SAVED_END, 0
#define ST_SAVED_(kind, r, R)                                                                 \
        .equ    ST_##R, ST_SAVED_END; .set ST_SAVED_END, ST_SAVED_END + ABI_REG_SIZE_##kind;
        ABI_RISCV64_LP64_SAVED(ST_SAVED_)
        .equ    ST_SP_DELTA, ABI_RV_ST_SP_DELTA
        .equ    ST_GP, ABI_RV_ST_GP
        .equ    ST_TP, ABI_RV_ST_TP
        .equ    ST_FRM, ABI_RV_ST_FRM
        .equ    ST_VSTART, ABI_RV_ST_VSTART
        .equ    ST_VTYPE, ABI_RV_ST_VTYPE
        .equ    ST_AVL, ABI_RV_ST_AVL
        .equ    ST_VXRM, ABI_RV_ST_VXRM
        .equ    ST_VXSAT, ABI_RV_ST_VXSAT
        .equ    ST_HAS_V, ABI_RV_ST_HAS_V
        .equ    ST_VEC_MODE, ABI_RV_ST_VEC_MODE
        .equ    ST_VEC_FILL, ABI_RV_ST_VEC_FILL
        .equ    ST_VLENB, ABI_RV_ST_VLENB
        .equ    ST_VEC, ABI_RV_ST_VEC           /* 32 rows of ABI_RV_VLENB_MAX bytes */
        .if     ST_SAVED_END != ST_SP_DELTA
        .error  "the callee-saved registers do not end where sp_delta starts"
        .endif
/* how a register of each kind of the list is loaded and stored */
#define LD_GPR ld
#define LD_FPR fld
#define SD_GPR sd
#define SD_FPR fsd
        .equ    VLENB_MAX, 256

        .equ    MAX_ARGS, 10

        .equ    F_STACK_ARGS, 0
        .equ    F_REG_ARGS, 16
        .equ    F_ST, 80
        .equ    F_FN, 88
        .equ    F_RA, 96
        .equ    F_GP, 104
        .equ    F_TP, 112
        .equ    F_S, 120
        .equ    F_FS, 216
        .equ    F_FRM, 312
        .equ    F_VCSR, 320
        .equ    F_RET, 328
        .equ    FRAME, 336

/* Junk for argument registers beyond argc and for t0-t5 at the call. */
#define JUNK_UNUSED_ARG 0xbadc0ffee0ddf00d
#define JUNK_SCRATCH    0xdeadbeefcafe5a5a

        .bss
        .balign 8
/* sp of the trampoline frame during a checked call; 0 otherwise */
abi_rv_frame:
        .zero   8
/* 1 while a checked call is in progress (amoswap spin lock) */
abi_rv_lock:
        .zero   8

        .text

/* copy_arg i, slot: if argc (a3) > i, argv[i] (a2) goes to the frame slot.  Temp: t0. */
.macro copy_arg i, slot
        li      t0, \i
        bleu    a3, t0, .Largs_copied
        ld      t0, 8*\i(a2)
        sd      t0, \slot(sp)
.endm

        .globl  abi_trampoline
        .type   abi_trampoline, @function
        .p2align 2
abi_trampoline:
        .cfi_startproc
        addi    sp, sp, -FRAME
        .cfi_adjust_cfa_offset FRAME
        sd      ra, F_RA(sp)
        .cfi_rel_offset ra, F_RA
        sd      gp, F_GP(sp)
        sd      tp, F_TP(sp)
        .irp    r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
        sd      s\r, F_S + 8*\r(sp)
        fsd     fs\r, F_FS + 8*\r(sp)
        .endr
        sd      a0, F_FN(sp)
        sd      a1, F_ST(sp)
        frrm    t0
        sd      t0, F_FRM(sp)
        lw      t1, ST_HAS_V(a1)
        beqz    t1, 1f
        csrr    t0, vcsr
        sd      t0, F_VCSR(sp)
1:
        /* the lock, then the frame where the code after the call will look for it */
        lla     t2, abi_rv_lock
        li      t1, 1
2:      amoswap.d.aq t0, t1, (t2)
        bnez    t0, 2b
        lla     t2, abi_rv_frame
        sd      sp, 0(t2)

        /* every argument slot starts as junk; argv overwrites the first argc */
        li      t0, JUNK_UNUSED_ARG
        .irp    slot, 0, 8, 16, 24, 32, 40, 48, 56, 64, 72
        sd      t0, \slot(sp)
        .endr
        li      t0, MAX_ARGS
        bleu    a3, t0, 3f
        mv      a3, t0
3:
        copy_arg 0, F_REG_ARGS + 0
        copy_arg 1, F_REG_ARGS + 8
        copy_arg 2, F_REG_ARGS + 16
        copy_arg 3, F_REG_ARGS + 24
        copy_arg 4, F_REG_ARGS + 32
        copy_arg 5, F_REG_ARGS + 40
        copy_arg 6, F_REG_ARGS + 48
        copy_arg 7, F_REG_ARGS + 56
        copy_arg 8, F_STACK_ARGS + 0
        copy_arg 9, F_STACK_ARGS + 8
.Largs_copied:

        ld      t0, ST_FRM(a1)
        fsrm    t0

        lw      t1, ST_HAS_V(a1)
        beqz    t1, .Lvector_done
        lw      t1, ST_VEC_MODE(a1)
        beqz    t1, .Lvector_filled
        /* every byte of v0-v31: four groups of eight at e64, vl = VLMAX */
        ld      t0, ST_VEC_FILL(a1)
        vsetvli t1, zero, e64, m8, ta, ma
        vmv.v.x v0, t0
        vmv.v.x v8, t0
        vmv.v.x v16, t0
        vmv.v.x v24, t0
.Lvector_filled:
        ld      t0, ST_VXRM(a1)
        csrw    vxrm, t0
        ld      t0, ST_VXSAT(a1)
        csrw    vxsat, t0
        /* last vector instruction before the call: the scrambled configuration */
        ld      t0, ST_AVL(a1)
        ld      t1, ST_VTYPE(a1)
        vsetvl  zero, t0, t1
.Lvector_done:

        /* the callee-saved registers of the list, from st */
#define LOAD_SAVED_(kind, r, R) LD_##kind r, ST_##R(a1);
        ABI_RISCV64_LP64_SAVED(LOAD_SAVED_)

        ld      t6, F_FN(sp)
        li      t0, JUNK_SCRATCH
        mv      t1, t0
        mv      t2, t0
        mv      t3, t0
        mv      t4, t0
        mv      t5, t0
        ld      a0, F_REG_ARGS + 0(sp)
        ld      a1, F_REG_ARGS + 8(sp)
        ld      a2, F_REG_ARGS + 16(sp)
        ld      a3, F_REG_ARGS + 24(sp)
        ld      a4, F_REG_ARGS + 32(sp)
        ld      a5, F_REG_ARGS + 40(sp)
        ld      a6, F_REG_ARGS + 48(sp)
        ld      a7, F_REG_ARGS + 56(sp)
        jalr    ra, t6

        /* Only PC-relative addressing until sp is ours again; a0 is the result. */
        lla     t0, abi_rv_frame
        ld      t1, 0(t0)
        sub     t2, sp, t1
        mv      sp, t1
        sd      a0, F_RET(sp)
        ld      t0, F_ST(sp)
        sd      t2, ST_SP_DELTA(t0)
        sd      gp, ST_GP(t0)
        sd      tp, ST_TP(t0)
#define STORE_SAVED_(kind, r, R) SD_##kind r, ST_##R(t0);
        ABI_RISCV64_LP64_SAVED(STORE_SAVED_)
        frrm    t1
        sd      t1, ST_FRM(t0)
        /* the caller's gp and tp before anything else could need them */
        ld      gp, F_GP(sp)
        ld      tp, F_TP(sp)

        lw      t1, ST_HAS_V(t0)
        beqz    t1, .Lsnapshot_done
        csrr    t1, vstart
        sd      t1, ST_VSTART(t0)
        csrw    vstart, zero
        /* One fixed vtype for the caller whatever fn or the scramble left: QEMU keys its
         * translated code on vtype, and the C code after the call would otherwise be
         * translated again for every random configuration. */
        vsetvli t1, zero, e64, m8, ta, ma
        lw      t1, ST_VEC_MODE(t0)
        beqz    t1, .Lsnapshot_taken
        /* whole-register stores, one row of st->vec each: independent of whatever vtype and
         * vl fn left behind */
        addi    t1, t0, ST_VEC
        li      t2, VLENB_MAX
        .irp    r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        vs1r.v  v\r, (t1)
        add     t1, t1, t2
        .endr
        /* the fill and fn's leftovers stay out of the caller's way */
        vmv.v.i v0, 0
        vmv.v.i v8, 0
        vmv.v.i v16, 0
        vmv.v.i v24, 0
.Lsnapshot_taken:
        ld      t1, F_VCSR(sp)
        csrw    vcsr, t1
.Lsnapshot_done:

        lla     t1, abi_rv_frame
        sd      zero, 0(t1)
        lla     t1, abi_rv_lock
        amoswap.d.rl zero, zero, (t1)

        ld      t1, F_FRM(sp)
        fsrm    t1
        .irp    r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
        ld      s\r, F_S + 8*\r(sp)
        fld     fs\r, F_FS + 8*\r(sp)
        .endr
        ld      a0, F_RET(sp)
        ld      ra, F_RA(sp)
        .cfi_restore ra
        addi    sp, sp, FRAME
        .cfi_adjust_cfa_offset -FRAME
        ret
        .cfi_endproc
        .size   abi_trampoline, . - abi_trampoline

        .section .note.GNU-stack, "", @progbits
