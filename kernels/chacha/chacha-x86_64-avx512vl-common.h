/* chacha-x86_64-avx512vl-common.h — the shared body of the two AVX-512VL ChaCha kernels
 * (chacha-x86_64-avx512vl-prold.S, chacha-x86_64-avx512vl-shuf.S): eight blocks a batch, one
 * block per 32-bit lane of a ymm register, the whole 16-word state in ymm16-31.
 *
 * The including file defines the form: ROT16/ROT12/ROT8/ROT7(x, t) (x rotated left in place,
 * t a temporary it may use), LOAD_ROT_CONSTANTS (what they need loaded once per call) and
 * the two symbol names CHACHA_CTR32 and CHACHA_CTR64, and includes chacha-x86_64-avx512-qr.h
 * (the rounds, QR4 and DOUBLE_ROUND, shared with the zmm form) before this file.
 *
 * What it computes (reference/chacha.c, kernels/chacha/chacha.h): dst = src ^ keystream for
 * len bytes, the keystream's blocks from the 16-word state at nrounds (8, 12, 20) with the
 * block counter advanced by one per block: CHACHA_CTR32 adds to word 12 alone (it wraps at
 * 2^32, word 13 untouched), CHACHA_CTR64 to words 12-13 as one 64-bit counter.  On return
 * words 12-13 hold the counter of the block after the last one used (ceil(len / 64) blocks);
 * no other word of the state is written.
 *
 * void CHACHA_CTR32(uint32_t state[16],   rdi
 *                   uint8_t *dst,          rsi
 *                   const uint8_t *src,    rdx
 *                   size_t len,            rcx
 *                   unsigned int nrounds); r8d
 * System V AMD64.  Needs AVX512F, AVX512VL and AVX512BW (vmovdqu8 and kmovd for the tail, and
 * vpshufb on ymm16-31 in the shuf form).  Clobbers rax, rcx, rdx, rsi, r9-r11, flags, ymm0-31
 * and k1, every one of the vector and opmask registers zeroed before return.  No stack, no red
 * zone; no alignment required; dst may equal src (each 32 bytes are read before written).
 * nrounds must be even and nonzero.  len == 0 returns at once and writes nothing.
 *
 * Register map of a batch:
 *   rdi state   rsi dst   rdx src   rcx bytes left   r8d nrounds   r9d 0 (ctr32) / 1 (ctr64)
 *   eax counter word 12 of the batch's first block   r11d word 13   r10d double rounds left
 *   ymm0  word 12 per block (the counter + lane)     ymm1  word 13 per block (ctr64: +1 on the
 *   ymm2  the lane numbers 0..7                            lanes whose word 12 wrapped)
 *   ymm3, ymm4  the form's constants                 ymm5-8  the rounds' temporaries
 *   ymm16-31  X0..X15: word i of the eight blocks
 * After the rounds the words are transposed into blocks: ymm5+b holds bytes 0-31 of block b,
 * ymm16+b bytes 32-63.
 */

#define STATE %rdi
#define DST %rsi
#define SRC %rdx
#define LEN %rcx
#define NROUNDS %r8d
#define MODE %r9d
#define DROUNDS %r10d
#define CTR_LO %eax
#define CTR_HI %r11d

#define CTR12 %ymm0
#define CTR13 %ymm1
#define LANES %ymm2
#define T0 %ymm5
#define T1 %ymm6
#define T2 %ymm7
#define T3 %ymm8

#define X0 %ymm16
#define X1 %ymm17
#define X2 %ymm18
#define X3 %ymm19
#define X4 %ymm20
#define X5 %ymm21
#define X6 %ymm22
#define X7 %ymm23
#define X8 %ymm24
#define X9 %ymm25
#define X10 %ymm26
#define X11 %ymm27
#define X12 %ymm28
#define X13 %ymm29
#define X14 %ymm30
#define X15 %ymm31

        .section .rodata
        .p2align 5
        .type CHACHA_LANES, @object
