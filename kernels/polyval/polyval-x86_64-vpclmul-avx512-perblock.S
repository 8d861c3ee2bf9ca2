/* polyval-x86_64-vpclmul-avx512-perblock.S — POLYVAL update (RFC 8452 section 3), one block
 * at a time (Horner's rule), one reduction per block; VPCLMULQDQ with AVX-512VL on xmm.
 * Interface: kernels/polyval/polyval.h.  The judge: polyval_update() in reference/polyval.c.
 *
 *   void polyval_update_x86_64_vpclmul_avx512_perblock(uint8_t state[16],
 *        const uint8_t key_h[16], const uint8_t *blocks, size_t nblocks);
 *
 * What it computes: for each 16-byte block X, state = dot(state ^ X, H), dot(a, b) =
 * a * b * x^-128 in GF(2^128) mod x^128 + x^127 + x^126 + x^121 + 1, elements as 16-byte
 * little-endian strings; the arithmetic and the reduction are derived in
 * polyval-x86_64-common.h (RFC 8452; Gueron and Kounavis's carry-less multiplication paper).
 *
 * The pair that matters for this contract.  The key is the raw H on every call, so a kernel
 * that multiplies many blocks by powers of H must compute those powers inside the call.  This
 * form needs none: each block costs a multiplication and a reduction whose inputs wait on the
 * previous block's result, so it runs at the latency of that chain (three carry-less
 * multiplications deep per block: the product, the two folds), with nothing spent before the
 * first block.  Its sibling, polyval-x86_64-vpclmul-avx512-aggregated.S, first computes
 * H^1..H^16 (15 products in 4 dependent vector steps) and then needs one reduction per 16
 * blocks: it wins on long messages, this one on short ones; `./asmdiff bench polyval`
 * measures where they cross (its "calls of K" rows: a buffer hashed in calls of K blocks).
 * One run (2026-12-04, a 2-core Xeon with AVX-512, loaded by other jobs), the aggregated
 * form's cycles per byte over this one's: 1 block 2.72x, 2 blocks 1.70x, 3 blocks 1.53x,
 * 4 blocks 0.86x, 8 blocks 0.50x, 16 blocks 0.35x, 64 blocks 0.16x, one long call 0.12x: this
 * form is the faster one for calls of 1 to 3 blocks.
 *
 * Schoolbook, not Karatsuba: the four products of (state ^ X) with H are independent and issue
 * back to back, so the chain is one multiplication deep; Karatsuba would put a shuffle and an
 * XOR of the halves of state ^ X in front of its middle product (two more steps of latency on
 * the chain) to save one multiplication that is not on it.
 *
 * Calling convention: System V AMD64.  rdi = state (in/out), rsi = key_h, rdx = blocks,
 * rcx = nblocks; no alignment needed.  Clobbers rdx, rcx, flags, xmm16-22 (zmm16-22 whole);
 * those are zeroed before return, then vzeroupper.  No callee-saved register, no stack, no
 * opmask register is used.  nblocks = 0 returns at once (nothing read or written).
 * Requires AVX-512F, AVX-512BW, AVX-512VL and VPCLMULQDQ (cpu.h CPU_AVX512F | CPU_AVX512BW |
 * CPU_AVX512VL | CPU_VPCLMULQDQ): every vector instruction is EVEX-encoded, the registers being
 * xmm16-22, so the carry-less multiplications are VPCLMULQDQ's EVEX.128 form (on xmm0-15 the
 * assembler would pick PCLMULQDQ's VEX form), and vpslldq/vpsrldq in EVEX are AVX-512BW's.
 *
 * Register map of the loop:
 *   xmm16 the state (then state ^ X, then dot(state ^ X, H))   xmm17 H
 *   xmm18 low half of the product  xmm19, xmm20 middle products, temporaries
 *   xmm21 POLYVAL_C (qword 0)      xmm22 the reduction's temporary
 *   rdx next block   rcx blocks left
 */

#include "polyval-x86_64-common.h"

/* PB_UPDATE name, ghash:  the kernel as the function name; ghash = 1 makes it GHASH's
 * (kernels/ghash/ghash-x86_64-vpclmul-avx512-perblock.S: the GH_ macros of
 * kernels/ghash/ghash-x86_64-common.h reverse the state and every block and turn H into
 * mulX_POLYVAL(rev(H)); xmm23 holds a block, xmm24 the byte-reversal selector). */
.macro PB_UPDATE name, ghash
PV_ENTRY \name
        test %rcx, %rcx
        jz .Lpb_return                          /* perblock: nothing to hash */
        vmovdqu64 (%rdi), %xmm16                 /* the state */
        vmovdqu64 (%rsi), %xmm17                 /* H */
        vmovdqa64 polyval_x86_reduce_c(%rip), %xmm21
        .if \ghash
        vmovdqa64 ghash_x86_bswap(%rip), %xmm24
        GH_REV %xmm16, %xmm24
        GH_KEY %xmm17, %xmm24, %xmm19, %xmm20, q
        .endif
.Lpb_block:
        .if \ghash
        GH_LOAD %xmm23, (%rdx), %xmm24, vmovdqu64
        vpxorq %xmm23, %xmm16, %xmm16
        .else
        vpxorq (%rdx), %xmm16, %xmm16             /* state ^ X */
        .endif
        PV_MUL_EVEX %xmm16, %xmm17, %xmm18, %xmm16, %xmm19, %xmm20
        PV_REDUCE_EVEX %xmm18, %xmm16, %xmm21, %xmm22
        add $16, %rdx
        dec %rcx                                /* perblock: one block hashed */
        jnz .Lpb_block
        .if \ghash
        GH_REV %xmm16, %xmm24
        .endif
        vmovdqu64 %xmm16, (%rdi)
        PV_CLEAR 16, 17, 18, 19, 20, 21, 22     /* perblock: state, key, products */
        .if \ghash
        PV_CLEAR 23, 24
        .endif
        vzeroupper
.Lpb_return:
        ret
        .size \name, . - \name
.endm

/* kernels/ghash/ includes this file for the body alone (PV_BODY_ONLY) */
#ifndef PV_BODY_ONLY
PB_UPDATE polyval_update_x86_64_vpclmul_avx512_perblock, 0
#endif

        .section .note.GNU-stack, "", @progbits
