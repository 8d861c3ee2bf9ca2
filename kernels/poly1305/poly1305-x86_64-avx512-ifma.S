/* poly1305-x86_64-avx512-ifma.S — Poly1305 blocks (RFC 8439 section 2.5), AVX-512 IFMA.
 *
 * The C equivalent is reference/poly1305.c; the state format and the contract are
 * kernels/poly1305/poly1305.h's (h radix 2^64 with h[2] <= 4, r radix 2^64): this form converts
 * on entry and back on return, so it can be alternated with the mulx form on one state.
 *
 *   void poly1305_blocks_x86_64_avx512_ifma(struct poly1305_state *st,   rdi
 *                                           const uint8_t *m,            rsi
 *                                           size_t nblocks,              rdx
 *                                           uint64_t hibit);             rcx   (0 or 1)
 * System V AMD64.  Needs AVX512F, AVX512_IFMA, AVX2 (the VEX ymm/xmm steps of the final sum)
 * and BMI2 (fewer than 8 blocks, and the nblocks % 8 after the groups, go to
 * poly1305_blocks_x86_64_mulx by a tail call).  Clobbers rax, rdx, rsi, r8-r11, flags,
 * zmm0-15 (zeroed by vzeroall), zmm16-31 and k1 (zeroed); no stack.
 *
 * Radix 2^44: a number is l0 + l1 2^44 + l2 2^88 (44, 44, 42 bits), because vpmadd52luq/huq
 * multiply 52-bit limbs and the top column then lands on 2^132 = 4 2^130 = 20 (mod p), a
 * small integer multiple of the lowest limb (with 52-bit limbs it would land on 2^156 =
 * 5 2^26, between limbs).  Product a r, with s1 = 20 r1, s2 = 20 r2:
 *   d0 = a0 r0 + a1 s2 + a2 s1,  d1 = a0 r1 + a1 r0 + a2 s2,  d2 = a0 r2 + a1 r1 + a2 r0
 * each column summed as lo (bits 0..51 of each product) and hi (bits 52..103, weight
 * 2^52 = 2^8 next limbs); then t0 = lo0 + 20 (hi2 << 8) (hi2 sits at 2^140 = 2^8 2^132),
 * t1 = lo1 + (hi0 << 8) + t0 >> 44, t2 = lo2 + (hi1 << 8) + t1 >> 44, and t2 >> 42 (the
 * 2^130 multiples) folds back times 5 into limb 0: l0 < 2^44 + 2^16, l1 < 2^44 + 2^13,
 * l2 < 2^42.  With message limbs (< 2^44, 2^44, 2^41) added, every multiplier input stays
 * far below 2^52 and every column below 2^56.
 *
 * Eight blocks per group, one per lane: lane j holds the Horner sum of blocks j, j + 8, ...;
 * the last group's lane j is multiplied by r^(8-j), and the lanes' sum is h: the state's h
 * enters lane 0 before the first group.  One group alone: that multiply only.  From two groups
 * on, 16 blocks (a pair of groups, a then b) a step in one chain: h = (h + a) r^16 + b r^8,
 * the 18 products of b r^8 (not on h's chain: issued first) and the 18 of (h + a) r^16 summed
 * in the same six column sums before one carry_fold, so a pair pays one carry and fold, not
 * two.  The last pair is (h + a) r^8 + b, then times (r^8, ..., r^1) per lane.  An odd count
 * of groups first takes one step by r^8 (h + the first group, times r^8).  r^8, r^16 and the
 * vector (r^8, ..., r^1) are made at every call from r (4 squarings and 4 masked products),
 * nothing is kept in the state.
 *
 * Bounds of the summed step: h + a has limbs below 2^45, 2^45, 2^43 (the carry_fold bounds
 * plus a block's), every multiplier input below 2^52 (20 r1 < 2^49); each column sums 6 lo
 * halves (each < 2^52: below 2^54.6) and 6 hi halves (below 2^43; column 2's, without a
 * factor 20, below 2^39, so 20 (hi2 << 8) < 2^51): t0, t1, t2 below 2^55, t2 >> 42 < 2^13,
 * and carry_fold's bounds above hold as they did with 3 products a column.
 *
 * Where the cycles go (Zen 4: vpmadd52 1 a cycle, latency 4, 2 zmm operations a cycle of any
 * kind): a step of 16 blocks is 38 multiplies (36 products, 2 in carry_fold) and 33 other zmm
 * operations (12 in carry_fold; 2 x 9 loading the groups: 2 vpermt2q, 3 shifts, 2 ands, 2 ors;
 * 3 adds of a into h; the 6 zeroing vpxorq taken as free): 71 operations, 35.5 cycles at 2 a
 * cycle, but 38 multiplies at 1 a cycle: a limit of 38 cycles, 0.148 c/B.  h's chain a step:
 * 1 add, 3 dependent multiplies (12 cycles), carry_fold's 6 dependent operations and 2
 * multiplies (14): about 27 cycles, below the 38, so one chain.  Measured 0.177-0.179 c/B here
 * (1.20x the limit; docs/poly1305.md has the tables; a loaded and added before b's products
 * instead of after: 0.191-0.193); with carry_fold all shifts and adds (19
 * operations: 36 multiplies and 40 other operations a step, 38 cycles at 2 a cycle, the same
 * limit) 0.182-0.185; before (two chains of 8-block groups, a carry_fold per group: 18
 * multiplies and 31 other operations per 8 blocks, limit 0.191) 0.247-0.251.
 * Each column's h products in the order limb 1, limb 2, limb 0 (limb 0 comes last from
 * carry_fold): no difference measured (0.182-0.195 against 0.182-0.185, noise).  The
 * single-chain products of the set-up, the odd step and the ends (mulmod) put each column's
 * three products in two accumulators (two chained multiplies, then one, added at the end).
 *
 * Register map of the 16-block loop:
 *   zmm0-2    h (limbs 0-2)                           zmm28-30  a group's limbs (b, then a)
 *   zmm3-5    r^16 in every lane; zmm6, 7 its 20 r1, 20 r2
 *   zmm8      hibit 2^40 in every lane (limb 2)       zmm9-14   column sums lo0 hi0 lo1 hi1 lo2 hi2
 *   zmm15     temporary                               zmm16-18  r^(8-j) per lane; zmm19, 20 its
 *   zmm21, 22 the qword indices of the blocks'                  20 r1, 20 r2
 *             low and high halves (vpermt2q)          zmm23-25  r^8 in every lane; zmm26, 27
 *   rdi st, rsi m (advanced 256 a step),                        its 20 r1, 20 r2
 *   zmm31     2^44 - 1 in every lane (the ands of load_group, add_group and carry_fold)
 *   r8 pairs of groups left before the last pair, r10 2 (nblocks % 8) + hibit
 * (in the set-up and the ends zmm3-7 and zmm15 hold the third products of mulmod, zmm28-30 the
 * power products)
 */

