/* ghash_polyval_relation.c — the two references judge each other: reference/ghash.c (NIST SP
 * 800-38D's Algorithm 1) and reference/polyval.c (RFC 8452 section 3) must satisfy RFC 8452
 * Appendix A's relation, in both directions, with the running state crossing by byte reversal:
 *     POLYVAL(H, X_1..X_n) = rev(GHASH(mulX_GHASH(rev(H)), rev(X_1), ..., rev(X_n)))
 *     GHASH(H, X_1..X_n)   = rev(POLYVAL(mulX_POLYVAL(rev(H)), rev(X_1), ..., rev(X_n)))
 * The second is how every GHASH kernel of ours is computed (kernels/ghash/ghash.h), and the
 * key transform of Linux's ghash-clmulni glue; uhash_mulx_polyval (fuzz/harness/uhash.h) is the
 * conversions' code the conventions use, checked here against the RFC's worked example.
 *
 * Cases: one block over all 128 x 128 pairs of basis elements of H and X (the product is
 * bilinear, so these pin down every product), the same with the start state as the basis
 * element, then 2000 random keys, start states and messages of 0..40 blocks.
 *
 * Control: `--control` leaves out the mulX in both directions; the relation must then fail
 * (test ghash-polyval-relation-control, should_fail), so the comparison can fail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uhash.h"
#include "reference/ghash.h"
#include "reference/polyval.h"

static int control;

/* mulX_GHASH (RFC 8452 Appendix A) of a GCM-order string: one place right, 0xe1 into byte 0
 * for the bit that falls out. */
static void mulx_ghash(uint8_t v[16])
{
    int carry = v[15] & 1;
    for (int i = 15; i > 0; i--) v[i] = (uint8_t)(v[i] >> 1 | v[i - 1] << 7);
    v[0] >>= 1;
    if (carry) v[0] ^= 0xe1;
}

static void hash_polyval(uint8_t out[16], const uint8_t h[16], const uint8_t start[16],
                         const uint8_t *x, size_t n)
{
    struct polyval_ctx c;
    polyval_init(&c, h);
    memcpy(c.s, start, 16);
    polyval_update(&c, x, n);
    polyval_final(&c, out);
}

static void hash_ghash(uint8_t out[16], const uint8_t h[16], const uint8_t start[16],
                       const uint8_t *x, size_t n)
{
    struct ghash_ctx c;
    ghash_init(&c, h);
    memcpy(c.y, start, 16);
    ghash_update(&c, x, n);
    ghash_final(&c, out);
}

#define MAXB 40
static long checked, failed;

/* Both directions on one (H, start, X); counts a failure and prints the first few. */
static void relate(const uint8_t h[16], const uint8_t start[16], const uint8_t *x, size_t n)
{
    uint8_t rh[16], rs[16], rx[16 * MAXB], a[16], b[16];
    uhash_reverse16(rh, h);
    uhash_reverse16(rs, start);
    for (size_t i = 0; i < n; i++) uhash_reverse16(rx + 16 * i, x + 16 * i);
    /* POLYVAL through GHASH */
    uint8_t kg[16];
    memcpy(kg, rh, 16);
    if (!control) mulx_ghash(kg);
    hash_polyval(a, h, start, x, n);
    hash_ghash(b, kg, rs, rx, n);
    uhash_reverse16(b, b);
    int bad = memcmp(a, b, 16) != 0;
    /* GHASH through POLYVAL */
    uint8_t kp[16];
    memcpy(kp, rh, 16);
    if (!control) uhash_mulx_polyval(kp);
    hash_ghash(a, h, start, x, n);
    hash_polyval(b, kp, rs, rx, n);
    uhash_reverse16(b, b);
    bad |= memcmp(a, b, 16) != 0;
    checked++;
    if (bad && failed++ < 3) {
        fprintf(stderr, "relation broken: %zu blocks, H =", n);
        for (int i = 0; i < 16; i++) fprintf(stderr, " %02x", h[i]);
        fprintf(stderr, "\n");
    }
}

static int hexeq(const uint8_t *v, const char *hex)
{
    for (int i = 0; i < 16; i++) {
        unsigned b;
        if (sscanf(hex + 2 * i, "%2x", &b) != 1 || v[i] != b) return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    control = argc > 1 && !strcmp(argv[1], "--control");
    if (argc > 1 && !control) {
        fprintf(stderr, "usage: %s [--control]\n", argv[0]);
        return 2;
    }
    /* RFC 8452 Appendix A's worked example: H = 25629347589242761d31f826ba4b757b gives
     * mulX_GHASH(ByteReverse(H)) = dcbaa5dd137c188ebb21492c23c9b112 (the RFC's value). */
    static const uint8_t rfc_h[16] = {0x25, 0x62, 0x93, 0x47, 0x58, 0x92, 0x42, 0x76,
                                      0x1d, 0x31, 0xf8, 0x26, 0xba, 0x4b, 0x75, 0x7b};
    uint8_t k[16];
    uhash_reverse16(k, rfc_h);
    mulx_ghash(k);
    if (!hexeq(k, "dcbaa5dd137c188ebb21492c23c9b112")) {
        fprintf(stderr, "FAIL: mulX_GHASH(ByteReverse(H)) differs from RFC 8452 Appendix A's\n");
        return 1;
    }
    uint8_t h[16], s[16], x[16 * MAXB];
    for (int i = 0; i < 128; i++)
        for (int j = 0; j < 128; j++) {
            memset(h, 0, 16);
            memset(s, 0, 16);
            memset(x, 0, 16);
            h[i / 8] = (uint8_t)(1u << (i % 8));
            x[j / 8] = (uint8_t)(1u << (j % 8));
            relate(h, s, x, 1);
            memset(x, 0, 16);
            s[j / 8] = (uint8_t)(1u << (j % 8));
            relate(h, s, x, 1);
        }
    uint64_t r = 0x9e3779b97f4a7c15ull;
    for (int t = 0; t < 2000; t++) {
        size_t n = (size_t)t % (MAXB + 1);
        uint8_t *bytes[3] = {h, s, x};
        size_t lens[3] = {16, 16, 16 * n};
        for (int v = 0; v < 3; v++)
            for (size_t i = 0; i < lens[v]; i++) {
                r ^= r << 13, r ^= r >> 7, r ^= r << 17;
                bytes[v][i] = (uint8_t)r;
            }
        relate(h, s, x, n);
    }
    if (failed) {
        fprintf(stderr, "FAIL: the relation broke on %ld of %ld cases%s\n", failed, checked,
                control ? " (control: mulX left out, as expected)" : "");
        return 1;
    }
    printf("ok: RFC 8452 Appendix A's relation holds both ways on %ld cases (the RFC's "
           "mulX_GHASH example included)\n", checked);
    return 0;
}
