/* nh-x86_64-avx2.S — NH (Adiantum), AVX2, permute-on-load, two units per ymm register.
 *
 * Computes hash = NH(key, message): for each pass p = 0..3 the 64-bit sum over 16-byte units u
 * of (m0+k0)*(m2+k2) + (m1+k1)*(m3+k3), with m = message words 4u..4u+3 and k = key words
 * 4u+4p..4u+4p+3, 32-bit wrapping adds and 32x32->64 products; the four sums are stored
 * little-endian to hash[0..32).  The C equivalent is reference/nh.c.
 *
 * Each 128-bit lane works like nh-x86_64-sse2-permload.S on its own unit: the low lane on
 * unit u, the high lane on unit u+1.  A 32-byte key load at byte 16*(u+p) is then exactly
 * what pass p needs for both units, so each key load serves two steps and no key word is
 * moved between lanes.  Per 32 bytes: 3 vpshufd (message, 2 new key vectors, fused with
 * their loads) and, per pass, vpaddd + vpsrlq + vpmuludq + vpaddq: 19 vector ops, against 20
 * for add-then-permute.  vpsrlq $32 and vpshufd $0xf5 (the SSE2 form's choice) measured the
 * same on this AMD EPYC (Zen 4): the loop is bound by the total op count, not by the shuffle
 * units.  Each ymm sum accumulates 4 qwords that are added together at the end.
 *
 * void nh_avx2(const uint32_t *key,     rdi
 *              const uint8_t *message,  rsi
 *              size_t message_len,      rdx
 *              uint8_t hash[32]);       rcx
 * System V AMD64.  Needs AVX2.  Clobbers rax, rdi, rsi, flags and ymm0-ymm15 (all
 * caller-saved), which are zeroed before return (the key must not stay in vector registers),
 * then vzeroupper.  Preserves every callee-saved register; no stack use, no red zone.  No
 * alignment required.
 *
 * LENGTH PRECONDITION: message_len is a nonzero multiple of 16 and at most 1024 (NH's
 * domain).  What the code does exactly, with n = message_len & ~15:
 *   - it processes n / 128 iterations of 128 bytes (4 steps of 32), then one 64-byte block
 *     if bit 6 of n is set, one 32-byte step if bit 5 is set, and one 16-byte unit (xmm) if
 *     bit 4 is set; the low 4 bits of message_len are ignored;
 *   - it reads message[0, n) and key bytes [0, n + 48) (key[0, 48) even when n == 0) and
 *     writes hash[0, 32); n == 0 gives an all-zero hash;
 *   - so n > 1024 reads past the end of a 1072-byte key.
 *
 * Main loop register map (32-bit words in the order 0,2,1,3 within each lane; the key
 * window rotates by two registers per step):
 *   rdi  key pointer, advanced 128 per iteration    ymm0-3   P0-P3: per-pass sums, 4 x u64
 *   rsi  message pointer, advanced 128              ymm4-7   K0-K3: key words at byte
 *   rdx  message_len                                          offsets +0, +16, +32, +48 of
 *   rax  iterations left                                      the step (two units each)
 *   rcx  hash                                       ymm8     M: message, two units
 *                                                   ymm9-15  temporaries
 */

#define KEY     %rdi
#define MESSAGE %rsi
#define LEN     %rdx
#define HASH    %rcx
#define ITERS   %rax

#define P0 %ymm0
#define P1 %ymm1
#define P2 %ymm2
#define P3 %ymm3
#define K0 %ymm4
#define K1 %ymm5
#define K2 %ymm6
#define K3 %ymm7
#define M  %ymm8
#define T0 %ymm9
#define T1 %ymm10
#define T2 %ymm11
#define T3 %ymm12
#define S0 %ymm13
#define S1 %ymm14
#define S2 %ymm15

/* (w0 w1 w2 w3) -> (w0 w2 w1 w3) in each 128-bit lane */
#define ORDER_0213 $0xd8

/* Multiply and accumulate one pass.  In: a = (a0 a2 a1 a3) per lane, acc.  Out: acc +=
 * (a0*a2, a1*a3) per lane.  Clobbers a, s. */
.macro mul_acc a, s, acc
	vpsrlq		$32, \a, \s		/* (a2 0 a3 0) */
	vpmuludq	\s, \a, \a		/* even dwords: a0*a2, a1*a3 */
	vpaddq		\a, \acc, \acc
.endm

/* One step: 32 bytes (two units) at byte offset off.  In: k0, k1 = permuted key words at
 * off, off+16.  Out: k2, k3 = permuted key words at off+32, off+48, which are the next
 * step's k0, k1.  Temporaries: M, T0-T3, S0-S2. */
.macro nh_step k0, k1, k2, k3, off
	vpshufd		ORDER_0213, \off(MESSAGE), M
	vpshufd		ORDER_0213, \off+32(KEY), \k2
	vpshufd		ORDER_0213, \off+48(KEY), \k3
	vpaddd		M, \k0, T0
	vpaddd		M, \k1, T1
	vpaddd		M, \k2, T2
	vpaddd		M, \k3, T3
	mul_acc		T0, S0, P0
	mul_acc		T1, S1, P1
	mul_acc		T2, S2, P2
	mul_acc		T3, S0, P3
