/* g10lib.h — stand-in for libgcrypt's src/g10lib.h: the integer types its riscv64 cipher files
 * use, nothing else. */
#ifndef ASMDIFF_GCRYPT_RISCV_G10LIB_H
#define ASMDIFF_GCRYPT_RISCV_G10LIB_H
#include <stddef.h>
#include <stdint.h>
typedef unsigned char byte;
typedef uint32_t u32;
typedef uint64_t u64;
#endif
