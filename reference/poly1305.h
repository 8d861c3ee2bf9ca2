/* poly1305.h — Poly1305, the one-time authenticator of RFC 8439 section 2.5: plain C reference.
 *
 * Specification: RFC 8439, "ChaCha20 and Poly1305 for IETF Protocols", section 2.5 (the
 * algorithm, clamping in 2.5.1) and 2.5.2 (the worked example).  The 32-byte one-time key is
 * r (bytes 0..15, clamped) and s (bytes 16..31).  Each 16-byte block of the message, read as a
 * little-endian number with one more byte 0x01 on top (2^128 added; a final shorter block gets
 * its 0x01 byte right after its last byte), is added into the accumulator, which is then
 * multiplied by r modulo p = 2^130 - 5.  The tag is (accumulator mod p + s) mod 2^128,
 * little-endian.
 *
 * The streaming form (init / blocks / final) is what the kernels' contract is judged against:
 * blocks takes whole 16-byte blocks with the top bit 2^128 added when hibit is 1 (a caller pads
 * a final partial block itself: its bytes, 0x01, zeros, and hibit 0).  set_acc starts from any
 * accumulator value (a chained state), which is then taken modulo p.
 */
#ifndef ASMDIFF_REFERENCE_POLY1305_H
#define ASMDIFF_REFERENCE_POLY1305_H

#include <stddef.h>
#include <stdint.h>

#define POLY1305_KEY_BYTES   32
#define POLY1305_BLOCK_BYTES 16
#define POLY1305_TAG_BYTES   16

/* Numbers as five 26-bit limbs in 64-bit words: every product of two limbs and every sum of
 * five of them fits without thought. */
struct poly1305_ref {
    uint64_t r[5]; /* the clamped r */
    uint64_t h[5]; /* the accumulator, partially reduced */
    uint8_t s[16];
};

void poly1305_ref_init(struct poly1305_ref *ctx, const uint8_t key[POLY1305_KEY_BYTES]);
/* The accumulator := acc, a little-endian number of 17 bytes (any value below 2^136). */
void poly1305_ref_set_acc(struct poly1305_ref *ctx, const uint8_t acc[17]);
/* For each block: acc = (acc + block + hibit * 2^128) * r mod p.  hibit is 0 or 1. */
void poly1305_ref_blocks(struct poly1305_ref *ctx, const uint8_t *m, size_t nblocks,
                         unsigned hibit);
/* tag = (acc mod p + s) mod 2^128. */
void poly1305_ref_final(const struct poly1305_ref *ctx, uint8_t tag[POLY1305_TAG_BYTES]);
/* The whole MAC of RFC 8439 section 2.5.1 over msg[0, len). */
void poly1305_ref_mac(uint8_t tag[POLY1305_TAG_BYTES], const uint8_t *msg, size_t len,
                      const uint8_t key[POLY1305_KEY_BYTES]);
/* acc mod p, fully reduced, as 17 little-endian bytes (for reports). */
void poly1305_ref_acc(const struct poly1305_ref *ctx, uint8_t acc[17]);

#endif
