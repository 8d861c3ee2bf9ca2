/* polyval-x86_64-vpclmul-avx512-aggregated.S — POLYVAL update (RFC 8452 section 3), 16 or 32
 * blocks per reduction: VPCLMULQDQ + AVX-512 on zmm, four or eight vectors of four blocks, each
 * block multiplied by its own power of H and the products summed before one reduction.
 * Interface: kernels/polyval/polyval.h.  The judge: polyval_update() in reference/polyval.c.
 *
 *   void polyval_update_x86_64_vpclmul_avx512_aggregated(uint8_t state[16],
 *        const uint8_t key_h[16], const uint8_t *blocks, size_t nblocks);
 *
 * What it computes: for each 16-byte block X, state = dot(state ^ X, H), dot(a, b) =
 * a * b * x^-128 in GF(2^128) mod x^128 + x^127 + x^126 + x^121 + 1, elements as 16-byte
 * little-endian strings (arithmetic and reduction: polyval-x86_64-common.h, from RFC 8452 and
 * Gueron and Kounavis's carry-less multiplication paper).  Unrolled, n blocks give
 *     S' = dot(S ^ X_1, H^n) ^ dot(X_2, H^(n-1)) ^ ... ^ dot(X_n, H)      (H^k: dot-powers,
 * H^1 = H, H^(k+1) = dot(H^k, H)), because dot(a, b) is bilinear and dot(dot(a, b), c) =
 * a * b * c * x^-256 = dot(a, dot(b, c)).  dot is the product followed by one reduction, and
 * the reduction is linear: the 16 unreduced 256-bit products of a group are summed first and
 * reduced once.
 *
 * The pair that matters for this contract.  The key is the raw H on every call: H^1..H^16 are
 * computed here at the start of every call that has a block (15 products, in 4 dependent
 * vector steps: H^2; H^4, H^3; H^8..H^5; H^16..H^9), a fixed cost that a short message does
 * not earn back; a call of 96 blocks or more also makes H^32..H^17 (16 more products and four
 * zmm reductions, one vector step: (H^16..H^1) * H^16) for its 32-block groups.  polyval-x86_64-vpclmul-avx512-perblock.S computes no power and reduces every
 * block: it wins on short messages, this form on long ones; `./asmdiff bench polyval`
 * measures where they cross (its "calls of K" rows: a buffer hashed in calls of K blocks).
 * One run (2026-12-04, a 2-core Xeon with AVX-512, loaded by other jobs), this form's cycles
 * per byte over the per-block form's: 1 block 2.72x, 2 blocks 1.70x, 3 blocks 1.53x, 4 blocks
 * 0.86x, 8 blocks 0.50x, 16 blocks 0.35x, 64 blocks 0.16x, one long call 0.12x (0.138 c/B
 * against 1.18): the crossover lies between 3 and 4 blocks a call.  Calls of 1-3 blocks pay
 * for all 16 powers and use one of them; a caller that knows its messages are short calls
 * the per-block form.
 *
 * Karatsuba in the 16- and 32-block groups, schoolbook in the tails (re-judged on this Zen 4,
 * 2026-12-05, with tools/zmm_op_bench.c: vpclmulqdq issues one every 2 cycles at every width,
 * and neither vpshufd nor the XORs wait for it: "clmul : vpshufd 1:1" 1.00 operations a cycle,
 * "clmul : vpshufd : xor 3:2:2" 1.03, so the shuffle and XOR that form a message vector's
 * halves' sums run beside the multiplier).  Each lane takes lo * lo, hi * hi and
 * (lo ^ hi) * (lo ^ hi): 3 products a block, 24 zmm products per 32 blocks instead of 32.  The
 * powers' halves' sums are made once per call (AG_KSUMS: two power vectors a register, qword 0
 * and qword 1 of each lane, zmm26-29); two message vectors' halves' sums likewise share a
 * register (AG_KPAIR: vpunpcklqdq, vpunpckhqdq, one XOR for both).  Karatsuba's fix-up (the
 * middle plus the low and high products) is linear, so it is made once a group on the lane
 * sums, and the middle enters the reduction unsplit (AG_KFOLD).  The tails of 8 and 4 blocks
 * stay schoolbook (no halves' sums to make for one or two vectors, and a call of fewer than 16
 * blocks makes none).
 *
 * Groups: in a call of 96 blocks or more, 32 blocks (H^32..H^1) while at least 32 remain; then
 * 16 blocks while at least 16 remain; then one group of 8 (H^8..H^1) if 8 remain, one
 * of 4 (H^4..H^1) if 4 remain, then the last 0-3 blocks one at a time by H (Horner), each group
 * and each single block with one reduction.  Loads are unaligned full vectors (no masks): a
 * group reads exactly its blocks.
 *
 * Calling convention: System V AMD64.  rdi = state (in/out), rsi = key_h, rdx = blocks,
 * rcx = nblocks; no alignment needed.  Clobbers rdx, rcx, flags, zmm0-16 and zmm18-31 (the
 * GHASH twin zmm17 too); those are zeroed before return, then vzeroupper.  No callee-saved register, no stack, no opmask register is
 * used.  nblocks = 0 returns at once (nothing read or written).
 * Requires AVX-512F, AVX-512BW (vpslldq/vpsrldq on zmm), AVX-512VL, VPCLMULQDQ and PCLMULQDQ
 * (cpu.h CPU_AVX512F | CPU_AVX512BW | CPU_AVX512VL | CPU_VPCLMULQDQ | CPU_PCLMUL): the xmm steps
 * (H^2, each group's one reduction, the single blocks) use xmm9-15, where the assembler picks
 * PCLMULQDQ's VEX form of vpclmulqdq.
 *
 * Register map of the main loops (lane j = 128 bits j of a zmm, lane 0 at the lowest address):
 *   zmm0       the state in lane 0, lanes 1-3 zero (XORed into the group's first block)
 *   zmm1-4     the powers by block position: zmm1 = H^16,H^15,H^14,H^13 (lanes 0-3), zmm2 =
 *              H^12..H^9, zmm3 = H^8..H^5, zmm4 = H^4..H^1
 *   zmm18-21   (32-block groups) H^32..H^29, H^28..H^25, H^24..H^21, H^20..H^17
 *   zmm5-8     16-block group: its blocks 0-3 (then ^= state), 4-7, 8-11, 12-15
 *              32-block group: blocks 0-3 (then ^= state) in zmm5, 4-7, 8-11, 12-15 in
 *              zmm22-24, 16-19, 20-23, 24-27 in zmm6-8, 28-31 in zmm25
 *   zmm9       sum of the low products (lo * lo)   zmm10 sum of the high products (hi * hi)
 *   zmm11      sum of the middle products (the 16- and 32-block groups: of the halves'
 *              products, made the middle once a group)   zmm12, zmm13 temporaries
 *   xmm14      H (the single-block steps)          zmm15 POLYVAL_C in qword 0 of each lane
 *   zmm16      a power broadcast to four lanes (while the powers are made); in the loops the
 *              state vector's middle product, then a lane sum of the middle
 *   zmm26-29   the powers' halves' sums (Karatsuba; made for calls of 16 blocks or more):
 *              qwords 0 and 1 of each lane: zmm26 H^32..H^29 and H^28..H^25 (32-block groups
 *              only), zmm27 H^24..H^21 and H^20..H^17 (ditto), zmm28 H^16..H^13 and
 *              H^12..H^9, zmm29 H^8..H^5 and H^4..H^1
 *   zmm30,31   message vectors' halves' sums (one or two vectors a register)
 *   zmm17      (GHASH only) the byte-reversal selector
 *   rdx        next block    rcx blocks left
 *
 * Where the cycles go (this Zen 4, EPYC family 25; tools/zmm_op_bench.c): vpclmulqdq issues
 * one every 2 cycles on zmm, ymm and xmm alike (latency 4), and the ternary XORs and vpshufd do
 * not wait for it.  Schoolbook takes 4 products per block, 16 zmm products per 16 blocks: 32
 * cycles per 256 bytes, 0.125 cycles/byte, the multiplier's limit; each group's reduction adds
 * 2 xmm products (4 cycles a group).  Measured per 16 blocks of a long call (a one-file rdtsc
 * loop, old and new side by side, scaled to core cycles by a chain of dependent adds):
 *   - before (16-block groups, the state's products first): 53 cycles, 0.207 c/B.  The chain
 *     from one group's state to the next (the XOR into block 0, its four products, the other
 *     12 vectors' products added after them, the middle split, the lane fold, the reduction's
 *     two dependent products) was longer than the 36 cycles of products;
 *   - the state's products added last (AG_LAST), 16-block groups: 48 cycles;
 *   - the same body with the state taken out of the chain (a wrong result, a measure only):
 *     42 cycles, so 16-block groups cannot reach 0.1625 c/B (1.3x the limit) even with the
 *     chain hidden: the fold and the reduction cost about 6 cycles of issue a group;
 *   - 32-block groups, the state's products last: 39 cycles (68 cycles of products per 32
 *     blocks, the chain of about 30 hidden under them; the same body without the chain: 39);
 *   - and two vectors' products to each vpternlogq (AG_PAIR: 4 XORs for 8 products, not 6;
 *     removing 14 XORs of a group had saved 4.4 cycles): 37.2-37.6 cycles, 0.145-0.147 c/B,
 *     1.17x the limit.  GHASH (one vpshufb more per vector): 54.0 before, 40.8 now, 0.160 c/B,
 *     1.28x.  The lanes reduced on zmm before they are summed (one register to fold, not
 *     two) gained nothing (0.98-1.01x) and is not in.
 *   Karatsuba (2026-12-05; per 32 blocks of a 1024-block call, per-call costs included,
 *   tools/polyval_body_bench.sh beside main's body): schoolbook 76.0 (GHASH 82.2); Karatsuba
 *   with each vector's halves' sums by vpshufd + XOR 72.4 (77.5); two vectors' halves' sums in
 *   one register 70.8 (76.4); the middle into the reduction unsplit 67.8-68.6 (74.5-75.0):
 *   0.133 c/B (GHASH 0.146).  Measures only (wrong results): the state out of the chain 71.0,
 *   so the chain does not bound the loop; without the halves' shuffles and XORs 64.5; without
 *   the fold and reduction 60.0.  The multiplier's 24 zmm products are 48 of the 68 cycles.
 * ./asmdiff bench (three or four runs, each one process beside Linux 6.12's polyval-clmulni /
 * ghash-clmulni (PCLMULQDQ, xmm), nettle 3.8 and libgcrypt 1.12.4's cipher-gcm-intel-pclmul.c
 * (GHASH), machine loaded, the bench's clock 3685-3694 MHz, about 1.06x the rdtsc loop's
 * cycles), one long call, c/B (median / 0.125, / 0.094 the Karatsuba limit):
 *     POLYVAL  aggregated 0.142 0.144 0.142 (1.14x, 1.53x)   Linux clmul_polyval_update 0.531
 *              0.532 0.531 0.534   pclmul 0.478 0.475 0.480   perblock 1.37 1.38 1.37
 *     GHASH    aggregated 0.153 0.153 0.151 (1.22x, 1.63x)   libgcrypt vpclmul-avx512 0.168
 *              0.166 0.166   vpclmul-avx2 0.211   pclmul 0.416   nettle 0.832 0.823   Linux
 *              clmul_ghash_update 1.76
 *   (before Karatsuba: 0.155 and 0.167; before the 32-block groups: 0.203 and 0.206).  Every
 *   row, run and the calls of 1..64 blocks: docs/speed.md.
 * The powers H^17..H^32 cost about 60 cycles; made at 32 blocks, a call of 32 or 64 blocks
 * came out 1.28x and 1.10x slower than before, at 96 level, from 128 faster (0.95x, 256: 0.84x),
 * hence the threshold of 96 blocks (docs/speed.md, "POLYVAL and GHASH on this CPU").
 */

