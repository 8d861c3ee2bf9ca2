/* mpi_gmp.c — GMP's mpn layer as an oracle: same limb layout as ours (64-bit limbs, least
 * significant first), so no conversion. */
#include "mpi_oracles.h"

#include <gmp.h>
#include <stdlib.h>

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

int oracle_gmp_mont_mul(uint64_t *rp, const uint64_t *ap, const uint64_t *bp,
                        const uint64_t *np, const uint64_t *n0, int num)
{
    (void)n0;
    size_t n = (size_t)num, count = 0;
    mpz_t a, b, m, r, rinv;
    mpz_inits(a, b, m, r, rinv, NULL);
    mpz_import(a, n, -1, 8, 0, 0, ap);
    mpz_import(b, n, -1, 8, 0, 0, bp);
    mpz_import(m, n, -1, 8, 0, 0, np);
    mpz_setbit(r, 64 * n); /* R = 2^(64n), invertible mod the odd m */
    if (!mpz_invert(rinv, r, m)) abort();
    mpz_mul(r, a, b);
    mpz_mul(r, r, rinv);
    mpz_mod(r, r, m);
    for (size_t i = 0; i < n; i++) rp[i] = 0;
    mpz_export(rp, &count, -1, 8, 0, 0, r);
    if (count > n) abort();
    mpz_clears(a, b, m, r, rinv, NULL);
    return 1;
}
