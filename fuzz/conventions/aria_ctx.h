/* aria_ctx.h — the ARIA cipher context Linux's and libgcrypt's assembly read, shared by
 * fuzz/conventions/linux_aria.c and libgcrypt_aria.c.
 *
 * libgcrypt's ARIA_context (cipher/aria.c) and Linux's struct aria_ctx (include/crypto/aria.h)
 * lay out what the assembly reads the same way (Linux's asm-offsets: enc_key 0, dec_key 272,
 * rounds 544; verify/outside/linux-compat/asm/asm-offsets.h): the encryption round keys at 0,
 * the decryption ones at 272, as 32-bit words in host order of the big-endian key words (the
 * reference's bytes reversed in each group of four), and the round count as an int at 544.
 * Only the offsets are facts we use; nothing of either file is copied. */
#ifndef ASMDIFF_CONVENTIONS_ARIA_CTX_H
#define ASMDIFF_CONVENTIONS_ARIA_CTX_H

#include <string.h>

#include "bc_upstream.h"
#include "reference/aria.h"

#define ARIA_CTX_DEC 272
#define ARIA_CTX_ROUNDS 544
#define ARIA_CTX_BYTES 548

/* k: the reference's schedules (struct aria_key: rk[] from the start) */
static inline void aria_upstream_context(uint8_t *ctx, const struct bc_keys *k)
{
    const struct aria_key *ek = k->enc, *dk = k->dec;
    memset(ctx, 0, ARIA_CTX_BYTES);
    for (int r = 0; r <= ek->rounds; r++)
        for (int b = 0; b < 16; b++) {
            ctx[16 * r + (b ^ 3)] = ek->rk[r][b];
            ctx[ARIA_CTX_DEC + 16 * r + (b ^ 3)] = dk->rk[r][b];
        }
    int rounds = ek->rounds;
    memcpy(ctx + ARIA_CTX_ROUNDS, &rounds, sizeof rounds);
}

#endif