.endm

	.text
	.globl	nh_avx2
	.type	nh_avx2, @function
	.p2align 5
nh_avx2:
	vpshufd		ORDER_0213, 0x00(KEY), K0
	vpshufd		ORDER_0213, 0x10(KEY), K1
	vpxor		P0, P0, P0
	vpxor		P1, P1, P1
	vpxor		P2, P2, P2
	vpxor		P3, P3, P3

	mov		LEN, ITERS
	shr		$7, ITERS
	jz		.Lavx2_tail64
	.p2align 4
.Lavx2_loop:
	nh_step		K0, K1, K2, K3, 0x00
	nh_step		K2, K3, K0, K1, 0x20
	nh_step		K0, K1, K2, K3, 0x40
	nh_step		K2, K3, K0, K1, 0x60
	sub		$-0x80, KEY		/* -128 fits in an imm8, +128 does not */
	sub		$-0x80, MESSAGE
	dec		ITERS
	jnz		.Lavx2_loop

.Lavx2_tail64:
	test		$0x40, LEN
	jz		.Lavx2_tail32
	nh_step		K0, K1, K2, K3, 0x00
	nh_step		K2, K3, K0, K1, 0x20
	add		$0x40, KEY
	add		$0x40, MESSAGE
.Lavx2_tail32:
	test		$0x20, LEN
	jz		.Lavx2_tail16
	nh_step		K0, K1, K2, K3, 0x00
	add		$0x20, KEY
	add		$0x20, MESSAGE
.Lavx2_tail16:
	test		$0x10, LEN
	jz		.Lavx2_sum
	/* The last unit, in xmm registers: VEX.128 writes zero the upper lanes, so the products
	 * land in the low lane of T0-T3 with zeros above, and the ymm adds are exact.  Its keys
	 * are loaded afresh (16 bytes each) so that nothing past key byte n + 48 is read. */
	vpshufd		ORDER_0213, 0x00(MESSAGE), %xmm8
	vpshufd		ORDER_0213, 0x00(KEY), %xmm4
	vpshufd		ORDER_0213, 0x10(KEY), %xmm5
	vpshufd		ORDER_0213, 0x20(KEY), %xmm6
	vpshufd		ORDER_0213, 0x30(KEY), %xmm7
	vpaddd		%xmm8, %xmm4, %xmm9
	vpaddd		%xmm8, %xmm5, %xmm10
	vpaddd		%xmm8, %xmm6, %xmm11
	vpaddd		%xmm8, %xmm7, %xmm12
	mul_acc		T0, S0, P0
	mul_acc		T1, S1, P1
	mul_acc		T2, S2, P2
	mul_acc		T3, S0, P3

.Lavx2_sum:
	/* Pass p's sum is the sum of the four qwords of Pp. */
	vpunpcklqdq	P1, P0, T0		/* (0a 1a 0c 1c) */
	vpunpckhqdq	P1, P0, T1		/* (0b 1b 0d 1d) */
	vpaddq		T1, T0, T0		/* (0a+0b 1a+1b 0c+0d 1c+1d) */
	vpunpcklqdq	P3, P2, T2
	vpunpckhqdq	P3, P2, T3
	vpaddq		T3, T2, T2		/* (2a+2b 3a+3b 2c+2d 3c+3d) */
	vperm2i128	$0x20, T2, T0, T1	/* low lanes:  (0a+0b 1a+1b 2a+2b 3a+3b) */
	vperm2i128	$0x31, T2, T0, T3	/* high lanes: (0c+0d 1c+1d 2c+2d 3c+3d) */
	vpaddq		T3, T1, T1
	vmovdqu		T1, (HASH)

	/* Leave no key- or message-derived state in vector registers; VEX.128 vpxor zeroes the
	 * whole ymm register. */
	vpxor		%xmm0, %xmm0, %xmm0
	vpxor		%xmm1, %xmm1, %xmm1
	vpxor		%xmm2, %xmm2, %xmm2
	vpxor		%xmm3, %xmm3, %xmm3
	vpxor		%xmm4, %xmm4, %xmm4
	vpxor		%xmm5, %xmm5, %xmm5
	vpxor		%xmm6, %xmm6, %xmm6
	vpxor		%xmm7, %xmm7, %xmm7
	vpxor		%xmm8, %xmm8, %xmm8
	vpxor		%xmm9, %xmm9, %xmm9
	vpxor		%xmm10, %xmm10, %xmm10
	vpxor		%xmm11, %xmm11, %xmm11
	vpxor		%xmm12, %xmm12, %xmm12
	vpxor		%xmm13, %xmm13, %xmm13
	vpxor		%xmm14, %xmm14, %xmm14
	vpxor		%xmm15, %xmm15, %xmm15
	vzeroupper
	ret
	.size	nh_avx2, . - nh_avx2

	.section .note.GNU-stack, "", @progbits
