/* nh.c — NH as Adiantum defines it (Crowley & Biggers, IACR ToSC 2018, section 6.3).
 *
 * With message words m[0 .. len/4) and key words k[0 .. 268), pass p (0..3) computes
 *
 *     sum_p = Σ over units u  of   (m[4u+0] + k[4u+4p+0]) · (m[4u+2] + k[4u+4p+2])
 *                               +  (m[4u+1] + k[4u+4p+1]) · (m[4u+3] + k[4u+4p+3])
 *
 * where each "+" inside the parentheses wraps modulo 2^32, each product is the full 64-bit
 * product of two 32-bit values, and the sum wraps modulo 2^64.  Pass p is the same
 * computation as pass 0 with the key shifted by 4 words (16 bytes): that is why the key is
 * 1024 + 3 * 16 bytes long.  The hash is sum_0 .. sum_3, each as 8 little-endian bytes.
 *
 * Written for reading, not speed: one pass at a time, one unit at a time.
 */
#include "nh.h"

#include <stdio.h>
#include <stdlib.h>

static uint32_t load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

void nh_key_from_bytes(uint32_t key[NH_KEY_WORDS], const uint8_t bytes[NH_KEY_BYTES])
{
    for (size_t i = 0; i < NH_KEY_WORDS; i++)
        key[i] = load_le32(bytes + 4 * i);
}

/* One pass over the message with the key words k (already offset by 4 * pass). */
static uint64_t nh_pass(const uint32_t *k, const uint8_t *msg, size_t units)
{
    uint64_t sum = 0;

    for (size_t u = 0; u < units; u++) {
        const uint8_t *m = msg + NH_MESSAGE_UNIT * u;
        const uint32_t *ku = k + 4 * u;
        uint32_t a0 = load_le32(m + 0) + ku[0]; /* 32-bit wrapping sums */
        uint32_t a1 = load_le32(m + 4) + ku[1];
        uint32_t a2 = load_le32(m + 8) + ku[2];
        uint32_t a3 = load_le32(m + 12) + ku[3];

        sum += (uint64_t)a0 * a2; /* 64-bit products, 64-bit wrapping sum */
        sum += (uint64_t)a1 * a3;
    }
    return sum;
}

void nh_ref(const uint32_t key[NH_KEY_WORDS], const uint8_t *msg, size_t len,
            uint8_t hash[NH_HASH_BYTES])
{
    if (len == 0 || len % NH_MESSAGE_UNIT != 0 || len > NH_MESSAGE_BYTES_MAX) {
        fprintf(stderr, "nh_ref: message length %zu is outside NH's domain "
                        "(a multiple of 16 from 16 to 1024)\n", len);
        abort();
    }
    for (int p = 0; p < NH_PASSES; p++)
        store_le64(hash + 8 * p, nh_pass(key + 4 * p, msg, len / NH_MESSAGE_UNIT));
}
