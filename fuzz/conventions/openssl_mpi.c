/* openssl_mpi.c — OpenSSL's crypto/bn/asm/x86_64-mont.pl as perlasm writes it, as conventions
 * of the mpi family (its mont_mul operation): the elf flavour (`openssl`, System V) and the
 * mingw64 flavour (`win64`, taken as it is; openssl_perlasm.h), as its C caller
 * (crypto/bn/bn_mont.c) calls it:
 *
 *   int bn_mul_mont(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp, const BN_ULONG *np,
 *                   const BN_ULONG *n0, int num);
 *
 * rp = ap * bp / 2^(64 num) mod np, ap and bp below np, n0[0] = -np^-1 mod 2^64, returning 1;
 * called only for num > 1 (the caller's own condition), rp may be ap or bp (in place) and ap
 * may be bp (a squaring).  The entry point chooses its path: num % 4 or num < 8 the one-limb
 * loop, else four limbs a pass (bn_mul4x_mont), or for a squaring with num % 8 == 0 eight
 * (bn_sqr8x_mont, whose inner part is in x86_64-mont5.pl: a check links that file beside it,
 * --with); with OPENSSL_ia32cap_P's BMI2 and ADX bits the mulx/adcx/adox forms of the last two.
 * --op picks those bits: mulx (BMI2 and ADX), x86_64 (neither).  Leftovers are information, as
 * for every OpenSSL file (OPENSSL_LEFTOVERS).  Only the prototype, the caller's conditions and
 * the capability bits are facts used here. */
#include <string.h>

#include "driver.h"
#include "mpi_upstream.h"
#include "openssl_perlasm.h"

struct om_row {
    const char *name;
    unsigned cap1, cap2;
};
static const struct om_row rows[] = {
    {"mulx", 0, OPENSSL_CAP2_BMI2 | OPENSSL_CAP2_ADX},
    {"x86_64", 0, 0},
};
#define NROWS (sizeof rows / sizeof rows[0])

struct om_kernel {
    struct mpi_ops k; /* first: the family's view (mpi_upstream.h) */
    const struct om_row *row;
    int win64;
};

static uint64_t mont_call(const struct mpi_ops *k, uint64_t *rp, const uint64_t *a,
                          const uint64_t *b, const uint64_t *m, const uint64_t *n0, size_t n,
                          int checked)
{
    const struct om_kernel *ok = (const struct om_kernel *)k;
    openssl_caps_set(ok->row->cap1, ok->row->cap2);
    if (!checked) {
        /* the bench calls the function directly: a Win64 function cannot be called so */
        if (ok->win64) return 0;
        return (uint64_t)k->mont(rp, a, b, m, n0, (int)n);
    }
    if (ok->win64) return DRV_CALL_WIN64(k->mont, rp, a, b, m, n0, (int)n);
    return DRV_CALL(k->mont, rp, a, b, m, n0, (int)n);
}

static struct om_kernel kernels[OUTSIDE_MAX];
static size_t nkernels;

static const char *op_name(const struct convention *cv, size_t op)
{
    (void)cv;
    return op < NROWS ? rows[op].name : "?";
}

static const void *make_ops(const struct convention *cv, const void *fn, size_t op)
{
    if (nkernels == OUTSIDE_MAX || op >= NROWS) return NULL;
    openssl_caps_region();
    kernels[nkernels] = (struct om_kernel){
        .k = {.mont = (mont_fn)fn, .mont_call = mont_call, .mont_min_n = 2},
        .row = &rows[op], .win64 = !strcmp(cv->name, "win64")};
    return &kernels[nkernels++].k;
}

#define OPENSSL_MONT_PROTOTYPE                                                                \
    "int bn_mul_mont(BN_ULONG *rp, const BN_ULONG *ap, const BN_ULONG *bp, const BN_ULONG "   \
    "*np, const BN_ULONG *n0, int num): rp = ap * bp / 2^(64 num) mod np for num > 1, "       \
    "returns 1 (mont_mul; the path chosen from OPENSSL_ia32cap_P, --op: mulx, x86_64)"

/* convention_openssl_mpi and convention_win64_mpi (no file win64_mpi.c: the mingw64 output is
 * this one's second row) */
OPENSSL_PERLASM_CONVENTIONS(mpi, OPENSSL_MONT_PROTOTYPE, .nops = NROWS, .op_name = op_name,
                            .make_ops = make_ops, .identify = openssl_identify_first,
                            .same_operation = openssl_same_operation, .rows = rows);
