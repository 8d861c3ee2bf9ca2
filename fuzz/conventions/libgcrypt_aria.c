/* libgcrypt_aria.c — libgcrypt's ARIA assembly (cipher/aria-gfni-avx512-amd64.S, 1.11 and
 * later) as a convention of the aria family (./asmdiff check aria --convention libgcrypt).
 *
 * Its 64-block entry points take the cipher context (aria_ctx.h): _ecb_crypt_blk64(ctx, out,
 * in, key), either direction, the key pointer choosing (the encryption round keys at 0 or the
 * decryption ones at 272), and _ctr_crypt_blk64(ctx, out, in, iv).  CTR is libgcrypt's ctr16be
 * bulk interface: its caller (cipher/cipher-ctr.c) never lets the low 16 bits of the
 * big-endian counter wrap inside a call and fixes the counter itself when a call ends exactly
 * on the wrap, so only cases whose whole run stays below it are the kernel's contract. */
#include "aria_ctx.h"

static const struct bc_entry rows[] = {
    {"ecb", BC_DOES_ENC | BC_DOES_DEC, 64, BC_CTX_DST_SRC_KEY, 0, "ecb_crypt_blk64", 0},
    {"ctr", BC_DOES_CTR, 64, BC_CTX_DST_SRC_IV, 0, "ctr_crypt_blk64", 0},
};

BC_UPSTREAM_CONVENTION(
    libgcrypt, aria, rows, aria_upstream_context, ARIA_CTX_BYTES, CONV_CLEAN_VECTORS,
    "the C caller wipes the stack depth the function returns (_gcry_burn_stack)",
    "unsigned int _gcry_aria_gfni_avx512_ecb_crypt_blk64(const void *ctx, byte *out, "
    "const byte *in, const void *key) and ..._ctr_crypt_blk64(ctx, out, in, byte *iv): 64 "
    "blocks per call, ctx = ARIA_context (round keys, rounds at 544); CTR as ctr16be: the low "
    "16 counter bits do not wrap inside a call",
    .dec_key_offset = ARIA_CTX_DEC, .ctr = BC_CTR_LOW16_NO_WRAP);
