/* fuzz/polyval.c — the POLYVAL family: the running-state update of RFC 8452's universal hash.
 *
 * Property: for every key, every starting state, every block count 0..POLYVAL_MAX_BLOCKS and
 * every split of the message into successive update calls (empty calls included), each
 * implementation's final state equals ONE call of the plain C reference (reference/polyval.c)
 * over the whole message.  Implementations run through the checked call, in guarded buffers at
 * any alignment; they must not write outside the 16-byte state nor into the key or the message,
 * and the assembly kernels must leave no data in vector registers (abi_call_clean).
 *
 * Implementations: the Zvkg kernels in both forms (kernels/polyval/polyval-riscv64-zvkg.S) on
 * riscv64 CPUs with V and Zvkg, and everywhere the portable GHASH-route model
 * (kernels/polyval/polyval-portable-ghash.c), which is also what a CPU without Zvkg still tests.
 * On x86-64: x86_64-vpclmul-avx512-perblock (one reduction per block) and
 * x86_64-vpclmul-avx512-aggregated (H^1..H^16 per call, H^17..H^32 from 96 blocks; 16 or 32
 * blocks per reduction), the pair for short and long messages, and x86_64-pclmul (PCLMULQDQ +
 * AVX, 4 blocks per reduction).
 * Block counts cluster around the kernels' VLEN-dependent group sizes: the blocks one vector
 * register holds (vlenb / 16) and the groups of LMUL 4 and 8.  On x86-64 the portable model is
 * the family's only kernel of ours, run natively and in Unicorn (bounds, ct-trace, emu-diff).
 *
 * Outside kernels (./asmdiff check polyval): upstream files in their own homes' conventions,
 * each a struct convention whose make_ops returns a struct uhash_upstream (fuzz/harness/uhash.h,
 * which also holds the case, so a convention file reads it without this file): libgcrypt's
 * (fuzz/conventions/libgcrypt_polyval.c: its polyval_fn called directly, as its Zvkg C file is
 * on riscv64, and on x86-64 cipher-gcm-intel-pclmul.c's through the file's setup, one row per
 * hardware path), and on x86-64 Linux 6.12's polyval-clmulni_asm.S
 * (fuzz/conventions/linux_polyval.c: clmul_polyval_update on Linux's key powers H^8..H^1, its
 * glue's 1..256 blocks a call, and clmul_polyval_mul checked as the glue's per-block update;
 * both need PCLMULQDQ and AVX, which the convention declares, so the check also runs them
 * emulated with pclmul masked).  The fourth buffer, the key schedule, is only theirs.
 */
#include <stdlib.h>
#include <string.h>

#include "asmdiff-config.h"
#include "cpu.h"
#include "driver.h"
#include "properties.h"
#include "report.h"
#include "rng.h"
#include "uhash.h"
#include "uhash_family.h"
#include "vectors.h"
#include "kernels/polyval/polyval.h"
#include "reference/polyval.h"

/* the case is uhash.h's, which the upstream conventions read too */
#define POLYVAL_MAX_BLOCKS UHASH_MAX_BLOCKS /* past two LMUL=8 groups at VLEN 1024 (2 x 64) */

/* The reference as an update function: one call over the blocks from the given state. */
static void c_reference(uint8_t state[16], const uint8_t key_h[16], const uint8_t *blocks,
                        size_t nblocks)
{
    struct polyval_ctx ctx;
    polyval_init(&ctx, key_h);
    memcpy(ctx.s, state, 16);
    polyval_update(&ctx, blocks, nblocks);
    polyval_final(&ctx, state);
}

