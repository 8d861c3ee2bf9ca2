/* ghash-portable-polyval.c — GHASH computed the way the x86-64 GHASH kernels compute it, in
 * plain C: through POLYVAL, byte reversal and mulX_POLYVAL (RFC 8452 Appendix A), with
 * POLYVAL's Montgomery product formed as kernels/polyval/polyval-x86_64-common.h derives it
 * (a 256-bit carry-less product, then two folds of 64 bits by the constant x^63 + x^62 + x^57).
 *
 * Why it exists: it is a second, independent route to the value of reference/ghash.c (which is
 * SP 800-38D's right-shifting Algorithm 1), and the exact model of the x86-64 GHASH entries:
 * when one of them and the reference disagree, this one says whether the reversal/mulX mapping
 * or the kernel is at fault.  It needs no CPU feature, so every host runs it.  It selects with
 * masks, not branches, so its trace does not depend on key or data bits (the family's
 * Unicorn ct-trace runs it); whether the compiler keeps it so is what that test sees.
 */
#include "ghash.h"

/* A POLYVAL element: bit i of the 128-bit little-endian integer is the coefficient of x^i. */
struct le128 {
    uint64_t lo, hi;
};

/* rev(b) read as POLYVAL's little-endian integer: byte i of b is byte 15 - i of rev(b), so the
 * integer is b read big-endian. */
static struct le128 load_reversed(const uint8_t b[16])
{
    struct le128 v = {0, 0};
    for (int i = 0; i < 8; i++) {
        v.hi = v.hi << 8 | b[i];
        v.lo = v.lo << 8 | b[8 + i];
    }
    return v;
}

static void store_reversed(uint8_t b[16], struct le128 v)
{
    for (int i = 0; i < 8; i++) {
        b[i] = (uint8_t)(v.hi >> (56 - 8 * i));
        b[8 + i] = (uint8_t)(v.lo >> (56 - 8 * i));
    }
}

/* mulX_POLYVAL: v * x mod x^128 + x^127 + x^126 + x^121 + 1; the x^128 that falls out is
 * x^127 + x^126 + x^121 + 1. */
static struct le128 mulx_polyval(struct le128 v)
{
    uint64_t top = 0 - (v.hi >> 63);
    v.hi = (v.hi << 1 | v.lo >> 63) ^ (top & 0xc200000000000000ull);
    v.lo = v.lo << 1 ^ (top & 1);
    return v;
}

/* The 128-bit carry-less product of two 64-bit words. */
static struct le128 clmul64(uint64_t a, uint64_t b)
{
    struct le128 r = {0, 0}, sh = {a, 0}; /* sh = a * x^i */
    for (int i = 0; i < 64; i++, b >>= 1) {
        uint64_t take = 0 - (b & 1); /* masks, not branches: see the head */
        r.lo ^= sh.lo & take;
        r.hi ^= sh.hi & take;
        sh.hi = sh.hi << 1 | sh.lo >> 63;
        sh.lo <<= 1;
    }
    return r;
}

/* dot(a, b) = a * b * x^-128: T3:T2:T1:T0 = a * b (schoolbook), then M = T0 * C, W = T1^M0 :
 * T0^M1, M' = W.hi * C, result = T3:T2 ^ W ^ M' (polyval-x86_64-common.h's derivation). */
static struct le128 dot(struct le128 a, struct le128 b)
{
    const uint64_t c = 0xc200000000000000ull;
    struct le128 lo = clmul64(a.lo, b.lo), hi = clmul64(a.hi, b.hi);
    struct le128 m1 = clmul64(a.hi, b.lo), m2 = clmul64(a.lo, b.hi);
    uint64_t mid_lo = m1.lo ^ m2.lo, mid_hi = m1.hi ^ m2.hi;
    lo.hi ^= mid_lo;
    hi.lo ^= mid_hi;
    struct le128 m = clmul64(lo.lo, c);
    struct le128 w = {lo.lo ^ m.hi, lo.hi ^ m.lo};
    struct le128 m2f = clmul64(w.hi, c);
    return (struct le128){hi.lo ^ w.lo ^ m2f.lo, hi.hi ^ w.hi ^ m2f.hi};
}

void ghash_update_portable_polyval(uint8_t state[16], const uint8_t key_h[16],
                                   const uint8_t *blocks, size_t nblocks)
{
    /* RFC 8452 Appendix A: GHASH(H, X...) = rev(POLYVAL(mulX_POLYVAL(rev(H)), rev(X)...)),
     * step by step, so the running state crosses over by reversal too. */
    struct le128 h = mulx_polyval(load_reversed(key_h));
    struct le128 s = load_reversed(state);
    for (size_t j = 0; j < nblocks; j++) {
        struct le128 x = load_reversed(blocks + 16 * j);
        s.lo ^= x.lo;
        s.hi ^= x.hi;
        s = dot(s, h);
    }
    store_reversed(state, s);
}
