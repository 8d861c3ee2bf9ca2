/* mpi_openssl.c — OpenSSL's BIGNUM as an oracle (BN_add/BN_sub run bn_add_words and
 * bn_sub_words, OpenSSL's own assembly on x86-64), compared as numbers. */
#include "mpi_oracles.h"

#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <stdlib.h>

/* Little-endian byte order of the limbs is the limbs' own memory layout on x86-64 and riscv64. */
static BIGNUM *from_limbs(const uint64_t *s, size_t n)
{
    BIGNUM *a = BN_lebin2bn((const unsigned char *)s, (int)(8 * n), NULL);
    if (!a) abort();
    return a;
}

static uint64_t to_limbs(uint64_t *rp, const BIGNUM *w, size_t n)
{
    unsigned char *le = malloc(8 * n + 8);
    if (BN_bn2lebinpad(w, le, (int)(8 * n + 8)) < 0) abort();
    uint64_t top = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = 0;
        for (int j = 7; j >= 0; j--) v = v << 8 | le[8 * i + (size_t)j];
        rp[i] = v;
    }
    for (int j = 7; j >= 0; j--) top = top << 8 | le[8 * n + (size_t)j];
    free(le);
    return top;
}

uint64_t oracle_openssl_add_n(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n)
{
    BIGNUM *a = from_limbs(s1, n), *b = from_limbs(s2, n), *w = BN_new();
    if (!w || !BN_add(w, a, b)) abort();
    uint64_t carry = to_limbs(rp, w, n);
    BN_free(a), BN_free(b), BN_free(w);
    return carry;
}

uint64_t oracle_openssl_sub_n(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n)
{
    BIGNUM *a = from_limbs(s1, n), *b = from_limbs(s2, n), *w = BN_new();
    if (!w || !BN_sub(w, a, b)) abort();
    uint64_t borrow = 0;
    if (BN_is_negative(w)) { /* the wrapped result is w + 2^(64n) */
        BIGNUM *m = BN_new();
        if (!m || !BN_set_bit(m, (int)(64 * n)) || !BN_add(w, w, m)) abort();
        BN_free(m);
        borrow = 1;
    }
    if (to_limbs(rp, w, n)) abort();
    BN_free(a), BN_free(b), BN_free(w);
    return borrow;
}

const char *oracle_openssl_version(void)
{
    return OpenSSL_version(OPENSSL_VERSION);
}

#define BENCH_MAX_N 8192
static BIGNUM *bench_u[BENCH_MAX_N + 1], *bench_v[BENCH_MAX_N + 1], *bench_w;

static void bench_prepare(size_t n)
{
    if (n > BENCH_MAX_N) abort();
    if (bench_u[n]) return;
    uint64_t *s = malloc(8 * (n + 1));
    for (size_t i = 0; i < n; i++) s[i] = 0x9e3779b97f4a7c15ull * (i + 1);
    if (n) s[n - 1] |= 1ull << 63;
    bench_u[n] = from_limbs(s, n);
    if (n) s[n - 1] &= ~(1ull << 63);
    bench_v[n] = from_limbs(s, n);
    if (!bench_w) {
        bench_w = BN_new();
        BN_set_bit(bench_w, 64 * (BENCH_MAX_N + 1));
    }
    free(s);
}

/* BN_uadd/BN_usub: the unsigned paths, straight to the word routines. */
void oracle_openssl_bench_add(size_t n)
{
    bench_prepare(n);
    BN_uadd(bench_w, bench_u[n], bench_v[n]);
}

void oracle_openssl_bench_sub(size_t n)
{
    bench_prepare(n);
    BN_usub(bench_w, bench_u[n], bench_v[n]);
}

int oracle_openssl_mont_mul(uint64_t *rp, const uint64_t *ap, const uint64_t *bp,
                            const uint64_t *np, const uint64_t *n0, int num)
{
    (void)n0;
    size_t n = (size_t)num;
    BN_CTX *ctx = BN_CTX_new();
    BN_MONT_CTX *mont = BN_MONT_CTX_new();
    BIGNUM *a = from_limbs(ap, n), *b = from_limbs(bp, n), *m = from_limbs(np, n), *w = BN_new();
    if (!ctx || !mont || !w || !BN_MONT_CTX_set(mont, m, ctx) ||
        !BN_mod_mul_montgomery(w, a, b, mont, ctx))
        abort();
    if (to_limbs(rp, w, n)) abort();
    BN_free(a), BN_free(b), BN_free(m), BN_free(w);
    BN_MONT_CTX_free(mont);
    BN_CTX_free(ctx);
    return 1;
}

/* BN_mod_mul_montgomery on prepared operands below a prepared modulus of n words, in a
 * context kept per n: the multiplication alone */
void oracle_openssl_bench_mont(size_t n)
{
    static BN_CTX *ctx;
    static BN_MONT_CTX *mont[BENCH_MAX_N + 1];
    static BIGNUM *w;
    bench_prepare(n);
    if (!ctx) ctx = BN_CTX_new(), w = BN_new();
    if (!mont[n]) {
        mont[n] = BN_MONT_CTX_new();
        BIGNUM *m = BN_dup(bench_u[n]);
        if (!m || !mont[n] || !BN_set_bit(m, 0) || !BN_MONT_CTX_set(mont[n], m, ctx)) abort();
        BN_free(m);
    }
    BN_mod_mul_montgomery(w, bench_v[n], bench_v[n], mont[n], ctx);
}
