/* mpi.c — schoolbook addition and subtraction of n-limb numbers, least significant limb first
 * (Knuth, TAOCP vol. 2, 4.3.1, Algorithms A and S).  Written for reading, not speed: each limb's
 * carry is computed from the wrap-around of unsigned arithmetic, no compiler builtins. */
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
