/* aes-x86_64-vaes-avx2-shift.S — AES (FIPS-197) in ECB, CBC decryption, CTR, CTR32LE and XTS,
 * VAES + AVX2 on ymm (VEX only: no EVEX, no zmm, no ymm16-31, no opmask), the shift form.
 *
 *   aes_{ecb_enc,ecb_dec,cbc_dec,ctr,ctr32le,xts_enc,xts_dec}_vaes_avx2_shift
 *
 * Computes what reference/aes.c (the cipher) and reference/blockmodes.c (the modes) compute;
 * the interface, schedules and contract are those of kernels/aes/aes.h.
 *
 * Calling convention: System V AMD64.
 *   rdi ks (round keys, aes.h's byte order), esi rounds (10, 12, 14; upper half of rsi
 *   ignored), rdx out, rcx in, r8 nblocks (XTS: len in bytes), r9 iv / ctr / tweak
 *   Clobbers rax, rcx, rdx, r8, r10, r11, flags and ymm0-15, which end all zero (vzeroall).
 *   rdi, rsi and r9 are read, not written; no callee-saved register, no frame.  XTS uses the
 *   red zone (the 128 bytes below rsp: the tweak pairs of a pass's second half, made a pass
 *   ahead) and zeroes it before returning; the other modes touch no stack.
 *
 * The code is in aes-x86_64-vaes-avx2-common.h, shared with the clmul form: each round key
 * is broadcast into ymm15 from memory when its round comes (ECB runs at the AES units' bound
 * that way: the loads are not what limits, and 16 registers have no room for 15 keys beside
 * the data); every mode runs 16 blocks per pass in 8 ymm chains (vaesenc ymm: latency 4, two
 * a cycle on Zen 4: 8 chains keep both AES units busy; XTS fits them beside its tweaks by
 * keeping k_last ^ T in the output's own place and half its tweak pairs in the red zone:
 * XTS_PASS16 in the common file).  What is left after the
 * passes goes by its binary digits (8, 4, 2 blocks in ymm, the odd block in an xmm), so
 * exactly the data's bytes are read and written with no byte masks; XTS stealing moves its
 * bytes with a GPR loop.
 *
 * Main loop register maps (details in the common file):
 *   ECB, CBC  ymm0-7 data, ymm13 [iv or previous block, in[0]], xmm14 previous block,
 *             ymm15 round key; rcx in, rdx out, r8 blocks left, r10 last round key
 *   CTR       ymm0-7 data, ymm11 carry mask, ymm12 byte reversal, ymm13 counter pair
 *             [c, c+1], ymm14 whitening key, ymm15 round key
 *   XTS       ymm0-7 data, ymm8-11 tweak pairs P0-P3 of blocks 0-7, ymm12-13 scratch, ymm14
 *             last round key, ymm15 round key; red zone: the pairs Q0-Q3 of blocks 8-15;
 *             rax whole blocks left, r11 len % 16
 *
 * What this form does differently from aes-x86_64-vaes-avx2-clmul.S, and why each choice is
 * a real one:
 *   XTS  the byte b pushed out of x^128 by a tweak's x^8 step, brought back by the rotation
 *        as its 1 term, gets its x, x^2 and x^7 terms with additions, a shift and XORs: 8
 *        ops per tweak pair (XTS_NEXT8), where the clmul form needs 4 with one vpclmulqdq.  No
 *        carry-less multiplier at all, for CPUs (or emulators) where it is slow or shares the
 *        AES units (it does on Zen 4, and the clmul form is still faster there: 0.263 against
 *        0.280 c/B for AES-256 XTS).  The generic step (XTS_NEXT: first pairs, the stealing)
 *        is the classic vpsrlq/vpsllq/vpshufd/vpand one.
 *   CTR  every block is carried through all 128 bits, on every pass: a 64-bit add, the low
 *        qword's carry out as the top bit of old & ~new (vpandn, vpsrlq), moved to the high
 *        qword by a swap of the lane's qwords (vpshufd) and added there: five ops per
 *        register (and the byte reversal) instead of the clmul form's one or two, but no
 *        branch and no test that must be right for the rare counter that wraps: the same
 *        code runs for every counter.  No compare: vpcmpgtq ymm takes an AES slot on Zen 4.
 *
 * Both forms step the XTS tweaks by x^8 (XTS_NEXT8): blocks 8-15 of a pass take P0-P3 * x^8
 * and the next pass P0-P3 those times x^8 again.  x^8 is a whole byte, so rotating each
 * 128-bit lane's bytes up one place (one vpshufb) shifts it and brings the byte pushed out of
 * x^128 back in as the 1 term of its reduction; only b * (x^7+x^2+x) is left to add.
 * XTS_NEXT (any k) builds the first pairs and steps the stealing's tweak.
 *
 * Where the cycles go on Zen 4 (AMD EPYC, family 25, round 8): see "Where the cycles go" in
 * aes-x86_64-vaes-avx2-common.h and docs/aes.md.  Before round 8, on an Intel Xeon (family 6
 * model 207, rdtsc cycles per byte at 16 KiB in place, the 2-core machine otherwise busy; the
 * test program of that report, not ./asmdiff bench; XTS then 12 blocks a pass in 6 chains):
 *                 ECB enc  ECB dec  CBC dec   CTR   CTR32LE  XTS enc  XTS dec
 *   AES-128 clmul  0.120    0.120    0.121   0.125   0.121    0.145    0.145
 *   AES-128 shift  0.120    0.120    0.121   0.154   0.121    0.191    0.192
 *   AES-256 clmul  0.169    0.169    0.169   0.172   0.169    0.186    0.186
 *   AES-256 shift  0.169    0.169    0.168   0.200   0.169    0.227    0.227
 * against 0.121 and 0.169 for 10 and 14 vaesenc ymm per 32 bytes at 0.387 cycles each (12
 * independent chains of vaesenc ymm in a loop, no loads; 4 chains: 0.58, latency bound).
 * vaesenc ymm: latency 3 (Intel) to 4 (AMD Zen 3/4) cycles, two per cycle, so full
 * throughput needs 6 to 8 independent chains.
 */

        .section .rodata
        .p2align 5
        .type aes2_xts_const, @object
