/* uc_controls_x86_64.S — positive and negative controls for the Unicorn checks (ucheck.h).
 *
 * A checker is code too.  Each function below breaks exactly one property on purpose, and
 * verify/unicorn/uc_selftest.c asserts that the check for that property, and only it, fires
 * and names the right place; uc_ctl_xor breaks nothing and must pass every check.  None of
 * them is ever called natively: they run only inside the emulator.
 *
 * System V AMD64.  Arguments and return values as each comment says; all of them preserve
 * the callee-saved registers except uc_ctl_clobber_rbx, and only uc_ctl_mxcsr_round_zero
 * touches the stack (4 bytes of the red zone).
 */

	.section .rodata
	.globl	uc_ctl_table
	.type	uc_ctl_table, @object
	.p2align 6
/* 256 bytes, table[i] = i ^ 0x5c: the S-box stand-in for the leaky lookup.  Its .size makes
 * it a region the self-test can declare by name (ucheck_symbol_region). */
uc_ctl_table:
	.irp	hi, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	.irp	lo, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	.byte	((\hi * 16 + \lo) ^ 0x5c)
	.endr
	.endr
	.size	uc_ctl_table, 256

	.text

/* (a) uint32_t uc_ctl_table_lookup(const uint8_t *secret): table[secret[0]].
 * The load address depends on the secret byte: the ct check must see different offsets into
 * uc_ctl_table for different secrets (the classic cache-timing leak of a table S-box). */
	.globl	uc_ctl_table_lookup
	.type	uc_ctl_table_lookup, @function
	.p2align 4
uc_ctl_table_lookup:
	movzbl	(%rdi), %eax
	leaq	uc_ctl_table(%rip), %rcx
	movzbl	(%rcx,%rax), %eax
	ret
	.size	uc_ctl_table_lookup, . - uc_ctl_table_lookup

/* (b) uint32_t uc_ctl_secret_branch(const uint8_t *secret): secret[0] odd ? 3*s : s.
 * A branch on a secret bit: the instruction sequence, not the addresses, differs. */
	.globl	uc_ctl_secret_branch
	.type	uc_ctl_secret_branch, @function
	.p2align 4
uc_ctl_secret_branch:
	movzbl	(%rdi), %eax
	testb	$1, %al
	jz	1f
	leal	(%rax,%rax,2), %eax
1:	ret
	.size	uc_ctl_secret_branch, . - uc_ctl_secret_branch

/* (c) void uc_ctl_overread16(const uint8_t *in, size_t len, uint8_t out[16]): out = XOR of
 * the 16-byte blocks of in, len a multiple of 16.  The loop test is <= instead of <, so it
 * reads one block more: exactly 16 bytes past the end, at in+len.  movdqu: Unicorn reports it
 * as two 8-byte reads, the check must report one 16-byte read. */
	.globl	uc_ctl_overread16
	.type	uc_ctl_overread16, @function
	.p2align 4
uc_ctl_overread16:
	pxor	%xmm0, %xmm0
	xorl	%eax, %eax
2:	movdqu	(%rdi,%rax), %xmm1
	pxor	%xmm1, %xmm0
	addq	$16, %rax
	cmpq	%rsi, %rax
	jbe	2b			/* should be jb */
	movdqu	%xmm0, (%rdx)
	ret
	.size	uc_ctl_overread16, . - uc_ctl_overread16

/* (d) uint32_t uc_ctl_underread1(const uint8_t *in, size_t len): in[len-1] + in[-1].
 * One byte before the buffer: inside the same page, so only a byte-exact check sees it. */
	.globl	uc_ctl_underread1
	.type	uc_ctl_underread1, @function
	.p2align 4
uc_ctl_underread1:
	movzbl	-1(%rdi,%rsi), %eax
	movzbl	-1(%rdi), %ecx
	addl	%ecx, %eax
	ret
	.size	uc_ctl_underread1, . - uc_ctl_underread1

/* (e) uint64_t uc_ctl_clobber_rbx(uint64_t x): returns x, and leaves x in rbx. */
	.globl	uc_ctl_clobber_rbx
	.type	uc_ctl_clobber_rbx, @function
	.p2align 4
uc_ctl_clobber_rbx:
	movq	%rdi, %rbx
	movq	%rdi, %rax
	ret
	.size	uc_ctl_clobber_rbx, . - uc_ctl_clobber_rbx

