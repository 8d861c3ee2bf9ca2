/* aria-x86_64-avx2-gfni.S — ARIA (RFC 5794) ECB and CTR, AVX2 + GFNI (VEX, ymm), byte-sliced.
 *
 *   aria_ecb_avx2_gfni(rk, rounds, out, in, nblocks)
 *   aria_ctr_avx2_gfni(rk, rounds, out, in, nblocks, ctr)
 *
 * Computes what reference/aria.c computes (aria_ecb, aria_ctr) from its expanded round keys;
 * interface and contract in kernels/aria/aria.h.  The narrow path for CPUs with GFNI but
 * without AVX-512, and a second, independently structured opinion beside
 * aria-x86_64-avx512-gfni.S: the diffusion here is the word-oriented factorisation of A, not
 * that file's triple scheme.
 *
 * Algorithm per block p (reference/aria.c aria_encrypt_block):
 *   for r = 1 .. n-1:  p = A(SL_r(p ^ rk[r-1]))   SL_r = SL1 for odd r, SL2 for even r
 *   c = SL2(p ^ rk[n-1]) ^ rk[n]                     n = rounds = 12, 14, 16
 *
 * Layout: 32 blocks per pass, byte-sliced: after a 16x16 byte transpose of each 128-bit lane,
 * byte b of all 32 blocks is one 32-byte row.  The transposes go through the stack (areas Q
 * and S of the frame), in halves of two interleave stages on groups of four rows; the rounds
 * keep the state in registers.  A tail below 32 blocks is copied into a zeroed stack buffer
 * (exactly 16*t bytes read), run as a full pass, and exactly 16*t bytes are copied out.
 *
 * Sixteen state rows and sixteen ymm registers: the rounds need one more register, for the
 * key byte broadcast, and nothing else.  So at the start of each round one state byte sits in
 * a spill slot and ymm15 is free; the key addition and S-box of the other 15 bytes use ymm15
 * for the broadcasts, then the spilled byte comes back into ymm15 (its key XORed straight from
 * memory).  The diffusion runs on all 16 registers with no temporary, and ymm15 is spilled
 * again for the next round: one store and one load per round.  The S-box matrices are memory
 * operands.
 *
 * Diffusion A (RFC 5794 section 2.4.3) factors as A = W . P . W . M on the four 32-bit words
 * (bytes 4w .. 4w+3) of the state:
 *   M  within each word, byte k becomes the XOR of the word's other three bytes
 *   W  across the words, per byte position j: (a, b, c, d) = bytes j of words 0..3 become
 *      (a^b^c, a^c^d, a^b^d, b^c^d)
 *   P  byte j of word w moves to position j XOR w (word 0 stays, word 1 swaps pairs, word 2
 *      swaps halves, word 3 reverses)
 * M and W are six in-place XORs per group of four registers, with no temporary (MIX_M,
 * MIX_W); P costs nothing, it only changes which register the next W takes.  M's in-place
 * result is pair-swapped, which also only renames.  So after a round byte b sits in a
 * different register than before; the renaming is an involution, and the round code
 * alternates between its two assignments (NAMES_EVEN, NAMES_ODD), two rounds per loop.
 *
 * S-boxes: kernels/aria/aria-gfni-constants.h, as in the AVX-512 file: SB1, SB2 one
 * vgf2p8affineinvqb; SB3, SB4 vgf2p8affineqb then vgf2p8affineinvqb with the identity.
 *
 * Speed (AMD EPYC, Zen 4, ./asmdiff bench aria, ARIA-128, 16 KiB): ECB 0.96
 * cycles/byte, CTR 1.07.  A round is 16 key XORs, 24 GFNI and 72 XORs on ymm, about 35 cycles
 * per 32 blocks; the four memory transposes cost about 70 cycles per pass.  Streaming the
 * slots through memory instead, three passes of four registers per round, ran at 1.69: one
 * ymm store per cycle was the bound.
 *
 * Calling convention: System V AMD64.
 *   rdi rk, esi rounds (upper half of rsi ignored), rdx out, rcx in, r8 nblocks, r9 ctr (CTR)
 *   Clobbers rax, rcx, rdx, r8, r9, r10, r11, flags, ymm0-15; the ymm registers are zeroed
 *   before return, then vzeroupper.  Callee-saved registers untouched.  Stack: a 32-byte
 *   aligned frame of 2080 bytes below rsp (r11 keeps the caller's rsp), zeroed before return.
 *
 * Register map in a pass:
 *   rounds:      state byte b in ymm b (NAMES_EVEN) or in ymm NAMES_ODD[b]; the byte of ymm15
 *                in F_SPILL while ymm15 holds key byte broadcasts
 *   transposes:  ymm0-3 one group of rows, ymm7-10 temporaries
 *   rax  round key pointer        rcx  in rows of this pass      r9   tail: the caller's out
 *   r10  round pairs left         rdx  out rows of this pass     r11  caller's rsp
 *   r8   blocks left
 */

