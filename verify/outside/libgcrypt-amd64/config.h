/* config.h — stand-in for a libgcrypt build's config.h, for ./asmdiff check --changes in a
 * libgcrypt git tree that has not been configured (a commit holds no config.h): the facts its
 * x86-64 assembly (cipher/NAME-amd64.S and the headers they include) tests before it assembles
 * anything, and those its C file with inline assembly cipher/cipher-gcm-intel-pclmul.c
 * tests (through our stand-in cipher-internal.h beside it).  Each says the toolchain can do
 * something, and clang 19 on x86-64 ELF can do all of them, so each is 1, as libgcrypt 1.12.4's configure finds them on this machine; the Win64,
 * i386 and SM3/SM4 facts stay undefined (not this target, or not used by the files the homes
 * table names).  A file whose guard names a fact missing here assembles to no symbol, and the
 * check refuses it naming the symbols it does define (exit 2), never a silent pass. */
#ifndef ASMDIFF_GCRYPT_AMD64_CONFIG_H
#define ASMDIFF_GCRYPT_AMD64_CONFIG_H
#define HAVE_COMPATIBLE_GCC_AMD64_PLATFORM_AS 1
#define HAVE_INTEL_SYNTAX_PLATFORM_AS 1
#define HAVE_GCC_ASM_CFI_DIRECTIVES 1
#define HAVE_GCC_ASM_ELF_DIRECTIVES 1
#define HAVE_GCC_INLINE_ASM_SSSE3 1
#define HAVE_GCC_INLINE_ASM_AVX 1
#define HAVE_GCC_INLINE_ASM_AVX2 1
#define HAVE_GCC_INLINE_ASM_AVX512 1
#define HAVE_GCC_INLINE_ASM_BMI2 1
#define HAVE_GCC_INLINE_ASM_VAES_VPCLMUL 1
#define ENABLE_AESNI_SUPPORT 1
#define ENABLE_PCLMUL_SUPPORT 1
#define ENABLE_AVX_SUPPORT 1
#define ENABLE_AVX2_SUPPORT 1
#define ENABLE_AVX512_SUPPORT 1
#define ENABLE_GFNI_SUPPORT 1
#endif
