/* chacha-x86_64-avx512-zmm.S — ChaCha (RFC 8439) keystream XOR, AVX-512 on zmm: sixteen blocks
 * a batch, one block per 32-bit lane of a zmm register, every rotation one vprold.
 *
 * Computes what reference/chacha.c computes (chacha_xor; the contract in
 * kernels/chacha/chacha.h):
 *   chacha_ctr32_x86_64_avx512_zmm  word 12 a 32-bit counter (wraps at 2^32, word 13 untouched)
 *   chacha_ctr64_x86_64_avx512_zmm  words 12-13 one 64-bit counter
 * dst = src ^ keystream for len bytes at nrounds (8, 12, 20; any even nonzero count); on return
 * words 12-13 hold the counter of the block after the last one used (ceil(len / 64) blocks); no
 * other word of the state is written.
 *
 * void chacha_ctr32_x86_64_avx512_zmm(uint32_t state[16],   rdi
 *                                     uint8_t *dst,          rsi
 *                                     const uint8_t *src,    rdx
 *                                     size_t len,            rcx
 *                                     unsigned int nrounds); r8d
 * System V AMD64.  Needs AVX512F (zmm, vprold, vpcmpud, vshufi32x4, embedded broadcasts) and
 * AVX512BW (vmovdqu8 and kmovq: the last 1..63 bytes under a byte mask).  Clobbers rax, rcx,
 * rdx, rsi, r9-r11, flags, zmm0-31 and k1, every one of the vector and opmask registers zeroed
 * before return.  No stack, no red zone; no alignment required; dst may equal src (each 64
 * bytes are read before they are written).  len == 0 returns at once and writes nothing.
 *
 * The rounds are chacha-x86_64-avx512-qr.h's, the same macros the ymm eight-block forms run
 * (chacha-x86_64-avx512vl-common.h); what differs is the width (sixteen lanes), the 16 x 16
 * transpose after the rounds, and whole 64-byte blocks for the XOR.
 *
 * Register map of a batch:
 *   rdi state   rsi dst   rdx src   rcx bytes left   r8d nrounds   r9d 0 (ctr32) / 1 (ctr64)
 *   eax counter word 12 of the batch's first block   r11d word 13   r10d double rounds left
 *   zmm0  word 12 per block (the counter + lane)     zmm1  word 13 per block (ctr64: +1 in the
 *   zmm2  PRE2: words 2, 6, 10, 14 after the first         lanes whose word 12 wrapped)
 *         column round, in each 128-bit lane          zmm4-11  the transposes' temporaries
 *   zmm3  PRE3: words 3, 7, 11, 15 the same
 *   zmm12, zmm13  the last partial block's keystream and data
 *   zmm16-31  X0..X15: word i of the sixteen blocks; after the transpose zmm16+b holds block b
 *   zmm8-15   between a whole batch and the next: eight of its blocks still to XOR
 *
 * The loop is skewed by half a batch's output: when a whole batch has more after it, its
 * blocks 0, 4, 8, 12, 1, 5, 9, 13 are XORed at once and the other eight are transposed and
 * XORed at the start of the next batch (.Lzmm_batch_pending), after that batch's state is set,
 * so their shuffles and stores overlap its first rounds (about 1.5% of the time of a
 * 16 KiB call here).  The last batch (at most 1024 bytes left) XORs its blocks one at a
 * time, down to the byte mask of a partial one.
 *
 * The first column round is cut in half: columns 2 and 3 (words 2, 6, 10, 14 and 3, 7, 11, 15:
 * constants, key and nonce words, no counter word) are the same in every block of every batch
 * of a call, so their two quarter rounds run once at the call's start, on broadcast words, and
 * each batch takes their outputs from PRE2 and PRE3 by eight vpshufd; the batch runs only
 * columns 0 and 1 (QR2: two dependent chains, not four) before its diagonal round.  That saves
 * 24 of a batch's operations for 8, and a quarter round's worth of chain latency; the previous
 * batch's pending blocks are shuffled and XORed after QR2 in program order, filling its
 * bubbles.  Old and new alternated (build/asmdiff-chacha bench, 4 processes each, 2026-12-05,
 * Zen 4): ChaCha20 0.673-0.679 c/B before, 0.653-0.664 after (2.8% faster; ChaCha12 3.9%,
 * ChaCha8 4.2%); in three `check --bench` runs 0.658, 0.664, 0.666 c/B, 1.27-1.29x the 0.517
 * c/B throughput limit of the whole computation (docs/chacha.md, "Throughput limits").
 *
 * Why this shape (tools/zmm_op_bench.c on Zen 4: vpaddd and vpxord 2 a cycle, vprold 1 a cycle
 * and 2 cycles of latency on zmm; on ymm 4, 4 and 2): a quarter round is twelve dependent
 * operations, four of them rotations, 16 cycles of latency; four interleaved quarter rounds of
 * sixteen blocks are 48 zmm operations, 24 cycles at two a cycle, so the ports, not the
 * latency, would bound them (the eight-block ymm forms are the other way round: 12 cycles of
 * issue against the same 16 of latency).  In practice four dependent chains reach 1.62 zmm
 * operations a cycle, not 2 (the tool's "dependent chains" rows): a double round takes 59-60
 * cycles, not 48, whatever the order of its operations; more chains would need more blocks in
 * flight than 32 registers hold.  The ops per 1024-byte batch and the limits they give are in
 * docs/chacha.md ("Throughput limits").
 */

