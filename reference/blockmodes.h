/* Modes of operation of a 128-bit block cipher, over any block function, written from their
 * specifications: CBC decryption and CTR (NIST SP 800-38A sections 6.2 and 6.5), CTR with a
 * 32-bit little-endian counter (RFC 8452 section 4, as libgcrypt calls ctr32le), and XTS
 * (IEEE 1619-2018 section 5, NIST SP 800-38E) with ciphertext stealing.  out may alias in. */
#ifndef ASMDIFF_REFERENCE_BLOCKMODES_H
#define ASMDIFF_REFERENCE_BLOCKMODES_H

#include <stddef.h>
#include <stdint.h>

/* One block with a schedule the caller owns: the forward or the inverse cipher. */
typedef void (*block_fn)(const void *ks, uint8_t out[16], const uint8_t in[16]);

/* P_i = D(C_i) ^ C_(i-1), C_(-1) = iv; iv becomes the last ciphertext block. */
void mode_cbc_decrypt(block_fn dec, const void *ks, uint8_t *out, const uint8_t *in,
                      size_t nblocks, uint8_t iv[16]);
/* out_i = in_i ^ E(ctr + i), ctr a 128-bit big-endian integer modulo 2^128; ctr advances. */
void mode_ctr(block_fn enc, const void *ks, uint8_t *out, const uint8_t *in, size_t nblocks,
              uint8_t ctr[16]);
/* The same with ctr's first four bytes a little-endian counter modulo 2^32, the other twelve
 * fixed. */
void mode_ctr32le(block_fn enc, const void *ks, uint8_t *out, const uint8_t *in, size_t nblocks,
                  uint8_t ctr[16]);
/* T times x in GF(2^128) modulo x^128 + x^7 + x^2 + x + 1, T as IEEE 1619's little-endian
 * byte string (5.2). */
void xts_mul_x(uint8_t t[16]);
/* XTS on len bytes (len >= 16, or 0) with the block function f (E for encryption, D for
 * decryption) under ks and the tweak T of the first block (already E_K2(i)); a final partial
 * block by ciphertext stealing.  tweak becomes T * x^(len / 16). */
void mode_xts(block_fn f, const void *ks, int decrypt, uint8_t *out, const uint8_t *in,
              size_t len, uint8_t tweak[16]);

#endif
