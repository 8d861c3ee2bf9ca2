/* polyval-x86_64-pclmul.S — POLYVAL update (RFC 8452 section 3) on xmm with PCLMULQDQ and AVX
 * (VEX encodings only), for hosts without VPCLMULQDQ: 4 blocks per reduction, Karatsuba.
 * Interface: kernels/polyval/polyval.h.  The judge: polyval_update() in reference/polyval.c.
 *
 *   void polyval_update_x86_64_pclmul(uint8_t state[16], const uint8_t key_h[16],
 *                                     const uint8_t *blocks, size_t nblocks);
 *
 * What it computes: for each 16-byte block X, state = dot(state ^ X, H), dot(a, b) =
 * a * b * x^-128 in GF(2^128) mod x^128 + x^127 + x^126 + x^121 + 1, elements as 16-byte
 * little-endian strings (arithmetic and reduction: polyval-x86_64-common.h, from RFC 8452 and
 * Gueron and Kounavis's carry-less multiplication paper).  Four blocks X1..X4 at a time:
 *     S' = dot(S ^ X1, H^4) ^ dot(X2, H^3) ^ dot(X3, H^2) ^ dot(X4, H)
 * with the dot-powers H^2 = dot(H, H), H^3 = dot(H^2, H), H^4 = dot(H^2, H^2), computed in the
 * call (the key is the raw H) when it has at least 4 blocks; the four unreduced products are
 * summed and reduced once.  The last 0-3 blocks go one at a time by H (Horner).
 *
 * Karatsuba, not schoolbook: a 128 x 128 product is a.lo*b.lo, a.hi*b.hi and
 * (a.lo^a.hi)*(b.lo^b.hi), the middle term being the third minus the other two, which across a
 * group needs fixing up only once, after the sums.  The sums of the halves of H^1..H^4 are made
 * once per call (two registers); each block pays one shuffle and one XOR for its own halves'
 * sum.  That trades a carry-less multiplication for two single-cycle vector operations, which
 * pays on the CPUs this form is for: up to Broadwell pclmulqdq issues at best every second
 * cycle (and is slower still on older and small cores), while shuffles and XORs do not wait on
 * the multiplier.  (The AVX-512 forms, on cores whose multiplier is fully pipelined and shares
 * its port with the shuffles, use schoolbook.)
 *
 * Powers only when a call has 4 blocks or more (3 products), so short calls cost about what the
 * per-block form's do.  One run of `./asmdiff bench polyval` (2026-12-04, a 2-core Xeon with
 * AVX-512, where this form runs beside the AVX-512 ones), cycles per byte over
 * x86_64-vpclmul-avx512-perblock's: calls of 1 block 1.07x, 4 blocks 0.61x, one long call
 * 0.36x; over x86_64-vpclmul-avx512-aggregated's, one long call 3.1x.
 *
 * Calling convention: System V AMD64.  rdi = state (in/out), rsi = key_h, rdx = blocks,
 * rcx = nblocks; no alignment needed.  Clobbers rdx, rcx, flags, xmm0-13 (their upper halves
 * too); those are zeroed before return, then vzeroupper.  No callee-saved register and no
 * stack is used.  nblocks = 0 returns at once (nothing read or written).
 * Requires PCLMULQDQ and AVX (cpu.h CPU_PCLMUL | CPU_AVX).
 *
 * Register map of the loop:
 *   xmm0 the state       xmm1-4 H^1, H^2, H^3, H^4
 *   xmm5 qword 0: H^1.lo ^ H^1.hi, qword 1: H^2.lo ^ H^2.hi
 *   xmm6 qword 0: H^3.lo ^ H^3.hi, qword 1: H^4.lo ^ H^4.hi
 *   xmm7 POLYVAL_C (qword 0)
 *   xmm8 sum of lo * lo   xmm9 sum of hi * hi   xmm10 sum of the halves' products
 *   xmm11 the block (the group's first: ^ state)   xmm12 its halves' sum   xmm13 temporary
 *   rdx next block   rcx blocks left
 */

#include "polyval-x86_64-common.h"

/* PC_PRODUCTS first, x, hp, k, sel:  the three Karatsuba products of x and the power hp, k
 * holding hp's halves' sum in the qword that sel's bit 4 picks, into the sums xmm8-10;
 * first = 1 starts the sums.  x is unchanged. */
.macro PC_PRODUCTS first, x, hp, k, sel
        vpshufd $0x4e, \x, %xmm12
        vpxor \x, %xmm12, %xmm12                /* x.lo ^ x.hi in both qwords */
        .if \first
        vpclmulqdq $0x00, \hp, \x, %xmm8
        vpclmulqdq $0x11, \hp, \x, %xmm9
        vpclmulqdq $\sel, \k, %xmm12, %xmm10
        .else
        vpclmulqdq $0x00, \hp, \x, %xmm13
        vpxor %xmm13, %xmm8, %xmm8
        vpclmulqdq $0x11, \hp, \x, %xmm13
        vpxor %xmm13, %xmm9, %xmm9
        vpclmulqdq $\sel, \k, %xmm12, %xmm13
        vpxor %xmm13, %xmm10, %xmm10
        .endif
.endm

/* PC_FINISH dst:  dst = the reduced sum: the Karatsuba middle term (xmm10 ^ xmm8 ^ xmm9) split
 * over the two halves, then one reduction. */
