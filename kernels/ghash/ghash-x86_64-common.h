/* ghash-x86_64-common.h — what turns our x86-64 POLYVAL kernels into GHASH kernels, as
 * assembler macros: RFC 8452 Appendix A's crossing between the two hashes,
 *     GHASH(H, X_1..X_n) = rev(POLYVAL(mulX_POLYVAL(rev(H)), rev(X_1), ..., rev(X_n)))
 * with rev the reversal of a block's 16 bytes: it maps GCM's field onto POLYVAL's up to the
 * reflection of the modulus, and the factors the two products differ by (GCM's has none,
 * POLYVAL's dot() has x^-128) leave one factor x, which mulX puts into the key once per call.
 *
 * Each ghash-x86_64-*.S file defines PV_BODY_ONLY, includes this file and then the POLYVAL
 * kernel it shares the body of (kernels/polyval/polyval-x86_64-*.S), and instantiates that
 * body's macro with ghash = 1: the body calls the macros below where GHASH differs (the key,
 * the state in and out, every block load) and nowhere else.  The arithmetic is the POLYVAL
 * kernels' (kernels/polyval/polyval-x86_64-common.h).
 *
 * Instruction lines use spaces, not tabs; verify/mutants/ghash.mutants plants bugs here (each
 * ghash kernel that includes this file becomes a mutant of its own).
 */

        .section .rodata
        .p2align 4
/* the vpshufb selector that reverses the 16 bytes of each 128-bit lane */
        .type ghash_x86_bswap, @object
ghash_x86_bswap:
        .byte 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0
        .size ghash_x86_bswap, . - ghash_x86_bswap
/* x^128 mod P = x^127 + x^126 + x^121 + 1 (P = x^128 + x^127 + x^126 + x^121 + 1): what a
 * bit falling out of x^127 becomes when an element is multiplied by x */
        .type ghash_x86_mulx_tail, @object
ghash_x86_mulx_tail:
        .quad 1, 0xc200000000000000
        .size ghash_x86_mulx_tail, . - ghash_x86_mulx_tail

        .text

/* GH_KEY k, mask, t1, t2, q:  k = mulX_POLYVAL(rev(k)): the GHASH key H as POLYVAL's; mask
 * holds ghash_x86_bswap; t1, t2 temporaries; q = "q" for the EVEX logic forms (xmm16-31),
 * empty for VEX.  Shift left one bit across the 128 bits, then add the tail if bit 127 fell
 * out (a mask from its sign, no branch). */
.macro GH_KEY k, mask, t1, t2, q
        vpshufb \mask, \k, \k                  /* ghash: rev(H) */
        vpshufd $0xff, \k, \t1
        vpsrad $31, \t1, \t1                   /* ghash: all ones iff bit 127 is set */
        vpsrlq $63, \k, \t2
        vpslldq $8, \t2, \t2                   /* ghash: bit 63 carried into bit 64 */
        vpsllq $1, \k, \k
        vpor\q \t2, \k, \k                     /* ghash: rev(H) * x, bit 128 dropped */
        vpand\q ghash_x86_mulx_tail(%rip), \t1, \t1
        vpxor\q \t1, \k, \k                    /* ghash: ... + x^128 mod P if it was set */
.endm

/* GH_LOAD dst, mem, mask, mov:  dst = the blocks at mem, each lane's 16 bytes reversed; mov
 * is the load (vmovdqu for VEX registers, vmovdqu64 for EVEX ones). */
.macro GH_LOAD dst, mem, mask, mov
        \mov \mem, \dst
        vpshufb \mask, \dst, \dst              /* ghash: rev(X) per lane */
.endm

/* GH_REV r, mask:  r = rev(r) per lane (the state in and out). */
.macro GH_REV r, mask
        vpshufb \mask, \r, \r                  /* ghash: the state crosses by rev */
.endm
