/* fuzz/camellia.c — the Camellia family: RFC 3713 block cipher, ECB and CTR, and the kernels'
 * key expansion.
 *
 * Property (fuzz/harness/blockcipher.h does the cipher part, as for every such cipher): for
 * every key size and key, every block count (weighted at the kernels' widths 16/32/64 and ±1),
 * every counter (just below the 2^32, 2^64 and 2^128 wraps too), in place and out of place, each
 * kernel's ECB encryption and decryption and its CTR output and final counter equal the plain C
 * reference's (reference/camellia.c); CTR split across calls equals one call; the kernel
 * decrypts its own ciphertext; OpenSSL, nettle and libgcrypt (at each hardware-feature level)
 * agree with the reference.  Both FL-shift forms of the AVX-512 kernel (cmp-mask: vpcmpltb into
 * k1 and a masked vpaddb; gfni-shift: one vgf2p8affineqb) and the AVX2 path promise no data in
 * zmm/ymm/xmm or opmask registers (k1 included) or on the stack.  The kernels' key expansion
 * (camellia_setkey_x86_64) gives the reference's schedule, encryption and decryption, for every
 * key size.
 */
#include <stddef.h>
#include <string.h>

#include "asmdiff-config.h"
#include "blockcipher.h"
#include "cpu.h"
#include "driver.h"
#include "reference/camellia.h"
#include "reference/oracles/camellia_oracles.h"
#if ASMDIFF_HAVE_GCRYPT
#include "reference/oracles/gcrypt_init.h"
#endif
#if ARCH_X86_64
#include "kernels/camellia/camellia.h"
#endif

static void schedule(void *ks, const uint8_t *key, size_t keylen, int decrypt, unsigned *rounds,
                     size_t *kernel_bytes)
{
    struct camellia_key *k = ks;
    _Static_assert(sizeof(struct camellia_key) <= BC_MAX_SCHEDULE, "room for the schedule");
    if (decrypt) camellia_set_decrypt_key(k, key, keylen);
    else camellia_set_encrypt_key(k, key, keylen);
    *rounds = k->rounds;
    *kernel_bytes = 8 * (size_t)CAMELLIA_SUBKEYS(k->rounds);
}

static void ecb(const void *ks, uint8_t *out, const uint8_t *in, size_t n)
{
    camellia_ecb(ks, out, in, n);
}

static void ctr(const void *ks, uint8_t *out, const uint8_t *in, size_t n, uint8_t c[16])
{
    camellia_ctr(ks, out, in, n, c);
}

static int ref_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                   size_t n)
{
    struct camellia_key k;
    if (encrypt) camellia_set_encrypt_key(&k, key, keylen);
    else camellia_set_decrypt_key(&k, key, keylen);
    camellia_ecb(&k, out, in, n);
    return 0;
}

static int ref_ctr(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in, size_t n,
                   uint8_t c[16])
{
    struct camellia_key k;
    camellia_set_encrypt_key(&k, key, keylen);
    camellia_ctr(&k, out, in, n, c);
    return 0;
}

#if ARCH_X86_64
/* The kernels' own key expansion must give the reference's schedule, both directions. */
static void setkey_run(const struct impl *im, const void *cv)
{
    const struct bc_case *c = cv;
    if (!(im->flags & IMPL_KERNEL) || (im->flags & IMPL_OUTSIDE)) return; /* ours only */
    for (int decrypt = 0; decrypt < 2; decrypt++) {
        unsigned want_rounds;
        size_t bytes;
        const void *want = bc_reference_schedule(decrypt, &want_rounds, &bytes);
        drv_op(decrypt ? "setkey (decryption schedule)" : "setkey (encryption schedule)");
        drv_no_ct_claim("camellia-x86_64-setkey.S claims none: S-box look-ups by key bytes, "
                        "once per key");
        const uint8_t *key = drv_in(BC_BUF_KEY, c->key, c->keylen);
        uint64_t *sk = drv_out(BC_BUF_SCHEDULE_OUT, bytes);
        unsigned *rounds = drv_out(BC_BUF_ROUNDS_OUT, sizeof *rounds);
        DRV_CALL(camellia_setkey_x86_64, sk, rounds, key, c->keylen, decrypt);
        drv_expect_word("round count", want_rounds, *rounds);
        drv_expect_equal("key schedule", want, sk, bytes);
    }
    /* A key length RFC 3713 does not define, one of 0..31 but 16 and 24 (32 is the other
     * valid one), chosen by the case: the kernel's contract (camellia-x86_64-setkey.S) is
     * *rounds = 0 and the schedule untouched.  The reference decides the round count (its own
     * answer for that length), the schedule is judged against what was there before. */
    static const uint8_t invalid[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14,
                                      15, 17, 18, 19, 20, 21, 22, 23, 25, 26, 27, 28, 29, 30, 31};
    size_t badlen = invalid[c->key[0] % sizeof invalid];
    struct camellia_key ref;
    camellia_set_encrypt_key(&ref, c->key, badlen);
    uint8_t before[8 * CAMELLIA_SUBKEYS(24)];
    memset(before, 0xa5, sizeof before);
    drv_op("setkey (a key length RFC 3713 does not define)");
    drv_no_ct_claim("camellia-x86_64-setkey.S claims none: S-box look-ups by key bytes, once per "
                    "key");
    const uint8_t *key = drv_in(BC_BUF_KEY, c->key, badlen);
    uint64_t *sk = drv_inout(BC_BUF_SCHEDULE_OUT, before, sizeof before);
    unsigned *rounds = drv_inout(BC_BUF_ROUNDS_OUT, &(unsigned){0x5a5a5a5a}, sizeof *rounds);
    DRV_CALL(camellia_setkey_x86_64, sk, rounds, key, badlen, 0);
    drv_expect_word("round count (invalid key length)", ref.rounds, *rounds);
    drv_expect_equal("key schedule (untouched for an invalid key length)", before, sk,
                     sizeof before);
}