#include "aria-gfni-constants.h"
#include "../x86_64-common/bytesliced-avx2.h"

#if ARIA_GFNI_S1_STEPS != 1 || ARIA_GFNI_S2_STEPS != 1 || ARIA_GFNI_S1_INV_STEPS != 2 || \
    ARIA_GFNI_S2_INV_STEPS != 2
#error "aria-gfni-constants.h: unexpected S-box instruction counts"
#endif
#if ARIA_GFNI_S1_INV_MATRIX != ARIA_GFNI_IDENTITY_MATRIX || \
    ARIA_GFNI_S2_INV_MATRIX != ARIA_GFNI_IDENTITY_MATRIX
#error "aria-gfni-constants.h: the inverse S-boxes' second step is expected to be a bare inversion"
#endif

/* Frame, from the 32-byte aligned rsp: */
#define F_S       0         /* 16 rows x 32 bytes: the sliced state between transpose and rounds */
#define F_Q       512       /* 16 x 32: transpose scratch */
#define F_BUF     1024      /* 32 blocks: the tail's input and output */
#define F_CTRBLK  1536      /* 32 counter blocks (CTR) */
#define F_CTR     2048      /* running counter: low, high qword as integers (CTR) */
#define F_CTRPTR  2064      /* the caller's ctr pointer (CTR) */
#define F_SIZE    2080
#define F_SPILL   (F_S + 32 * 15)   /* the one state byte not in a register during the rounds */

        .section .rodata
        .p2align 5
        .type aria_avx2_gfni_s1, @object
aria_avx2_gfni_s1:
.Lgfni_s1:
        .quad ARIA_GFNI_S1_MATRIX, ARIA_GFNI_S1_MATRIX, ARIA_GFNI_S1_MATRIX, ARIA_GFNI_S1_MATRIX
        .size aria_avx2_gfni_s1, . - aria_avx2_gfni_s1
        .type aria_avx2_gfni_s2, @object
aria_avx2_gfni_s2:
.Lgfni_s2:
        .quad ARIA_GFNI_S2_MATRIX, ARIA_GFNI_S2_MATRIX, ARIA_GFNI_S2_MATRIX, ARIA_GFNI_S2_MATRIX
        .size aria_avx2_gfni_s2, . - aria_avx2_gfni_s2
        .type aria_avx2_gfni_s1_pre, @object
aria_avx2_gfni_s1_pre:
.Lgfni_s1_pre:
        .quad ARIA_GFNI_S1_INV_PRE_MATRIX, ARIA_GFNI_S1_INV_PRE_MATRIX
        .quad ARIA_GFNI_S1_INV_PRE_MATRIX, ARIA_GFNI_S1_INV_PRE_MATRIX
        .size aria_avx2_gfni_s1_pre, . - aria_avx2_gfni_s1_pre
        .type aria_avx2_gfni_s2_pre, @object
