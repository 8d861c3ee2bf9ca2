/* mpi_upstream.h — the mpi family's view of an implementation (fuzz/mpi.c), shared with the
 * convention files that return one from make_ops (fuzz/conventions/openssl_mpi.c), so a
 * convention needs nothing of the family's file (docs/architecture.md's layers).
 *
 * The family calls op[] (add_n, sub_n) and mont_mul through these members; a convention whose
 * home calls its function in a way of its own (a capability vector set first, the Win64 call)
 * gives mont_call, which makes the call through DRV_CALL or DRV_CALL_WIN64 (checked) or
 * directly (the bench); the family calls DRV_CALL(mont, ...) itself when mont_call is NULL. */
#ifndef ASMDIFF_MPI_UPSTREAM_H
#define ASMDIFF_MPI_UPSTREAM_H

#include <stddef.h>
#include <stdint.h>

/* rp[0..n) = s1 op s2; returns the carry (borrow) */
typedef uint64_t (*mpi_fn)(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n);
/* OpenSSL's bn_mul_mont: rp = ap * bp / 2^(64 num) mod np, n0[0] = -np^-1 mod 2^64; returns 1
 * (an int) when it computed the product */
typedef int (*mont_fn)(uint64_t *rp, const uint64_t *ap, const uint64_t *bp, const uint64_t *np,
                       const uint64_t *n0, int num);

enum { MPI_OP_ADD, MPI_OP_SUB, MPI_OP_MONT, MPI_NOPS };

struct mpi_ops {
    mpi_fn op[2]; /* add_n, sub_n */
    mont_fn mont; /* mont_mul */
    /* mont_mul as the home calls it: checked (1) or direct (0, the bench); returns rax */
    uint64_t (*mont_call)(const struct mpi_ops *k, uint64_t *rp, const uint64_t *a,
                          const uint64_t *b, const uint64_t *m, const uint64_t *n0, size_t n,
                          int checked);
    void (*bench[MPI_NOPS])(size_t n); /* libraries: the timed call on operands they keep */
    size_t min_n;      /* GMP's mpn functions require n >= 1 */
    size_t mont_min_n; /* mont_mul: n >= 1, more where the home's caller never calls less */
    int size_is_int;   /* n is a 32-bit int (libgcrypt's mpi_size_t): junk above it */
};

#endif
