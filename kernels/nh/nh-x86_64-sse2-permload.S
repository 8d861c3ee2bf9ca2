/* nh-x86_64-sse2-permload.S — NH (Adiantum), SSE2, permute-on-load form.
 *
 * Computes hash = NH(key, message): for each pass p = 0..3 the 64-bit sum over 16-byte units u
 * of (m0+k0)*(m2+k2) + (m1+k1)*(m3+k3), with m = message words 4u..4u+3 and k = key words
 * 4u+4p..4u+4p+3, 32-bit wrapping adds and 32x32->64 products; the four sums are stored
 * little-endian to hash[0..32).  The C equivalent is reference/nh.c.
 *
 * This is the newer of the two SSE2 forms.  Message and key words are put in the order
 * 0,2,1,3 once, as they are loaded (pshufd $0xd8); a 32-bit add then gives (a0 a2 a1 a3), in
 * which each 64-bit half holds one pair to multiply.  One pshufd $0xf5 (a2 a2 a3 a3) brings
 * the second factors to the even dwords and pmuludq multiplies the pairs: 6 pshufd per 16
 * bytes instead of 8 (nh-x86_64-sse2-addperm.S).  Each key vector is permuted once and used by
 * four units, so permuting the key costs one pshufd per unit.
 *
 * void nh_sse2_permload(const uint32_t *key,     rdi
 *                       const uint8_t *message,  rsi
 *                       size_t message_len,      rdx
 *                       uint8_t hash[32]);       rcx
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
 * Main loop register map (the key window rotates through K0..K3 by one register per unit;
 * K and M hold words in the order 0,2,1,3):
 *   rdi  key pointer, advanced 64 per iteration     xmm0-3   P0-P3: per-pass sums, 2 x u64
 *   rsi  message pointer, advanced 64               xmm4-7   K0-K3: permuted key words of
 *   rax  iterations left                                      the next 4 passes
 *   rdx  message_len, then the tail length          xmm8     M: permuted message unit
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

/* (w0 w1 w2 w3) -> (w0 w2 w1 w3) */
#define ORDER_0213 $0xd8

/* Load 16 bytes from mem into x, in the order 0,2,1,3.  pshufd's memory form would need
 * 16-byte alignment, hence the separate load. */
.macro load_0213 mem, x
	movdqu		\mem, \x
	pshufd		ORDER_0213, \x, \x
.endm

/* Multiply and accumulate one pass.  In: a = (a0 a2 a1 a3), acc.  Out: acc += (a0*a2, a1*a3).
 * Clobbers a, t. */
.macro mul_acc a, t, acc
	pshufd		$0xf5, \a, \t		/* (a2 a2 a3 a3) */
	pmuludq		\t, \a			/* even dwords: a0*a2, a1*a3 */
	paddq		\a, \acc
.endm

/* One 16-byte unit at byte offset off of the message.  In: k0, k1, k2 = permuted key words
 * for passes 0, 1, 2 of this unit.  Out: k3 = permuted key words at off + 48; k0 is consumed.
 * Temporaries: M, T1-T7. */
.macro nh_unit k0, k1, k2, k3, off
	load_0213	\off(MESSAGE), M
	load_0213	\off+48(KEY), \k3
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
	.globl	nh_sse2_permload
	.type	nh_sse2_permload, @function
	.p2align 5
nh_sse2_permload:
	load_0213	0x00(KEY), K0
	load_0213	0x10(KEY), K1
	load_0213	0x20(KEY), K2
	pxor		P0, P0
	pxor		P1, P1
	pxor		P2, P2
	pxor		P3, P3

	mov		LEN, ITERS
	shr		$6, ITERS
	jz		.Lpermload_tail
	.p2align 4
.Lpermload_loop:
	nh_unit		K0, K1, K2, K3, 0x00
	nh_unit		K1, K2, K3, K0, 0x10
	nh_unit		K2, K3, K0, K1, 0x20
	nh_unit		K3, K0, K1, K2, 0x30
	add		$0x40, KEY
	add		$0x40, MESSAGE
	dec		ITERS
	jnz		.Lpermload_loop

.Lpermload_tail:
	/* 0 to 3 units remain; the mask makes the count exact whatever the low 4 bits. */
	and		$0x30, LEN32
	jz		.Lpermload_sum
	nh_unit		K0, K1, K2, K3, 0x00
	sub		$0x10, LEN32
	jz		.Lpermload_sum
	nh_unit		K1, K2, K3, K0, 0x10
	sub		$0x10, LEN32
	jz		.Lpermload_sum
	nh_unit		K2, K3, K0, K1, 0x20

.Lpermload_sum:
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
	.size	nh_sse2_permload, . - nh_sse2_permload

	.section .note.GNU-stack, "", @progbits
