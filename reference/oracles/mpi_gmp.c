/* mpi_gmp.c — GMP's mpn layer as an oracle: same limb layout as ours (64-bit limbs, least
 * significant first), so no conversion. */
#include "mpi_oracles.h"

#include <gmp.h>

_Static_assert(sizeof(mp_limb_t) == sizeof(uint64_t), "GMP limbs must be 64-bit");

uint64_t oracle_gmp_add_n(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n)
{
    return mpn_add_n((mp_limb_t *)rp, (const mp_limb_t *)s1, (const mp_limb_t *)s2,
                     (mp_size_t)n);
}

uint64_t oracle_gmp_sub_n(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n)
{
    return mpn_sub_n((mp_limb_t *)rp, (const mp_limb_t *)s1, (const mp_limb_t *)s2,
                     (mp_size_t)n);
}

const char *oracle_gmp_version(void)
{
    return gmp_version;
}