#include "polyval-x86_64-common.h"

/* AG_PRODUCTS first, x, p:  the four products of every lane of x with the same lane of p,
 * into the sums zmm9 (low), zmm10 (high), zmm11 (middle); first = 1 starts the sums. */
.macro AG_PRODUCTS first, x, p
        .if \first
        vpclmulqdq $0x00, \p, \x, %zmm9
        vpclmulqdq $0x11, \p, \x, %zmm10
        vpclmulqdq $0x01, \p, \x, %zmm11
        vpclmulqdq $0x10, \p, \x, %zmm12
        vpxorq %zmm12, %zmm11, %zmm11
        .else
        vpclmulqdq $0x00, \p, \x, %zmm12
        vpclmulqdq $0x11, \p, \x, %zmm13
        vpxorq %zmm12, %zmm9, %zmm9
        vpxorq %zmm13, %zmm10, %zmm10
        vpclmulqdq $0x01, \p, \x, %zmm12
        vpclmulqdq $0x10, \p, \x, %zmm13
        vpternlogq $0x96, %zmm12, %zmm13, %zmm11
        .endif
.endm

/* AG_HALVES x, t:  t = x ^ swap64(x) per lane: each lane's two qwords both hold the sum of
 * x's halves, the multiplier of Karatsuba's middle product. */
