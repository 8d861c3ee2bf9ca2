/* nh-x86_64-sse2-addperm.S — NH (Adiantum), SSE2, add-then-permute form.
 *
 * Computes hash = NH(key, message): for each pass p = 0..3 the 64-bit sum over 16-byte units u
 * of (m0+k0)*(m2+k2) + (m1+k1)*(m3+k3), with m = message words 4u..4u+3 and k = key words
 * 4u+4p..4u+4p+3, 32-bit wrapping adds and 32x32->64 products; the four sums are stored
 * little-endian to hash[0..32).  The C equivalent is reference/nh.c.
 *
 * This is the older of the two SSE2 forms: for each pass, add the message words to the key
 * words (paddd), then two pshufd put the sums a0,a1 and a2,a3 in the even dwords that pmuludq
 * multiplies: 8 pshufd per 16 bytes.  nh-x86_64-sse2-permload.S is the newer form.
 *
 * void nh_sse2_addperm(const uint32_t *key,     rdi
 *                      const uint8_t *message,  rsi
 *                      size_t message_len,      rdx
 *                      uint8_t hash[32]);       rcx
 * System V AMD64.  Clobbers rax, rdx, rdi, rsi, flags and xmm0-xmm15 (all caller-saved),
 * which are zeroed before return (the key must not stay in vector registers).  Preserves
 * every callee-saved register; no stack use, no red zone.  No alignment required.
 *
 * LENGTH PRECONDITION: message_len is a nonzero multiple of 16 and at most 1024 (NH's
 * domain).  What the code does exactly, with n = message_len & ~15:
 *   - it processes n / 64 iterations of 64 bytes, then (n % 64) / 16 single units;
 *     the low 4 bits of message_len are ignored;
 *   - it reads message[0, n) and key bytes [0, n + 48) (key[0, 48) even when n == 0) and
 *     writes hash[0, 32); n == 0 gives an all-zero hash;
 *   - so n > 1024 reads past the end of a 1072-byte key.
 *
 * Main loop register map (the key window rotates through K0..K3 by one register per unit):
 *   rdi  key pointer, advanced 64 per iteration     xmm0-3   P0-P3: per-pass sums, 2 x u64
 *   rsi  message pointer, advanced 64               xmm4-7   K0-K3: key words of the next
 *   rax  iterations left                                      4 passes (16 bytes each)
 *   rdx  message_len, then the tail length          xmm8     M: message unit
 *   rcx  hash                                       xmm9-15  T1-T7: temporaries
 */

#define KEY     %rdi
#define MESSAGE %rsi
#define LEN     %rdx
#define LEN32   %edx
#define HASH    %rcx
#define ITERS   %rax

#define P0 %xmm0
#define P1 %xmm1
#define P2 %xmm2
#define P3 %xmm3
#define K0 %xmm4
#define K1 %xmm5
#define K2 %xmm6
#define K3 %xmm7
#define M  %xmm8
#define T1 %xmm9
#define T2 %xmm10
#define T3 %xmm11
#define T4 %xmm12
#define T5 %xmm13
#define T6 %xmm14
#define T7 %xmm15

/* Multiply and accumulate one pass.  In: a = (a0 a1 a2 a3) 32-bit sums of message and key
 * words, acc.  Out: acc += (a0*a2, a1*a3).  Clobbers a, t. */
.macro mul_acc a, t, acc
	pshufd		$0x50, \a, \t		/* (a0 a0 a1 a1): a0, a1 in the even dwords */
	pshufd		$0xfa, \a, \a		/* (a2 a2 a3 a3): a2, a3 in the even dwords */
	pmuludq		\t, \a
	paddq		\a, \acc
.endm

/* One 16-byte unit at byte offset off of the message.  In: k0, k1, k2 = key words for
 * passes 0, 1, 2 of this unit.  Out: k3 = key words at off + 48 (pass 3 of this unit, pass 2
 * of the next); k0 is consumed.  Temporaries: M, T1-T7. */
.macro nh_unit k0, k1, k2, k3, off
	movdqu		\off(MESSAGE), M
	movdqu		\off+48(KEY), \k3
	movdqa		M, T1
	movdqa		M, T2
	movdqa		M, T3
	paddd		M, \k0			/* k0 is not needed after this unit */
	paddd		\k1, T1
	paddd		\k2, T2
	paddd		\k3, T3
	mul_acc		\k0, T4, P0
	mul_acc		T1, T5, P1
	mul_acc		T2, T6, P2
	mul_acc		T3, T7, P3
.endm

	.text
	.globl	nh_sse2_addperm
	.type	nh_sse2_addperm, @function
	.p2align 5
nh_sse2_addperm:
	movdqu		0x00(KEY), K0
	movdqu		0x10(KEY), K1
	movdqu		0x20(KEY), K2
	pxor		P0, P0
	pxor		P1, P1
	pxor		P2, P2
	pxor		P3, P3

	mov		LEN, ITERS
	shr		$6, ITERS
	jz		.Laddperm_tail
	.p2align 4
.Laddperm_loop:
	nh_unit		K0, K1, K2, K3, 0x00
	nh_unit		K1, K2, K3, K0, 0x10
	nh_unit		K2, K3, K0, K1, 0x20
	nh_unit		K3, K0, K1, K2, 0x30
	add		$0x40, KEY
	add		$0x40, MESSAGE
	dec		ITERS
	jnz		.Laddperm_loop

.Laddperm_tail:
	/* 0 to 3 units remain; the mask makes the count exact whatever the low 4 bits. */
	and		$0x30, LEN32
	jz		.Laddperm_sum
	nh_unit		K0, K1, K2, K3, 0x00
	sub		$0x10, LEN32
	jz		.Laddperm_sum
	nh_unit		K1, K2, K3, K0, 0x10
	sub		$0x10, LEN32
	jz		.Laddperm_sum
	nh_unit		K2, K3, K0, K1, 0x20

.Laddperm_sum:
	/* Pass p's sum is the sum of the two 64-bit halves of Pp. */
	movdqa		P0, T1
	punpcklqdq	P1, T1			/* (P0 low, P1 low) */
	punpckhqdq	P1, P0			/* (P0 high, P1 high) */
	paddq		P0, T1			/* (sum0, sum1) */
	movdqa		P2, T2
	punpcklqdq	P3, T2
	punpckhqdq	P3, P2
	paddq		P2, T2			/* (sum2, sum3) */
	movdqu		T1, 0x00(HASH)
	movdqu		T2, 0x10(HASH)

	/* Leave no key- or message-derived state in vector registers. */
	pxor		%xmm0, %xmm0
	pxor		%xmm1, %xmm1
	pxor		%xmm2, %xmm2
	pxor		%xmm3, %xmm3
	pxor		%xmm4, %xmm4
	pxor		%xmm5, %xmm5
	pxor		%xmm6, %xmm6
	pxor		%xmm7, %xmm7
	pxor		%xmm8, %xmm8
	pxor		%xmm9, %xmm9
	pxor		%xmm10, %xmm10
	pxor		%xmm11, %xmm11
	pxor		%xmm12, %xmm12
	pxor		%xmm13, %xmm13
	pxor		%xmm14, %xmm14
	pxor		%xmm15, %xmm15
	ret
	.size	nh_sse2_addperm, . - nh_sse2_addperm

	.section .note.GNU-stack, "", @progbits
