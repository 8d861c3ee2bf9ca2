/* aes-x86_64-vaes-avx512-common.h — what the two VAES + AVX-512 AES kernels share, as
 * assembler macros: the round keys in registers, the round sequence, the pass bodies of every
 * mode, the tail masks, the register clearing, the whole ECB, CBC decryption and CTR32LE entry
 * points, and the CTR and XTS skeletons into which each form plugs its counter or tweak step.
 * Included by aes-x86_64-vaes-avx512-clmul.S and aes-x86_64-vaes-avx512-shift.S, whose header
 * comments give the calling convention, the register map and what the forms compute
 * differently.  The constants below are emitted where this file is included, so each object
 * has its own copy under local labels; code only where a .S file instantiates the macros.
 *
 * Round keys (one 128-bit key broadcast to the four lanes of a zmm register, loaded once per
 * call): zmm16 holds the first, zmm31 the last, and the keys between end at zmm30, so that
 * rounds = 14 uses zmm18-30, 12 uses zmm20-30, 10 uses zmm22-30 (zmm17 is never a key).
 * Aligning the schedule at its end lets one straight run of instructions serve the three key
 * sizes, entered at one of three points (AES512_MIDDLE); the first and last keys sit in fixed
 * registers, because every mode folds something into the first addition and the last round.
 *
 * Where the cycles go (Zen 4, AMD EPYC family 25; tools/aes_op_bench.c for the units,
 * tools/aes_kernel_bench.c for the kernels, 16 KiB in place; docs/aes.md has the method and
 * the one-process bench against Linux and libgcrypt):
 *   The bound.  vaesenc zmm: latency 4, one a cycle (the 512-bit instruction takes both
 *   256-bit AES units), so 4 independent chains, exactly the four of a pass, with no slack:
 *   0.156 c/B for AES-128 and 0.219 for AES-256.  ECB runs at it (0.157, 0.222).
 *   What takes AES slots.  A vpclmulqdq zmm or a compare into an opmask (vpcmpuq) takes a
 *   whole one; a byte shuffle may, once the other units are full.  Beside the four chains
 *   the ALU takes about one zmm operation per vaesenc for free (4 ternary XORs per 4
 *   vaesenc cost nothing, 6 cost a third more), so a mode's work beside its rounds has a
 *   budget: AES-128 40 operations a pass, AES-256 56.
 *   XTS (AES-256: 0.230 clmul, 0.223 shift).  The shift form's step is ALU work inside the
 *   budget; the clmul form's two vpclmulqdq a pass (XTS_NEXT16_PAIR: two vectors' reductions
 *   share one) cost two slots of 56.  Without any tweak step (ablation) both run at 0.227.
 *   CTR (AES-128: clmul 0.160, shift 0.190; CTR32LE 0.161).  In 16-block passes (4 chains,
 *   no slack) the counter's adds and the round-key-0 XOR at the chains' heads cost AES slots
 *   (CTR32LE 0.164, the clmul CTR 0.163): the clmul form's CTR and CTR32LE run 32 blocks a
 *   pass in 8 chains (AES512_CTR wide).  The shift form's five 128-bit additions a pass
 *   (vpcmpuq into k5 each) are 0.023 of it (ablation without the carries: 0.167); doing the
 *   carry with ALU ops instead (vpsubq, vpternlogq, shifts) ran no faster (0.191): it
 *   overdraws the ALU budget; 32-block passes made it slower (0.220).  The clmul form's byte
 *   path needs one vpshufb a pass where the 32-bit path takes four.
 *
 * Instruction lines use spaces, not tabs.  verify/mutants/aes.mutants plants its bugs in the .S
 * files (the build swaps a kernel's .S, not this header): a bug of shared code there redefines
 * the one small macro here that holds it (AES512_ADD128, AES512_CBC_CARRY, AES512_XTS_STEAL,
 * AES512_CLEAR), so those keep their names and parameters.
 */

/* ---- Constants ---- */

        .section .rodata
        .p2align 6
/* Lane offsets of the counter blocks of one pass: the 16-byte lane b of vector j adds 4j + b
 * to the counter's low 32 (CTR32LE: vpaddd) or 64 bits (CTR, after its byte reversal: vpaddq),
 * the rest of the lane adding 0. */
        .type aes512_ctr_offsets, @object
aes512_ctr_offsets:
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        .quad \i, 0
        .endr
        .size aes512_ctr_offsets, . - aes512_ctr_offsets
/* The same offsets added to the big-endian block as it is: 4j + b to its byte 15, the top
 * byte of dword 3 (vpaddd), for the clmul form's byte fast path. */
        .type aes512_ctr_be_offsets, @object