#define ST     %rdi
#define MSG    %rsi
#define GROUPS %r8
#define REST_HIBIT %r10 /* 2 (nblocks % 8) + hibit, for the tail call */

	.section .rodata
	.p2align 6
/* the qword indices (vpermt2q) of the 8 blocks' low halves, then of their high halves */
	.type	poly1305_ifma_idx_lo, @object
poly1305_ifma_idx_lo:
	.quad	0, 2, 4, 6, 8, 10, 12, 14
	.size	poly1305_ifma_idx_lo, . - poly1305_ifma_idx_lo
	.type	poly1305_ifma_idx_hi, @object
poly1305_ifma_idx_hi:
	.quad	1, 3, 5, 7, 9, 11, 13, 15
	.size	poly1305_ifma_idx_hi, . - poly1305_ifma_idx_hi
	.type	poly1305_ifma_mask44, @object
poly1305_ifma_mask44:
	.quad	0xfffffffffff
	.size	poly1305_ifma_mask44, . - poly1305_ifma_mask44
	.type	poly1305_ifma_5120, @object
poly1305_ifma_5120:
	.quad	5120
	.size	poly1305_ifma_5120, . - poly1305_ifma_5120
	.type	poly1305_ifma_5, @object
poly1305_ifma_5:
	.quad	5
	.size	poly1305_ifma_5, . - poly1305_ifma_5
	.type	poly1305_ifma_mask42, @object
