/* chacha-x86_64-avx2.S — ChaCha (RFC 8439) keystream XOR, AVX2, for hosts without AVX-512:
 * four blocks a batch, two per ymm register (one per 128-bit lane), the state in rows.
 *
 * Computes what reference/chacha.c computes (chacha_xor; the contract in
 * kernels/chacha/chacha.h):
 *   chacha_ctr32_x86_64_avx2  word 12 a 32-bit counter (wraps at 2^32, word 13 untouched)
 *   chacha_ctr64_x86_64_avx2  words 12-13 a 64-bit counter
 * dst = src ^ keystream for len bytes at nrounds (even, nonzero); words 12-13 of the state
 * advanced by ceil(len / 64) blocks, no other word written.
 *
 * void chacha_ctr32_x86_64_avx2(uint32_t state[16],   rdi
 *                               uint8_t *dst,          rsi
 *                               const uint8_t *src,    rdx
 *                               size_t len,            rcx
 *                               unsigned int nrounds); r8d
 * System V AMD64.  Needs AVX2.  Clobbers rax, rcx, rdx, rsi, r9-r11, flags and ymm0-15, every
 * vector register zeroed before return (vzeroall), rax too (it carries the last keystream
 * bytes).  No stack, no red zone, no alignment required; dst may equal src.
 *
 * The row layout: a register holds one row of the 4x4 state (words 4r..4r+3) for two blocks;
 * a column round works on the rows as they are, and the diagonal round after vpshufd turns
 * rows 1-3 by one, two and three words (and back).  Words 12-13 of a row are one qword, so the
 * counters of the batch's blocks are the first row 3 plus 0..3 as dwords (ctr32: word 12
 * alone) or as qwords (ctr64: the carry into word 13 is vpaddq's).  Rotations by 16 and 8 are
 * byte shuffles, by 12 and 7 a shift pair and an or (AVX2 has no rotate).
 *
 * Register map of a batch:
 *   rdi state  rsi dst  rdx src  rcx bytes left  r8d nrounds  r9d 0 (ctr32) / 1 (ctr64)
 *   r10d double rounds left
 *   ymm0-3    R0-R3: the state's rows, both lanes; R3's counter that of the batch's block 0
 *   ymm4-7    A0 B0 C0 D0: rows of blocks 0 (low lane) and 1 (high lane)
 *   ymm8-11   A1 B1 C1 D1: rows of blocks 2 and 3
 *   ymm12-13  the byte shuffles of the 16- and 8-bit rotations (after the rounds: the last
 *             chunk of keystream and a temporary)
 *   ymm14-15  temporaries
 */

#define STATE %rdi
#define DST %rsi
#define SRC %rdx
#define LEN %rcx
#define NROUNDS %r8d
#define MODE %r9d
#define DROUNDS %r10d

#define R0 %ymm0
#define R1 %ymm1
#define R2 %ymm2
#define R3 %ymm3
#define A0 %ymm4
#define B0 %ymm5
#define C0 %ymm6
#define D0 %ymm7
#define A1 %ymm8
#define B1 %ymm9
#define C1 %ymm10
#define D1 %ymm11
#define M16 %ymm12
#define M8 %ymm13
#define T %ymm14
#define U %ymm15

        .section .rodata
        .p2align 5
        .type chacha_avx2_rot16, @object
chacha_avx2_rot16:
        .byte 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13
        .size chacha_avx2_rot16, . - chacha_avx2_rot16
        .type chacha_avx2_rot8, @object
chacha_avx2_rot8:
        .byte 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
        .size chacha_avx2_rot8, . - chacha_avx2_rot8
        /* block offsets of the batch's lanes, added to row 3 as dwords or qwords */
        .p2align 5
        .type chacha_avx2_inc01, @object
chacha_avx2_inc01:
        .long 0, 0, 0, 0, 1, 0, 0, 0
        .size chacha_avx2_inc01, . - chacha_avx2_inc01
        .type chacha_avx2_inc23, @object
chacha_avx2_inc23:
        .long 2, 0, 0, 0, 3, 0, 0, 0
        .size chacha_avx2_inc23, . - chacha_avx2_inc23
        .type chacha_avx2_inc44, @object
