/* aes-x86_64-vaes-avx2-common.h — what the two VAES + AVX2 AES kernels share: the round loop,
 * ECB, CBC decryption, both CTR modes and the XTS frame, as assembler macros.
 *
 * Included by aes-x86_64-vaes-avx2-clmul.S and aes-x86_64-vaes-avx2-shift.S, each once.
 * Before including it a form defines
 *   XTS_NEXT k, v, t1, t2, c   v = v * x^k in GF(2^128) in each 128-bit lane (0 < k < 57),
 *                              t1, t2 scratch, c the register holding aes2_xts_const
 *   XTS_NEXT8 s, d, t1, t2, c  d = s * x^8, the same way by whole bytes (d != s)
 *   aes2_xts_const                the 32-byte constant XTS_NEXT needs
 *   AES_CTR_FAST               1: CTR takes the 32-bit lane path while it cannot carry
 *                              0: CTR always carries through all 128 bits
 * and then expands AES_VAES_AVX2_ENTRY_POINTS <form>, which emits aes_<mode>_<form> for the
 * seven modes of kernels/aes/aes.h.  The file comments of the two .S files describe the
 * design; the comments here say why each piece is shaped the way it is.
 *
 * Where the cycles go (Zen 4, AMD EPYC family 25; tools/aes_op_bench.c for the units,
 * tools/aes_kernel_bench.c for the kernels, 16 KiB in place; docs/aes.md has the method and
 * the one-process bench against Linux and libgcrypt):
 *   The bound.  vaesenc ymm: latency 4, two a cycle, so 8 independent chains, 0.156 c/B for
 *   AES-128 and 0.219 for AES-256 (10 and 14 rounds at 64 bytes a cycle).  ECB, CBC
 *   decryption and CTR32LE run at it (0.159, 0.223): the round keys' broadcast loads, the
 *   input loads and the stores cost nothing visible.
 *   What takes AES slots.  Beside 8 vaesenc chains, a vpclmulqdq ymm, a vpcmpgtq ymm or a byte
 *   shuffle (vpshufb, vpslldq, vpsrldq) issues where vaesenc does: each can push the pass
 *   back; ALU ops, shifts by bits, vpshufd, loads and stores do not (at the densities here).
 *   So the counter's carry is found with vpandn/vpsrlq/vpshufd, not vpcmpgtq/vpslldq, and
 *   the tweaks' x^8 step is one byte rotation, not two byte shifts.
 *   XTS (AES-256: 0.263 clmul, 0.280 shift).  Without the tweak step (ablation: XTS_ADVANCE
 *   only reloading Q) it runs at 0.222, so the 8 tweak multiplications a pass are what is
 *   left (clmul: 8 vpclmulqdq and 8 vpshufb; shift: 8 vpshufb and 48 ALU ops, whose
 *   ymm ALU slots then run short beside the rounds).  Packing two or four reductions into one
 *   vpclmulqdq was slower (0.290, 0.310): the longer chain delays the pass's second half.
 *   CTR (AES-128: clmul 0.159, shift 0.204).  The clmul form's byte path (15 passes in 16)
 *   does no byte reversal and no carry: it runs as CTR32LE and ECB do.  Without the carries
 *   the shift form runs at 0.181, without the per-register byte reversal 0.189.
 *
 * Registers every entry point sets up (ENTER) and the round loop relies on:
 *   rdi  ks (never written)   esi  rounds (only read)   r10  ks + 16 * rounds, the last key
 *   ymm15  the round key of the current round, broadcast to both lanes
 */

/* ---- Constants ---- */

        .section .rodata
        .p2align 5
        .type aes2_bswap128, @object
aes2_bswap128:                     /* vpshufb: each lane's 16 bytes reversed (BE <-> LE counter) */
        .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
        .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
        .size aes2_bswap128, . - aes2_bswap128
/* What register j of a 16-block pass adds to the counter pair [c, c+1], lane by lane: a
 * table, so that every register comes from the running pair directly and no add waits for
 * another.  As qwords [2j, 0]; the same bytes serve vpaddd (dword 0 gets 2j). */
        .type aes2_ctr_step, @object
aes2_ctr_step:
        .irp j, 0, 1, 2, 3, 4, 5, 6, 7
        .quad 2 * \j, 0, 2 * \j, 0
        .endr
        .size aes2_ctr_step, . - aes2_ctr_step
