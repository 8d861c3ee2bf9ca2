/* vx_native_x86_64.S — runs one generated instruction on the real CPU with a register file
 * taken from, and written back to, a struct vxn_state (vx_diff.c): the native half of the
 * executor's differential test.
 *
 *   void vxn_exec(struct vxn_state *st, const void *entry);
 *
 * Loads zmm0-31, k0-7, rflags and all sixteen GPRs (rsp too: the generated code runs on a
 * stack inside the test's data area, so push/pop/call/ret can be compared byte for byte) from
 * st and jumps to entry.  The generated code ends with an absolute jump to vxn_back_fall (the
 * instruction fell through) or vxn_back_taken (it branched to the test's target); both store
 * every register back into st (exit_kind 0 or 1) and return to the C caller on its own stack.
 * State between the two halves lives in static variables: no register survives the
 * instruction.  Requires AVX-512 F/BW; not reentrant.
 * SysV: preserves rbx, rbp, r12-r15, rsp; MXCSR and the x87 control word are not touched.
 */
        .equ    ST_GPR, 0
        .equ    ST_RFLAGS, 128
        .equ    ST_EXIT, 136
        .equ    ST_K, 144
        .equ    ST_Z, 256

        .bss
        .p2align 3
vxn_saved_rsp:  .zero 8
vxn_st:         .zero 8
vxn_entry:      .zero 8
vxn_tmp:        .zero 8
vxn_kind:       .zero 8

        .text
        .globl  vxn_exec
        .type   vxn_exec, @function
        .p2align 4
vxn_exec:
        pushq   %rbx
        pushq   %rbp
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        movq    %rsp, vxn_saved_rsp(%rip)
        movq    %rdi, vxn_st(%rip)
        movq    %rsi, vxn_entry(%rip)
        .irp    r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        vmovdqu64 ST_Z + 64*\r(%rdi), %zmm\r
        .endr
        .irp    k, 0,1,2,3,4,5,6,7
        kmovq   ST_K + 8*\k(%rdi), %k\k
        .endr
        pushq   ST_RFLAGS(%rdi)
        popfq
        movq    ST_GPR + 8*0(%rdi), %rax
        movq    ST_GPR + 8*1(%rdi), %rcx
        movq    ST_GPR + 8*2(%rdi), %rdx
        movq    ST_GPR + 8*3(%rdi), %rbx
        movq    ST_GPR + 8*4(%rdi), %rsp
        movq    ST_GPR + 8*5(%rdi), %rbp
        movq    ST_GPR + 8*6(%rdi), %rsi
        movq    ST_GPR + 8*8(%rdi), %r8
        movq    ST_GPR + 8*9(%rdi), %r9
        movq    ST_GPR + 8*10(%rdi), %r10
        movq    ST_GPR + 8*11(%rdi), %r11
        movq    ST_GPR + 8*12(%rdi), %r12
        movq    ST_GPR + 8*13(%rdi), %r13
        movq    ST_GPR + 8*14(%rdi), %r14
        movq    ST_GPR + 8*15(%rdi), %r15
        movq    ST_GPR + 8*7(%rdi), %rdi
        jmpq    *vxn_entry(%rip)

        .globl  vxn_back_taken
vxn_back_taken:
        movq    %rax, vxn_tmp(%rip)
        movq    $1, %rax
        movq    %rax, vxn_kind(%rip)
        jmp     1f
        .globl  vxn_back_fall
vxn_back_fall:
        movq    %rax, vxn_tmp(%rip)
        movq    $0, %rax
        movq    %rax, vxn_kind(%rip)
1:      movq    vxn_st(%rip), %rax
        movq    %rcx, ST_GPR + 8*1(%rax)
        movq    %rdx, ST_GPR + 8*2(%rax)
        movq    %rbx, ST_GPR + 8*3(%rax)
        movq    %rsp, ST_GPR + 8*4(%rax)
        movq    %rbp, ST_GPR + 8*5(%rax)
        movq    %rsi, ST_GPR + 8*6(%rax)
        movq    %rdi, ST_GPR + 8*7(%rax)
        movq    %r8, ST_GPR + 8*8(%rax)
        movq    %r9, ST_GPR + 8*9(%rax)
        movq    %r10, ST_GPR + 8*10(%rax)
        movq    %r11, ST_GPR + 8*11(%rax)
        movq    %r12, ST_GPR + 8*12(%rax)
        movq    %r13, ST_GPR + 8*13(%rax)
        movq    %r14, ST_GPR + 8*14(%rax)
        movq    %r15, ST_GPR + 8*15(%rax)
        movq    vxn_tmp(%rip), %rcx
        movq    %rcx, ST_GPR + 8*0(%rax)
        movq    vxn_saved_rsp(%rip), %rsp
        pushfq
        popq    %rcx
        movq    %rcx, ST_RFLAGS(%rax)
        movq    vxn_kind(%rip), %rcx
        movq    %rcx, ST_EXIT(%rax)
        cld
        .irp    r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        vmovdqu64 %zmm\r, ST_Z + 64*\r(%rax)
        .endr
        .irp    k, 0,1,2,3,4,5,6,7
        kmovq   %k\k, ST_K + 8*\k(%rax)
        .endr
        vzeroupper
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbp
        popq    %rbx
        ret
        .size   vxn_exec, . - vxn_exec
        .section .note.GNU-stack,"",@progbits