aria_avx2_gfni_s2_pre:
.Lgfni_s2_pre:
        .quad ARIA_GFNI_S2_INV_PRE_MATRIX, ARIA_GFNI_S2_INV_PRE_MATRIX
        .quad ARIA_GFNI_S2_INV_PRE_MATRIX, ARIA_GFNI_S2_INV_PRE_MATRIX
        .size aria_avx2_gfni_s2_pre, . - aria_avx2_gfni_s2_pre
        .type aria_avx2_gfni_identity, @object
aria_avx2_gfni_identity:
.Lgfni_identity:
        .quad ARIA_GFNI_IDENTITY_MATRIX, ARIA_GFNI_IDENTITY_MATRIX
        .quad ARIA_GFNI_IDENTITY_MATRIX, ARIA_GFNI_IDENTITY_MATRIX
        .size aria_avx2_gfni_identity, . - aria_avx2_gfni_identity
/* What row r of counter blocks adds to the running counter, lane by lane, as qwords [low,
 * high]: blocks 2r and 2r+1 of the pass.  A table, so that each row comes from the running
 * counter directly, with no chain from row to row. */
        .type aria_avx2_ctr_offsets, @object
aria_avx2_ctr_offsets:
.Lctr_offsets:
.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        .quad 2 * \r, 0, 2 * \r + 1, 0
.endr
        .size aria_avx2_ctr_offsets, . - aria_avx2_ctr_offsets
        .type aria_avx2_sign_bit, @object
aria_avx2_sign_bit:
.Lsign_bit:                             /* flips unsigned order into signed order */
        .quad 0x8000000000000000, 0x8000000000000000, 0x8000000000000000, 0x8000000000000000
        .size aria_avx2_sign_bit, . - aria_avx2_sign_bit
        .type aria_avx2_byte_reverse, @object
aria_avx2_byte_reverse:
.Lbyte_reverse:                         /* each lane's 16 bytes in reverse order */
        .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
        .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
        .size aria_avx2_byte_reverse, . - aria_avx2_byte_reverse

        .text

/* ---- S-boxes and key ---- */

/* SBOX sl, b, reg:  reg = S(reg), S the S-box that SL<sl> applies to state byte b
 * (SL1: SB1, SB2, SB3, SB4 for b mod 4 = 0..3; SL2: SB3, SB4, SB1, SB2).  The matrices come
 * from memory: every register holds state. */
.macro SBOX sl, b, reg
.if ((\b + 2 * (\sl - 1)) % 4) == 0
        vgf2p8affineinvqb $ARIA_GFNI_S1_IMM, .Lgfni_s1(%rip), \reg, \reg
.elseif ((\b + 2 * (\sl - 1)) % 4) == 1
        vgf2p8affineinvqb $ARIA_GFNI_S2_IMM, .Lgfni_s2(%rip), \reg, \reg
.elseif ((\b + 2 * (\sl - 1)) % 4) == 2
        vgf2p8affineqb $ARIA_GFNI_S1_INV_PRE_IMM, .Lgfni_s1_pre(%rip), \reg, \reg
        vgf2p8affineinvqb $ARIA_GFNI_S1_INV_IMM, .Lgfni_identity(%rip), \reg, \reg
.else
        vgf2p8affineqb $ARIA_GFNI_S2_INV_PRE_IMM, .Lgfni_s2_pre(%rip), \reg, \reg
        vgf2p8affineinvqb $ARIA_GFNI_S2_INV_IMM, .Lgfni_identity(%rip), \reg, \reg
.endif
.endm

/* KS_REG sl, key, b, r:  unless r is 15, ymm r = SL<sl> byte b of (ymm r ^ key byte b), the
 * round key at key(%rax).  ymm15 is the broadcast temporary: its byte is in the spill slot. */
.macro KS_REG sl, key, b, r
.if \r != 15
        vpbroadcastb (\key + \b)(%rax), %ymm15
        vpxor %ymm15, %ymm\r, %ymm\r
        SBOX \sl, \b, %ymm\r
.endif
.endm

/* KS_SPILLED sl, key, b, r:  if r is 15, ymm15 = SL<sl> byte b of (spill slot ^ key byte b):
 * the spilled byte comes back, last, into the register it left. */
