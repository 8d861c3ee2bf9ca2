/* asmdiff_camellia.c — our own Camellia kernels' prototypes as a convention (a patch to one of
 * our forms: ./asmdiff check camellia --convention asmdiff); blockcipher.h's row, each kernel
 * with its own state, so a --baseline pair is one check build. */
#include "blockcipher.h"

BC_OWN_CONVENTION(
    camellia,
    "as kernels/camellia/camellia.h: void camellia_ecb_*(const uint64_t *sk, unsigned int "
    "rounds, uint8_t *out, const uint8_t *in, size_t nblocks) or camellia_ctr_*(sk, rounds, "
    "out, in, nblocks, uint8_t ctr[16]); sk the reference's subkeys in order of use (encryption "
    "or decryption schedule), any block count, ctr a 128-bit big-endian counter");
