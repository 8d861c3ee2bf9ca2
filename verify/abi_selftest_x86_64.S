/* abi_selftest_x86_64.S — deliberately broken (and a few correct) functions for
 * verify/abi_selftest.c, which proves the checked call (fuzz/harness/abi.h) catches each kind of
 * ABI violation a kernel can commit.  Each function breaks exactly one rule, so a report that
 * names anything else is itself a checker bug.
 *
 * Calling convention: SysV x86-64, except for the rule each one breaks on purpose.  None uses
 * memory besides its own stack (and the red zone below rsp, which SysV leaves to a leaf).
 * Functions named *_avx / *_avx512 execute those instructions: call them only where the CPU
 * has them.  No frame of their own beyond what is noted.
 */

        .text

.macro func name
        .globl  \name
        .type   \name, @function
        .p2align 4
\name:
.endm

.macro endfunc name
        .size   \name, . - \name
.endm

/* selftest_clobber_<reg>(void): inverts one callee-saved register; not, so it changes
 * whatever random value the trampoline loaded. */
.irp reg, rbx, rbp, r12, r13, r14, r15
func selftest_clobber_\reg
        notq    %\reg
        ret
endfunc selftest_clobber_\reg
.endr

/* selftest_set_df(void): returns with the direction flag set. */
func selftest_set_df
        std
        ret
endfunc selftest_set_df

/* selftest_mxcsr_round_zero(void): sets MXCSR rounding to toward-zero (RC = 11b, bits 13-14). */
func selftest_mxcsr_round_zero
        stmxcsr -4(%rsp)
        orl     $0x6000, -4(%rsp)
        ldmxcsr -4(%rsp)
        ret
endfunc selftest_mxcsr_round_zero

/* selftest_mxcsr_flags_only(void): raises the inexact flag, a status bit the caller must expect
 * to change; not a violation. */
func selftest_mxcsr_flags_only
        stmxcsr -4(%rsp)
        orl     $0x20, -4(%rsp)
        ldmxcsr -4(%rsp)
        ret
endfunc selftest_mxcsr_flags_only

/* selftest_x87cw_round_zero(void): sets x87 rounding to toward-zero (RC = 11b, bits 10-11). */
func selftest_x87cw_round_zero
        fnstcw  -2(%rsp)
        orw     $0x0c00, -2(%rsp)
        fldcw   -2(%rsp)
        ret
endfunc selftest_x87cw_round_zero

/* selftest_mmx_no_emms(uint64_t x): uses an MMX register and returns without emms, leaving the
 * x87 tag word marked full. */
func selftest_mmx_no_emms
        movq    %rdi, %mm0
        paddq   %mm0, %mm0
        movq    %mm0, %rax
        ret
endfunc selftest_mmx_no_emms

/* selftest_rsp_minus_8(void): returns with rsp 8 bytes lower than a ret would leave it, as a
 * push without its pop would; return address moved by hand so the return still lands. */
func selftest_rsp_minus_8
        popq    %rcx
        subq    $8, %rsp
        jmpq    *%rcx
endfunc selftest_rsp_minus_8

/* selftest_return_arg(x): returns rdi whole.  Called with a 32-bit argument it shows what sits
 * in the upper half a careless kernel would use. */
func selftest_return_arg
        movq    %rdi, %rax
        ret
endfunc selftest_return_arg

/* selftest_entry_misalign(void): rsp mod 16 as the caller had it at the call (0 when the
 * caller honoured the 16-byte alignment). */
func selftest_entry_misalign
        leaq    8(%rsp), %rax
        andl    $15, %eax
        ret
endfunc selftest_entry_misalign

/* selftest_sum10(a1..a10): sum of i * ai, i = 1..10, mod 2^64, so each argument's position
 * counts.  Saves and restores rbx and rbp properly: a correct function must pass unflagged.
 * Stack after the two pushes: 16(%rsp) return address, 24.. 48(%rsp) a7..a10. */
func selftest_sum10
        pushq   %rbx
        pushq   %rbp
        movq    %rdi, %rax
        leaq    (%rsi, %rsi), %rbx
        addq    %rbx, %rax
        imulq   $3, %rdx, %rbp
        addq    %rbp, %rax
        leaq    (, %rcx, 4), %rbx
        addq    %rbx, %rax
        imulq   $5, %r8, %rbp
        addq    %rbp, %rax
        imulq   $6, %r9, %rbx
        addq    %rbx, %rax
        imulq   $7, 24(%rsp), %rbp
        addq    %rbp, %rax
        movq    32(%rsp), %rbx
        shlq    $3, %rbx
        addq    %rbx, %rax
        imulq   $9, 40(%rsp), %rbp
        addq    %rbp, %rax
        imulq   $10, 48(%rsp), %rbx
        addq    %rbx, %rax
        popq    %rbp
        popq    %rbx
        ret
endfunc selftest_sum10

/* selftest_leave_xmm7(uint64_t x): leaves x in xmm7 (legacy SSE, so any CPU): data left
 * behind in a vector register. */
func selftest_leave_xmm7
        movq    %rdi, %xmm7
        ret
endfunc selftest_leave_xmm7

