/* camellia-x86_64-avx2-gfni.S — Camellia (RFC 3713) ECB and CTR, AVX2 + GFNI (VEX, ymm),
 * byte-sliced.
 *
 *   camellia_ecb_avx2_gfni(sk, rounds, out, in, nblocks)
 *   camellia_ctr_avx2_gfni(sk, rounds, out, in, nblocks, ctr)
 *
 * Computes what reference/camellia.c computes (camellia_ecb, camellia_ctr) from its subkeys in
 * order of use; interface and contract in kernels/camellia/camellia.h.  The narrow path for CPUs
 * with GFNI but without AVX-512; one FL form (the x >> 7 of FL's rotate is one vgf2p8affineqb).
 *
 * Algorithm per block (reference/camellia.c camellia_crypt_block), halves L, R:
 *   L ^= sk[0]; R ^= sk[1]; groups of six Feistel rounds R ^= F(L, k), L ^= F(R, k') with
 *   L = FL(L, ke), R = FL^-1(R, ke') between groups; R ^= sk[n-2]; L ^= sk[n-1]; out = R || L
 *
 * Layout: 32 blocks per pass, byte-sliced: after a 16x16 byte transpose of each 128-bit lane,
 * byte j of all 32 blocks is one 32-byte row S[j] of the stack frame (S[0..7] = L, S[8..15] =
 * R, most significant byte first).  The state lives in the frame, not in registers: with
 * sixteen ymm registers, a round keeps its eight F bytes in ymm0-7 and the five S-box matrices
 * in ymm8-12, reads the F input rows as XOR operands and read-modify-writes the eight output
 * rows.  The transposes go through memory in two halves of two interleave stages each, on
 * groups of four rows (G2: rows i, i+4, i+8, i+12 -> rows 4i .. 4i+3); the output transpose
 * exchanges the operands of its first stage, which swaps the two 64-bit halves of every block
 * for free (as TRANSPOSE_HALFSWAP does in kernels/x86_64-common/bytesliced-avx512.h).  A tail
 * below 32 blocks is copied (rep movsb: exactly 16*t bytes read) into a stack buffer, run as a
 * full pass, and exactly 16*t bytes are copied out.  CTR writes its 32 counter blocks
 * big-endian into that buffer with scalar code.
 *
 * S-boxes and P as in camellia-x86_64-avx512-gfni.S (constants from
 * kernels/camellia/camellia-gfni-constants.h, generated and checked by
 * tools/gen_camellia_gfni.c).
 *
 * Calling convention: System V AMD64.
 *   rdi sk, esi rounds (upper half of rsi ignored), rdx out, rcx in, r8 nblocks, r9 ctr (CTR)
 *   Clobbers rax, rcx, rdx, rsi, rdi, r8, r10, r11, flags, ymm0-15; the ymm registers are
 *   zeroed before return (vzeroall), then vzeroupper.  Callee-saved registers untouched.
 *   Stack: a 32-byte aligned frame of FRAME bytes below rsp (its first slot keeps the caller's
 *   rsp), zeroed before return.
 *
 * Register map in a pass:
 *   rounds:  ymm0-7 the F bytes t1..t8, ymm8 PRE, ymm9 PRE4, ymm10-12 POST1-3, ymm13 the
 *            x >> 7 matrix, ymm14 key byte broadcasts; FL: ymm0-3 the ANDed word, ymm4-5 temps
 *   transposes: ymm0-3, ymm7-10
 *   r11 the frame, rax subkey pointer and r10d rounds left (core), rcx in, rdx out,
 *   r8 blocks left
 */

#include "camellia-gfni-constants.h"
#include "../x86_64-common/bytesliced-avx2.h"

#if CAMELLIA_GFNI_S2_PRE_MATRIX != CAMELLIA_GFNI_S1_PRE_MATRIX || \
    CAMELLIA_GFNI_S3_PRE_MATRIX != CAMELLIA_GFNI_S1_PRE_MATRIX || \
    CAMELLIA_GFNI_S2_PRE_IMM != CAMELLIA_GFNI_S1_PRE_IMM || \
    CAMELLIA_GFNI_S3_PRE_IMM != CAMELLIA_GFNI_S1_PRE_IMM || \
    CAMELLIA_GFNI_S4_MATRIX != CAMELLIA_GFNI_S1_MATRIX || \
    CAMELLIA_GFNI_S4_IMM != CAMELLIA_GFNI_S1_IMM