aes512_ctr_be_offsets:
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        .long 0, 0, 0, \i << 24
        .endr
        .size aes512_ctr_be_offsets, . - aes512_ctr_be_offsets
/* XTS: the power of x by which each lane's tweak is multiplied at the start of a call, as the
 * shift count of both of its qwords: lane b of vector j holds T * x^(4j + b). */
        .type aes512_xts_powers, @object
aes512_xts_powers:
        .irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        .quad \i, \i
        .endr
        .size aes512_xts_powers, . - aes512_xts_powers
/* Reverses the 16 bytes of each lane: a big-endian 128-bit counter to a little-endian integer
 * (low qword first) that vpaddq can count, and back. */
        .type aes512_bswap128, @object
aes512_bswap128:
        .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
        .size aes512_bswap128, . - aes512_bswap128
/* One pass's advance of the counter (16 blocks), in the lane's low element. */
        .type aes512_inc16, @object
aes512_inc16:
        .quad 16, 0
        .size aes512_inc16, . - aes512_inc16
/* x^128 = x^7 + x^2 + x + 1 in GF(2^128) (IEEE 1619's reduction), for vpclmulqdq. */
        .type aes512_gf128_poly, @object
aes512_gf128_poly:
        .quad 0x87, 0
        .size aes512_gf128_poly, . - aes512_gf128_poly
/* The carry into a high qword (embedded broadcast). */
        .type aes512_one, @object
aes512_one:
        .quad 1
        .size aes512_one, . - aes512_one

.text

/* ---- Round keys and rounds ---- */

/* AES512_LOAD_KEYS:  broadcast the round keys of the schedule at rdi (rounds = esi) into
 * zmm16 and zmm(31 - rounds + 1) .. zmm31.  Reads exactly (rounds + 1) * 16 bytes.
 * Clobbers rax and flags. */
.macro AES512_LOAD_KEYS
        mov %esi, %eax
        shl $4, %eax
        add %rdi, %rax                  /* the last round key */
        vbroadcasti32x4 (%rdi), %zmm16
        vbroadcasti32x4 -144(%rax), %zmm22
        vbroadcasti32x4 -128(%rax), %zmm23
        vbroadcasti32x4 -112(%rax), %zmm24
        vbroadcasti32x4 -96(%rax), %zmm25
        vbroadcasti32x4 -80(%rax), %zmm26
        vbroadcasti32x4 -64(%rax), %zmm27
        vbroadcasti32x4 -48(%rax), %zmm28
        vbroadcasti32x4 -32(%rax), %zmm29
        vbroadcasti32x4 -16(%rax), %zmm30
        vbroadcasti32x4 (%rax), %zmm31
        cmp $12, %esi
        jb .Laes512_keys_done\@
        vbroadcasti32x4 -176(%rax), %zmm20
        vbroadcasti32x4 -160(%rax), %zmm21
        je .Laes512_keys_done\@
        vbroadcasti32x4 -208(%rax), %zmm18
        vbroadcasti32x4 -192(%rax), %zmm19
.Laes512_keys_done\@:
.endm

/* AES512_ROUND op, V, key, regs:  one round (op = vaesenc or vaesdec) with key register
 * number key on each of the data registers V<r>. */
.macro AES512_ROUND op, V, key, regs:vararg
        .irp r, \regs
        \op %\V\key, %\V\r, %\V\r
        .endr
.endm

/* AES512_MIDDLE op, V, regs:  rounds 1 .. rounds-1 (every round but the first key addition
 * and the last round, which each mode does itself) on V<r> for each r in regs, round by round
 * across the registers so that their chains run side by side.  Enters the run of keys where
 * the key size starts it (rounds in esi).  Clobbers flags. */
.macro AES512_MIDDLE op, V, regs:vararg
        cmp $12, %esi
        jb .Laes512_r10\@
        je .Laes512_r12\@
        AES512_ROUND \op, \V, 18, \regs
        AES512_ROUND \op, \V, 19, \regs
.Laes512_r12\@:
        AES512_ROUND \op, \V, 20, \regs
        AES512_ROUND \op, \V, 21, \regs
.Laes512_r10\@:
        AES512_ROUND \op, \V, 22, \regs
        AES512_ROUND \op, \V, 23, \regs
        AES512_ROUND \op, \V, 24, \regs
        AES512_ROUND \op, \V, 25, \regs
        AES512_ROUND \op, \V, 26, \regs
        AES512_ROUND \op, \V, 27, \regs
        AES512_ROUND \op, \V, 28, \regs
        AES512_ROUND \op, \V, 29, \regs
        AES512_ROUND \op, \V, 30, \regs
.endm

/* ---- Loads and stores of a pass: whole, or masked in the tail ---- */