/* (e2) uint64_t uc_ctl_leave_df(uint64_t x): returns x with the direction flag set. */
	.globl	uc_ctl_leave_df
	.type	uc_ctl_leave_df, @function
	.p2align 4
uc_ctl_leave_df:
	std
	movq	%rdi, %rax
	ret
	.size	uc_ctl_leave_df, . - uc_ctl_leave_df

/* (e3) uint64_t uc_ctl_mxcsr_round_zero(uint64_t x): returns x, and leaves MXCSR rounding
 * toward zero.  Uses 4 bytes of the red zone, which is allowed. */
	.globl	uc_ctl_mxcsr_round_zero
	.type	uc_ctl_mxcsr_round_zero, @function
	.p2align 4
uc_ctl_mxcsr_round_zero:
	stmxcsr	-4(%rsp)
	orl	$0x6000, -4(%rsp)
	ldmxcsr	-4(%rsp)
	movq	%rdi, %rax
	ret
	.size	uc_ctl_mxcsr_round_zero, . - uc_ctl_mxcsr_round_zero

/* (e4) uint64_t uc_ctl_red_zone_spill(uint64_t x): returns x, spilled through 8 bytes of the
 * red zone: allowed under System V, a violation under Win64 (no red zone). */
	.globl	uc_ctl_red_zone_spill
	.type	uc_ctl_red_zone_spill, @function
	.p2align 4
uc_ctl_red_zone_spill:
	movq	%rdi, -8(%rsp)
	movq	-8(%rsp), %rax
	ret
	.size	uc_ctl_red_zone_spill, . - uc_ctl_red_zone_spill

/* (e5) uint64_t uc_ctl_below_red_zone(uint64_t x): returns x, spilled 136 bytes below rsp:
 * past System V's 128-byte red zone too. */
	.globl	uc_ctl_below_red_zone
	.type	uc_ctl_below_red_zone, @function
	.p2align 4
uc_ctl_below_red_zone:
	movq	%rdi, -136(%rsp)
	movq	-136(%rsp), %rax
	ret
	.size	uc_ctl_below_red_zone, . - uc_ctl_below_red_zone

/* (e6) uint64_t uc_ctl_framed(uint64_t x): returns x through a push, a frame of its own and a
 * call, each write at or above rsp as the instruction leaves it: clean under either
 * convention. */
	.globl	uc_ctl_framed
	.type	uc_ctl_framed, @function
	.p2align 4
uc_ctl_framed:
	pushq	%rbx
	subq	$32, %rsp
	movq	%rdi, 24(%rsp)
	movq	24(%rsp), %rbx
	call	1f
	addq	$32, %rsp
	popq	%rbx
	ret
1:	movq	%rbx, %rax
	ret
	.size	uc_ctl_framed, . - uc_ctl_framed

/* (d2) void uc_ctl_overwrite1(uint8_t *out, size_t len): out[0, len] = 0, one byte too many. */
	.globl	uc_ctl_overwrite1
	.type	uc_ctl_overwrite1, @function
	.p2align 4
uc_ctl_overwrite1:
	xorl	%eax, %eax
3:	movb	$0, (%rdi,%rax)
	incq	%rax
	cmpq	%rsi, %rax
	jbe	3b			/* should be jb */
	ret
	.size	uc_ctl_overwrite1, . - uc_ctl_overwrite1

/* (f) void uc_ctl_xor(uint8_t *dst, const uint8_t *a, const uint8_t *b, size_t len):
 * dst = a ^ b, len a multiple of 8.  Correct and constant time: addresses and branches depend
 * on len alone.  Every check must pass it. */
	.globl	uc_ctl_xor
	.type	uc_ctl_xor, @function
	.p2align 4
uc_ctl_xor:
	xorl	%eax, %eax
	testq	%rcx, %rcx
	jz	5f
4:	movq	(%rsi,%rax), %r8
	xorq	(%rdx,%rax), %r8
	movq	%r8, (%rdi,%rax)
	addq	$8, %rax
	cmpq	%rcx, %rax
	jb	4b
5:	ret
	.size	uc_ctl_xor, . - uc_ctl_xor

	.section .note.GNU-stack, "", @progbits
