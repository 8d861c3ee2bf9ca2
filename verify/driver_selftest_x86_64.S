/* driver_selftest_x86_64.S — implementations for verify/driver_selftest.c: one correct, and one
 * for each finding the family driver must report, each otherwise correct.
 *
 *   void st_<name>(uint8_t *out, const uint8_t *in, size_t len, const uint8_t key[16])
 *   out[i] = in[i] ^ key[i mod 16] for i < len
 *
 * SysV: rdi = out, rsi = in, rdx = len, rcx = key; clobbers rax, r8, r9 (and what each control
 * breaks on purpose). */

/* XOR_BODY: out[0, len) = in ^ key, byte by byte.  In: rdi, rsi, rdx, rcx.  Temps: rax, r8, r9. */
.macro XOR_BODY
        xorl    %eax, %eax
1:      cmpq    %rdx, %rax
        jae     2f
        movl    %eax, %r8d
        andl    $15, %r8d
        movzbl  (%rcx,%r8), %r9d
        xorb    (%rsi,%rax), %r9b
        movb    %r9b, (%rdi,%rax)
        incq    %rax
        jmp     1b
2:
.endm

.macro FUNC name
        .globl  \name
        .type   \name, @function
        .p2align 4
\name:
.endm

        .text
FUNC st_good
        XOR_BODY
        ret
        .size st_good, . - st_good

/* mismatch: the first output byte flipped */
FUNC st_wrong
        XOR_BODY
        testq   %rdx, %rdx
        jz      3f
        xorb    $1, (%rdi)
3:      ret
        .size st_wrong, . - st_wrong

/* abi: rbx overwritten, not restored */
FUNC st_clobber_rbx
        movl    $1, %ebx
        XOR_BODY
        ret
        .size st_clobber_rbx, . - st_clobber_rbx

/* residue: the key left in xmm5 */
FUNC st_leave_xmm
        movdqu  (%rcx), %xmm5
        XOR_BODY
        ret
        .size st_leave_xmm, . - st_leave_xmm

/* stack: the key written into the red zone and left there */
FUNC st_stack_leftover
        movq    (%rcx), %rax
        movq    %rax, -16(%rsp)
        movq    8(%rcx), %rax
        movq    %rax, -8(%rsp)
        XOR_BODY
        ret
        .size st_stack_leftover, . - st_stack_leftover

/* guard-page: one byte read past the input */
FUNC st_overread
        XOR_BODY
        movzbl  (%rsi,%rdx), %eax
        ret
        .size st_overread, . - st_overread

/* canary: one byte written past the output, only where that byte is mapped (not flush against
 * the guard page), so the canary and not the page sees it */
FUNC st_write_past
        XOR_BODY
        leaq    (%rdi,%rdx), %rax
        testl   $0xfff, %eax
        jz      3f
        movb    $0, (%rax)
3:      ret
        .size st_write_past, . - st_write_past

/* input-modified: the first input byte inverted */
FUNC st_modify_input
        XOR_BODY
        testq   %rdx, %rdx
        jz      3f
        notb    (%rsi)
3:      ret
        .size st_modify_input, . - st_modify_input

/* bounds (the Unicorn modes): a read of a global of the program, none of its buffers; every
 * native check misses it (the global is mapped, and no canary is read) */
FUNC st_read_global
        XOR_BODY
        movzbl  st_global(%rip), %eax
        ret
        .size st_read_global, . - st_read_global

/* ct-trace: a branch on a key bit (the output stays right) */
FUNC st_secret_branch
        XOR_BODY
        testb   $1, (%rcx)
        jz      3f
        nop
3:      ret
        .size st_secret_branch, . - st_secret_branch

/* ct-trace: a table look-up indexed by a key byte (the output stays right) */
FUNC st_secret_index
        XOR_BODY
        movzbl  (%rcx), %eax
        leaq    st_table(%rip), %r8
        movzbl  (%r8,%rax), %eax
        ret
        .size st_secret_index, . - st_secret_index

/* emulator (emu-diff): the time stamp counter left in xmm3, which no native check judges
 * (the implementation makes no claim to clean registers); the emulator's counter differs from
 * the CPU's, so its register state after the call must differ */
FUNC st_rdtsc_xmm
        XOR_BODY
        rdtsc
        shlq    $32, %rdx
        orq     %rdx, %rax
        movq    %rax, %xmm3
        ret
        .size st_rdtsc_xmm, . - st_rdtsc_xmm

/* emulator (emu-diff): the time stamp counter left in rax by a function without a result,
 * which neither the family nor any native check reads; the emulator's counter differs from
 * the CPU's, so the rax the two runs return must differ */
FUNC st_rdtsc_rax
        XOR_BODY
        rdtsc
        shlq    $32, %rdx
        orq     %rdx, %rax
        ret
        .size st_rdtsc_rax, . - st_rdtsc_rax

/* bounds per table (the Unicorn modes): a 4-byte read at st_small+13, one byte past the
 * 16-byte table into st_next, both in .rodata; every native check misses it, and so did the
 * bounds mode while .rodata was one region */
FUNC st_table_overread
        XOR_BODY
        movl    st_small+13(%rip), %eax
        xorl    %eax, %eax
        ret
        .size st_table_overread, . - st_table_overread

/* bounds per table: a read of a table without .size is a finding for our kernels, which size
 * every table (an outside kernel's would be judged against the whole .rodata, with an info
 * record saying so) */
FUNC st_unsized_table
        XOR_BODY
        movl    st_unsized+4(%rip), %eax
        xorl    %eax, %eax
        ret
        .size st_unsized_table, . - st_unsized_table

        .section .rodata
        .p2align 4
        .type st_small, @object
st_small:
        .fill   16, 1, 0x3c
        .size st_small, 16
        .type st_next, @object
st_next:
        .fill   16, 1, 0xc3
        .size st_next, 16
st_unsized:                             /* no .size: its bounds are unknown */
        .fill   16, 1, 0x69
        .p2align 4
        .type st_table, @object
st_table:
        .fill   256, 1, 0x5a
        .size st_table, 256

        .data
        .globl  st_global
st_global:
        .byte   0x11
        .size st_global, 1


/* illegal-instruction: a library's own dispatch with the wrong guard (the shape of Linux
 * 8b844753): it takes its vector path when CPUID says AVX (leaf 1, ECX bit 28), and that path
 * uses vpbroadcastb, which is AVX2.  On every CPU with AVX2 it is right; on an AVX-only CPU
 * (qemu-x86_64 -cpu SandyBridge) the CPU refuses it.  Registered as a library (driver_selftest.c):
 * the dispatch mode runs it. */
        .text
FUNC st_wrong_guard
        pushq   %rbx
        movq    %rcx, %r10              /* key */
        movq    %rdx, %r8               /* len */
        movl    $1, %eax
        xorl    %ecx, %ecx
        cpuid                           /* leaf 1: ecx, edx the feature bits */
        movl    %ecx, %r11d
        popq    %rbx
        movq    %r10, %rcx
        movq    %r8, %rdx
        btl     $28, %r11d              /* AVX: what the guard checks */
        jnc     4f
        vpbroadcastb (%rcx), %ymm0      /* AVX2: what the path needs */
        vzeroupper
4:      XOR_BODY
        ret
        .size st_wrong_guard, . - st_wrong_guard

        .section .note.GNU-stack, "", @progbits
