/* bytesliced-avx512.h — GNU as macros shared by the byte-sliced AVX-512 kernels of 128-bit
 * block ciphers (kernels/aria/aria-x86_64-avx512-gfni.S, kernels/camellia/camellia-x86_64-
 * avx512-gfni.S).  Include it from a .S file (through the C preprocessor) after `.text`.
 *
 * What the two ciphers truly share is everything around their rounds: 64 blocks (or 32 in ymm)
 * held as 16 registers of four 128-bit lanes, transposed per lane so that register j holds
 * byte j of every block; masked loads and stores for any tail of 1..63 blocks; counter blocks
 * of a 128-bit big-endian counter built as little-endian qword pairs and sliced with their
 * byte order reversed for free; and the register clearing before return.  The rounds (S-box
 * matrices, diffusion, FL) stay in each cipher's own file.
 *
 * V is the register kind, zmm (64 blocks, 4 lanes) or ymm (32 blocks, 2 lanes); `\V\r`
 * names V-register r.  Conventions the macros assume: rcx in, rdx out, r8 blocks left,
 * r11 in for tails (TAIL_MASKS sets it), (%rsp) the running counter (CTR_BLOCKS).
 *
 * Three pieces are left to each kernel, which defines them before use: TAIL_MASKS (which
 * opmask registers hold the tail's masks), CTR_CARRY (called by CTR_BLOCKS) and the register
 * clearing before return (which registers each kernel writes differs).  They are short, and
 * the lines that the families' mutants edit live there, in the kernel file that mutate.py
 * copies, so that every mutant is one edit of one kernel file.
 *
 * Instruction lines use spaces, not tabs, and lines that mutants (verify/mutants/)
 * edit carry distinctive trailing comments: a mutant finds its line by exact text. */

/* ---- Counter offsets (rodata; emit once, inside .section .rodata) ---- */

/* What counter register r adds to the running counter, lane by lane, as qwords [low, high]:
 * blocks 4r+L (zmm) or 2r+L (ymm) of the pass.  A table, so that every register's counters
 * come from the running counter directly, with no chain from one register to the next. */
.macro CTR_OFFSET_TABLES
        .type ctr_offsets_zmm, @object
ctr_offsets_zmm:
.Lctr_offsets_zmm:
.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        .quad 4 * \r + 0, 0, 4 * \r + 1, 0, 4 * \r + 2, 0, 4 * \r + 3, 0
.endr
        .size ctr_offsets_zmm, . - ctr_offsets_zmm
        .type ctr_offsets_ymm, @object
ctr_offsets_ymm:
.Lctr_offsets_ymm:
.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        .quad 2 * \r + 0, 0, 2 * \r + 1, 0
.endr
        .size ctr_offsets_ymm, . - ctr_offsets_ymm
.endm

/* ---- Transpose ---- */

/* UNPCK_PAIR V, lo, hi, a, b:  per 128-bit lane, V lo = bytes 0-7 of V a and V b interleaved
 * (a's byte first), V hi = bytes 8-15 likewise. */
.macro UNPCK_PAIR V, lo, hi, a, b
        vpunpcklbw %\V\b, %\V\a, %\V\lo
        vpunpckhbw %\V\b, %\V\a, %\V\hi
.endm

/* One interleave stage, new[2i] / new[2i+1] = lo / hi (old[i], old[i+8]), from bank V0-15 to
 * V16-31 or back. */
.macro STAGE_A_TO_B V
        UNPCK_PAIR \V, 16, 17, 0,  8
        UNPCK_PAIR \V, 18, 19, 1,  9
        UNPCK_PAIR \V, 20, 21, 2, 10
        UNPCK_PAIR \V, 22, 23, 3, 11
        UNPCK_PAIR \V, 24, 25, 4, 12
        UNPCK_PAIR \V, 26, 27, 5, 13
        UNPCK_PAIR \V, 28, 29, 6, 14
        UNPCK_PAIR \V, 30, 31, 7, 15
.endm

.macro STAGE_B_TO_A V
        UNPCK_PAIR \V,  0,  1, 16, 24
        UNPCK_PAIR \V,  2,  3, 17, 25
        UNPCK_PAIR \V,  4,  5, 18, 26
        UNPCK_PAIR \V,  6,  7, 19, 27
        UNPCK_PAIR \V,  8,  9, 20, 28
        UNPCK_PAIR \V, 10, 11, 21, 29
        UNPCK_PAIR \V, 12, 13, 22, 30
        UNPCK_PAIR \V, 14, 15, 23, 31
.endm

/* The same stage with new[k] written to V(15-k): reverses the byte order of every block. */
.macro STAGE_B_TO_A_REVERSED V
        UNPCK_PAIR \V, 15, 14, 16, 24
        UNPCK_PAIR \V, 13, 12, 17, 25
        UNPCK_PAIR \V, 11, 10, 18, 26
        UNPCK_PAIR \V,  9,  8, 19, 27
        UNPCK_PAIR \V,  7,  6, 20, 28
        UNPCK_PAIR \V,  5,  4, 21, 29
        UNPCK_PAIR \V,  3,  2, 22, 30
        UNPCK_PAIR \V,  1,  0, 23, 31
.endm

/* TRANSPOSE V:  per 128-bit lane L, byte c of V r <-> byte r of V c (r, c = 0..15).
 * Blocks -> sliced and back.  Clobbers V16-31. */
.macro TRANSPOSE V
        STAGE_A_TO_B \V
        STAGE_B_TO_A \V
        STAGE_A_TO_B \V
        STAGE_B_TO_A \V
.endm