/* The same for the big-endian block as it is: 2j added to byte 15 of each lane (the top
 * byte of dword 3); j = 8, the pass's advance. */
        .type aes2_ctr_be_step, @object
aes2_ctr_be_step:
        .irp j, 0, 1, 2, 3, 4, 5, 6, 7, 8
        .long 0, 0, 0, (2 * \j) << 24, 0, 0, 0, (2 * \j) << 24
        .endr
        .size aes2_ctr_be_step, . - aes2_ctr_be_step
        .type aes2_ctr_lane1, @object
aes2_ctr_lane1:    .quad 0, 0, 1, 0        /* [c, c] -> [c, c+1] */
        .size aes2_ctr_lane1, . - aes2_ctr_lane1
/* aes2_ctr_add + 32n: what a step of n ymm (2n blocks; n = 0: one xmm block) adds to the pair */
        .type aes2_ctr_add, @object
aes2_ctr_add:
        .quad 1, 0, 1, 0
        .irp n, 1, 2, 3, 4, 5, 6, 7, 8
        .quad 2 * \n, 0, 2 * \n, 0
        .endr
        .size aes2_ctr_add, . - aes2_ctr_add
/* XTS_NEXT8 (both forms): vpshufb's rotation of each lane's bytes up one place (byte 15, the
 * one pushed out of x^128, to byte 0), and the mask of that byte. */
        .type aes2_xts_rot8, @object
aes2_xts_rot8:
        .byte 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14
        .byte 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14
        .size aes2_xts_rot8, . - aes2_xts_rot8
        .type aes2_xts_byte0, @object
aes2_xts_byte0:    .quad 0xff, 0, 0xff, 0
        .size aes2_xts_byte0, . - aes2_xts_byte0

.text

/* ---- Round loop ---- */

/* ENTER:  r10 = ks + 16 * rounds.  The later rounds address their keys from the end, so that
 * 10, 12 and 14 rounds share one straight sequence entered at three points. */
.macro ENTER
        mov %esi, %r10d
        shl $4, %r10d
        add %rdi, %r10
.endm

/* ROUND op, key, k, regs:  broadcast round key `key` into ymm15 and apply op with it (k is
 * ymm15 or xmm15, matching the width of regs) to every data register. */
.macro ROUND op, key, k, regs:vararg
        vbroadcasti128 \key, %ymm15
        .irp r, \regs
        \op \k, \r, \r
        .endr
.endm

/* MIDDLE op, k, regs:  rounds 1 .. rounds-1 with op on every register of regs (1 to 8, all
 * the same width, k ymm15 or xmm15 to match), entered where the key size starts them.  The
 * round keys are reloaded from memory each round: with 8 data registers and the counter or
 * tweak state there is no room for 15 keys, and vbroadcasti128 is a plain load (no shuffle
 * port), one per 1 to 8 AES instructions.  Clobbers ymm15, flags. */
.macro MIDDLE op, k, regs:vararg
        cmp $12, %esi
        jb 8710f                        /* AES-128 */
        je 8712f                        /* AES-192 */
        ROUND \op, -13*16(%r10), \k, \regs
        ROUND \op, -12*16(%r10), \k, \regs
8712:
        ROUND \op, -11*16(%r10), \k, \regs
        ROUND \op, -10*16(%r10), \k, \regs
8710:
        ROUND \op, -9*16(%r10), \k, \regs
        ROUND \op, -8*16(%r10), \k, \regs
        ROUND \op, -7*16(%r10), \k, \regs
        ROUND \op, -6*16(%r10), \k, \regs
        ROUND \op, -5*16(%r10), \k, \regs
        ROUND \op, -4*16(%r10), \k, \regs
        ROUND \op, -3*16(%r10), \k, \regs
        ROUND \op, -2*16(%r10), \k, \regs
        ROUND \op, -1*16(%r10), \k, \regs
.endm

/* CIPHER op, oplast, k, w, regs:  the whole cipher on every register of regs (1 to 8, all
 * the same width): whitening with w (already loaded: round key 0, or a modified round key 0
 * for CTR), then rounds 1 .. rounds-1 with op (MIDDLE) and the last with oplast.  Clobbers
 * ymm15, flags. */
.macro CIPHER op, oplast, k, w, regs:vararg
        .irp r, \regs
        vpxor \w, \r, \r
        .endr
        MIDDLE \op, \k, \regs
        ROUND \oplast, (%r10), \k, \regs
.endm

