/* blockcipher.h — the driver's piece for 128-bit block ciphers with 128/192/256-bit keys, in
 * ECB (encrypt and decrypt) and CTR with a 128-bit big-endian counter.  A cipher family
 * (fuzz/aria.c, fuzz/camellia.c) states its reference and its kernels' shape; this file does
 * the rest, the same way for every such cipher:
 *
 *   - cases: key size and key, block count weighted at the kernels' widths and ±1 (up to
 *     BC_MAX_BLOCKS), in place or not, CTR split into up to 4 calls at input-chosen block
 *     counts, counters random or just below the 2^32, 2^64 and 2^128 wraps;
 *   - expected: the reference's ECB encryption, ECB decryption and CTR output and final
 *     counter;
 *   - each kernel: ECB encrypt, its own decryption of that ciphertext, ECB decrypt, CTR across
 *     the split calls; each library: the same from the raw key;
 *   - kat: `Key`, `Plaintext`, `Ciphertext` vectors, each also as N identical blocks;
 *   - exhaustive: every block count 0..200 and 255..513 for each key size;
 *   - bench: <NAME>128/192/256 x ECB enc, ECB dec, CTR.
 *
 * Kernels take the reference's key schedule as it lies in memory (the family says how many
 * bytes of it a kernel reads) and the round count:
 *   void ecb(const void *ks, unsigned int rounds, uint8_t *out, const uint8_t *in, size_t n);
 *   void ctr(const void *ks, unsigned int rounds, uint8_t *out, const uint8_t *in, size_t n,
 *            uint8_t ctr[16]);
 * Libraries (and the reference, for bench) take the raw key:
 *   int ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
 *           size_t n);  int ctr(key, keylen, out, in, n, ctr);  0 on success.
 */
#ifndef ASMDIFF_BLOCKCIPHER_H
#define ASMDIFF_BLOCKCIPHER_H

#include <stddef.h>
#include <stdint.h>

#include "driver.h"

#define BC_MAX_BLOCKS 520 /* the exhaustive sweep's 513, and room */
#define BC_MAX_SCHEDULE 1024

typedef void (*bc_kernel_ecb)(const void *ks, unsigned int rounds, uint8_t *out,
                              const uint8_t *in, size_t nblocks);
typedef void (*bc_kernel_ctr)(const void *ks, unsigned int rounds, uint8_t *out,
                              const uint8_t *in, size_t nblocks, uint8_t ctr[16]);
typedef int (*bc_lib_ecb)(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out,
                          const uint8_t *in, size_t nblocks);
typedef int (*bc_lib_ctr)(const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
                          size_t nblocks, uint8_t ctr[16]);

struct bc_kernel_ops {
    bc_kernel_ecb ecb;
    bc_kernel_ctr ctr;
};
struct bc_lib_ops {
    bc_lib_ecb ecb;
    bc_lib_ctr ctr;
};

struct bc_case;

struct bc_cipher {
    const char *name;         /* "ARIA": bench rows "ARIA128 ECB enc" */
    const char *kat_file;     /* "corpus/aria/kat.txt" */
    size_t widths[3];         /* the kernels' parallel widths in blocks */
    /* The reference's key schedule into ks (at most BC_MAX_SCHEDULE bytes): its round count,
     * and how many bytes of ks a kernel reads. */
    void (*schedule)(void *ks, const uint8_t *key, size_t keylen, int decrypt, unsigned *rounds,
                     size_t *kernel_bytes);
    void (*ecb)(const void *ks, uint8_t *out, const uint8_t *in, size_t nblocks);
    void (*ctr)(const void *ks, uint8_t *out, const uint8_t *in, size_t nblocks, uint8_t ctr[16]);
    /* Where in the schedule the kernels' part starts (0 when they read it from the start). */
    size_t kernel_offset;
    /* Optional: more checks of one implementation on the case (the family's own operations,
     * e.g. a key-expansion kernel), after the cipher operations. */
    void (*extra_run)(const struct impl *im, const void *c);
    /* Optional: the family's own exhaustive checks (tables over their domain); failures. */
    int (*exhaustive_extra)(void);
    /* An outside kernel (./asmdiff check) in an upstream convention is called through that
     * convention's table (bc_upstream.h); in the asmdiff one, as our own kernels are (below). */
};