chacha_avx2_inc44:
        .long 4, 0, 0, 0, 4, 0, 0, 0
        .size chacha_avx2_inc44, . - chacha_avx2_inc44

        .text

/* CTR_ADD src, r, dst: dst = r + src as ChaCha's counter adds: dwords in ctr32, qwords in
 * ctr64 (MODE). */
.macro CTR_ADD src, r, dst
        test MODE, MODE
        jnz 1f
        vpaddd \src, \r, \dst
        jmp 2f
1:
        vpaddq \src, \r, \dst
2:
.endm

/* HALF_ROUND: a quarter round on each column of both register sets (a diagonal round after
 * DIAGONALS).  T and U temporaries. */
.macro HALF_ROUND
        vpaddd B0, A0, A0
        vpaddd B1, A1, A1
        vpxor A0, D0, D0
        vpxor A1, D1, D1
        vpshufb M16, D0, D0
        vpshufb M16, D1, D1
        vpaddd D0, C0, C0
        vpaddd D1, C1, C1
        vpxor C0, B0, B0
        vpxor C1, B1, B1
        vpsrld $20, B0, T
        vpslld $12, B0, B0
        vpor T, B0, B0
        vpsrld $20, B1, U
        vpslld $12, B1, B1
        vpor U, B1, B1
        vpaddd B0, A0, A0
        vpaddd B1, A1, A1
        vpxor A0, D0, D0
        vpxor A1, D1, D1
        vpshufb M8, D0, D0
        vpshufb M8, D1, D1
        vpaddd D0, C0, C0
        vpaddd D1, C1, C1
        vpxor C0, B0, B0
        vpxor C1, B1, B1
        vpsrld $25, B0, T
        vpslld $7, B0, B0
        vpor T, B0, B0
        vpsrld $25, B1, U
        vpslld $7, B1, B1
        vpor U, B1, B1
.endm

/* ROTATE_ROWS b, c, d: rows 1, 2, 3 turned left by b, c, d words (as vpshufd immediates). */
.macro ROTATE_ROWS b, c, d
        vpshufd $\b, B0, B0
        vpshufd $\b, B1, B1
        vpshufd $\c, C0, C0
        vpshufd $\c, C1, C1
        vpshufd $\d, D0, D0
        vpshufd $\d, D1, D1
.endm

/* CHUNK reg: as in the AVX-512VL kernels: 32 bytes whole, or the chunk into ymm12 and on to
 * the byte tail. */
.macro CHUNK reg
        cmp $32, LEN
        jae 1f
        vmovdqa \reg, %ymm12
        jmp .Ltail_bytes
1:
        vpxor (SRC), \reg, \reg
        vmovdqu \reg, (DST)
        add $32, SRC
        add $32, DST
        sub $32, LEN
.endm

        /* ctr32 is a stub into ctr64's body */
        .globl chacha_ctr32_x86_64_avx2
        .type chacha_ctr32_x86_64_avx2, @function
        .p2align 5
chacha_ctr32_x86_64_avx2:
        endbr64
        xor MODE, MODE
        jmp .Lcommon
        .size chacha_ctr32_x86_64_avx2, . - chacha_ctr32_x86_64_avx2

        .globl chacha_ctr64_x86_64_avx2
        .type chacha_ctr64_x86_64_avx2, @function
        .p2align 5
chacha_ctr64_x86_64_avx2:
        endbr64
        mov $1, MODE
.Lcommon:
        test LEN, LEN
        jz .Lreturn_untouched
        vbroadcasti128 0(STATE), R0
        vbroadcasti128 16(STATE), R1
        vbroadcasti128 32(STATE), R2
        vbroadcasti128 48(STATE), R3
        /* the counter after the call, written now: the rows are loaded */
        mov 48(STATE), %eax
        mov 52(STATE), %r11d
        lea 63(LEN), %r10
        shr $6, %r10
        test MODE, MODE
        jnz 1f
        add %r10d, %eax
        mov %eax, 48(STATE)
        jmp .Lbatch
