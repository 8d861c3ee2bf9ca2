/* libgcrypt_gcm_intel.h — what the ghash and polyval families' libgcrypt conventions
 * (libgcrypt_ghash.c, libgcrypt_polyval.c) share about libgcrypt 1.12.4's
 * cipher/cipher-gcm-intel-pclmul.c, a C file with inline assembly: its two update functions
 * are static, reached only through the pointers its one global function, the setup, stores in
 * the handle:
 *
 *   void _gcry_ghash_setup_intel_pclmul(gcry_cipher_hd_t c, unsigned int hw_features);
 *   unsigned int c->u_mode.gcm.ghash_fn(gcry_cipher_hd_t c, byte *result, const byte *buf,
 *                                       size_t nblocks);   (GCM's GHASH)
 *   unsigned int c->u_mode.gcm.polyval_fn(...the same...);  (GCM-SIV's POLYVAL)
 *
 * The handle is our stand-in cipher-internal.h's (libgcrypt-amd64/: libgcrypt's member names,
 * only the members the file reads), placed whole in the family's guarded "key schedule"
 * buffer, written by the setup and by the updates (they fill the 8-, 16- and 32-block tables
 * on their first long call).  The rows are the hw_features given to the setup, one per path
 * of the file (the bits are libgcrypt's src/g10lib.h, as the stand-in g10lib.h defines them).
 * Included by the two convention files alone, on x86-64. */
#ifndef ASMDIFF_LIBGCRYPT_GCM_INTEL_H
#define ASMDIFF_LIBGCRYPT_GCM_INTEL_H

#include <stddef.h>
#include <string.h>

#include "driver.h"
#include "uhash.h"
#include "fuzz/conventions/libgcrypt-amd64/cipher-internal.h"

#define LGI_SETUP "_gcry_ghash_setup_intel_pclmul"

typedef void (*lgi_setup_fn)(gcry_cipher_hd_t c, unsigned int hw_features);

struct lgi_row {
    const char *name; /* the operation (--op) */
    unsigned int hw;  /* the setup's hw_features */
};

/* pclmul: HWF_INTEL_PCLMUL alone (what cipher-gcm.c tests before it calls the setup): the
 * PCLMULQDQ code, 8 blocks a reduction, then 4, then one; vpclmul-avx2: with
 * HWF_INTEL_VAES_VPCLMUL and HWF_INTEL_AVX2, 16 blocks a reduction on ymm for calls of 16
 * blocks or more, then the pclmul row's loops; vpclmul-avx512: with HWF_INTEL_AVX512 too, 32
 * blocks a reduction on zmm for calls of 32 or more, then the avx2 row's loops. */
static const struct lgi_row lgi_rows[] = {
    {"pclmul", HWF_INTEL_PCLMUL},
    {"vpclmul-avx2", HWF_INTEL_PCLMUL | HWF_INTEL_VAES_VPCLMUL | HWF_INTEL_AVX2},
    {"vpclmul-avx512",
     HWF_INTEL_PCLMUL | HWF_INTEL_VAES_VPCLMUL | HWF_INTEL_AVX2 | HWF_INTEL_AVX512},
};
#define LGI_NROWS (sizeof lgi_rows / sizeof lgi_rows[0])

/* The handle before the setup: key (16 bytes, the caller's form of H) in the GHASH key,
 * everything else zero. */
static inline void lgi_handle_for(struct gcry_cipher_handle *hd, const uint8_t key[16])
{
    memset(hd, 0, sizeof *hd);
    memcpy(hd->u_mode.gcm.u_ghash_key.key, key, 16);
}

/* The update the setup stored: GCM's GHASH or GCM-SIV's POLYVAL. */
static inline ghash_fn_t lgi_update(const struct gcry_cipher_handle *hd, int polyval)
{
    return polyval ? hd->u_mode.gcm.polyval_fn : hd->u_mode.gcm.ghash_fn;
}

/* Every call of case c, checked: the handle (key in it) placed in the key schedule buffer, the
 * message as it is, the state start (the file's byte order); the setup with the row's
 * hw_features, then the update it stored once per call of the case; the final state into got. */
static inline void lgi_run(const void *setup, const struct lgi_row *r, int polyval,
                           const uint8_t key[16], const uint8_t start[16],
                           const struct uhash_case *c, uint8_t got[16])
{
    struct gcry_cipher_handle h0;
    lgi_handle_for(&h0, key);
    struct gcry_cipher_handle *hd = drv_inout(UHASH_B_SCHEDULE, &h0, sizeof h0);
    const uint8_t *msg = drv_in(UHASH_B_MSG, c->msg, 16 * c->nblocks);
    uint8_t *state = drv_inout(UHASH_B_STATE, start, 16);
    DRV_CALL((lgi_setup_fn)setup, hd, r->hw);
    ghash_fn_t update = lgi_update(hd, polyval);
    if (update) /* (a setup that stores none leaves the state as it was: a mismatch) */
        for (size_t i = 0; i <= c->nsplits; i++) {
            size_t from = uhash_call_from(c, i), to = uhash_call_to(c, i);
            DRV_CALL(update, hd, state, msg + 16 * from, to - from);
        }
    memcpy(got, state, 16);
}

/* ./asmdiff bench: the setup once per key and row (libgcrypt's setkey: kept in the handle),
 * then the update over the blocks, on plain memory. */
static inline void lgi_bench(const void *setup, const struct lgi_row *r, int polyval,
                             const uint8_t key[16], uint8_t state[16], const uint8_t *blocks,
                             size_t nblocks)
{
    static struct gcry_cipher_handle hd;
    static const void *made_by;
    static const struct lgi_row *made_row;
    static uint8_t made_for[16];
    if (made_by != setup || made_row != r || memcmp(made_for, key, 16)) {
        lgi_handle_for(&hd, key);
        ((lgi_setup_fn)setup)(&hd, r->hw);
        memcpy(made_for, key, 16);
        made_by = setup;
        made_row = r;
    }
    lgi_update(&hd, polyval)(&hd, state, blocks, nblocks);
}

/* The update the setup stores for the pclmul row on a known answer: acc updated by nblocks of
 * msg, the handle's key given; NULL when the setup stores none.  A probe (identify()). */
static inline ghash_fn_t lgi_probe(const void *setup, int polyval, const uint8_t key[16],
                                   uint8_t acc[16], const uint8_t *msg, size_t nblocks)
{
    static struct gcry_cipher_handle hd;
    lgi_handle_for(&hd, key);
    DRV_PROBE((lgi_setup_fn)setup, &hd, lgi_rows[0].hw);
    ghash_fn_t update = lgi_update(&hd, polyval);
    if (update) DRV_PROBE(update, &hd, acc, msg, nblocks);
    return update;
}

#endif
