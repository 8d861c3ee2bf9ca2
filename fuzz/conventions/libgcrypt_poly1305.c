/* libgcrypt_poly1305.c — libgcrypt 1.12's AVX-512 IFMA Poly1305 (cipher/poly1305-amd64-avx512.S,
 * Intel's ipsec-mb code converted by libgcrypt) as a convention of the poly1305 family
 * (./asmdiff check poly1305 --convention libgcrypt), as cipher/poly1305.c declares and calls it:
 *
 *   unsigned int _gcry_poly1305_amd64_avx512_blocks(const void *msg, const u64 msg_len,
 *                                                   void *hash, const void *key);
 *
 * called by poly1305_blocks as (buf, len, st->h, st->r) on the context's POLY1305_STATE
 * (cipher/poly1305-internal.h: u32 k[4], the key's second half s; u32 r[4], the clamped r; u32
 * h[5], the accumulator), which this convention places as it is (52 bytes, the family's state
 * buffer).  The function reads r as two little-endian 64-bit words and h as h[0..1] and h[2..3]
 * (64 bits each) and h[4] (32 bits), adds msg_len / 16 blocks each with 2^128 set, multiplies
 * modulo 2^130 - 5, and writes h back partially reduced (radix 2^64; the vector path from 256
 * bytes on, 16 blocks a pass in 44-bit limbs).  msg_len: the glue passes whole blocks only (a
 * multiple of 16, at least 16: _gcry_poly1305_update's whole blocks, or its 16-byte buffer),
 * and only with the 2^128 bit (high_pad 1): the padded last block goes to its generic C code.
 * Here each of the family's whole-blocks calls (hibit 1) is one call of it, msg_len 16 *
 * nblocks as a 64-bit value.
 *
 * libgcrypt's C parts are done by the convention where its C code does them, with our
 * reference where there is arithmetic: poly1305_init's clamping of r into r[4] (RFC 8439
 * 2.5.1's masks) with s in k[4] and h zero; the padded last block (hibit 0), which
 * poly1305_blocks gives its generic C code, by reference/poly1305.c from the h the assembly
 * left (written back fully reduced); and poly1305_final's last step as it does it: one
 * conditional subtraction of p (h + 5 reaching 2^130), then h + s modulo 2^128.  That step is
 * right only for h < 2p, so an accumulator the assembly leaves too large for libgcrypt's final
 * is a wrong tag here too.  The return value is the stack depth to burn: 0 (the function
 * zeroes the powers of r it kept on its stack, and its vector and mask registers), so leftovers
 * are findings.
 *
 * Needs: libgcrypt takes the function when HWF_INTEL_AVX512 is set (src/hwf-x86.c: AVX512 F,
 * DQ, CD, BW, VL, IFMA, VBMI, VBMI2, VNNI, BITALG and VPOPCNTDQ together); of those, the ones
 * cpu.h names are this convention's needs.  Its entry opens with vpopcntb (BITALG), a
 * speculation stop.  Only the prototype, the state layout and how poly1305.c calls it are
 * facts used here; nothing of the file is copied. */
#include <string.h>

#include "driver.h"
#include "poly_upstream.h"
#include "reference/poly1305.h"

/* POLY1305_STATE, as u32 words: k (s) at 0, r at 4, h at 8 */
#define ST_K 0
#define ST_R 4
#define ST_H 8
#define STATE_BYTES 52

typedef unsigned int (*gcry_poly_fn)(const void *msg, uint64_t msg_len, void *hash,
                                     const void *key);

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t word64(const uint32_t *w)
{
    return w[0] | (uint64_t)w[1] << 32;
}

/* poly1305_init: r clamped (RFC 8439 2.5.1), s as k, h zero */
static void init(const struct poly_upstream *k, void *state, const uint8_t *key)
{
    (void)k;
    static const uint32_t clamp[4] = {0x0fffffff, 0x0ffffffc, 0x0ffffffc, 0x0ffffffc};
    uint32_t *st = state;
    for (int i = 0; i < 4; i++) {
        st[ST_R + i] = le32(key + 4 * i) & clamp[i];
        st[ST_K + i] = le32(key + 16 + 4 * i);
    }
    memset(st + ST_H, 0, 5 * sizeof(uint32_t));
}

/* The padded last block (hibit 0), as poly1305_blocks_generic computes it: by the reference,
 * from the h the assembly left. */
