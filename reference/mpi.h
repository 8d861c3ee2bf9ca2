/* mpi.h — plain C multi-precision addition and subtraction, the reference for kernels/mpi. */
#ifndef ASMDIFF_REFERENCE_MPI_H
#define ASMDIFF_REFERENCE_MPI_H

#include <stddef.h>
#include <stdint.h>

/* rp[0..n) = s1 + s2 mod 2^(64n); returns the carry out.  rp may be s1 or s2 (in place). */
uint64_t mpi_add_n_ref(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n);
/* rp[0..n) = s1 - s2 mod 2^(64n); returns the borrow out. */
uint64_t mpi_sub_n_ref(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n);

#endif