#define CHACHA_LANES chacha_avx512_zmm_lanes

#define STATE %rdi
#define DST %rsi
#define SRC %rdx
#define LEN %rcx
#define NROUNDS %r8d
#define MODE %r9d
#define DROUNDS %r10d
#define CTR_LO %eax
#define CTR_HI %r11d

#define CTR12 %zmm0
#define CTR13 %zmm1
#define PRE2 %zmm2
#define PRE3 %zmm3

#define X0 %zmm16
#define X1 %zmm17
#define X2 %zmm18
#define X3 %zmm19
#define X4 %zmm20
#define X5 %zmm21
#define X6 %zmm22
#define X7 %zmm23
#define X8 %zmm24
#define X9 %zmm25
#define X10 %zmm26
#define X11 %zmm27
#define X12 %zmm28
#define X13 %zmm29
#define X14 %zmm30
#define X15 %zmm31

/* ROTn(x, t): x = x <<< n; t unused (vprold needs no temporary) */
#define ROT16(x, t) vprold $16, x, x
#define ROT12(x, t) vprold $12, x, x
#define ROT8(x, t) vprold $8, x, x
#define ROT7(x, t) vprold $7, x, x

#include "chacha-x86_64-avx512-qr.h"

/* QR2: the two quarter rounds of columns 0 and 1 (RFC 8439 2.1), interleaved: the first column
 * round of a batch, whose columns 2 and 3 hold no counter word and so are the same in every
 * block of every batch of a call (computed once, at the call's start, into PRE2 and PRE3) */
.macro QR2 a0, b0, c0, d0, a1, b1, c1, d1
        vpaddd \b0, \a0, \a0
        vpaddd \b1, \a1, \a1
        vpxord \a0, \d0, \d0
        vpxord \a1, \d1, \d1
        vprold $16, \d0, \d0
        vprold $16, \d1, \d1
        vpaddd \d0, \c0, \c0
        vpaddd \d1, \c1, \c1
        vpxord \c0, \b0, \b0
        vpxord \c1, \b1, \b1
        vprold $12, \b0, \b0
        vprold $12, \b1, \b1
        vpaddd \b0, \a0, \a0
        vpaddd \b1, \a1, \a1
        vpxord \a0, \d0, \d0
        vpxord \a1, \d1, \d1
        vprold $8, \d0, \d0
        vprold $8, \d1, \d1
        vpaddd \d0, \c0, \c0
        vpaddd \d1, \c1, \c1
        vpxord \c0, \b0, \b0
        vpxord \c1, \b1, \b1
        vprold $7, \b0, \b0
        vprold $7, \b1, \b1
.endm

        .section .rodata
        .p2align 6
        .type CHACHA_LANES, @object
CHACHA_LANES:
        .long 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        .size CHACHA_LANES, . - CHACHA_LANES

        .text

/* TRANSPOSE_DWORDS a, b, c, d: four registers of words w..w+3 (w = 4g), one block per lane,
 * into four of 16 bytes per block: within each 128-bit lane L, a holds words w..w+3 of block
 * 4L, b of block 4L+1, c of 4L+2, d of 4L+3.  Temporaries zmm4-7. */
.macro TRANSPOSE_DWORDS a, b, c, d
        vpunpckldq \b, \a, %zmm4        /* a0 b0 a1 b1 of each 128-bit lane */
        vpunpckhdq \b, \a, %zmm5        /* a2 b2 a3 b3 */
        vpunpckldq \d, \c, %zmm6        /* c0 d0 c1 d1 */
        vpunpckhdq \d, \c, %zmm7        /* c2 d2 c3 d3 */
        vpunpcklqdq %zmm6, %zmm4, \a
        vpunpckhqdq %zmm6, %zmm4, \b
        vpunpcklqdq %zmm7, %zmm5, \c
        vpunpckhqdq %zmm7, %zmm5, \d