.macro AG_HALVES x, t
        vpshufd $0x4e, \x, \t
        vpxorq \x, \t, \t
.endm

/* AG_KSUMS a, b, k:  k = the powers' halves' sums for Karatsuba, two power vectors in one
 * register: qword 0 of each lane a.lo ^ a.hi, qword 1 b.lo ^ b.hi (once per call). */
.macro AG_KSUMS a, b, k
        vpunpcklqdq \b, \a, %zmm12
        vpunpckhqdq \b, \a, \k
        vpxorq %zmm12, \k, \k                   /* aggregated: lo ^ hi of a and of b */
.endm

/* AG_KFIRST x, p, k, s:  Karatsuba, three products per lane (RFC-free algebra: with a = a1:a0,
 * b = b1:b0, a * b = a1b1 x^128 + ((a1+a0)(b1+b0) + a1b1 + a0b0) x^64 + a0b0): x's lanes by
 * p's, the halves' product by qword s of k; starts the sums zmm9 (low), zmm10 (high), zmm11
 * (the halves' products, made into the middle once a group: AG_KFINISH). */
.macro AG_KFIRST x, p, k, s
        AG_HALVES \x, %zmm30
        vpclmulqdq $0x00, \p, \x, %zmm9
        vpclmulqdq $0x11, \p, \x, %zmm10
        vpclmulqdq $(\s << 4), \k, %zmm30, %zmm11
