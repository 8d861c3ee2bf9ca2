/* fuzz/mpi.c — the MPI family: n-limb add_n and sub_n, and Montgomery multiplication
 * (mont_mul: rp = a * b * 2^(-64n) mod m, OpenSSL's bn_mul_mont contract).
 *
 * Property: for every n, every limb pattern, every aliasing a real caller uses (rp == s1,
 * rp == s2, s1 == s2) and every buffer placement, each kernel's limbs and carry (borrow) equal
 * those of the plain C reference computed on unaliased copies, and each library (GMP mpn,
 * libgcrypt MPI, OpenSSL BN) agrees with the reference.  The kernels must not write outside
 * rp[0..n) nor into an input they do not alias.
 *
 * mont_mul's operands come from the same case (for n <= MPI_MONT_MAX_N, 64 limbs: 4096-bit
 * moduli): the modulus m is n more input limbs, made odd
 * and above 1 with a nonzero top limb; a and b are s1 and s2 with their top limb reduced below
 * m's (so a, b < m, as the contract asks; every lower limb as the input gave it); n0 =
 * -m^-1 mod 2^64.  The aliasings are the same (s1 == s2: a squaring, which OpenSSL's file
 * takes a path of its own for).  Our kernels implement add_n and sub_n only; mont_mul is
 * judged on the libraries (GMP's mpz value, OpenSSL's BN_mod_mul_montgomery) and on outside
 * kernels (OpenSSL's x86_64-mont.pl output: the openssl and win64 conventions,
 * fuzz/conventions/openssl_mpi.c).
 */
#include <stdlib.h>
#include <string.h>

#include "asmdiff-config.h"
#include "cpu.h"
#include "driver.h"
#include "properties.h"
#include "report.h"
#include "rng.h"
#include "vectors.h"
#include "reference/mpi.h"
#include "reference/oracles/mpi_oracles.h"
#if ASMDIFF_HAVE_GCRYPT
#include "reference/oracles/gcrypt_init.h"
#endif
#include "mpi_upstream.h"
#if ARCH_X86_64
#include "kernels/mpi/mpi.h"
#endif

#define MPI_MAX_N 320 /* limbs: covers every entry path and many loop trips */
/* mont_mul's largest n: 4096-bit moduli, every path of a Montgomery kernel (one limb, four and
 * eight a pass) many times over; its cost grows with n^2 (the emulated modes most) */
#define MPI_MONT_MAX_N 64

/* the implementations' view: struct mpi_ops (mpi_upstream.h, shared with the conventions) */
enum { OP_ADD = MPI_OP_ADD, OP_SUB = MPI_OP_SUB, OP_MONT = MPI_OP_MONT, NOPS = MPI_NOPS };

static uint64_t mont_scratch[2 * MPI_MAX_N + 1];
static int mont_ref(uint64_t *rp, const uint64_t *ap, const uint64_t *bp, const uint64_t *np,
                    const uint64_t *n0, int num)
{
    mpi_mont_mul_ref(rp, ap, bp, np, *n0, (size_t)num, mont_scratch);
    return 1;
}

static const struct mpi_ops reference = {.op = {mpi_add_n_ref, mpi_sub_n_ref}, .mont = mont_ref,
                                         .mont_min_n = 1};
#if ARCH_X86_64
static const struct mpi_ops simple = {.op = {mpi_add_n_x86_64_simple, mpi_sub_n_x86_64_simple}};
static const struct mpi_ops unroll4 = {.op = {mpi_add_n_x86_64_unroll4, mpi_sub_n_x86_64_unroll4}};
#endif
#if ASMDIFF_HAVE_GMP
static const struct mpi_ops gmp = {.op = {oracle_gmp_add_n, oracle_gmp_sub_n},
                                   .mont = oracle_gmp_mont_mul, .min_n = 1, .mont_min_n = 1};
#endif
#if ASMDIFF_HAVE_GCRYPT
static const struct mpi_ops gcrypt = {.op = {oracle_gcrypt_add_n, oracle_gcrypt_sub_n},
                                      .bench = {oracle_gcrypt_bench_add, oracle_gcrypt_bench_sub}};
