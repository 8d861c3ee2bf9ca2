/* libgcrypt_polyval.c — libgcrypt 1.12.4's POLYVAL update functions as a convention of the
 * polyval family (./asmdiff check polyval --convention libgcrypt), as libgcrypt's GCM-SIV
 * (cipher/cipher-gcm-siv.c) keeps and calls them:
 *
 *   unsigned int c->u_mode.gcm.polyval_fn(gcry_cipher_hd_t c, byte *result, const byte *buf,
 *                                         size_t nblocks);
 *
 * GCM-SIV keeps POLYVAL on its GHASH engine, RFC 8452 Appendix A's way: before the GHASH
 * setup, the handle's GHASH key (c->u_mode.gcm.u_ghash_key.key) holds mulX_GHASH of the
 * byte-reversed H (polyval_set_key), the running hash is the byte-reversed POLYVAL state, and
 * the update byte-reverses each message block itself.  The conversions are uhash.h's (ours,
 * from the RFC, not libgcrypt's).
 *
 * The rows:
 *  - polyval (every CPU family): the update called directly on a handle of the GHASH key
 *    alone, as cipher-gcm.c's setupM stores cipher/cipher-gcm-riscv-zvkg.c's
 *    _gcry_polyval_riscv_zvkg (its setup reads the key and writes nothing the update reads).
 *    The file is compiled against a stand-in cipher-internal.h (verify/outside/libgcrypt-riscv/)
 *    whose handle is that member alone: the placed key buffer is the whole handle, and a read
 *    past it is a guard-page finding.  Our x86-64 fixtures (verify/outside/fixtures/
 *    polyval-gcrypt*.c) are written in this form too, so it is checked on every host.
 *  - pclmul, vpclmul-avx2, vpclmul-avx512 (x86-64): cipher/cipher-gcm-intel-pclmul.c's
 *    _gcry_polyval_intel_pclmul, a static function its global setup
 *    (_gcry_ghash_setup_intel_pclmul(c, hw_features)) stores in c->u_mode.gcm.polyval_fn: per
 *    case, the setup with the row's hw_features (libgcrypt_gcm_intel.h: one row per path of
 *    the file, as the ghash family's libgcrypt convention has them), then the stored update
 *    once per call of the case, on the handle of the stand-in cipher-internal.h
 *    (fuzz/conventions/libgcrypt-amd64/) placed whole in the key schedule buffer.  The symbol
 *    may be the polyval function itself (the check build makes a static function global:
 *    verify/outside/rename_syms.py), which the setup must be the one to store, or the setup.
 *    Its paths: 8 blocks a reduction, then 4, then one (pclmul); 16 on ymm for calls of 16
 *    blocks or more (vpclmul-avx2); 32 on zmm for calls of 32 or more (vpclmul-avx512).
 *
 * Leftovers: libgcrypt's SIMD code clears the vector registers it used (data left there is a
 * finding); the stack is information: the C caller wipes the depth the update returns
 * (_gcry_burn_stack).  (The x86-64 POLYVAL update's AVX2 loop zeroes its on-stack copy of the
 * key powers, where GHASH's leaves its byte-swap mask: the check sees no stack leftovers.) */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "uhash.h"
#include "reference/polyval.h"

#if defined(__x86_64__)
#include "fuzz/conventions/libgcrypt_gcm_intel.h"
#endif

typedef unsigned int (*gcry_polyval_fn)(const void *c, uint8_t *result, const uint8_t *buf,
                                        size_t nblocks);

/* GCM-SIV's key for its GHASH engine, and its running hash: from H and the POLYVAL state */
static void gcry_key(uint8_t key[16], const uint8_t h[16])
{
    uhash_reverse16(key, h);
    uhash_mulx_ghash(key);
}