.macro KS_SPILLED sl, key, b, r
.if \r == 15
        vpbroadcastb (\key + \b)(%rax), %ymm15
        vpxor F_SPILL(%rsp), %ymm15, %ymm15
        SBOX \sl, \b, %ymm15
.endif
.endm

/* KEY_SBOX_ALL sl, key, r0 .. r15:  state byte b (in ymm rb; the one with rb = 15 in the spill
 * slot) = SL<sl>(byte b ^ key byte b).  Afterwards all 16 bytes are in registers. */
.macro KEY_SBOX_ALL sl, key, r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15
        KS_REG \sl, \key,  0, \r0
        KS_REG \sl, \key,  1, \r1
        KS_REG \sl, \key,  2, \r2
        KS_REG \sl, \key,  3, \r3
        KS_REG \sl, \key,  4, \r4
        KS_REG \sl, \key,  5, \r5
        KS_REG \sl, \key,  6, \r6
        KS_REG \sl, \key,  7, \r7
        KS_REG \sl, \key,  8, \r8
        KS_REG \sl, \key,  9, \r9
        KS_REG \sl, \key, 10, \r10
        KS_REG \sl, \key, 11, \r11
        KS_REG \sl, \key, 12, \r12
        KS_REG \sl, \key, 13, \r13
        KS_REG \sl, \key, 14, \r14
        KS_REG \sl, \key, 15, \r15
        KS_SPILLED \sl, \key,  0, \r0
        KS_SPILLED \sl, \key,  1, \r1
        KS_SPILLED \sl, \key,  2, \r2
        KS_SPILLED \sl, \key,  3, \r3
        KS_SPILLED \sl, \key,  4, \r4
        KS_SPILLED \sl, \key,  5, \r5
        KS_SPILLED \sl, \key,  6, \r6
        KS_SPILLED \sl, \key,  7, \r7
        KS_SPILLED \sl, \key,  8, \r8
        KS_SPILLED \sl, \key,  9, \r9
        KS_SPILLED \sl, \key, 10, \r10
        KS_SPILLED \sl, \key, 11, \r11
        KS_SPILLED \sl, \key, 12, \r12
        KS_SPILLED \sl, \key, 13, \r13
        KS_SPILLED \sl, \key, 14, \r14
        KS_SPILLED \sl, \key, 15, \r15
.endm

/* ---- Diffusion, in place, no temporaries ---- */

/* MIX_M a, b, c, d:  the bytes 0..3 of one word in ymm a, b, c, d -> ymm a = a^c^d,
 * ymm b = b^c^d, ymm c = a^b^c, ymm d = a^b^d: M's bytes 1, 0, 3, 2 (pair-swapped). */
.macro MIX_M a, b, c, d
        vpxor %ymm\b, %ymm\a, %ymm\a    /* a^b */
        vpxor %ymm\d, %ymm\c, %ymm\c    /* c^d */
        vpxor %ymm\c, %ymm\b, %ymm\b    /* b^c^d */
        vpxor %ymm\a, %ymm\d, %ymm\d    /* a^b^d */
        vpxor %ymm\b, %ymm\a, %ymm\a    /* a^c^d */
        vpxor %ymm\d, %ymm\c, %ymm\c    /* a^b^c */
.endm

/* MIX_W a, b, c, d:  byte j of words 0..3 in ymm a, b, c, d -> (a^b^c, a^c^d, a^b^d, b^c^d). */
.macro MIX_W a, b, c, d
        vpxor %ymm\c, %ymm\b, %ymm\b    /* b^c */
        vpxor %ymm\d, %ymm\c, %ymm\c    /* c^d */
        vpxor %ymm\b, %ymm\a, %ymm\a    /* a^b^c */
        vpxor %ymm\b, %ymm\d, %ymm\d    /* b^c^d */
        vpxor %ymm\a, %ymm\c, %ymm\c    /* a^b^d */
        vpxor %ymm\c, %ymm\b, %ymm\b    /* a^c^d */
.endm