poly1305_ifma_mask42:
	.quad	0x3ffffffffff
	.size	poly1305_ifma_mask42, . - poly1305_ifma_mask42

	.text

/* dst = 20 src (4 src + 16 src).  tmp: a temporary. */
.macro	times20 src, dst, tmp
	vpsllq	$2, \src, \dst
	vpsllq	$4, \src, \tmp
	vpaddq	\tmp, \dst, \dst
.endm

/* a = a r mod p, partially reduced (the header's bounds).  In: a0-a2, r0-r2, s1 = 20 r1,
 * s2 = 20 r2.  Out: a0-a2.  Temporaries: zmm3-7, zmm9-15. */
.macro	mulmod a0, a1, a2, r0, r1, r2, s1, s2
	vpxorq	%zmm9, %zmm9, %zmm9
	vpxorq	%zmm10, %zmm10, %zmm10
	vpxorq	%zmm11, %zmm11, %zmm11
	vpxorq	%zmm12, %zmm12, %zmm12
	vpxorq	%zmm13, %zmm13, %zmm13
	vpxorq	%zmm14, %zmm14, %zmm14
	vpxorq	%zmm3, %zmm3, %zmm3		/* the third product of each column apart: */
	vpxorq	%zmm4, %zmm4, %zmm4		/* chains of 2 and 1 multiplies, not 3 */
	vpxorq	%zmm5, %zmm5, %zmm5
	vpxorq	%zmm6, %zmm6, %zmm6
	vpxorq	%zmm7, %zmm7, %zmm7
	vpxorq	%zmm15, %zmm15, %zmm15
	vpmadd52luq	\r0, \a0, %zmm9		/* d0 = a0 r0 + a1 s2 + a2 s1 */
	vpmadd52huq	\r0, \a0, %zmm10
	vpmadd52luq	\r1, \a0, %zmm11	/* d1 = a0 r1 + a1 r0 + a2 s2 */
	vpmadd52huq	\r1, \a0, %zmm12
	vpmadd52luq	\r2, \a0, %zmm13	/* d2 = a0 r2 + a1 r1 + a2 r0 */
	vpmadd52huq	\r2, \a0, %zmm14
	vpmadd52luq	\s1, \a2, %zmm3
	vpmadd52huq	\s1, \a2, %zmm4
	vpmadd52luq	\s2, \a2, %zmm5
	vpmadd52huq	\s2, \a2, %zmm6
	vpmadd52luq	\r0, \a2, %zmm7
	vpmadd52huq	\r0, \a2, %zmm15
	vpmadd52luq	\s2, \a1, %zmm9
	vpmadd52huq	\s2, \a1, %zmm10
	vpmadd52luq	\r0, \a1, %zmm11
	vpmadd52huq	\r0, \a1, %zmm12
	vpmadd52luq	\r1, \a1, %zmm13
	vpmadd52huq	\r1, \a1, %zmm14
	vpaddq	%zmm3, %zmm9, %zmm9
	vpaddq	%zmm4, %zmm10, %zmm10
	vpaddq	%zmm5, %zmm11, %zmm11
	vpaddq	%zmm6, %zmm12, %zmm12
	vpaddq	%zmm7, %zmm13, %zmm13
	vpaddq	%zmm15, %zmm14, %zmm14
	carry_fold \a0, \a1, \a2
.endm

/* the column sums lo0 hi0 lo1 hi1 lo2 hi2 in zmm9-14 into a0-a2, partially reduced (the
 * header's bounds).  Two of its steps are multiplies by a constant with vpmadd52luq (the low
 * 52 bits of the product, added): 5120 hi2 (hi2 < 2^39, so 5120 hi2 < 2^52 is whole) for two
 * shifts and two adds, and 5 c (c < 2^13) for a shift and two adds: 12 other operations and
 * 2 multiplies, not 19 other operations (measured 0.183 -> 0.178 c/B; 256 hi0 and 256 hi1 the
 * same way, 4 multiplies for 4 operations, measured slower: 0.182).  Temporaries: zmm9-14. */
