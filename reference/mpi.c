/* mpi.c — schoolbook addition and subtraction of n-limb numbers, least significant limb first
 * (Knuth, TAOCP vol. 2, 4.3.1, Algorithms A and S), and Montgomery multiplication (P. L.
 * Montgomery, "Modular multiplication without trial division", Math. Comp. 44 (1985);
 * Handbook of Applied Cryptography, 14.3.2: the product, then reduction limb by limb).
 * Written for reading, not speed: each limb's carry is computed from the wrap-around of
 * unsigned arithmetic, products from 32-bit halves, no compiler builtins or 128-bit types. */
#include "mpi.h"

uint64_t mpi_add_n_ref(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n)
{
    uint64_t carry = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t a = s1[i], b = s2[i];
        uint64_t sum = a + b;
        uint64_t c1 = sum < a;          /* a + b wrapped */
        uint64_t r = sum + carry;
        uint64_t c2 = r < sum;          /* adding the carry wrapped (only when sum was all ones) */
        rp[i] = r;
        carry = c1 | c2;                /* both cannot happen at once */
    }
    return carry;
}

uint64_t mpi_sub_n_ref(uint64_t *rp, const uint64_t *s1, const uint64_t *s2, size_t n)
{
    uint64_t borrow = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t a = s1[i], b = s2[i];
        uint64_t diff = a - b;
        uint64_t b1 = a < b;            /* a - b wrapped */
        uint64_t r = diff - borrow;
        uint64_t b2 = diff < borrow;    /* subtracting the borrow wrapped (only when diff was 0) */
        rp[i] = r;
        borrow = b1 | b2;
    }
    return borrow;
}

/* The 128-bit product a * b as two limbs, from the four products of 32-bit halves. */
static void mul_limbs(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    /* the middle column: at most 3 * (2^32 - 1), no wrap */
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = mid << 32 | (p00 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* t[0..len) += u * v[0..n) << (64 * 0), the carry propagated to the end of t; returns what
 * falls off the end (0 when t is long enough). */
static uint64_t add_mul(uint64_t *t, size_t len, const uint64_t *v, size_t n, uint64_t u)
{
    uint64_t carry = 0;
    size_t i = 0;
    for (; i < n; i++) {
        uint64_t hi, lo;
        mul_limbs(u, v[i], &hi, &lo);
        uint64_t s = t[i] + lo;
        hi += s < lo;            /* hi <= 2^64 - 2: no wrap */
        uint64_t r = s + carry;
        hi += r < s;
        t[i] = r;
        carry = hi;
    }
    for (; carry && i < len; i++) {
        t[i] += carry;
        carry = t[i] < carry;
    }
    return carry;
}

uint64_t mpi_mont_n0_ref(uint64_t m0)
{
    /* Newton's iteration for the inverse mod 2^64: x = m0 is right to 3 bits (m0 * m0 = 1 mod
     * 8 for odd m0), and each step x = x (2 - m0 x) doubles the bits: 3, 6, 12, 24, 48, 96 */
    uint64_t x = m0;
    for (int i = 0; i < 5; i++) x *= 2 - m0 * x;
    return 0 - x;
}

void mpi_mont_mul_ref(uint64_t *rp, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                      uint64_t n0, size_t n, uint64_t *t)
{
    size_t len = 2 * n + 1;
    for (size_t i = 0; i < len; i++) t[i] = 0;
    /* t = a * b (< m^2) */
    for (size_t i = 0; i < n; i++) add_mul(t + i, len - i, b, n, a[i]);
    /* n reduction steps: each adds the multiple u * m of the current lowest limb's weight that
     * makes that limb zero (u = t[i] * n0 = -t[i] / m mod 2^64); t stays < m^2 + m * 2^(64n)
     * < 2 m 2^(64n), so after the shift the value is below 2m and fits n limbs plus one bit */
    for (size_t i = 0; i < n; i++) add_mul(t + i, len - i, m, n, t[i] * n0);
    const uint64_t *r = t + n; /* t / 2^(64n): n limbs and r[n] in {0, 1} */
    /* r >= m: subtract m once */
    int ge = r[n] != 0;
    if (!ge) {
        ge = 1; /* equal counts as >= */
        for (size_t i = n; i-- > 0;)
            if (r[i] != m[i]) {
                ge = r[i] > m[i];
                break;
            }
    }
    if (ge)
        mpi_sub_n_ref(rp, r, m, n);
    else
        for (size_t i = 0; i < n; i++) rp[i] = r[i];
}