/* DIFFUSE r0 .. r15:  A on state byte b in ymm rb (all 16 in registers); afterwards byte b is
 * in the register listed at position b of
 *   r1, r0, r3, r2, r4, r5, r6, r7, r11, r10, r9, r8, r14, r15, r12, r13
 * (M's pair swap composed with P: byte (w, j) ends where byte (w, j^w^1) started).  Then
 * ymm15 goes to the spill slot, free for the next round's key broadcasts. */
.macro DIFFUSE r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15
        MIX_M \r0, \r1, \r2, \r3
        MIX_M \r4, \r5, \r6, \r7
        MIX_M \r8, \r9, \r10, \r11
        MIX_M \r12, \r13, \r14, \r15
        /* W, position j: after M, byte (w, j) is where byte (w, j^1) was */
        MIX_W \r1, \r5, \r9, \r13
        MIX_W \r0, \r4, \r8, \r12
        MIX_W \r3, \r7, \r11, \r15
        MIX_W \r2, \r6, \r10, \r14
        /* W, position j after P: byte (w, j) is the one at (w, j^w) before, there since M
         * where byte (w, j^w^1) was */
        MIX_W \r1, \r4, \r11, \r14
        MIX_W \r0, \r5, \r10, \r15
        MIX_W \r3, \r6, \r9, \r12
        MIX_W \r2, \r7, \r8, \r13
        vmovdqa %ymm15, F_SPILL(%rsp)
.endm

/* The two register assignments a round alternates between (byte b in ymm[b]; see DIFFUSE):
 * DIFFUSE maps one to the other and back. */
#define NAMES_EVEN 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
#define NAMES_ODD  1, 0, 3, 2, 4, 5, 6, 7, 11, 10, 9, 8, 14, 15, 12, 13

/* FINAL_KEY_STORE key, r0 .. r15:  S slot b = byte b (in ymm rb) ^ last key byte b. */
.macro FINAL_KEY_STORE1 key, b, r
.if \r != 15
        vpbroadcastb (\key + \b)(%rax), %ymm15
        vpxor %ymm15, %ymm\r, %ymm\r
        vmovdqa %ymm\r, (F_S + 32 * \b)(%rsp)
.endif
.endm

.macro FINAL_KEY_STORE15 key, b, r
.if \r == 15
        vpbroadcastb (\key + \b)(%rax), %ymm15
        vpxor (F_S + 32 * \b)(%rsp), %ymm15, %ymm15
        vmovdqa %ymm15, (F_S + 32 * \b)(%rsp)
.endif
.endm

.macro SAVE15 b, r
.if \r == 15
        vmovdqa %ymm15, (F_S + 32 * \b)(%rsp)
.endif
.endm

.macro FINAL_KEY_STORE key, r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15
        /* first park ymm15's byte in its slot: ymm15 is the broadcast temporary */
        SAVE15  0, \r0
        SAVE15  1, \r1
        SAVE15  2, \r2
        SAVE15  3, \r3
        SAVE15  4, \r4
        SAVE15  5, \r5
        SAVE15  6, \r6
        SAVE15  7, \r7
        SAVE15  8, \r8
        SAVE15  9, \r9
        SAVE15 10, \r10
        SAVE15 11, \r11
        SAVE15 12, \r12
        SAVE15 13, \r13
        SAVE15 14, \r14
        SAVE15 15, \r15
        FINAL_KEY_STORE1 \key,  0, \r0
        FINAL_KEY_STORE1 \key,  1, \r1
        FINAL_KEY_STORE1 \key,  2, \r2
        FINAL_KEY_STORE1 \key,  3, \r3
        FINAL_KEY_STORE1 \key,  4, \r4
        FINAL_KEY_STORE1 \key,  5, \r5
        FINAL_KEY_STORE1 \key,  6, \r6
        FINAL_KEY_STORE1 \key,  7, \r7
        FINAL_KEY_STORE1 \key,  8, \r8
        FINAL_KEY_STORE1 \key,  9, \r9
        FINAL_KEY_STORE1 \key, 10, \r10
        FINAL_KEY_STORE1 \key, 11, \r11
        FINAL_KEY_STORE1 \key, 12, \r12
        FINAL_KEY_STORE1 \key, 13, \r13
        FINAL_KEY_STORE1 \key, 14, \r14
        FINAL_KEY_STORE1 \key, 15, \r15
        FINAL_KEY_STORE15 \key,  0, \r0
        FINAL_KEY_STORE15 \key,  1, \r1
        FINAL_KEY_STORE15 \key,  2, \r2
        FINAL_KEY_STORE15 \key,  3, \r3
        FINAL_KEY_STORE15 \key,  4, \r4
        FINAL_KEY_STORE15 \key,  5, \r5
        FINAL_KEY_STORE15 \key,  6, \r6
        FINAL_KEY_STORE15 \key,  7, \r7
        FINAL_KEY_STORE15 \key,  8, \r8
        FINAL_KEY_STORE15 \key,  9, \r9
        FINAL_KEY_STORE15 \key, 10, \r10
        FINAL_KEY_STORE15 \key, 11, \r11
        FINAL_KEY_STORE15 \key, 12, \r12
        FINAL_KEY_STORE15 \key, 13, \r13
        FINAL_KEY_STORE15 \key, 14, \r14
        FINAL_KEY_STORE15 \key, 15, \r15