/* CIPHER_N op, oplast, w, n:  CIPHER on ymm0 .. ymm(n-1). */
.macro CIPHER_N op, oplast, w, n
.if \n == 8
        CIPHER \op, \oplast, %ymm15, \w, %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7
.elseif \n == 6
        CIPHER \op, \oplast, %ymm15, \w, %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5
.elseif \n == 4
        CIPHER \op, \oplast, %ymm15, \w, %ymm0, %ymm1, %ymm2, %ymm3
.elseif \n == 2
        CIPHER \op, \oplast, %ymm15, \w, %ymm0, %ymm1
.else
        CIPHER \op, \oplast, %ymm15, \w, %ymm0
.endif
.endm

/* LEAVE:  nothing key-derived may stay behind, and every entry point wrote some of ymm0-15;
 * vzeroall clears all sixteen at once (and their upper halves, so no vzeroupper is needed). */
.macro LEAVE
        vzeroall
        ret
.endm

.macro FUNC name
        .globl \name
        .type \name, @function
        .p2align 5
\name:
.endm

/* BLOCKS16 step:  the frame of ECB, CBC decryption and both CTRs.  r8 blocks at rcx -> rdx.
 * Passes of 16 blocks (8 ymm chains: VAES latency 3 to 4 cycles at 2 per cycle needs 6 to 8
 * independent chains to keep both AES units busy); then what is left (r8 < 16) by its binary
 * digits, 8, 4 and 2 blocks in 4, 2 and 1 ymm, and the odd block in an xmm, each step at
 * most once.  Every load and store is whole data blocks, so no byte outside the data is
 * touched without masked moves, and a tail costs at most four latency-bound steps.
 * `step n, main` does 2n blocks (n ymm; n = 0: one block in xmm0; ymm steps advance rcx and
 * rdx); main = 1 marks the main loop's 16-block step. */
.macro BLOCKS16 step
        cmp $16, %r8
        jb 2f
1:
        \step 8, 1
        sub $16, %r8
        cmp $16, %r8
        jae 1b
2:
        test $8, %r8b
        jz 3f
        \step 4, 0
3:
        test $4, %r8b
        jz 4f
        \step 2, 0
4:
        test $2, %r8b
        jz 5f
        \step 1, 0
5:
        test $1, %r8b                   /* tail: the odd block */
        jz 6f
        \step 0, 0
6:
.endm

/* ---- ECB ---- */

.macro ECB_STEP_ENC n, main
        ECB_STEP vaesenc, vaesenclast, \n
.endm
.macro ECB_STEP_DEC n, main
        ECB_STEP vaesdec, vaesdeclast, \n
.endm
.macro ECB_STEP op, oplast, n
        vbroadcasti128 (%rdi), %ymm15
.if \n
        .irp j, 0, 1, 2, 3, 4, 5, 6, 7
        .if \j < \n
        vmovdqu 32*\j(%rcx), %ymm\j
        .endif
        .endr
        CIPHER_N \op, \oplast, %ymm15, \n
        .irp j, 0, 1, 2, 3, 4, 5, 6, 7
        .if \j < \n
        vmovdqu %ymm\j, 32*\j(%rdx)
        .endif
        .endr
        add $32*\n, %rcx
        add $32*\n, %rdx
.else
        vmovdqu (%rcx), %xmm0
        CIPHER \op, \oplast, %xmm15, %xmm15, %xmm0
        vmovdqu %xmm0, (%rdx)
.endif
.endm

.macro ECB name, step
FUNC \name
        ENTER
        BLOCKS16 \step
        LEAVE
        .size \name, . - \name
.endm

/* ---- CBC decryption ---- */

/* out[i] = D(in[i]) ^ in[i-1].  The previous-ciphertext operand of register j is the 32 bytes
 * at in + 32j - 16, read from the input (in place: before this step's stores), except for
 * register 0 whose low lane is the block before the step: xmm14, the IV at first.  xmm14 is
 * reloaded from the step's last input block before any store overwrites it.
 *   ymm0-7 data   ymm13 [previous block, in[0]]   xmm14 previous block   ymm15 round key */
.macro CBC_STEP n, main
        vbroadcasti128 (%rdi), %ymm15
