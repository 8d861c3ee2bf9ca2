/* kernels/ghash/ghash.h — GHASH update kernels (NIST SP 800-38D section 6.4).
 *
 * Each kernel folds n 16-byte blocks into a running GHASH value:
 *     for each block X: state = (state xor X) . H
 * exactly as ghash_update() in reference/ghash.c, with the state, the key H and the blocks as
 * 16-byte strings in GCM's own order (SP 800-38D: the leftmost bit of byte 0 is x^0).  nblocks
 * may be 0 (state unchanged); blocks, state and key need no alignment.  The assembly kernels
 * leave no key- or data-derived values in vector registers.
 *
 * Every kernel here computes GHASH through POLYVAL's arithmetic, RFC 8452 Appendix A's way:
 *     GHASH(H, X_1..X_n) = rev(POLYVAL(mulX_POLYVAL(rev(H)), rev(X_1), ..., rev(X_n)))
 * (rev: the 16 bytes in reverse order), the running state crossing over by rev too.  So the
 * x86-64 GHASH kernels are our POLYVAL kernels' bodies (kernels/polyval/) with a byte reversal
 * on every load and store and the key transformed once per call: one core, two hashes.
 *
 * Portable C, ghash-portable-polyval.c; runs everywhere:
 *   _portable_polyval  that route in plain C, POLYVAL's Montgomery product as the x86-64
 *                      kernels form it (schoolbook product, two folds by x^-64): their model,
 *                      and a second route to the reference's value.
 *
 * x86-64 (the bodies of kernels/polyval/polyval-x86_64-*.S, instantiated a second time with
 * the GHASH loads; same needs as their POLYVAL entries, see kernels/polyval/polyval.h):
 *   _x86_64_vpclmul_avx512_perblock, _x86_64_vpclmul_avx512_aggregated, _x86_64_pclmul
 * One run of `./asmdiff check ghash ... --bench` (2026-12-04, the 2-core Xeon with AVX-512,
 * loaded; one long call, cycles per byte): aggregated 0.141, pclmul 0.428, perblock 1.17;
 * beside them Linux 6.12's clmul_ghash_update 1.99 (one block per reduction, Karatsuba on
 * xmm) and nettle 3.8's gcm_update 0.714.  Calls of 1 block: perblock 1.61, pclmul 1.70,
 * aggregated 4.47 (its 16 powers per call), Linux's 3.75.
 */
#ifndef ASMDIFF_KERNELS_GHASH_H
#define ASMDIFF_KERNELS_GHASH_H

#include <stddef.h>
#include <stdint.h>

void ghash_update_portable_polyval(uint8_t state[16], const uint8_t key_h[16],
                                   const uint8_t *blocks, size_t nblocks);

void ghash_update_x86_64_vpclmul_avx512_perblock(uint8_t state[16], const uint8_t key_h[16],
                                                 const uint8_t *blocks, size_t nblocks);
void ghash_update_x86_64_vpclmul_avx512_aggregated(uint8_t state[16], const uint8_t key_h[16],
                                                   const uint8_t *blocks, size_t nblocks);
void ghash_update_x86_64_pclmul(uint8_t state[16], const uint8_t key_h[16],
                                const uint8_t *blocks, size_t nblocks);

#endif
