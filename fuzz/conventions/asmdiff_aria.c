/* asmdiff_aria.c — our own ARIA kernels' prototypes as a convention (a patch to one of our
 * forms: ./asmdiff check aria --convention asmdiff); blockcipher.h's row, each kernel with its
 * own state, so a --baseline pair is one check build. */
#include "blockcipher.h"

BC_OWN_CONVENTION(
    aria, "as kernels/aria/aria.h: void aria_ecb_*(const uint8_t *rk, unsigned int rounds, "
          "uint8_t *out, const uint8_t *in, size_t nblocks) or aria_ctr_*(rk, rounds, out, in, "
          "nblocks, uint8_t ctr[16]); rk the reference's round keys (encryption or decryption "
          "schedule), any block count, ctr a 128-bit big-endian counter");
