/* chacha.h — ChaCha (RFC 8439 section 2; Bernstein, "ChaCha, a variant of Salsa20", 2008) and
 * HChaCha20 / XChaCha20 (draft-irtf-cfrg-xchacha-03 sections 2.2 and 2.3): plain C reference.
 *
 * The state is 16 little-endian 32-bit words: the constants "expand 32-byte k" (words 0-3), the
 * 256-bit key (4-11), and words 12-15, which the two designs read differently:
 *   RFC 8439 ("ietf"):     word 12 the 32-bit block counter, words 13-15 the 96-bit nonce;
 *   the original design:   words 12-13 the 64-bit block counter (12 low), 14-15 the nonce.
 * The reference takes words 12-15 as given and says, per call, how the counter advances when
 * word 12 passes 2^32 - 1 (enum chacha_ctr): wrap to 0 and leave word 13 alone (the 32-bit
 * counter taken literally), or carry into word 13 (the 64-bit counter; word 13 is then the
 * first nonce word of an ietf nonce).  RFC 8439 does not define a message that long (its
 * counter is 32 bits: 256 GiB at most); what an implementation does there is its own contract
 * (docs/chacha.md).
 */
#ifndef ASMDIFF_REFERENCE_CHACHA_H
#define ASMDIFF_REFERENCE_CHACHA_H

#include <stddef.h>
#include <stdint.h>

#define CHACHA_KEY_BYTES 32
#define CHACHA_BLOCK_BYTES 64
#define HCHACHA_NONCE_BYTES 16
#define XCHACHA_NONCE_BYTES 24

enum chacha_ctr {
    CHACHA_CTR32_WRAP,  /* word 12 wraps to 0; word 13 untouched */
    CHACHA_CTR64,       /* words 12-13 one 64-bit counter (wraps at 2^64) */
};

/* The 16-word state from the key and words 12-15. */
void chacha_init(uint32_t state[16], const uint8_t key[CHACHA_KEY_BYTES], const uint32_t w12_15[4]);

/* The block function (RFC 8439 2.3) at nrounds (8, 12 or 20: nrounds / 2 double rounds):
 * out = serialize(rounds(state) + state).  The state is not changed. */
void chacha_block(const uint32_t state[16], unsigned nrounds, uint8_t out[CHACHA_BLOCK_BYTES]);

/* Advance the counter by one block as ctr says. */
void chacha_advance(uint32_t state[16], enum chacha_ctr ctr);

/* out = in ^ keystream for len bytes (RFC 8439 2.4), from the state's counter on; the state's
 * counter advances by ceil(len / 64) blocks.  out may equal in. */
void chacha_xor(uint32_t state[16], unsigned nrounds, enum chacha_ctr ctr, uint8_t *out,
                const uint8_t *in, size_t len);

/* HChaCha (draft-irtf-cfrg-xchacha-03 2.2): the state from key and 16 nonce bytes in words
 * 12-15, nrounds rounds without the final addition, words 0-3 and 12-15 serialized. */
void hchacha(const uint8_t key[CHACHA_KEY_BYTES], const uint8_t nonce[HCHACHA_NONCE_BYTES],
             unsigned nrounds, uint8_t subkey[CHACHA_KEY_BYTES]);

/* XChaCha (draft 2.3; XChaCha20 at nrounds 20): the subkey from HChaCha at nrounds over the nonce's first 16 bytes, then the
 * ietf ChaCha20 under it with nonce 0^4 || nonce[16..24) and the 32-bit counter ctr, as ctr
 * mode says at its wrap. */
void xchacha_xor(const uint8_t key[CHACHA_KEY_BYTES], const uint8_t nonce[XCHACHA_NONCE_BYTES],
                 uint32_t counter, unsigned nrounds, enum chacha_ctr ctr, uint8_t *out,
                 const uint8_t *in, size_t len);

#endif