.endm

/* ---- Transpose halves (through memory; the state is not in registers then) ---- */

/* INTERLEAVE2, LOAD_GROUP, STORE_ROWS: shared with Camellia, in
 * kernels/x86_64-common/bytesliced-avx2.h. */

/* XOR_STORE_ROWS i:  rows 4i .. 4i+3 of out (rdx) = ymm0..3 ^ the same rows of in (rcx). */
.macro XOR_STORE_ROWS i
.irp k, 0, 1, 2, 3
        vpxor (32 * (4 * \i + \k))(%rcx), %ymm\k, %ymm\k
        vmovdqu %ymm\k, (32 * (4 * \i + \k))(%rdx)
.endr
.endm

/* ---- One pass of 32 blocks ---- */

/* PASS mode:  32 blocks.  ecb: rows from in (rcx) to out (rdx).  ctr: the cipher input is
 * the counter blocks at F_CTRBLK, and out = in ^ keystream.  Uses rax, r10, ymm0-15. */
.macro PASS mode
        /* transpose: rows -> Q -> S, slot b = byte b of every block */
.irp i, 0, 1, 2, 3
.ifc \mode, ecb
        LOAD_GROUP 0, %rcx, \i
.else
        LOAD_GROUP F_CTRBLK, %rsp, \i
.endif
        INTERLEAVE2
        STORE_ROWS F_Q, %rsp, \i
.endr
.irp i, 0, 1, 2, 3
        LOAD_GROUP F_Q, %rsp, \i
        INTERLEAVE2
        STORE_ROWS F_S, %rsp, \i
.endr
        /* bytes 0..14 into ymm0-14; byte 15 stays in its slot, the spill slot */
.irp b, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14
        vmovdqa (F_S + 32 * \b)(%rsp), %ymm\b
.endr
        mov %rdi, %rax
        /* round 1: SL1, key rk[0] */
        KEY_SBOX_ALL 1, 0, NAMES_EVEN
        DIFFUSE NAMES_EVEN
        mov %esi, %r10d
        sub $2, %r10d
        shr $1, %r10d                   /* pairs = (rounds - 2) / 2 */
1:      /* rax = rk + 32i: rounds 2i+2 (SL2, rk[2i+1]) and 2i+3 (SL1, rk[2i+2]) */
        KEY_SBOX_ALL 2, 16, NAMES_ODD
        DIFFUSE NAMES_ODD
        KEY_SBOX_ALL 1, 32, NAMES_EVEN
        DIFFUSE NAMES_EVEN
        add $32, %rax
        dec %r10d
        jnz 1b
        /* round n: SL2 with rk[n-1] at 16(%rax), then rk[n] at 32(%rax), into S */
        KEY_SBOX_ALL 2, 16, NAMES_ODD
        FINAL_KEY_STORE 32, NAMES_ODD
        /* transpose back: S -> Q -> blocks */
