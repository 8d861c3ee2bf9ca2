/* aria.h — the ARIA family's kernel interface (x86-64).
 *
 * Every kernel computes what reference/aria.c computes (RFC 5794): ECB over nblocks 16-byte
 * blocks, and counter mode with a 128-bit big-endian counter.  The kernels do no key
 * expansion: they take the round keys that reference/aria.c's aria_set_encrypt_key or
 * aria_set_decrypt_key produced, as bytes.
 *
 *   rk      (rounds + 1) round keys of 16 bytes each, in order: struct aria_key's rk[0..rounds]
 *           (reference/aria.h), i.e. `&key.rk[0][0]`.  Only rk[0 .. (rounds+1)*16) is read.
 *   rounds  12, 14 or 16 (128-, 192-, 256-bit keys); any other value is outside the contract.
 *           A 32-bit argument: the kernels read only its low 32 bits.
 *   out,in  nblocks * 16 bytes each; out == in (in place) is allowed, other overlap is not.
 *           Exactly in[0, 16*nblocks) is read and out[0, 16*nblocks) written, for any nblocks
 *           including 0; no alignment is required.
 *
 * ECB encrypts with an encryption key schedule and decrypts with a decryption key schedule:
 * ARIA's decryption is its encryption process run with the decryption round keys (RFC 5794
 * section 2.3.2; reference/aria.c aria_set_decrypt_key), so one entry point serves both.
 *
 * CTR: out[i] = in[i] ^ E(ctr + i), ctr a 128-bit big-endian integer carried across all 16
 * bytes and wrapping modulo 2^128; on return ctr holds ctr + nblocks (the next unused value),
 * so consecutive calls continue one stream.  Always takes an encryption key schedule;
 * encrypts and decrypts alike.  ctr must not overlap out.
 *
 * Register hygiene: the kernels use only caller-saved general registers (and the stack), and
 * before returning zero every vector and opmask register they wrote, so that no key-derived
 * value stays behind; they end with vzeroupper.
 *
 * What each kernel needs from the CPU (and from the OS: XSAVE-enabled YMM, and for AVX-512
 * ZMM/opmask state):
 *   *_avx512_gfni_*  AVX-512 F, BW, VL and GFNI.
 *   *_avx2_gfni      AVX2 and GFNI (VEX-encoded GFNI on ymm), no AVX-512.
 */
#ifndef ASMDIFF_KERNELS_ARIA_H
#define ASMDIFF_KERNELS_ARIA_H

#include <stddef.h>
#include <stdint.h>

/* AVX-512 + GFNI, 64 blocks per pass byte-sliced in zmm registers, a tail of up to 32 blocks in
 * ymm and of 33..63 blocks in zmm, both with masked loads and stores.  The two forms differ
 * only in how each 3-way XOR of the diffusion layer is done: "xor" as two vpxorq, "ternlog" as
 * one vpternlogq $0x96 (kernels/aria/aria-x86_64-avx512-gfni.S). */
void aria_ecb_avx512_gfni_xor(const uint8_t *rk, unsigned int rounds, uint8_t *out,
                              const uint8_t *in, size_t nblocks);
void aria_ecb_avx512_gfni_ternlog(const uint8_t *rk, unsigned int rounds, uint8_t *out,
                                  const uint8_t *in, size_t nblocks);
void aria_ctr_avx512_gfni_xor(const uint8_t *rk, unsigned int rounds, uint8_t *out,
                              const uint8_t *in, size_t nblocks, uint8_t ctr[16]);
void aria_ctr_avx512_gfni_ternlog(const uint8_t *rk, unsigned int rounds, uint8_t *out,
                                  const uint8_t *in, size_t nblocks, uint8_t ctr[16]);

/* AVX2 + GFNI, 32 blocks per pass byte-sliced in ymm registers with the state on the stack; a
 * tail below 32 blocks goes through a stack buffer (kernels/aria/aria-x86_64-avx2-gfni.S). */
void aria_ecb_avx2_gfni(const uint8_t *rk, unsigned int rounds, uint8_t *out, const uint8_t *in,
                        size_t nblocks);
void aria_ctr_avx2_gfni(const uint8_t *rk, unsigned int rounds, uint8_t *out, const uint8_t *in,
                        size_t nblocks, uint8_t ctr[16]);

#endif