aes2_xts_const:                    /* keeps the low qword of each lane */
        .quad -1, 0, -1, 0
        .size aes2_xts_const, . - aes2_xts_const

/* XTS_NEXT k, v, t1, t2, c:  v *= x^k per 128-bit lane, for k <= 56.  The top k bits of each
 * qword (t1) are swapped across the lane: the low qword's go to the bottom of the high qword,
 * the high qword's (b, the part beyond x^128) to the bottom of the low qword, where they
 * already are the 1 term of b * (x^7+x^2+x+1); the x, x^2 and x^7 terms are shifts of b
 * alone (c keeps the low qword), and at most k+7 bits: no carry out of the qword. */
.macro XTS_NEXT k, v, t1, t2, c
        vpsrlq $(64 - \k), \v, \t1
        vpsllq $\k, \v, \v
        vpshufd $0x4e, \t1, \t1         /* XTS: swap the two carries across the lane */
        vpxor \t1, \v, \v
        vpand \c, \t1, \t1
        vpsllq $1, \t1, \t2
        vpxor \t2, \v, \v
        vpsllq $2, \t1, \t2
        vpxor \t2, \v, \v
        vpsllq $7, \t1, \t2
        vpxor \t2, \v, \v
.endm

/* XTS_NEXT8 s, d, t1, t2, c:  d = s * x^8: each lane's bytes rotated up one place (vpshufb
 * aes2_xts_rot8), which shifts the lane by a byte and brings the byte b pushed out of x^128
 * back in at the bottom (the 1 term of b * (x^7+x^2+x+1)); b alone (vpand aes2_xts_byte0) then
 * gives b<<1 ^ b<<2 ^ b<<7 (15 bits: no carry out of the qword).  b<<1 and b<<2 as b+b and
 * 2b+2b: vpaddq issues on more ports than the shifts, which on Intel share the two ports of
 * the AES unit (AES-128 XTS there: 0.211 -> 0.191 cycles/byte).  One vpshufb where the byte
 * shifts took two (vpsrldq, vpslldq): on Zen 4 byte shuffles also take slots of the AES
 * units (docs/aes.md).  c is not used. */
.macro XTS_NEXT8 s, d, t1, t2, c
        vpshufb aes2_xts_rot8(%rip), \s, \d
        vpand aes2_xts_byte0(%rip), \d, \t1
        vpaddq \t1, \t1, \t2
        vpxor \t2, \d, \d
        vpaddq \t2, \t2, \t2
        vpxor \t2, \d, \d
        vpsllq $5, \t2, \t2             /* XTS: the x^7 term of the byte's reduction */
        vpxor \t2, \d, \d
.endm

#define AES_CTR_FAST 0
#include "aes-x86_64-vaes-avx2-common.h"

AES_VAES_AVX2_ENTRY_POINTS vaes_avx2_shift

        .section .note.GNU-stack,"",@progbits
