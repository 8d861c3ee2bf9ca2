/* chacha-x86_64-avx512vl-prold.S — ChaCha (RFC 8439) keystream XOR, AVX-512VL, eight blocks a
 * batch in ymm lanes; the "prold" form: every rotation of the quarter round is one vprold.
 *
 * Computes what reference/chacha.c computes (chacha_xor; the contract in
 * kernels/chacha/chacha.h):
 *   chacha_ctr32_x86_64_avx512vl_prold  word 12 a 32-bit counter (wraps at 2^32)
 *   chacha_ctr64_x86_64_avx512vl_prold  words 12-13 a 64-bit counter
 * Calling convention, clobbers and the batch's register map: chacha-x86_64-avx512vl-common.h,
 * which holds everything but the rotations.
 *
 * The form: AVX-512F's vprold rotates each dword by an immediate in one instruction for all
 * four amounts (16, 12, 8, 7): 4 rotations a quarter round, no constant register, no
 * temporary.  Its other, chacha-x86_64-avx512vl-shuf.S, rotates by 16 and 8 with a byte
 * shuffle and by 12 and 7 with two shifts and an or.
 */

#define CHACHA_CTR32 chacha_ctr32_x86_64_avx512vl_prold
#define CHACHA_CTR64 chacha_ctr64_x86_64_avx512vl_prold
#define CHACHA_LANES chacha_avx512vl_prold_lanes

/* ROTn(x, t): x = x <<< n; t unused */
#define ROT16(x, t) vprold $16, x, x
#define ROT12(x, t) vprold $12, x, x
#define ROT8(x, t) vprold $8, x, x
#define ROT7(x, t) vprold $7, x, x
#define LOAD_ROT_CONSTANTS

#include "chacha-x86_64-avx512-qr.h"
#include "chacha-x86_64-avx512vl-common.h"
