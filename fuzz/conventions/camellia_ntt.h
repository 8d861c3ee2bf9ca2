/* camellia_ntt.h — the Camellia cipher context Linux's and libgcrypt's assembly read, shared by
 * fuzz/conventions/linux_camellia.c and libgcrypt_camellia.c.
 *
 * Both take a context whose first 272 bytes are a key table in the layout of NTT's reference
 * code (libgcrypt cipher/camellia.c, Linux arch/x86/crypto/camellia_glue.c: the same layout),
 * followed at 272 by the key length: libgcrypt's CAMELLIA_context.keybitlength in bits,
 * Linux's struct camellia_ctx.key_length in bytes (camellia.h); the assembly compares it with
 * 128 or 16 to choose 18 or 24 rounds.  Both directions read the encryption table.
 *
 * The table is the RFC's subkeys rearranged for a faster data path, which we derive here from
 * our reference's schedule (whose order of use is the same index order as theirs):
 *   1. kw2, XORed into the right half at the start, is carried instead as an offset in that
 *      half: it reaches the F-function input of the even rounds, so those round keys absorb
 *      it, and it passes each FL^-1 layer changed (fl_offset); kw3 absorbs what is left.
 *      kw4 is carried backwards the same way through the odd rounds and the FL layers into kw1.
 *   2. Each round key is XORed at the end of the previous F-function instead of at the start
 *      of its own: the half that receives round j's output must then hold round j+1's key
 *      and lose round j-1's, so entry j holds k(j-1) ^ k(j+1), where a key that crosses an
 *      FL layer is moved through it by fl_offset.  Entry 0 is the pre-whitening (kw1 ^ k1),
 *      entry 1 is unused, the FL keys keep their places, the last entry is kw3 ^ k(last).
 * Each 64-bit entry is stored as the assembly loads it: the RFC's left 32-bit word first. */
#ifndef ASMDIFF_CONVENTIONS_CAMELLIA_NTT_H
#define ASMDIFF_CONVENTIONS_CAMELLIA_NTT_H

#include <stdint.h>
#include <string.h>

#include "bc_upstream.h"
#include "reference/camellia.h"

#define UPSTREAM_CTX_LENGTH 272
#define UPSTREAM_CTX_BYTES 276

static inline uint32_t rol32_1(uint32_t x)
{
    return x << 1 | x >> 31;
}

/* An offset d (left word in the high half, as the RFC writes 64-bit values) carried into an
 * FL^-1 layer with key ke comes out as the value returned; the same map gives the offset that
 * must go into an FL layer with key ke for d to come out of it. */
static inline uint64_t fl_offset(uint64_t d, uint64_t ke)
{
    uint32_t l = (uint32_t)(d >> 32), r = (uint32_t)d;
    l ^= r & ~(uint32_t)ke;
    r ^= rol32_1(l & (uint32_t)(ke >> 32));
    return (uint64_t)l << 32 | r;
}

/* Round j (1-based) of our schedule's order: kw1 kw2 | six rounds | two FL keys | ... */
static inline size_t round_at(unsigned j)
{
    return 2 + (j - 1) + 2 * ((j - 1) / 6);
}

static inline void upstream_table(uint8_t table[UPSTREAM_CTX_LENGTH], const uint64_t *sk, unsigned rounds)
{
    unsigned groups = rounds / 6;
    size_t n = CAMELLIA_SUBKEYS(rounds);
    uint64_t k[CAMELLIA_MAX_SUBKEYS] = {0}, t[CAMELLIA_MAX_SUBKEYS] = {0};
    memcpy(k, sk, n * sizeof *k);
    /* 1: kw2 forward through the even rounds, kw4 backward through the odd ones */
    uint64_t d = k[1];
    for (unsigned g = 0; g < groups; g++) {
        for (unsigned j = 6 * g + 2; j <= 6 * g + 6; j += 2) k[round_at(j)] ^= d;
        if (g + 1 < groups) d = fl_offset(d, k[8 * (g + 1) + 1]);
    }
    k[n - 2] ^= d;
    d = k[n - 1];
    for (unsigned g = groups; g-- > 0;) {
        for (unsigned j = 1; j <= 5; j += 2) k[round_at(6 * g + j)] ^= d;
        if (g > 0) d = fl_offset(d, k[8 * g]);
    }
    k[0] ^= d;
    /* 2: every key at the end of the F-function before its own */
#define K(j) k[round_at(j)]
    t[0] = k[0] ^ K(1);
    for (unsigned j = 1; j <= rounds; j++) {
        uint64_t v;
        if (j == 1) v = K(2);
        else if (j == rounds) v = K(rounds - 1);
        else if (j % 6 == 0) v = K(j - 1) ^ fl_offset(K(j + 1), k[8 * (j / 6)]);
        else if (j % 6 == 1) v = K(j + 1) ^ fl_offset(K(j - 1), k[8 * (j / 6) + 1]);
        else v = K(j - 1) ^ K(j + 1);
        t[round_at(j)] = v;
    }
#undef K
    for (unsigned g = 1; g < groups; g++) t[8 * g] = k[8 * g], t[8 * g + 1] = k[8 * g + 1];
    t[n - 2] = k[n - 2] ^ k[round_at(rounds)];
    memset(table, 0, UPSTREAM_CTX_LENGTH);
    for (size_t i = 0; i < n; i++) {
        uint32_t w[2] = {(uint32_t)(t[i] >> 32), (uint32_t)t[i]};
        memcpy(table + 8 * i, w, 8);
    }
}

/* The context from the reference's encryption schedule (struct bc_keys.enc: struct
 * camellia_key's sk[]), the key length in bytes (Linux's key_length) or in bits (libgcrypt's
 * keybitlength) at 272. */
static inline void camellia_upstream_context(uint8_t ctx[UPSTREAM_CTX_BYTES],
                                             const struct bc_keys *k, int length_in_bytes)
{
    upstream_table(ctx, k->enc, k->rounds);
    uint32_t length = (uint32_t)(length_in_bytes ? k->keylen : 8 * k->keylen);
    memcpy(ctx + UPSTREAM_CTX_LENGTH, &length, sizeof length);
}

#endif