#error "camellia-gfni-constants.h: SBOX1-3 are expected to share PRE, SBOX4 to share SBOX1's POST"
#endif

/* Frame, from the 32-byte aligned r11: */
#define F_SAVE    0         /* the caller's rsp */
#define F_SK      8         /* sk */
#define F_ROUNDS  16        /* rounds (32 bits) */
#define F_CTR     24        /* CTR: running counter, low qword then high, as integers */
#define F_S       64        /* 16 rows x 32 bytes: the sliced state */
#define F_Q       576       /* 16 x 32: transpose scratch (CTR tail: input copy) */
#define F_BUF     1088      /* 32 blocks: tail buffer, CTR counter blocks and keystream */
#define F_END     1600
#define FRAME     (F_END + 32)

        .section .rodata
        .p2align 3
        .type camellia_avx2_c2_pre, @object
camellia_avx2_c2_pre:
.Lc2_pre:
        .quad CAMELLIA_GFNI_S1_PRE_MATRIX
        .size camellia_avx2_c2_pre, . - camellia_avx2_c2_pre
        .type camellia_avx2_c2_pre4, @object
camellia_avx2_c2_pre4:
.Lc2_pre4:
        .quad CAMELLIA_GFNI_S4_PRE_MATRIX
        .size camellia_avx2_c2_pre4, . - camellia_avx2_c2_pre4
        .type camellia_avx2_c2_post1, @object
camellia_avx2_c2_post1:
.Lc2_post1:
        .quad CAMELLIA_GFNI_S1_MATRIX
        .size camellia_avx2_c2_post1, . - camellia_avx2_c2_post1
        .type camellia_avx2_c2_post2, @object
camellia_avx2_c2_post2:
.Lc2_post2:
        .quad CAMELLIA_GFNI_S2_MATRIX
        .size camellia_avx2_c2_post2, . - camellia_avx2_c2_post2
        .type camellia_avx2_c2_post3, @object
camellia_avx2_c2_post3:
.Lc2_post3:
        .quad CAMELLIA_GFNI_S3_MATRIX
        .size camellia_avx2_c2_post3, . - camellia_avx2_c2_post3
        .type camellia_avx2_c2_shr7, @object
camellia_avx2_c2_shr7:
.Lc2_shr7:
        .quad CAMELLIA_GFNI_SHR7_MATRIX
        .size camellia_avx2_c2_shr7, . - camellia_avx2_c2_shr7

        .text

/* ---- Transposes through memory ---- */

/* G2 soff, sbase, doff, dbase, i, swap:  rows i, i+4, i+8, i+12 of the 16 rows at soff(sbase)
 * (32 bytes apart) -> rows 4i .. 4i+3 at doff(dbase): two interleave stages of the per-lane
 * 16x16 transpose, with the macros shared with ARIA (kernels/x86_64-common/bytesliced-avx2.h).
 * swap=1 exchanges the operands of the first stage, which after the full transpose swaps the
 * two 64-bit halves of every block.  Uses ymm0-3, ymm7-10. */
.macro G2 soff, sbase, doff, dbase, i, swap
        LOAD_GROUP \soff, \sbase, \i
.if \swap
        INTERLEAVE2_SWAPPED
.else
        INTERLEAVE2
.endif
        STORE_ROWS \doff, \dbase, \i
.endm

/* TRANSPOSE_IN soff, sbase:  32 blocks at soff(sbase) -> the sliced state S (via Q). */
.macro TRANSPOSE_IN soff, sbase
.irp i, 0, 1, 2, 3
        G2 \soff, \sbase, F_Q, %r11, \i, 0
.endr
.irp i, 0, 1, 2, 3
        G2 F_Q, %r11, F_S, %r11, \i, 0
.endr
.endm

/* TRANSPOSE_OUT doff, dbase:  the sliced state S -> 32 blocks at doff(dbase), halves swapped. */
.macro TRANSPOSE_OUT doff, dbase
.irp i, 0, 1, 2, 3
        G2 F_S, %r11, F_Q, %r11, \i, 1
.endr
.irp i, 0, 1, 2, 3
        G2 F_Q, %r11, \doff, \dbase, \i, 0
.endr
.endm

/* ---- Rounds ---- */

/* SBOX j:  ymm j = SBOXn(ymm j), n the S-box of F's byte j: 1 2 3 4 2 3 4 1. */
.macro SBOX j
.if \j == 3 || \j == 6
        vgf2p8affineqb $CAMELLIA_GFNI_S4_PRE_IMM, %ymm9, %ymm\j, %ymm\j
        vgf2p8affineinvqb $CAMELLIA_GFNI_S1_IMM, %ymm10, %ymm\j, %ymm\j