.endm

/* AG_KPAIR x, p, k, s, y, q, l, t:  the Karatsuba products of two vectors (x by the powers p,
 * halves' sums in qword s of k; y by q, qword t of l) added to the started sums, two products
 * to each vpternlogq. */
.macro AG_KPAIR x, p, k, s, y, q, l, t
        vpunpcklqdq \y, \x, %zmm30
        vpunpckhqdq \y, \x, %zmm31
        vpxorq %zmm31, %zmm30, %zmm30           /* x's halves' sums in qword 0, y's in 1 */
        vpclmulqdq $0x00, \p, \x, %zmm12
        vpclmulqdq $0x00, \q, \y, %zmm13
        vpternlogq $0x96, %zmm12, %zmm13, %zmm9
        vpclmulqdq $0x11, \p, \x, %zmm12
        vpclmulqdq $0x11, \q, \y, %zmm13
        vpternlogq $0x96, %zmm12, %zmm13, %zmm10
        vpclmulqdq $(\s << 4), \k, %zmm30, %zmm12
        vpclmulqdq $(\t << 4 | 1), \l, %zmm30, %zmm13
        vpternlogq $0x96, %zmm12, %zmm13, %zmm11
.endm

/* AG_KLAST x, p, k, s:  the Karatsuba products of the vector that holds the state (added last,
 * so that only they wait for it), then the middle: the halves' products plus all low and high
 * products (zmm11 ^= zmm9 ^ zmm10, the Karatsuba fix-up, once for the whole group since every
 * step is linear), split over the low and high halves. */
