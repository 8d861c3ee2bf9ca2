/* mpi-x86_64-unroll4.S: multi-precision add_n and sub_n, four 64-bit limbs per loop iteration.
 *
 *   mpi_add_n_x86_64_unroll4: rp[0..n) = s1 + s2, returns the carry out (0 or 1)
 *   mpi_sub_n_x86_64_unroll4: rp[0..n) = s1 - s2, returns the borrow out (0 or 1)
 *
 * The plain C equivalent is reference/mpi.c; mpi-x86_64-simple.S is the same computation one
 * limb at a time.
 *
 * Calling convention: x86-64 SysV.
 *   in:  rdi = rp, rsi = s1, rdx = s2, rcx = n (limbs; 0 returns 0 and touches no memory)
 *   out: rax = carry / borrow
 *   clobbers: rax, rcx, rdx, rsi, rdi, r8-r11, flags
 *   The callee-saved registers rbx, rbp, r12-r15 are not used at all; no stack, no red zone.
 *   rp may equal s1 and/or s2: each limb is read before it is written.
 *
 * Shape (Duff's device): the loop body is steps 0..3, step j handling the limb at offset 8*j
 * from the three pointers, which then advance by four limbs. The first pass is entered in the
 * middle so that it handles only the n mod 4 low limbs. Each residue has its own entry path,
 * which rewinds the pointers by the steps it skips and jumps to its step:
 *   n mod 4 == 0: enter at step 0                 n mod 4 == 2: rewind 2 limbs, enter at step 2
 *   n mod 4 == 3: rewind 1 limb, enter at step 1  n mod 4 == 1: rewind 3 limbs, enter at step 3
 * Every later pass is whole, and there are ceil(n/4) passes in all. The rewound pointers never
 * reach memory below rp, s1, s2: the skipped steps are exactly the ones not executed.
 * All setup, the flag-setting dispatch included, happens before the first adc/sbb, and every
 * entry path arrives with CF = 0, so the first step needs no add/sub form.
 *
 * Main loop register map:
 *   rdi, rsi, rdx  rp, s1, s2 at limb 4*pass (minus the rewind in the first pass)
 *   rcx            passes left, this one included
 *   rax            0, so that setc alone makes the return value
 *   r8-r11         the limbs of steps 0-3
 *   CF             the carry (borrow) between limbs. Inside the loop only mov, lea and dec run
 *                  besides adc/sbb, and none of them writes CF; dec/jnz on the pass count
 *                  stands in for the cmp that would.
 *
 * Speed (Zen 4): the CF chain allows at best one limb per cycle; this loop runs at about 1.00
 * cycles/limb at n = 256, the one-limb loop at about 1.04 (a microbenchmark at the time; ./asmdiff bench mpi has the slopes).
 * Pointer bumps measured faster here than base+index addressing (1.06), and the 62-byte loop is
 * aligned to 64 so that it sits in one cache line: straddling two cost up to twice the time in
 * the one-limb loop.
 *
 * Instruction lines use spaces, not tabs, inside: verify/mutants/mpi.mutants finds lines of this
 * file by their exact text.
 */

        .text

/* MPI_UNROLL4 sym, op: emit one add_n or sub_n.
 *   sym = symbol, op = adc or sbb; inputs and outputs as in the header comment. */
.macro MPI_UNROLL4 sym, op
        .globl \sym
        .type \sym,@function
        .p2align 4
\sym:
        endbr64
        xor %eax, %eax                  /* return value for n == 0; kept 0 for setc */
        mov %ecx, %r8d
        and $3, %r8d                    /* n mod 4 picks the entry */
        add $3, %rcx                    /* round up: a partial first pass is a pass */
        shr $2, %rcx                    /* passes = ceil(n/4), zero only for n == 0 */
        jz .L\sym\()_ret
        /* ja and je are taken only with CF = 0, and test clears CF: the chain starts clean. */
        cmp $2, %r8d
        ja .L\sym\()_mod3               /* dispatch: n mod 4 == 3 */
        je .L\sym\()_mod2               /* dispatch: n mod 4 == 2 */
        test %r8d, %r8d
        jnz .L\sym\()_mod1              /* dispatch: n mod 4 == 1 */
        jmp .L\sym\()_step0             /* dispatch: n mod 4 == 0, whole passes only */
.L\sym\()_mod3:
        lea -8(%rdi), %rdi
        lea -8(%rsi), %rsi
        lea -8(%rdx), %rdx
        jmp .L\sym\()_step1
.L\sym\()_mod2:
        lea -16(%rdi), %rdi
        lea -16(%rsi), %rsi
        lea -16(%rdx), %rdx
        jmp .L\sym\()_step2
.L\sym\()_mod1:
        lea -24(%rdi), %rdi
        lea -24(%rsi), %rsi
        lea -24(%rdx), %rdx
        jmp .L\sym\()_step3

        .p2align 6
.L\sym\()_step0:
        mov (%rsi), %r8
        \op (%rdx), %r8                 /* step 0 */
        mov %r8, (%rdi)
.L\sym\()_step1:
        mov 8(%rsi), %r9
        \op 8(%rdx), %r9                /* step 1 */
        mov %r9, 8(%rdi)
.L\sym\()_step2:
        mov 16(%rsi), %r10
        \op 16(%rdx), %r10              /* step 2 */
        mov %r10, 16(%rdi)
.L\sym\()_step3:
        mov 24(%rsi), %r11
        \op 24(%rdx), %r11              /* step 3 */
        mov %r11, 24(%rdi)
        lea 32(%rsi), %rsi
        lea 32(%rdx), %rdx
        lea 32(%rdi), %rdi
        dec %rcx                        /* one pass done */
        jnz .L\sym\()_step0

        setc %al
.L\sym\()_ret:
        ret
        .size \sym, .-\sym
.endm

        MPI_UNROLL4 mpi_add_n_x86_64_unroll4, adc
        MPI_UNROLL4 mpi_sub_n_x86_64_unroll4, sbb

        .section .note.GNU-stack,"",@progbits