/* With tail = 1 the masked form (opmask k<k>, zeroing for loads), so that a masked-off block
 * is neither read nor written (AVX-512 fault suppression); with tail = 0 the plain form, which
 * costs nothing to set up in the main loop. */
.macro AES512_LD mem, dst, k, tail
.if \tail
        vmovdqu64 \mem, \dst{%k\k}{z}
.else
        vmovdqu64 \mem, \dst
.endif
.endm

/* insn mem, src, dst with a memory operand: a load folded into its first use. */
.macro AES512_LDOP insn, mem, src, dst, k, tail
.if \tail
        \insn \mem, \src, \dst{%k\k}{z}
.else
        \insn \mem, \src, \dst
.endif
.endm

.macro AES512_ST src, mem, k, tail
.if \tail
        vmovdqu64 \src, \mem{%k\k}
.else
        vmovdqu64 \src, \mem
.endif
.endm

/* AES512_TAIL_MASKS:  r8 = t, 1 <= t <= 15 blocks left; k1 .. k4 = the qword masks of the
 * tail's four vectors (the low 2t bits of one 32-bit mask, 8 bits per vector).  The shift
 * needs cl, so rcx (in) is parked in r11.  Clobbers rax, r11, flags. */
.macro AES512_TAIL_MASKS
        mov %rcx, %r11
        lea (%r8,%r8), %ecx             /* tail: 2 qwords per block */
        mov $1, %eax
        shl %cl, %rax
        dec %rax
        mov %r11, %rcx
        kmovq %rax, %k1
        kshiftrq $8, %k1, %k2
        kshiftrq $16, %k1, %k3
        kshiftrq $24, %k1, %k4
.endm

/* AES512_BYTE_MASK:  k6 = the byte mask of the low edi bytes, 1 <= edi <= 15 (the partial
 * block of XTS).  Clobbers rax, r11, flags. */
.macro AES512_BYTE_MASK
        mov %rcx, %r11
        mov %edi, %ecx
        mov $1, %eax
        shl %cl, %eax
        dec %eax
        mov %r11, %rcx
        kmovq %rax, %k6
.endm

/* ---- Leaving ---- */

/* AES512_CLEAR:  zero every vector and opmask register any of these kernels writes (a VEX or
 * EVEX write to xmmN zeroes the rest of zmmN), then vzeroupper. */
.macro AES512_CLEAR
        .irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        vpxor %xmm\r, %xmm\r, %xmm\r
        .endr
        .irp r, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
        vpxord %xmm\r, %xmm\r, %xmm\r
        .endr
        .irp k, 1, 2, 3, 4, 5, 6
        kxorq %k\k, %k\k, %k\k
        .endr
        vzeroupper
.endm

/* AES512_FUNC name:  the symbol's prologue. */
.macro AES512_FUNC name
        .globl \name
        .type \name, @function
        .p2align 5
\name:
        endbr64
.endm

/* ---- ECB ---- */

/* AES512_ECB_PASS op, oplast, tail:  16 blocks (tail: the masked ones) from rcx to rdx. */
.macro AES512_ECB_PASS op, oplast, tail
        AES512_LDOP vpxorq, 0(%rcx), %zmm16, %zmm0, 1, \tail
        AES512_LDOP vpxorq, 64(%rcx), %zmm16, %zmm1, 2, \tail
        AES512_LDOP vpxorq, 128(%rcx), %zmm16, %zmm2, 3, \tail
        AES512_LDOP vpxorq, 192(%rcx), %zmm16, %zmm3, 4, \tail
        AES512_MIDDLE \op, zmm, 0, 1, 2, 3
        \oplast %zmm31, %zmm0, %zmm0
        \oplast %zmm31, %zmm1, %zmm1
        \oplast %zmm31, %zmm2, %zmm2
        \oplast %zmm31, %zmm3, %zmm3
        AES512_ST %zmm0, 0(%rdx), 1, \tail
        AES512_ST %zmm1, 64(%rdx), 2, \tail
        AES512_ST %zmm2, 128(%rdx), 3, \tail
        AES512_ST %zmm3, 192(%rdx), 4, \tail
.endm

/* AES512_ECB name, op, oplast:  name(ks, rounds, out, in, nblocks). */
.macro AES512_ECB name, op, oplast
        AES512_FUNC \name
        test %r8, %r8
        jz .L\name\()_ret               /* nothing to do, no register touched */
        AES512_LOAD_KEYS
        sub $16, %r8
        jb .L\name\()_tail
.L\name\()_loop:
        AES512_ECB_PASS \op, \oplast, 0
        add $256, %rcx
        add $256, %rdx
        sub $16, %r8
        jae .L\name\()_loop
