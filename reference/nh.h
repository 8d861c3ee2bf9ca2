/* nh.h — NH, the ε-almost-universal hash inside Adiantum and NHPoly1305: plain C reference.
 *
 * Specification: Crowley & Biggers, "Adiantum: length-preserving encryption for entry-level
 * processors", IACR ToSC 2018(4), section 6.3 (https://eprint.iacr.org/2018/720).  The
 * parameters are the ones Adiantum fixes: 32-bit words, stride 2, 4 passes, 64 units.
 *
 * The key is 1072 bytes read as 268 little-endian 32-bit words; nh_ref takes it already as
 * words (nh_key_from_bytes converts).  The message is 16..1024 bytes, a multiple of 16.
 * The hash is the 4 per-pass 64-bit sums, each stored little-endian: 32 bytes.
 */
#ifndef ASMDIFF_REFERENCE_NH_H
#define ASMDIFF_REFERENCE_NH_H

#include <stddef.h>
#include <stdint.h>

#define NH_KEY_BYTES         1072 /* (1024 + 16 * (NH_PASSES - 1)) bytes */
#define NH_KEY_WORDS         (NH_KEY_BYTES / 4)
#define NH_MESSAGE_UNIT      16   /* one unit: 4 message words, 2 products per pass */
#define NH_MESSAGE_BYTES_MAX 1024
#define NH_HASH_BYTES        32   /* NH_PASSES sums of 8 bytes */
#define NH_PASSES            4

/* hash = NH(key, msg[0 .. len)).  Requires len % 16 == 0 and 16 <= len <= 1024; aborts
 * otherwise (NH is not defined there; kernels document their own behaviour outside it).
 * Reads key words [0, len/4 + 12), i.e. key bytes [0, len + 48). */
void nh_ref(const uint32_t key[NH_KEY_WORDS], const uint8_t *msg, size_t len,
            uint8_t hash[NH_HASH_BYTES]);

/* key[i] = little-endian word i of the 1072-byte key. */
void nh_key_from_bytes(uint32_t key[NH_KEY_WORDS], const uint8_t bytes[NH_KEY_BYTES]);

#endif
