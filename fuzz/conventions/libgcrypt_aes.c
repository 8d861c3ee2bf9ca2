/* libgcrypt_aes.c — libgcrypt 1.12's VAES AES assembly as a convention of the aes family
 * (./asmdiff check aes --convention libgcrypt): cipher/rijndael-vaes-avx512-amd64.S and
 * rijndael-vaes-avx2-amd64.S, as cipher/rijndael-vaes.c declares and calls them.
 *
 * Each entry point takes the key schedule itself (the context's keyschenc32, or keyschdec32
 * for the operations that decrypt: the equivalent inverse cipher's round keys in the order
 * aesdec takes them, as _gcry_aes_aesni_prepare_decryption leaves them), 16-byte round keys in
 * FIPS-197 byte order, any number of whole blocks and the round count: ecb_crypt(keysched, int
 * encrypt, out, in, nblocks, nrounds); cbc_dec, ctr_enc and ctr32le_enc (keysched, iv, out,
 * in, nblocks, nrounds), ctr_enc being libgcrypt's ctr16be bulk function (rijndael.c registers
 * it as bulk_ops->ctr16be_enc: cipher-ctr.c never lets the low 16 bits of the big-endian
 * counter wrap inside a call, and its one-block path carries only through them); xts_crypt(keysched, tweak, out, in,
 * nblocks, nrounds, int encrypt) on whole blocks from the encrypted tweak (cipher-xts.c steals
 * in C).  The context here is the two schedules, the encryption one at 0 and the decryption
 * one at 240.  Only the prototypes and the layout are facts we use; nothing is copied. */
#include <string.h>

#include "bc_upstream.h"

#define SCHED_DEC 240
#define CTX_BYTES 480

static void context(uint8_t *ctx, const struct bc_keys *k)
{
    memset(ctx, 0, CTX_BYTES);
    memcpy(ctx, k->enc, 16 * ((size_t)k->rounds + 1));
    memcpy(ctx + SCHED_DEC, k->dec, 16 * ((size_t)k->rounds + 1));
}

#define VAES_ROWS(w)                                                                          \
    {"ecb (" #w ")", BC_DOES_ENC | BC_DOES_DEC, 0, BC_KEY_ENC_DST_SRC_N_ROUNDS, 0,            \
     "vaes_" #w "_ecb_crypt_amd64", 0},                                                       \
    {"cbc_dec (" #w ")", BC_DOES_CBC_DEC, 0, BC_KEY_IV_DST_SRC_N_ROUNDS, 0,                   \
     "vaes_" #w "_cbc_dec_amd64", 0},                                                         \
    {"ctr_enc (" #w ")", BC_DOES_CTR, 0, BC_KEY_IV_DST_SRC_N_ROUNDS, 0,                       \
     "vaes_" #w "_ctr_enc_amd64", 0},                                                         \
    {"ctr32le_enc (" #w ")", BC_DOES_CTR32LE, 0, BC_KEY_IV_DST_SRC_N_ROUNDS, 0,               \
     "vaes_" #w "_ctr32le_enc_amd64", 0},                                                     \
    {"xts_crypt (" #w ")", BC_DOES_XTS_ENC | BC_DOES_XTS_DEC, 0,                              \
     BC_KEY_IV_DST_SRC_N_ROUNDS_ENC, 0, "vaes_" #w "_xts_crypt_amd64", 0}

static const struct bc_entry rows[] = {VAES_ROWS(avx512), VAES_ROWS(avx2)};

BC_UPSTREAM_CONVENTION(
    libgcrypt, aes, rows, context, CTX_BYTES, CONV_CLEAN_VECTORS | CONV_CLEAN_STACK, "",
    "void _gcry_vaes_avx512_ecb_crypt_amd64(const void *keysched, int encrypt, void *out, "
    "const void *in, size_t nblocks, unsigned int nrounds); _cbc_dec_amd64, _ctr_enc_amd64, "
    "_ctr32le_enc_amd64(keysched, unsigned char *iv, out, in, nblocks, nrounds); "
    "_xts_crypt_amd64(keysched, tweak, out, in, nblocks, nrounds, int encrypt); the same for "
    "_gcry_vaes_avx2_*: keysched the encryption or the decryption round keys, whole blocks, "
    "the XTS tweak already encrypted",
    .dec_key_offset = SCHED_DEC, .ctr = BC_CTR_LOW16_NO_WRAP, .xts = BC_XTS_WHOLE_BLOCKS,
    .ctx_align = 16);
