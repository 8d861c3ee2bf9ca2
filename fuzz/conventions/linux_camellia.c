/* linux_camellia.c — Linux's Camellia assembly (arch/x86/crypto/camellia-aesni-avx-asm_64.S and
 * camellia-aesni-avx2-asm_64.S) as a convention of the camellia family (./asmdiff check
 * camellia --convention linux).
 *
 * Its glue (camellia_aesni_avx_glue.c, camellia_aesni_avx2_glue.c) declares
 * camellia_ecb_enc_Nway(ctx, dst, src) and camellia_ecb_dec_Nway, each exactly N blocks: 16 for
 * the AVX file, 32 for the AVX2 one.  ctx is struct camellia_ctx (camellia.h): the NTT key
 * table and key_length in bytes at 272 (camellia_ntt.h).  (The CBC decryption entry points are
 * not operations of the family.) */
#include "camellia_ntt.h"

static void context(uint8_t *ctx, const struct bc_keys *k)
{
    camellia_upstream_context(ctx, k, 1);
}

static const struct bc_entry rows[] = {
    {"ecb_enc_16way", BC_DOES_ENC, 16, BC_CTX_DST_SRC, 0, NULL, 0},
    {"ecb_dec_16way", BC_DOES_DEC, 16, BC_CTX_DST_SRC, 0, NULL, 0},
    {"ecb_enc_32way", BC_DOES_ENC, 32, BC_CTX_DST_SRC, 0, NULL, 0},
    {"ecb_dec_32way", BC_DOES_DEC, 32, BC_CTX_DST_SRC, 0, NULL, 0},
};

BC_UPSTREAM_CONVENTION(
    linux, camellia, rows, context, UPSTREAM_CTX_BYTES, 0, CONV_LINUX_LEFTOVERS,
    "asmlinkage void camellia_ecb_enc_16way(const void *ctx, u8 *dst, const u8 *src) (and "
    "camellia_ecb_dec_16way; the 32way ones of camellia-aesni-avx2-asm_64.S): exactly N "
    "blocks; ctx = struct camellia_ctx (the NTT key table, key_length in bytes at 272)");