#endif
#if ASMDIFF_HAVE_OPENSSL
static const struct mpi_ops openssl = {.op = {oracle_openssl_add_n, oracle_openssl_sub_n},
                                       .mont = oracle_openssl_mont_mul, .mont_min_n = 1,
                                       .bench = {oracle_openssl_bench_add, oracle_openssl_bench_sub,
                                                 oracle_openssl_bench_mont}};
#endif

static const struct impl impls[] = {
    IMPL("c-reference", 0, IMPL_REFERENCE, &reference),
#if ARCH_X86_64
    IMPL("x86_64-simple", CPU_X86_64, IMPL_KERNEL | IMPL_CLEAN, &simple),
    IMPL("x86_64-unroll4", CPU_X86_64, IMPL_KERNEL | IMPL_CLEAN, &unroll4),
#endif
#if ASMDIFF_HAVE_GMP
    IMPL("gmp", 0, IMPL_LIBRARY, &gmp, .describe = oracle_gmp_version),
#endif
#if ASMDIFF_HAVE_GCRYPT
    IMPL("libgcrypt", 0, IMPL_LIBRARY, &gcrypt, .describe = oracle_gcrypt_describe,
     .label = oracle_gcrypt_label,
         .version = oracle_gcrypt_version, .hwf = oracle_gcrypt_hwf),
#endif
#if ASMDIFF_HAVE_OPENSSL
    IMPL("openssl", 0, IMPL_LIBRARY, &openssl, .describe = oracle_openssl_version),
#endif
};

enum { B_S1, B_S2, B_RP, B_M, B_N0 };
static const struct buf_spec bufs[] = {
    {"s1", 8, BUF_SECRET}, {"s2", 8, BUF_SECRET}, {"rp", 8, 0}, {"m", 8, 0}, {"n0", 8, 0}};

enum alias { ALIAS_NONE, ALIAS_RP_S1, ALIAS_RP_S2, ALIAS_S1_S2, ALIAS_ALL, ALIAS_COUNT };
static const char *const alias_names[] = {"none", "rp==s1", "rp==s2", "s1==s2", "rp==s1==s2"};
static const char *const op_names[NOPS] = {"add_n", "sub_n", "mont_mul"};

static struct mpi_case {
    size_t n;
    enum alias alias;
    uint64_t s1[MPI_MAX_N], s2[MPI_MAX_N];
    /* mont_mul: the modulus (public), a and b from s1 and s2 (mont_derive), n0 */
    uint64_t m[MPI_MAX_N], a[MPI_MAX_N], b[MPI_MAX_N], n0;
    int no_mont; /* the exhaustive sample's add/sub-only cases (exhaustive()) */
} the_case;

/* x < m, both n limbs */
static int below(const uint64_t *x, const uint64_t *m, size_t n)
{
    for (size_t i = n; i-- > 0;)
        if (x[i] != m[i]) return x[i] < m[i];
    return 0;
}

/* mont_mul's operands from the case (module comment): m odd, above 1, top limb nonzero;
 * a, b as given when below m, else their top limb reduced mod m's; n0 from m.  Again after
 * vary_secrets (new s1, s2). */
static void mont_derive(struct mpi_case *c)
{
    size_t n = c->n;
    if (!n) return;
    c->m[0] |= 1;
    if (!c->m[n - 1]) c->m[n - 1] = 1;
    if (n == 1 && c->m[0] == 1) c->m[0] = 3;
    memcpy(c->a, c->s1, 8 * n);
    memcpy(c->b, c->s2, 8 * n);
    if (!below(c->a, c->m, n)) c->a[n - 1] %= c->m[n - 1];
    if (!below(c->b, c->m, n)) c->b[n - 1] %= c->m[n - 1];
    c->n0 = mpi_mont_n0_ref(c->m[0]);
}

static int same_inputs(const struct mpi_case *c)
{
    return c->alias == ALIAS_S1_S2 || c->alias == ALIAS_ALL;
}

static const uint64_t *second(const struct mpi_case *c)
{
    return same_inputs(c) ? c->s1 : c->s2;
}

static void *decode(struct input *in)
{
    struct mpi_case *c = &the_case;
    static const size_t widths[] = {4, 8, 16};
    c->n = input_length(in, MPI_MAX_N, widths, 3);
    c->alias = (enum alias)input_pick(in, ALIAS_COUNT);
    input_fill_words(in, c->s1, c->n, 8);
    input_fill_words(in, c->s2, c->n, 8);
    input_fill_words(in, c->m, c->n, 8);
    c->no_mont = 0;
    mont_derive(c);
    return c;
}