.L\name\()_tail:
        add $16, %r8
        jz .L\name\()_done
        AES512_TAIL_MASKS
        AES512_ECB_PASS \op, \oplast, 1
.L\name\()_done:
        AES512_CLEAR
.L\name\()_ret:
        ret
        .size \name, . - \name
.endm

/* ---- CBC decryption ---- */

/* AES512_CBC_PASS tail:  16 blocks.  zmm4-7 keep the ciphertext as loaded, so in place works
 * without reading anything twice; zmm8's top lane is the ciphertext block before the pass (the
 * iv at first).  Each vector's previous blocks are its own shifted up one lane, the lowest
 * lane filled from the top lane of the vector before (valignq), and are folded into the last
 * round's key: D(c) ^ p = vaesdeclast(state, k_last ^ p). */
.macro AES512_CBC_PASS tail
        AES512_LD 0(%rcx), %zmm4, 1, \tail
        AES512_LD 64(%rcx), %zmm5, 2, \tail
        AES512_LD 128(%rcx), %zmm6, 3, \tail
        AES512_LD 192(%rcx), %zmm7, 4, \tail
        vpxorq %zmm16, %zmm4, %zmm0
        vpxorq %zmm16, %zmm5, %zmm1
        vpxorq %zmm16, %zmm6, %zmm2
        vpxorq %zmm16, %zmm7, %zmm3
        valignq $6, %zmm8, %zmm4, %zmm9 /* CBC: blocks -1..2 (the previous pass's last) */
        valignq $6, %zmm4, %zmm5, %zmm10
        valignq $6, %zmm5, %zmm6, %zmm11
        valignq $6, %zmm6, %zmm7, %zmm12
        vpxorq %zmm31, %zmm9, %zmm9
        vpxorq %zmm31, %zmm10, %zmm10
        vpxorq %zmm31, %zmm11, %zmm11
        vpxorq %zmm31, %zmm12, %zmm12
        AES512_MIDDLE vaesdec, zmm, 0, 1, 2, 3
        vaesdeclast %zmm9, %zmm0, %zmm0
        vaesdeclast %zmm10, %zmm1, %zmm1
        vaesdeclast %zmm11, %zmm2, %zmm2
        vaesdeclast %zmm12, %zmm3, %zmm3
        AES512_ST %zmm0, 0(%rdx), 1, \tail
        AES512_ST %zmm1, 64(%rdx), 2, \tail
        AES512_ST %zmm2, 128(%rdx), 3, \tail
        AES512_ST %zmm3, 192(%rdx), 4, \tail
.endm

/* AES512_CBC_CARRY:  after a pass, the block before the next one: the pass's last ciphertext
 * block, taken from the register it was loaded into, since in place its memory now holds
 * plaintext. */
.macro AES512_CBC_CARRY
        vmovdqa64 %zmm7, %zmm8
.endm

/* AES512_CBC_DEC name:  name(ks, rounds, out, in, nblocks, iv), a decryption schedule. */
.macro AES512_CBC_DEC name
        AES512_FUNC \name
        test %r8, %r8
        jz .L\name\()_ret               /* iv unchanged, no register touched */
        AES512_LOAD_KEYS
        mov %r8, %rax
        shl $4, %rax
        vmovdqu -16(%rcx,%rax), %xmm15  /* the iv to return, read before any store */
        vbroadcasti32x4 (%r9), %zmm8
        sub $16, %r8
        jb .L\name\()_tail
.L\name\()_loop:
        AES512_CBC_PASS 0
        AES512_CBC_CARRY
        add $256, %rcx
        add $256, %rdx
        sub $16, %r8
        jae .L\name\()_loop
.L\name\()_tail:
        add $16, %r8
        jz .L\name\()_done
        AES512_TAIL_MASKS
        AES512_CBC_PASS 1
.L\name\()_done:
        vmovdqu %xmm15, (%r9)
        AES512_CLEAR
.L\name\()_ret:
        ret
        .size \name, . - \name
.endm

/* ---- Counter modes ---- */

/* The counter state of CTR and CTR32LE: zmm8 = the pass's first counter block in all four
 * lanes (CTR: byte-reversed, so that each lane is a little-endian 128-bit integer, low qword
 * first; CTR32LE: as in memory, its low 32 bits already the lane's first dword), zmm13 =
 * aes512_inc16 in every lane.  A counter step leaves the pass's 16 counter blocks in
 * zmm0-3 and advances zmm8 by 16. */

/* AES512_CTR_ADD32:  the counter blocks by 32-bit additions: right for CTR32LE always (its
 * counter wraps modulo 2^32 by definition), and for CTR while the low 32 bits cannot carry
 * in the pass. */
