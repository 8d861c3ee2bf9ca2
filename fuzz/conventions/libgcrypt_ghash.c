/* libgcrypt_ghash.c — libgcrypt 1.12.4's cipher/cipher-gcm-intel-pclmul.c (a C file with inline
 * assembly) as a convention of the ghash family (./asmdiff check ghash --convention libgcrypt),
 * as libgcrypt's GCM (cipher/cipher-gcm.c) sets it up and calls it:
 *
 *   void _gcry_ghash_setup_intel_pclmul(gcry_cipher_hd_t c, unsigned int hw_features);
 *   then, through the pointer the setup stores in the handle,
 *   unsigned int c->u_mode.gcm.ghash_fn(gcry_cipher_hd_t c, byte *result, const byte *buf,
 *                                       size_t nblocks);
 *
 * The setup is the file's one global function (the update is static: callers reach it only
 * through c->u_mode.gcm.ghash_fn), so the symbol checked is the setup, and every case calls it
 * first and then the update it stored, once per call of the case.  Before the setup,
 * c->u_mode.gcm.u_ghash_key.key holds H as GCM defines it (cipher-gcm.c's setkey encrypts the
 * zero block into it); the setup turns it in place into its own form and fills
 * c->u_mode.gcm.gcm_table with powers of H, and the update fills the rest of the table itself
 * the first time a call is long enough for its 8-, 16- or 32-block loop (c->u_mode.gcm.
 * hw_impl_flags records it).  So the handle is written by both calls: it is placed whole in
 * the family's guarded "key schedule" buffer as an input the calls may write (drv_inout), and a
 * read or write before the key or past the table's end is a guard-page finding.  result is
 * GHASH's running value in GCM's byte order and buf the message as it is: the family's state
 * and message, untransformed.  nblocks is any count, 0 included (the file returns at once).
 *
 * The handle's layout is our stand-in cipher-internal.h's (verify/outside/libgcrypt-amd64,
 * libgcrypt's member names, only the members the file reads), included here so the handle the
 * check places is the one the file was compiled against: check the file with that folder's
 * headers beside it (--beside; docs/check-your-patch.md).
 *
 * The rows: the hw_features the setup is given, one per path of the file (each row the same
 * computation, so --op names any of them for the setup symbol):
 *  - pclmul: HWF_INTEL_PCLMUL alone (what cipher-gcm.c tests before it calls the setup): the
 *    PCLMULQDQ code, 8 blocks a reduction (x86-64), then 4, then one;
 *  - vpclmul-avx2: with HWF_INTEL_VAES_VPCLMUL and HWF_INTEL_AVX2: 16 blocks a reduction on
 *    ymm registers for calls of 16 blocks or more, then the pclmul row's loops;
 *  - vpclmul-avx512: with HWF_INTEL_AVX512 too: 32 blocks a reduction on zmm registers for
 *    calls of 32 or more, then the avx2 row's loops.
 * The bits are libgcrypt 1.12.4's (src/g10lib.h), as the stand-in g10lib.h defines them.
 * The CPU features each row needs are the command's (--needs, per kernel: libgcrypt's guard for
 * the row, docs/check-your-patch.md); the convention declares the pclmul row's (PCLMULQDQ, and
 * SSSE3 for pshufb), the least any row needs.
 *
 * Leftovers: libgcrypt's SIMD code clears the vector registers it used, so data left there is a
 * finding.  The stack is information (STACK_LEFTOVERS below): the update returns 0, no depth
 * for its caller to burn, and its AVX2 loop (calls of 16 blocks or more, both vpclmul rows)
 * keeps H^1|H^2 and H^15|H^16 in a 64-byte array of its frame, which it overwrites with its
 * byte-swap mask before it returns: that constant is what stays below the caller's frame. */
#include <stddef.h>
#include <string.h>

#include "driver.h"
#include "uhash.h"
#include "reference/ghash.h"

#if defined(__x86_64__)
/* the handle, the rows, the setup and its calls: shared with the polyval family's convention */
#include "fuzz/conventions/libgcrypt_gcm_intel.h"

