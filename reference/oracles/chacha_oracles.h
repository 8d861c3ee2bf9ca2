/* chacha_oracles.h — library ChaCha20 as oracles: OpenSSL EVP (EVP_chacha20), libgcrypt
 * (GCRY_CIPHER_CHACHA20, stream mode), nettle (chacha_*).  Every library here runs 20 rounds
 * only, and none of the installed versions has XChaCha or a public HChaCha (this build's nettle,
 * 3.8, has no nettle/xchacha.h).
 *
 * One function per library: the keystream XOR of in[0, len) under key, from state words 12-15
 * (w[0..3]: counter and nonce, as the two designs read them: reference/chacha.h), the message
 * fed in successive calls on one context, cut at the byte offsets split[0..nsplit) (multiples
 * of 64, ascending).  ctr64 selects the original design's API (64-bit counter, 64-bit nonce)
 * where the library has one apart from RFC 8439's.  Returns 0, or -1 on a library error.
 *
 * What each does when word 12 passes 2^32 - 1 is its contract (docs/chacha.md), judged by the
 * family against the reference (enum chacha_ctr):
 *   OpenSSL   one API: a 16-byte IV is words 12-15; its glue carries into word 13
 *             (counter[1]++) and cuts its assembly's calls at the wrap: a 64-bit counter;
 *   libgcrypt setiv of 16 bytes sets words 12-15 (its 8- and 12-byte nonces start the counter
 *             at 0); it carries into word 13 at every nonce size;
 *   nettle    chacha_crypt32 (after chacha_set_nonce96 / set_counter32) wraps word 12;
 *             chacha_crypt (chacha_set_nonce / set_counter) carries: 64 bits. */
#ifndef ASMDIFF_CHACHA_ORACLES_H
#define ASMDIFF_CHACHA_ORACLES_H

#include <stddef.h>
#include <stdint.h>

#include "asmdiff-config.h"

#define CHACHA_ORACLE(lib)                                                                    \
    int oracle_##lib##_chacha_xor(int ctr64, const uint8_t key[32], const uint32_t w[4],      \
                                  uint8_t *out, const uint8_t *in, size_t len,                \
                                  const size_t *split, size_t nsplit);                        \
    const char *oracle_##lib##_chacha_describe(void);

#if ASMDIFF_HAVE_OPENSSL
CHACHA_ORACLE(openssl)
#endif
#if ASMDIFF_HAVE_GCRYPT
CHACHA_ORACLE(gcrypt)
#endif
#if ASMDIFF_HAVE_NETTLE
CHACHA_ORACLE(nettle)
#endif

/* The end of piece i of a message cut at split[0..nsplit) (the last ends at len). */
static inline size_t oracle_chacha_piece_end(const size_t *split, size_t nsplit, size_t i,
                                             size_t len)
{
    return i < nsplit ? split[i] : len;
}

static inline void oracle_chacha_put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

#endif