.macro AES512_CTR_ADD32
        vpaddd aes512_ctr_offsets+0(%rip), %zmm8, %zmm0
        vpaddd aes512_ctr_offsets+64(%rip), %zmm8, %zmm1
        vpaddd aes512_ctr_offsets+128(%rip), %zmm8, %zmm2
        vpaddd aes512_ctr_offsets+192(%rip), %zmm8, %zmm3
        vpaddd %zmm13, %zmm8, %zmm8     /* CTR32LE: wraps modulo 2^32 */
.endm

/* AES512_ADD128 dst, src, addend:  dst = src + addend in each 128-bit lane, addend's high
 * qwords 0.  A low qword wrapped iff its sum is below its addend (vpcmpuq, predicate 1 = less
 * than); the mask bit moves up one place, from the lane's low qword to its high one, and a
 * masked add carries 1 there.  A high qword is never below 0, so no bit crosses a lane.
 * Clobbers k5. */
.macro AES512_ADD128 dst, src, addend
        vpaddq \addend, \src, \dst
        vpcmpuq $1, \addend, \dst, %k5
        kshiftlw $1, %k5, %k5
        vpaddq aes512_one(%rip){1to8}, \dst, \dst{%k5}    /* CTR: carry into the high qword */
.endm

/* AES512_CTR_ADD128:  the counter blocks by full 128-bit additions, for any counter. */
.macro AES512_CTR_ADD128
        AES512_ADD128 %zmm0, %zmm8, aes512_ctr_offsets+0(%rip)
        AES512_ADD128 %zmm1, %zmm8, aes512_ctr_offsets+64(%rip)
        AES512_ADD128 %zmm2, %zmm8, aes512_ctr_offsets+128(%rip)
        AES512_ADD128 %zmm3, %zmm8, aes512_ctr_offsets+192(%rip)
        AES512_ADD128 %zmm8, %zmm8, %zmm13
.endm

/* AES512_CTR_BSWAP:  the counter blocks in zmm0-3 back to big-endian (zmm14 =
 * aes512_bswap128). */
.macro AES512_CTR_BSWAP
        vpshufb %zmm14, %zmm0, %zmm0
        vpshufb %zmm14, %zmm1, %zmm1
        vpshufb %zmm14, %zmm2, %zmm2
        vpshufb %zmm14, %zmm3, %zmm3
.endm

/* AES512_CTR_PASS be, tail:  encrypt the counter blocks in zmm0-3 (be: reverse their bytes
 * back to big-endian first, zmm14 = aes512_bswap128; be = 2: the step left them big-endian)
 * and XOR in 16 blocks of input.  The input is folded into the last round's key:
 * E(c) ^ in = vaesenclast(state, k_last ^ in). */
.macro AES512_CTR_PASS be, tail
.if \be == 1
        vpshufb %zmm14, %zmm0, %zmm0
        vpshufb %zmm14, %zmm1, %zmm1
        vpshufb %zmm14, %zmm2, %zmm2
        vpshufb %zmm14, %zmm3, %zmm3
.endif
        vpxorq %zmm16, %zmm0, %zmm0
        vpxorq %zmm16, %zmm1, %zmm1
        vpxorq %zmm16, %zmm2, %zmm2
        vpxorq %zmm16, %zmm3, %zmm3
        AES512_LDOP vpxorq, 0(%rcx), %zmm31, %zmm9, 1, \tail
        AES512_LDOP vpxorq, 64(%rcx), %zmm31, %zmm10, 2, \tail
        AES512_LDOP vpxorq, 128(%rcx), %zmm31, %zmm11, 3, \tail
        AES512_LDOP vpxorq, 192(%rcx), %zmm31, %zmm12, 4, \tail
        AES512_MIDDLE vaesenc, zmm, 0, 1, 2, 3
        vaesenclast %zmm9, %zmm0, %zmm0
        vaesenclast %zmm10, %zmm1, %zmm1
        vaesenclast %zmm11, %zmm2, %zmm2
        vaesenclast %zmm12, %zmm3, %zmm3
        AES512_ST %zmm0, 0(%rdx), 1, \tail
        AES512_ST %zmm1, 64(%rdx), 2, \tail
        AES512_ST %zmm2, 128(%rdx), 3, \tail
        AES512_ST %zmm3, 192(%rdx), 4, \tail
.endm

/* AES512_CTR_LAST r, off, t:  the last round of zmm<r> with k_last ^ the input at off
 * (E(c) ^ in = vaesenclast(state, k_last ^ in)), made in zmm<t>, and the store. */