.if \n
        .irp j, 0, 1, 2, 3, 4, 5, 6, 7
        .if \j < \n
        vmovdqu 32*\j(%rcx), %ymm\j
        .endif
        .endr
        vinserti128 $1, (%rcx), %ymm14, %ymm13
        CIPHER_N vaesdec, vaesdeclast, %ymm15, \n
        vpxor %ymm13, %ymm0, %ymm0
        .irp j, 1, 2, 3, 4, 5, 6, 7
        .if \j < \n
        vpxor 32*\j-16(%rcx), %ymm\j, %ymm\j
        .endif
        .endr
        vmovdqu 32*\n-16(%rcx), %xmm14  /* CBC: the step's last ciphertext, before the stores */
        .irp j, 0, 1, 2, 3, 4, 5, 6, 7
        .if \j < \n
        vmovdqu %ymm\j, 32*\j(%rdx)
        .endif
        .endr
        add $32*\n, %rcx
        add $32*\n, %rdx
.else
        vmovdqu (%rcx), %xmm0
        vmovdqa %xmm0, %xmm13
        CIPHER vaesdec, vaesdeclast, %xmm15, %xmm15, %xmm0
        vpxor %xmm14, %xmm0, %xmm0
        vmovdqa %xmm13, %xmm14
        vmovdqu %xmm0, (%rdx)
.endif
.endm

.macro CBC_DEC name
FUNC \name
        test %r8, %r8
        jz 9f
        ENTER
        vmovdqu (%r9), %xmm14
        BLOCKS16 CBC_STEP
        vmovdqu %xmm14, (%r9)           /* CBC: the chaining value for the next call */
9:
        LEAVE
        .size \name, . - \name
.endm

/* ---- CTR ---- */

/* CTR_ADD128 add, w, t, m:  w += add (qword [a, 0] per lane, a < 2^63) as 128-bit integers
 * (the byte-reversed counter: a little-endian integer per lane).  The low qword's carry out
 * is the top bit of old & ~new for an addend below 2^63 (vpandn); shifted down to bit 0 and moved to the high qword by a swap of the lane's qwords (the high
 * qwords' own bit is 0: their addend is 0, so ~old & new is 0 there), it is added.  No
 * compare: vpcmpgtq ymm takes a slot of the AES units on Zen 4, as do byte shifts, where
 * vpandn, vpsrlq, vpshufd and vpaddq do not (docs/aes.md). */
.macro CTR_ADD128 add, w, t, m
        vpaddq \add, \w, \t
        vpandn \w, \t, \m
        vpsrlq $63, \m, \m
        vpshufd $0x4e, \m, \m
        vpaddq \m, \t, \w               /* CTR: carry the pair's low qwords into the high */
.endm

/* CTR_GEN_CARRY n:  ymm0 .. ymm(n-1) = counter blocks c+0 .. c+2n-1 (byte-reversed back to
 * big-endian) from the pair in ymm13, each carried through all 128 bits as CTR_ADD128 does, all
 * from ymm13, so the n are independent. */
.macro CTR_GEN_CARRY n
        .irp j, 0, 1, 2, 3, 4, 5, 6, 7
        .if \j < \n
        vpaddq aes2_ctr_step+32*\j(%rip), %ymm13, %ymm\j
        vpandn %ymm13, %ymm\j, %ymm11
        vpsrlq $63, %ymm11, %ymm11
        vpshufd $0x4e, %ymm11, %ymm11
        vpaddq %ymm11, %ymm\j, %ymm\j   /* CTR: carry from the low into the high qword */
        vpshufb %ymm12, %ymm\j, %ymm\j
        .endif
        .endr
.endm

/* CTR_STEP n, main (128-bit BE counter) and CTR32LE_STEP n, main:
 *   ymm0-7 data   ymm11 carry mask   ymm12 byte reversal   ymm13 counter pair [c, c+1]
 *   ymm14 whitening key (round key 0)   ymm15 round key
 * CTR keeps the counter as a byte-reversed LE integer (CTR_ADD128); CTR32LE keeps the block as it
 * is and adds in dword 0 only, which is exactly its mod 2^32 wrap. */