.macro AG_KLAST x, p, k, s
        AG_HALVES \x, %zmm30
        vpclmulqdq $0x00, \p, \x, %zmm12
        vpclmulqdq $0x11, \p, \x, %zmm13
        vpclmulqdq $(\s << 4), \k, %zmm30, %zmm16
        vpxorq %zmm12, %zmm9, %zmm9
        vpxorq %zmm13, %zmm10, %zmm10
        vpxorq %zmm16, %zmm11, %zmm11
        AG_KFOLD
.endm

/* AG_KFOLD:  the group's new state into xmm0 from the low (zmm9), high (zmm10) and middle
 * (zmm11) sums: the four lanes of each summed, then one reduction that takes the middle in
 * without splitting it first.  With lo = T1:T0, hi = T3:T2 and the middle m = m1:m0 adding
 * m0 to T1 and m1 to T2, PV_REDUCE_EVEX's result hi ^ W ^ M' becomes, since T0 and so
 * M = clmul(T0, C) do not change, and m's two halves land swapped:
 *     Y = lo ^ swap64(m ^ M)       (Y.q1 = T1 ^ m0 ^ M0: the second fold's operand)
 *     result = hi ^ Y ^ clmul(Y.q1, C)
 * one XOR more than the reduction and no shifts of the middle. */
.macro AG_KFOLD
        vextracti64x4 $1, %zmm9, %ymm12
        vextracti64x4 $1, %zmm10, %ymm13
        vextracti64x4 $1, %zmm11, %ymm16
        vpxorq %ymm12, %ymm9, %ymm9
        vpxorq %ymm13, %ymm10, %ymm10
        vpxorq %ymm16, %ymm11, %ymm11
        vextracti32x4 $1, %ymm9, %xmm12
        vextracti32x4 $1, %ymm10, %xmm13
        vextracti32x4 $1, %ymm11, %xmm16
        vpxorq %xmm12, %xmm9, %xmm9
        vpxorq %xmm13, %xmm10, %xmm10
        vpxorq %xmm16, %xmm11, %xmm11
        vpclmulqdq $0x00, %xmm15, %xmm9, %xmm12 /* M = T0 * C: the first fold */
        vpternlogq $0x96, %xmm9, %xmm10, %xmm11 /* m = the halves' products + lo + hi */
        vpxorq %xmm12, %xmm11, %xmm11           /* m ^ M */
        vpshufd $0x4e, %xmm11, %xmm11
        vpxorq %xmm11, %xmm9, %xmm9             /* Y = lo ^ swap64(m ^ M) */
        vpclmulqdq $0x01, %xmm15, %xmm9, %xmm12 /* M' = Y.q1 * C: the second fold */
        vpternlogq $0x96, %xmm12, %xmm9, %xmm10 /* hi ^ Y ^ M' */
        vmovdqa64 %xmm10, %xmm0
.endm

/* AG_FINISH:  the group's new state into xmm0 (lanes 1-3 of zmm0 zero) from the sums of
 * AG_PRODUCTS: the middle sums split over the low and high halves, then AG_FOLD. */
.macro AG_FINISH
        vpslldq $8, %zmm11, %zmm12
        vpsrldq $8, %zmm11, %zmm11
        vpxorq %zmm12, %zmm9, %zmm9
        vpxorq %zmm11, %zmm10, %zmm10
        AG_FOLD
.endm

/* AG_FOLD:  the four lanes of the low (zmm9) and high (zmm10) sums summed, one reduction, the
 * new state into xmm0. */