.macro AES512_CTR_LAST r, off, t
        vpxorq \off(%rcx), %zmm31, %zmm\t
        vaesenclast %zmm\t, %zmm\r, %zmm\r
        vmovdqu64 %zmm\r, \off(%rdx)
.endm

/* AES512_CTR_PASS32 be:  32 blocks in 8 zmm chains, twice the 4 that vaesenc's latency
 * needs at one a cycle, so that the work at the chains' heads (the counter's adds, round key
 * 0) of one half runs while the other half's rounds keep the AES units busy: the counter
 * blocks of blocks 0-15 in zmm4-7, of blocks 16-31 in zmm0-3 (be as AES512_CTR_PASS; the
 * input folded into the last round's key in zmm9-12 in turn). */
.macro AES512_CTR_PASS32 be
.if \be == 1
        .irp r, 4, 5, 6, 7, 0, 1, 2, 3
        vpshufb %zmm14, %zmm\r, %zmm\r
        .endr
.endif
        .irp r, 4, 5, 6, 7, 0, 1, 2, 3
        vpxorq %zmm16, %zmm\r, %zmm\r
        .endr
        AES512_MIDDLE vaesenc, zmm, 4, 5, 6, 7, 0, 1, 2, 3
        AES512_CTR_LAST 4, 0, 9
        AES512_CTR_LAST 5, 64, 10
        AES512_CTR_LAST 6, 128, 11
        AES512_CTR_LAST 7, 192, 12
        AES512_CTR_LAST 0, 256, 9
        AES512_CTR_LAST 1, 320, 10
        AES512_CTR_LAST 2, 384, 11
        AES512_CTR_LAST 3, 448, 12
.endm

/* AES512_CTR name, step, be, wide:  name(ks, rounds, out, in, nblocks, ctr).  step is the macro
 * that makes a pass's counter blocks (above, or a form's); be = 1 for the 128-bit big-endian
 * counter of CTR, 0 for CTR32LE; be = 2 for CTR whose step leaves the blocks big-endian.  CTR
 * keeps the low 32 bits of the pass's first counter in r10d for a step that needs to know
 * whether they can carry.  wide = 1: passes of 32 blocks while 32 are left (the step twice,
 * the first's blocks moved to zmm4-7), then at most one of 16.  Not for a step whose counter
 * advance is long (the shift form's 128-bit one: its second step's chains then start late,
 * 0.190 -> 0.220 c/B for AES-128 CTR); CTR32LE and the clmul form's CTR gain (0.164 -> 0.161,
 * 0.163 -> 0.159 in tools/aes_kernel_bench.c). */
.macro AES512_CTR name, step, be, wide=0
        AES512_FUNC \name
        test %r8, %r8
        jz .L\name\()_ret               /* ctr unchanged, no register touched */
        AES512_LOAD_KEYS
        mov %r8, %rdi                   /* nblocks, for the counter returned */
        vbroadcasti32x4 aes512_inc16(%rip), %zmm13
        vbroadcasti32x4 (%r9), %zmm8
.if \be
        vbroadcasti32x4 aes512_bswap128(%rip), %zmm14
        vpshufb %zmm14, %zmm8, %zmm8
        mov 12(%r9), %r10d
        bswap %r10d
.endif
.if \wide
        /* the loop's test at its top, so that one call of 32 to 63 blocks takes it both ways */
.L\name\()_loop32:
        cmp $32, %r8
        jb .L\name\()_one16
        \step
        vmovdqa64 %zmm0, %zmm4
        vmovdqa64 %zmm1, %zmm5
        vmovdqa64 %zmm2, %zmm6
        vmovdqa64 %zmm3, %zmm7
        \step
        AES512_CTR_PASS32 \be
        add $512, %rcx
        add $512, %rdx
        sub $32, %r8
        jmp .L\name\()_loop32
.L\name\()_one16:
        sub $16, %r8
        jb .L\name\()_tail
        \step
        AES512_CTR_PASS \be, 0
        add $256, %rcx
        add $256, %rdx
        sub $16, %r8
.else
        sub $16, %r8
        jb .L\name\()_tail
.L\name\()_loop:
        \step
        AES512_CTR_PASS \be, 0
        add $256, %rcx
        add $256, %rdx
        sub $16, %r8
        jae .L\name\()_loop
.endif
.L\name\()_tail:
        add $16, %r8
        jz .L\name\()_done
        AES512_TAIL_MASKS
        \step
        AES512_CTR_PASS \be, 1
.L\name\()_done:
.if \be
        mov 8(%r9), %rax                /* ctr + nblocks, carried across all 16 bytes */
        bswap %rax
        mov (%r9), %r10
        bswap %r10
        add %rdi, %rax
        adc $0, %r10
        bswap %rax
        bswap %r10
        mov %r10, (%r9)
        mov %rax, 8(%r9)