.macro CTR_STEP n, main
.if \n
.if AES_CTR_FAST && \main
        /* ymm10 holds the pair [c, c+1] big-endian, eax the low 32 bits of c.  While the low
         * byte of c is at most 238, c+0 .. c+17 (the pass and the next pair) differ from c in
         * that byte only, the last of
         * the big-endian block: the blocks are ymm10 plus 2j in byte 15 (vpaddd of 2j << 24
         * into dword 3: no carry out of the byte), and both forms of the pair advance by 16
         * with one add each, nothing to carry.  15 passes in 16 of a long run, all when c
         * starts at a multiple of 16: no byte reversal at all, a shuffle that takes AES slots
         * on Zen 4 (docs/aes.md).  Else, while the low 32 bits of c are at most 2^32 - 16,
         * c+0 .. c+15 differ from c in those 32 bits only: one vpaddd per register, nothing to
         * carry.  Else (once in 2^28 passes, or when the counter was chosen to wrap) the
         * carrying path. */
        cmp $238, %al                   /* CTR fast path: c+17 stays below 2^8 in the low byte */
        ja .Lctr_le32_\@
        .irp j, 0, 1, 2, 3, 4, 5, 6, 7
        vpaddd aes2_ctr_be_step+32*\j(%rip), %ymm10, %ymm\j
        .endr
        vpaddd aes2_ctr_be_step+32*8(%rip), %ymm10, %ymm10
        vpaddq aes2_ctr_add+32*8(%rip), %ymm13, %ymm13
        jmp .Lctr_done_\@
.Lctr_le32_\@:
        cmp $0xfffffff0, %eax           /* CTR fast path: c+15 stays below 2^32 in the low word */
        ja .Lctr_carry_\@
        .irp j, 0, 1, 2, 3, 4, 5, 6, 7
        vpaddd aes2_ctr_step+32*\j(%rip), %ymm13, %ymm\j
        vpshufb %ymm12, %ymm\j, %ymm\j
        .endr
        jmp .Lctr_add_\@
.Lctr_carry_\@:
        CTR_GEN_CARRY \n
.Lctr_add_\@:
        CTR_ADD128 aes2_ctr_add+32*\n(%rip), %ymm13, %ymm8, %ymm11
        vpshufb %ymm12, %ymm13, %ymm10
.Lctr_done_\@:
        add $16, %eax
.else
        CTR_GEN_CARRY \n
        CTR_ADD128 aes2_ctr_add+32*\n(%rip), %ymm13, %ymm8, %ymm11
.endif
        CTR_XOR_STORE \n
.else
        vpshufb %xmm12, %xmm13, %xmm0
        CTR_ADD128 aes2_ctr_add(%rip), %ymm13, %ymm8, %ymm11
        CTR_XOR_STORE 0
.endif
.endm

.macro CTR32LE_STEP n, main
.if \n
        .irp j, 0, 1, 2, 3, 4, 5, 6, 7
        .if \j < \n
        vpaddd aes2_ctr_step+32*\j(%rip), %ymm13, %ymm\j
        .endif
        .endr
        vpaddd aes2_ctr_add+32*\n(%rip), %ymm13, %ymm13
.else
        vmovdqa %xmm13, %xmm0
        vpaddd aes2_ctr_add(%rip), %ymm13, %ymm13
.endif
        CTR_XOR_STORE \n
.endm

/* CTR_XOR_STORE n:  encrypt the counter blocks in ymm0 .. ymm(n-1) (n = 0: xmm0), XOR the
 * input into them, store, advance.  (Folding the input into the last round's key, as the
 * AVX-512 kernels do, measured slower here for the clmul form's CTR and CTR32LE: 0.162 and
 * 0.161 against 0.159 c/B, and faster for the shift form's CTR: 0.187 against 0.203.) */
.macro CTR_XOR_STORE n
.if \n
        CIPHER_N vaesenc, vaesenclast, %ymm14, \n
        .irp j, 0, 1, 2, 3, 4, 5, 6, 7
        .if \j < \n
        vpxor 32*\j(%rcx), %ymm\j, %ymm\j
        vmovdqu %ymm\j, 32*\j(%rdx)
        .endif
        .endr
        add $32*\n, %rcx
        add $32*\n, %rdx
.else
        CIPHER vaesenc, vaesenclast, %xmm15, %xmm14, %xmm0
        vpxor (%rcx), %xmm0, %xmm0
        vmovdqu %xmm0, (%rdx)
.endif
.endm

.macro CTR name, le32
FUNC \name
        test %r8, %r8
        jz 9f
        ENTER
        vmovdqu (%r9), %xmm13
        vbroadcasti128 (%rdi), %ymm14
.if \le32
        vinserti128 $1, %xmm13, %ymm13, %ymm13
        vpaddd aes2_ctr_lane1(%rip), %ymm13, %ymm13
        BLOCKS16 CTR32LE_STEP
        vmovdqu %xmm13, (%r9)
