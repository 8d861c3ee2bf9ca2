/* bufhelp.h — stand-in for libgcrypt's cipher/bufhelp.h, for ./asmdiff check of
 * cipher/cipher-gcm-intel-pclmul.c: the file includes it and calls none of its helpers. */
#ifndef ASMDIFF_GCRYPT_AMD64_BUFHELP_H
#define ASMDIFF_GCRYPT_AMD64_BUFHELP_H
#include "g10lib.h"
#endif