/* the polyval row: the update called directly, the 16-byte handle in the key buffer */
static void direct_run(const struct uhash_upstream *k, const struct uhash_case *c,
                       uint8_t got[16])
{
    uint8_t handle[16], rstate[16];
    gcry_key(handle, c->h);
    uhash_reverse16(rstate, c->start);
    const uint8_t *msg = drv_in(UHASH_B_MSG, c->msg, 16 * c->nblocks);
    uint8_t *state = drv_inout(UHASH_B_STATE, rstate, 16);
    const uint8_t *key = drv_in(UHASH_B_KEY, handle, 16);
    for (size_t i = 0; i <= c->nsplits; i++) {
        size_t from = uhash_call_from(c, i), to = uhash_call_to(c, i);
        DRV_CALL((gcry_polyval_fn)k->fn, key, state, msg + 16 * from, to - from);
    }
    uhash_reverse16(got, state);
}

struct lgp_row {
    const char *name;
#if defined(__x86_64__)
    const struct lgi_row *setup_row; /* NULL: the polyval row */
#endif
};

static const struct lgp_row rows[] = {
#if defined(__x86_64__)
    {"polyval", NULL},
#else
    {"polyval"},
#endif
#if defined(__x86_64__)
    {"pclmul", &lgi_rows[0]},
    {"vpclmul-avx2", &lgi_rows[1]},
    {"vpclmul-avx512", &lgi_rows[2]},
#endif
};
#define NROWS (sizeof rows / sizeof rows[0])

/* A kernel: what make_ops returns (u, first), and on x86-64's setup rows the file's setup,
 * found by name beside the symbol (or the symbol itself). */
struct lgp_kernel {
    struct uhash_upstream u;
    const void *setup;
};

#if defined(__x86_64__)
static void setup_run(const struct uhash_upstream *k, const struct uhash_case *c,
                      uint8_t got[16])
{
    const struct lgp_kernel *pk = (const struct lgp_kernel *)k;
    uint8_t key[16], rstart[16], rgot[16];
    gcry_key(key, c->h);
    uhash_reverse16(rstart, c->start);
    lgi_run(pk->setup, ((const struct lgp_row *)k->row)->setup_row, 1, key, rstart, c, rgot);
    uhash_reverse16(got, rgot);
}

/* ./asmdiff bench: the setup once per key (lgi_bench), the update over the blocks; GCM-SIV's
 * key made once per H, as its setkey does, and the state reversed around the call (the
 * caller's 16-byte tag kept reversed there: two 16-byte moves a call that libgcrypt saves) */
static void setup_bench(const struct uhash_upstream *k, uint8_t state[16], const uint8_t h[16],
                        const uint8_t *blocks, size_t nblocks)
{
    const struct lgp_kernel *pk = (const struct lgp_kernel *)k;
    static uint8_t key[16], made_for[16];
    static int made;
    if (!made || memcmp(made_for, h, 16)) {
        gcry_key(key, h);
        memcpy(made_for, h, 16);
        made = 1;
    }
    uhash_reverse16(state, state);
    lgi_bench(pk->setup, ((const struct lgp_row *)k->row)->setup_row, 1, key, state, blocks,
              nblocks);
    uhash_reverse16(state, state);
}

/* The file's setup: the symbol itself, or the global function of that name beside it. */
static const void *setup_of(const void *fn, const char *symbol)
{
    const void *s = drv_outside_entry(fn, LGI_SETUP);
    if (!s && symbol && strstr(symbol, LGI_SETUP)) s = fn;
    return s;
}
#endif

static struct lgp_kernel kernels[OUTSIDE_MAX];
static size_t nkernels;

static const char *op_name(const struct convention *cv, size_t op)
{
    (void)cv;
    return op < NROWS ? rows[op].name : "?";
}

