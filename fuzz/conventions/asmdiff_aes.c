/* fuzz/conventions/asmdiff_aes.c — the asmdiff convention for AES: an outside kernel written to
 * the prototypes of our own AES kernels (kernels/aes/aes.h), one entry point per mode. */
#include "blockcipher.h"

BC_OWN_CONVENTION_ALL(
    aes, "as kernels/aes/aes.h: void aes_ecb_enc_F(const uint8_t *ks, unsigned rounds, uint8_t *out, "
         "const uint8_t *in, size_t nblocks) (ecb_dec_F the same with the equivalent inverse "
         "cipher's schedule); void aes_ctr_F(ks, rounds, out, in, nblocks, uint8_t ctr[16]) "
         "(cbc_dec_F, ctr32le_F the same with iv, counter); void aes_xts_enc_F(ks, rounds, out, "
         "in, size_t len, uint8_t tweak[16]) (xts_dec_F likewise)");