.else
        vgf2p8affineqb $CAMELLIA_GFNI_S1_PRE_IMM, %ymm8, %ymm\j, %ymm\j
.if \j == 0 || \j == 7
        vgf2p8affineinvqb $CAMELLIA_GFNI_S1_IMM, %ymm10, %ymm\j, %ymm\j
.elseif \j == 1 || \j == 4
        vgf2p8affineinvqb $CAMELLIA_GFNI_S2_IMM, %ymm11, %ymm\j, %ymm\j
.else
        vgf2p8affineinvqb $CAMELLIA_GFNI_S3_IMM, %ymm12, %ymm\j, %ymm\j
.endif
.endif
.endm

/* ROW_XOR_STORE r, y:  S[r] ^= ymm y. */
.macro ROW_XOR_STORE r, y
        vpxor (F_S + 32 * \r)(%r11), %ymm\y, %ymm\y
        vmovdqa %ymm\y, (F_S + 32 * \r)(%r11)
.endm

/* F_ROUND kofs, in, out:  rows out..out+7 ^= F(rows in..in+7, the key word at kofs(%rax)).
 * P as in the AVX-512 file: x1^=x6 x2^=x7 x3^=x8 x4^=x5; x5^=x3 x6^=x4 x7^=x1 x8^=x2;
 * x1^=x8 x2^=x5 x3^=x6 x4^=x7 (z5..z8); x5^=x4 x6^=x1 x7^=x2 x8^=x3 (z1..z4).
 * Uses ymm0-7. */
.macro F_ROUND kofs, in, out
.irp j, 0, 1, 2, 3, 4, 5, 6, 7
        vpbroadcastb (\kofs + 7 - \j)(%rax), %ymm\j
        vpxor (F_S + 32 * (\in + \j))(%r11), %ymm\j, %ymm\j
        SBOX \j
.endr
        vpxor %ymm5, %ymm0, %ymm0
        vpxor %ymm6, %ymm1, %ymm1
        vpxor %ymm7, %ymm2, %ymm2
        vpxor %ymm4, %ymm3, %ymm3
        vpxor %ymm2, %ymm4, %ymm4
        vpxor %ymm3, %ymm5, %ymm5
        vpxor %ymm0, %ymm6, %ymm6
        vpxor %ymm1, %ymm7, %ymm7
        vpxor %ymm7, %ymm0, %ymm0
        vpxor %ymm4, %ymm1, %ymm1
        vpxor %ymm5, %ymm2, %ymm2
        vpxor %ymm6, %ymm3, %ymm3
        vpxor %ymm3, %ymm4, %ymm4
        vpxor %ymm0, %ymm5, %ymm5
        vpxor %ymm1, %ymm6, %ymm6
        vpxor %ymm2, %ymm7, %ymm7
        ROW_XOR_STORE (\out + 0), 4
        ROW_XOR_STORE (\out + 1), 5
        ROW_XOR_STORE (\out + 2), 6
        ROW_XOR_STORE (\out + 3), 7
        ROW_XOR_STORE (\out + 4), 0
        ROW_XOR_STORE (\out + 5), 1
        ROW_XOR_STORE (\out + 6), 2
        ROW_XOR_STORE (\out + 7), 3
.endm

/* ADD_KEY_ROWS kofs, base:  rows base..base+7 ^= the key word at kofs(%rax).  Uses ymm14. */
.macro ADD_KEY_ROWS kofs, base
.irp j, 0, 1, 2, 3, 4, 5, 6, 7
        vpbroadcastb (\kofs + 7 - \j)(%rax), %ymm14
        ROW_XOR_STORE (\base + \j), 14
.endr
.endm

/* FL_AND_K1 kofs, a:  ymm j = S[a+j] & byte j of k1 (the key word's high half), j = 0..3. */
.macro FL_AND_K1 kofs, a
.irp j, 0, 1, 2, 3
        vpbroadcastb (\kofs + 7 - \j)(%rax), %ymm\j
        vpand (F_S + 32 * (\a + \j))(%r11), %ymm\j, %ymm\j
.endr
.endm

/* FL_ROTL1_BYTE b, hi, lo:  S[b] ^= (ymm hi << 1) | (ymm lo >> 7) per byte.  Uses ymm4-5,
 * ymm13 (the x >> 7 matrix). */
