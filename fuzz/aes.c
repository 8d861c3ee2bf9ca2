/* fuzz/aes.c — the AES family: FIPS-197 in ECB, CBC decryption, CTR (SP 800-38A), ctr32le
 * (RFC 8452's counter) and XTS (IEEE 1619-2018, SP 800-38E) with ciphertext stealing.
 *
 * Property (fuzz/harness/blockcipher.h does the work, as for every 128-bit block cipher): for
 * every key size and key, every block count (weighted at the kernels' widths 8/16/32 and ±1),
 * every counter (just below the 2^32, 2^64 and 2^128 wraps; ctr32le's just below its 2^32
 * wrap), every XTS tail of 0..15 bytes, in place and out of place, the chained modes split
 * across up to four calls, each kernel's output in every mode and its final counter, IV and
 * tweak equal the plain C reference's (reference/aes.c, reference/blockmodes.c); each kernel
 * decrypts its own ECB and XTS ciphertext; OpenSSL, nettle and libgcrypt (at each
 * hardware-feature level: its AES-NI, VAES/AVX2 and VAES/AVX-512 paths) agree with the
 * reference.  Kernels promise no key-derived data left in zmm/ymm/xmm, opmask registers or on
 * the stack.  The round keys sit in a buffer of exactly (rounds + 1) * 16 bytes.
 * Exhaustive: the inverse cipher (FIPS-197 5.3) and the equivalent inverse cipher (5.3.5)
 * agree and invert the cipher, then every block count 0..200 and 255..513 with every tail.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "asmdiff-config.h"
#include "blockcipher.h"
#include "cpu.h"
#include "driver.h"
#include "reference/aes.h"
#include "reference/blockmodes.h"
#include "reference/oracles/aes_oracles.h"
#include "rng.h"
#if ASMDIFF_HAVE_GCRYPT
#include "reference/oracles/gcrypt_init.h"
#endif
#if ARCH_X86_64
#include "kernels/aes/aes.h"
#endif

/* The reference as blockcipher.h wants it: the encryption schedule, or the equivalent inverse
 * cipher's (what aesdec takes), in struct aes_key; the kernels read its rk[]. */
struct schedule {
    struct aes_key k;
    int decrypt;
};

static void schedule(void *ks, const uint8_t *key, size_t keylen, int decrypt, unsigned *rounds,
                     size_t *kernel_bytes)
{
    struct schedule *s = ks;
    _Static_assert(sizeof(struct schedule) <= BC_MAX_SCHEDULE, "room for the schedule");
    s->decrypt = decrypt;
    if (decrypt) aes_expand_key_decrypt(&s->k, key, keylen);
    else aes_expand_key(&s->k, key, keylen);
    *rounds = (unsigned)s->k.rounds;
    *kernel_bytes = 16 * (size_t)(s->k.rounds + 1);
}

static void block(const struct schedule *s, uint8_t out[16], const uint8_t in[16])
{
    if (s->decrypt) aes_decrypt_block_equivalent(&s->k, out, in);
    else aes_encrypt_block(&s->k, out, in);
}

static void ecb(const void *ks, uint8_t *out, const uint8_t *in, size_t n)
{
    for (size_t i = 0; i < n; i++) block(ks, out + 16 * i, in + 16 * i);
}

static void one_block(const void *ks, uint8_t out[16], const uint8_t in[16])
{
    block(ks, out, in);
}

static void ctr(const void *ks, uint8_t *out, const uint8_t *in, size_t n, uint8_t c[16])
{
    mode_ctr(one_block, ks, out, in, n, c);
}

/* The modes on a schedule, for the harness (bc_cipher's cbc_dec, ctr32le, xts). */
static void cbc_dec(const void *ks, uint8_t *out, const uint8_t *in, size_t n, uint8_t iv[16])
{
    mode_cbc_decrypt(one_block, ks, out, in, n, iv);
}

static void ctr32le(const void *ks, uint8_t *out, const uint8_t *in, size_t n, uint8_t c[16])
{
    mode_ctr32le(one_block, ks, out, in, n, c);
}

static void xts(const void *ks, int decrypt, uint8_t *out, const uint8_t *in, size_t len,
                uint8_t tweak[16])
{
    mode_xts(one_block, ks, decrypt, out, in, len, tweak);
}

/* ---- the reference from a raw key, for bench rows beside the libraries ---- */