.else
        vmovdqa aes2_bswap128(%rip), %ymm12
        vpshufb %xmm12, %xmm13, %xmm13
        vinserti128 $1, %xmm13, %ymm13, %ymm13
        CTR_ADD128 aes2_ctr_lane1(%rip), %ymm13, %ymm0, %ymm11
.if AES_CTR_FAST
        vpshufb %ymm12, %ymm13, %ymm10  /* CTR fast path: the pair big-endian, c's low word */
        vmovd %xmm13, %eax
.endif
        BLOCKS16 CTR_STEP
        vpshufb %xmm12, %xmm13, %xmm13  /* CTR: back to big-endian */
        vmovdqu %xmm13, (%r9)
.endif
9:
        LEAVE
        .size \name, . - \name
.endm

/* ---- XTS ---- */

/* The XTS state: ymm8 .. ymm11 = P0 .. P3, the tweak pairs of the next 8 blocks ([T_i,
 * T_i+1], [T_i+2, T_i+3], ..), ymm14 = the last round key in both lanes (for the whole
 * call), ymm12-13 XTS_NEXT's and XTS_NEXT8's scratch; a form's constant is read from memory
 * (aes2_xts_const), so that no register holds it. */

/* XTS_STEP op, oplast, n:  2n blocks (n ymm, n <= 4) at rcx -> rdx with the tweak pairs in
 * ymm8 .. ymm(7+n); n = 0: one block with the tweak in xmm8.  The tails and the stealing. */
.macro XTS_STEP op, oplast, n
        vbroadcasti128 (%rdi), %ymm15
.if \n
        vpxor (%rcx), %ymm8, %ymm0
.if \n > 1
        vpxor 32(%rcx), %ymm9, %ymm1
.endif
.if \n > 2
        vpxor 64(%rcx), %ymm10, %ymm2
        vpxor 96(%rcx), %ymm11, %ymm3
.endif
        CIPHER_N \op, \oplast, %ymm15, \n
        vpxor %ymm8, %ymm0, %ymm0
.if \n > 1
        vpxor %ymm9, %ymm1, %ymm1
.endif
.if \n > 2
        vpxor %ymm10, %ymm2, %ymm2
        vpxor %ymm11, %ymm3, %ymm3
.endif
        .irp j, 0, 1, 2, 3
        .if \j < \n
        vmovdqu %ymm\j, 32*\j(%rdx)
        .endif
        .endr
        add $32*\n, %rcx
        add $32*\n, %rdx
.else
        vpxor (%rcx), %xmm8, %xmm0
        CIPHER \op, \oplast, %xmm15, %xmm15, %xmm0
        vpxor %xmm8, %xmm0, %xmm0
        vmovdqu %xmm0, (%rdx)
.endif
.endm

/* XTS_FIRST d, t, off:  the start of a chain: d = in[off] ^ t ^ round key 0 (in ymm15). */
.macro XTS_FIRST d, t, off
        vpxor \off(%rcx), \t, \d
        vpxor %ymm15, \d, \d
.endm

/* XTS_KEEP t, off:  k_last ^ t into the output at off (the input there already read). */
.macro XTS_KEEP t, off
        vpxor %ymm14, \t, %ymm12
        vmovdqu %ymm12, \off(%rdx)      /* XTS: k_last ^ T into the block's output place */
.endm

/* XTS_PASS16 op, oplast:  16 blocks at rcx -> rdx in 8 ymm chains (vaesenc ymm: latency 4,
 * two a cycle on Zen 4, so 8 chains are what keeps both AES units busy), and the tweaks
 * advanced by x^16.  The 16 registers hold 8 data chains, P0 .. P3 (the tweak pairs of blocks
 * 0 .. 7), two scratch, the last round key and the round key; Q0 .. Q3, the tweak pairs of
 * blocks 8 .. 15 (P0 .. P3 * x^8), wait in the red zone (the 128 bytes below rsp, which a
 * leaf function may use), made by the pass before, so that all 8 chains start at once: a
 * chain that first waited for its tweak's multiplication would leave AES slots empty that
 * the rounds of the pass before cannot fill.  Each block's tweak is needed twice, XORed into
 * the input with round key 0 at the start and into the output at the end, where it is
 * folded into the last round's key, k_last ^ T.  That folded key is written into the block's
 * own place in the output when the pass starts (after the input block there has been read,
 * so in place works) and read back as the memory operand of the last round (vaesenclast
 * m256); the block's result then overwrites it.  The next pass's P0 .. P3 (Q0 .. Q3 * x^8)
 * and Q0 .. Q3 (those * x^8) are made while the rounds run. */
