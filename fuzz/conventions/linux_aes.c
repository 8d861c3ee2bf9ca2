/* linux_aes.c — Linux's AES assembly as a convention of the aes family (./asmdiff check aes
 * --convention linux): on x86-64, arch/x86/crypto/aesni-intel_asm.S, aes-xts-avx-x86_64.S and
 * aes_ctrby8_avx-x86_64.S of Linux 6.12, as aesni-intel_glue.c declares and calls them; on
 * riscv64, arch/riscv/crypto/aes-riscv64-zvkned.S, aes-riscv64-zvkned-zvkb.S and
 * aes-riscv64-zvkned-zvbb-zvkg.S, as aes-riscv64-glue.c does.  One context, one mechanism
 * (bc_upstream.h): the rows of the build's CPU family.
 *
 * The context is struct crypto_aes_ctx (include/crypto/aes.h): the encryption round keys at 0,
 * the equivalent inverse cipher's round keys at 240 (the order aesdec takes them, as
 * aes_expandkey and aesni_set_key leave them), as 32-bit words whose bytes are the FIPS-197
 * round key bytes in order, and the key length in bytes (16, 24, 32) at 480.  Each entry
 * point takes any number of whole blocks a call (its glue gives it whole blocks; a CTR tail
 * is done in C); XTS takes any length of 16 bytes and more, stealing on the last call, the
 * tweak already encrypted (aes_xts_encrypt_iv), and leaves the next tweak when the length is
 * a multiple of 16; the by8 CTR entry points are one per key size.  The context is 16-byte
 * aligned, as the kernel keeps it (AESNI_ALIGN): the AES-NI code reads it with aligned moves.
 *
 * RISC-V (Zvkned): every entry point takes the context itself, decryption too (vaesdm runs
 * the inverse cipher on the encryption round keys, last first: the ones at 240 are never
 * read), the key length from 480, fn(ctx, src, dst, size_t len[, iv]) with len a nonzero
 * multiple of 16 but XTS's last call (16 bytes and more, stealing; the tweak written back
 * only when len is a multiple of 16).  aes_ctr32_crypt_zvkned_zvkb's counter is the 128-bit
 * big-endian IV of which it advances the low 32 bits alone: the glue splits a request where
 * they wrap and carries into the upper 96 bits itself, so a call's counter never wraps
 * (BC_CTR_LOW32_NO_WRAP).  The XTS file needs VLEN < 2048.
 * Only the layout and the prototypes are facts we use; nothing of the files is copied. */
#include <string.h>

#include "bc_upstream.h"

#define AES_CTX_DEC 240
#define AES_CTX_KEYLEN 480
#define AES_CTX_BYTES 484

/* k: the reference's schedules (struct aes_key's rk[], (rounds + 1) * 16 bytes each) */
static void context(uint8_t *ctx, const struct bc_keys *k)
{
    uint32_t keylen = (uint32_t)k->keylen;
    memset(ctx, 0, AES_CTX_BYTES);
    memcpy(ctx, k->enc, 16 * ((size_t)k->rounds + 1));
    memcpy(ctx + AES_CTX_DEC, k->dec, 16 * ((size_t)k->rounds + 1));
    memcpy(ctx + AES_CTX_KEYLEN, &keylen, sizeof keylen);
}

#if defined(__riscv)
static const struct bc_entry rows[] = {
    /* aes-riscv64-zvkned.S: fn(ctx, src, dst, size_t len[, iv]) */
    {"aes_ecb_encrypt_zvkned", BC_DOES_ENC, 0, BC_CTX_SRC_DST_SIZE, 0, NULL, 0},
    {"aes_ecb_decrypt_zvkned", BC_DOES_DEC, 0, BC_CTX_SRC_DST_SIZE, 0, NULL, 0},
    {"aes_cbc_decrypt_zvkned", BC_DOES_CBC_DEC, 0, BC_CTX_SRC_DST_SIZE_IV, 0, NULL, 0},
    /* aes-riscv64-zvkned-zvkb.S: the low 32 counter bits (.ctr below) */
    {"aes_ctr32_crypt_zvkned_zvkb", BC_DOES_CTR, 0, BC_CTX_SRC_DST_SIZE_IV, 0, NULL, 0},
    /* aes-riscv64-zvkned-zvbb-zvkg.S: XTS from the encrypted tweak, stealing */
    {"aes_xts_encrypt_zvkned_zvbb_zvkg", BC_DOES_XTS_ENC, 0, BC_CTX_SRC_DST_SIZE_IV, 0, NULL, 0},
    {"aes_xts_decrypt_zvkned_zvbb_zvkg", BC_DOES_XTS_DEC, 0, BC_CTX_SRC_DST_SIZE_IV, 0, NULL, 0},
};

BC_UPSTREAM_CONVENTION(
    linux, aes, rows, context, AES_CTX_BYTES, 0, CONV_LINUX_LEFTOVERS,
    "asmlinkage void aes_ecb_encrypt_zvkned(const struct crypto_aes_ctx *key, const u8 *in, "
    "u8 *out, size_t len) (and aes_ecb_decrypt_zvkned; aes_cbc_decrypt_zvkned, "
    "aes_ctr32_crypt_zvkned_zvkb, aes_xts_{encrypt,decrypt}_zvkned_zvbb_zvkg with a last u8 "
    "iv[16]): struct crypto_aes_ctx (enc round keys at 0, read for decryption too; key length "
    "at 480), len a nonzero multiple of 16 but XTS's last call (stealing), the XTS tweak "
    "already encrypted, the CTR counter's low 32 bits never wrapping inside a call",
    .dec_key_offset = AES_CTX_DEC, .ctx_align = 16, .ctr = BC_CTR_LOW32_NO_WRAP);