.macro AG_FOLD
        vextracti64x4 $1, %zmm9, %ymm12
        vextracti64x4 $1, %zmm10, %ymm13
        vpxorq %ymm12, %ymm9, %ymm9
        vpxorq %ymm13, %ymm10, %ymm10
        vextracti32x4 $1, %ymm9, %xmm12
        vextracti32x4 $1, %ymm10, %xmm13
        vpxorq %xmm12, %xmm9, %xmm9
        vpxorq %xmm13, %xmm10, %xmm10
        PV_REDUCE_EVEX %xmm9, %xmm10, %xmm15, %xmm12
        vmovdqa64 %xmm10, %xmm0
.endm

/* AG_UPDATE name, ghash:  the kernel as the function name; ghash = 1 makes it GHASH's
 * (kernels/ghash/ghash-x86_64-vpclmul-avx512-aggregated.S: the GH_ macros of
 * kernels/ghash/ghash-x86_64-common.h reverse the state and every block and turn H into
 * mulX_POLYVAL(rev(H)) before the powers are made; zmm17 holds the byte-reversal selector). */
.macro AG_UPDATE name, ghash
PV_ENTRY \name
        test %rcx, %rcx
        jz .Lag_return                          /* aggregated: nothing to hash */
        vmovdqu (%rdi), %xmm0                   /* the state, lanes 1-3 zero */
        vmovdqu (%rsi), %xmm14                  /* H */
        vbroadcasti32x4 polyval_x86_reduce_c(%rip), %zmm15
        .if \ghash
        vbroadcasti32x4 ghash_x86_bswap(%rip), %zmm17
        GH_REV %xmm0, %xmm17
        GH_KEY %xmm14, %xmm17, %xmm12, %xmm13, q
        .endif

        /* The powers.  H^2 = dot(H, H). */
        PV_MUL_EVEX %xmm14, %xmm14, %xmm9, %xmm10, %xmm12, %xmm13
        PV_REDUCE_EVEX %xmm9, %xmm10, %xmm15, %xmm12
        /* (H^2, H) times H^2 in both lanes: (H^4, H^3) */
        vinserti32x4 $1, %xmm14, %ymm10, %ymm4  /* ymm4 = H^2, H */
        vshufi64x2 $0, %ymm10, %ymm10, %ymm16   /* H^2, H^2 */
        PV_MUL_EVEX %ymm4, %ymm16, %ymm9, %ymm10, %ymm12, %ymm13
        PV_REDUCE_EVEX %ymm9, %ymm10, %ymm15, %ymm12
        vinserti64x4 $1, %ymm4, %zmm10, %zmm4   /* zmm4 = H^4, H^3, H^2, H */
        /* H^8..H^5 = (H^4..H^1) * H^4 */
        vshufi64x2 $0, %zmm4, %zmm4, %zmm16     /* H^4 in every lane */
        PV_MUL_EVEX %zmm4, %zmm16, %zmm9, %zmm3, %zmm12, %zmm13
        PV_REDUCE_EVEX %zmm9, %zmm3, %zmm15, %zmm12
        /* H^12..H^9 = (H^4..H^1) * H^8 and H^16..H^13 = (H^8..H^5) * H^8, side by side */
        vshufi64x2 $0, %zmm3, %zmm3, %zmm16     /* H^8 in every lane */
        PV_MUL_EVEX %zmm4, %zmm16, %zmm9, %zmm2, %zmm12, %zmm13
        PV_MUL_EVEX %zmm3, %zmm16, %zmm5, %zmm1, %zmm6, %zmm7
        PV_REDUCE_EVEX %zmm9, %zmm2, %zmm15, %zmm12
        PV_REDUCE_EVEX %zmm5, %zmm1, %zmm15, %zmm6
        cmp $16, %rcx
        jb .Lag_tail8                           /* aggregated: no 16-block group */
        AG_KSUMS %zmm1, %zmm2, %zmm28           /* the halves' sums: H^16..H^9 */
        AG_KSUMS %zmm3, %zmm4, %zmm29           /* H^8..H^1 */
        cmp $96, %rcx
        jb .Lag_check16                         /* aggregated: under 96 blocks, 16 a group */
        /* H^32..H^17 = (H^16..H^1) * H^16, only for a call of 96 blocks or more (below it,
         * these 24 products cost more than the 32-block groups save) */
        vshufi64x2 $0, %zmm1, %zmm1, %zmm16     /* H^16 in every lane */
        PV_MUL_EVEX %zmm1, %zmm16, %zmm9, %zmm18, %zmm12, %zmm13
        PV_MUL_EVEX %zmm2, %zmm16, %zmm5, %zmm19, %zmm6, %zmm7
        PV_MUL_EVEX %zmm3, %zmm16, %zmm8, %zmm20, %zmm10, %zmm11
        PV_MUL_EVEX %zmm4, %zmm16, %zmm22, %zmm21, %zmm23, %zmm24
        PV_REDUCE_EVEX %zmm9, %zmm18, %zmm15, %zmm12
        PV_REDUCE_EVEX %zmm5, %zmm19, %zmm15, %zmm6
        PV_REDUCE_EVEX %zmm8, %zmm20, %zmm15, %zmm10
        PV_REDUCE_EVEX %zmm22, %zmm21, %zmm15, %zmm23
        AG_KSUMS %zmm18, %zmm19, %zmm26         /* the halves' sums: H^32..H^25 */
        AG_KSUMS %zmm20, %zmm21, %zmm27         /* H^24..H^17 */