static const void *make_ops(const struct convention *cv, const void *fn, size_t op)
{
    (void)cv;
    if (nkernels == OUTSIDE_MAX || op >= NROWS) return NULL;
    kernels[nkernels].u = (struct uhash_upstream){.fn = fn, .row = &rows[op], .run = direct_run};
#if defined(__x86_64__)
    if (rows[op].setup_row) {
        const void *setup = setup_of(fn, NULL);
        if (!setup) {
            fprintf(stderr, "asmdiff: the libgcrypt convention's row %s calls %s, which the "
                            "file does not define as a global function\n", rows[op].name,
                    LGI_SETUP);
            printf("polyval: FAIL: the file defines no %s (the libgcrypt convention's row "
                   "%s)\n", LGI_SETUP, rows[op].name);
            exit(2);
        }
        kernels[nkernels].setup = setup;
        kernels[nkernels].u.run = setup_run;
        kernels[nkernels].u.bench = setup_bench;
    }
#endif
    return &kernels[nkernels++].u;
}

/* A known answer: H and nine blocks (x86-64's 8-block loop and one more), from our reference.
 * In a file with the setup (x86-64), the pclmul row when the setup stores fn (or fn is the
 * setup) and its update gives the answer; else the polyval row when fn called directly does;
 * else -1. */
static int identify(const struct convention *cv, const void *fn, const char *symbol)
{
    (void)cv;
    static uint8_t msg[16 * 9], acc[64], want[16], key[16];
    const uint8_t h[16] = {0x25, 0x62, 0x93, 0x47, 0x58, 0x92, 0x42, 0x76,
                           0x1d, 0x31, 0xf8, 0x26, 0xba, 0x4b, 0x75, 0x7b};
    struct polyval_ctx ref;
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 11 + 3);
    polyval_init(&ref, h);
    polyval_update(&ref, msg, 9);
    polyval_final(&ref, want);
    uhash_reverse16(want, want);
    gcry_key(key, h);
    memset(acc, 0, sizeof acc);
#if defined(__x86_64__)
    const void *setup = setup_of(fn, symbol);
    if (setup) {
        ghash_fn_t stored = lgi_probe(setup, 1, key, acc, msg, 9);
        if (!stored || (fn != setup && (const void *)stored != fn)) return -1;
        return memcmp(acc, want, 16) ? -1 : 1;
    }
#else
    (void)symbol;
#endif
    DRV_PROBE((gcry_polyval_fn)fn, key, acc, msg, (size_t)9);
    return memcmp(acc, want, 16) ? -1 : 0;
}

/* the x86-64 rows are one computation, the paths chosen by hw_features */
static int same_operation(const struct convention *cv, size_t a, size_t b)
{
    (void)cv;
    return (a == 0) == (b == 0);
}

/* registered by name in fuzz/meson.build's 'conventions' list (driver.h: struct convention) */
const struct convention convention_libgcrypt_polyval = {
    .name = "libgcrypt",
    .prototype = "unsigned int c->u_mode.gcm.polyval_fn(gcry_cipher_hd_t c, byte *result, "
                 "const byte *buf, size_t nblocks) per call (any nblocks): "
                 "c->u_mode.gcm.u_ghash_key.key = mulX_GHASH(byterev(H)), result = "
                 "byterev(state); row polyval: the function called directly, the handle the "
                 "key alone (stand-in cipher-internal.h: _gcry_polyval_riscv_zvkg); rows "
                 "pclmul, vpclmul-avx2, vpclmul-avx512 (x86-64): "
                 "_gcry_ghash_setup_intel_pclmul(c, hw_features) first, which stores "
                 "_gcry_polyval_intel_pclmul, the handle (stand-in cipher-internal.h's: key, "
                 "table, flags, function pointers) in the key schedule buffer, written by both",
    .clean = CONV_CLEAN_VECTORS,
    .leftovers = "the stack: the C caller wipes the depth the update returns "
                 "(_gcry_burn_stack); vector registers: findings",
    .nops = NROWS,
    .op_name = op_name,
    .make_ops = make_ops,
    .identify = identify,
    .same_operation = same_operation,
    .rows = rows,
};