1:
        shl $32, %r11
        or %rax, %r11
        add %r10, %r11
        mov %r11d, 48(STATE)
        shr $32, %r11
        mov %r11d, 52(STATE)

.Lbatch:
        vbroadcasti128 chacha_avx2_rot16(%rip), M16
        vbroadcasti128 chacha_avx2_rot8(%rip), M8
        vmovdqa R0, A0
        vmovdqa R0, A1
        vmovdqa R1, B0
        vmovdqa R1, B1
        vmovdqa R2, C0
        vmovdqa R2, C1
        CTR_ADD chacha_avx2_inc01(%rip), R3, D0
        CTR_ADD chacha_avx2_inc23(%rip), R3, D1
        mov NROUNDS, DROUNDS
        shr $1, DROUNDS

.Ldouble_round:
        HALF_ROUND
        ROTATE_ROWS 0x39, 0x4e, 0x93
        HALF_ROUND
        ROTATE_ROWS 0x93, 0x4e, 0x39
        dec DROUNDS
        jnz .Ldouble_round

        /* the input state added (RFC 8439 2.3) */
        vpaddd R0, A0, A0
        vpaddd R0, A1, A1
        vpaddd R1, B0, B0
        vpaddd R1, B1, B1
        vpaddd R2, C0, C0
        vpaddd R2, C1, C1
        CTR_ADD chacha_avx2_inc01(%rip), R3, T
        vpaddd T, D0, D0
        CTR_ADD chacha_avx2_inc23(%rip), R3, T
        vpaddd T, D1, D1
        CTR_ADD chacha_avx2_inc44(%rip), R3, R3

        /* rows into blocks: 32-byte chunks in the order of the keystream */
        vperm2i128 $0x20, B0, A0, T     /* block 0, bytes 0-31 */
        vperm2i128 $0x31, B0, A0, U     /* block 1, bytes 0-31 */
        vperm2i128 $0x20, D0, C0, A0    /* block 0, bytes 32-63 */
        vperm2i128 $0x31, D0, C0, B0    /* block 1, bytes 32-63 */
        vperm2i128 $0x20, B1, A1, C0    /* block 2, bytes 0-31 */
        vperm2i128 $0x31, B1, A1, D0    /* block 3, bytes 0-31 */
        vperm2i128 $0x20, D1, C1, A1    /* block 2, bytes 32-63 */
        vperm2i128 $0x31, D1, C1, B1    /* block 3, bytes 32-63 */
        CHUNK T
        CHUNK A0
        CHUNK U
        CHUNK B0
        CHUNK C0
        CHUNK A1
        CHUNK D0
        CHUNK B1
        test LEN, LEN
        jnz .Lbatch
        jmp .Lfinish

.Ltail_bytes:
        /* 0..31 bytes against ymm12: 16, 8, 4, then byte by byte */
        test LEN, LEN
        jz .Lfinish
        cmp $16, LEN
        jb 1f
        vpxor (SRC), %xmm12, %xmm13
        vmovdqu %xmm13, (DST)
        add $16, SRC
        add $16, DST
        sub $16, LEN
        vextracti128 $1, %ymm12, %xmm12
1:
        cmp $8, LEN
        jb 2f
        vmovq %xmm12, %rax
        xor (SRC), %rax
        mov %rax, (DST)
        add $8, SRC
        add $8, DST
        sub $8, LEN
        vpsrldq $8, %xmm12, %xmm12
2:
        cmp $4, LEN
        jb 3f
        vmovd %xmm12, %eax
        xor (SRC), %eax
        mov %eax, (DST)
        add $4, SRC
        add $4, DST
        sub $4, LEN
        vpsrldq $4, %xmm12, %xmm12
3:
        vmovd %xmm12, %eax
4:
        test LEN, LEN
        jz .Lfinish
        xor (SRC), %al
        mov %al, (DST)
        shr $8, %eax
        inc SRC
        inc DST
        dec LEN
        jmp 4b

.Lfinish:
        xor %eax, %eax
        vzeroall
.Lreturn_untouched:
        ret
        .size chacha_ctr64_x86_64_avx2, . - chacha_ctr64_x86_64_avx2

        .section .note.GNU-stack, "", @progbits