.endm

/* TRANSPOSE_LANES p0, p1, p2, p3, ta, tb, tc, td: the 128-bit lanes of four registers of
 * TRANSPOSE_DWORDS's output for one k (p_g holds words 4g..4g+3 of blocks k, 4+k, 8+k, 12+k
 * in its lanes 0..3) transposed as a 4 x 4 matrix: p0 becomes block k, p1 block 4+k, p2
 * block 8+k, p3 block 12+k (words 0..15 each).  ta..td: temporaries. */
.macro TRANSPOSE_LANES p0, p1, p2, p3, ta, tb, tc, td
        vshufi32x4 $0x44, \p1, \p0, \ta         /* p0.0 p0.1 p1.0 p1.1 */
        vshufi32x4 $0xee, \p1, \p0, \tb         /* p0.2 p0.3 p1.2 p1.3 */
        vshufi32x4 $0x44, \p3, \p2, \tc         /* p2.0 p2.1 p3.0 p3.1 */
        vshufi32x4 $0xee, \p3, \p2, \td         /* p2.2 p2.3 p3.2 p3.3 */
        vshufi32x4 $0x88, \tc, \ta, \p0         /* lane 0 of each: block k */
        vshufi32x4 $0xdd, \tc, \ta, \p1         /* lane 1: block 4+k */
        vshufi32x4 $0x88, \td, \tb, \p2         /* lane 2: block 8+k */
        vshufi32x4 $0xdd, \td, \tb, \p3         /* lane 3: block 12+k */
.endm

/* BATCH_SETUP: the state of the batch's sixteen blocks into X0..X15 (words 12 and 13 per
 * block from the counter in eax, r11d), and the double rounds to run into r10d */
.macro BATCH_SETUP
        vpbroadcastd CTR_LO, CTR12
        vpaddd CHACHA_LANES(%rip), CTR12, CTR12
        vpbroadcastd CTR_HI, CTR13
        test MODE, MODE
        jz 2f
        vpcmpud $1, CHACHA_LANES(%rip), CTR12, %k1      /* word 12 below its lane number: it wrapped */
        vpaddd CHACHA_LANES+4(%rip){1to16}, CTR13, CTR13{%k1}   /* word 13 + 1 there (lane 1 holds 1) */
2:
        vpbroadcastd 0(STATE), X0
        vpbroadcastd 4(STATE), X1
        vpbroadcastd 16(STATE), X4
        vpbroadcastd 20(STATE), X5
        vpbroadcastd 32(STATE), X8
        vpbroadcastd 36(STATE), X9
        vmovdqa32 CTR12, X12
        vmovdqa32 CTR13, X13
        /* columns 2 and 3 after the first column round (the same in every block and batch:
         * PRE2, PRE3) */
        vpshufd $0x00, PRE2, X2
        vpshufd $0x55, PRE2, X6
        vpshufd $0xaa, PRE2, X10
        vpshufd $0xff, PRE2, X14
        vpshufd $0x00, PRE3, X3
        vpshufd $0x55, PRE3, X7
        vpshufd $0xaa, PRE3, X11
        vpshufd $0xff, PRE3, X15
        mov NROUNDS, DROUNDS
        shr $1, DROUNDS
.endm

/* BLOCK reg: one 64-byte block of keystream in reg against src: whole when 64 or more bytes
 * are left (pointers and count advanced), else reg into zmm12 and on to the byte tail (0..63
 * bytes, the call's last). */
.macro BLOCK reg
        cmp $64, LEN
        jae 1f
        vmovdqa64 \reg, %zmm12
        jmp .Lzmm_tail_bytes
1:
        vpxord (SRC), \reg, \reg
        vmovdqu64 \reg, (DST)
        add $64, SRC
        add $64, DST
        sub $64, LEN
.endm

        /* ctr32 is a stub into ctr64's body (the function every instruction is counted in) */
        .globl chacha_ctr32_x86_64_avx512_zmm
        .type chacha_ctr32_x86_64_avx512_zmm, @function
        .p2align 5
