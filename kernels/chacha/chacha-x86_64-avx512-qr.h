/* chacha-x86_64-avx512-qr.h — the round structure of ChaCha (RFC 8439 2.1, 2.3) shared by the
 * AVX-512 kernels: the ymm eight-block forms (chacha-x86_64-avx512vl-prold.S, -shuf.S, through
 * chacha-x86_64-avx512vl-common.h) and the zmm sixteen-block form (chacha-x86_64-avx512-zmm.S).
 * Each kernel includes it directly, before its body.
 *
 * The including file defines ROT16/ROT12/ROT8/ROT7(x, t) (x rotated left in place, t a
 * temporary it may use; the temporaries are passed to the macros, one per quarter round); the registers
 * passed are word-sliced: register i holds word i of every block of the batch, one block per
 * 32-bit lane, whatever the width.
 */

/* QR4: four quarter rounds (RFC 8439 2.1), one per column or diagonal (a_i, b_i, c_i, d_i),
 * interleaved; each instruction on its own line so one lane group can be changed alone.
 * t0..t3: the temporaries of the form's rotations, one per quarter round. */
.macro QR4 a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3, t0, t1, t2, t3
        vpaddd \b0, \a0, \a0
        vpaddd \b1, \a1, \a1
        vpaddd \b2, \a2, \a2
        vpaddd \b3, \a3, \a3
        vpxord \a0, \d0, \d0
        vpxord \a1, \d1, \d1
        vpxord \a2, \d2, \d2
        vpxord \a3, \d3, \d3
        ROT16(\d0, \t0)
        ROT16(\d1, \t1)
        ROT16(\d2, \t2)
        ROT16(\d3, \t3)
        vpaddd \d0, \c0, \c0
        vpaddd \d1, \c1, \c1
        vpaddd \d2, \c2, \c2
        vpaddd \d3, \c3, \c3
        vpxord \c0, \b0, \b0
        vpxord \c1, \b1, \b1
        vpxord \c2, \b2, \b2
        vpxord \c3, \b3, \b3
        ROT12(\b0, \t0)
        ROT12(\b1, \t1)
        ROT12(\b2, \t2)
        ROT12(\b3, \t3)
        vpaddd \b0, \a0, \a0
        vpaddd \b1, \a1, \a1
        vpaddd \b2, \a2, \a2
        vpaddd \b3, \a3, \a3
        vpxord \a0, \d0, \d0
        vpxord \a1, \d1, \d1
        vpxord \a2, \d2, \d2
        vpxord \a3, \d3, \d3
        ROT8(\d0, \t0)
        ROT8(\d1, \t1)
        ROT8(\d2, \t2)
        ROT8(\d3, \t3)
        vpaddd \d0, \c0, \c0
        vpaddd \d1, \c1, \c1
        vpaddd \d2, \c2, \c2
        vpaddd \d3, \c3, \c3
        vpxord \c0, \b0, \b0
        vpxord \c1, \b1, \b1
        vpxord \c2, \b2, \b2
        vpxord \c3, \b3, \b3
        ROT7(\b0, \t0)
        ROT7(\b1, \t1)
        ROT7(\b2, \t2)
        ROT7(\b3, \t3)
.endm

/* DOUBLE_ROUND: a column round then a diagonal round on the sixteen word registers x0..x15
 * (RFC 8439 2.3's inner_block) */
.macro DOUBLE_ROUND x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, t0, t1, t2, t3
        QR4 \x0, \x4, \x8, \x12, \x1, \x5, \x9, \x13, \x2, \x6, \x10, \x14, \x3, \x7, \x11, \x15, \t0, \t1, \t2, \t3
        QR4 \x0, \x5, \x10, \x15, \x1, \x6, \x11, \x12, \x2, \x7, \x8, \x13, \x3, \x4, \x9, \x14, \t0, \t1, \t2, \t3
.endm
