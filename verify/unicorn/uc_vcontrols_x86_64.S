/* uc_vcontrols_x86_64.S — controls for the Unicorn checks of vector code (the vector executor,
 * vexec.h), as uc_controls_x86_64.S is for scalar code.
 *
 * Each function breaks one property on purpose with AVX-512 instructions, and uc_selftest.c
 * asserts that the check for it fires and names the place; uc_vctl_xor64_masked breaks
 * nothing (its masked-off tail elements must not count as accesses) and must pass every check.
 * They run only inside the emulator.
 *
 * System V AMD64; no callee-saved register or stack is used.  Arguments as each comment says.
 */
	.text

/* (v1) void uc_vctl_overread1(uint8_t out[64], const uint8_t in[63]): copies 64 bytes with an
 * unmasked zmm load: reads one byte past `in`.  Bounds must report
 * "read of 64 bytes at in+0 (1 byte past its end)". */
	.globl	uc_vctl_overread1
	.type	uc_vctl_overread1, @function
	.p2align 4
uc_vctl_overread1:
	vmovdqu64 (%rsi), %zmm0
	vmovdqu64 %zmm0, (%rdi)
	vpxord	%zmm0, %zmm0, %zmm0
	vzeroupper
	ret
	.size	uc_vctl_overread1, . - uc_vctl_overread1

/* (v2) void uc_vctl_xor64_masked(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t len):
 * out = a ^ b for len <= 64 with masked loads and stores (k1 = 2^len - 1): exactly len bytes
 * of each buffer are touched, the masked-off bytes never.  Clean: the negative control. */
	.globl	uc_vctl_xor64_masked
	.type	uc_vctl_xor64_masked, @function
	.p2align 4
uc_vctl_xor64_masked:
	movq	$-1, %rax
	cmpq	$64, %rcx
	jae	1f
	movl	$1, %eax
	shlq	%cl, %rax
	decq	%rax
1:	kmovq	%rax, %k1
	vmovdqu8 (%rsi), %zmm0{%k1}{z}
	vmovdqu8 (%rdx), %zmm1{%k1}{z}
	vpxorq	%zmm1, %zmm0, %zmm0
	vmovdqu8 %zmm0, (%rdi){%k1}
	vpxorq	%zmm0, %zmm0, %zmm0
	vpxorq	%zmm1, %zmm1, %zmm1
	kxorq	%k1, %k1, %k1
	vzeroupper
	ret
	.size	uc_vctl_xor64_masked, . - uc_vctl_xor64_masked

/* (v3) uint32_t uc_vctl_key_branch(const uint8_t key[64]): returns 1 when some key byte is
 * zero, by a branch on an opmask test: control flow depends on the key.  ct must report a
 * divergence after the jz. */
	.globl	uc_vctl_key_branch
	.type	uc_vctl_key_branch, @function
	.p2align 4
uc_vctl_key_branch:
	vmovdqu64 (%rdi), %zmm0
	vptestnmb %zmm0, %zmm0, %k1
	xorl	%eax, %eax
	kortestq %k1, %k1
	jz	1f
	movl	$1, %eax
1:	vpxorq	%zmm0, %zmm0, %zmm0
	kxorq	%k1, %k1, %k1
	vzeroupper
	ret
	.size	uc_vctl_key_branch, . - uc_vctl_key_branch

/* (v4) uint32_t uc_vctl_key_index(const uint8_t key[16], const uint8_t table[256]):
 * table[key[3]], the byte extracted with vpextrb: the address depends on the key.  ct must
 * report different table offsets. */
	.globl	uc_vctl_key_index
	.type	uc_vctl_key_index, @function
	.p2align 4
uc_vctl_key_index:
	vmovdqu	(%rdi), %xmm0
	vpextrb	$3, %xmm0, %eax
	movzbl	(%rsi,%rax), %eax
	vpxor	%xmm0, %xmm0, %xmm0
	ret
	.size	uc_vctl_key_index, . - uc_vctl_key_index

/* (v5) void uc_vctl_leave_key(const uint8_t key[64]): loads the key into zmm17 and its
 * nonzero-byte mask into k3, and returns without clearing them.  The leftover check must
 * report zmm17 (vzeroupper does not reach zmm16-31). */
	.globl	uc_vctl_leave_key
	.type	uc_vctl_leave_key, @function
	.p2align 4
uc_vctl_leave_key:
	vmovdqu64 (%rdi), %zmm17
	vptestmb %zmm17, %zmm17, %k3
	vzeroupper
	ret
	.size	uc_vctl_leave_key, . - uc_vctl_leave_key

/* (v6) void uc_vctl_leave_mask(const uint8_t key[64]): as (v5), but clears zmm17: only the
 * key-derived k3 is left.  The leftover check must report k3. */
	.globl	uc_vctl_leave_mask
	.type	uc_vctl_leave_mask, @function
	.p2align 4
uc_vctl_leave_mask:
	vmovdqu64 (%rdi), %zmm17
	vptestmb %zmm17, %zmm17, %k3
	vpxord	%zmm17, %zmm17, %zmm17
	vzeroupper
	ret
	.size	uc_vctl_leave_mask, . - uc_vctl_leave_mask

