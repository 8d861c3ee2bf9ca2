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
 * form's cycles per byte over this one's: 1 block 2.75x, 2 blocks 1.70x, 3 blocks 1.47x,
 * 4 blocks 0.86x, 8 blocks 0.49x, 16 blocks 0.29x, 64 blocks 0.16x, one long call 0.12x: this
 * form is the faster one for calls of 1 to 3 blocks.
 *
 * Schoolbook, not Karatsuba: the four products of (state ^ X) with H are independent and issue
 * back to back, so the chain is one multiplication deep; Karatsuba would put a shuffle and an
 * XOR of the halves of state ^ X in front of its middle product (two more steps of latency on
 * the chain) to save one multiplication that is not on it.
 *
 * Calling convention: System V AMD64.  rdi = state (in/out), rsi = key_h, rdx = blocks,
 * rcx = nblocks; no alignment needed.  Clobbers rdx, rcx, flags, xmm0-6 (zmm0-6 whole); those
 * are zeroed before return, then vzeroupper.  No callee-saved register, no stack, no opmask
 * register is used.  nblocks = 0 returns at once (nothing read or written).
 * Requires AVX-512F, AVX-512VL and VPCLMULQDQ (cpu.h CPU_AVX512F | CPU_AVX512VL |
 * CPU_VPCLMULQDQ; the EVEX encodings: vpxorq, vpternlogq on xmm).
 *
 * Register map of the loop:
 *   xmm0 the state (then state ^ X, then dot(state ^ X, H))   xmm1 H
 *   xmm2 low half of the product   xmm3, xmm4 middle products, temporaries
 *   xmm5 POLYVAL_C (qword 0)       xmm6 the reduction's temporary
 *   rdx next block   rcx blocks left
 */

#include "polyval-x86_64-common.h"

PV_ENTRY polyval_update_x86_64_vpclmul_avx512_perblock
        test %rcx, %rcx
        jz .Lpb_return                          /* perblock: nothing to hash */
        vmovdqu (%rdi), %xmm0                   /* the state */
        vmovdqu (%rsi), %xmm1                   /* H */
        vmovdqa polyval_x86_reduce_c(%rip), %xmm5
.Lpb_block:
        vpxorq (%rdx), %xmm0, %xmm0             /* state ^ X */
        PV_MUL_EVEX %xmm0, %xmm1, %xmm2, %xmm0, %xmm3, %xmm4
        PV_REDUCE_EVEX %xmm2, %xmm0, %xmm5, %xmm6
        add $16, %rdx
        dec %rcx                                /* perblock: one block hashed */
        jnz .Lpb_block
        vmovdqu %xmm0, (%rdi)
        PV_CLEAR 0, 1, 2, 3, 4, 5, 6            /* perblock: state, key, products */
        vzeroupper
.Lpb_return:
        ret
        .size polyval_update_x86_64_vpclmul_avx512_perblock, . - polyval_update_x86_64_vpclmul_avx512_perblock

        .section .note.GNU-stack, "", @progbits