.macro XTS_PASS16 op, oplast
        vbroadcasti128 (%rdi), %ymm15
        XTS_FIRST %ymm0, %ymm8, 0
        XTS_FIRST %ymm1, %ymm9, 32
        XTS_FIRST %ymm2, %ymm10, 64
        XTS_FIRST %ymm3, %ymm11, 96
        .irp j, 4, 5, 6, 7
        vmovdqu -256+32*\j(%rsp), %ymm\j  /* XTS: Q from the red zone */
        .endr
        XTS_KEEP %ymm8, 0
        XTS_KEEP %ymm9, 32
        XTS_KEEP %ymm10, 64
        XTS_KEEP %ymm11, 96
        .irp j, 4, 5, 6, 7
        vpxor %ymm14, %ymm\j, %ymm12
        XTS_FIRST %ymm\j, %ymm\j, 32*\j
        vmovdqu %ymm12, 32*\j(%rdx)
        .endr
        XTS_ADVANCE %ymm8, 0
        XTS_ADVANCE %ymm9, 1
        XTS_ADVANCE %ymm10, 2
        XTS_ADVANCE %ymm11, 3
        MIDDLE \op, %ymm15, %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7
        .irp j, 0, 1, 2, 3, 4, 5, 6, 7
        \oplast 32*\j(%rdx), %ymm\j, %ymm\j /* XTS: the last round, k_last ^ T read back */
        vmovdqu %ymm\j, 32*\j(%rdx)
        .endr
        add $256, %rcx
        add $256, %rdx
.endm

/* XTS_ADVANCE p, j:  p (the register of P_j) = Q_j * x^8 (Q_j read from the red zone), and
 * Q_j = that * x^8 written back: the next pass's tweak pairs j and j + 4. */
.macro XTS_ADVANCE p, j
        vmovdqu -128+32*\j(%rsp), %ymm12
        XTS_NEXT8 %ymm12, \p, %ymm12, %ymm12, aes2_xts_const(%rip)
        XTS_NEXT8 \p, %ymm13, %ymm12, %ymm12, aes2_xts_const(%rip)
        vmovdqu %ymm13, -128+32*\j(%rsp)
.endm

/* XTS name, op, oplast, dec:  16 blocks per pass (XTS_PASS16).
 *   ymm0-7 data   ymm8-11 tweak pairs P0 .. P3   ymm12-13 scratch   ymm14 last round key
 *   ymm15 round key   rax whole blocks left for the bulk   r11 len % 16 (the stolen part)
 * With a partial block the last whole block is left out of the bulk: stealing needs it.
 * The tail (rax < 16 after the passes) goes by binary digits, 8, 4, 2 and 1 blocks, each
 * taking its tweaks from the bottom of P0 .. P3: after 8 blocks P0 .. P3 advance by x^8, after
 * 4 the upper two pairs move down, after 2 P1 moves down, after 1 the high lane of P0, so the
 * next tweak is always in the low lane of ymm8. */
.macro XTS name, op, oplast, dec
FUNC \name
        cmp $16, %r8                    /* 0 (or, outside the contract, 1..15): nothing */
        jb 9f
        ENTER
        vbroadcasti128 (%r10), %ymm14
        vmovdqu (%r9), %xmm8
        vmovdqa %xmm8, %xmm9
        XTS_NEXT 1, %xmm9, %xmm12, %xmm13, aes2_xts_const(%rip)
        vinserti128 $1, %xmm9, %ymm8, %ymm8
        vmovdqa %ymm8, %ymm9
        XTS_NEXT 2, %ymm9, %ymm12, %ymm13, aes2_xts_const(%rip)
        vmovdqa %ymm9, %ymm10
        XTS_NEXT 2, %ymm10, %ymm12, %ymm13, aes2_xts_const(%rip)
        vmovdqa %ymm10, %ymm11
        XTS_NEXT 2, %ymm11, %ymm12, %ymm13, aes2_xts_const(%rip)
        mov %r8, %rax
        shr $4, %rax
        mov %r8, %r11
        and $15, %r11
        jz 1f
        dec %rax                        /* XTS: the last whole block goes to stealing */
