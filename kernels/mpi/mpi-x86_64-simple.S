/* mpi-x86_64-simple.S: multi-precision add_n and sub_n, one 64-bit limb per loop iteration.
 *
 *   mpi_add_n_x86_64_simple: rp[0..n) = s1 + s2, returns the carry out (0 or 1)
 *   mpi_sub_n_x86_64_simple: rp[0..n) = s1 - s2, returns the borrow out (0 or 1)
 *
 * The plain C equivalent is reference/mpi.c. This is the baseline form that
 * mpi-x86_64-unroll4.S is measured and compared against.
 *
 * Calling convention: x86-64 SysV.
 *   in:  rdi = rp, rsi = s1, rdx = s2, rcx = n (limbs; 0 returns 0 and touches no memory)
 *   out: rax = carry / borrow
 *   clobbers: rax, rcx, rdx, rsi, rdi, r8, flags
 *   The callee-saved registers rbx, rbp, r12-r15 are not used at all; no stack, no red zone.
 *   rp may equal s1 and/or s2: each limb is read before it is written.
 *
 * Main loop register map:
 *   rdi, rsi, rdx  one past the last limb of rp, s1, s2
 *   rcx            limb index, counting up from -n to 0
 *   rax            0, so that setc alone makes the return value
 *   r8             the current limb
 *   CF             the carry (borrow) between limbs. Inside the loop only mov and inc run
 *                  besides adc/sbb, and neither writes CF; inc both advances and ends the loop.
 */

        .text

/* MPI_SIMPLE sym, op: emit one add_n or sub_n.
 *   sym = symbol, op = adc or sbb; inputs and outputs as in the header comment. */
.macro MPI_SIMPLE sym, op
        .globl \sym
        .type \sym,@function
        .p2align 4
\sym:
        endbr64
        xor %eax, %eax
        test %rcx, %rcx
        jz .L\sym\()_ret
        /* Pointers to the ends and a negative index, so that the index reaches exactly 0. */
        lea (%rdi,%rcx,8), %rdi
        lea (%rsi,%rcx,8), %rsi
        lea (%rdx,%rcx,8), %rdx
        neg %rcx
        clc                             /* neg set CF; the chain starts with no carry in */
        /* 17 bytes: 32-byte alignment keeps the loop in one 64-byte line (on this Zen 4 it ran at
         * 2 cycles per limb instead of 1 when it straddled two). */
        .p2align 5
.L\sym\()_loop:
        mov (%rsi,%rcx,8), %r8
        \op (%rdx,%rcx,8), %r8
        mov %r8, (%rdi,%rcx,8)
        inc %rcx
        jnz .L\sym\()_loop
        setc %al
.L\sym\()_ret:
        ret
        .size \sym, .-\sym
.endm

        MPI_SIMPLE mpi_add_n_x86_64_simple, adc
        MPI_SIMPLE mpi_sub_n_x86_64_simple, sbb

        .section .note.GNU-stack,"",@progbits
