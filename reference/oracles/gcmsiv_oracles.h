/* gcmsiv_oracles.h — library AES-GCM-SIV implementations, with the reference's signature.
 * OpenSSL gained GCM-SIV only in 3.2; libgcrypt has it since 1.10 (with its own PCLMUL/VPCLMUL
 * POLYVAL and AES-NI/VAES paths, selected by its hardware-feature level). */
#ifndef ASMDIFF_GCMSIV_ORACLES_H
#define ASMDIFF_GCMSIV_ORACLES_H

#include <stddef.h>
#include <stdint.h>

#include "asmdiff-config.h"

#if ASMDIFF_HAVE_GCRYPT
/* 0 on success; -1 when the tag does not verify (decrypt); -2 on any other library error. */
int oracle_gcrypt_gcmsiv_encrypt(const uint8_t *key, size_t keylen, const uint8_t nonce[12],
                                 const uint8_t *aad, size_t aadlen, const uint8_t *pt,
                                 size_t ptlen, uint8_t *ct, uint8_t tag[16]);
int oracle_gcrypt_gcmsiv_decrypt(const uint8_t *key, size_t keylen, const uint8_t nonce[12],
                                 const uint8_t *aad, size_t aadlen, const uint8_t *ct,
                                 size_t ctlen, const uint8_t tag[16], uint8_t *pt);
/* "libgcrypt 1.10.1 (hwf: intel-cpu ...; disabled: ...)" */
#endif

#endif
