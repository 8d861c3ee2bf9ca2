/* camellia.h — the Camellia family's kernel interface (x86-64).
 *
 * Every kernel computes what reference/camellia.c computes (RFC 3713): ECB over nblocks 16-byte
 * blocks, and counter mode with a 128-bit big-endian counter, from the subkeys in ORDER OF USE
 * (struct camellia_key's sk in reference/camellia.h, i.e. `key.sk`, and `key.rounds`):
 *
 *   rounds 18 (128-bit keys), 26 words:
 *     sk[0..1]   kw1 kw2        pre-whitening, XORed into the left / right half
 *     sk[2..7]   k1..k6         rounds 1-6 (odd rounds F(left) into right, even the reverse)
 *     sk[8..9]   ke1 ke2        FL on the left half, FL^-1 on the right half
 *     sk[10..15] k7..k12
 *     sk[16..17] ke3 ke4
 *     sk[18..23] k13..k18
 *     sk[24..25] kw3 kw4        post-whitening, XORed into the right / left half; halves swapped
 *   rounds 24 (192- and 256-bit keys), 34 words: the same with sk[24..25] ke5 ke6,
 *     sk[26..31] k19..k24, sk[32..33] kw3 kw4.
 *
 * A decryption schedule (camellia_set_decrypt_key, or camellia_setkey_x86_64 with decrypt != 0)
 * fills the same layout in decryption order (kw3 kw4, k18..k13, ke4 ke3, ..., kw1 kw2), so ONE
 * ECB entry point encrypts or decrypts, by the schedule it is given.
 *
 * Word byte order: each sk word is a native uint64_t holding the RFC's 64-bit value; on x86-64
 * the RFC's byte j (0 = most significant) of word i is at byte 8*i + 7 - j in memory.
 *
 *   sk      CAMELLIA_SUBKEYS(rounds) words; only those are read.
 *   rounds  18 or 24; any other value is outside the contract.  A 32-bit argument: the kernels
 *           read only its low 32 bits.
 *   out,in  nblocks * 16 bytes each; out == in (in place) is allowed, other overlap is not.
 *           Exactly in[0, 16*nblocks) is read and out[0, 16*nblocks) written, for any nblocks
 *           including 0; no alignment is required.
 *
 * CTR: out[i] = in[i] ^ E(ctr + i), ctr a 128-bit big-endian integer carried across all 16
 * bytes and wrapping modulo 2^128; on return ctr holds ctr + nblocks, so consecutive calls
 * continue one stream.  Always takes an encryption schedule.  ctr must not overlap out.
 *
 * Register hygiene: only caller-saved general registers (and the stack, zeroed where it held
 * state); every vector and opmask register written is zeroed before return; vzeroupper last.
 *
 * What each kernel needs from the CPU (and the OS: XSAVE-enabled YMM, and for AVX-512 the
 * ZMM/opmask state):
 *   *_avx512_gfni_*      AVX-512 F, BW, VL and GFNI; the field form also AVX512_VBMI (vpermb).
 *   *_avx2_gfni          AVX2 and GFNI (VEX-encoded GFNI on ymm), no AVX-512.
 *   camellia_setkey_x86_64  baseline x86-64.
 */
#ifndef ASMDIFF_KERNELS_CAMELLIA_H
#define ASMDIFF_KERNELS_CAMELLIA_H

#include <stddef.h>
#include <stdint.h>

/* Number of sk words for a schedule of `rounds` rounds (as in reference/camellia.h). */
#define CAMELLIA_KERNEL_SUBKEYS(rounds) ((rounds) == 18 ? 26 : 34)
_Static_assert(CAMELLIA_KERNEL_SUBKEYS(18) == 26 && CAMELLIA_KERNEL_SUBKEYS(24) == 34,
               "kw1-2, k1..k(rounds), ke1..ke(2*(rounds/6-1)), kw3-4");

