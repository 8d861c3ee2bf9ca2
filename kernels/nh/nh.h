/* nh.h — the NH family's kernel interface (x86-64).
 *
 * Every kernel computes what reference/nh.c computes: hash = NH(key, message), the 4 per-pass
 * 64-bit sums stored little-endian, for the Adiantum parameters (1072-byte key as 268
 * 32-bit words, 4 passes, key stride 16 bytes per pass).
 *
 *   void nh_<isa>[_<form>](const uint32_t *key, const uint8_t *message, size_t message_len,
 *                          uint8_t hash[32]);
 *
 * Length precondition, common to all kernels here: message_len is a nonzero multiple of 16
 * and at most 1024.  Each .S states exactly what its code does at and beyond that edge; in
 * short, all three ignore the low 4 bits of message_len, write an all-zero hash when
 * message_len < 16, and for n = message_len & ~15 read exactly message[0, n) and key bytes
 * [0, n + 48), so n > 1024 reads past a 1072-byte key.
 *
 * No alignment is required of key, message or hash.  The kernels use only caller-saved
 * registers, no stack, and clear every vector register they used before returning.
 */
#ifndef ASMDIFF_KERNELS_NH_H
#define ASMDIFF_KERNELS_NH_H

#include <stddef.h>
#include <stdint.h>

/* SSE2, add-then-permute: add message words to key words, then two pshufd per pass put the
 * 32-bit sums where pmuludq multiplies them (8 pshufd per 16 bytes). */
void nh_sse2_addperm(const uint32_t *key, const uint8_t *message, size_t message_len,
                     uint8_t hash[32]);

/* SSE2, permute-on-load: message and key words are put in order 0,2,1,3 as they are loaded,
 * added, and multiplied as adjacent pairs (6 pshufd per 16 bytes). */
void nh_sse2_permload(const uint32_t *key, const uint8_t *message, size_t message_len,
                      uint8_t hash[32]);

/* AVX2, permute-on-load, two 16-byte units per ymm register.  Needs AVX2 (and OS YMM state). */
void nh_avx2(const uint32_t *key, const uint8_t *message, size_t message_len,
             uint8_t hash[32]);

#endif