/* Case properties (properties.h): the unrolled kernels enter by n mod 4 and loop n / 4 times;
 * the aliasing decides nothing in them but is kept apart. */
static const char *const property_names[] = {"n mod 4", "n / 4 scale", "n", "aliasing"};
static size_t properties_of(const void *cv, struct case_property *out, size_t max)
{
    const struct mpi_case *c = cv;
    size_t n = prop_add(out, 0, max, 0, c->n % 4);
    n = prop_add(out, n, max, 1, prop_log2(c->n / 4));
    n = prop_add(out, n, max, 2, c->n);
    return prop_add(out, n, max, 3, c->alias);
}
const struct family_properties asmdiff_properties = {property_names, 4, properties_of};

/* The reference on unaliased copies: the mathematical value of s1 op s2. */
static struct mpi_want {
    uint64_t r[NOPS][MPI_MAX_N];
    uint64_t carry[2];
} want_;

static const void *expect(const void *cv)
{
    const struct mpi_case *c = cv;
    for (int op = 0; op < 2; op++)
        want_.carry[op] = reference.op[op](want_.r[op], c->s1, second(c), c->n);
    if (c->n && c->n <= MPI_MONT_MAX_N && !c->no_mont)
        mont_ref(want_.r[OP_MONT], c->a, same_inputs(c) ? c->a : c->b, c->m, &c->n0, (int)c->n);
    return &want_;
}

/* rp = a * b / R mod m through ops: checked, as its convention calls it */
static uint64_t call_mont(const struct mpi_ops *ops, uint64_t *rp, const uint64_t *a,
                          const uint64_t *b, const uint64_t *m, const uint64_t *n0, size_t n)
{
    if (ops->mont_call) return ops->mont_call(ops, rp, a, b, m, n0, n, 1);
    return DRV_CALL(ops->mont, rp, a, b, m, n0, (int)n);
}

static void run_mont(const struct mpi_ops *ops, const struct mpi_case *c, const struct mpi_want *w)
{
    size_t bytes = 8 * c->n;
    drv_op(op_names[OP_MONT]);
    int rp_is_a = c->alias == ALIAS_RP_S1 || c->alias == ALIAS_ALL;
    int rp_is_b = c->alias == ALIAS_RP_S2;
    uint64_t *a = rp_is_a ? drv_inout(B_S1, c->a, bytes) : drv_in(B_S1, c->a, bytes);
    uint64_t *b = same_inputs(c) ? a : rp_is_b ? drv_inout(B_S2, c->b, bytes)
                                           : drv_in(B_S2, c->b, bytes);
    uint64_t *rp = rp_is_a ? a : rp_is_b ? b : drv_out(B_RP, bytes);
    const uint64_t *m = drv_in(B_M, c->m, bytes);
    const uint64_t *n0 = drv_in(B_N0, &c->n0, 8);
    uint64_t ret = call_mont(ops, rp, a, b, m, n0, c->n);
    drv_expect_word("return value (int)", 1, (uint32_t)ret);
    drv_expect_equal("result limbs", w->r[OP_MONT], rp, bytes);
}

static void run(const struct impl *im, const void *cv, const void *wv)
{
    const struct mpi_case *c = cv;
    const struct mpi_want *w = wv;
    const struct mpi_ops *ops = im->ops;
    size_t bytes = 8 * c->n;
    if (c->n < ops->min_n) return;
    if (ops->mont && c->n && c->n >= ops->mont_min_n && c->n <= MPI_MONT_MAX_N && !c->no_mont)
        run_mont(ops, c, w);
    for (int op = 0; op < 2; op++) {
        if (!ops->op[op]) continue; /* an outside kernel of one operation */
        drv_op(op_names[op]);
        /* an aliased buffer is written in place: an in/out buffer, not an input */
        int rp_is_s1 = c->alias == ALIAS_RP_S1 || c->alias == ALIAS_ALL;
        int rp_is_s2 = c->alias == ALIAS_RP_S2;
        uint64_t *s1 = rp_is_s1 ? drv_inout(B_S1, c->s1, bytes) : drv_in(B_S1, c->s1, bytes);
        uint64_t *s2 = rp_is_s2 ? drv_inout(B_S2, c->s2, bytes) : drv_in(B_S2, c->s2, bytes);
        uint64_t *rp = rp_is_s1 ? s1 : rp_is_s2 ? s2 : drv_out(B_RP, bytes);
        const uint64_t *b = c->alias == ALIAS_S1_S2 || c->alias == ALIAS_ALL ? s1 : s2;
        uint64_t carry = ops->size_is_int ? DRV_CALL(ops->op[op], rp, s1, b, (int)c->n)
                                          : DRV_CALL(ops->op[op], rp, s1, b, c->n);
        drv_expect_word("carry", w->carry[op], carry);
        drv_expect_equal("result limbs", w->r[op], rp, bytes);
    }
}

