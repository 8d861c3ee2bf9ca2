/* abi_x86_64.S — the checked-call trampoline for x86-64 SysV (interface: abi.h; the C side that
 * fills the state and judges it: abi.c).
 *
 *   uint64_t abi_trampoline(const void *fn, struct abi_state *st,
 *                           const uint64_t *argv, size_t argc);
 *
 * Calls fn(argv[0], ..., argv[argc-1]) (argc clamped to 10) in a register state chosen by *st:
 * the callee-saved registers of the SysV list (emu/regstate.h: rbx, rbp, r12-r15), MXCSR and the
 * x87 control word are loaded from st, DF is cleared, and when
 * st->vec_mode != ABI_VEC_NONE every vector register of that mode (and for AVX-512 every
 * opmask register) holds st->vec_fill.  Argument registers beyond argc, rax, r10 and r11 hold
 * junk, so a kernel that reads a register it was not given reads garbage, not a lucky value.
 * Right after fn returns, rflags, rsp - (rsp before the call), the vector and opmask registers,
 * the callee-saved registers, MXCSR and the x87 control and tag words are written back into *st,
 * and the caller's own state is restored.  Returns fn's rax.
 *
 * Calling convention: SysV; preserves rbx, rbp, r12-r15, rsp, MXCSR control bits, x87 control
 * word, DF = 0 for its caller, whatever fn did.  Its own pushes and pops of rbx..r15 are written
 * out, not generated from the list: they are its duty as a SysV function to its C caller, and
 * must hold even when the list under test is changed or wrong.  Clobbers every caller-saved register; the
 * vector-register fill of AVX modes is followed by vzeroupper.  Uses AVX / AVX-512 instructions
 * only in the mode st->vec_mode names, so it runs on any x86-64 when the mode fits the CPU.
 *
 * Surviving a callee that breaks rsp: the trampoline keeps the value rsp must have after the
 * call in a thread-local variable (abi_frame_rsp), reached through %fs with the initial-exec
 * TLS model, so reading it needs neither the stack nor a register the callee could have broken.
 * Thread-local rather than static so that fuzzing threads do not share it; its previous value is
 * kept in the frame and put back on exit, so nested checked calls also work.
 *
 * Frame (offsets from rsp at the call instruction, F_* below; rsp is 16-byte aligned there):
 *     0 ..  31  arguments 7-10: the stack arguments, already in place for the callee, which is
 *               why they are stored into fixed slots rather than pushed; after the call the
 *               same 32 bytes hold the 28-byte fnstenv image
 *    32 ..  79  arguments 1-6, loaded into rdi, rsi, rdx, rcx, r8, r9 just before the call
 *    80         st
 *    88         fn (called through memory, so no register has to hold it)
 *    96         previous value of abi_frame_rsp
 *   104         caller's MXCSR (4 bytes), 108: caller's x87 control word (2 bytes)
 *   120 .. 167  caller's r15, r14, r13, r12, rbp, rbx
 *   168         return address
 */

#include "emu/regstate.h"

/* struct abi_state offsets (emu/regstate.h, checked against offsetof in abi.c).  The
 * callee-saved registers come first, ST_<NAME> for each register of the SysV list, packed in
 * list order. */
        .set    ST_SAVED_END, 0
#define ST_SAVED_(kind, r, R)                                                                 \
        .equ    ST_##R, ST_SAVED_END; .set ST_SAVED_END, ST_SAVED_END + ABI_REG_SIZE_##kind;
        ABI_X86_64_SYSV_SAVED(ST_SAVED_)
        .equ    ST_RSP_DELTA, ABI_ST_RSP_DELTA
        .equ    ST_RFLAGS, ABI_ST_RFLAGS
        .equ    ST_MXCSR, ABI_ST_MXCSR
        .equ    ST_X87CW, ABI_ST_X87CW
        .equ    ST_X87TW, ABI_ST_X87TW
        .equ    ST_VEC_MODE, ABI_ST_VEC_MODE
        .equ    ST_VEC_FILL, ABI_ST_VEC_FILL
        .equ    ST_VEC, ABI_ST_VEC              /* 32 rows of 64 bytes */
        .equ    ST_K, ABI_ST_K                  /* 8 x 8 bytes */
        .equ    ST_STACK_TOP, ABI_ST_STACK_TOP  /* 0: call on this stack; else the callee's rsp */
        .if     ST_SAVED_END != ST_RSP_DELTA
        .error  "the callee-saved registers do not end where rsp_delta starts"
        .endif

