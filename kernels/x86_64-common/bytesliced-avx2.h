/* bytesliced-avx2.h — GNU as macros shared by the byte-sliced AVX2 kernels of 128-bit block
 * ciphers (kernels/aria/aria-x86_64-avx2-gfni.S, kernels/camellia/camellia-x86_64-avx2-gfni.S).
 * Include it from a .S file (through the C preprocessor).
 *
 * With sixteen ymm registers the per-lane 16x16 byte transpose of 32 blocks cannot be done in
 * registers alone; both kernels do it through memory in two halves.  Each half is four groups:
 * load rows i, i+4, i+8, i+12 (32 bytes apart), run two byte-interleave stages, store rows
 * 4i .. 4i+3; two halves make the whole transpose (each stage rotates a byte's 8-bit
 * (row, column) address left by one bit, so four stages swap row and column). */

/* INTERLEAVE2:  two interleave stages on rows (r_i, r_i+4, r_i+8, r_i+12) = (ymm0, ymm1,
 * ymm2, ymm3) -> rows 4i .. 4i+3 in ymm0..3.  Temporaries ymm7-10. */
.macro INTERLEAVE2
        vpunpcklbw %ymm2, %ymm0, %ymm7
        vpunpckhbw %ymm2, %ymm0, %ymm8
        vpunpcklbw %ymm3, %ymm1, %ymm9
        vpunpckhbw %ymm3, %ymm1, %ymm10
        vpunpcklbw %ymm9, %ymm7, %ymm0
        vpunpckhbw %ymm9, %ymm7, %ymm1
        vpunpcklbw %ymm10, %ymm8, %ymm2
        vpunpckhbw %ymm10, %ymm8, %ymm3
.endm

/* LOAD_GROUP off, base, i:  ymm0..3 = rows i, i+4, i+8, i+12 at off(base). */
.macro LOAD_GROUP off, base, i
        vmovdqu (\off + 32 * (\i + 0))(\base), %ymm0
        vmovdqu (\off + 32 * (\i + 4))(\base), %ymm1
        vmovdqu (\off + 32 * (\i + 8))(\base), %ymm2
        vmovdqu (\off + 32 * (\i + 12))(\base), %ymm3
.endm

/* STORE_ROWS off, base, i:  rows 4i .. 4i+3 at off(base) = ymm0..3. */
.macro STORE_ROWS off, base, i
        vmovdqu %ymm0, (\off + 32 * (4 * \i + 0))(\base)
        vmovdqu %ymm1, (\off + 32 * (4 * \i + 1))(\base)
        vmovdqu %ymm2, (\off + 32 * (4 * \i + 2))(\base)
        vmovdqu %ymm3, (\off + 32 * (4 * \i + 3))(\base)
.endm

/* INTERLEAVE2_SWAPPED:  INTERLEAVE2 with the operands of the first stage exchanged, which
 * complements bit 3 of each byte's row address: used in the first half of an output
 * transpose, it exchanges the two 64-bit halves of every block (Camellia's output swap). */
.macro INTERLEAVE2_SWAPPED
        vpunpcklbw %ymm0, %ymm2, %ymm7
        vpunpckhbw %ymm0, %ymm2, %ymm8
        vpunpcklbw %ymm1, %ymm3, %ymm9
        vpunpckhbw %ymm1, %ymm3, %ymm10
        vpunpcklbw %ymm9, %ymm7, %ymm0
        vpunpckhbw %ymm9, %ymm7, %ymm1
        vpunpcklbw %ymm10, %ymm8, %ymm2
        vpunpckhbw %ymm10, %ymm8, %ymm3
.endm