/* TRANSPOSE_REVERSED V:  byte c of V r -> byte r of V(15-c).  Counter blocks are built as
 * little-endian qword pairs, byte c of a lane being byte 15-c of the big-endian block; this
 * transpose slices them with the byte order put right, for free. */
.macro TRANSPOSE_REVERSED V
        STAGE_A_TO_B \V
        STAGE_B_TO_A \V
        STAGE_A_TO_B \V
        STAGE_B_TO_A_REVERSED \V
.endm

/* ---- Loads, stores, tails ---- */

/* LOAD16 / STORE16: V0-15 from / to 16 * width bytes at (base), unmasked. */
.macro LOAD16 V, width, base
.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        vmovdqu64 (\width * \r)(\base), %\V\r
.endr
.endm

.macro STORE16 V, width, base
.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        vmovdqu64 %\V\r, (\width * \r)(\base)
.endr
.endm

/* XOR_STORE16 V, width:  V r ^= in[r] (rcx), stored to out[r] (rdx), unmasked. */
.macro XOR_STORE16 V, width
.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        vpxorq (\width * \r)(%rcx), %\V\r, %\V\r
        vmovdqu64 %\V\r, (\width * \r)(%rdx)
.endr
.endm


/* MASK_OF V, r, lo=k1, hi=k2, out=k3:  out = the qword mask of register V r within the tail
 * (from TAIL_MASKS' lo, hi). */
.macro MASK_OF V, r, lo=k1, hi=k2, out=k3
.ifc \V, ymm
        kshiftrq $(4 * \r), %\lo, %\out
.else
.if \r < 8
        kshiftrq $(8 * \r), %\lo, %\out
.else
        kshiftrq $(8 * (\r - 8)), %\hi, %\out
.endif
.endif
.endm

/* TAIL_LOAD16 V, width:  V r = in[r] (r11) under its mask, zero elsewhere. */
.macro TAIL_LOAD16 V, width, lo=k1, hi=k2, out=k3
.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        MASK_OF \V, \r, \lo, \hi, \out
        vmovdqu64 (\width * \r)(%r11), %\V\r{%\out}{z}
.endr
.endm

/* TAIL_STORE16 V, width:  out[r] (rdx) = V r under its mask. */
.macro TAIL_STORE16 V, width, lo=k1, hi=k2, out=k3
.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        MASK_OF \V, \r, \lo, \hi, \out
        vmovdqu64 %\V\r, (\width * \r)(%rdx){%\out}
.endr
.endm

/* TAIL_XOR_STORE16 V, width:  out[r] = V r ^ in[r] under its mask (V16 temporary). */
.macro TAIL_XOR_STORE16 V, width, lo=k1, hi=k2, out=k3
.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        MASK_OF \V, \r, \lo, \hi, \out
        vmovdqu64 (\width * \r)(%r11), %\V\()16{%\out}{z}
        vpxorq %\V\()16, %\V\r, %\V\r
        vmovdqu64 %\V\r, (\width * \r)(%rdx){%\out}
.endr
.endm

/* ---- Counter blocks ---- */

/* CTR_BLOCKS V, offsets, width:  V0-15 = the counter blocks of this pass, counter + 0, 1, 2,
 * ... in register order then lane order, each lane as little-endian qwords [low, high].  The
 * running counter is at (%rsp) in that form; offsets is .Lctr_offsets_zmm or _ymm, width the
 * register's bytes.  Unless the low qword is within 64 of wrapping, no lane can carry and the
 * compares are skipped.  Clobbers V16, V18, k4, flags. */
.macro CTR_BLOCKS V, offsets, width
        vbroadcasti32x4 (%rsp), %\V\()18
        cmpq $-64, (%rsp)
        jae .Lctr_carry\@               /* low qword >= 2^64 - 64: a lane may wrap */
.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        vpaddq (\offsets + \width * \r)(%rip), %\V\()18, %\V\r
.endr
        jmp .Lctr_done\@
.Lctr_carry\@:
        vpternlogd $0xff, %\V\()16, %\V\()16, %\V\()16  /* all ones: subtracting it adds 1 */
.irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        vpaddq (\offsets + \width * \r)(%rip), %\V\()18, %\V\r
        CTR_CARRY \V, \r, (\offsets + \width * \r)(%rip)
.endr
.Lctr_done\@:
.endm



/* ---- Half-swapping transpose ---- */

/* STAGE_A_TO_B_SWAPPED V:  STAGE_A_TO_B with the operands of each interleave exchanged, which
 * complements bit 3 of every byte's register index on its way through: after the remaining
 * three stages sliced register r lands in block byte r ^ 8. */
.macro STAGE_A_TO_B_SWAPPED V
        UNPCK_PAIR \V, 16, 17,  8, 0
        UNPCK_PAIR \V, 18, 19,  9, 1
        UNPCK_PAIR \V, 20, 21, 10, 2
        UNPCK_PAIR \V, 22, 23, 11, 3
        UNPCK_PAIR \V, 24, 25, 12, 4
        UNPCK_PAIR \V, 26, 27, 13, 5
        UNPCK_PAIR \V, 28, 29, 14, 6
        UNPCK_PAIR \V, 30, 31, 15, 7
.endm

/* TRANSPOSE_HALFSWAP V:  sliced -> blocks with the two 64-bit halves of every block exchanged:
 * byte c of V r -> byte r ^ 8 of V c.  Clobbers V16-31. */
.macro TRANSPOSE_HALFSWAP V
        STAGE_A_TO_B_SWAPPED \V
        STAGE_B_TO_A \V
        STAGE_A_TO_B \V
        STAGE_B_TO_A \V
.endm