/* selftest_clear_xmm7(uint64_t x): computes with xmm7, then clears it with legacy pxor, which
 * leaves bits 128 and up untouched: must pass. */
func selftest_clear_xmm7
        movq    %rdi, %xmm7
        paddq   %xmm7, %xmm7
        movq    %xmm7, %rax
        pxor    %xmm7, %xmm7
        ret
endfunc selftest_clear_xmm7

/* selftest_leave_ymm7_avx(uint64_t x): x in both 128-bit halves of ymm7. */
func selftest_leave_ymm7_avx
        vmovq   %rdi, %xmm7
        vinsertf128 $1, %xmm7, %ymm7, %ymm7
        ret                             /* no vzeroupper: the upper half is the leak */
endfunc selftest_leave_ymm7_avx

/* selftest_clear_ymm7_avx(uint64_t x): uses ymm7, clears it with the VEX vpxor, which zeroes
 * the whole register: must pass. */
func selftest_clear_ymm7_avx
        vmovq   %rdi, %xmm7
        vinsertf128 $1, %xmm7, %ymm7, %ymm7
        vmovq   %xmm7, %rax
        vpxor   %xmm7, %xmm7, %xmm7
        vzeroupper
        ret
endfunc selftest_clear_ymm7_avx

/* selftest_leave_zmm20_avx512(uint64_t x): x broadcast into zmm20, which vzeroupper cannot
 * reach. */
func selftest_leave_zmm20_avx512
        vpbroadcastq %rdi, %zmm20
        ret
endfunc selftest_leave_zmm20_avx512

/* selftest_leave_k3_avx512(uint64_t x): x in opmask register k3. */
func selftest_leave_k3_avx512
        kmovq   %rdi, %k3
        ret
endfunc selftest_leave_k3_avx512

/* selftest_clear_zmm20_k3_avx512(uint64_t x): uses zmm20 and k3, clears both: must pass. */
func selftest_clear_zmm20_k3_avx512
        vpbroadcastq %rdi, %zmm20
        kmovq   %rdi, %k3
        vmovq   %xmm20, %rax
        vpxord  %xmm20, %xmm20, %xmm20
        kxorq   %k3, %k3, %k3
        vzeroupper
        ret
endfunc selftest_clear_zmm20_k3_avx512

/* ---- Windows x64 functions (Microsoft's x64 calling convention), for the Win64 checked call
 * (abi_call_win64): arguments in rcx, rdx, r8, r9, then at 40(%rsp) and up on entry above the
 * 32-byte shadow space at 8(%rsp); rbx, rbp, rdi, rsi, r12-r15 and xmm6-15 callee-saved. */

/* selftest_w64_clobber_<reg>(void): breaks one register only Win64 keeps (rdi, rsi: not; xmm6-15:
 * all-ones); correct under System V, where all of them are caller-saved. */
.irp reg, rdi, rsi
func selftest_w64_clobber_\reg
        notq    %\reg
        ret
endfunc selftest_w64_clobber_\reg
.endr
.irp n, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
func selftest_w64_clobber_xmm\n
        pcmpeqd %xmm\n, %xmm\n
        ret
endfunc selftest_w64_clobber_xmm\n
.endr

/* selftest_w64_sum9(a1..a9): sum of i * a_i, read where Windows puts them: rcx, rdx, r8, r9,
 * then 40(%rsp) .. 72(%rsp) on entry.  Uses its shadow space (writes rcx and rdx there, as
 * perlasm's prologues do), and rsi, rdi and xmm6 as a correct Win64 function may: saved on its
 * stack first, restored before it returns. */
func selftest_w64_sum9
        movq    %rcx, 8(%rsp)           /* home slots: the callee's to write */
        movq    %rdx, 16(%rsp)
        pushq   %rsi
        pushq   %rdi
        subq    $24, %rsp
        movdqu  %xmm6, (%rsp)
        /* entry offsets + 40: the pushes and the 24 bytes */
        movq    8+40(%rsp), %rsi        /* a1 from its home slot */
        movq    16+40(%rsp), %rdi       /* a2 */
        leaq    (%rsi,%rdi,2), %rax
        imulq   $3, %r8, %r8
        addq    %r8, %rax
        shlq    $2, %r9
        addq    %r9, %rax
        movq    40+40(%rsp), %rsi       /* a5 */
        imulq   $5, %rsi, %rsi
        addq    %rsi, %rax
        movq    48+40(%rsp), %rsi
        imulq   $6, %rsi, %rsi
        addq    %rsi, %rax
        movq    56+40(%rsp), %rsi
        imulq   $7, %rsi, %rsi
        addq    %rsi, %rax
        movq    64+40(%rsp), %rsi
        shlq    $3, %rsi
        addq    %rsi, %rax
        movq    72+40(%rsp), %rsi
        imulq   $9, %rsi, %rsi
        addq    %rsi, %rax
        pcmpeqd %xmm6, %xmm6            /* used ... */
        movdqu  (%rsp), %xmm6           /* ... and restored */
        addq    $24, %rsp
        popq    %rdi
        popq    %rsi
        ret
endfunc selftest_w64_sum9

        .section .note.GNU-stack, "", @progbits