.macro FL_ROTL1_BYTE b, hi, lo
        vgf2p8affineqb $0, %ymm13, %ymm\lo, %ymm4
        vpaddb %ymm\hi, %ymm\hi, %ymm5
        vpxor %ymm5, %ymm4, %ymm4
        ROW_XOR_STORE \b, 4
.endm

/* FL_ROTL1_XOR b:  the word in rows b..b+3 ^= (the word in ymm0-3) <<< 1. */
.macro FL_ROTL1_XOR b
        FL_ROTL1_BYTE (\b + 0), 0, 1
        FL_ROTL1_BYTE (\b + 1), 1, 2
        FL_ROTL1_BYTE (\b + 2), 2, 3
        FL_ROTL1_BYTE (\b + 3), 3, 0
.endm

/* FL_OR_K2_XOR kofs, a, b:  rows a..a+3 ^= rows b..b+3 | k2 (the key word's low half).
 * Uses ymm4. */
.macro FL_OR_K2_XOR kofs, a, b
.irp j, 0, 1, 2, 3
        vpbroadcastb (\kofs + 3 - \j)(%rax), %ymm4
        vpor (F_S + 32 * (\b + \j))(%r11), %ymm4, %ymm4
        ROW_XOR_STORE (\a + \j), 4
.endr
.endm

/* camellia_core_avx2:  all rounds on the sliced state S.  In: r11 the frame (F_SK, F_ROUNDS
 * set).  Out: S before the swap of the halves.  Clobbers ymm0-14, rax, r10, flags. */
        .type camellia_core_avx2, @function
        .p2align 5
camellia_core_avx2:
        vpbroadcastq .Lc2_pre(%rip), %ymm8
        vpbroadcastq .Lc2_pre4(%rip), %ymm9
        vpbroadcastq .Lc2_post1(%rip), %ymm10
        vpbroadcastq .Lc2_post2(%rip), %ymm11
        vpbroadcastq .Lc2_post3(%rip), %ymm12
        vpbroadcastq .Lc2_shr7(%rip), %ymm13
        mov F_SK(%r11), %rax
        mov F_ROUNDS(%r11), %r10d
        ADD_KEY_ROWS 0, 0               /* L ^= kw1 */
        ADD_KEY_ROWS 8, 8               /* R ^= kw2 */
        add $16, %rax
1:
.irp kofs, 0, 16, 32
        F_ROUND \kofs, 0, 8
        F_ROUND (\kofs + 8), 8, 0
.endr
        add $48, %rax
        sub $6, %r10d
        jz 2f
        FL_AND_K1 0, 0                  /* L = FL(L, ke): x2 ^= (x1 & k1) <<< 1 */
        FL_ROTL1_XOR 4
        FL_OR_K2_XOR 0, 0, 4            /* x1 ^= x2 | k2 */
        FL_OR_K2_XOR 8, 8, 12           /* R = FL^-1(R, ke'): y1 ^= y2 | k2 */
        FL_AND_K1 8, 8                  /* y2 ^= (y1 & k1) <<< 1 */
        FL_ROTL1_XOR 12
        add $16, %rax
        jmp 1b
2:      ADD_KEY_ROWS 0, 8               /* R ^= kw3 */
        ADD_KEY_ROWS 8, 0               /* L ^= kw4 */
        ret
        .size camellia_core_avx2, .-camellia_core_avx2

/* ---- Entering and leaving ---- */

/* ENTER:  r11 = a 32-byte aligned frame of FRAME bytes below rsp, caller's rsp in F_SAVE;
 * F_SK, F_ROUNDS from rdi, esi. */
.macro ENTER
        mov %rsp, %rax
        sub $FRAME, %rsp
        and $-32, %rsp
        mov %rax, F_SAVE(%rsp)
        mov %rsp, %r11
        mov %rdi, F_SK(%r11)
        mov %esi, F_ROUNDS(%r11)
.endm

/* LEAVE:  zero the frame (all but F_SAVE) and ymm0-15, vzeroupper, restore rsp. */
.macro LEAVE
        vpxor %xmm0, %xmm0, %xmm0
        vmovdqa %ymm0, 32(%r11)         /* F_SK .. F_CTR and padding: bytes 8..63 */
        movq $0, 8(%r11)
        movq $0, 16(%r11)
        movq $0, 24(%r11)
.irp off, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512, 544
        vmovdqa %ymm0, \off(%r11)
        vmovdqa %ymm0, (\off + 512)(%r11)
        vmovdqa %ymm0, (\off + 1024)(%r11)
