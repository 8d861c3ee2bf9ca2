/* mpi_oracles.h — library implementations of n-limb add/sub with the kernels' signature, and
 * of Montgomery multiplication with OpenSSL's bn_mul_mont signature (rp = ap * bp / 2^(64 num)
 * mod np; n0 the caller's Montgomery constant, which the libraries compute again themselves;
 * returns 1), so they take part in every comparison.  Each exists only when meson found the library
 * (ASMDIFF_HAVE_GMP, ASMDIFF_HAVE_GCRYPT, ASMDIFF_HAVE_OPENSSL, always defined 0 or 1). */
#ifndef ASMDIFF_MPI_ORACLES_H
#define ASMDIFF_MPI_ORACLES_H

#include <stddef.h>
#include <stdint.h>

#include "asmdiff-config.h"

#if ASMDIFF_HAVE_GMP
/* GMP's mpn_add_n / mpn_sub_n (GMP's own x86-64 assembly).  GMP requires n >= 1. */
uint64_t oracle_gmp_add_n(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n);
uint64_t oracle_gmp_sub_n(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n);
const char *oracle_gmp_version(void);
/* the value a * b * R^-1 mod m from mpz arithmetic (R^-1 by mpz_invert): GMP has no
 * Montgomery entry point, so this judges the value, independently of any Montgomery code */
int oracle_gmp_mont_mul(uint64_t *rp, const uint64_t *ap, const uint64_t *bp,
                        const uint64_t *np, const uint64_t *n0, int num);
#endif

#if ASMDIFF_HAVE_GCRYPT
/* libgcrypt's gcry_mpi_add / gcry_mpi_sub on numbers built from the limbs (its amd64 mpih
 * assembly underneath), compared as numbers: the result is written back as n limbs plus
 * carry (or borrow, from the sign). */
uint64_t oracle_gcrypt_add_n(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n);
uint64_t oracle_gcrypt_sub_n(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n);
/* bench: r = u + v (or u - v) on prepared numbers of n limbs, cached per n */
void oracle_gcrypt_bench_add(size_t n);
void oracle_gcrypt_bench_sub(size_t n);
#endif

#if ASMDIFF_HAVE_OPENSSL
/* OpenSSL BN_add / BN_sub (bn_add_words, its own assembly), compared as numbers. */
uint64_t oracle_openssl_add_n(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n);
uint64_t oracle_openssl_sub_n(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n);
const char *oracle_openssl_version(void);
void oracle_openssl_bench_add(size_t n);
void oracle_openssl_bench_sub(size_t n);
/* BN_mod_mul_montgomery in a BN_MONT_CTX of m: OpenSSL's own bn_mul_mont assembly where it
 * takes it (num > 1, both operands num words), its C reduction otherwise */
int oracle_openssl_mont_mul(uint64_t *rp, const uint64_t *ap, const uint64_t *bp,
                            const uint64_t *np, const uint64_t *n0, int num);
void oracle_openssl_bench_mont(size_t n);
#endif

#endif
