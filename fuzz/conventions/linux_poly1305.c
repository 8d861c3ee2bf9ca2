/* linux_poly1305.c — Linux 6.12's x86-64 Poly1305 as the poly1305 family's linux convention:
 * arch/x86/crypto/poly1305-x86_64-cryptogams.pl, which Linux's build runs through perl with no
 * argument (arch/x86/crypto/Makefile, cmd_perlasm: `$(PERL) $< > $@`; with neither flavour nor
 * output the script writes its kernel form: SYM_FUNC_START, <linux/linkage.h>, the AVX-512
 * function under #ifdef CONFIG_AS_AVX512) to make poly1305-x86_64-cryptogams.S.
 *
 * The file's entry points, as arch/x86/crypto/poly1305_glue.c declares them (asmlinkage):
 *
 *   void poly1305_init_x86_64(void *ctx, const u8 key[16]);
 *   void poly1305_blocks_x86_64(void *ctx, const u8 *inp, size_t len, u32 padbit);
 *   void poly1305_blocks_avx / _avx2 / _avx512(void *ctx, const u8 *inp, size_t len, u32 padbit);
 *   void poly1305_emit_x86_64 / _avx(void *ctx, u8 mac[16], const u32 nonce[4]);
 *
 * all on one state, the glue's struct poly1305_arch_internal (192 bytes): h as three u64 (base
 * 2^64) or, once a vector path has run, as five u32 limbs (base 2^26) followed by the u32
 * is_base2_26 at byte 20; r (two u64) at 24; a pad; at 48 nine 16-byte rows of r's powers in
 * base 2^26, which the vector paths fill.  Those are facts of the glue's declarations.
 *
 * The glue's calling pattern is the contract, and it is made here as the glue makes it (our
 * code, from what the glue does):
 *   init: poly1305_init_x86_64 (r clamped, h and the flag zeroed);
 *   update: the caller's partial-block carrying is the family's (fuzz/poly1305.c's run: the
 *     same as poly1305_update_arch and _final_arch); each blocks call goes through the glue's
 *     choice (poly1305_simd_blocks): the scalar poly1305_blocks_x86_64 when the CPU level has
 *     no vector path (row x86_64), when the call is shorter than 18 blocks and the state is
 *     still in base 2^64, or when SIMD is not usable (crypto_simd_usable() false: in an
 *     interrupt; here the case's bit for that call, poly_upstream.h's alt); before a scalar
 *     call a state in base 2^26 is converted to base 2^64 in C (the glue's
 *     convert_to_base2_64).  Otherwise the level's vector function, in calls of at most 4096
 *     bytes (the glue's SZ_4K pieces), which itself converts a base 2^64 state to base 2^26
 *     (and makes the powers) and handles a lone block in a base 2^26 state in scalar code;
 *   emit: poly1305_emit_avx at the vector levels (it converts a base 2^26 state back itself),
 *     poly1305_emit_x86_64 at the scalar one.
 * So one message alternates the scalar and vector code on one state, in both bases: the class
 * of Linux 16f2c30e290e (a state left in base 2^26 by the vector path read as base 2^64).
 *
 * Rows (--op): the glue's choice at each CPU level (poly1305_simd_mod_init's static keys):
 *   avx512  AVX, AVX2 and AVX-512F: poly1305_blocks_avx512 (from 512 bytes its zmm loop,
 *           shorter pieces its AVX2 body), emit_avx;
 *   avx2    AVX and AVX2: poly1305_blocks_avx2, emit_avx;
 *   avx     AVX alone: poly1305_blocks_avx, emit_avx;
 *   x86_64  no AVX: poly1305_blocks_x86_64 for every call, emit_x86_64;
 *   x86_64-padbit-u32  as x86_64, padbit passed as its prototype's u32 (junk in bits 32-63,
 *           as the System V ABI allows): the scalar code adds all of rcx into the top limb
 *           (adc %rcx), so every tag from a whole block is wrong.  The glue's calls pass the
 *           constants 1 and 0, which compilers load zero-extended, so the other rows pass it
 *           zero-extended and the checks judge the rest; this row keeps the finding
 *           reproducible: ./asmdiff check poly1305 --kernel poly1305-x86_64-cryptogams.S
 *           --symbol poly1305_blocks_x86_64 --convention linux --op x86_64-padbit-u32.
 * Any of the file's functions may be --symbol: the others are taken from the same file by
 * name (drv_outside_entry); the symbol's name says its row (poly1305_blocks_avx2: avx2; init
 * and emit: avx512, the widest), --op another.
 *
 * Leftovers are information (CONV_LINUX_LEFTOVERS): the file clears neither vector registers
 * nor its stack. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "poly_upstream.h"

#define STATE_BYTES 192     /* struct poly1305_arch_internal */
#define SCALAR_BELOW 18     /* blocks: shorter calls stay scalar while h is in base 2^64 */
#define SIMD_PIECE 4096     /* bytes a vector call takes at most (the glue's SZ_4K) */
#define IS_BASE2_26_AT 20   /* the u32 flag after the five base 2^26 limbs */