.endr
        vzeroall
        vzeroupper
        mov F_SAVE(%r11), %rsp
.endm

/* COPY dst, src, r8:  16 * r8 bytes, exactly (rep movsb).  Clobbers rdi, rsi, rcx. */
.macro COPY dst, src
        lea \dst, %rdi
        lea \src, %rsi
        mov %r8, %rcx
        shl $4, %rcx
        rep movsb
.endm

/* ---- Entry points ---- */

        .globl camellia_ecb_avx2_gfni
        .type camellia_ecb_avx2_gfni, @function
        .p2align 5
camellia_ecb_avx2_gfni:
        endbr64
        test %r8, %r8
        jz 9f                           /* nothing to do, no register touched */
        ENTER
        cmp $32, %r8
        jb 2f
1:      TRANSPOSE_IN 0, %rcx
        call camellia_core_avx2
        TRANSPOSE_OUT 0, %rdx
        add $512, %rcx
        add $512, %rdx
        sub $32, %r8
        cmp $32, %r8
        jae 1b
        test %r8, %r8
        jz 8f
2:      mov %rdx, %r9                   /* 1..31 blocks through the buffer */
        COPY F_BUF(%r11), (%rcx)
        TRANSPOSE_IN F_BUF, %r11
        call camellia_core_avx2
        TRANSPOSE_OUT F_BUF, %r11
        COPY (%r9), F_BUF(%r11)
8:      LEAVE
9:      ret
        .size camellia_ecb_avx2_gfni, .-camellia_ecb_avx2_gfni

/* CTR_FILL:  F_BUF = the 32 counter blocks from F_CTR on, big-endian.  Clobbers rax, r10,
 * rsi, flags. */
.macro CTR_FILL
        mov F_CTR(%r11), %rax
        mov (F_CTR + 8)(%r11), %r10
.irp b, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        mov %r10, %rsi
        bswap %rsi
        mov %rsi, (F_BUF + 16 * \b)(%r11)
        mov %rax, %rsi
        bswap %rsi
        mov %rsi, (F_BUF + 16 * \b + 8)(%r11)
        add $1, %rax
        adc $0, %r10
.endr
.endm

        .globl camellia_ctr_avx2_gfni
        .type camellia_ctr_avx2_gfni, @function
        .p2align 5
camellia_ctr_avx2_gfni:
        endbr64
        test %r8, %r8
        jz 9f                           /* nothing to do; ctr unchanged */
        ENTER
        mov 8(%r9), %rax
        bswap %rax
        mov %rax, F_CTR(%r11)
        mov (%r9), %rax
        bswap %rax
        mov %rax, (F_CTR + 8)(%r11)
1:      CTR_FILL
        TRANSPOSE_IN F_BUF, %r11
        call camellia_core_avx2
        TRANSPOSE_OUT F_BUF, %r11
        cmp $32, %r8
        jb 2f
.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        vmovdqa (F_BUF + 32 * \r)(%r11), %ymm0
        vpxor (32 * \r)(%rcx), %ymm0, %ymm0
        vmovdqu %ymm0, (32 * \r)(%rdx)
.endr
        addq $32, F_CTR(%r11)
        adcq $0, (F_CTR + 8)(%r11)
        add $512, %rcx
        add $512, %rdx
        sub $32, %r8
        jnz 1b
        jmp 8f
2:      mov %rdx, %rdi                  /* 1..31 blocks: in -> Q, Q ^= keystream, Q -> out */
        push %rdi                       /* (rep movsb needs rdi; keep out) */
        COPY F_Q(%r11), (%rcx)
.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        vmovdqa (F_BUF + 32 * \r)(%r11), %ymm0
        vpxor (F_Q + 32 * \r)(%r11), %ymm0, %ymm0
        vmovdqa %ymm0, (F_Q + 32 * \r)(%r11)
.endr
        pop %rdx
        COPY (%rdx), F_Q(%r11)
        add %r8, F_CTR(%r11)
        adcq $0, (F_CTR + 8)(%r11)
8:      mov (F_CTR + 8)(%r11), %rax     /* ctr = running counter, big-endian */
        bswap %rax
        mov %rax, (%r9)
        mov F_CTR(%r11), %rax
        bswap %rax
        mov %rax, 8(%r9)
        LEAVE
9:      ret
        .size camellia_ctr_avx2_gfni, .-camellia_ctr_avx2_gfni

        .section .note.GNU-stack,"",@progbits
