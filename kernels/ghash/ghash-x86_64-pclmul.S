/* ghash-x86_64-pclmul.S — GHASH update (NIST SP 800-38D section 6.4) on xmm with PCLMULQDQ and
 * AVX, 4 blocks per reduction, Karatsuba: the body of kernels/polyval/polyval-x86_64-pclmul.S
 * (its head has the method, the register map and why this form) instantiated for GHASH, RFC
 * 8452 Appendix A's way (kernels/ghash/ghash-x86_64-common.h): state and blocks
 * byte-reversed, H made mulX_POLYVAL(rev(H)) before its powers.  Interface:
 * kernels/ghash/ghash.h.  The judge: ghash_update() in reference/ghash.c.
 *
 *   void ghash_update_x86_64_pclmul(uint8_t state[16], const uint8_t key_h[16],
 *                                   const uint8_t *blocks, size_t nblocks);
 *
 * Calling convention and needs as the POLYVAL entry's (System V; PCLMULQDQ and AVX: the byte
 * reversal is VEX vpshufb, which AVX brings), clobbering xmm14 (the byte-reversal selector)
 * besides; it is zeroed before return.
 */
#define PV_BODY_ONLY
#include "ghash-x86_64-common.h"
#include "../polyval/polyval-x86_64-pclmul.S"

PC_UPDATE ghash_update_x86_64_pclmul, 1