struct op_row {
    const char *name;
    const char *blocks, *emit; /* the level's functions */
    int simd;                  /* the glue's poly1305_use_avx */
    int padbit_u32;            /* padbit passed as its prototype's u32 (junk in bits 32-63) */
};

static const struct op_row rows[] = {
    {"avx512", "poly1305_blocks_avx512", "poly1305_emit_avx", 1, 0},
    {"avx2", "poly1305_blocks_avx2", "poly1305_emit_avx", 1, 0},
    {"avx", "poly1305_blocks_avx", "poly1305_emit_avx", 1, 0},
    {"x86_64", "poly1305_blocks_x86_64", "poly1305_emit_x86_64", 0, 0},
    {"x86_64-padbit-u32", "poly1305_blocks_x86_64", "poly1305_emit_x86_64", 0, 1},
};
#define NROWS (sizeof rows / sizeof rows[0])

struct op_kernel {
    struct poly_upstream k; /* first: the family's view (poly_upstream.h) */
    const struct op_row *row;
    const void *init, *scalar, *blocks, *emit;
};

static uint32_t load32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The glue's conversion before a scalar call, as a value: h = sum of limb i times 2^(26 i)
 * (limbs may exceed 26 bits: the vector code leaves them partially carried), written as three
 * 64-bit words with the bits from 2^130 up folded back times 5 (2^130 = 5 mod p).  Linux's
 * glue reduces fully; a partially reduced h (top word <= 4) is what poly1305_blocks_x86_64
 * leaves itself, so it takes either, and the value mod p is the same. */
static void to_base2_64(uint8_t *st)
{
    if (!load32(st + IS_BASE2_26_AT)) return;
    unsigned __int128 limb[5], t;
    for (int i = 0; i < 5; i++) limb[i] = load32(st + 4 * i);
    t = limb[0] + (limb[1] << 26) + (limb[2] << 52);
    uint64_t w0 = (uint64_t)t;
    t = (t >> 64) + (limb[3] << 14) + (limb[4] << 40); /* 2^78 = 2^64 2^14, 2^104 = 2^64 2^40 */
    uint64_t w1 = (uint64_t)t, w2 = (uint64_t)(t >> 64);
    t = (unsigned __int128)w0 + 5 * (unsigned __int128)(w2 >> 2);
    w0 = (uint64_t)t;
    t = (t >> 64) + w1;
    w1 = (uint64_t)t;
    w2 = (w2 & 3) + (uint64_t)(t >> 64);
    uint64_t h[3] = {w0, w1, w2};
    memcpy(st, h, sizeof h); /* over the limbs and the flag: base 2^64 again */
}

static void init(const struct poly_upstream *k, void *state, const uint8_t *key)
{
    const struct op_kernel *ok = (const struct op_kernel *)k;
    DRV_CALL(ok->init, state, key);
}

static void scalar_call(const struct op_kernel *ok, void *state, const uint8_t *m, size_t len,
                        unsigned hibit)
{
    if (ok->row->padbit_u32)
        DRV_CALL(ok->scalar, state, m, len, hibit);
    else
        DRV_CALL(ok->scalar, state, m, len, (uint64_t)hibit);
}

