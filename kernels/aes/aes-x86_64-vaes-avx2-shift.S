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
 *   rdi, rsi and r9 are read, not written; no callee-saved register, no stack, no red zone.
 *
 * The code is in aes-x86_64-vaes-avx2-common.h, shared with the clmul form: each round key
 * is broadcast into ymm15 from memory when its round comes (ECB runs at the AES units' bound
 * that way: the loads are not what limits, and 16 registers have no room for 15 keys beside
 * the data); ECB, CBC decryption, CTR and CTR32LE run 16 blocks per pass (8 ymm chains), XTS
 * 12 blocks (6 ymm chains, its 6 tweak pairs in the other registers).  What is left after the
 * passes goes by its binary digits (8, 4, 2 blocks in ymm, the odd block in an xmm), so
 * exactly the data's bytes are read and written with no byte masks; XTS stealing moves its
 * bytes with a GPR loop.
 *
 * Main loop register maps (details in the common file):
 *   ECB, CBC  ymm0-7 data, ymm13 [iv or previous block, in[0]], xmm14 previous block,
 *             ymm15 round key; rcx in, rdx out, r8 blocks left, r10 last round key
 *   CTR       ymm0-7 data, ymm11 carry mask, ymm12 byte reversal, ymm13 counter pair
 *             [c, c+1], ymm14 whitening key, ymm15 round key
 *   XTS       ymm0-5 data, ymm6-11 tweak pairs, ymm12-13 scratch, ymm14 aes2_xts_const (low
 *             qword mask), ymm15 round key; rax whole blocks left, r11 len % 16
 *
 * What this form does differently from aes-x86_64-vaes-avx2-clmul.S, and why each choice is
 * a real one:
 *   XTS  the byte b pushed out of x^128 by a tweak's x^8 step comes back with shifts and
 *        XORs alone, as b * (x^7+x^2+x+1) = b ^ b<<1 ^ b<<2 ^ b<<7: 9 ops per tweak pair
 *        (XTS_NEXT8), where the clmul form needs 4 with one vpclmulqdq.  No carry-less
 *        multiplier at all, for CPUs (or emulators) where it is slow or shares the AES
 *        port; on Intel it is the shifts by bits that share the AES ports (XTS_NEXT8 uses
 *        vpaddq for two of its three).  The generic step (XTS_NEXT: first pairs, odd tail
 *        block) is the classic vpsrlq/vpsllq/vpshufd/vpand one.
 *   CTR  every block is carried through all 128 bits, on every pass: a 64-bit add, a signed
 *        compare of old over new (the counter is kept with its low qword's sign bit flipped,
 *        so signed order is unsigned order) for the wrap, and the carry subtracted (as -1)
 *        into the high qword: five ops per register instead of the clmul form's two, but no
 *        branch and no test that must be right for the rare counter that wraps: the same
 *        code runs for every counter, so the wrap is not a path of its own to get wrong.
 *
 * Both forms step the XTS tweaks of a pass from those of the pass before by
 * T_{i+12} = T_{i+4} * x^8 (XTS_NEXT8): x^8 is a whole byte, so each 128-bit lane shifts with
 * one vpslldq and no carry between its qwords, and only the byte pushed out of x^128 needs
 * reducing.  XTS_NEXT (any k) builds the first pairs and steps the odd tail block.
 *
 * Speed (Intel Xeon, family 6 model 207, rdtsc cycles per byte at 16 KiB in place, the 2-core
 * machine otherwise busy; the test program of the report, not ./asmdiff bench):
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