static void block_in_c(uint32_t *st, const uint8_t *m)
{
    uint8_t key[32] = {0}, acc[17];
    for (int i = 0; i < 16; i++) key[i] = (uint8_t)(st[ST_R + i / 4] >> (8 * (i % 4)));
    for (int i = 0; i < 16; i++) acc[i] = (uint8_t)(st[ST_H + i / 4] >> (8 * (i % 4)));
    /* the reference takes an accumulator below 2^136; the assembly's h[4] is at most a few */
    drv_expect_true(st[ST_H + 4] < 256, "the accumulator the assembly left is below 2^136 "
                                        "(h[4] < 256)");
    acc[16] = (uint8_t)st[ST_H + 4];
    struct poly1305_ref ref;
    poly1305_ref_init(&ref, key);
    poly1305_ref_set_acc(&ref, acc);
    poly1305_ref_blocks(&ref, m, 1, 0);
    poly1305_ref_acc(&ref, acc);
    for (int i = 0; i < 5; i++) st[ST_H + i] = i < 4 ? le32(acc + 4 * i) : acc[16];
}

/* (alt ignored: libgcrypt's glue takes the one path whenever HWF_INTEL_AVX512 is set) */
static void blocks(const struct poly_upstream *k, void *state, const uint8_t *m, size_t nblocks,
                   unsigned hibit, unsigned alt)
{
    (void)alt;
    uint32_t *st = state;
    if (!hibit) { /* libgcrypt's generic C code, one block at a time */
        for (size_t i = 0; i < nblocks; i++) block_in_c(st, m + 16 * i);
        return;
    }
    DRV_CALL((gcry_poly_fn)k->fn, m, (uint64_t)(16 * nblocks), st + ST_H, st + ST_R);
}

static void bench_blocks(const struct poly_upstream *k, void *state, const uint8_t *m,
                         size_t nblocks)
{
    uint32_t *st = state;
    ((gcry_poly_fn)k->fn)(m, (uint64_t)(16 * nblocks), st + ST_H, st + ST_R);
}

/* poly1305_final after its last block: h - p when h + 5 reaches 2^130 (once), then + s */
static void emit(const struct poly_upstream *k, void *state, const uint8_t *s, uint8_t *tag)
{
    (void)k, (void)s; /* s is the context's k, as libgcrypt keeps it */
    const uint32_t *st = state;
    uint64_t h0 = word64(st + ST_H), h1 = word64(st + ST_H + 2), h2 = st[ST_H + 4];
    uint64_t g0 = h0 + 5, c = g0 < h0, g1 = h1 + c;
    c = g1 < c;
    uint64_t u = (h2 + c) >> 2;      /* 0, or 1 when h >= p (h < 2p) */
    uint64_t add = (0 - u) & 5, t0 = h0 + add;
    h1 += t0 < h0, h0 = t0;           /* h + 5 modulo 2^128 when h >= p */
    uint64_t k0 = word64(st + ST_K), k1 = word64(st + ST_K + 2);
    t0 = h0 + k0;
    h1 += k1 + (t0 < h0), h0 = t0;
    for (int i = 0; i < 8; i++) {
        tag[i] = (uint8_t)(h0 >> (8 * i));
        tag[8 + i] = (uint8_t)(h1 >> (8 * i));
    }
}

static struct poly_upstream kernels[OUTSIDE_MAX];
static size_t nkernels;

static const char *const ops[] = {"avx512_blocks"};

static const void *make_ops(const struct convention *cv, const void *fn, size_t op)
{
    (void)cv;
    if (nkernels == OUTSIDE_MAX || op != 0) return NULL;
    kernels[nkernels] = (struct poly_upstream){.fn = fn, .state_bytes = STATE_BYTES,
                                               .init = init, .blocks = blocks, .emit = emit,
                                               .bench_blocks = bench_blocks};
    return &kernels[nkernels++];
}

/* registered by name in fuzz/meson.build's 'conventions' list (driver.h: struct convention) */
const struct convention convention_libgcrypt_poly1305 = {
    .name = "libgcrypt",
    .prototype = "unsigned int _gcry_poly1305_amd64_avx512_blocks(const void *msg, const u64 "
                 "msg_len, void *hash, const void *key), called (buf, 16 * nblocks, st->h, "
                 "st->r) on POLY1305_STATE {u32 k[4], r[4], h[5]} for whole blocks with 2^128 "
                 "set; clamping, the padded last block and the final in C (the reference); "
                 "returns the stack depth to burn (0)",
    .clean = CONV_CLEAN_VECTORS | CONV_CLEAN_STACK,
    .leftovers = "",
    .ops = ops,
    .nops = 1,
    .make_ops = make_ops,
    .needs = "avx512f,avx512bw,avx512dq,avx512vl,avx512vbmi,avx512bitalg,avx512ifma",
};