chacha_ctr32_x86_64_avx512_zmm:
        endbr64
        xor MODE, MODE
        jmp .Lzmm_common
        .size chacha_ctr32_x86_64_avx512_zmm, . - chacha_ctr32_x86_64_avx512_zmm

        .globl chacha_ctr64_x86_64_avx512_zmm
        .type chacha_ctr64_x86_64_avx512_zmm, @function
        .p2align 5
chacha_ctr64_x86_64_avx512_zmm:
        endbr64
        mov $1, MODE
.Lzmm_common:
        test LEN, LEN
        jz .Lzmm_return_untouched
        mov 48(STATE), CTR_LO
        mov 52(STATE), CTR_HI

        /* columns 2 and 3 (words 2, 6, 10, 14 and 3, 7, 11, 15: constants, key, nonce) after
         * the first column round, one quarter round each on broadcast words (the other two
         * columns' quarter rounds run too, on words the batches set again), packed into PRE2
         * and PRE3 as words 2, 6, 10, 14 (3, 7, 11, 15) in each 128-bit lane for vpshufd */
        vpbroadcastd 0(STATE), X0
        vpbroadcastd 4(STATE), X1
        vpbroadcastd 8(STATE), X2
        vpbroadcastd 12(STATE), X3
        vpbroadcastd 16(STATE), X4
        vpbroadcastd 20(STATE), X5
        vpbroadcastd 24(STATE), X6
        vpbroadcastd 28(STATE), X7
        vpbroadcastd 32(STATE), X8
        vpbroadcastd 36(STATE), X9
        vpbroadcastd 40(STATE), X10
        vpbroadcastd 44(STATE), X11
        vpbroadcastd 48(STATE), X12
        vpbroadcastd 52(STATE), X13
        vpbroadcastd 56(STATE), X14
        vpbroadcastd 60(STATE), X15
        QR4 X0, X4, X8, X12, X1, X5, X9, X13, X2, X6, X10, X14, X3, X7, X11, X15, %zmm4, %zmm5, %zmm6, %zmm7
        vpunpckldq X6, X2, %zmm4
        vpunpckldq X14, X10, %zmm5
        vpunpcklqdq %zmm5, %zmm4, PRE2
        vpunpckldq X7, X3, %zmm4
        vpunpckldq X15, X11, %zmm5
        vpunpcklqdq %zmm5, %zmm4, PRE3

        /* the first batch */
        BATCH_SETUP
        jmp .Lzmm_rounds

.Lzmm_batch_pending:
        /* the previous batch was whole and its blocks 2, 6, 10, 14 and 3, 7, 11, 15 are still
         * to XOR (zmm8-11 and zmm12-15, as TRANSPOSE_DWORDS left them): done here, after
         * this batch's state is set, so that they overlap its first rounds */
        BATCH_SETUP
        QR2 X0, X4, X8, X12, X1, X5, X9, X13
        TRANSPOSE_LANES %zmm8, %zmm9, %zmm10, %zmm11, %zmm4, %zmm5, %zmm6, %zmm7
        TRANSPOSE_LANES %zmm12, %zmm13, %zmm14, %zmm15, %zmm4, %zmm5, %zmm6, %zmm7
        /* zmm8 + i holds block 2 + 4 i (i < 4), zmm12 + i block 3 + 4 i */
        .irp r, 8, 9, 10, 11, 12, 13, 14, 15
        vpxord 64 * ((\r - 8) / 4 + 2 + 4 * ((\r - 8) % 4))(SRC), %zmm\r, %zmm\r
        vmovdqu64 %zmm\r, 64 * ((\r - 8) / 4 + 2 + 4 * ((\r - 8) % 4))(DST)
        .endr
        add $1024, SRC
        add $1024, DST
        sub $1024, LEN
        jmp .Lzmm_diagonal_round

.Lzmm_rounds:
        /* the first double round: its column round's columns 0 and 1 (2 and 3 came from PRE2
         * and PRE3), then the diagonal round; then whole double rounds (the temporaries are
         * unused by vprold: any four registers) */
        QR2 X0, X4, X8, X12, X1, X5, X9, X13
        jmp .Lzmm_diagonal_round
.Lzmm_column_round:
        QR4 X0, X4, X8, X12, X1, X5, X9, X13, X2, X6, X10, X14, X3, X7, X11, X15, %zmm4, %zmm5, %zmm6, %zmm7