#endif

const struct bc_cipher bc_cipher = {
    .name = "CAMELLIA",
    .kat_file = "corpus/camellia/kat.txt",
    .widths = {16, 32, 64},
    .schedule = schedule,
    .ecb = ecb,
    .ctr = ctr,
    .kernel_offset = offsetof(struct camellia_key, sk),
#if ARCH_X86_64
    .extra_run = setkey_run,
#endif
};

static const struct bc_lib_ops reference = {.ecb = ref_ecb, .ctr = ref_ctr};
#if ARCH_X86_64
#define KOPS(e, c) {.ecb = (bc_kernel_ecb)(e), .ctr = (bc_kernel_ctr)(c)}
static const struct bc_kernel_ops cmpmask =
    KOPS(camellia_ecb_avx512_gfni_cmpmask, camellia_ctr_avx512_gfni_cmpmask);
static const struct bc_kernel_ops gfnishift =
    KOPS(camellia_ecb_avx512_gfni_gfnishift, camellia_ctr_avx512_gfni_gfnishift);
static const struct bc_kernel_ops field =
    KOPS(camellia_ecb_avx512_gfni_field, camellia_ctr_avx512_gfni_field);
static const struct bc_kernel_ops avx2 = KOPS(camellia_ecb_avx2_gfni, camellia_ctr_avx2_gfni);
#define NEEDS_AVX512_GFNI (CPU_AVX512F | CPU_AVX512BW | CPU_AVX512VL | CPU_GFNI)
#endif
#if ASMDIFF_HAVE_OPENSSL
static const struct bc_lib_ops openssl = {.ecb = oracle_openssl_camellia_ecb,
                                          .ctr = oracle_openssl_camellia_ctr};
#endif
#if ASMDIFF_HAVE_NETTLE
static const struct bc_lib_ops nettle = {.ecb = oracle_nettle_camellia_ecb,
                                          .ctr = oracle_nettle_camellia_ctr};
#else
static const char *nettle_not_built(void)
{
    return "not built: nettle was not found when this build was configured (nettle-dev)";
}
#endif
#if ASMDIFF_HAVE_GCRYPT
static const struct bc_lib_ops gcrypt = {.ecb = oracle_gcrypt_camellia_ecb,
                                          .ctr = oracle_gcrypt_camellia_ctr};
#endif

static const struct impl impls[] = {
    IMPL("c-reference", 0, IMPL_REFERENCE, &reference),
#if ARCH_X86_64
    IMPL("x86_64-avx512-gfni-cmpmask", NEEDS_AVX512_GFNI, IMPL_KERNEL | IMPL_CLEAN, &cmpmask),
    IMPL("x86_64-avx512-gfni-gfnishift", NEEDS_AVX512_GFNI, IMPL_KERNEL | IMPL_CLEAN, &gfnishift),
    /* vpermb: AVX512_VBMI (the ISA-subset check found it undeclared) */
    IMPL("x86_64-avx512-gfni-field", NEEDS_AVX512_GFNI | CPU_AVX512VBMI, IMPL_KERNEL | IMPL_CLEAN,
         &field),
    IMPL("x86_64-avx2-gfni", CPU_AVX2 | CPU_GFNI, IMPL_KERNEL | IMPL_CLEAN, &avx2),
#endif
#if ASMDIFF_HAVE_OPENSSL
    IMPL("openssl", 0, IMPL_LIBRARY, &openssl, .describe = oracle_openssl_camellia_describe),
#endif
#if ASMDIFF_HAVE_NETTLE
    IMPL("nettle", 0, IMPL_LIBRARY, &nettle, .describe = oracle_nettle_camellia_describe),
#else
    IMPL("nettle", 0, IMPL_LIBRARY, NULL, .unavailable = nettle_not_built),
#endif
#if ASMDIFF_HAVE_GCRYPT
    IMPL("libgcrypt", 0, IMPL_LIBRARY, &gcrypt, .describe = oracle_gcrypt_describe,
         .label = oracle_gcrypt_label,
         .version = oracle_gcrypt_version, .hwf = oracle_gcrypt_hwf),
#endif
};

const struct family asmdiff_family = BC_FAMILY("camellia", "RFC 3713", impls);
