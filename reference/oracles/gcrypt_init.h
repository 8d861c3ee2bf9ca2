/* gcrypt_init.h — one initialisation of libgcrypt for every oracle that uses it, honouring
 * ASMDIFF_GCRYPT_DISABLE=name,name... (hardware-feature names from the library's own hwflist,
 * e.g. intel-pclmul): each is passed to GCRYCTL_DISABLE_HWF before gcry_check_version, which is
 * the only moment libgcrypt accepts it.  One process is one hardware-feature level, so
 * libgcrypt's own assembly paths are selected, and fuzzed, one level at a time. */
#ifndef ASMDIFF_GCRYPT_INIT_H
#define ASMDIFF_GCRYPT_INIT_H

#include <stddef.h>

void oracle_gcrypt_init(void);
/* The hardware features libgcrypt uses in this process, space-separated (its hwflist). */
const char *oracle_gcrypt_hwf(void);
/* The features disabled by ASMDIFF_GCRYPT_DISABLE ("" when none). */
const char *oracle_gcrypt_disabled(void);

/* "libgcrypt 1.10.1 (hwf: intel-cpu ...; disabled: intel-avx2)" */
const char *oracle_gcrypt_describe(void);
/* "libgcrypt 1.10.1" */
const char *oracle_gcrypt_version(void);
/* The implementation's name at this level: "libgcrypt-full", "libgcrypt-no-intel-avx2". */
const char *oracle_gcrypt_label(void);

#endif
