/* mpi.h: multi-precision add_n / sub_n kernels over 64-bit limbs, least significant limb first.
 * The plain C reference is reference/mpi.c; the x86-64 forms are kernels/mpi/mpi-x86_64-*.S.
 *
 * Contract shared by every add_n/sub_n here:
 *   add_n: rp[0..n) = s1 + s2, returns the carry out (0 or 1);
 *   sub_n: rp[0..n) = s1 - s2, returns the borrow out (0 or 1).
 *   n may be 0: returns 0 and touches no memory.
 *   rp may equal s1 and/or s2 exactly (in place), and s1 may equal s2; partial overlap is not
 *   allowed. */
#ifndef ASMDIFF_KERNELS_MPI_H
#define ASMDIFF_KERNELS_MPI_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t mpi_limb_t;

/* One limb per loop iteration. */
mpi_limb_t mpi_add_n_x86_64_simple(mpi_limb_t *rp, const mpi_limb_t *s1, const mpi_limb_t *s2,
                                   size_t n);
mpi_limb_t mpi_sub_n_x86_64_simple(mpi_limb_t *rp, const mpi_limb_t *s1, const mpi_limb_t *s2,
                                   size_t n);

/* Four limbs per loop iteration, entered in the middle for n mod 4 != 0. */
mpi_limb_t mpi_add_n_x86_64_unroll4(mpi_limb_t *rp, const mpi_limb_t *s1, const mpi_limb_t *s2,
                                    size_t n);
mpi_limb_t mpi_sub_n_x86_64_unroll4(mpi_limb_t *rp, const mpi_limb_t *s1, const mpi_limb_t *s2,
                                    size_t n);

#endif