.else
        add %edi, (%r9)                 /* CTR32LE: first four bytes + nblocks mod 2^32 */
.endif
        AES512_CLEAR
.L\name\()_ret:
        ret
        .size \name, . - \name
.endm

/* ---- XTS ---- */

/* The tweak state: zmm4-7 = the tweaks of the pass's 16 blocks, T*x^i for block i in lane
 * i mod 4 of zmm(4 + i/4), each lane a 128-bit little-endian element of GF(2^128) (bit k of the
 * 128-bit integer = coefficient of x^k: IEEE 1619's byte order, as the tweak is in memory).
 * A form supplies two macros:
 *   mulx  dst, src, lcnt, rcnt, t1, t2:  dst = src * x^k per lane, 0 <= k <= 16, with lcnt
 *         = k and rcnt = 64 - k in both qwords of the lane; t1, t2 temporaries.  For the
 *         start of a call and the tweaks after the last pass.
 *   next  w0, w1, w2, w3, t1, t2, t3:  w0 .. w3 = themselves * x^16 in every lane (the next
 *         pass's tweaks); t1-t3 temporaries. */

/* AES512_XTS_PASS op, oplast, next, tail:  16 blocks (tail: the masked ones).  Each tweak is
 * folded into the first key addition (one three-way XOR) and into the last round's key, and
 * the next pass's tweaks are made while the rounds run (not in the tail, which is the last). */
.macro AES512_XTS_PASS op, oplast, next, tail
        AES512_LD 0(%rcx), %zmm0, 1, \tail
        AES512_LD 64(%rcx), %zmm1, 2, \tail
        AES512_LD 128(%rcx), %zmm2, 3, \tail
        AES512_LD 192(%rcx), %zmm3, 4, \tail
        vpternlogq $0x96, %zmm16, %zmm4, %zmm0
        vpternlogq $0x96, %zmm16, %zmm5, %zmm1
        vpternlogq $0x96, %zmm16, %zmm6, %zmm2
        vpternlogq $0x96, %zmm16, %zmm7, %zmm3
        vpxorq %zmm31, %zmm4, %zmm9
        vpxorq %zmm31, %zmm5, %zmm10
        vpxorq %zmm31, %zmm6, %zmm11
        vpxorq %zmm31, %zmm7, %zmm12
.if !\tail
        \next %zmm4, %zmm5, %zmm6, %zmm7, %zmm13, %zmm14, %zmm15
.endif
        AES512_MIDDLE \op, zmm, 0, 1, 2, 3
        \oplast %zmm9, %zmm0, %zmm0
        \oplast %zmm10, %zmm1, %zmm1
        \oplast %zmm11, %zmm2, %zmm2
        \oplast %zmm12, %zmm3, %zmm3
        AES512_ST %zmm0, 0(%rdx), 1, \tail
        AES512_ST %zmm1, 64(%rdx), 2, \tail
        AES512_ST %zmm2, 128(%rdx), 3, \tail
        AES512_ST %zmm3, 192(%rdx), 4, \tail
.endm

/* AES512_XTS_BLOCK op, oplast, r, tw:  one block in xmm<r> with the tweak in xmm<tw>. */
.macro AES512_XTS_BLOCK op, oplast, r, tw
        vpternlogq $0x96, %xmm16, %xmm\tw, %xmm\r
        vpxorq %xmm31, %xmm\tw, %xmm9
        AES512_MIDDLE \op, xmm, \r
        \oplast %xmm9, %xmm\r, %xmm\r
.endm

/* AES512_XTS_STEAL op, oplast, first, second:  ciphertext stealing (IEEE 1619-2018 5.3.2,
 * 5.4.2): rcx/rdx point at the last full block, followed by edi (1..15) bytes, k6 their byte
 * mask.  The full block is processed with the tweak in xmm<first>; the partial block's bytes
 * replace the head of the result, whose head becomes the partial output, and that merged block
 * is processed with xmm<second> into the full block's place.  Encryption takes the earlier
 * tweak first, decryption the later.  The partial input is read (masked, exactly edi bytes)
 * before the partial output is written, so in place works. */
.macro AES512_XTS_STEAL op, oplast, first, second
        vmovdqu (%rcx), %xmm0
        AES512_XTS_BLOCK \op, \oplast, 0, \first
        vmovdqa64 %xmm0, %xmm1
        vmovdqu8 16(%rcx), %xmm1{%k6}   /* XTS stealing: the partial block's bytes, exactly */
        vmovdqu8 %xmm0, 16(%rdx){%k6}
        AES512_XTS_BLOCK \op, \oplast, 1, \second
        vmovdqu %xmm1, (%rdx)
