/* poly1305_oracles.h — library Poly1305 MACs (RFC 8439 section 2.5): OpenSSL's EVP_MAC
 * "POLY1305" and libgcrypt's GCRY_MAC_POLY1305, each fed the message in the pieces a case cuts
 * it into (the library's own carrying of partial blocks across update calls is under test). */
#ifndef ASMDIFF_POLY1305_ORACLES_H
#define ASMDIFF_POLY1305_ORACLES_H

#include <stddef.h>
#include <stdint.h>

#include "asmdiff-config.h"

/* tag = Poly1305(key, msg[0, len)), the message given in update calls that begin at 0 and at
 * each of cuts[0, ncuts) (ascending, each <= len).  Returns 0, or -1 on a library error. */
typedef int (*poly1305_lib_fn)(const uint8_t key[32], const uint8_t *msg, size_t len,
                               const size_t *cuts, size_t ncuts, uint8_t tag[16]);

#if ASMDIFF_HAVE_OPENSSL
int oracle_openssl_poly1305(const uint8_t key[32], const uint8_t *msg, size_t len,
                            const size_t *cuts, size_t ncuts, uint8_t tag[16]);
/* NULL when this OpenSSL has the POLY1305 MAC, else why not (a no-poly1305 build). */
const char *oracle_openssl_poly1305_unavailable(void);
const char *oracle_openssl_poly1305_describe(void);
#endif

#if ASMDIFF_HAVE_GCRYPT
int oracle_gcrypt_poly1305(const uint8_t key[32], const uint8_t *msg, size_t len,
                           const size_t *cuts, size_t ncuts, uint8_t tag[16]);
/* NULL when this libgcrypt has the POLY1305 MAC, else why not. */
const char *oracle_gcrypt_poly1305_unavailable(void);
#endif

#endif