static int ref_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                   size_t n)
{
    struct schedule s;
    unsigned rounds;
    size_t bytes;
    if (keylen != 16 && keylen != 24 && keylen != 32) return -1;
    schedule(&s, key, keylen, !encrypt, &rounds, &bytes);
    ecb(&s, out, in, n);
    return 0;
}

static int ref_chained(int op, const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                       size_t n, uint8_t c[16])
{
    struct schedule s;
    unsigned rounds;
    size_t bytes;
    if (keylen != 16 && keylen != 24 && keylen != 32) return -1;
    schedule(&s, key, keylen, op == BC_OP_CBC_DEC, &rounds, &bytes);
    if (op == BC_OP_CTR) mode_ctr(one_block, &s, out, in, n, c);
    else if (op == BC_OP_CBC_DEC) mode_cbc_decrypt(one_block, &s, out, in, n, c);
    else mode_ctr32le(one_block, &s, out, in, n, c);
    return 0;
}

static int ref_ctr(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in, size_t n,
                   uint8_t c[16])
{
    return ref_chained(BC_OP_CTR, key, keylen, out, in, n, c);
}

static int ref_cbc_dec(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                       size_t n, uint8_t iv[16])
{
    return ref_chained(BC_OP_CBC_DEC, key, keylen, out, in, n, iv);
}

static int ref_ctr32le(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                       size_t n, uint8_t c[16])
{
    return ref_chained(BC_OP_CTR32LE, key, keylen, out, in, n, c);
}

static int ref_xts(int encrypt, const uint8_t *keys, size_t keylen, uint8_t *out,
                   const uint8_t *in, size_t len, const uint8_t iv[16])
{
    struct schedule data, tweak;
    unsigned rounds;
    size_t bytes;
    uint8_t t[16];
    if ((keylen != 16 && keylen != 24 && keylen != 32) || (len && len < 16)) return -1;
    schedule(&data, keys, keylen, !encrypt, &rounds, &bytes);
    schedule(&tweak, keys + keylen, keylen, 0, &rounds, &bytes);
    block(&tweak, t, iv);
    mode_xts(one_block, &data, !encrypt, out, in, len, t);
    return 0;
}

/* The reference checked against itself, over its domain: the S-box is a bijection, the two
 * inverse ciphers agree and invert the cipher for every key size on a sweep of blocks, and
 * XTS's multiplication by x carries bit 127 into 0x87 (IEEE 1619-2018 5.2). */
static int reference_self(void)
{
    int fails = 0;
    uint8_t seen[256] = {0};
    for (int x = 0; x < 256; x++) seen[aes_sbox[x]]++;
    for (int y = 0; y < 256; y++)
        if (seen[y] != 1) {
            fprintf(stderr, "aes: the reference S-box is not a bijection at %d\n", y);
            return 1;
        }
    uint64_t r = 0x616573u;
    for (size_t keylen = 16; keylen <= 32; keylen += 8)
        for (int i = 0; i < 256; i++) {
            uint8_t key[32], pt[16], ct[16], a[16], b[16];
            struct aes_key ek, dk;
            rng_fill(&r, key, sizeof key);
            rng_fill(&r, pt, sizeof pt);
            aes_expand_key(&ek, key, keylen);
            aes_expand_key_decrypt(&dk, key, keylen);
            aes_encrypt_block(&ek, ct, pt);
            aes_decrypt_block(&ek, a, ct);
            aes_decrypt_block_equivalent(&dk, b, ct);
            if (memcmp(a, pt, 16) || memcmp(b, pt, 16)) {
                fprintf(stderr, "aes: the reference's inverse ciphers do not invert AES-%zu\n",
                        8 * keylen);
                fails++;
                break;
            }
        }
    uint8_t t[16] = {0};
    t[15] = 0x80;
    xts_mul_x(t);
    if (t[0] != 0x87 || t[15] != 0) {
        fprintf(stderr, "aes: the reference's XTS multiplication by x loses the carry\n");
        fails++;
    }
    return fails;
}

const struct bc_cipher bc_cipher = {
    .name = "AES",
    .kat_file = "corpus/aes/kat.txt",
    .widths = {8, 16, 32},
    .schedule = schedule,
    .ecb = ecb,
    .ctr = ctr,
    .kernel_offset = offsetof(struct schedule, k.rk),
    .modes = BC_MODES_ALL,
    .cbc_dec = cbc_dec,
    .ctr32le = ctr32le,
    .xts = xts,
    .exhaustive_extra = reference_self,
};

