/* cipher-internal.h — stand-in for libgcrypt's cipher/cipher-internal.h, for ./asmdiff check of
 * cipher/cipher-gcm-intel-pclmul.c (fuzz/conventions/libgcrypt_ghash.c, the ghash family's
 * "libgcrypt" convention).
 *
 * The file reads and writes these members of the cipher handle, under libgcrypt's names:
 * c->u_mode.gcm.u_ghash_key.key (H; its setup turns it in place into its own form), the
 * precomputed table c->u_mode.gcm.gcm_table (H^2.. in its own form, filled by the setup and,
 * on the first call long enough, by the update itself), c->u_mode.gcm.hw_impl_flags (the
 * paths chosen and the tables made), and c->u_mode.gcm.ghash_fn / polyval_fn (the setup stores
 * the file's two static entry points there: the only way a caller reaches them).  So here the
 * handle is those members alone, and the check places the whole handle in the family's
 * guarded "key schedule" buffer.  Their order is ours: the key first and the table last, so a
 * read before the key or past the table's end is a guard-page finding (libgcrypt's own
 * handle has other members around them; the file reaches each by its name, never by an
 * offset of its own).  The key and the table are read with aligned loads (movdqa): both
 * 16-byte aligned, as libgcrypt's aligned handle keeps them; the table's size is
 * libgcrypt's (4 * 16 64-bit words, x86-64).
 *
 * The GCM_USE_INTEL_* switches: the three the file tests, each on where config.h says the
 * build enables the instructions and the compiler has their inline assembly (as libgcrypt's
 * configure finds it for clang 19 on x86-64); a fact missing there compiles the file to no
 * symbol, which the check refuses, never a silent pass. */
#ifndef ASMDIFF_GCRYPT_AMD64_CIPHER_INTERNAL_H
#define ASMDIFF_GCRYPT_AMD64_CIPHER_INTERNAL_H
#include "g10lib.h"

struct gcry_cipher_handle;
typedef struct gcry_cipher_handle *gcry_cipher_hd_t;
typedef unsigned int (*ghash_fn_t)(gcry_cipher_hd_t c, byte *result, const byte *buf,
                                   size_t nblocks);

struct gcry_cipher_handle {
    union {
        struct {
            union {
                u64 align[2];
                unsigned char key[16];
            } u_ghash_key __attribute__((aligned(16)));
            ghash_fn_t ghash_fn;
            ghash_fn_t polyval_fn;
            unsigned int hw_impl_flags;
            u64 gcm_table[4 * 16] __attribute__((aligned(16)));
        } gcm;
    } u_mode;
};

#if defined(__x86_64__) && defined(ENABLE_PCLMUL_SUPPORT)
#define GCM_USE_INTEL_PCLMUL 1
#endif
#if defined(GCM_USE_INTEL_PCLMUL) && defined(ENABLE_AVX2_SUPPORT) &&                        \
    defined(HAVE_GCC_INLINE_ASM_VAES_VPCLMUL)
#define GCM_USE_INTEL_VPCLMUL_AVX2 1
#endif
#if defined(GCM_USE_INTEL_VPCLMUL_AVX2) && defined(ENABLE_AVX512_SUPPORT) &&                \
    defined(HAVE_GCC_INLINE_ASM_AVX512)
#define GCM_USE_INTEL_VPCLMUL_AVX512 1
#endif
#endif