/* (v9) uint64_t uc_vctl_spill_below(const uint8_t key[64]): its first 32 bytes through a ymm
 * spill 32 bytes below rsp (executor stores, and its loads back), returning the first 8: a
 * System V red-zone use, a violation under Win64.  Clears what it used. */
	.globl	uc_vctl_spill_below
	.type	uc_vctl_spill_below, @function
	.p2align 4
uc_vctl_spill_below:
	vmovdqu	(%rdi), %ymm1
	vmovdqu	%ymm1, -32(%rsp)
	vmovq	-32(%rsp), %xmm2
	vmovq	%xmm2, %rax
	vpxor	%xmm1, %xmm1, %xmm1
	vmovdqu	%ymm1, -32(%rsp)
	vpxor	%xmm2, %xmm2, %xmm2
	vzeroupper
	ret
	.size	uc_vctl_spill_below, . - uc_vctl_spill_below

/* (v7) void uc_vctl_unsupported(void): an AVX-512 VNNI instruction the executor's table does
 * not hold: the run must stop with "unsupported instruction: vpdpbusd ...". */
	.globl	uc_vctl_unsupported
	.type	uc_vctl_unsupported, @function
	.p2align 4
uc_vctl_unsupported:
	vpdpbusd %zmm1, %zmm2, %zmm3
	vzeroupper
	ret
	.size	uc_vctl_unsupported, . - uc_vctl_unsupported
/* (v8) void uc_vctl_store_table(uint8_t *table): a masked zmm store into a read-only
 * constant table (uc_ctl_table): bounds must report the write, and the run must stop there
 * (the emulator never writes the program image). */
	.globl	uc_vctl_store_table
	.type	uc_vctl_store_table, @function
	.p2align 4
uc_vctl_store_table:
	movl	$0xff, %eax
	kmovq	%rax, %k1
	vpternlogd $0xff, %zmm0, %zmm0, %zmm0
	vmovdqu8 %zmm0, 16(%rdi){%k1}
	kxorq	%k1, %k1, %k1
	vzeroupper
	ret
	.size	uc_vctl_store_table, . - uc_vctl_store_table

/* uint64_t uc_vctl_fs_canary(void): the stack-protector canary at %fs:0x28, for emu_call's
 * TLS (a C callee built with -fstack-protector reads it).  Not a control. */
	.globl	uc_vctl_fs_canary
	.type	uc_vctl_fs_canary, @function
	.p2align 4
uc_vctl_fs_canary:
	movq	%fs:0x28, %rax
	ret
	.size	uc_vctl_fs_canary, . - uc_vctl_fs_canary

/* uint64_t uc_vctl_sum10(a1, ..., a10): a1 + 2*a2 + ... + 10*a10, for emu_call's argument
 * passing (six in registers, four on the stack).  Not a control: it breaks nothing. */
	.globl	uc_vctl_sum10
	.type	uc_vctl_sum10, @function
	.p2align 4
uc_vctl_sum10:
	leaq	(%rdi,%rsi,2), %rax
	imulq	$3, %rdx, %rdx
	addq	%rdx, %rax
	leaq	(%rax,%rcx,4), %rax
	imulq	$5, %r8, %r8
	addq	%r8, %rax
	imulq	$6, %r9, %r9
	addq	%r9, %rax
	movq	8(%rsp), %rdx
	imulq	$7, %rdx, %rdx
	addq	%rdx, %rax
	movq	16(%rsp), %rdx
	leaq	(%rax,%rdx,8), %rax
	movq	24(%rsp), %rdx
	imulq	$9, %rdx, %rdx
	addq	%rdx, %rax
	movq	32(%rsp), %rdx
	imulq	$10, %rdx, %rdx
	addq	%rdx, %rax
	ret
	.size	uc_vctl_sum10, . - uc_vctl_sum10

/* uint64_t uc_vctl_stack_deep_write(void): legacy SSE first, so Unicorn runs all of it (not the
 * executor): stores a marker 2 KiB below its stack pointer; returns 0.  emu-call's next call
 * must find the poison there again (emu_call re-poisons only what a call wrote). */
	.globl	uc_vctl_stack_deep_write
	.type	uc_vctl_stack_deep_write, @function
uc_vctl_stack_deep_write:
	paddd	%xmm0, %xmm0
	movabsq	$0x1122334455667788, %rax
	movq	%rax, -2048(%rsp)
	xorl	%eax, %eax
	ret
	.size	uc_vctl_stack_deep_write, . - uc_vctl_stack_deep_write

/* uint64_t uc_vctl_stack_deep_read(void): the qword 2 KiB below its stack pointer. */
	.globl	uc_vctl_stack_deep_read
	.type	uc_vctl_stack_deep_read, @function
uc_vctl_stack_deep_read:
	movq	-2048(%rsp), %rax
	ret
	.size	uc_vctl_stack_deep_read, . - uc_vctl_stack_deep_read
	.section .note.GNU-stack,"",@progbits