1:
        sub $16, %rax
        jb 3f
        XTS_NEXT8 %ymm8, %ymm13, %ymm12, %ymm12, aes2_xts_const(%rip)
        vmovdqu %ymm13, -128(%rsp)      /* XTS: the first pass's Q0 .. Q3 into the red zone */
        XTS_NEXT8 %ymm9, %ymm13, %ymm12, %ymm12, aes2_xts_const(%rip)
        vmovdqu %ymm13, -96(%rsp)
        XTS_NEXT8 %ymm10, %ymm13, %ymm12, %ymm12, aes2_xts_const(%rip)
        vmovdqu %ymm13, -64(%rsp)
        XTS_NEXT8 %ymm11, %ymm13, %ymm12, %ymm12, aes2_xts_const(%rip)
        vmovdqu %ymm13, -32(%rsp)
2:
        XTS_PASS16 \op, \oplast
        sub $16, %rax
        jae 2b
        vpxor %xmm12, %xmm12, %xmm12    /* XTS: no tweak left in the red zone */
        .irp j, 0, 1, 2, 3
        vmovdqu %ymm12, -128+32*\j(%rsp)
        .endr
3:
        test $8, %al
        jz 4f
        XTS_STEP \op, \oplast, 4
        XTS_NEXT8 %ymm8, %ymm0, %ymm12, %ymm13, aes2_xts_const(%rip)
        XTS_NEXT8 %ymm9, %ymm1, %ymm12, %ymm13, aes2_xts_const(%rip)
        XTS_NEXT8 %ymm10, %ymm2, %ymm12, %ymm13, aes2_xts_const(%rip)
        XTS_NEXT8 %ymm11, %ymm3, %ymm12, %ymm13, aes2_xts_const(%rip)
        vmovdqa %ymm0, %ymm8
        vmovdqa %ymm1, %ymm9
        vmovdqa %ymm2, %ymm10
        vmovdqa %ymm3, %ymm11
4:
        test $4, %al
        jz 5f
        XTS_STEP \op, \oplast, 2
        vmovdqa %ymm10, %ymm8
        vmovdqa %ymm11, %ymm9
5:
        test $2, %al
        jz 6f
        XTS_STEP \op, \oplast, 1
        vmovdqa %ymm9, %ymm8
6:
        test $1, %al                    /* XTS tail: the odd whole block */
        jz 7f
        XTS_STEP \op, \oplast, 0
        add $16, %rcx
        add $16, %rdx
        vextracti128 $1, %ymm8, %xmm8
7:
        test %r11, %r11
        jz 8f
        /* Stealing (IEEE 1619-2018 5.3.2, 5.4.2) of the last whole block m-1 at rcx and the
         * r11 bytes after it: xmm8 = the tweak of the whole block first (encryption T_{m-1},
         * decryption T_m), xmm9 the other, for the block made of the partial one.  The whole block is done first
         * and written where block m-1 goes; the byte loop then swaps its head with the
         * partial input, so out[m] gets the head and out[m-1] holds the block to redo. */
        vmovdqa %xmm8, %xmm9
.if \dec
        XTS_NEXT 1, %xmm8, %xmm12, %xmm13, aes2_xts_const(%rip) /* XTS dec stealing: the later tweak first */
.else
        XTS_NEXT 1, %xmm9, %xmm12, %xmm13, aes2_xts_const(%rip) /* XTS enc stealing: the earlier tweak first */
.endif
        XTS_STEP \op, \oplast, 0
.Lxts_steal_\@:
        movzbl 15(%rcx,%r11), %eax      /* XTS stealing: partial input byte r11-1 */
        movzbl -1(%rdx,%r11), %r8d
        mov %r8b, 15(%rdx,%r11)
        mov %al, -1(%rdx,%r11)
        dec %r11
        jnz .Lxts_steal_\@
        mov %rdx, %rcx
        vmovdqa %xmm9, %xmm8
        XTS_STEP \op, \oplast, 0
        jmp 9f
8:
        vmovdqu %xmm8, (%r9)            /* XTS: the tweak of the next block */
9:
        LEAVE
        .size \name, . - \name
.endm

/* ---- The seven entry points of one form ---- */

.macro AES_VAES_AVX2_ENTRY_POINTS form
ECB aes_ecb_enc_\form, ECB_STEP_ENC
ECB aes_ecb_dec_\form, ECB_STEP_DEC
CBC_DEC aes_cbc_dec_\form
CTR aes_ctr_\form, 0
CTR aes_ctr32le_\form, 1
XTS aes_xts_enc_\form, vaesenc, vaesenclast, 0
XTS aes_xts_dec_\form, vaesdec, vaesdeclast, 1
.endm