/* enum abi_vec_mode (emu/regstate.h) */
        .equ    VEC_SSE, ABI_VEC_SSE_
        .equ    VEC_AVX, ABI_VEC_AVX_
        .equ    VEC_AVX512, ABI_VEC_AVX512_

        .equ    MAX_ARGS, 10

        .equ    F_STACK_ARGS, 0
        .equ    F_REG_ARGS, 32
        .equ    F_ST, 80
        .equ    F_FN, 88
        .equ    F_PREV_FRAME, 96
        .equ    F_MXCSR, 104
        .equ    F_X87CW, 108
        /* 6 pushes leave rsp = 8 mod 16; 120 = 8 mod 16 realigns it for the call */
        .equ    FRAME, 120

/* Junk for argument slots beyond argc and for rax, r10, r11: distinct from the 0xaa junk that
 * ABI_ARG puts into narrow arguments, so a report shows which one a kernel picked up. */
#define JUNK_UNUSED_ARG 0xbadc0ffee0ddf00d
#define JUNK_SCRATCH    0xdeadbeefcafe5a5a

        .section .tbss,"awT",@nobits
        .balign 8
abi_frame_rsp:
        .zero   8

        .text

/* copy_arg i, slot: if argc (rcx) > i, argv[i] (rdx) goes to the frame slot.  Temp: rax. */
.macro copy_arg i, slot
        cmpq    $\i, %rcx
        jbe     .Largs_copied
        movq    8*\i(%rdx), %rax
        movq    %rax, \slot(%rsp)
.endm

        .globl  abi_trampoline
        .type   abi_trampoline, @function
        .p2align 4
abi_trampoline:
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

        movq    %rdi, F_FN(%rsp)
        movq    %rsi, F_ST(%rsp)
        stmxcsr F_MXCSR(%rsp)
        fnstcw  F_X87CW(%rsp)

        movq    abi_frame_rsp@gottpoff(%rip), %rax
        movq    %fs:(%rax), %r8
        movq    %r8, F_PREV_FRAME(%rsp)
        movq    %rsp, %fs:(%rax)

        /* every argument slot starts as junk; argv overwrites the first argc */
        movabsq $JUNK_UNUSED_ARG, %rax
        .irp    slot, 0, 8, 16, 24, 32, 40, 48, 56, 64, 72
        movq    %rax, \slot(%rsp)
        .endr
        cmpq    $MAX_ARGS, %rcx
        jbe     1f
        movl    $MAX_ARGS, %ecx
1:
        copy_arg 0, F_REG_ARGS + 0
        copy_arg 1, F_REG_ARGS + 8
        copy_arg 2, F_REG_ARGS + 16
        copy_arg 3, F_REG_ARGS + 24
        copy_arg 4, F_REG_ARGS + 32
        copy_arg 5, F_REG_ARGS + 40
        copy_arg 6, F_STACK_ARGS + 0
        copy_arg 7, F_STACK_ARGS + 8
        copy_arg 8, F_STACK_ARGS + 16
        copy_arg 9, F_STACK_ARGS + 24
.Largs_copied:

        cld
        movq    %rsi, %r11
        ldmxcsr ST_MXCSR(%r11)
        fldcw   ST_X87CW(%r11)

        movl    ST_VEC_MODE(%r11), %eax
        cmpl    $VEC_SSE, %eax
        je      .Lfill_sse
        cmpl    $VEC_AVX, %eax
        je      .Lfill_avx
        cmpl    $VEC_AVX512, %eax
        je      .Lfill_avx512
        jmp     .Lfilled
.Lfill_sse:
        movq    ST_VEC_FILL(%r11), %xmm0
        punpcklqdq %xmm0, %xmm0
        .irp    r, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        movdqa  %xmm0, %xmm\r
        .endr
        jmp     .Lfilled
.Lfill_avx:
        vbroadcastsd ST_VEC_FILL(%r11), %ymm0
        .irp    r, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        vmovdqa %ymm0, %ymm\r
        .endr
        jmp     .Lfilled
.Lfill_avx512:
        /* AVX-512 mode implies AVX512BW (abi.c): kmovq is a BW instruction */
        vpbroadcastq ST_VEC_FILL(%r11), %zmm0
        .irp    r, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        vmovdqa64 %zmm0, %zmm\r
        .endr
        .irp    k, 0, 1, 2, 3, 4, 5, 6, 7
        kmovq   ST_VEC_FILL(%r11), %k\k
        .endr
.Lfilled:

        /* the callee-saved registers of the list, from st */