.Lag_loop32:
        /* blocks 4-31 first: their 28 products do not wait for the state, so they run while
         * the previous group's sums are folded and reduced; the state enters last */
        .if \ghash
        GH_LOAD %zmm22, 64(%rdx), %zmm17, vmovdqu64
        GH_LOAD %zmm23, 128(%rdx), %zmm17, vmovdqu64
        GH_LOAD %zmm24, 192(%rdx), %zmm17, vmovdqu64
        GH_LOAD %zmm6, 256(%rdx), %zmm17, vmovdqu64
        GH_LOAD %zmm7, 320(%rdx), %zmm17, vmovdqu64
        GH_LOAD %zmm8, 384(%rdx), %zmm17, vmovdqu64
        GH_LOAD %zmm25, 448(%rdx), %zmm17, vmovdqu64
        GH_LOAD %zmm5, (%rdx), %zmm17, vmovdqu64
        .else
        vmovdqu64 64(%rdx), %zmm22
        vmovdqu64 128(%rdx), %zmm23
        vmovdqu64 192(%rdx), %zmm24
        vmovdqu64 256(%rdx), %zmm6
        vmovdqu64 320(%rdx), %zmm7
        vmovdqu64 384(%rdx), %zmm8
        vmovdqu64 448(%rdx), %zmm25
        vmovdqu64 (%rdx), %zmm5
        .endif
        AG_KFIRST %zmm22, %zmm19, %zmm26, 1     /* H^28..H^25 */
        AG_KPAIR %zmm23, %zmm20, %zmm27, 0, %zmm24, %zmm21, %zmm27, 1   /* H^24..H^17 */
        AG_KPAIR %zmm6, %zmm1, %zmm28, 0, %zmm7, %zmm2, %zmm28, 1       /* H^16..H^9 */
        AG_KPAIR %zmm8, %zmm3, %zmm29, 0, %zmm25, %zmm4, %zmm29, 1      /* H^8..H^1 */
        vpxorq %zmm0, %zmm5, %zmm5              /* the state into block 0 (32-block group) */
        AG_KLAST %zmm5, %zmm18, %zmm26, 0       /* H^32..H^29, the state's products last */
        add $512, %rdx
        sub $32, %rcx
        cmp $32, %rcx
        jae .Lag_loop32
.Lag_check16:
        cmp $16, %rcx
        jb .Lag_tail8                           /* aggregated: fewer than 16 left */
