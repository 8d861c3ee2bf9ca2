/* polyval-x86_64-common.h — what the three x86-64 POLYVAL kernels share, as assembler macros:
 * the reduction constant, the schoolbook product and the Montgomery-style reduction (EVEX
 * forms for the two AVX-512 kernels, VEX forms for the PCLMULQDQ + AVX one), the final store
 * and the clearing of the vector registers.  Included by polyval-x86_64-vpclmul-avx512-perblock.S,
 * polyval-x86_64-vpclmul-avx512-aggregated.S and polyval-x86_64-pclmul.S, whose heads give the
 * calling convention and the register maps.  The constant is emitted where this file is
 * included, so each object has its own copy under a local label.
 *
 * The arithmetic, written from RFC 8452 section 3 and the carry-less multiplication white paper
 * (Gueron, Kounavis: "Intel Carry-Less Multiplication Instruction and its Usage for Computing
 * the GCM Mode", rev. 2.02): a POLYVAL field element is a 16-byte string whose bit i (bit i % 8
 * of byte i / 8) is the coefficient of x^i, so a plain little-endian 128-bit load puts it in a
 * vector lane as pclmulqdq expects it: no byte or bit reflection anywhere.
 *
 * dot(a, b) = a * b * x^-128 mod P,  P = x^128 + x^127 + x^126 + x^121 + 1.
 *
 * The 256-bit product T = T3:T2:T1:T0 (64-bit words, T0 lowest) is divided by x^128 in two
 * Montgomery steps of 64 bits.  P's low word is 1, so adding T0 * P clears word 0:
 *     T0 * P = T0 + T0 * (x^63 + x^62 + x^57) * x^64 + T0 * x^128
 * and (x^63 + x^62 + x^57) is the 64-bit constant 0xc200000000000000 (POLYVAL_C below).  With
 * M = clmul(T0, C) = M1:M0, T + T0 * P = T3 : T2^T0^M1 : T1^M0 : 0, which shifted down one word
 * is T * x^-64 = U2:U1:U0 = T3 : T2^T0^M1 : T1^M0.  The same step on U0 gives, with
 * M' = clmul(U0, C):
 *     T * x^-128 = T3^U0^M'1 : T2^T0^M1^M'0    (degree < 128: the reduced result)
 * In registers, lo = T1:T0 and hi = T3:T2 (qword 1 : qword 0 of a lane):
 *     M  = clmul(lo.q0, C)                     first fold
 *     W  = lo ^ swap64(M)  = T1^M0 : T0^M1     (W.q1 = U0)
 *     M' = clmul(W.q1, C)                      second fold
 *     result = hi ^ W ^ M'
 * Two carry-less multiplications, one shuffle, three XORs; the same per 128-bit lane at any
 * vector width, and linear, so a sum of unreduced products needs one reduction only.
 *
 * Instruction lines use spaces, not tabs.  verify/mutants/polyval.mutants plants bugs in this
 * header (the build then makes a mutant of each kernel that includes it) and in the .S files;
 * trailing comments keep the lines it finds unique.
 */

/* ---- The constant ---- */

        .section .rodata
        .p2align 4
/* POLYVAL_C in qword 0 of a lane (the reductions select qword 0 of this operand), 0 in qword 1;
 * the AVX-512 kernels broadcast it to every lane. */
        .type polyval_x86_reduce_c, @object
polyval_x86_reduce_c:
        .quad 0xc200000000000000, 0
        .size polyval_x86_reduce_c, . - polyval_x86_reduce_c

        .text

/* ---- EVEX (AVX-512F + VL, VPCLMULQDQ): any of xmm, ymm, zmm, per 128-bit lane ---- */

/* PV_MUL_EVEX a, b, lo, hi, t1, t2:  hi:lo = a * b, the 256-bit carry-less product per lane,
 * schoolbook (four products).  hi may be a (it is written last); lo, t1, t2 must differ from
 * a and b.  b is unchanged. */
.macro PV_MUL_EVEX a, b, lo, hi, t1, t2
        vpclmulqdq $0x00, \b, \a, \lo          /* a.lo * b.lo */
        vpclmulqdq $0x01, \b, \a, \t1          /* a.hi * b.lo */
        vpclmulqdq $0x10, \b, \a, \t2          /* a.lo * b.hi */
        vpclmulqdq $0x11, \b, \a, \hi          /* a.hi * b.hi */
        vpxorq \t2, \t1, \t1                   /* middle 128 bits */
        vpslldq $8, \t1, \t2
        vpsrldq $8, \t1, \t1
        vpxorq \t2, \lo, \lo
        vpxorq \t1, \hi, \hi
.endm

/* PV_REDUCE_EVEX lo, hi, c, t:  hi = (hi:lo) * x^-128 mod P per lane (the derivation above);
 * c holds POLYVAL_C in qword 0 of each lane; lo and t are clobbered. */
.macro PV_REDUCE_EVEX lo, hi, c, t
        vpclmulqdq $0x00, \c, \lo, \t          /* M = T0 * C: the first fold */
        vpshufd $0x4e, \t, \t                  /* swap M's qwords */
        vpxorq \t, \lo, \lo                    /* W = T1^M0 : T0^M1 */
        vpclmulqdq $0x01, \c, \lo, \t          /* M' = U0 * C: the second fold */
        vpternlogq $0x96, \t, \lo, \hi         /* hi ^= W ^ M' (second fold folded in) */
.endm

/* ---- VEX (PCLMULQDQ + AVX): xmm ---- */

/* PV_REDUCE_VEX lo, hi, c, t:  as PV_REDUCE_EVEX on xmm0-15 without AVX-512. */
.macro PV_REDUCE_VEX lo, hi, c, t
        vpclmulqdq $0x00, \c, \lo, \t          /* VEX: M = T0 * C, the first fold */
        vpshufd $0x4e, \t, \t                  /* VEX: swap M's qwords */
        vpxor \t, \lo, \lo                     /* VEX: W = T1^M0 : T0^M1 */
        vpclmulqdq $0x01, \c, \lo, \t          /* VEX: M' = U0 * C, the second fold */
        vpxor \lo, \hi, \hi                    /* VEX: hi ^= W */
        vpxor \t, \hi, \hi                     /* VEX: hi ^= M' (second fold folded in) */
.endm

/* ---- Entry and exit ---- */

/* PV_ENTRY name: a global function symbol in .text (the matching .size is in the .S file). */
.macro PV_ENTRY name
        .text
        .globl \name
        .type \name, @function
        .p2align 5
\name:
        endbr64
.endm

/* PV_CLEAR n...:  zero xmm<n> whole for each n listed (a VEX or EVEX write to xmmN zeroes the
 * rest of zmmN; vpxord reaches xmm16-31 too). */
.macro PV_CLEAR regs:vararg
        .irp r, \regs
        vpxord %xmm\r, %xmm\r, %xmm\r
        .endr
.endm

/* PV_CLEAR_VEX n...:  the same with VEX vpxor (xmm0-15; no AVX-512 needed). */
.macro PV_CLEAR_VEX regs:vararg
        .irp r, \regs
        vpxor %xmm\r, %xmm\r, %xmm\r
        .endr
.endm