static const struct impl impls[] = {
    IMPL("c-reference", 0, IMPL_REFERENCE, c_reference),
#if ARCH_RISCV64
    IMPL("riscv64-zvkg-lmul1", CPU_RV_V | CPU_RV_ZVKG, IMPL_KERNEL | IMPL_CLEAN,
     polyval_update_zvkg_lmul1),
    IMPL("riscv64-zvkg-fraclmul", CPU_RV_V | CPU_RV_ZVKG, IMPL_KERNEL | IMPL_CLEAN,
     polyval_update_zvkg_fraclmul),
#endif
#if ARCH_X86_64
    IMPL("x86_64-vpclmul-avx512-perblock",
         CPU_AVX512F | CPU_AVX512BW | CPU_AVX512VL | CPU_VPCLMULQDQ, IMPL_KERNEL | IMPL_CLEAN,
         polyval_update_x86_64_vpclmul_avx512_perblock),
    /* its xmm steps (H^2, the reductions, single blocks) are PCLMULQDQ's VEX form */
    IMPL("x86_64-vpclmul-avx512-aggregated",
         CPU_AVX512F | CPU_AVX512BW | CPU_AVX512VL | CPU_VPCLMULQDQ | CPU_PCLMUL,
         IMPL_KERNEL | IMPL_CLEAN, polyval_update_x86_64_vpclmul_avx512_aggregated),
    IMPL("x86_64-pclmul", CPU_PCLMUL | CPU_AVX, IMPL_KERNEL | IMPL_CLEAN,
         polyval_update_x86_64_pclmul),
#endif
    /* C: the compiler may leave anything in vector registers, so only the ABI is checked */
    IMPL("c-portable-ghash", 0, IMPL_KERNEL, polyval_update_portable_ghash),
};

/* any byte offset: vle8 has no alignment requirement, so none may be assumed; the key
 * schedule (an upstream home's precomputed key powers, placed by its convention) is 16-byte
 * aligned as Linux keeps it, and with a granule of 64 draws no placement byte from the input */
static const struct buf_spec bufs[] = {{"message", 1, BUF_SECRET},
                                       {"state", 1, BUF_SECRET},
                                       {"key", 1, BUF_SECRET},
                                       {"key schedule", 64, BUF_SECRET}};

static struct uhash_case the_case;

/* Bytes per vector register, 0 where there is none (x86-64 builds, riscv64 without V). */
static unsigned vlenb(void)
{
#if ARCH_RISCV64
    return cpu_riscv_vlenb();
#else
    return 0;
#endif
}

/* The LMUL the fraclmul form reverses at, for the list and reports. */
static const char *fraclmul_lmul(unsigned b)
{
    return b >= 128 ? "mf8" : b >= 64 ? "mf4" : b >= 32 ? "mf2" : "m1";
}

static void *decode(struct input *in)
{
    /* Group sizes in blocks: one vector register, and LMUL 4 and 8 groups of them.  Without
     * vectors, the blocks one register holds at VLEN 256, 512 and 1024, so inputs found on
     * other hosts still land near group boundaries when replayed on riscv64. */
    size_t widths[3] = {2, 4, 8};
    if (vlenb() >= 16) {
        widths[0] = vlenb() / 16;
        widths[1] = vlenb() / 4;
        widths[2] = vlenb() / 2;
    }
    uhash_decode(in, &the_case, widths);
    return &the_case;
}

/* Case properties (properties.h), per call of the split: its block count against the widest
 * group (8 blocks without vectors, VLENB / 2 with them, 16 on x86-64: the aggregated form's
 * group; the empty call apart), the scale of its count of the smallest groups (the widest on
 * riscv64; on x86-64 the 4 blocks of x86_64-pclmul, whose "fewer than 4" path the remainder
 * mod 16 alone does not tell; none for the empty call, which would share the value of 1-3
 * blocks); and whether the state starts nonzero. */
static const char *const property_names[] = {"call blocks mod group", "call groups scale",
                                             "chained start"};
static size_t properties_of(const void *cv, struct case_property *out, size_t max)
{
    const struct uhash_case *c = cv;
    size_t group = vlenb() >= 16 ? vlenb() / 2 : 8, from = 0, n = 0;
#if ARCH_X86_64
    const size_t unit = 4;
    group = 16;
#else
    const size_t unit = group;
#endif
    uint8_t any = 0;
    for (size_t i = 0; i < 16; i++) any |= c->start[i];
    n = prop_add(out, n, max, 2, any != 0);
    for (size_t i = 0; i <= c->nsplits; i++) {
        size_t to = i < c->nsplits ? c->split[i] : c->nblocks;
        n = prop_add(out, n, max, 0, to > from ? (to - from) % group : group); /* empty apart */
        if (to > from) n = prop_add(out, n, max, 1, prop_log2((to - from) / unit)); /* ditto */
        from = to;
    }
    return n;
}
const struct family_properties asmdiff_properties = {property_names, 3, properties_of};