.macro	carry_fold a0, a1, a2
	vpmadd52luq	poly1305_ifma_5120(%rip){1to8}, %zmm14, %zmm9	/* t0 = lo0 + 20 (hi2 << 8) */
	vpsrlq	$44, %zmm9, \a1			/* t1 = lo1 + (hi0 << 8) + t0 >> 44 */
	vpandq	%zmm31, %zmm9, \a0
	vpsllq	$8, %zmm10, %zmm10
	vpaddq	%zmm10, %zmm11, %zmm11
	vpaddq	\a1, %zmm11, %zmm11
	vpsrlq	$44, %zmm11, \a2		/* t2 = lo2 + (hi1 << 8) + t1 >> 44 */
	vpandq	%zmm31, %zmm11, \a1
	vpsllq	$8, %zmm12, %zmm12
	vpaddq	%zmm12, %zmm13, %zmm13
	vpaddq	\a2, %zmm13, %zmm13
	vpsrlq	$42, %zmm13, %zmm10		/* c = t2 >> 42: multiples of 2^130 */
	vpandq	poly1305_ifma_mask42(%rip){1to8}, %zmm13, \a2
	vpmadd52luq	poly1305_ifma_5(%rip){1to8}, %zmm10, \a0	/* l0 += 5 c */
.endm

/* a0-a2 (default A, zmm0-2) += the 8 blocks at MSG (lane j: block j), with hibit; MSG += 128.
 * Temporaries zmm9-11. */
.macro	add_group a0=%zmm0, a1=%zmm1, a2=%zmm2
	vmovdqu64	0(MSG), %zmm9		/* blocks 0-3: lo hi lo hi ... */
	vmovdqu64	64(MSG), %zmm10		/* blocks 4-7 */
	vmovdqa64	%zmm9, %zmm11
	vpermt2q	%zmm10, %zmm21, %zmm11	/* the low halves, block order */
	vpermt2q	%zmm10, %zmm22, %zmm9	/* the high halves */
	vpandq	%zmm31, %zmm11, %zmm10
	vpaddq	%zmm10, \a0, \a0		/* limb 0: lo bits 0-43 */
	vpsrlq	$44, %zmm11, %zmm11
	vpsllq	$20, %zmm9, %zmm10
	vporq	%zmm10, %zmm11, %zmm11
	vpandq	%zmm31, %zmm11, %zmm11
	vpaddq	%zmm11, \a1, \a1		/* limb 1: lo bits 44-63, hi bits 0-23 */
	vpsrlq	$24, %zmm9, %zmm9
	vporq	%zmm8, %zmm9, %zmm9
	vpaddq	%zmm9, \a2, \a2		/* limb 2: hi bits 24-63, hibit at bit 40 */
	leaq	128(MSG), MSG
.endm

/* b0-b2 = the 8 blocks at off(MSG) in radix 2^44 (lane j: block j), with hibit; the two
 * qword permutes take their second table from memory.  Temporary: zmm15. */
.macro	load_group off, b0, b1, b2
	vmovdqu64	\off(MSG), \b0
	vmovdqu64	\off(MSG), \b2
	vpermt2q	\off+64(MSG), %zmm21, \b0	/* the low halves, block order */
	vpermt2q	\off+64(MSG), %zmm22, \b2	/* the high halves */
	vpsrlq	$44, \b0, \b1
	vpandq	%zmm31, \b0, \b0		/* limb 0: lo bits 0-43 */
	vpsllq	$20, \b2, %zmm15
	vporq	%zmm15, \b1, \b1
	vpandq	%zmm31, \b1, \b1		/* limb 1: lo bits 44-63, hi bits 0-23 */
	vpsrlq	$24, \b2, \b2
	vporq	%zmm8, \b2, \b2		/* limb 2: hi bits 24-63, hibit at bit 40 */
.endm

/* the column sums zmm9-14 (lo0 hi0 lo1 hi1 lo2 hi2) += a r, no carry: the products of
 * several numbers summed before one carry_fold */
