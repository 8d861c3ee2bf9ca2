/* linux_aria.c — Linux's ARIA assembly (arch/x86/crypto/aria-*-asm_64.S) as a convention of the
 * aria family (./asmdiff check aria --convention linux).
 *
 * Linux's glue (aria_aesni_avx_glue.c, aria_aesni_avx2_glue.c, aria_gfni_avx512_glue.c)
 * declares three entry points per width, each exactly N blocks: encrypt_Nway(ctx, dst, src),
 * decrypt_Nway, and ctr_crypt_Nway(ctx, dst, src, keystream, iv), iv a 128-bit big-endian
 * counter carried across all 16 bytes and advanced by N, keystream N blocks of scratch the call
 * writes.  N is 16 for the AVX file (AES-NI and GFNI variants), 32 for the AVX2 one, 64 for the
 * GFNI AVX-512 one.  ctx is struct aria_ctx (aria_ctx.h). */
#include "aria_ctx.h"

static const struct bc_entry rows[] = {
    {"encrypt_16way", BC_DOES_ENC, 16, BC_CTX_DST_SRC, 0, NULL, 0},
    {"decrypt_16way", BC_DOES_DEC, 16, BC_CTX_DST_SRC, 0, NULL, 0},
    {"ctr_crypt_16way", BC_DOES_CTR, 16, BC_CTX_DST_SRC_KS_IV, 0, NULL, 0},
    {"encrypt_32way", BC_DOES_ENC, 32, BC_CTX_DST_SRC, 0, NULL, 0},
    {"decrypt_32way", BC_DOES_DEC, 32, BC_CTX_DST_SRC, 0, NULL, 0},
    {"ctr_crypt_32way", BC_DOES_CTR, 32, BC_CTX_DST_SRC_KS_IV, 0, NULL, 0},
    {"encrypt_64way", BC_DOES_ENC, 64, BC_CTX_DST_SRC, 0, NULL, 0},
    {"decrypt_64way", BC_DOES_DEC, 64, BC_CTX_DST_SRC, 0, NULL, 0},
    {"ctr_crypt_64way", BC_DOES_CTR, 64, BC_CTX_DST_SRC_KS_IV, 0, NULL, 0},
};

BC_UPSTREAM_CONVENTION(
    linux, aria, rows, aria_upstream_context, ARIA_CTX_BYTES, 0, CONV_LINUX_LEFTOVERS,
    "asmlinkage void aria_aesni_avx_encrypt_16way(const void *ctx, u8 *dst, const u8 *src), "
    "..._decrypt_16way, ..._ctr_crypt_16way(ctx, dst, src, u8 *keystream, u8 *iv), and the "
    "32way (aria-aesni-avx2-asm_64.S) and 64way (aria-gfni-avx512-asm_64.S) ones: exactly N "
    "blocks per call, ctx = struct aria_ctx (round keys at 0 and 272, rounds at 544), iv a "
    "128-bit big-endian counter, keystream N blocks of scratch");