#define LOAD_SAVED_(kind, r, R) movq ST_##R(%r11), %r;
        ABI_X86_64_SYSV_SAVED(LOAD_SAVED_)

        /* A separate stack (st->stack_top, prepared by abi.c): the callee's rsp is stack_top,
         * its stack arguments sit at stack_top + 0..31 and fn at stack_top + 32; what it leaves
         * below stack_top, and whether it wrote above its arguments, is judged after return. */
        movq    ST_STACK_TOP(%r11), %rax
        testq   %rax, %rax
        jz      .Lsame_stack
        .irp    slot, 0, 8, 16, 24
        movq    F_STACK_ARGS + \slot(%rsp), %r10
        movq    %r10, \slot(%rax)
        .endr
        movq    F_FN(%rsp), %r10
        movq    %r10, 32(%rax)
        movq    F_REG_ARGS + 0(%rsp), %rdi
        movq    F_REG_ARGS + 8(%rsp), %rsi
        movq    F_REG_ARGS + 16(%rsp), %rdx
        movq    F_REG_ARGS + 24(%rsp), %rcx
        movq    F_REG_ARGS + 32(%rsp), %r8
        movq    F_REG_ARGS + 40(%rsp), %r9
        movq    %rax, %rsp
        movabsq $JUNK_SCRATCH, %rax
        movq    %rax, %r10
        movq    %rax, %r11
        callq   *32(%rsp)
        .globl  abi_trampoline_return_separate
abi_trampoline_return_separate:
        jmp     .Lreturned
.Lsame_stack:
        movq    F_REG_ARGS + 0(%rsp), %rdi
        movq    F_REG_ARGS + 8(%rsp), %rsi
        movq    F_REG_ARGS + 16(%rsp), %rdx
        movq    F_REG_ARGS + 24(%rsp), %rcx
        movq    F_REG_ARGS + 32(%rsp), %r8
        movq    F_REG_ARGS + 40(%rsp), %r9
        movabsq $JUNK_SCRATCH, %rax
        movq    %rax, %r10
        movq    %rax, %r11
        callq   *F_FN(%rsp)
.Lreturned:

        /* Nothing here may touch flags, vectors or the stack before they are recorded: mov
         * changes none of them, and rsp comes back from TLS before the first push. */
        movq    %rsp, %r10
        movq    abi_frame_rsp@gottpoff(%rip), %r11
        movq    %fs:(%r11), %rsp
        pushfq
        popq    %r11
        cld                             /* the C caller relies on DF = 0 whatever fn did */
        movq    F_ST(%rsp), %rdi
        movq    ST_STACK_TOP(%rdi), %rcx
        testq   %rcx, %rcx
        jnz     1f
        movq    %rsp, %rcx
1:      subq    %rcx, %r10
        movl    ST_VEC_MODE(%rdi), %ecx
        cmpl    $VEC_SSE, %ecx
        je      .Lstore_sse
        cmpl    $VEC_AVX, %ecx
        je      .Lstore_avx
        cmpl    $VEC_AVX512, %ecx
        je      .Lstore_avx512
        jmp     .Lstored
.Lstore_sse:
        .irp    r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        movdqu  %xmm\r, ST_VEC + 64*\r(%rdi)
        .endr
        jmp     .Lstored
.Lstore_avx:
        .irp    r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        vmovdqu %ymm\r, ST_VEC + 64*\r(%rdi)
        .endr
        /* the fill dirtied the upper halves: spare the C code the SSE/AVX transition cost */
        vzeroupper
        jmp     .Lstored
.Lstore_avx512:
        .irp    r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        vmovdqu64 %zmm\r, ST_VEC + 64*\r(%rdi)
        .endr
        .irp    k, 0, 1, 2, 3, 4, 5, 6, 7
        kmovq   %k\k, ST_K + 8*\k(%rdi)
        .endr
        vzeroupper
.Lstored:

#define STORE_SAVED_(kind, r, R) movq %r, ST_##R(%rdi);
        ABI_X86_64_SYSV_SAVED(STORE_SAVED_)
        movq    %r10, ST_RSP_DELTA(%rdi)
        movq    %r11, ST_RFLAGS(%rdi)
        stmxcsr ST_MXCSR(%rdi)
        fnstcw  ST_X87CW(%rdi)
        /* The tag word is only in the full environment.  fnstenv also masks all x87
         * exceptions, which the fldcw below undoes; emms then empties the register stack so
         * the C caller gets the empty stack it is owed even from a kernel that forgot emms. */
        fnstenv F_STACK_ARGS(%rsp)
        movzwl  F_STACK_ARGS + 8(%rsp), %ecx
        movw    %cx, ST_X87TW(%rdi)
        emms

        movq    abi_frame_rsp@gottpoff(%rip), %r11
        movq    F_PREV_FRAME(%rsp), %rcx
        movq    %rcx, %fs:(%r11)
        ldmxcsr F_MXCSR(%rsp)
        fldcw   F_X87CW(%rsp)

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
        .size   abi_trampoline, . - abi_trampoline

        .section .note.GNU-stack, "", @progbits