/* poly1305_simd_blocks: alt set is SIMD not usable for this call */
static void blocks(const struct poly_upstream *k, void *state, const uint8_t *m, size_t nblocks,
                   unsigned hibit, unsigned alt)
{
    const struct op_kernel *ok = (const struct op_kernel *)k;
    uint8_t *st = state;
    size_t len = 16 * nblocks;
    if (!ok->row->simd || (nblocks < SCALAR_BELOW && !load32(st + IS_BASE2_26_AT)) || alt) {
        to_base2_64(st);
        scalar_call(ok, st, m, len, hibit);
        return;
    }
    for (size_t at = 0; at < len; at += SIMD_PIECE) {
        size_t piece = len - at < SIMD_PIECE ? len - at : SIMD_PIECE;
        DRV_CALL(ok->blocks, st, m + at, piece, (uint64_t)hibit);
    }
}

static void emit(const struct poly_upstream *k, void *state, const uint8_t *s, uint8_t *tag)
{
    const struct op_kernel *ok = (const struct op_kernel *)k;
    DRV_CALL(ok->emit, state, tag, s);
}

static struct op_kernel kernels[OUTSIDE_MAX];
static size_t nkernels;

static const char *op_name(const struct convention *cv, size_t op)
{
    (void)cv;
    return op < NROWS ? rows[op].name : "?";
}

/* A function of the file the glue calls: the file must define it (a kernel-form .S of
 * poly1305-x86_64-cryptogams.pl defines all seven; without CONFIG_AS_AVX512 no avx512). */
static const void *entry(const void *fn, const char *name, const char *row)
{
    const void *f = drv_outside_entry(fn, name);
    if (!f) {
        fprintf(stderr, "asmdiff: the linux convention's row %s calls %s, which the file does "
                        "not define as a global function\n", row, name);
        printf("poly1305: FAIL: the file defines no %s (the linux convention's row %s)\n", name,
               row);
        exit(2);
    }
    return f;
}

static const void *make_ops(const struct convention *cv, const void *fn, size_t op)
{
    (void)cv;
    if (nkernels == OUTSIDE_MAX || op >= NROWS) return NULL;
    const struct op_row *row = &rows[op];
    kernels[nkernels] = (struct op_kernel){
        .k = {.fn = fn, .state_bytes = STATE_BYTES, .init = init, .blocks = blocks,
              .emit = emit},
        .row = row,
        .init = entry(fn, "poly1305_init_x86_64", row->name),
        .scalar = entry(fn, "poly1305_blocks_x86_64", row->name),
        .blocks = entry(fn, row->blocks, row->name),
        .emit = entry(fn, row->emit, row->name)};
    return &kernels[nkernels++].k;
}

/* The row the symbol's name says: a blocks function its level's; init and emit the widest. */
static int identify(const struct convention *cv, const void *fn, const char *symbol)
{
    (void)cv, (void)fn;
    size_t n = strlen(symbol);
    for (size_t i = 0; i < NROWS; i++) {
        size_t m = strlen(rows[i].blocks);
        if (!rows[i].padbit_u32 && n >= m && !strcmp(symbol + n - m, rows[i].blocks))
            return (int)i;
    }
    return 0;
}

/* Every row is one computation (the MAC) through the glue: --op may name any of them. */
static int same_operation(const struct convention *cv, size_t a, size_t b)
{
    (void)cv, (void)a, (void)b;
    return 1;
}

/* registered by name in fuzz/meson.build's 'conventions' list (driver.h: struct convention) */
const struct convention convention_linux_poly1305 = {
    .name = "linux",
    .prototype = "asmlinkage void poly1305_init_x86_64(void *ctx, const u8 key[16]); "
                 "poly1305_blocks_{x86_64,avx,avx2,avx512}(void *ctx, const u8 *inp, size_t "
                 "len, u32 padbit); poly1305_emit_{x86_64,avx}(void *ctx, u8 mac[16], const u32 "
                 "nonce[4]) on one 192-byte poly1305_arch_internal, called as "
                 "poly1305_glue.c's poly1305_simd_blocks chooses (--op: avx512, avx2, avx, "
                 "x86_64; padbit zero-extended, the scalar code adds all of rcx: "
                 "x86_64-padbit-u32 passes it as the u32 it is declared)",
    .clean = 0,
    .leftovers = CONV_LINUX_LEFTOVERS,
    .nops = NROWS,
    .op_name = op_name,
    .make_ops = make_ops,
    .identify = identify,
    .same_operation = same_operation,
    .rows = rows,
};