.Lag_loop16:
        /* blocks 4-15 first: their 12 products do not wait for the state, so they run
         * while the previous group's sums are folded and reduced; the state enters last */
        .if \ghash
        GH_LOAD %zmm6, 64(%rdx), %zmm17, vmovdqu64
        GH_LOAD %zmm7, 128(%rdx), %zmm17, vmovdqu64
        GH_LOAD %zmm8, 192(%rdx), %zmm17, vmovdqu64
        GH_LOAD %zmm5, (%rdx), %zmm17, vmovdqu64
        .else
        vmovdqu64 64(%rdx), %zmm6
        vmovdqu64 128(%rdx), %zmm7
        vmovdqu64 192(%rdx), %zmm8
        vmovdqu64 (%rdx), %zmm5                 /* blocks 0-3 */
        .endif
        AG_KFIRST %zmm6, %zmm2, %zmm28, 1       /* H^12..H^9 */
        AG_KPAIR %zmm7, %zmm3, %zmm29, 0, %zmm8, %zmm4, %zmm29, 1       /* H^8..H^1 */
        vpxorq %zmm0, %zmm5, %zmm5              /* the state into block 0 */
        AG_KLAST %zmm5, %zmm1, %zmm28, 0        /* H^16..H^13, the state's products last */
        add $256, %rdx
        sub $16, %rcx
        cmp $16, %rcx
        jae .Lag_loop16

.Lag_tail8:
        test $8, %rcx
        jz .Lag_tail4                           /* aggregated: fewer than 8 left */
        .if \ghash
        GH_LOAD %zmm5, (%rdx), %zmm17, vmovdqu64
        vpxorq %zmm0, %zmm5, %zmm5
        GH_LOAD %zmm6, 64(%rdx), %zmm17, vmovdqu64
        .else
        vpxorq (%rdx), %zmm0, %zmm5
        vmovdqu64 64(%rdx), %zmm6
        .endif
        AG_PRODUCTS 1, %zmm5, %zmm3             /* H^8..H^5 */
        AG_PRODUCTS 0, %zmm6, %zmm4             /* H^4..H^1 */
        AG_FINISH
        add $128, %rdx
.Lag_tail4:
        test $4, %rcx
        jz .Lag_tail1                           /* aggregated: fewer than 4 left */
        .if \ghash
        GH_LOAD %zmm5, (%rdx), %zmm17, vmovdqu64
        vpxorq %zmm0, %zmm5, %zmm5
        .else
        vpxorq (%rdx), %zmm0, %zmm5
        .endif
        AG_PRODUCTS 1, %zmm5, %zmm4             /* H^4..H^1 */
        AG_FINISH
        add $64, %rdx
.Lag_tail1:
        and $3, %rcx
        jz .Lag_store                           /* aggregated: no single block left */
.Lag_one:
        .if \ghash
        GH_LOAD %xmm5, (%rdx), %xmm17, vmovdqu64
        vpxorq %xmm0, %xmm5, %xmm5
        .else
        vpxorq (%rdx), %xmm0, %xmm5             /* state ^ X */
        .endif
        PV_MUL_EVEX %xmm5, %xmm14, %xmm9, %xmm10, %xmm12, %xmm13
        PV_REDUCE_EVEX %xmm9, %xmm10, %xmm15, %xmm12
        vmovdqa64 %xmm10, %xmm0
        add $16, %rdx
        dec %rcx
        jnz .Lag_one

.Lag_store:
        .if \ghash
        GH_REV %xmm0, %xmm17
        .endif
        vmovdqu %xmm0, (%rdi)
        PV_CLEAR 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16   /* aggregated: all */
        PV_CLEAR 18, 19, 20, 21, 22, 23, 24, 25   /* aggregated: the 32-block group's */
        PV_CLEAR 26, 27, 28, 29, 30, 31   /* aggregated: the halves' sums (Karatsuba) */
        .if \ghash
        PV_CLEAR 17
        .endif
        vzeroupper
.Lag_return:
        ret
        .size \name, . - \name
.endm

/* kernels/ghash/ includes this file for the body alone (PV_BODY_ONLY) */
#ifndef PV_BODY_ONLY
AG_UPDATE polyval_update_x86_64_vpclmul_avx512_aggregated, 0
#endif

        .section .note.GNU-stack, "", @progbits