.macro	mulacc a0, a1, a2, r0, r1, r2, s1, s2
	vpmadd52luq	\r0, \a0, %zmm9		/* d0 = a0 r0 + a1 s2 + a2 s1 */
	vpmadd52huq	\r0, \a0, %zmm10
	vpmadd52luq	\r1, \a0, %zmm11	/* d1 = a0 r1 + a1 r0 + a2 s2 */
	vpmadd52huq	\r1, \a0, %zmm12
	vpmadd52luq	\r2, \a0, %zmm13	/* d2 = a0 r2 + a1 r1 + a2 r0 */
	vpmadd52huq	\r2, \a0, %zmm14
	vpmadd52luq	\s2, \a1, %zmm9
	vpmadd52huq	\s2, \a1, %zmm10
	vpmadd52luq	\r0, \a1, %zmm11
	vpmadd52huq	\r0, \a1, %zmm12
	vpmadd52luq	\r1, \a1, %zmm13
	vpmadd52huq	\r1, \a1, %zmm14
	vpmadd52luq	\s1, \a2, %zmm9
	vpmadd52huq	\s1, \a2, %zmm10
	vpmadd52luq	\s2, \a2, %zmm11
	vpmadd52huq	\s2, \a2, %zmm12
	vpmadd52luq	\r0, \a2, %zmm13
	vpmadd52huq	\r0, \a2, %zmm14
.endm

/* dst (a GPR) = the sum of the 8 lanes of zmm. Clobbers zmm15 and the upper half of zmm. */
.macro	lanes_sum zmm, ymm, xmm, dst
	vextracti64x4	$1, \zmm, %ymm15
	vpaddq	%ymm15, \ymm, \ymm
	vextracti128	$1, \ymm, %xmm15
	vpaddq	%xmm15, \xmm, \xmm
	vpunpckhqdq	\xmm, \xmm, %xmm15
	vpaddq	%xmm15, \xmm, \xmm
	vmovq	\xmm, \dst
.endm

/* the power step: where k1 is set, zmm16-18 *= zmm23-25 (the current power of r) */
.macro	power_step
	vmovdqa64	%zmm16, %zmm28
	vmovdqa64	%zmm17, %zmm29
	vmovdqa64	%zmm18, %zmm30
	mulmod	%zmm28, %zmm29, %zmm30, %zmm23, %zmm24, %zmm25, %zmm26, %zmm27
	vmovdqa64	%zmm28, %zmm16{%k1}
	vmovdqa64	%zmm29, %zmm17{%k1}
	vmovdqa64	%zmm30, %zmm18{%k1}
.endm

/* zmm23-25 = their square; zmm26, 27 = 20 times its limbs 1, 2 */
.macro	square_power
	vmovdqa64	%zmm23, %zmm28
	vmovdqa64	%zmm24, %zmm29
	vmovdqa64	%zmm25, %zmm30
	mulmod	%zmm28, %zmm29, %zmm30, %zmm23, %zmm24, %zmm25, %zmm26, %zmm27
	vmovdqa64	%zmm28, %zmm23
	vmovdqa64	%zmm29, %zmm24
	vmovdqa64	%zmm30, %zmm25
	times20	%zmm24, %zmm26, %zmm15
	times20	%zmm25, %zmm27, %zmm15
.endm

	.globl	poly1305_blocks_x86_64_avx512_ifma
	.type	poly1305_blocks_x86_64_avx512_ifma, @function
	.p2align 4
