/* fuzz/ghash.c — the GHASH family: the running-state update of GCM's universal hash (NIST SP
 * 800-38D section 6.4), over whole 16-byte blocks.
 *
 * Property: for every key H, every starting state, every block count 0..GHASH_MAX_BLOCKS and
 * every split of the message into successive update calls (empty calls included), each
 * implementation's final state equals ONE call of the plain C reference (reference/ghash.c,
 * SP 800-38D's Algorithm 1) over the whole message.  Implementations run through the checked
 * call, in guarded buffers at any alignment; they must not write outside the 16-byte state nor
 * into the key or the message, and the assembly kernels must leave no data in vector registers.
 *
 * A family of its own beside polyval, with the same contract shape and the same case
 * (fuzz/harness/uhash.h): the two hashes differ in the bit order of the field and so in every
 * vector, key layout and upstream home (Linux has a GHASH file and a POLYVAL file, each with
 * its own key layout), and a family's kat, seeds, mutants and coverage are about one
 * function.  The two meet where they should: reference/ghash.c and reference/polyval.c judge
 * each other through RFC 8452 Appendix A (test ghash-polyval-relation), and our GHASH kernels
 * are our POLYVAL kernels' bodies on byte-reversed blocks (kernels/ghash/ghash.h).
 *
 * Implementations: c-portable-polyval (kernels/ghash/ghash-portable-polyval.c) everywhere; on
 * x86-64 x86_64-vpclmul-avx512-perblock, x86_64-vpclmul-avx512-aggregated and x86_64-pclmul,
 * the POLYVAL kernels' three forms instantiated for GHASH; nettle (its public GCM API on an
 * arbitrary H) where it was found.
 *
 * Outside kernels (./asmdiff check ghash): Linux 6.12's arch/x86/crypto/ghash-clmulni-intel_asm.S
 * (fuzz/conventions/linux_ghash.c: clmul_ghash_update and clmul_ghash_mul, on the key as its
 * glue transforms it); on riscv64 arch/riscv/crypto/ghash-riscv64-zvkg.S (ghash_zvkg, the
 * raw H), in a riscv64 check build under qemu-riscv64 at each VLEN.
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
#include "kernels/ghash/ghash.h"
#include "reference/aes.h"
#include "reference/ghash.h"
#if ASMDIFF_HAVE_NETTLE
#include "reference/oracles/ghash_oracles.h"
#endif

#define GHASH_MAX_BLOCKS UHASH_MAX_BLOCKS

/* The reference as an update function: one call over the blocks from the given state. */
static void c_reference(uint8_t state[16], const uint8_t key_h[16], const uint8_t *blocks,
                        size_t nblocks)
{
    struct ghash_ctx ctx;
    ghash_init(&ctx, key_h);
    memcpy(ctx.y, state, 16);
    ghash_update(&ctx, blocks, nblocks);
    ghash_final(&ctx, state);
}

#if !ASMDIFF_HAVE_NETTLE
static const char *nettle_not_built(void)
{
    return "not built: nettle was not found when this build was configured (nettle-dev)";
}
#endif

static const struct impl impls[] = {
    IMPL("c-reference", 0, IMPL_REFERENCE, c_reference),
#if ARCH_X86_64
    /* the needs of the POLYVAL forms whose bodies these are (fuzz/polyval.c), plus SSSE3's
     * vpshufb (AVX brings it) for the byte reversal: nothing new */
    IMPL("x86_64-vpclmul-avx512-perblock",
         CPU_AVX512F | CPU_AVX512BW | CPU_AVX512VL | CPU_VPCLMULQDQ, IMPL_KERNEL | IMPL_CLEAN,
         ghash_update_x86_64_vpclmul_avx512_perblock),
    IMPL("x86_64-vpclmul-avx512-aggregated",
         CPU_AVX512F | CPU_AVX512BW | CPU_AVX512VL | CPU_VPCLMULQDQ | CPU_PCLMUL,
         IMPL_KERNEL | IMPL_CLEAN, ghash_update_x86_64_vpclmul_avx512_aggregated),
    IMPL("x86_64-pclmul", CPU_PCLMUL | CPU_AVX, IMPL_KERNEL | IMPL_CLEAN,
         ghash_update_x86_64_pclmul),
#endif
    /* C: the compiler may leave anything in vector registers, so only the ABI is checked */
    IMPL("c-portable-polyval", 0, IMPL_KERNEL, ghash_update_portable_polyval),
#if ASMDIFF_HAVE_NETTLE
    IMPL("nettle", 0, IMPL_LIBRARY, oracle_nettle_ghash_update,
         .describe = oracle_nettle_ghash_describe),
#else
    IMPL("nettle", 0, IMPL_LIBRARY, NULL, .unavailable = nettle_not_built),
#endif
};

