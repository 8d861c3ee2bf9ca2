/* chacha.h — the ChaCha family's kernel interface (x86-64).
 *
 * Every kernel computes what reference/chacha.c's chacha_xor computes: dst = src ^ keystream
 * for len bytes, the keystream's blocks from the 16-word state (constants, key, words 12-15)
 * at nrounds rounds, one block per 64 bytes, the counter advanced by one per block:
 *
 *   void chacha_ctr32_<isa>[_<form>](uint32_t state[16], uint8_t *dst, const uint8_t *src,
 *                                    size_t len, unsigned int nrounds);
 *     RFC 8439: word 12 is a 32-bit counter; at 2^32 it wraps to 0 and word 13 (the nonce's
 *     first word) is left alone (Linux's convention: its glue forbids messages that reach it);
 *   void chacha_ctr64_<isa>[_<form>](...);
 *     the original design: words 12-13 one 64-bit counter (word 12 low), wrapping at 2^64.
 *
 * On return words 12-13 of the state hold the counter after ceil(len / 64) blocks: a message
 * may be continued by a second call on the same state when every call but the last takes a
 * multiple of 64 bytes.  No other word is written; len == 0 writes nothing.  nrounds is 8, 12
 * or 20 (any even nonzero count works).  dst may equal src; no alignment required; the
 * kernels read src[0, len) and the state, write dst[0, len) and state words 12-13, use no stack,
 * and leave no data in vector or opmask registers.
 */
#ifndef ASMDIFF_KERNELS_CHACHA_H
#define ASMDIFF_KERNELS_CHACHA_H

#include <stddef.h>
#include <stdint.h>

#define CHACHA_KERNEL(name)                                                                   \
    void name(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t len,               \
              unsigned int nrounds);

/* AVX-512F (+BW for the tail), sixteen blocks a batch in zmm lanes, every rotation a vprold. */
CHACHA_KERNEL(chacha_ctr32_x86_64_avx512_zmm)
CHACHA_KERNEL(chacha_ctr64_x86_64_avx512_zmm)
/* AVX-512VL (+BW), eight blocks a batch in ymm lanes, every rotation a vprold. */
CHACHA_KERNEL(chacha_ctr32_x86_64_avx512vl_prold)
CHACHA_KERNEL(chacha_ctr64_x86_64_avx512vl_prold)
/* AVX-512VL+BW, the same batch, rotations by 16 and 8 as vpshufb, by 12 and 7 as shifts + or. */
CHACHA_KERNEL(chacha_ctr32_x86_64_avx512vl_shuf)
CHACHA_KERNEL(chacha_ctr64_x86_64_avx512vl_shuf)
/* AVX2, four blocks a batch, two per ymm in rows. */
CHACHA_KERNEL(chacha_ctr32_x86_64_avx2)
CHACHA_KERNEL(chacha_ctr64_x86_64_avx2)

#endif
