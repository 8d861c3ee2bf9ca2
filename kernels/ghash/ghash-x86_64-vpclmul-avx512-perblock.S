/* ghash-x86_64-vpclmul-avx512-perblock.S — GHASH update (NIST SP 800-38D section 6.4), one
 * block at a time, one reduction per block: the body of
 * kernels/polyval/polyval-x86_64-vpclmul-avx512-perblock.S (its head has the method, the
 * register map and why this form) instantiated for GHASH, RFC 8452 Appendix A's way
 * (kernels/ghash/ghash-x86_64-common.h): state and blocks byte-reversed, H made
 * mulX_POLYVAL(rev(H)) once per call.  Interface: kernels/ghash/ghash.h.  The judge:
 * ghash_update() in reference/ghash.c.
 *
 *   void ghash_update_x86_64_vpclmul_avx512_perblock(uint8_t state[16],
 *        const uint8_t key_h[16], const uint8_t *blocks, size_t nblocks);
 *
 * Calling convention and needs as the POLYVAL entry's (System V; AVX-512F, BW, VL and
 * VPCLMULQDQ), clobbering xmm23 (the block) and xmm24 (the byte-reversal selector) besides;
 * both are zeroed before return.
 */
#define PV_BODY_ONLY
#include "ghash-x86_64-common.h"
#include "../polyval/polyval-x86_64-vpclmul-avx512-perblock.S"

PB_UPDATE ghash_update_x86_64_vpclmul_avx512_perblock, 1