.irp i, 0, 1, 2, 3
        LOAD_GROUP F_S, %rsp, \i
        INTERLEAVE2
        STORE_ROWS F_Q, %rsp, \i
.endr
.irp i, 0, 1, 2, 3
        LOAD_GROUP F_Q, %rsp, \i
        INTERLEAVE2
.ifc \mode, ecb
        STORE_ROWS 0, %rdx, \i
.else
        XOR_STORE_ROWS \i
.endif
.endr
.endm

/* ---- Frame, tail copies, leaving ---- */

/* ENTER:  r11 = rsp; rsp = 32-aligned frame. */
.macro ENTER
        mov %rsp, %r11
        sub $F_SIZE, %rsp
        and $-32, %rsp
.endm

/* TAIL_IN:  1 <= r8 < 32 blocks: BUF = in[0 .. r8) then zeros; r9 = out; rcx = rdx = BUF.
 * Reads exactly 16 * r8 bytes of in.  Clobbers rax, ymm0. */
.macro TAIL_IN
        vpxor %xmm0, %xmm0, %xmm0
.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        vmovdqa %ymm0, (F_BUF + 32 * \r)(%rsp)
.endr
        xor %eax, %eax
2:      vmovdqu (%rcx,%rax), %xmm0
        vmovdqa %xmm0, F_BUF(%rsp,%rax)
        add $16, %rax
        mov %r8, %r10
        shl $4, %r10
        cmp %r10, %rax                  /* tail copy in: 16 * r8 bytes */
        jb 2b
        mov %rdx, %r9
        lea F_BUF(%rsp), %rcx
        mov %rcx, %rdx
.endm

/* TAIL_OUT:  out (r9) [0 .. r8) = BUF.  Writes exactly 16 * r8 bytes. */
.macro TAIL_OUT
        xor %eax, %eax
3:      vmovdqa F_BUF(%rsp,%rax), %xmm0
        vmovdqu %xmm0, (%r9,%rax)
        add $16, %rax
        mov %r8, %r10
        shl $4, %r10
        cmp %r10, %rax                  /* tail copy out: 16 * r8 bytes */
        jb 3b
.endm

/* LEAVE:  zero the whole frame (F_SIZE = 65 x 32 bytes from the aligned rsp, below the
 * caller's rsp in r11) and every ymm register, restore rsp. */
.macro LEAVE
        vpxor %xmm0, %xmm0, %xmm0
.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64
        vmovdqa %ymm0, (32 * \r)(%rsp)
.endr
        mov %r11, %rsp
        vpxor %xmm0, %xmm0, %xmm0
        vpxor %xmm1, %xmm1, %xmm1
        vpxor %xmm2, %xmm2, %xmm2
        vpxor %xmm3, %xmm3, %xmm3
        vpxor %xmm4, %xmm4, %xmm4
        vpxor %xmm5, %xmm5, %xmm5
        vpxor %xmm6, %xmm6, %xmm6
        vpxor %xmm7, %xmm7, %xmm7
        vpxor %xmm8, %xmm8, %xmm8
        vpxor %xmm9, %xmm9, %xmm9
        vpxor %xmm10, %xmm10, %xmm10
        vpxor %xmm11, %xmm11, %xmm11
        vpxor %xmm12, %xmm12, %xmm12
        vpxor %xmm13, %xmm13, %xmm13
        vpxor %xmm14, %xmm14, %xmm14
        vpxor %xmm15, %xmm15, %xmm15
        vzeroupper
.endm

/* ---- Counter blocks ---- */

/* CTR_BLOCKS:  F_CTRBLK = the 32 counter blocks of this pass, big-endian, from the running
 * counter at F_CTR (integers [low, high]).  Unless the low qword is within 32 of wrapping, no
 * block can carry and the carry code is skipped.  Clobbers ymm0-5, flags. */
