/* mpi_gcrypt.c — libgcrypt's MPI as an oracle.  libgcrypt has no public limb-level API, so the
 * limbs become numbers (unsigned big-endian bytes), gcry_mpi_add/sub runs (its amd64 mpih
 * assembly does the limb work), and the number comes back as limbs plus carry or borrow. */
#include "mpi_oracles.h"
#include "gcrypt_init.h"

#include <gcrypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void init(void)
{
    oracle_gcrypt_init();
}

static gcry_mpi_t from_limbs(const uint64_t *s, size_t n)
{
    unsigned char *be = malloc(8 * n + 1);
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < 8; j++) be[8 * (n - 1 - i) + (size_t)(7 - j)] = (unsigned char)(s[i] >> (8 * j));
    gcry_mpi_t a = NULL;
    if (gcry_mpi_scan(&a, GCRYMPI_FMT_USG, be, 8 * n, NULL)) abort();
    free(be);
    return a;
}

/* Write the low n limbs of non-negative w to rp; return limb n (the carry, 0 or 1). */
static uint64_t to_limbs(uint64_t *rp, gcry_mpi_t w, size_t n)
{
    size_t cap = 8 * n + 16, len = 0;
    unsigned char *be = malloc(cap);
    if (gcry_mpi_print(GCRYMPI_FMT_USG, be, cap, &len, w)) abort();
    uint64_t top = 0;
    memset(rp, 0, 8 * n);
    for (size_t k = 0; k < len; k++) { /* k-th byte from the least significant end */
        uint64_t byte = be[len - 1 - k];
        if (k / 8 < n) rp[k / 8] |= byte << (8 * (k % 8));
        else top |= byte << (8 * (k % 8 + 8 * (k / 8 - n)));
    }
    free(be);
    return top;
}

uint64_t oracle_gcrypt_add_n(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n)
{
    init();
    gcry_mpi_t a = from_limbs(s1, n), b = from_limbs(s2, n), w = gcry_mpi_new(0);
    gcry_mpi_add(w, a, b);
    uint64_t carry = to_limbs(rp, w, n);
    gcry_mpi_release(a), gcry_mpi_release(b), gcry_mpi_release(w);
    return carry;
}

uint64_t oracle_gcrypt_sub_n(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n)
{
    init();
    gcry_mpi_t a = from_limbs(s1, n), b = from_limbs(s2, n), w = gcry_mpi_new(0);
    gcry_mpi_sub(w, a, b);
    uint64_t borrow = 0;
    if (gcry_mpi_is_neg(w)) { /* the wrapped result is w + 2^(64n) */
        gcry_mpi_t m = gcry_mpi_set_ui(NULL, 0);
        gcry_mpi_set_bit(m, (unsigned)(64 * n));
        gcry_mpi_add(w, w, m);
        gcry_mpi_release(m);
        borrow = 1;
    }
    if (to_limbs(rp, w, n)) abort(); /* |a - b| < 2^(64n) */
    gcry_mpi_release(a), gcry_mpi_release(b), gcry_mpi_release(w);
    return borrow;
}


/* Bench: numbers of n limbs are built once per n and kept, so a timed call is gcry_mpi_add on
 * ready operands.  u has a larger top limb than v so subtraction stays positive. */
#define BENCH_MAX_N 8192
static gcry_mpi_t bench_u[BENCH_MAX_N + 1], bench_v[BENCH_MAX_N + 1], bench_w;

static void bench_prepare(size_t n)
{
    init();
    if (n > BENCH_MAX_N) abort();
    if (bench_u[n]) return;
    uint64_t *s = malloc(8 * (n + 1));
    for (size_t i = 0; i < n; i++) s[i] = 0x9e3779b97f4a7c15ull * (i + 1);
    if (n) s[n - 1] |= 1ull << 63;
    bench_u[n] = from_limbs(s, n);
    if (n) s[n - 1] &= ~(1ull << 63);
    bench_v[n] = from_limbs(s, n);
    if (!bench_w) bench_w = gcry_mpi_new(64 * (BENCH_MAX_N + 1));
    free(s);
}

void oracle_gcrypt_bench_add(size_t n)
{
    bench_prepare(n);
    gcry_mpi_add(bench_w, bench_u[n], bench_v[n]);
}

void oracle_gcrypt_bench_sub(size_t n)
{
    bench_prepare(n);
    gcry_mpi_sub(bench_w, bench_u[n], bench_v[n]);
}
