/* aes.h — the AES family's kernel interface (x86-64).
 *
 * Every kernel computes what reference/aes.c and reference/blockmodes.c compute: AES
 * (FIPS-197) in ECB, CBC decryption, CTR with a 128-bit big-endian counter (SP 800-38A),
 * CTR with a 32-bit little-endian counter in the first four bytes (libgcrypt's ctr32le, as
 * AES-GCM-SIV uses it, RFC 8452 section 4), and XTS (IEEE 1619-2018, SP 800-38E) with
 * ciphertext stealing.  The kernels do no key expansion: they take the round keys that
 * reference/aes.c's aes_expand_key produced, as bytes.
 *
 *   ks      (rounds + 1) round keys of 16 bytes each, FIPS-197 byte order (round key i is
 *           w[4i..4i+3], each word's bytes in order).  For encryption and CTR, the key
 *           expansion's w[] (struct aes_key's rk[0..rounds]).  For decryption, the equivalent
 *           inverse cipher's schedule (FIPS-197 section 5.3.5) in the order the AES-NI
 *           aesdec instruction consumes it: with rk[] the encryption round keys,
 *           dk[0] = rk[rounds], dk[i] = InvMixColumns(rk[rounds - i]) for 0 < i < rounds,
 *           dk[rounds] = rk[0] (aes_expand_key_decrypt's rk[]).  Only ks[0 ..
 *           (rounds+1)*16) is read.
 *   rounds  10, 12 or 14 (128-, 192-, 256-bit keys); any other value is outside the contract.
 *           A 32-bit argument: the kernels read only its low 32 bits.
 *   out,in  the data; out == in (in place) is allowed, other overlap is not.  Exactly the
 *           data's bytes are read and written, for any count including 0 (XTS: any len >=
 *           16, and 0); no alignment is required.
 *
 * ECB:  out[i] = E(in[i]) with an encryption schedule (aes_ecb_enc_*), D(in[i]) with a
 *       decryption schedule (aes_ecb_dec_*).
 * CBC decryption (SP 800-38A 6.2): out[i] = D(in[i]) ^ (i ? in[i-1] : iv); on return iv holds
 *       in[nblocks-1] (unchanged when nblocks is 0), so consecutive calls continue one
 *       message.  Takes a decryption schedule.  In place works (the kernel keeps the
 *       ciphertext blocks it still needs).
 * CTR:  out[i] = in[i] ^ E(ctr + i), ctr a 128-bit big-endian integer carried across all 16
 *       bytes and wrapping modulo 2^128; on return ctr holds ctr + nblocks.
 * CTR32LE: the same with the counter block's first four bytes a little-endian 32-bit integer
 *       that wraps modulo 2^32 without carrying into the other twelve bytes, which stay as
 *       they are; on return ctr holds the next counter block.
 * XTS:  len >= 16 bytes (or 0: nothing), one data unit or a piece of one.  tweak on entry is
 *       the encrypted tweak of the first block, T = E_K2(i) (the caller encrypts the data
 *       unit number with the second key: an aes_ecb_enc_* call); block j is
 *       out_j = E(in_j ^ T*x^j) ^ T*x^j (D for decryption) in GF(2^128) modulo
 *       x^128 + x^7 + x^2 + x + 1, with IEEE 1619's little-endian byte order of T.  A final
 *       partial block (len % 16 != 0) is handled by ciphertext stealing (IEEE 1619-2018
 *       5.3.2 and 5.4.2: decryption takes the last full block with the later tweak and the
 *       stolen one with the earlier).  On return tweak holds T*x^(len/16), the tweak of the
 *       next block, so a data unit may be split across calls at whole blocks, only the last
 *       piece having a partial block (after such a piece the tweak's value is unspecified).
 *       Encryption takes the encryption schedule of K1, decryption K1's decryption schedule.
 *
 * Register hygiene: the kernels use only caller-saved general registers (and the stack), and
 * before returning zero every vector and opmask register they wrote, so that no key-derived
 * value stays behind; they end with vzeroupper.
 *
 * What each kernel needs from the CPU (and from the OS: XSAVE-enabled YMM, and for AVX-512
 * ZMM/opmask state):
 *   *_vaes_avx512_*  AVX-512 F, BW, VL, VAES and VPCLMULQDQ, and AES-NI and PCLMULQDQ (the
 *                    single blocks of the tails and the tweak run VEX.128 vaesenc and
 *                    vpclmulqdq, whose features are AES and PCLMULQDQ: the ISA-subset check).
 *   *_vaes_avx2_*    AVX2, VAES and VPCLMULQDQ on ymm, and AES-NI and PCLMULQDQ likewise; no
 *                    AVX-512.
 */
#ifndef ASMDIFF_KERNELS_AES_H
#define ASMDIFF_KERNELS_AES_H

#include <stddef.h>
#include <stdint.h>

/* One form's entry points: aes_ecb_enc_<form>, ..., aes_xts_dec_<form>. */
#define AES_KERNEL_FORM(form)                                                                 \
    void aes_ecb_enc_##form(const uint8_t *ks, unsigned int rounds, uint8_t *out,             \
                            const uint8_t *in, size_t nblocks);                               \
    void aes_ecb_dec_##form(const uint8_t *ks, unsigned int rounds, uint8_t *out,             \
                            const uint8_t *in, size_t nblocks);                               \
    void aes_cbc_dec_##form(const uint8_t *ks, unsigned int rounds, uint8_t *out,             \
                            const uint8_t *in, size_t nblocks, uint8_t iv[16]);               \
    void aes_ctr_##form(const uint8_t *ks, unsigned int rounds, uint8_t *out,                 \
                        const uint8_t *in, size_t nblocks, uint8_t ctr[16]);                  \
    void aes_ctr32le_##form(const uint8_t *ks, unsigned int rounds, uint8_t *out,             \
                            const uint8_t *in, size_t nblocks, uint8_t ctr[16]);              \
    void aes_xts_enc_##form(const uint8_t *ks, unsigned int rounds, uint8_t *out,             \
                            const uint8_t *in, size_t len, uint8_t tweak[16]);                \
    void aes_xts_dec_##form(const uint8_t *ks, unsigned int rounds, uint8_t *out,             \
                            const uint8_t *in, size_t len, uint8_t tweak[16]);

/* VAES + AVX-512 on zmm, 16 blocks (four zmm) per pass, tails with masked loads and stores.
 * The two forms differ in the two modes with a real design choice:
 *   clmul: XTS computes the next tweaks by carry-less multiplication by x^k (vpclmulqdq);
 *          CTR adds in 32-bit lanes while the low 32 bits of the counter cannot carry in the
 *          pass, and takes a carry path when they can.
 *   shift: XTS computes the next tweaks by shifts and ternary-logic carries;
 *          CTR does full 128-bit increments on every block.
 * (kernels/aes/aes-x86_64-vaes-avx512-{clmul,shift}.S) */
AES_KERNEL_FORM(vaes_avx512_clmul)
AES_KERNEL_FORM(vaes_avx512_shift)

/* VAES + AVX2 on ymm, 16 blocks (eight ymm) per pass; the same two forms
 * (kernels/aes/aes-x86_64-vaes-avx2-{clmul,shift}.S). */
AES_KERNEL_FORM(vaes_avx2_clmul)
AES_KERNEL_FORM(vaes_avx2_shift)

#endif
