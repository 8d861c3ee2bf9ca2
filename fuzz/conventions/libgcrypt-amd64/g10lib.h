/* g10lib.h — stand-in for libgcrypt's src/g10lib.h (and the gcrypt.h it includes), for
 * ./asmdiff check of cipher/cipher-gcm-intel-pclmul.c (fuzz/conventions/libgcrypt_ghash.c):
 * only what that file reads from it.  The integer types; the compiler-version test it makes
 * (gcrypt.h's _GCRY_GCC_VERSION, computed the same way: clang says GCC 4.2, so the file takes
 * its clang branch); GCM's block length; and the hardware-feature bits it tests, with the
 * values libgcrypt 1.12.4's src/g10lib.h gives them (facts of its ABI: the convention passes
 * the same bits, so a row selects the path the library would select on such a CPU). */
#ifndef ASMDIFF_GCRYPT_AMD64_G10LIB_H
#define ASMDIFF_GCRYPT_AMD64_G10LIB_H
#include <stddef.h>
#include <stdint.h>
typedef unsigned char byte;
typedef uint32_t u32;
typedef uint64_t u64;
#define U64_C(c) (c##ULL)
#define _GCRY_GCC_VERSION (__GNUC__ * 10000 + __GNUC_MINOR__ * 100 + __GNUC_PATCHLEVEL__)
#define GCRY_GCM_BLOCK_LEN 16
/* src/g10lib.h's HWF_INTEL_* bits the file tests (and PCLMUL, which cipher-gcm.c tests before
 * it calls the file's setup) */
#define HWF_INTEL_PCLMUL (1 << 9)
#define HWF_INTEL_AVX2 (1 << 13)
#define HWF_INTEL_VAES_VPCLMUL (1 << 16)
#define HWF_INTEL_AVX512 (1 << 17)
#endif
