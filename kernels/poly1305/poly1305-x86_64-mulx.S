/* poly1305-x86_64-mulx.S — Poly1305 (RFC 8439 section 2.5), scalar x86-64, radix 2^64, mulx.
 *
 * The C equivalent is reference/poly1305.c; the state format and the contract of each entry
 * point are kernels/poly1305/poly1305.h's.  Three entry points, System V AMD64:
 *
 *   void poly1305_init_x86_64(struct poly1305_state *st,     rdi
 *                             const uint8_t key[16]);        rsi
 *   void poly1305_blocks_x86_64_mulx(struct poly1305_state *st,   rdi
 *                                    const uint8_t *m,            rsi
 *                                    size_t nblocks,              rdx
 *                                    uint64_t hibit);             rcx   (0 or 1)
 *   void poly1305_emit_x86_64(const struct poly1305_state *st,    rdi
 *                             const uint8_t s[16],                rsi
 *                             uint8_t tag[16]);                   rdx
 *
 * init and emit use baseline x86-64 only; blocks needs BMI2 (mulx).  blocks pushes and pops
 * rbx, rbp, r12-r15 and uses no other stack; no vector register is touched.
 *
 * One block: h += m + hibit 2^128; then h * r with r = r0 + r1 2^64, and since clamping
 * leaves r1 divisible by 4, 2^128 r1 = 2^130 (r1 / 4) = 5 (r1 / 4) = s1 (mod p) with
 * s1 = r1 + r1 / 4:
 *   d0 = h0 r0 + h1 s1                      (< 2^124 + 2^125)
 *   d1 = h0 r1 + h1 r0 + h2 s1  + d0 / 2^64 (< 2^126)
 *   d2 = h2 r0                  + d1 / 2^64 (< 2^64: h2 <= 6 here, r0 < 2^60)
 * and the partial reduction: the bits of d2 from 2 up are 2^130 multiples, = 5 each, so
 *   h = (d0 mod 2^64) + (d1 mod 2^64) 2^64 + (d2 mod 4) 2^128 + 5 (d2 / 4)
 * where 5 (d2 / 4) = (d2 & ~3) + (d2 >> 2), added with its carries through h1 into h2
 * (h2 <= 3 + 1 = 4 after it: the state's bound).
 *
 * blocks register map:
 *   rdi  st (r0 at 24(rdi), r1 at 32(rdi): mulx reads them from memory)
 *   rsi  m, advanced 16 per block          r8   blocks left
 *   rcx  hibit                             rbx  s1 = r1 + r1 / 4
 *   r9   h0    r10  h1    r11  h2 (d2)     rdx  the mulx multiplicand (h0, h1, h2)
 *   r12:r13  d0 (lo:hi)   r14:r15  d1      rax, rbp  product halves
 */

#define ST    %rdi
#define MSG   %rsi
#define LEFT  %r8
#define HIBIT %rcx
#define S1    %rbx
#define H0    %r9
#define H1    %r10
#define H2    %r11
#define D0LO  %r12
#define D0HI  %r13
#define D1LO  %r14
#define D1HI  %r15
#define R0    24(ST)
#define R1    32(ST)

	.text

/* r = key[0, 16) & 0x0ffffffc0ffffffc0ffffffc0fffffff (RFC 8439 2.5.1), h = 0. */
	.globl	poly1305_init_x86_64
	.type	poly1305_init_x86_64, @function
	.p2align 4
poly1305_init_x86_64:
	movabs	$0x0ffffffc0fffffff, %rax
	andq	0(%rsi), %rax
	movq	%rax, 24(%rdi)
	movabs	$0x0ffffffc0ffffffc, %rax
	andq	8(%rsi), %rax
	movq	%rax, 32(%rdi)
	xorl	%eax, %eax
	movq	%rax, 0(%rdi)
	movq	%rax, 8(%rdi)
	movq	%rax, 16(%rdi)
	ret
	.size	poly1305_init_x86_64, . - poly1305_init_x86_64

	.globl	poly1305_blocks_x86_64_mulx
	.type	poly1305_blocks_x86_64_mulx, @function
	.p2align 4
poly1305_blocks_x86_64_mulx:
	testq	%rdx, %rdx
	jz	.Lblocks_none
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rdx, LEFT
	movq	0(ST), H0
	movq	8(ST), H1
	movq	16(ST), H2
	movq	R1, S1
	shrq	$2, S1
	addq	R1, S1			/* s1 = r1 + r1 / 4 */

	.p2align 4
.Lblock:
	addq	0(MSG), H0		/* h += m + hibit 2^128 */
	adcq	8(MSG), H1
	adcq	HIBIT, H2
	leaq	16(MSG), MSG

	movq	H0, %rdx
	mulx	R0, D0LO, D0HI		/* d0 = h0 r0 */
	mulx	R1, D1LO, D1HI		/* d1 = h0 r1 */
	movq	H1, %rdx
	mulx	S1, %rax, %rbp		/* d0 += h1 s1 */
	addq	%rax, D0LO
	adcq	%rbp, D0HI
	mulx	R0, %rax, %rbp		/* d1 += h1 r0 */
	addq	%rax, D1LO
	adcq	%rbp, D1HI
	movq	H2, %rdx
	mulx	S1, %rax, %rbp		/* d1 += h2 s1 */
	addq	%rax, D1LO
	adcq	%rbp, D1HI
	imulq	R0, H2			/* d2 = h2 r0 */

	movq	D0LO, H0
	addq	D0HI, D1LO		/* d1 += d0 / 2^64 */
	adcq	$0, D1HI
	movq	D1LO, H1
	addq	D1HI, H2		/* d2 += d1 / 2^64 */

	movq	H2, %rax		/* the partial reduction */
	andq	$-4, %rax
	movq	H2, %rbp
	shrq	$2, %rbp
	addq	%rbp, %rax		/* 5 (d2 / 4) */
	andq	$3, H2
	addq	%rax, H0
	adcq	$0, H1
	adcq	$0, H2

	decq	LEFT
	jnz	.Lblock

	movq	H0, 0(ST)
	movq	H1, 8(ST)
	movq	H2, 16(ST)
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
.Lblocks_none:
	ret
	.size	poly1305_blocks_x86_64_mulx, . - poly1305_blocks_x86_64_mulx

/* tag = (h mod p + s) mod 2^128.  h < 5 2^128 < 2p, so h mod p is h, or h - p when
 * g = h + 5 reaches 2^130 (then h - p = g - 2^130, whose low 128 bits are g's).  Chosen by
 * cmov: no branch on the secret accumulator. */
	.globl	poly1305_emit_x86_64
	.type	poly1305_emit_x86_64, @function
	.p2align 4
poly1305_emit_x86_64:
	movq	0(%rdi), %rax
	movq	8(%rdi), %rcx
	movq	16(%rdi), %r8
	movq	%rax, %r9
	movq	%rcx, %r10
	addq	$5, %r9			/* g = h + 5 */
	adcq	$0, %r10
	adcq	$0, %r8
	shrq	$2, %r8			/* g / 2^130: nonzero when h >= p */
	cmovnzq	%r9, %rax
	cmovnzq	%r10, %rcx
	addq	0(%rsi), %rax		/* + s, mod 2^128 */
	adcq	8(%rsi), %rcx
	movq	%rax, 0(%rdx)
	movq	%rcx, 8(%rdx)
	ret
	.size	poly1305_emit_x86_64, . - poly1305_emit_x86_64

	.section .note.GNU-stack, "", @progbits
