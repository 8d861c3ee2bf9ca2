/* aes-x86_64-vaes-avx512-clmul.S — AES (FIPS-197) in ECB, CBC decryption, CTR (128-bit
 * big-endian counter), CTR32LE and XTS with ciphertext stealing, VAES + AVX-512 on zmm, 16
 * blocks per pass; the "clmul" form.
 *
 * Computes what reference/aes.c and reference/blockmodes.c compute (SP 800-38A for ECB, CBC,
 * CTR; IEEE 1619-2018 for XTS), from the round keys their key expansion produces; interface,
 * schedules and contract in kernels/aes/aes.h:
 *   aes_{ecb_enc,ecb_dec,cbc_dec,ctr,ctr32le,xts_enc,xts_dec}_vaes_avx512_clmul
 * The shared code (ECB, CBC decryption, CTR32LE, the CTR and XTS skeletons, rounds, tails,
 * register clearing) is in aes-x86_64-vaes-avx512-common.h; this file holds what makes the
 * form: how XTS steps its tweaks and how CTR counts.
 *
 * Calling convention: System V AMD64 (C prototypes in aes.h).
 *   rdi ks, esi rounds (the upper half of rsi ignored), rdx out, rcx in, r8 nblocks (XTS: len
 *   in bytes), r9 iv / ctr / tweak (not for ECB).
 *   Clobbers rax, rcx, rdx, rdi, r8, r10, r11, flags, zmm0-31, k1-k6; every vector and
 *   opmask register is zeroed before return, then vzeroupper.  No callee-saved register and
 *   no stack is used.  A call with nothing to do (0 blocks, XTS len < 16) returns at once.
 *
 * Register map of a pass (16 blocks, four independent zmm chains of four blocks):
 *   zmm0-3     the blocks (state)
 *   zmm4-7     XTS: the pass's tweaks; CBC: the ciphertext as loaded
 *   zmm8       XTS: the reduction polynomial 0x87 per lane; CBC: the block before the pass in
 *              its top lane; CTR, CTR32LE: the pass's first counter block in every lane
 *   zmm9-12    what each mode folds into the last round key (k_last ^ tweak, ^ input, ^ the
 *              previous ciphertext)
 *   zmm13-15   CTR: +16 per lane, the byte reversal; XTS: temporaries of the tweak step;
 *              CBC: zmm15 the iv to return (the last ciphertext block, read on entry)
 *   zmm16      round key 0;  zmm18-30 round keys 1..rounds-1, aligned at the end (rounds 10
 *              starts at zmm22);  zmm31 the last round key;  zmm17 XTS: 64 per qword
 *   rcx, rdx   in, out of the pass;  r8 blocks left;  esi rounds (each pass enters the round
 *              sequence by it);  r10d CTR: the low 32 bits of the pass's first counter;
 *              rdi nblocks (CTR), len mod 16 (XTS)
 *   k1-k4      tail masks (one per vector);  k5 CTR carries;  k6 the XTS partial block
 *   zmm15      CTR's byte path: the pass's first counter block, big-endian
 *
 * The two forms (this one and aes-x86_64-vaes-avx512-shift.S) differ where the modes leave a
 * real choice, both about arithmetic beside the AES rounds, which compete with them for the
 * vector ports:
 *   XTS tweaks.  Each pass needs its four tweak vectors multiplied by x^16.  Here that is a
 *     byte shift of each 128-bit lane by two bytes and a carry-less multiplication of the 16
 *     bits shifted out by 0x87 (vpclmulqdq), XORed back in, two vectors' bits sharing one
 *     vpclmulqdq (XTS_NEXT16_PAIR: 9 instructions a pair).  The shift form reduces with
 *     shifts and ternary-logic XORs instead: 7 instructions a vector, but no use of the
 *     carry-less multiplier, which a CPU may have at lower throughput than its shift and
 *     logic units (on Zen 4 it takes a slot of the AES units: the shift form is the faster
 *     there, 0.223 against 0.230 c/B for AES-256 XTS).
 *   CTR.  The 128-bit big-endian counter is kept byte-reversed (a little-endian integer per
 *     lane).  Here a pass whose first counter's low byte is at most 239 adds its offsets to
 *     the last byte of the big-endian block (15 passes in 16), else adds them in 32-bit lanes
 *     whenever the low 32 bits of the counter cannot wrap in the pass (all but one pass in
 *     2^28), and takes the 128-bit carry path only for the pass that can; that costs two
 *     compares and branches per pass and three code paths.  The shift form does the full 128-bit addition (64-bit adds, a compare
 *     into a mask, a masked add into the high qword) on every pass: one path, always right,
 *     three more instructions per vector.
 */

#include "aes-x86_64-vaes-avx512-common.h"

/* XTS_MULX_CLMUL dst, src, lcnt, rcnt, t1, t2:  dst = src * x^k per lane (0 <= k <= 16;
 * lcnt = k, rcnt = 64 - k per qword).  The 128-bit shift is two 64-bit shifts, the bits that
 * cross from the low qword into the high one moved over by a byte shift; the k bits that leave
 * the top are reduced by one carry-less multiplication by 0x87 (at most 23 bits: no second
 * reduction).  A shift count of 64 gives 0, so k = 0 is the identity. */