static void params(const void *cv)
{
    const struct mpi_case *c = cv;
    size_t show = c->n * 8 < 512 ? c->n * 8 : 512;
    report_param("n", "%zu limbs", c->n);
    report_param("aliasing", "%s", alias_names[c->alias]);
    report_hex("s1 (limbs little-endian)", c->s1, show);
    report_hex("s2", second(c), show);
    if (c->n) report_hex("m (mont_mul; a and b: s1 and s2, top limb mod m's)", c->m, show);
}

static void vary_secrets(void *cv, uint64_t seed)
{
    struct mpi_case *c = cv;
    rng_fill(&seed, c->s1, sizeof c->s1);
    rng_fill(&seed, c->s2, sizeof c->s2);
    mont_derive(c);
}

/* ---- known answers: corpus/mpi/kat.txt ---- */

/* Big-endian hex of exactly 8n bytes into n little-endian limbs. */
static int hex_to_limbs(struct vec_file *vf, const char *name, uint64_t *limbs, size_t n)
{
    static uint8_t be[8 * MPI_MAX_N];
    long len = vec_get_hex(vf, name, be, sizeof be);
    if (len != (long)(8 * n)) {
        fprintf(stderr, "%s:%d: %s must have exactly %zu bytes\n", vf->path, vf->b.line, name,
                8 * n);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t v = 0;
        for (size_t j = 0; j < 8; j++) v = v << 8 | be[8 * (n - 1 - i) + j];
        limbs[i] = v;
    }
    return 0;
}

static int kat(const char *srcdir)
{
    struct mpi_case *c = &the_case;
    static uint64_t want[MPI_MAX_N], got[MPI_MAX_N];
    struct vec_file vf;
    int count = 0;
    if (vec_open(&vf, srcdir, "corpus/mpi/kat.txt")) return -1;
    while (vec_next(&vf)) {
        const char *op = vec_get(&vf, "Op");
        int mont = op && !strcmp(op, "mont");
        long long n = vec_get_uint(&vf, "N"), carry = mont ? 0 : vec_get_uint(&vf, "Carry");
        memset(c, 0, sizeof *c);
        c->n = n >= 0 && n <= MPI_MAX_N ? (size_t)n : 0;
        /* mont: A * B / 2^(64N) mod M, A and B below M, M odd */
        if (!op || n < 0 || n > MPI_MAX_N || carry < 0 || carry > 1 || (mont && n < 1) ||
            (strcmp(op, "add") && strcmp(op, "sub") && !mont) ||
            hex_to_limbs(&vf, mont ? "A" : "S1", c->s1, c->n) ||
            hex_to_limbs(&vf, mont ? "B" : "S2", c->s2, c->n) ||
            (mont && hex_to_limbs(&vf, "M", c->m, c->n)) || hex_to_limbs(&vf, "R", want, c->n) ||
            (mont && (!(c->m[0] & 1) || !c->m[c->n - 1] || !below(c->s1, c->m, c->n) ||
                      !below(c->s2, c->m, c->n)))) {
            vec_done(&vf);
            drv_vector_errors(1);
            continue;
        }
        vec_done(&vf);
        mont_derive(c); /* a mont vector's operands stay as given (below M) */
        count++;
        if (mont) {
            mont_ref(got, c->a, c->b, c->m, &c->n0, (int)c->n);
            if (!drv_reference_agrees(vf.path, "mont_mul limbs", want, got, 8 * c->n)) continue;
        } else {
            int o = strcmp(op, "add") ? 1 : 0;
            uint64_t rc = reference.op[o](got, c->s1, c->s2, c->n);
            if (!drv_reference_agrees(vf.path, "limbs", want, got, 8 * c->n) ||
                !drv_reference_agrees(vf.path, "carry", &(uint64_t){(uint64_t)carry}, &rc, 8))
                continue;
        }
        /* every implementation in every aliasing the vector's operands allow (s1 == s2 where
         * they are equal: a squaring) */
        int equal = !memcmp(c->s1, c->s2, 8 * c->n);
        for (int a = ALIAS_NONE; a <= (equal ? ALIAS_S1_S2 : ALIAS_RP_S2); a++) {
            c->alias = (enum alias)a;
            drv_check(c);
        }
    }
    drv_vector_errors(vec_close(&vf));
    return count;
}

