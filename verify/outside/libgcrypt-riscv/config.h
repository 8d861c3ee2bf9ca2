/* config.h — stand-in for a libgcrypt build's config.h, for ./asmdiff check of libgcrypt's
 * riscv64 C kernels (cipher/cipher-gcm-riscv-zvkg.c) in a riscv64 check build.  What the files
 * test: the compiler has the RVV intrinsics and the vector-crypto ones (the latter supplied by
 * our cipher-internal.h, which clang 19 does not declare). */
#ifndef ASMDIFF_GCRYPT_RISCV_CONFIG_H
#define ASMDIFF_GCRYPT_RISCV_CONFIG_H
#define HAVE_COMPATIBLE_CC_RISCV_VECTOR_INTRINSICS 1
#define HAVE_COMPATIBLE_CC_RISCV_VECTOR_CRYPTO_INTRINSICS 1
#endif