CHACHA_LANES:
        .long 0, 1, 2, 3, 4, 5, 6, 7
        .size CHACHA_LANES, . - CHACHA_LANES

        .text

/* TRANSPOSE8: eight ymm of one word each for blocks 0..7 (i0..i7) into eight ymm of words
 * 0-7 (or 8-15) each for one block (o_b: block b).  t0..t7 temporaries; i0..i7 are
 * overwritten (they hold the 4x4 step), o may be t. */
.macro TRANSPOSE8 i0, i1, i2, i3, i4, i5, i6, i7, t0, t1, t2, t3, t4, t5, t6, t7, o0, o1, o2, o3, o4, o5, o6, o7
        vpunpckldq \i1, \i0, \t0
        vpunpckhdq \i1, \i0, \t1
        vpunpckldq \i3, \i2, \t2
        vpunpckhdq \i3, \i2, \t3
        vpunpckldq \i5, \i4, \t4
        vpunpckhdq \i5, \i4, \t5
        vpunpckldq \i7, \i6, \t6
        vpunpckhdq \i7, \i6, \t7
        vpunpcklqdq \t2, \t0, \i0       /* words 0-3 (4-7) of blocks 0 | 4 */
        vpunpckhqdq \t2, \t0, \i1       /* 1 | 5 */
        vpunpcklqdq \t3, \t1, \i2       /* 2 | 6 */
        vpunpckhqdq \t3, \t1, \i3       /* 3 | 7 */
        vpunpcklqdq \t6, \t4, \i4
        vpunpckhqdq \t6, \t4, \i5
        vpunpcklqdq \t7, \t5, \i6
        vpunpckhqdq \t7, \t5, \i7
        vshufi32x4 $0, \i4, \i0, \o0
        vshufi32x4 $3, \i4, \i0, \o4
        vshufi32x4 $0, \i5, \i1, \o1
        vshufi32x4 $3, \i5, \i1, \o5
        vshufi32x4 $0, \i6, \i2, \o2
        vshufi32x4 $3, \i6, \i2, \o6
        vshufi32x4 $0, \i7, \i3, \o3
        vshufi32x4 $3, \i7, \i3, \o7
.endm

/* CHUNK reg: 32 bytes of keystream in reg against src: whole when 32 or more bytes are left
 * (pointers and count advanced), else reg into ymm13 and on to the byte tail (0..31 bytes,
 * the call's last). */
.macro CHUNK reg
        cmp $32, LEN
        jae 1f
        vmovdqa32 \reg, %ymm13
        jmp .Ltail_bytes
1:
        vpxord (SRC), \reg, \reg
        vmovdqu32 \reg, (DST)
        add $32, SRC
        add $32, DST
        sub $32, LEN
.endm

/* ADVANCE n: the counter by n blocks (a register or $imm): word 12 wraps; in ctr64 (MODE 1)
 * its carry goes into word 13. */
.macro ADVANCE n
        add \n, CTR_LO
        jnc 1f
        add MODE, CTR_HI
1:
.endm

        /* ctr32 is a stub into ctr64's body (the function every instruction is counted in) */
        .globl CHACHA_CTR32
        .type CHACHA_CTR32, @function
        .p2align 5
CHACHA_CTR32:
        endbr64
        xor MODE, MODE
        jmp .Lcommon
        .size CHACHA_CTR32, . - CHACHA_CTR32

        .globl CHACHA_CTR64
        .type CHACHA_CTR64, @function
        .p2align 5
CHACHA_CTR64:
        endbr64
        mov $1, MODE
.Lcommon:
        test LEN, LEN
        jz .Lreturn_untouched
        mov 48(STATE), CTR_LO
        mov 52(STATE), CTR_HI
        vmovdqu32 CHACHA_LANES(%rip), LANES
        LOAD_ROT_CONSTANTS

