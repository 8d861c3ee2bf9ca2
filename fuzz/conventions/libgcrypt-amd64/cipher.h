/* cipher.h — stand-in for libgcrypt's src/cipher.h, for ./asmdiff check of
 * cipher/cipher-gcm-intel-pclmul.c: the file includes it and reads nothing of it (its types
 * and constants come from g10lib.h and cipher-internal.h here). */
#ifndef ASMDIFF_GCRYPT_AMD64_CIPHER_H
#define ASMDIFF_GCRYPT_AMD64_CIPHER_H
#include "g10lib.h"
#endif
