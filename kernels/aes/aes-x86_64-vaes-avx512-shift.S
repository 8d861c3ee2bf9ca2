/* aes-x86_64-vaes-avx512-shift.S — AES (FIPS-197) in ECB, CBC decryption, CTR (128-bit
 * big-endian counter), CTR32LE and XTS with ciphertext stealing, VAES + AVX-512 on zmm, 16
 * blocks per pass; the "shift" form.
 *
 * Computes what reference/aes.c and reference/blockmodes.c compute (SP 800-38A for ECB, CBC,
 * CTR; IEEE 1619-2018 for XTS), from the round keys their key expansion produces; interface,
 * schedules and contract in kernels/aes/aes.h:
 *   aes_{ecb_enc,ecb_dec,cbc_dec,ctr,ctr32le,xts_enc,xts_dec}_vaes_avx512_shift
 * The shared code (ECB, CBC decryption, CTR32LE, the CTR and XTS skeletons, rounds, tails,
 * register clearing) is in aes-x86_64-vaes-avx512-common.h; this file holds what makes the
 * form: how XTS steps its tweaks and how CTR counts.
 *
 * Calling convention, clobbers and the register map of a pass: as in
 * aes-x86_64-vaes-avx512-clmul.S (System V: rdi ks, esi rounds, rdx out, rcx in, r8 nblocks or
 * XTS len, r9 iv / ctr / tweak; zmm0-3 blocks, zmm4-7 XTS tweaks, zmm16 and zmm18-31 round
 * keys; every vector and opmask register written is zeroed before return, no callee-saved
 * register or stack used).  Here k5 also holds 0x55 (the low qword of each lane) for the XTS
 * start-up multiplication, and r10d is unused by CTR.
 *
 * How this form differs, and why it is a design of its own (the clmul file has the other):
 *   XTS tweaks.  The next pass's tweak vectors are the current ones times x^16: a two-byte
 *     shift of each 128-bit lane, and the 16 bits shifted out, h, reduced as
 *     h ^ h<<1 ^ h<<2 ^ h<<7 (x^128 = x^7 + x^2 + x + 1) with two doublings, one 64-bit
 *     shift and two three-way XORs (vpternlogq 0x96): 7 instructions a vector on the shift,
 *     add and logic units, none on the carry-less multiplier, against 4 for the clmul form's
 *     one vpclmulqdq.  The same reduction, after per-lane variable shifts, makes T*x^0 ..
 *     T*x^15 at the start of a call.  Each vector steps by itself (x^16), not from its
 *     neighbour (x^4), so the four chains of tweaks never wait on one another.
 *   CTR.  Every pass adds its offsets to the byte-reversed counter with full 128-bit
 *     arithmetic: vpaddq, vpcmpuq (sum below addend = the low qword wrapped) into a mask,
 *     the mask moved to the high qwords, a masked add of 1.  One code path for every counter,
 *     no branch on the counter's value, at three instructions more per vector than the clmul
 *     form's 32-bit fast path.
 */

#include "aes-x86_64-vaes-avx512-common.h"

/* XTS_MULX_SHIFT dst, src, lcnt, rcnt, t1, t2:  dst = src * x^k per lane (0 <= k <= 16;
 * lcnt = k, rcnt = 64 - k per qword).  After the variable shifts and the qword swap, t1 holds
 * [h, c] per lane: h the k bits that left the top (to be reduced into the low qword), c those
 * that cross into the high qword.  The reduction's shifted copies of h are made under k5 (low
 * qwords only), so that c is not shifted with them.  h has at most 16 bits, h<<7 at most 23:
 * no second reduction. */
.macro XTS_MULX_SHIFT dst, src, lcnt, rcnt, t1, t2
        vpsrlvq \rcnt, \src, \t1
        vpsllvq \lcnt, \src, \dst
        vpshufd $0x4e, \t1, \t1
        vpsllq $1, \t1, \t2{%k5}{z}
        vpternlogq $0x96, \t1, \t2, \dst
        vpsllq $2, \t1, \t2{%k5}{z}
        vpsllq $7, \t1, \t1{%k5}{z}
        vpternlogq $0x96, \t1, \t2, \dst
.endm

/* XTS_NEXT16_SHIFT w, t1, t2, t3:  w = w * x^16 per lane.  t1 = h, the top two bytes at the
 * bottom of the lane (nothing in its high qword, so nothing needs a mask).  h<<1 and h<<2 are
 * made by doubling (vpaddq), which issues on either vector ALU port, where a zmm bit shift
 * issues only on the port that also runs vaesenc on Intel cores (measured: 0.132 against 0.162
 * cycles/byte for AES-128 XTS with three vpsllq); only h<<7 is a bit shift. */
.macro XTS_NEXT16_SHIFT w, t1, t2, t3
        vpsrldq $14, \w, \t1
        vpslldq $2, \w, \w
        vpaddq \t1, \t1, \t2
        vpternlogq $0x96, \t1, \t2, \w  /* XTS shift: h ^ h<<1 */
        vpaddq \t2, \t2, \t2
        vpsllq $7, \t1, \t3
        vpternlogq $0x96, \t2, \t3, \w  /* XTS shift: ^ h<<2 ^ h<<7 */
.endm

/* XTS_NEXT16X4_SHIFT w0, w1, w2, w3, t1, t2, t3:  the pass's four tweak vectors, each by
 * itself. */
.macro XTS_NEXT16X4_SHIFT w0, w1, w2, w3, t1, t2, t3
        XTS_NEXT16_SHIFT \w0, \t1, \t2, \t3
        XTS_NEXT16_SHIFT \w1, \t1, \t2, \t3
        XTS_NEXT16_SHIFT \w2, \t1, \t2, \t3
        XTS_NEXT16_SHIFT \w3, \t1, \t2, \t3
.endm

        AES512_COMMON_ENTRIES shift
        AES512_CTR aes_ctr_vaes_avx512_shift, AES512_CTR_ADD128, 1
        AES512_XTS aes_xts_enc_vaes_avx512_shift, vaesenc, vaesenclast, XTS_MULX_SHIFT, XTS_NEXT16X4_SHIFT, 0
        AES512_XTS aes_xts_dec_vaes_avx512_shift, vaesdec, vaesdeclast, XTS_MULX_SHIFT, XTS_NEXT16X4_SHIFT, 1

        .section .note.GNU-stack,"",@progbits