/* Speed, CAMELLIA-128 on 16 KiB buffers, measured on this project's AMD Zen 4 machine (EPYC, family 25 model 17) while
 * it was shared and busy (alternating bursts, 10th percentile; c/B both scaled by ARIA-128
 * ternlog run alongside, 0.264 ns/B = its documented 0.59 c/B, and from a clock estimate of
 * 2.6 GHz by a dependent imul chain):
 *
 *   implementation                  ns/B   c/B (ARIA-scaled)  c/B (2.6 GHz)  vs OpenSSL
 *   avx512_gfni_gfnishift   ECB    0.209         0.47             0.54           29x
 *   avx512_gfni_cmpmask     ECB    0.217         0.48             0.56           28x
 *   avx2_gfni               ECB    0.54          1.2              1.40           11x
 *   avx512_gfni_gfnishift   CTR    0.212         0.47             0.55
 *   avx2_gfni               CTR    0.61          1.35             1.57
 *   OpenSSL 3.0 EVP         ECB    6.1-6.3      13.6-14          16               1x
 *   reference/camellia.c    ECB   13.6-14.2     30-31            36
 *
 * Measured again 2026-12-02 with the machine quiet (tools/camellia_aria_ratio.c: one process,
 * 300 alternating trials of 8 calls each, fastest kept; 3.68 GHz by a dependent add chain),
 * against ARIA-128 ternlog (0.161 ns/B, 0.59 c/B) in the same run:
 *
 *   implementation                  ns/B   c/B    vs ARIA-128   (192/256-bit: ns/B)
 *   avx512_gfni_field       ECB    0.150   0.55      0.93x        0.198 / 0.198
 *   avx512_gfni_gfnishift   ECB    0.170   0.63      1.06x        0.226 / 0.226
 *   avx512_gfni_cmpmask     ECB    0.173   0.64      1.08x        0.230 / 0.230
 *   avx512_gfni_field       CTR    0.147   0.54      0.82x of ARIA-128 CTR (0.179 ns/B)
 *
 * With each background transpose group issued inside the round (later that day, load 3.5, the
 * same tool): field ECB 0.149 ns/B, 0.92-0.93x ARIA-128 at 16 KiB; over 1..16 KiB by slope, as
 * `asmdiff bench` measures (the per-call cost left out), 0.85-0.87x ECB and 0.78x CTR.
 *
 * AVX-512 + GFNI, 64 blocks per pass byte-sliced in zmm registers (from 128 blocks on
 * software-pipelined: each batch's rounds run beside its neighbours' transposes), a tail of up
 * to 32 blocks in ymm and of 33..63 in zmm, masked loads and stores.  The first two forms differ
 * only in FL's byte-sliced rotate (kernels/camellia/camellia-x86_64-avx512-gfni.S), the third
 * (field, below) keeps the state in the S-boxes' input field:
 *   cmpmask    each byte's top bit moved down with vpcmpltb into k1 and a masked vpaddb
 *   gfnishift  ... with one vgf2p8affineqb (x >> 7 matrix); k1 untouched */
void camellia_ecb_avx512_gfni_cmpmask(const uint64_t *sk, unsigned int rounds, uint8_t *out,
                                      const uint8_t *in, size_t nblocks);
void camellia_ecb_avx512_gfni_gfnishift(const uint64_t *sk, unsigned int rounds, uint8_t *out,
                                        const uint8_t *in, size_t nblocks);
void camellia_ctr_avx512_gfni_cmpmask(const uint64_t *sk, unsigned int rounds, uint8_t *out,
                                      const uint8_t *in, size_t nblocks, uint8_t ctr[16]);
void camellia_ctr_avx512_gfni_gfnishift(const uint64_t *sk, unsigned int rounds, uint8_t *out,
                                        const uint8_t *in, size_t nblocks, uint8_t ctr[16]);
/* field: the same passes with the state kept in the S-boxes' input field (each byte x as A x,
 * A the linear part of the S-boxes' first affine map): one GFNI per S-box (two for SBOX4), FL
 * through per-call key-dependent GFNI matrices; see the kernel's header comment. */
void camellia_ecb_avx512_gfni_field(const uint64_t *sk, unsigned int rounds, uint8_t *out,
                                    const uint8_t *in, size_t nblocks);
void camellia_ctr_avx512_gfni_field(const uint64_t *sk, unsigned int rounds, uint8_t *out,
                                    const uint8_t *in, size_t nblocks, uint8_t ctr[16]);

/* AVX2 + GFNI, 32 blocks per pass byte-sliced in ymm registers with the state on the stack; a
 * tail below 32 blocks goes through a stack buffer (kernels/camellia/camellia-x86_64-avx2-gfni.S). */
void camellia_ecb_avx2_gfni(const uint64_t *sk, unsigned int rounds, uint8_t *out,
                            const uint8_t *in, size_t nblocks);
void camellia_ctr_avx2_gfni(const uint64_t *sk, unsigned int rounds, uint8_t *out,
                            const uint8_t *in, size_t nblocks, uint8_t ctr[16]);

/* Key expansion in scalar x86-64 (kernels/camellia/camellia-x86_64-setkey.S): writes
 * CAMELLIA_KERNEL_SUBKEYS(*rounds) words of sk, exactly reference/camellia.c's layout
 * (encryption order, or decryption order if decrypt != 0), and *rounds = 18 or 24.  keylen is
 * 16, 24 or 32; for any other length nothing is written and *rounds = 0. */
void camellia_setkey_x86_64(uint64_t *sk, unsigned int *rounds, const uint8_t *key, size_t keylen,
                            int decrypt);

#endif
