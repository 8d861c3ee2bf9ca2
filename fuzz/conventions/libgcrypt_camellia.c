/* libgcrypt_camellia.c — libgcrypt's Camellia assembly (cipher/camellia-gfni-avx512-amd64.S and
 * the AVX2 files camellia-{aesni,vaes,gfni}-avx2-amd64.S) as a convention of the camellia
 * family (./asmdiff check camellia --convention libgcrypt).
 *
 * The AVX-512 file's enc_blk64 and dec_blk64 take exactly 64 blocks; the AVX2 files'
 * enc_blk1_32 and dec_blk1_32 take the count as a fourth argument, 2 to 32 (libgcrypt's glue
 * calls the GFNI one from 2 blocks, the AES-NI one from 5; the C code does fewer); ctr_enc takes
 * exactly 64 (AVX-512) or 32 (AVX2) blocks per call, as libgcrypt's ctr16be bulk interface: its
 * caller never lets the low 16 bits of the big-endian counter wrap inside a call, and the
 * assembly adds to those 16 bits only (vpaddw) on its fast path.  ctx is CAMELLIA_context: the
 * NTT key table and keybitlength at 272 (camellia_ntt.h). */
#include "camellia_ntt.h"

static void context(uint8_t *ctx, const struct bc_keys *k)
{
    camellia_upstream_context(ctx, k, 0);
}

static const struct bc_entry rows[] = {
    {"enc_blk64", BC_DOES_ENC, 64, BC_CTX_DST_SRC, 0, NULL, 0},
    {"dec_blk64", BC_DOES_DEC, 64, BC_CTX_DST_SRC, 0, NULL, 0},
    {"ctr_enc (64 blocks)", BC_DOES_CTR, 64, BC_CTX_DST_SRC_IV, 0, "ctr_enc", 0},
    {"enc_blk1_32", BC_DOES_ENC, 32, BC_CTX_DST_SRC_COUNT, 2, NULL, 0},
    {"dec_blk1_32", BC_DOES_DEC, 32, BC_CTX_DST_SRC_COUNT, 2, NULL, 0},
    {"ctr_enc (32 blocks)", BC_DOES_CTR, 32, BC_CTX_DST_SRC_IV, 0, "ctr_enc", 0},
};

BC_UPSTREAM_CONVENTION(
    libgcrypt, camellia, rows, context, UPSTREAM_CTX_BYTES, CONV_CLEAN_VECTORS,
    "the C caller wipes the stack depth the function returns (_gcry_burn_stack)",
    "void _gcry_camellia_gfni_avx512_enc_blk64(const CAMELLIA_context *ctx, unsigned char *out, "
    "const unsigned char *in) (and dec_blk64, and ctr_enc(ctx, out, in, unsigned char *ctr): 64 "
    "blocks); the AVX2 files' _gcry_camellia_{aesni,vaes,gfni}_avx2_enc_blk1_32(ctx, out, in, "
    "unsigned int nblocks) (and dec_blk1_32: 2..32 blocks) and ctr_enc (32 blocks); ctx: the "
    "NTT key table (272 bytes), keybitlength at 272; CTR as ctr16be: the low 16 counter bits "
    "do not wrap inside a call",
    .ctr = BC_CTR_LOW16_NO_WRAP);
