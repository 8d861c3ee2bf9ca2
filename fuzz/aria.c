/* fuzz/aria.c — the ARIA family: RFC 5794 block cipher, ECB and CTR.
 *
 * Property (fuzz/harness/blockcipher.h does the work for every such cipher): for every key
 * size and key, every block count (weighted at the kernels' parallel widths 16/32/64 and ±1),
 * every counter (biased to just below the 2^32, 2^64 and 2^128 wraps), in place and out of
 * place, each kernel's ECB encryption and decryption and its CTR output and final counter equal
 * the plain C reference's (reference/aria.c); CTR continued across several calls equals one
 * call; the kernel decrypts its own ciphertext; OpenSSL (and libgcrypt from 1.11) agree with
 * the reference.  Kernels promise no key-derived data left in zmm/ymm/xmm, opmask registers or
 * on the stack.  The round keys sit in a buffer of exactly (rounds + 1) * 16 bytes.
 * Exhaustive: the S-box tables invert each other, then every block count 0..200 and 255..513.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "asmdiff-config.h"
#include "blockcipher.h"
#include "cpu.h"
#include "driver.h"
#include "reference/aria.h"
#include "reference/oracles/aria_oracles.h"
#if ASMDIFF_HAVE_GCRYPT
#include "reference/oracles/gcrypt_init.h"
#endif
#if ARCH_X86_64
#include "kernels/aria/aria.h"
#endif

/* The reference as blockcipher.h wants it: the schedule is struct aria_key, whose rk[] the
 * kernels read ((rounds + 1) round keys of 16 bytes). */
static void schedule(void *ks, const uint8_t *key, size_t keylen, int decrypt, unsigned *rounds,
                     size_t *kernel_bytes)
{
    struct aria_key *k = ks;
    _Static_assert(sizeof(struct aria_key) <= BC_MAX_SCHEDULE, "room for the schedule");
    _Static_assert(offsetof(struct aria_key, rk) == 0, "kernels read rk[] from the start");
    if (decrypt) aria_set_decrypt_key(k, key, keylen);
    else aria_set_encrypt_key(k, key, keylen);
    *rounds = (unsigned)k->rounds;
    *kernel_bytes = 16 * (size_t)(k->rounds + 1);
}

static void ecb(const void *ks, uint8_t *out, const uint8_t *in, size_t n)
{
    aria_ecb(ks, out, in, n);
}

static void ctr(const void *ks, uint8_t *out, const uint8_t *in, size_t n, uint8_t c[16])
{
    aria_ctr(ks, out, in, n, c);
}

/* The reference from a raw key, for bench rows beside the libraries. */
static int ref_ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                   size_t n)
{
    struct aria_key k;
    if (encrypt ? aria_set_encrypt_key(&k, key, keylen) : aria_set_decrypt_key(&k, key, keylen))
        return -1;
    aria_ecb(&k, out, in, n);
    return 0;
}

static int ref_ctr(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in, size_t n,
                   uint8_t c[16])
{
    struct aria_key k;
    if (aria_set_encrypt_key(&k, key, keylen)) return -1;
    aria_ctr(&k, out, in, n, c);
    return 0;
}

/* SB3 and SB4 are the inverses of SB1 and SB2 (RFC 5794 section 2.4.2), so all four are
 * bijections: what every kernel's GFNI matrices are derived from. */
static int sboxes_invert(void)
{
    int fails = 0;
    for (int x = 0; x < 256; x++)
        if (aria_sb1_inv[aria_sb1[x]] != x || aria_sb2_inv[aria_sb2[x]] != x) {
            fprintf(stderr, "aria: the reference S-boxes are not inverse at %d\n", x);
            fails++;
        }
    return fails;
}


const struct bc_cipher bc_cipher = {
    .name = "ARIA",
    .kat_file = "corpus/aria/kat.txt",
    .widths = {16, 32, 64},
    .schedule = schedule,
    .ecb = ecb,
    .ctr = ctr,
    .exhaustive_extra = sboxes_invert,
};

static const struct bc_lib_ops reference = {.ecb = ref_ecb, .ctr = ref_ctr};
#if ARCH_X86_64
#define KOPS(e, c) {.ecb = (bc_kernel_ecb)(e), .ctr = (bc_kernel_ctr)(c)}
static const struct bc_kernel_ops avx512_xor = KOPS(aria_ecb_avx512_gfni_xor, aria_ctr_avx512_gfni_xor);
static const struct bc_kernel_ops avx512_ternlog =
    KOPS(aria_ecb_avx512_gfni_ternlog, aria_ctr_avx512_gfni_ternlog);
static const struct bc_kernel_ops avx2 = KOPS(aria_ecb_avx2_gfni, aria_ctr_avx2_gfni);
#define NEEDS_AVX512_GFNI (CPU_AVX512F | CPU_AVX512BW | CPU_AVX512VL | CPU_GFNI)
#endif
#if ASMDIFF_HAVE_OPENSSL
static const struct bc_lib_ops openssl = {.ecb = oracle_openssl_aria_ecb,
                                          .ctr = oracle_openssl_aria_ctr};
#endif
#if ASMDIFF_HAVE_GCRYPT
static const struct bc_lib_ops gcrypt = {.ecb = oracle_gcrypt_aria_ecb,
                                          .ctr = oracle_gcrypt_aria_ctr};
#endif

static const struct impl impls[] = {
    IMPL("c-reference", 0, IMPL_REFERENCE, &reference),
#if ARCH_X86_64
    IMPL("x86_64-avx512-gfni-xor", NEEDS_AVX512_GFNI, IMPL_KERNEL | IMPL_CLEAN, &avx512_xor),
    IMPL("x86_64-avx512-gfni-ternlog", NEEDS_AVX512_GFNI, IMPL_KERNEL | IMPL_CLEAN, &avx512_ternlog),
    IMPL("x86_64-avx2-gfni", CPU_AVX2 | CPU_GFNI, IMPL_KERNEL | IMPL_CLEAN, &avx2),
#endif
#if ASMDIFF_HAVE_OPENSSL
    IMPL("openssl", 0, IMPL_LIBRARY, &openssl, .describe = oracle_openssl_aria_describe),
#endif
#if ASMDIFF_HAVE_GCRYPT
    IMPL("libgcrypt", 0, IMPL_LIBRARY, &gcrypt, .unavailable = oracle_gcrypt_aria_unavailable,
         .describe = oracle_gcrypt_describe, .label = oracle_gcrypt_label,
         .version = oracle_gcrypt_version, .hwf = oracle_gcrypt_hwf),
#endif
};

const struct family asmdiff_family = BC_FAMILY("aria", "RFC 5794", impls);