.macro XTS_MULX_CLMUL dst, src, lcnt, rcnt, t1, t2
        vpsrlvq \rcnt, \src, \t1
        vpsllvq \lcnt, \src, \dst
        vpclmulqdq $0x01, %zmm8, \t1, \t2
        vpslldq $8, \t1, \t1
        vpternlogq $0x96, \t1, \t2, \dst
.endm

/* XTS_NEXT16_PAIR wa, wb, t1, t2, t3:  wa, wb = themselves * x^16 per lane, with one
 * carry-less multiplication for both.  Each lane's top 16 bits, ha and hb, go to bits 0-15 and
 * 24-39 of its low qword (byte shifts of the lanes; hb's shift brings three more bytes of wb
 * below it, cut off by aes512_xts_pack); one vpclmulqdq by 0x87 gives ha * 0x87 in bits 0-22
 * and hb * 0x87 in bits 24-46 (23 bits each: they do not meet), which are XORed into the
 * lanes shifted up by two bytes (ha's product cut to 24 bits, aes512_xts_low24; hb's shifted
 * down).  vpclmulqdq takes a slot of the AES units on Zen 4 (docs/aes.md): two for a pass's
 * four tweak vectors instead of four. */
.macro XTS_NEXT16_PAIR wa, wb, t1, t2, t3
        vpsrldq $14, \wa, \t1
        vpsrldq $11, \wb, \t2
        vpternlogq $0xf8, aes512_xts_pack(%rip){1to8}, \t2, \t1   /* ha | (hb << 24) */
        vpclmulqdq $0x00, %zmm8, \t1, \t3
        vpslldq $2, \wa, \wa
        vpternlogq $0x78, aes512_xts_low24(%rip){1to8}, \t3, \wa  /* XTS clmul: ^ ha * 0x87 */
        vpsrlq $24, \t3, \t3
        vpslldq $2, \wb, \wb
        vpxorq \t3, \wb, \wb              /* XTS clmul: reduction folded in */
.endm

/* XTS_NEXT16_CLMUL w0, w1, w2, w3, t1, t2, t3:  the pass's four tweak vectors times x^16. */
.macro XTS_NEXT16_CLMUL w0, w1, w2, w3, t1, t2, t3
        XTS_NEXT16_PAIR \w0, \w1, \t1, \t2, \t3
        XTS_NEXT16_PAIR \w2, \w3, \t1, \t2, \t3
.endm

        .section .rodata
        .p2align 3
/* The qword masks of XTS_NEXT16_PAIR (embedded broadcast): bytes 3 and 4 (hb's place), the
 * low 24 bits (ha's product). */
        .type aes512_xts_pack, @object
aes512_xts_pack:
        .quad 0x000000ffff000000
        .size aes512_xts_pack, . - aes512_xts_pack
        .type aes512_xts_low24, @object
aes512_xts_low24:
        .quad 0x0000000000ffffff
        .size aes512_xts_low24, . - aes512_xts_low24
        .text

/* CTR_STEP_CLMUL:  the pass's counter blocks, big-endian.  While the low byte of the pass's
 * first counter (r10b) is at most 239, the 16 blocks differ from it in their last byte only,
 * and nor does the next pass's first counter carry out of the low 32 bits: the blocks are
 * the big-endian block as it is (one vpshufb for the pass) plus 4j + b in byte 15
 * (aes512_ctr_be_offsets), with no byte reversal per vector (a shuffle, which takes AES slots
 * on Zen 4: docs/aes.md), and the running counter advances in 32-bit lanes.  Else the 32-bit
 * lane path, right while the low 32 bits stay at most 2^32 - 17, so that neither the 16
 * counters nor the next pass's first one carry out of them; else the 128-bit carry path. */
.macro CTR_STEP_CLMUL
        cmp $239, %r10b                 /* CTR clmul: can the low byte carry in this pass? */
        ja .Lctr_le32\@
        vpshufb %zmm14, %zmm8, %zmm15
        vpaddd aes512_ctr_be_offsets+0(%rip), %zmm15, %zmm0
        vpaddd aes512_ctr_be_offsets+64(%rip), %zmm15, %zmm1
        vpaddd aes512_ctr_be_offsets+128(%rip), %zmm15, %zmm2
        vpaddd aes512_ctr_be_offsets+192(%rip), %zmm15, %zmm3
        vpaddd %zmm13, %zmm8, %zmm8
        jmp .Lctr_done\@
.Lctr_le32\@:
        cmp $0xffffffef, %r10d          /* CTR clmul: can the low 32 bits carry in this pass? */
        ja .Lctr_carry\@
        AES512_CTR_ADD32
        AES512_CTR_BSWAP
        jmp .Lctr_done\@
.Lctr_carry\@:
        AES512_CTR_ADD128
        AES512_CTR_BSWAP
.Lctr_done\@:
        add $16, %r10d
.endm

        AES512_COMMON_ENTRIES clmul
        AES512_CTR aes_ctr_vaes_avx512_clmul, CTR_STEP_CLMUL, 2, 1
        AES512_XTS aes_xts_enc_vaes_avx512_clmul, vaesenc, vaesenclast, XTS_MULX_CLMUL, XTS_NEXT16_CLMUL, 0
        AES512_XTS aes_xts_dec_vaes_avx512_clmul, vaesdec, vaesdeclast, XTS_MULX_CLMUL, XTS_NEXT16_CLMUL, 1

        .section .note.GNU-stack,"",@progbits