static const struct bc_lib_ops reference = {ref_ecb, ref_ctr, ref_cbc_dec, ref_ctr32le, ref_xts};
#if ARCH_X86_64
#define KOPS(f)                                                                               \
    {(bc_kernel_ecb)aes_ecb_enc_##f, (bc_kernel_ctr)aes_ctr_##f, (bc_kernel_ecb)aes_ecb_dec_##f, \
     (bc_kernel_ctr)aes_cbc_dec_##f, (bc_kernel_ctr)aes_ctr32le_##f,                           \
     (bc_kernel_ctr)aes_xts_enc_##f, (bc_kernel_ctr)aes_xts_dec_##f}
static const struct bc_kernel_ops avx512_clmul = KOPS(vaes_avx512_clmul);
static const struct bc_kernel_ops avx512_shift = KOPS(vaes_avx512_shift);
static const struct bc_kernel_ops avx2_clmul = KOPS(vaes_avx2_clmul);
static const struct bc_kernel_ops avx2_shift = KOPS(vaes_avx2_shift);
#define NEEDS_AVX512_VAES                                                                      \
    (CPU_AVX512F | CPU_AVX512BW | CPU_AVX512VL | CPU_VAES | CPU_VPCLMULQDQ | CPU_AESNI | CPU_PCLMUL)
#define NEEDS_AVX2_VAES (CPU_AVX2 | CPU_VAES | CPU_VPCLMULQDQ | CPU_AESNI | CPU_PCLMUL)
#endif
#define LIB_OPS(lib)                                                                          \
    {oracle_##lib##_aes_ecb, oracle_##lib##_aes_ctr, oracle_##lib##_aes_cbc_dec, NULL,        \
     oracle_##lib##_aes_xts}
#if ASMDIFF_HAVE_OPENSSL
static const struct bc_lib_ops openssl = LIB_OPS(openssl);
#endif
#if ASMDIFF_HAVE_NETTLE
static const struct bc_lib_ops nettle = LIB_OPS(nettle);
#else
static const char *nettle_not_built(void)
{
    return "not built: nettle was not found when this build was configured (nettle-dev)";
}
#endif
#if ASMDIFF_HAVE_GCRYPT
static const struct bc_lib_ops gcrypt = LIB_OPS(gcrypt);
#endif

static const struct impl impls[] = {
    IMPL("c-reference", 0, IMPL_REFERENCE, &reference),
#if ARCH_X86_64
    IMPL("x86_64-vaes-avx512-clmul", NEEDS_AVX512_VAES, IMPL_KERNEL | IMPL_CLEAN, &avx512_clmul),
    IMPL("x86_64-vaes-avx512-shift", NEEDS_AVX512_VAES, IMPL_KERNEL | IMPL_CLEAN, &avx512_shift),
    IMPL("x86_64-vaes-avx2-clmul", NEEDS_AVX2_VAES, IMPL_KERNEL | IMPL_CLEAN, &avx2_clmul),
    IMPL("x86_64-vaes-avx2-shift", NEEDS_AVX2_VAES, IMPL_KERNEL | IMPL_CLEAN, &avx2_shift),
#endif
#if ASMDIFF_HAVE_OPENSSL
    IMPL("openssl", 0, IMPL_LIBRARY, &openssl, .describe = oracle_openssl_aes_describe),
#endif
#if ASMDIFF_HAVE_NETTLE
    IMPL("nettle", 0, IMPL_LIBRARY, &nettle, .describe = oracle_nettle_aes_describe),
#else
    IMPL("nettle", 0, IMPL_LIBRARY, NULL, .unavailable = nettle_not_built),
#endif
#if ASMDIFF_HAVE_GCRYPT
    IMPL("libgcrypt", 0, IMPL_LIBRARY, &gcrypt, .describe = oracle_gcrypt_describe,
         .label = oracle_gcrypt_label, .version = oracle_gcrypt_version,
         .hwf = oracle_gcrypt_hwf),
#endif
};

const struct family asmdiff_family = BC_FAMILY_MODES("aes", "FIPS-197, SP 800-38A, IEEE 1619", impls,
                                                     BC_NOPS);
