/* polyval-portable-ghash.c — POLYVAL computed the way the Zvkg kernels compute it, in plain C:
 * through GHASH, byte reversal and mulX_GHASH (RFC 8452 Appendix A), with GCM's own multiply
 * (NIST SP 800-38D, section 6.3, Algorithm 1).
 *
 * Why it exists: it is a second, independent route to the value of reference/polyval.c (GCM's
 * right-shifting multiply with R = 0xe1 || 0^120 on byte-reversed operands, against POLYVAL's
 * x^-128 reduction), and the exact model of polyval-riscv64-zvkg.S: when a Zvkg kernel and the
 * reference disagree, this one says whether the reversal/mulX mapping or the kernel is at fault.
 * It needs no CPU feature, so it is also the implementation every host runs, including a
 * riscv64 CPU without Zvkg.  Like the reference, it branches on key and data bits: a judge's
 * model, not a constant-time implementation.
 */
#include "polyval.h"

#include <string.h>

/* GCM's bit order: a 16-byte string is the 128-bit big-endian integer v, and bit i of the
 * string (counted from the left, the most significant bit of byte 0) is the coefficient of
 * x^i.  Multiplying by x moves every coefficient one place right: v >> 1, and the x^128 that
 * falls out is replaced by x^7 + x^2 + x + 1, which is 0xe1 in the leftmost byte. */
struct be128 {
    uint64_t hi, lo; /* bytes 0..7, bytes 8..15, big-endian */
};

static struct be128 load_reversed(const uint8_t b[16])
{
    /* byte i of the GHASH-order string is byte 15 - i of the POLYVAL-order one */
    struct be128 v = {0, 0};
    for (int i = 0; i < 8; i++) {
        v.hi = v.hi << 8 | b[15 - i];
        v.lo = v.lo << 8 | b[7 - i];
    }
    return v;
}

static void store_reversed(uint8_t b[16], struct be128 v)
{
    for (int i = 0; i < 8; i++) {
        b[15 - i] = (uint8_t)(v.hi >> (56 - 8 * i));
        b[7 - i] = (uint8_t)(v.lo >> (56 - 8 * i));
    }
}

static struct be128 ghash_mul_x(struct be128 v)
{
    uint64_t carry = v.lo & 1;
    v.lo = v.lo >> 1 | v.hi << 63;
    v.hi >>= 1;
    if (carry) v.hi ^= 0xe1ull << 56;
    return v;
}

/* X * Y in GCM's field, SP 800-38D Algorithm 1: Z accumulates V = Y * x^i for each set bit
 * x_i of X, scanning X from the left. */
static struct be128 ghash_mul(struct be128 x, struct be128 y)
{
    struct be128 z = {0, 0}, v = y;
    for (int i = 0; i < 128; i++) {
        uint64_t bit = i < 64 ? x.hi >> (63 - i) & 1 : x.lo >> (127 - i) & 1;
        if (bit) {
            z.hi ^= v.hi;
            z.lo ^= v.lo;
        }
        v = ghash_mul_x(v);
    }
    return z;
}

void polyval_update_portable_ghash(uint8_t state[16], const uint8_t key_h[16],
                                   const uint8_t *blocks, size_t nblocks)
{
    /* RFC 8452 Appendix A: POLYVAL(H, X...) = rev(GHASH(mulX_GHASH(rev(H)), rev(X)...)),
     * step by step, so the running state crosses over by reversal too. */
    struct be128 h = ghash_mul_x(load_reversed(key_h));
    struct be128 y = load_reversed(state);
    for (size_t j = 0; j < nblocks; j++) {
        struct be128 x = load_reversed(blocks + 16 * j);
        y.hi ^= x.hi;
        y.lo ^= x.lo;
        y = ghash_mul(y, h);
    }
    store_reversed(state, y);
}
