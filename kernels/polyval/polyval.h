/* kernels/polyval/polyval.h — POLYVAL update kernels (RFC 8452 section 3).
 *
 * Each kernel folds n 16-byte blocks into a running POLYVAL value:
 *     for each block X: state = dot(state + X, key_h)
 * exactly as polyval_update() in reference/polyval.c, with the state and the key as 16-byte
 * strings in POLYVAL's own (little-endian) order.  nblocks may be 0 (state unchanged); blocks,
 * state and key need no alignment.  The kernels leave no key- or data-derived values in vector
 * registers.
 *
 * Portable C, polyval-portable-ghash.c; runs everywhere:
 *   _portable_ghash  the Zvkg kernels' method (byte reversal, mulX_GHASH, GCM's multiply) in
 *                    plain C: an independent second route to the reference's value.
 *
 * RISC-V vector crypto (Zvkg), polyval-riscv64-zvkg.S; need V and Zvkg at run time:
 *   _lmul1     byte reversal of every block at LMUL=1 (its cost grows with VLEN);
 *   _fraclmul  byte reversal at the fractional LMUL whose register group is 128 bits for the
 *              VLEN found at run time (mf8 at VLEN >= 1024, mf4 >= 512, mf2 >= 256, else m1).
 *
 * x86-64 (shared macros in polyval-x86_64-common.h); each file's head says what it needs:
 *   _x86_64_vpclmul_avx512_perblock    Horner, one reduction per block on xmm (AVX-512VL,
 *                                      VPCLMULQDQ): no key powers, latency-bound; the short
 *                                      messages' form (polyval-x86_64-vpclmul-avx512-perblock.S)
 *   _x86_64_vpclmul_avx512_aggregated  H^1..H^16 made in every call (H^17..H^32 too from 96
 *                                      blocks), 32 or 16 blocks on zmm per reduction, tails
 *                                      of 8, 4 and 1; the long messages' form
 *                                      (polyval-x86_64-vpclmul-avx512-aggregated.S)
 *   _x86_64_pclmul                     PCLMULQDQ + AVX on xmm, Karatsuba, 4 blocks per
 *                                      reduction (polyval-x86_64-pclmul.S)
 */
#ifndef ASMDIFF_KERNELS_POLYVAL_H
#define ASMDIFF_KERNELS_POLYVAL_H

#include <stddef.h>
#include <stdint.h>

void polyval_update_portable_ghash(uint8_t state[16], const uint8_t key_h[16],
                                   const uint8_t *blocks, size_t nblocks);
void polyval_update_zvkg_lmul1(uint8_t state[16], const uint8_t key_h[16], const uint8_t *blocks,
                               size_t nblocks);
void polyval_update_zvkg_fraclmul(uint8_t state[16], const uint8_t key_h[16],
                                  const uint8_t *blocks, size_t nblocks);

void polyval_update_x86_64_vpclmul_avx512_perblock(uint8_t state[16], const uint8_t key_h[16],
                                                   const uint8_t *blocks, size_t nblocks);
void polyval_update_x86_64_vpclmul_avx512_aggregated(uint8_t state[16], const uint8_t key_h[16],
                                                     const uint8_t *blocks, size_t nblocks);
void polyval_update_x86_64_pclmul(uint8_t state[16], const uint8_t key_h[16],
                                  const uint8_t *blocks, size_t nblocks);

#endif