/* Expected: the reference, one call over the whole message. */
static const void *expect(const void *cv)
{
    return uhash_expect(cv, c_reference);
}

static void run(const struct impl *im, const void *cv, const void *want)
{
    uhash_run(im, cv, want);
}

static void params(const void *cv)
{
    uhash_params_calls(cv);
    if (vlenb())
        report_param("vector length",
                     "VLEN %u (vlenb %u; riscv64-zvkg-fraclmul is meant to reverse at e8, %s)",
                     8 * vlenb(), vlenb(), fraclmul_lmul(vlenb()));
    uhash_params_data(cv);
}

static void vary_secrets(void *cv, uint64_t seed)
{
    uhash_vary_secrets(cv, seed);
}

/* ---- known answers: corpus/polyval/kat.txt, whole and split before every block ---- */

static int kat(const char *srcdir)
{
    struct uhash_case *c = &the_case;
    uint8_t want[16];
    struct vec_file vf;
    int count = 0;
    if (vec_open(&vf, srcdir, "corpus/polyval/kat.txt")) return -1;
    while (vec_next(&vf)) {
        memset(c, 0, sizeof *c);
        long hlen = vec_get_hex(&vf, "H", c->h, 16);
        long xlen = vec_get_hex(&vf, "X", c->msg, sizeof c->msg);
        long rlen = vec_get_hex(&vf, "Result", want, 16);
        vec_done(&vf);
        if (hlen != 16 || rlen != 16 || xlen < 0 || xlen % 16) {
            fprintf(stderr, "%s:%d: want H and Result of 16 bytes, X of whole 16-byte blocks\n",
                    vf.path, vf.b.line);
            drv_vector_errors(1);
            continue;
        }
        c->nblocks = (size_t)xlen / 16;
        count++;
        uhash_kat_check(vf.path, "result", c, want, c_reference);
    }
    drv_vector_errors(vec_close(&vf));
    return count;
}

/* ---- exhaustive: the whole multiplication table on one block (uhash_family.h) ---- */

static int exhaustive(void)
{
    uhash_exhaustive(&the_case, 0); /* POLYVAL's bit order: x^0 is a byte's bottom bit */
    return 0;
}

/* ---- bench ---- */

/* "update": one call over the whole buffer (the cost per byte of long messages).  "calls of
 * K": the buffer hashed in successive calls of K blocks each, so the slope is the cost of one
 * K-block call (powers of H made per call included) per byte: where the x86-64 per-block and
 * aggregated forms cross. */
static const struct bench_op bench_ops[] = {
    {"update", 16, 4096},       {"calls of 1", 16, 4096},   {"calls of 2", 32, 4096},
    {"calls of 3", 48, 4096},   {"calls of 4", 64, 4096},   {"calls of 8", 128, 4096},
    {"calls of 16", 256, 8192}, {"calls of 32", 512, 16384}, {"calls of 64", 1024, 32768}};
static const size_t bench_call_blocks[] = {0, 1, 2, 3, 4, 8, 16, 32, 64};

static int bench_run(const struct impl *im, size_t op, uint8_t *buf, size_t bytes)
{
    /* an outside kernel's ops are its home's (uhash.h), benched by its convention if at all */
    return uhash_bench_run(im, bench_call_blocks[op], buf, bytes);
}

static void list_extra(FILE *out)
{
#if ARCH_RISCV64
    if (vlenb())
        fprintf(out, "  forms at this VLEN: riscv64-zvkg-fraclmul reverses at e8, %s; "
                     "riscv64-zvkg-lmul1 at e8, m1\n", fraclmul_lmul(vlenb()));
#else
    (void)out;
#endif
}

const struct family asmdiff_family = {
    .name = "polyval",
    .spec = "RFC 8452",
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
    .list_extra = list_extra,
};