.macro CTR_BLOCKS
        vbroadcasti128 F_CTR(%rsp), %ymm0
        vmovdqa .Lbyte_reverse(%rip), %ymm5
        cmpq $-32, F_CTR(%rsp)
        jae .Lctr_carry\@              /* low qword >= 2^64 - 32: a block may wrap */
.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        vpaddq (.Lctr_offsets + 32 * \r)(%rip), %ymm0, %ymm1
        vpshufb %ymm5, %ymm1, %ymm1
        vmovdqa %ymm1, (F_CTRBLK + 32 * \r)(%rsp)
.endr
        jmp .Lctr_done\@
.Lctr_carry\@:
        vmovdqa .Lsign_bit(%rip), %ymm2
.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        vpaddq (.Lctr_offsets + 32 * \r)(%rip), %ymm0, %ymm1
        CTR_CARRY (.Lctr_offsets + 32 * \r)(%rip)
        vpshufb %ymm5, %ymm1, %ymm1
        vmovdqa %ymm1, (F_CTRBLK + 32 * \r)(%rsp)
.endr
.Lctr_done\@:
.endm

/* CTR_CARRY added:  ymm1 = counter + added per qword (the high qwords of added are 0); carry
 * each low qword that wrapped into the high qword of its lane.  A low qword wrapped iff it is
 * now below what was added: compared as signed after flipping the sign bits (ymm2), since
 * AVX2 has no unsigned compare; a high qword never compares below 0.  Clobbers ymm3, ymm4. */
.macro CTR_CARRY added
        vpxor %ymm2, %ymm1, %ymm3
        vpxor \added, %ymm2, %ymm4
        vpcmpgtq %ymm3, %ymm4, %ymm4    /* low qword wrapped: all ones */
        vpslldq $8, %ymm4, %ymm4        /* ... moved to the high qword of the lane */
        vpsubq %ymm4, %ymm1, %ymm1      /* carry from the low into the high qword */
.endm

/* ---- Entry points ---- */

        .globl aria_ecb_avx2_gfni
        .type aria_ecb_avx2_gfni, @function
        .p2align 5
aria_ecb_avx2_gfni:
        endbr64
        test %r8, %r8
        jz 9f
        ENTER
        xor %r9d, %r9d
4:      cmp $32, %r8
        jae 5f
        TAIL_IN
5:      PASS ecb
        test %r9, %r9
        jnz 6f
        add $512, %rcx
        add $512, %rdx
        sub $32, %r8
        jnz 4b
        jmp 8f
6:      TAIL_OUT
8:      LEAVE
9:      ret
        .size aria_ecb_avx2_gfni, .-aria_ecb_avx2_gfni

        .globl aria_ctr_avx2_gfni
        .type aria_ctr_avx2_gfni, @function
        .p2align 5
aria_ctr_avx2_gfni:
        endbr64
        test %r8, %r8
        jz 9f
        ENTER
        mov %r9, F_CTRPTR(%rsp)
        mov (%r9), %rax
        bswap %rax
        mov %rax, (F_CTR + 8)(%rsp)
        mov 8(%r9), %rax
        bswap %rax
        mov %rax, F_CTR(%rsp)
        xor %r9d, %r9d
4:      cmp $32, %r8
        jae 5f
        TAIL_IN
5:      CTR_BLOCKS
        PASS ctr
        test %r9, %r9
        jnz 6f
        addq $32, F_CTR(%rsp)
        adcq $0, (F_CTR + 8)(%rsp)
        add $512, %rcx
        add $512, %rdx
        sub $32, %r8
        jnz 4b
        jmp 7f
6:      TAIL_OUT
        add %r8, F_CTR(%rsp)
        adcq $0, (F_CTR + 8)(%rsp)
7:      mov F_CTRPTR(%rsp), %r9
        mov (F_CTR + 8)(%rsp), %rax
        bswap %rax
        mov %rax, (%r9)
        mov F_CTR(%rsp), %rax
        bswap %rax
        mov %rax, 8(%r9)
8:      LEAVE
9:      ret
        .size aria_ctr_avx2_gfni, .-aria_ctr_avx2_gfni

        .section .note.GNU-stack,"",@progbits