poly1305_blocks_x86_64_avx512_ifma:
	cmpq	$8, %rdx
	jb	.Lscalar			/* fewer than 8 blocks: the mulx form */
	movq	%rdx, GROUPS
	shrq	$3, GROUPS
	movq	%rdx, REST_HIBIT
	andq	$7, REST_HIBIT
	leaq	(%rcx,REST_HIBIT,2), REST_HIBIT	/* 2 (nblocks % 8) + hibit */

	vpbroadcastq	poly1305_ifma_mask44(%rip), %zmm31	/* 2^44 - 1 in every lane */
	/* r to radix 2^44, in every lane: zmm23-25; 20 r1, 20 r2: zmm26, 27 */
	movabsq	$0xfffffffffff, %r11
	movq	24(ST), %rax
	movq	%rax, %r9
	andq	%r11, %r9
	vpbroadcastq	%r9, %zmm23
	movq	32(ST), %rdx
	shrdq	$44, %rdx, %rax			/* bits 44..107 of r */
	andq	%r11, %rax
	vpbroadcastq	%rax, %zmm24
	shrq	$24, %rdx			/* bits 88.. (r < 2^124: 36 bits) */
	vpbroadcastq	%rdx, %zmm25
	times20	%zmm24, %zmm26, %zmm15
	times20	%zmm25, %zmm27, %zmm15

	/* zmm16-18: lane j gets r^(8-j), from 1 by the binary digits of 8 - j */
	movl	$1, %eax
	vpbroadcastq	%rax, %zmm16
	vpxorq	%zmm17, %zmm17, %zmm17
	vpxorq	%zmm18, %zmm18, %zmm18
	movl	$0xaa, %eax			/* 8 - j odd: lanes 1, 3, 5, 7 */
	kmovw	%eax, %k1
	power_step
	square_power				/* r^2 */
	movl	$0x66, %eax			/* bit 1 of 8 - j: lanes 1, 2, 5, 6 */
	kmovw	%eax, %k1
	power_step
	square_power				/* r^4 */
	movl	$0x1e, %eax			/* bit 2: lanes 1-4 */
	kmovw	%eax, %k1
	power_step
	square_power				/* r^8: zmm23-27 from here on */
	movl	$0x01, %eax			/* bit 3: lane 0 */
	kmovw	%eax, %k1
	power_step
	times20	%zmm17, %zmm19, %zmm15
	times20	%zmm18, %zmm20, %zmm15

	/* hibit to bit 40 of limb 2; h to radix 2^44 in lane 0 (the others 0) */
	movq	%rcx, %rax
	shlq	$40, %rax
	vpbroadcastq	%rax, %zmm8
	movq	0(ST), %rax
	movq	8(ST), %rdx
	movq	16(ST), %rcx
	movq	%rax, %r9
	andq	%r11, %r9
	vmovq	%r9, %xmm0
	shrdq	$44, %rdx, %rax
	andq	%r11, %rax
	vmovq	%rax, %xmm1
	shrdq	$24, %rcx, %rdx			/* bits 88..151: h < 5 2^128, so 43 bits */
	vmovq	%rdx, %xmm2
	vmovdqu64	poly1305_ifma_idx_lo(%rip), %zmm21
	vmovdqu64	poly1305_ifma_idx_hi(%rip), %zmm22

	cmpq	$1, GROUPS
	je	.Llast
	/* one chain, 16 blocks (two groups, a and b) a step: h = (h + a) r^16 + b r^8, the 36
	 * products summed in zmm9-14 before one carry_fold; the last pair is (h + a) r^8 + b,
	 * then times (r^8, ..., r^1).  An odd count of groups first takes one step by r^8. */
	testq	$1, GROUPS
	jz	1f
	add_group
	mulmod	%zmm0, %zmm1, %zmm2, %zmm23, %zmm24, %zmm25, %zmm26, %zmm27
1:
	shrq	$1, GROUPS			/* pairs of groups */
	decq	GROUPS				/* the pairs before the last */
	jz	.Lpairs_done
	/* r^16 (zmm3-5; 20 r1, 20 r2 in zmm6, 7), the square of r^8 */
	vmovdqa64	%zmm23, %zmm28
	vmovdqa64	%zmm24, %zmm29
	vmovdqa64	%zmm25, %zmm30
	mulmod	%zmm28, %zmm29, %zmm30, %zmm23, %zmm24, %zmm25, %zmm26, %zmm27
	vmovdqa64	%zmm28, %zmm3
	vmovdqa64	%zmm29, %zmm4
	vmovdqa64	%zmm30, %zmm5
	times20	%zmm4, %zmm6, %zmm15
	times20	%zmm5, %zmm7, %zmm15
	.p2align 4