.endm

/* AES512_XTS name, op, oplast, mulx, next, dec:  name(ks, rounds, out, in, len, tweak).
 * rdi = len mod 16 once the keys are loaded; r8 = the blocks left outside the stealing.
 * zmm8 = aes512_gf128_poly, zmm17 = 64 in every qword, k5 = 0x55 (the low qword of each
 * lane) for a form's mulx. */
.macro AES512_XTS name, op, oplast, mulx, next, dec
        AES512_FUNC \name
        cmp $16, %r8
        jb .L\name\()_ret               /* len 0: nothing, no register touched */
        AES512_LOAD_KEYS
        mov %r8d, %edi
        and $15, %edi                   /* the partial block's length, or 0 */
        shr $4, %r8                     /* full blocks */
        cmp $1, %edi
        adc $-1, %r8                    /* less the last full one when there is stealing */
        vbroadcasti32x4 aes512_gf128_poly(%rip), %zmm8
        mov $64, %eax
        vpbroadcastq %rax, %zmm17
        mov $0x55, %eax
        kmovq %rax, %k5
        vbroadcasti32x4 (%r9), %zmm15   /* T in every lane */
        vmovdqu64 aes512_xts_powers+0(%rip), %zmm13
        vpsubq %zmm13, %zmm17, %zmm14
        \mulx %zmm4, %zmm15, %zmm13, %zmm14, %zmm9, %zmm10
        vmovdqu64 aes512_xts_powers+64(%rip), %zmm13
        vpsubq %zmm13, %zmm17, %zmm14
        \mulx %zmm5, %zmm15, %zmm13, %zmm14, %zmm9, %zmm10
        vmovdqu64 aes512_xts_powers+128(%rip), %zmm13
        vpsubq %zmm13, %zmm17, %zmm14
        \mulx %zmm6, %zmm15, %zmm13, %zmm14, %zmm9, %zmm10
        vmovdqu64 aes512_xts_powers+192(%rip), %zmm13
        vpsubq %zmm13, %zmm17, %zmm14
        \mulx %zmm7, %zmm15, %zmm13, %zmm14, %zmm9, %zmm10
        sub $16, %r8
        jb .L\name\()_tail
.L\name\()_loop:
        AES512_XTS_PASS \op, \oplast, \next, 0
        add $256, %rcx
        add $256, %rdx
        sub $16, %r8
        jae .L\name\()_loop
.L\name\()_tail:
        add $16, %r8
        jz .L\name\()_last
        AES512_TAIL_MASKS
        AES512_XTS_PASS \op, \oplast, \next, 1
        mov %r8, %rax
        shl $4, %rax
        add %rax, %rcx
        add %rax, %rdx
.L\name\()_last:
        /* zmm4's lane 0 is the tweak of the first block not yet done (t = r8 blocks ago
         * if there was a tail); lanes 0 and 1 of zmm11 become T*x^t and T*x^(t+1) of it:
         * the tweak to return, and the two tweaks of the stealing. */
        vpbroadcastq %r8, %zmm13
        vpaddq aes512_xts_powers(%rip), %zmm13, %zmm13
        vpsubq %zmm13, %zmm17, %zmm14
        vshufi64x2 $0, %zmm4, %zmm4, %zmm15
        \mulx %zmm11, %zmm15, %zmm13, %zmm14, %zmm9, %zmm10
        vextracti32x4 $1, %zmm11, %xmm12
        test %edi, %edi
        jnz .L\name\()_steal
        vmovdqu %xmm11, (%r9)
        jmp .L\name\()_done
.L\name\()_steal:
        vmovdqu %xmm12, (%r9)           /* T*x^(len/16), as without stealing */
        AES512_BYTE_MASK
.if \dec
        AES512_XTS_STEAL \op, \oplast, 12, 11   /* XTS decryption: later tweak first */
.else
        AES512_XTS_STEAL \op, \oplast, 11, 12
.endif
.L\name\()_done:
        AES512_CLEAR
.L\name\()_ret:
        ret
        .size \name, . - \name
.endm

/* AES512_COMMON_ENTRIES form:  the entry points that are the same in both forms. */
.macro AES512_COMMON_ENTRIES form
        AES512_ECB aes_ecb_enc_vaes_avx512_\form, vaesenc, vaesenclast
        AES512_ECB aes_ecb_dec_vaes_avx512_\form, vaesdec, vaesdeclast
        AES512_CBC_DEC aes_cbc_dec_vaes_avx512_\form
        AES512_CTR aes_ctr32le_vaes_avx512_\form, AES512_CTR_ADD32, 0, 1
.endm
