/* ghash-x86_64-vpclmul-avx512-aggregated.S — GHASH update (NIST SP 800-38D section 6.4), 16
 * or 32 blocks per reduction on zmm with H^1..H^16 made in every call (H^17..H^32 too in a
 * call of 96 blocks or more): the body of
 * kernels/polyval/polyval-x86_64-vpclmul-avx512-aggregated.S (its head has the method, the
 * groups, the register map and why this form) instantiated for GHASH, RFC 8452 Appendix A's
 * way (kernels/ghash/ghash-x86_64-common.h): state and blocks byte-reversed, H made
 * mulX_POLYVAL(rev(H)) before its powers.  Interface: kernels/ghash/ghash.h.  The judge:
 * ghash_update() in reference/ghash.c.
 *
 *   void ghash_update_x86_64_vpclmul_avx512_aggregated(uint8_t state[16],
 *        const uint8_t key_h[16], const uint8_t *blocks, size_t nblocks);
 *
 * Calling convention and needs as the POLYVAL entry's (System V; AVX-512F, BW, VL, VPCLMULQDQ
 * and PCLMULQDQ; zmm0-16 and zmm18-31), clobbering zmm17 (the byte-reversal selector in every
 * lane) besides; it is zeroed before return.
 */
#define PV_BODY_ONLY
#include "ghash-x86_64-common.h"
#include "../polyval/polyval-x86_64-vpclmul-avx512-aggregated.S"

AG_UPDATE ghash_update_x86_64_vpclmul_avx512_aggregated, 1