/* any byte offset (the kernels load unaligned); the key schedule is an upstream home's key in
 * its own form, placed by its convention, 16-byte aligned as Linux keeps its context */
static const struct buf_spec bufs[] = {{"message", 1, BUF_SECRET},
                                       {"state", 1, BUF_SECRET},
                                       {"key", 1, BUF_SECRET},
                                       {"key schedule", 64, BUF_SECRET}};

static struct uhash_case the_case;

static void *decode(struct input *in)
{
    /* block counts cluster around the x86-64 kernels' groups: 4 (x86_64-pclmul), 8 and 16
     * (x86_64-vpclmul-avx512-aggregated's tail and loop) */
    size_t widths[3] = {4, 8, 16};
    uhash_decode(in, &the_case, widths);
    return &the_case;
}

/* Case properties (properties.h), per call of the split: its block count mod 16 (the
 * aggregated form's group; the empty call apart), the scale of its count of 4-block groups
 * (x86_64-pclmul's unit; none for the empty call), and whether the state starts nonzero. */
static const char *const property_names[] = {"call blocks mod group", "call groups scale",
                                             "chained start"};
static size_t properties_of(const void *cv, struct case_property *out, size_t max)
{
    const struct uhash_case *c = cv;
    const size_t group = 16, unit = 4;
    size_t from = 0, n = 0;
    uint8_t any = 0;
    for (size_t i = 0; i < 16; i++) any |= c->start[i];
    n = prop_add(out, n, max, 2, any != 0);
    for (size_t i = 0; i <= c->nsplits; i++) {
        size_t to = uhash_call_to(c, i);
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
    uhash_params_data(cv);
}

static void vary_secrets(void *cv, uint64_t seed)
{
    uhash_vary_secrets(cv, seed);
}

/* ---- known answers: corpus/ghash/kat.txt, whole and split before every block ----
 * Two shapes of vector: H, X, Result (a hash of whole blocks); and a GCM test case (K, IV, A,
 * C, H, GHASH, T), whose X is built as SP 800-38D's Algorithm 4 builds it and whose H and T
 * are checked with the AES reference (every printed value consumed). */

/* X = A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64 into c->msg; 0 when it does not fit. */
static int gcm_blocks(struct uhash_case *c, const uint8_t *a, size_t alen, const uint8_t *ct,
                      size_t clen)
{
    size_t apad = (alen + 15) / 16 * 16, cpad = (clen + 15) / 16 * 16;
    if (apad + cpad + 16 > sizeof c->msg) return 0;
    memset(c->msg, 0, apad + cpad + 16);
    memcpy(c->msg, a, alen);
    memcpy(c->msg + apad, ct, clen);
    uint8_t *len = c->msg + apad + cpad;
    for (int i = 0; i < 8; i++) {
        len[7 - i] = (uint8_t)((uint64_t)alen * 8 >> (8 * i));
        len[15 - i] = (uint8_t)((uint64_t)clen * 8 >> (8 * i));
    }
    c->nblocks = (apad + cpad) / 16 + 1;
    return 1;
}

/* A GCM test case: 1 when H = AES_K(0^128) and T = AES_K(J0) xor GHASH, J0 = IV || 0^31 || 1
 * (96-bit IVs only); X into c->msg and GHASH into want. */
static int gcm_case(struct vec_file *vf, struct uhash_case *c, uint8_t want[16])
{
    uint8_t k[32], iv[12], a[64], ct[sizeof c->msg], t[16], block[16], j0[16] = {0};
    long klen = vec_get_hex(vf, "K", k, sizeof k), ivlen = vec_get_hex(vf, "IV", iv, sizeof iv);
    long alen = vec_get_hex(vf, "A", a, sizeof a), clen = vec_get_hex(vf, "C", ct, 1024);
    long hlen = vec_get_hex(vf, "H", c->h, 16), glen = vec_get_hex(vf, "GHASH", want, 16);
    long tlen = vec_get_hex(vf, "T", t, 16);
    vec_done(vf);
    struct aes_key key;
    if (ivlen != 12 || hlen != 16 || glen != 16 || tlen != 16 || alen < 0 || clen < 0 ||
        aes_expand_key(&key, k, (size_t)(klen < 0 ? 0 : klen)) ||
        !gcm_blocks(c, a, (size_t)alen, ct, (size_t)clen)) {
        fprintf(stderr, "%s:%d: want K (16, 24 or 32 bytes), IV of 12, A and C that fit, H, "
                        "GHASH and T of 16\n", vf->path, vf->b.line);
        drv_vector_errors(1);
        return 0;
    }
    aes_encrypt_block(&key, block, j0);
    if (!drv_reference_agrees(vf->path, "H = AES_K(0^128) (reference/aes.c)", c->h, block, 16))
        return 0;
    memcpy(j0, iv, 12);
    j0[15] = 1;
    aes_encrypt_block(&key, block, j0);
    for (int i = 0; i < 16; i++) block[i] ^= want[i];
    return drv_reference_agrees(vf->path, "T = AES_K(J0) xor GHASH", t, block, 16);
}

static int kat(const char *srcdir)
{
    struct uhash_case *c = &the_case;
    uint8_t want[16];
    struct vec_file vf;
    int count = 0;
    if (vec_open(&vf, srcdir, "corpus/ghash/kat.txt")) return -1;
    while (vec_next(&vf)) {
        memset(c, 0, sizeof *c);
        if (vec_get_opt(&vf, "K")) {
            if (!gcm_case(&vf, c, want)) continue;
        } else {
            long hlen = vec_get_hex(&vf, "H", c->h, 16);
            long xlen = vec_get_hex(&vf, "X", c->msg, sizeof c->msg);
            long rlen = vec_get_hex(&vf, "Result", want, 16);
            vec_done(&vf);
            if (hlen != 16 || rlen != 16 || xlen < 0 || xlen % 16) {
                fprintf(stderr, "%s:%d: want H and Result of 16 bytes, X of whole 16-byte "
                                "blocks\n", vf.path, vf.b.line);
                drv_vector_errors(1);
                continue;
            }
            c->nblocks = (size_t)xlen / 16;
        }
        count++;
        uhash_kat_check(vf.path, "GHASH", c, want, c_reference);
    }
    drv_vector_errors(vec_close(&vf));
    return count;
}

/* ---- exhaustive: the whole multiplication table on one block ----
 * X . H is bilinear, so one block with H and X running over all 128 x 128 pairs of basis
 * elements pins down every product an implementation can form; then the same with the
 * starting state as the basis element and X = 0 (the state's bit order). */
static int exhaustive(void)
{
    uhash_exhaustive(&the_case, 1); /* GCM's bit order: x^0 is a byte's top bit */
    return 0;
}

/* ---- bench ----
 * "update": one call over the whole buffer; "calls of K": the buffer in successive calls of K
 * blocks (the key transform and any powers of H made per call included), as polyval's. */
static const struct bench_op bench_ops[] = {
    {"update", 16, 4096},       {"calls of 1", 16, 4096},   {"calls of 4", 64, 4096},
    {"calls of 16", 256, 8192}, {"calls of 64", 1024, 32768}};
static const size_t bench_call_blocks[] = {0, 1, 4, 16, 64};

static int bench_run(const struct impl *im, size_t op, uint8_t *buf, size_t bytes)
{
    return uhash_bench_run(im, bench_call_blocks[op], buf, bytes);
}

const struct family asmdiff_family = {
    .name = "ghash",
    .spec = "NIST SP 800-38D",
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