/* ---- exhaustive: every n <= 4 over the edge limbs completely, larger n up to 16 sampled ---- */

static const uint64_t edge[4] = {0, 1, 1ull << 63, ~0ull};

static int exhaustive(void)
{
    struct mpi_case *c = &the_case;
    uint64_t x = 0x2545f4914f6cdd1dull;
    memset(c, 0, sizeof *c);
    /* Both operands over the edge set while 16^n pairs stay within budget (n <= 4: 65536
     * pairs), then a fixed-seed sample of 20000 pairs for each larger n: the carry and borrow
     * chains of every length through every entry path. */
    for (size_t n = 0; n <= 16; n++) {
        c->n = n;
        int complete = n <= 4;
        unsigned long long count = complete ? 1ull << (4 * n) : 20000;
        for (unsigned long long k = 0; k < count; k++) {
            unsigned long long code = complete ? k : rng_next(&x);
            for (size_t i = 0; i < n; i++) {
                c->s1[i] = edge[code & 3];
                c->s2[i] = edge[(code >> 2) & 3];
                code >>= 4;
                if (!complete && i % 15 == 14) code = rng_next(&x);
            }
            c->alias = (enum alias)(k % 3); /* none, rp==s1, rp==s2 in turn */
            /* mont_mul modulo 2^(64n) - 1, the largest: every edge operand below it but all
             * ones (whose top limb is reduced to 0), every final subtraction's carry; in the
             * complete part and the first 2000 of each sample (its cost is n^2 a case, and
             * three libraries' worth: the sample's purpose is add/sub's carry chains) */
            for (size_t i = 0; i < n; i++) c->m[i] = ~0ull;
            c->no_mont = !complete && k >= 2000;
            mont_derive(c);
            drv_check(c);
        }
    }
    return 0;
}

/* ---- bench: the slope to 1024 limbs (steady state), and to 16 limbs ("-short": entry paths
 * and loop overhead, the sizes of RSA/ECC field elements) ---- */

#define BENCH_LIMBS 1024 /* three 8 KiB operands: all in L1 */

static const struct bench_op bench_ops[] = {
    {"add_n", 8, 8 * BENCH_LIMBS}, {"add_n-short", 8, 8 * 16},
    {"sub_n", 8, 8 * BENCH_LIMBS}, {"sub_n-short", 8, 8 * 16},
    /* a squaring modulo a 2048-bit modulus (RSA-2048's, and OpenSSL's sqr8x path) */
    {"mont_mul-32", 8, 8 * 32},
};

static int bench_run(const struct impl *im, size_t op, uint8_t *buf, size_t bytes)
{
    static uint64_t rp[BENCH_LIMBS], s1[BENCH_LIMBS], s2[BENCH_LIMBS], m[BENCH_LIMBS], n0;
    (void)buf;
    if (!s1[0]) {
        for (size_t i = 0; i < BENCH_LIMBS; i++) {
            s1[i] = 0x9e3779b97f4a7c15ull * (i + 1);
            s2[i] = 0xc2b2ae3d27d4eb4full * (i + 3);
            m[i] = ~s1[i] | 1ull << 63; /* above s1 in every limb, so s1 < m at any size */
        }
        m[0] |= 1;
        n0 = mpi_mont_n0_ref(m[0]);
    }
    const struct mpi_ops *ops = im->ops;
    size_t n = bytes / 8;
    if (op == 4) {
        if (ops->bench[OP_MONT])
            ops->bench[OP_MONT](n);
        else if (ops->mont && n >= ops->mont_min_n && ops->mont_call)
            ops->mont_call(ops, rp, s1, s1, m, &n0, n, 0);
        else if (ops->mont && n >= ops->mont_min_n)
            ops->mont(rp, s1, s1, m, &n0, (int)n);
        else
            return -1;
        return 0;
    }
    int o = op >= 2;
    if (!ops->op[o] && !ops->bench[o]) return -1;
    if (ops->bench[o]) ops->bench[o](n);
    else ops->op[o](rp, s1, s2, n);
    return 0;
}