#else
static const struct bc_entry rows[] = {
    /* aesni-intel_asm.S: fn(ctx, dst, src, len[, iv]) */
    {"aesni_ecb_enc", BC_DOES_ENC, 0, BC_CTX_DST_SRC_LEN, 0, NULL, 0},
    {"aesni_ecb_dec", BC_DOES_DEC, 0, BC_CTX_DST_SRC_LEN, 0, NULL, 0},
    {"aesni_cbc_dec", BC_DOES_CBC_DEC, 0, BC_CTX_DST_SRC_LEN_IV, 0, NULL, 0},
    {"aesni_ctr_enc", BC_DOES_CTR, 0, BC_CTX_DST_SRC_LEN_IV, 0, NULL, 0},
    {"aesni_xts_enc", BC_DOES_XTS_ENC, 0, BC_CTX_DST_SRC_LEN_IV, 0, NULL, 0},
    {"aesni_xts_dec", BC_DOES_XTS_DEC, 0, BC_CTX_DST_SRC_LEN_IV, 0, NULL, 0},
    /* aes-xts-avx-x86_64.S: fn(ctx, src, dst, len, tweak), one template at four widths */
    {"aes_xts_encrypt_aesni_avx", BC_DOES_XTS_ENC, 0, BC_CTX_SRC_DST_LEN_IV, 0, NULL, 0},
    {"aes_xts_decrypt_aesni_avx", BC_DOES_XTS_DEC, 0, BC_CTX_SRC_DST_LEN_IV, 0, NULL, 0},
    {"aes_xts_encrypt_vaes_avx2", BC_DOES_XTS_ENC, 0, BC_CTX_SRC_DST_LEN_IV, 0, NULL, 0},
    {"aes_xts_decrypt_vaes_avx2", BC_DOES_XTS_DEC, 0, BC_CTX_SRC_DST_LEN_IV, 0, NULL, 0},
    {"aes_xts_encrypt_vaes_avx10_256", BC_DOES_XTS_ENC, 0, BC_CTX_SRC_DST_LEN_IV, 0, NULL, 0},
    {"aes_xts_decrypt_vaes_avx10_256", BC_DOES_XTS_DEC, 0, BC_CTX_SRC_DST_LEN_IV, 0, NULL, 0},
    {"aes_xts_encrypt_vaes_avx10_512", BC_DOES_XTS_ENC, 0, BC_CTX_SRC_DST_LEN_IV, 0, NULL, 0},
    {"aes_xts_decrypt_vaes_avx10_512", BC_DOES_XTS_DEC, 0, BC_CTX_SRC_DST_LEN_IV, 0, NULL, 0},
    /* its tweak: aes_xts_encrypt_iv(tweak_key, u8 iv[16]), one block encrypted in place with
     * the encryption round keys (the glue calls it with the second key's context) */
    {"aes_xts_encrypt_iv", BC_DOES_ENC, 1, BC_CTX_BLOCK_INPLACE, 0, NULL, 0},
    /* aes_ctrby8_avx-x86_64.S: fn(src, iv, ctx, dst, len), one per key size */
    {"aes_ctr_enc_128_avx_by8", BC_DOES_CTR, 0, BC_SRC_IV_CTX_DST_LEN, 0, NULL, 16},
    {"aes_ctr_enc_192_avx_by8", BC_DOES_CTR, 0, BC_SRC_IV_CTX_DST_LEN, 0, NULL, 24},
    {"aes_ctr_enc_256_avx_by8", BC_DOES_CTR, 0, BC_SRC_IV_CTX_DST_LEN, 0, NULL, 32},
};

BC_UPSTREAM_CONVENTION(
    linux, aes, rows, context, AES_CTX_BYTES, 0, CONV_LINUX_LEFTOVERS,
    "asmlinkage void aesni_ecb_enc(struct crypto_aes_ctx *ctx, u8 *dst, const u8 *src, "
    "size_t len) (and aesni_ecb_dec, aesni_cbc_dec/aesni_ctr_enc/aesni_xts_enc/_dec with a "
    "last u8 *iv); aes_xts_encrypt_{aesni_avx,vaes_avx2,vaes_avx10_256,vaes_avx10_512}(const "
    "struct crypto_aes_ctx *key, const u8 *src, u8 *dst, unsigned int len, u8 tweak[16]) and "
    "_decrypt_; aes_ctr_enc_{128,192,256}_avx_by8(const u8 *in, u8 *iv, void *keys, u8 *out, "
    "unsigned int num_bytes); aes_xts_encrypt_iv(const struct crypto_aes_ctx *tweak_key, u8 "
    "iv[16]) (one block in place): struct crypto_aes_ctx (enc round keys at 0, dec at 240, key "
    "length at 480), whole blocks but XTS's last call, the XTS tweak already encrypted",
    .dec_key_offset = AES_CTX_DEC, .ctx_align = 16);
#endif