/* GHASH's key, state and message are GCM's strings as they are */
static void run(const struct uhash_upstream *k, const struct uhash_case *c, uint8_t got[16])
{
    lgi_run(k->fn, k->row, 0, c->h, c->start, c, got);
}

static void bench(const struct uhash_upstream *k, uint8_t state[16], const uint8_t h[16],
                  const uint8_t *blocks, size_t nblocks)
{
    lgi_bench(k->fn, k->row, 0, h, state, blocks, nblocks);
}

static struct uhash_upstream kernels[OUTSIDE_MAX];
static size_t nkernels;

static const char *op_name(const struct convention *cv, size_t op)
{
    (void)cv;
    return op < LGI_NROWS ? lgi_rows[op].name : "?";
}

static const void *make_ops(const struct convention *cv, const void *fn, size_t op)
{
    (void)cv;
    if (nkernels == OUTSIDE_MAX || op >= LGI_NROWS) return NULL;
    kernels[nkernels] =
        (struct uhash_upstream){.fn = fn, .row = &lgi_rows[op], .run = run, .bench = bench};
    return &kernels[nkernels++];
}

/* The pclmul row when the symbol is a setup on a known answer: the H of the GCM
 * specification's test cases 1 and 2 (AES-128, the zero key), nine blocks (the 8-block loop and one more); else -1. */
static int identify(const struct convention *cv, const void *fn, const char *symbol)
{
    (void)cv, (void)symbol;
    static uint8_t msg[16 * 9], acc[64], want[16];
    const uint8_t h[16] = {0x66, 0xe9, 0x4b, 0xd4, 0xef, 0x8a, 0x2c, 0x3b,
                           0x88, 0x4c, 0xfa, 0x59, 0xca, 0x34, 0x2b, 0x2e};
    struct ghash_ctx ref;
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)(i * 11 + 3);
    ghash_init(&ref, h);
    ghash_update(&ref, msg, 9);
    ghash_final(&ref, want);
    memset(acc, 0, sizeof acc);
    if (!lgi_probe(fn, 0, h, acc, msg, 9)) return -1;
    return memcmp(acc, want, 16) ? -1 : 0;
}

/* the rows are one computation, the paths chosen by hw_features */
static int same_operation(const struct convention *cv, size_t a, size_t b)
{
    (void)cv, (void)a, (void)b;
    return 1;
}

#define STACK_LEFTOVERS                                                                        \
    "the stack: the update's AVX2 loop wipes its on-stack copy of H^1|H^2|H^15|H^16 with its "  \
    "byte-swap mask (a constant: 0x08090a0b0c0d0e0f as a 64-bit word) and returns 0, so that "  \
    "constant stays below the caller's frame; vector registers: findings"

/* registered by name in fuzz/meson.build's 'conventions' list (driver.h: struct convention) */
const struct convention convention_libgcrypt_ghash = {
    .name = "libgcrypt",
    .prototype = "void _gcry_ghash_setup_intel_pclmul(gcry_cipher_hd_t c, unsigned int "
                 "hw_features), then unsigned int c->u_mode.gcm.ghash_fn(gcry_cipher_hd_t c, "
                 "byte *result, const byte *buf, size_t nblocks) per call: "
                 "c->u_mode.gcm.u_ghash_key.key = H before the setup, the handle (our stand-in "
                 "cipher-internal.h's: key, table, flags, function pointers) in the key "
                 "schedule buffer, written by both; result = GHASH's state; the row sets "
                 "hw_features (pclmul, vpclmul-avx2, vpclmul-avx512)",
    .clean = CONV_CLEAN_VECTORS,
    .leftovers = STACK_LEFTOVERS,
    .nops = LGI_NROWS,
    .op_name = op_name,
    .make_ops = make_ops,
    .identify = identify,
    .same_operation = same_operation,
    .rows = lgi_rows,
    .needs = "pclmul,ssse3",
};
#endif