/* ---- conventions an outside kernel may follow (./asmdiff check) ---- */

/* One mpi_ops per outside kernel of the check build (add_n and sub_n in one command are two,
 * each computing its one operation). */
static const void *outside_ops(const void *fn, size_t op, int libgcrypt)
{
    static struct mpi_ops o[OUTSIDE_MAX];
    static size_t used;
    if (used == OUTSIDE_MAX) abort(); /* outside.c makes at most OUTSIDE_MAX */
    struct mpi_ops *k = &o[used++];
    k->op[op] = (mpi_fn)fn;
    k->min_n = (size_t)libgcrypt;  /* libgcrypt never calls them with size 0 */
    k->size_is_int = libgcrypt;    /* mpi_size_t is an int there */
    return k;
}
static const void *make_ops_gcrypt(const struct convention *cv, const void *fn, size_t op)
{
    (void)cv;
    return outside_ops(fn, op, 1);
}
static const void *make_ops_asmdiff(const struct convention *cv, const void *fn, size_t op)
{
    (void)cv;
    return outside_ops(fn, op, 0);
}

/* Which of add_n, sub_n fn computes: the limbs of a two-limb known answer (the reference's),
 * where the two differ in every limb; -1 when neither.  The carry is left to the checks, so a
 * kernel that drops it is still named and then caught by them. */
static int identify(const struct convention *cv, const void *fn, const char *symbol)
{
    (void)cv, (void)symbol;
    static const uint64_t s1[2] = {0, ~0ull}, s2[2] = {1, 1};
    for (int op = 0; op < 2; op++) {
        uint64_t want[2], got[2];
        reference.op[op](want, s1, s2, 2);
        DRV_PROBE(fn, got, s1, s2, (size_t)2);
        if (!memcmp(want, got, sizeof got)) return op;
    }
    return -1;
}

/* registered by name in fuzz/meson.build's 'conventions' list (driver.h: struct convention) */
const struct convention convention_libgcrypt_mpi = {
    .name = "libgcrypt",
     .prototype = "mpi_limb_t _gcry_mpih_add_n(mpi_ptr_t res_ptr, mpi_ptr_t s1_ptr, "
                  "mpi_ptr_t s2_ptr, mpi_size_t size) (and sub_n); mpi_size_t a 32-bit int, "
                  "size >= 1; returns the carry",
     .clean = CONV_CLEAN_VECTORS | CONV_CLEAN_STACK,
     .leftovers = "",
     .ops = op_names,
     .nops = 2,
     .make_ops = make_ops_gcrypt,
     .identify = identify};
const struct convention convention_asmdiff_mpi = {
    .name = "asmdiff",
     .prototype = "as kernels/mpi/mpi.h: size_t n, n may be 0",
     .clean = CONV_CLEAN_VECTORS | CONV_CLEAN_STACK,
     .leftovers = "",
     .ops = op_names,
     .nops = 2,
     .make_ops = make_ops_asmdiff,
     .identify = identify};

const struct family asmdiff_family = {
    .name = "mpi",
    .spec = "schoolbook addition and subtraction with carry; Montgomery multiplication",
    .impls = impls,
    .nimpls = sizeof impls / sizeof impls[0],
    .bufs = bufs,
    .nbufs = sizeof bufs / sizeof bufs[0],
    .decode = decode,
    .expect = expect,
    .run = run,
    .params = params,
    .vary_secrets = vary_secrets,
    .kat = kat,
    .exhaustive = exhaustive,
    .bench_ops = bench_ops,
    .nbench_ops = sizeof bench_ops / sizeof bench_ops[0],
    .bench_run = bench_run,
};
