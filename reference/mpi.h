/* mpi.h — plain C multi-precision arithmetic, the reference for kernels/mpi and the mpi family:
 * addition and subtraction of n limbs, and Montgomery multiplication. */
#ifndef ASMDIFF_REFERENCE_MPI_H
#define ASMDIFF_REFERENCE_MPI_H

#include <stddef.h>
#include <stdint.h>

/* rp[0..n) = s1 + s2 mod 2^(64n); returns the carry out.  rp may be s1 or s2 (in place). */
uint64_t mpi_add_n_ref(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n);
/* rp[0..n) = s1 - s2 mod 2^(64n); returns the borrow out. */
uint64_t mpi_sub_n_ref(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n);

/* -m0^-1 mod 2^64 for odd m0: Montgomery's constant for a modulus whose lowest limb is m0. */
uint64_t mpi_mont_n0_ref(uint64_t m0);
/* rp[0..n) = a * b * 2^(-64n) mod m (Montgomery multiplication), for n >= 1, odd m > 1 and
 * a, b < m, all n limbs; n0 = mpi_mont_n0_ref(m[0]).  The result is fully reduced (< m).
 * scratch holds 2n + 1 limbs; rp must not overlap a, b, m or scratch. */
void mpi_mont_mul_ref(uint64_t *rp, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                      uint64_t n0, size_t n, uint64_t *scratch);

#endif