.macro PC_FINISH dst
        vpxor %xmm8, %xmm10, %xmm10
        vpxor %xmm9, %xmm10, %xmm10             /* the middle 128 bits */
        vpslldq $8, %xmm10, %xmm13
        vpsrldq $8, %xmm10, %xmm10
        vpxor %xmm13, %xmm8, %xmm8
        vpxor %xmm10, %xmm9, %xmm9
        PV_REDUCE_VEX %xmm8, %xmm9, %xmm7, %xmm13
        vmovdqa %xmm9, \dst
.endm

/* PC_HALVES dst, src:  dst = src.lo ^ src.hi in both qwords. */
.macro PC_HALVES dst, src
        vpshufd $0x4e, \src, \dst
        vpxor \src, \dst, \dst
.endm

/* PC_UPDATE name, ghash:  the kernel as the function name; ghash = 1 makes it GHASH's
 * (kernels/ghash/ghash-x86_64-pclmul.S: the GH_ macros of kernels/ghash/ghash-x86_64-common.h
 * reverse the state and every block and turn H into mulX_POLYVAL(rev(H)); xmm14 holds the
 * byte-reversal selector). */
.macro PC_UPDATE name, ghash
PV_ENTRY \name
        test %rcx, %rcx
        jz .Lpc_return                          /* pclmul: nothing to hash */
        vmovdqu (%rdi), %xmm0                   /* the state */
        vmovdqu (%rsi), %xmm1                   /* H */
        vmovdqa polyval_x86_reduce_c(%rip), %xmm7
        .if \ghash
        vmovdqa ghash_x86_bswap(%rip), %xmm14
        GH_REV %xmm0, %xmm14
        GH_KEY %xmm1, %xmm14, %xmm12, %xmm13
        .endif
        PC_HALVES %xmm5, %xmm1                  /* H's halves' sum in qword 0 */
        cmp $4, %rcx
        jb .Lpc_one                             /* pclmul: under 4 blocks, no powers */

        /* The powers and their halves' sums */
        PC_PRODUCTS 1, %xmm1, %xmm1, %xmm5, 0x00
        PC_FINISH %xmm2                         /* H^2 = dot(H, H) */
        PC_HALVES %xmm13, %xmm2
        vpunpcklqdq %xmm13, %xmm5, %xmm5        /* xmm5 = H halves : H^2 halves */
        PC_PRODUCTS 1, %xmm2, %xmm1, %xmm5, 0x00
        PC_FINISH %xmm3                         /* H^3 = dot(H^2, H) */
        PC_PRODUCTS 1, %xmm2, %xmm2, %xmm5, 0x10
        PC_FINISH %xmm4                         /* H^4 = dot(H^2, H^2) */
        PC_HALVES %xmm6, %xmm3
        PC_HALVES %xmm13, %xmm4
        vpunpcklqdq %xmm13, %xmm6, %xmm6        /* xmm6 = H^3 halves : H^4 halves */

.Lpc_loop4:
        .if \ghash
        GH_LOAD %xmm11, (%rdx), %xmm14, vmovdqu
        vpxor %xmm0, %xmm11, %xmm11
        .else
        vpxor (%rdx), %xmm0, %xmm11             /* the state into the group's first block */
        .endif
        PC_PRODUCTS 1, %xmm11, %xmm4, %xmm6, 0x10
        vmovdqu 16(%rdx), %xmm11
        .if \ghash
        GH_REV %xmm11, %xmm14
        .endif
        PC_PRODUCTS 0, %xmm11, %xmm3, %xmm6, 0x00
        vmovdqu 32(%rdx), %xmm11
        .if \ghash
        GH_REV %xmm11, %xmm14
        .endif
        PC_PRODUCTS 0, %xmm11, %xmm2, %xmm5, 0x10
        vmovdqu 48(%rdx), %xmm11
        .if \ghash
        GH_REV %xmm11, %xmm14
        .endif
        PC_PRODUCTS 0, %xmm11, %xmm1, %xmm5, 0x00
        PC_FINISH %xmm0
        add $64, %rdx
        sub $4, %rcx
        cmp $4, %rcx
        jae .Lpc_loop4
        test %rcx, %rcx
        jz .Lpc_store                           /* pclmul: no single block left */

.Lpc_one:
        .if \ghash
        GH_LOAD %xmm11, (%rdx), %xmm14, vmovdqu
        vpxor %xmm0, %xmm11, %xmm11
        .else
        vpxor (%rdx), %xmm0, %xmm11             /* state ^ X */
        .endif
        PC_PRODUCTS 1, %xmm11, %xmm1, %xmm5, 0x00
        PC_FINISH %xmm0
        add $16, %rdx
        dec %rcx
        jnz .Lpc_one

.Lpc_store:
        .if \ghash
        GH_REV %xmm0, %xmm14
        .endif
        vmovdqu %xmm0, (%rdi)
        PV_CLEAR_VEX 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13   /* pclmul: all */
        .if \ghash
        PV_CLEAR_VEX 14
        .endif
        vzeroupper
.Lpc_return:
        ret
        .size \name, . - \name
.endm

/* kernels/ghash/ includes this file for the body alone (PV_BODY_ONLY) */
#ifndef PV_BODY_ONLY
PC_UPDATE polyval_update_x86_64_pclmul, 0
#endif

        .section .note.GNU-stack, "", @progbits