.Lzmm_diagonal_round:
        QR4 X0, X5, X10, X15, X1, X6, X11, X12, X2, X7, X8, X13, X3, X4, X9, X14, %zmm4, %zmm5, %zmm6, %zmm7
        dec DROUNDS
        jnz .Lzmm_column_round

        /* the input state added (RFC 8439 2.3), then the words into blocks */
        vpaddd 0(STATE){1to16}, X0, X0
        vpaddd 4(STATE){1to16}, X1, X1
        vpaddd 8(STATE){1to16}, X2, X2
        vpaddd 12(STATE){1to16}, X3, X3
        vpaddd 16(STATE){1to16}, X4, X4
        vpaddd 20(STATE){1to16}, X5, X5
        vpaddd 24(STATE){1to16}, X6, X6
        vpaddd 28(STATE){1to16}, X7, X7
        vpaddd 32(STATE){1to16}, X8, X8
        vpaddd 36(STATE){1to16}, X9, X9
        vpaddd 40(STATE){1to16}, X10, X10
        vpaddd 44(STATE){1to16}, X11, X11
        vpaddd CTR12, X12, X12
        vpaddd CTR13, X13, X13
        vpaddd 56(STATE){1to16}, X14, X14
        vpaddd 60(STATE){1to16}, X15, X15
        TRANSPOSE_DWORDS X0, X1, X2, X3
        TRANSPOSE_DWORDS X4, X5, X6, X7
        TRANSPOSE_DWORDS X8, X9, X10, X11
        TRANSPOSE_DWORDS X12, X13, X14, X15
        TRANSPOSE_LANES X0, X4, X8, X12, %zmm8, %zmm9, %zmm10, %zmm11
        TRANSPOSE_LANES X1, X5, X9, X13, %zmm8, %zmm9, %zmm10, %zmm11
        cmp $1024, LEN
        jbe 5f
        /* a whole batch with more to come: blocks 0, 4, 8, 12 and 1, 5, 9, 13 now, the other
         * eight at the next batch's start (.Lzmm_batch_pending), beside its rounds */
        .irp b, 16, 20, 24, 28, 17, 21, 25, 29
        vpxord 64 * (\b - 16)(SRC), %zmm\b, %zmm\b
        vmovdqu64 %zmm\b, 64 * (\b - 16)(DST)
        .endr
        vmovdqa64 X2, %zmm8
        vmovdqa64 X6, %zmm9
        vmovdqa64 X10, %zmm10
        vmovdqa64 X14, %zmm11
        vmovdqa64 X3, %zmm12
        vmovdqa64 X7, %zmm13
        vmovdqa64 X11, %zmm14
        vmovdqa64 X15, %zmm15
        /* the counter by 16 blocks: word 12 wraps; in ctr64 (MODE 1) its carry goes into
         * word 13 */
        add $16, CTR_LO
        jnc .Lzmm_batch_pending
        add MODE, CTR_HI
        jmp .Lzmm_batch_pending
5:
        TRANSPOSE_LANES X2, X6, X10, X14, %zmm8, %zmm9, %zmm10, %zmm11
        TRANSPOSE_LANES X3, X7, X11, X15, %zmm8, %zmm9, %zmm10, %zmm11

        /* the blocks this batch uses: sixteen, or the last ceil(len / 64) (the batch is the
         * call's last) */
        mov $16, %r10d
        cmp $1024, LEN
        jae 3f
        lea 63(LEN), %r10
        shr $6, %r10
3:
        /* the counter by those blocks: word 12 wraps; in ctr64 (MODE 1) its carry goes into
         * word 13 */
        add %r10d, CTR_LO
        jnc 4f
        add MODE, CTR_HI
4:
        .irp b, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        BLOCK %zmm\b
        .endr
        jmp .Lzmm_finish                /* len was at most 1024: all done */

.Lzmm_tail_bytes:
        /* 0..63 bytes: a byte mask of the LEN low bits */
        test LEN, LEN
        jz .Lzmm_finish
        mov $1, %r10
        shl %cl, %r10
        dec %r10
        kmovq %r10, %k1
        vmovdqu8 (SRC), %zmm13{%k1}{z}
        vpxord %zmm12, %zmm13, %zmm13
        vmovdqu8 %zmm13, (DST){%k1}

.Lzmm_finish:
        mov CTR_LO, 48(STATE)
        mov CTR_HI, 52(STATE)
        /* no key or keystream left in a vector or opmask register */
        kxorq %k1, %k1, %k1
        .irp r, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        vpxord %zmm\r, %zmm\r, %zmm\r
        .endr
        vzeroall
.Lzmm_return_untouched:
        ret
        .size chacha_ctr64_x86_64_avx512_zmm, . - chacha_ctr64_x86_64_avx512_zmm

        .section .note.GNU-stack, "", @progbits