/* ---- the asmdiff convention (./asmdiff check --convention asmdiff) ----
 *
 * An outside kernel written to the kernel prototypes above (one of our own forms, or a patch
 * to it): an ECB or a CTR entry point taking the reference's schedule and the round count,
 * any block count.  blockcipher.c calls and benches it as it does our own kernels; each such
 * kernel has its own state, so several (a patch's file and the file before it, --baseline)
 * are in one check build.  A family registers it as fuzz/conventions/asmdiff_<family>.c:
 * BC_OWN_CONVENTION(aria, "as kernels/aria/aria.h: ..."). */
extern const char *const bc_own_ops[2]; /* "ecb", "ctr" */
const void *bc_own_make_ops(const struct convention *cv, const void *fn, size_t op);
int bc_own_identify(const struct convention *cv, const void *fn, const char *symbol);
#define BC_OWN_CONVENTION(family_, prototype_)                                               \
    const struct convention convention_asmdiff_##family_ = {                                 \
        .name = "asmdiff", .prototype = (prototype_),                                        \
        .clean = CONV_CLEAN_VECTORS | CONV_CLEAN_STACK, .leftovers = "", .ops = bc_own_ops,  \
        .nops = 2, .make_ops = bc_own_make_ops, .identify = bc_own_identify}

/* The reference's schedule of the current case (for extra_run): enc or dec. */
const void *bc_reference_schedule(int decrypt, unsigned *rounds, size_t *kernel_bytes);

/* The case, for a family's extra_run and params. */
struct bc_case {
    size_t keylen, nblocks;
    uint8_t key[32], ctr[16];
    uint8_t in[16 * BC_MAX_BLOCKS];
    int in_place;
    size_t nsplits, split[3];
};

/* Defined by the family file. */
extern const struct bc_cipher bc_cipher __attribute__((weak)); /* only cipher families */

/* Buffer indices: the key (raw, for libraries), the key schedule (kernels), and these; the
 * last two are for the family's own operations (extra_run): a schedule a kernel computes, and
 * its round count. */
enum { BC_BUF_KEY, BC_BUF_SCHEDULE, BC_BUF_IN, BC_BUF_OUT, BC_BUF_CTR, BC_BUF_SCHEDULE_OUT,
       BC_BUF_ROUNDS_OUT, BC_NBUFS };
extern const struct buf_spec bc_bufs[BC_NBUFS];
extern const struct bench_op bc_bench_ops[9];

void *bc_decode(struct input *in);
const void *bc_expect(const void *c);
void bc_run(const struct impl *im, const void *c, const void *want);
void bc_params(const void *c);
void bc_vary_secrets(void *c, uint64_t seed);
int bc_kat(const char *srcdir);
int bc_exhaustive(void);
void bc_bench_setup(size_t op);
int bc_bench_run(const struct impl *im, size_t op, uint8_t *buf, size_t bytes);

/* The family struct's shared part: BC_FAMILY("aria", "RFC 5794", impls). */
#define BC_FAMILY(name_, spec_, impls_)                                                     \
    {                                                                                        \
        .name = (name_), .spec = (spec_), .impls = (impls_),                                 \
        .nimpls = sizeof(impls_) / sizeof((impls_)[0]), .bufs = bc_bufs, .nbufs = BC_NBUFS,   \
        .decode = bc_decode, .expect = bc_expect, .run = bc_run, .params = bc_params,        \
        .vary_secrets = bc_vary_secrets, .kat = bc_kat, .exhaustive = bc_exhaustive,         \
        .bench_ops = bc_bench_ops, .nbench_ops = 9, .bench_setup = bc_bench_setup,           \
        .bench_run = bc_bench_run                                                            \
    }

#endif
