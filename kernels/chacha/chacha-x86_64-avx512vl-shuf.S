/* chacha-x86_64-avx512vl-shuf.S — ChaCha (RFC 8439) keystream XOR, AVX-512VL, eight blocks a
 * batch in ymm lanes; the "shuf" form: rotations by 16 and 8 are byte shuffles (vpshufb),
 * by 12 and 7 a shift pair and an or.
 *
 * Computes what reference/chacha.c computes (chacha_xor; the contract in
 * kernels/chacha/chacha.h):
 *   chacha_ctr32_x86_64_avx512vl_shuf  word 12 a 32-bit counter (wraps at 2^32)
 *   chacha_ctr64_x86_64_avx512vl_shuf  words 12-13 a 64-bit counter
 * Calling convention, clobbers and the batch's register map: chacha-x86_64-avx512vl-common.h;
 * here ymm3 holds the byte shuffle of a 16-bit rotation and ymm4 that of an 8-bit one (each
 * dword's bytes 2,3,0,1 and 3,0,1,2), and ymm5-8 take the shifted-out bits.
 *
 * The form: the choice made before vprold existed (and on AVX2, which has no rotate): a
 * rotation by a whole number of bytes is one shuffle, the others three instructions.  It
 * needs AVX512BW besides (vpshufb on ymm16-31 is EVEX).  Its other is
 * chacha-x86_64-avx512vl-prold.S.
 */

#define CHACHA_CTR32 chacha_ctr32_x86_64_avx512vl_shuf
#define CHACHA_CTR64 chacha_ctr64_x86_64_avx512vl_shuf
#define CHACHA_LANES chacha_avx512vl_shuf_lanes

#define ROT16(x, t) vpshufb %ymm3, x, x
#define ROT12(x, t) vpsrld $20, x, t; vpslld $12, x, x; vpord t, x, x
#define ROT8(x, t) vpshufb %ymm4, x, x
#define ROT7(x, t) vpsrld $25, x, t; vpslld $7, x, x; vpord t, x, x
#define LOAD_ROT_CONSTANTS vbroadcasti128 chacha_avx512vl_rot16(%rip), %ymm3; vbroadcasti128 chacha_avx512vl_rot8(%rip), %ymm4

        .section .rodata
        .p2align 4
        .type chacha_avx512vl_rot16, @object
chacha_avx512vl_rot16:
        .byte 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13
        .size chacha_avx512vl_rot16, . - chacha_avx512vl_rot16
        .type chacha_avx512vl_rot8, @object
chacha_avx512vl_rot8:
        .byte 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
        .size chacha_avx512vl_rot8, . - chacha_avx512vl_rot8

#include "chacha-x86_64-avx512-qr.h"
#include "chacha-x86_64-avx512vl-common.h"
