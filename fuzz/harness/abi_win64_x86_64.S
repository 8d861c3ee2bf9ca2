/* abi_win64_x86_64.S — the Win64 checked call's bridge (interface: abi.h, struct
 * abi_win64_call; the C side that fills it and judges it: abi.c, abi_win64_arm and
 * abi_win64_check).
 *
 *   uint64_t abi_win64_bridge(struct abi_win64_call *c, a0, a1, ..., a8);   (System V)
 *
 * Calls c->fn(a0, ..., a[c->nargs - 1]) as a Windows x64 caller does (Microsoft's x64 calling
 * convention): the first four arguments in rcx, rdx, r8, r9, the fifth and later on the stack
 * above 32 bytes of shadow space (home slots the callee owns), rsp 16-byte aligned at the
 * call.  Every register of the Win64 callee-saved list (emu/regstate.h:
 * ABI_X86_64_WIN64_SAVED: rbx, rbp, rdi, rsi, r12-r15 and the low 128 bits of xmm6-xmm15) is
 * loaded from c->in before the call and stored into c->out right after it, for abi_win64_check
 * to compare.  The shadow space and rax, r10, r11 hold junk.
 *
 * Why a bridge and not a second trampoline: it is called as an ordinary System V function,
 * so it runs under the System V checked call in every way a call runs (natively, in the
 * emulator, in the Unicorn modes, under Valgrind): the SysV trampoline still judges rsp,
 * DF, MXCSR, the x87 words and the leftovers, and the bridge adds what Win64 asks beyond
 * System V (rdi, rsi, xmm6-15 kept; arguments where Windows puts them).  Its own frame sits
 * between the two, so the callee's stack arguments are where a Windows caller puts them.
 *
 * After the call xmm6-15 are cleared with legacy SSE (upper lanes untouched): their values
 * were the bridge's random ones (or what the callee broke them to, recorded in c->out), not
 * data of the callee's, and the SysV caller owes nothing to keep them.  SSE2 only: it runs on
 * any x86-64 and within any declared feature set (the ISA-subset check).
 *
 * Frame (offsets from rsp at the call; rsp is 16-byte aligned there):
 *     0 ..  31  shadow space (junk)
 *    32 ..  71  arguments 5-9 of the callee (a4 .. a8)
 *    72         junk (a tenth argument's slot: never passed)
 *    80         c
 *    88         c->fn (called through memory, so no register has to hold it)
 *    96         padding
 *   104 .. 151  the caller's r15, r14, r13, r12, rbp, rbx
 *   152         return address;  160..  the System V caller's stack arguments (a5 ..)
 */

#include "emu/regstate.h"

        .set    W_SAVED_END, 0
#define W_SAVED_(kind, r, R)                                                                  \
        .equ    W_##R, W_SAVED_END; .set W_SAVED_END, W_SAVED_END + ABI_REG_SIZE_##kind;
        ABI_X86_64_WIN64_SAVED(W_SAVED_)
        /* (as symbols: ABI_W64_OUT expands the list, which cannot expand inside itself) */
        .equ    C_FN, ABI_W64_FN
        .equ    C_NARGS, ABI_W64_NARGS
        .equ    C_IN, ABI_W64_IN
        .equ    C_OUT, ABI_W64_OUT
        .if     C_IN + W_SAVED_END != C_OUT
        .error  "struct abi_win64_call: out does not follow in"
        .endif

        .equ    F_ARG5, 32
        .equ    F_CTL, 80
        .equ    F_FN, 88
        .equ    FRAME, 104
        .equ    F_CALLER_ARGS, FRAME + 48 + 8

#define JUNK_SCRATCH    0xdeadbeefcafe5a5a

/* copy_stack_arg i: the System V caller's i-th stack argument (a5 + i) becomes the callee's
 * argument 6 + i, when c->nargs > 5 + i (an argument not passed is not read: the Unicorn modes
 * judge a read above the return address).  c in rdi; temp: rax. */
.macro copy_stack_arg i
        cmpq    $(5 + \i), C_NARGS(%rdi)
        jbe     .Lcopied
        movq    F_CALLER_ARGS + 8*\i(%rsp), %rax
        movq    %rax, F_ARG5 + 8 + 8*\i(%rsp)
.endm

        .text
        .globl  abi_win64_bridge
        .type   abi_win64_bridge, @function
        .p2align 4
abi_win64_bridge:
        .cfi_startproc
        pushq   %rbx
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %rbx, 0
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %rbp, 0
        pushq   %r12
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %r12, 0
        pushq   %r13
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %r13, 0
        pushq   %r14
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %r14, 0
        pushq   %r15
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %r15, 0
        subq    $FRAME, %rsp
        .cfi_adjust_cfa_offset FRAME

        movq    %rdi, F_CTL(%rsp)
        movq    C_FN(%rdi), %rax
        movq    %rax, F_FN(%rsp)
        movabsq $ABI_W64_JUNK, %rax
        .irp    slot, 0, 8, 16, 24, 32, 40, 48, 56, 64, 72
        movq    %rax, \slot(%rsp)
        .endr
        cmpq    $4, C_NARGS(%rdi)
        jbe     .Lcopied
        movq    %r9, F_ARG5(%rsp)               /* a4: the fifth argument */
        copy_stack_arg 0
        copy_stack_arg 1
        copy_stack_arg 2
        copy_stack_arg 3
.Lcopied:
        /* System V: rsi a0, rdx a1, rcx a2, r8 a3.  Windows: rcx a0, rdx a1, r8 a2, r9 a3. */
        movq    %r8, %r9
        movq    %rcx, %r8
        movq    %rsi, %rcx

        /* the Win64 callee-saved registers of the list, from c->in */
#define LOAD_GPR_(r, R) movq C_IN + W_##R(%rax), %r;
#define LOAD_XMM_(r, R) movdqu C_IN + W_##R(%rax), %r;
#define LOAD_(kind, r, R) LOAD_##kind##_(r, R)
        movq    F_CTL(%rsp), %rax
        ABI_X86_64_WIN64_SAVED(LOAD_)
        movabsq $JUNK_SCRATCH, %rax
        movq    %rax, %r10
        movq    %rax, %r11
        callq   *F_FN(%rsp)

        /* what the callee left in them, into c->out (r11 is volatile in both conventions) */
#define STORE_GPR_(r, R) movq %r, C_OUT + W_##R(%r11);
#define STORE_XMM_(r, R) movdqu %r, C_OUT + W_##R(%r11);
#define STORE_(kind, r, R) STORE_##kind##_(r, R)
        movq    F_CTL(%rsp), %r11
        ABI_X86_64_WIN64_SAVED(STORE_)
        .irp    r, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        pxor    %xmm\r, %xmm\r
        .endr

        addq    $FRAME, %rsp
        .cfi_adjust_cfa_offset -FRAME
        popq    %r15
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r15
        popq    %r14
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r14
        popq    %r13
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r13
        popq    %r12
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r12
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbp
        popq    %rbx
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbx
        ret
        .cfi_endproc
        .size   abi_win64_bridge, . - abi_win64_bridge

        .section .note.GNU-stack, "", @progbits