.Lpair:
	vpxorq	%zmm9, %zmm9, %zmm9
	vpxorq	%zmm10, %zmm10, %zmm10
	vpxorq	%zmm11, %zmm11, %zmm11
	vpxorq	%zmm12, %zmm12, %zmm12
	vpxorq	%zmm13, %zmm13, %zmm13
	vpxorq	%zmm14, %zmm14, %zmm14
	load_group	128, %zmm28, %zmm29, %zmm30	/* b, times r^8: not on h's chain */
	mulacc	%zmm28, %zmm29, %zmm30, %zmm23, %zmm24, %zmm25, %zmm26, %zmm27
	load_group	0, %zmm28, %zmm29, %zmm30	/* h + a, times r^16 */
	vpaddq	%zmm28, %zmm0, %zmm0
	vpaddq	%zmm29, %zmm1, %zmm1
	vpaddq	%zmm30, %zmm2, %zmm2
	mulacc	%zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm5, %zmm6, %zmm7
	carry_fold	%zmm0, %zmm1, %zmm2
	leaq	256(MSG), MSG
	decq	GROUPS
	jnz	.Lpair
.Lpairs_done:
	/* the last pair: (h + a) r^8, then + b as the last group */
	add_group
	mulmod	%zmm0, %zmm1, %zmm2, %zmm23, %zmm24, %zmm25, %zmm26, %zmm27
.Llast:
	add_group
.Lfinal:
	mulmod	%zmm0, %zmm1, %zmm2, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20

	/* h = the lanes' sum, back to radix 2^64, folded to h[2] <= 4 */
	lanes_sum	%zmm0, %ymm0, %xmm0, %rax	/* L0 < 2^48 */
	lanes_sum	%zmm1, %ymm1, %xmm1, %r8	/* L1 < 2^48 */
	lanes_sum	%zmm2, %ymm2, %xmm2, %r11	/* L2 < 2^45 */
	xorl	%edx, %edx			/* h1 */
	xorl	%ecx, %ecx			/* h2 */
	movq	%r8, %r9
	shlq	$44, %r9
	shrq	$20, %r8
	addq	%r9, %rax			/* + L1 2^44 */
	adcq	%r8, %rdx
	movq	%r11, %r9
	shlq	$24, %r9
	shrq	$40, %r11
	addq	%r9, %rdx			/* + L2 2^88 */
	adcq	%r11, %rcx
	movq	%rcx, %r9			/* fold: 5 (h2 >> 2) into h0 */
	shrq	$2, %r9
	leaq	(%r9,%r9,4), %r9
	andq	$3, %rcx
	addq	%r9, %rax
	adcq	$0, %rdx
	adcq	$0, %rcx
	movq	%rax, 0(ST)
	movq	%rdx, 8(ST)
	movq	%rcx, 16(ST)

	vzeroall				/* zmm0-15, whole */
	vpxorq	%zmm16, %zmm16, %zmm16
	vpxorq	%zmm17, %zmm17, %zmm17
	vpxorq	%zmm18, %zmm18, %zmm18
	vpxorq	%zmm19, %zmm19, %zmm19
	vpxorq	%zmm20, %zmm20, %zmm20
	vpxorq	%zmm21, %zmm21, %zmm21
	vpxorq	%zmm22, %zmm22, %zmm22
	vpxorq	%zmm23, %zmm23, %zmm23
	vpxorq	%zmm24, %zmm24, %zmm24
	vpxorq	%zmm25, %zmm25, %zmm25
	vpxorq	%zmm26, %zmm26, %zmm26
	vpxorq	%zmm27, %zmm27, %zmm27
	vpxorq	%zmm28, %zmm28, %zmm28
	vpxorq	%zmm29, %zmm29, %zmm29
	vpxorq	%zmm30, %zmm30, %zmm30
	vpxorq	%zmm31, %zmm31, %zmm31
	kxorw	%k1, %k1, %k1

	movq	REST_HIBIT, %rcx
	andq	$1, %rcx			/* hibit */
	shrq	$1, REST_HIBIT
	movq	REST_HIBIT, %rdx		/* the blocks after the groups */
.Lscalar:
	jmp	poly1305_blocks_x86_64_mulx	/* (st, m, nblocks, hibit): the rest */
	.size	poly1305_blocks_x86_64_avx512_ifma, . - poly1305_blocks_x86_64_avx512_ifma

	.section .note.GNU-stack, "", @progbits