.Lbatch:
        /* words 12 and 13 of the eight blocks */
        vpbroadcastd CTR_LO, CTR12
        vpaddd LANES, CTR12, CTR12
        vpbroadcastd CTR_HI, CTR13
        test MODE, MODE
        jz 2f
        vpcmpud $1, LANES, CTR12, %k1   /* word 12 below its lane number: it wrapped */
        vpternlogd $0xff, T0, T0, T0
        vpsubd T0, CTR13, CTR13{%k1}    /* word 13 + 1 there */
2:
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
        vmovdqa32 CTR12, X12
        vmovdqa32 CTR13, X13
        vpbroadcastd 56(STATE), X14
        vpbroadcastd 60(STATE), X15
        mov NROUNDS, DROUNDS
        shr $1, DROUNDS

.Ldouble_round:
        DOUBLE_ROUND X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15, T0, T1, T2, T3
        dec DROUNDS
        jnz .Ldouble_round

        /* the input state added (RFC 8439 2.3), then the words into blocks */
        vpaddd 0(STATE){1to8}, X0, X0
        vpaddd 4(STATE){1to8}, X1, X1
        vpaddd 8(STATE){1to8}, X2, X2
        vpaddd 12(STATE){1to8}, X3, X3
        vpaddd 16(STATE){1to8}, X4, X4
        vpaddd 20(STATE){1to8}, X5, X5
        vpaddd 24(STATE){1to8}, X6, X6
        vpaddd 28(STATE){1to8}, X7, X7
        vpaddd 32(STATE){1to8}, X8, X8
        vpaddd 36(STATE){1to8}, X9, X9
        vpaddd 40(STATE){1to8}, X10, X10
        vpaddd 44(STATE){1to8}, X11, X11
        vpaddd CTR12, X12, X12
        vpaddd CTR13, X13, X13
        vpaddd 56(STATE){1to8}, X14, X14
        vpaddd 60(STATE){1to8}, X15, X15
        TRANSPOSE8 X0, X1, X2, X3, X4, X5, X6, X7, %ymm5, %ymm6, %ymm7, %ymm8, %ymm9, %ymm10, %ymm11, %ymm12, %ymm5, %ymm6, %ymm7, %ymm8, %ymm9, %ymm10, %ymm11, %ymm12
        TRANSPOSE8 X8, X9, X10, X11, X12, X13, X14, X15, X0, X1, X2, X3, X4, X5, X6, X7, X0, X1, X2, X3, X4, X5, X6, X7

        /* the blocks this batch uses: eight, or the last ceil(len / 64) */
        mov $8, %r10d
        cmp $512, LEN
        jae 3f
        lea 63(LEN), %r10
        shr $6, %r10
3:
        ADVANCE %r10d
        CHUNK %ymm5
        CHUNK %ymm16
        CHUNK %ymm6
        CHUNK %ymm17
        CHUNK %ymm7
        CHUNK %ymm18
        CHUNK %ymm8
        CHUNK %ymm19
        CHUNK %ymm9
        CHUNK %ymm20
        CHUNK %ymm10
        CHUNK %ymm21
        CHUNK %ymm11
        CHUNK %ymm22
        CHUNK %ymm12
        CHUNK %ymm23
        test LEN, LEN
        jnz .Lbatch
        jmp .Lfinish

.Ltail_bytes:
        /* 0..31 bytes: a byte mask of the LEN low bits */
        test LEN, LEN
        jz .Lfinish
        mov $1, %r10d
        shl %cl, %r10d
        dec %r10d
        kmovd %r10d, %k1
        vmovdqu8 (SRC), %ymm14{%k1}{z}
        vpxord %ymm13, %ymm14, %ymm14
        vmovdqu8 %ymm14, (DST){%k1}

.Lfinish:
        mov CTR_LO, 48(STATE)
        mov CTR_HI, 52(STATE)
        /* no key or keystream left in a vector or opmask register */
        kxorw %k1, %k1, %k1
        .irp r, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        vpxord %ymm\r, %ymm\r, %ymm\r
        .endr
        vzeroall
.Lreturn_untouched:
        ret
        .size CHACHA_CTR64, . - CHACHA_CTR64

        .section .note.GNU-stack, "", @progbits
