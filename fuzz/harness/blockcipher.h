/* blockcipher.h — the driver's piece for 128-bit block ciphers with 128/192/256-bit keys: ECB
 * (encrypt and decrypt) and CTR with a 128-bit big-endian counter for every such cipher, and,
 * for a cipher that declares them (bc_cipher.modes), CBC decryption, CTR with a 32-bit
 * little-endian counter (ctr32le) and XTS with ciphertext stealing.  A cipher family
 * (fuzz/aria.c, fuzz/camellia.c, fuzz/aes.c) states its reference and its kernels' shape; this
 * file does the rest, the same way for every such cipher:
 *
 *   - cases: key size and key, block count weighted at the kernels' widths and ±1 (up to
 *     BC_MAX_BLOCKS), in place or not, the chained modes (CTR, CBC, ctr32le, XTS) split into up
 *     to 4 calls at input-chosen block counts, counters random or just below the 2^32, 2^64
 *     and 2^128 wraps (ctr32le's just below its 2^32 wrap); XTS also a tail of 0..15 bytes
 *     (ciphertext stealing), a second key and the data unit's tweak;
 *   - expected: the reference's output of every mode (the family's: fuzz/aes.c gives
 *     reference/blockmodes.c over its block function) and the final counter, IV or tweak;
 *   - each kernel: every mode it has an entry point for, ECB and XTS also decrypting its own
 *     ciphertext; each library: the same from the raw key, in one call;
 *   - kat: `Key`, `Plaintext`, `Ciphertext` vectors, each also as N identical blocks, and mode
 *     vectors (`Mode = CBC | CTR | XTS`, `IV`, `Key2`: SP 800-38A, IEEE 1619);
 *   - exhaustive: every block count 0..200 and 255..513 for each key size;
 *   - bench: <NAME>128/192/256 x each mode.
 *
 * Kernels take the reference's key schedule as it lies in memory (the family says how many
 * bytes of it a kernel reads) and the round count:
 *   void ecb(const void *ks, unsigned int rounds, uint8_t *out, const uint8_t *in, size_t n);
 *   void ctr(const void *ks, unsigned int rounds, uint8_t *out, const uint8_t *in, size_t n,
 *            uint8_t ctr[16]);
 * and the chained modes in ctr's shape (cbc_dec's last argument the IV, which it advances;
 * xts's n a length in bytes and its last argument the encrypted tweak, advanced: kernels/aes/
 * aes.h states the contract).  XTS's tweak is encrypted first by the kernel's own ECB entry
 * point, under the second key's schedule.
 * Libraries (and the reference, for bench) take the raw key:
 *   int ecb(int encrypt, const uint8_t *key, size_t keylen, uint8_t *out, const uint8_t *in,
 *           size_t n);  int ctr(key, keylen, out, in, n, ctr);  0 on success; and
 *   int xts(int encrypt, key1 || key2, keylen (of each), out, in, len, iv) for XTS;
 * 1 when the library defines no such case (XTS-AES-192): that call is not compared.
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
typedef int (*bc_lib_xts)(int encrypt, const uint8_t *keys, size_t keylen, uint8_t *out,
                          const uint8_t *in, size_t len, const uint8_t iv[16]);

/* The operations, in the order they run and are benched (a cipher's modes: 1u << op). */
enum bc_op { BC_OP_ECB_ENC, BC_OP_ECB_DEC, BC_OP_CTR, BC_OP_CBC_DEC, BC_OP_CTR32LE,
             BC_OP_XTS_ENC, BC_OP_XTS_DEC, BC_NOPS };
#define BC_MODES_ECB_CTR (1u << BC_OP_ECB_ENC | 1u << BC_OP_ECB_DEC | 1u << BC_OP_CTR)
#define BC_MODES_ALL ((1u << BC_NOPS) - 1)

/* A kernel's entry points; NULL where it has none.  ecb_dec NULL: ecb decrypts with the
 * decryption schedule (ARIA, Camellia); the chained modes take ctr's shape. */
struct bc_kernel_ops {
    bc_kernel_ecb ecb;
    bc_kernel_ctr ctr;
    bc_kernel_ecb ecb_dec;
    bc_kernel_ctr cbc_dec, ctr32le, xts_enc, xts_dec;
};
struct bc_lib_ops {
    bc_lib_ecb ecb;
    bc_lib_ctr ctr;
    bc_lib_ctr cbc_dec; /* the IV as ctr */
    bc_lib_ctr ctr32le;
    bc_lib_xts xts;
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
    /* The modes beyond ECB and CTR this cipher's kernels and libraries are checked in
     * (BC_MODES_ALL); 0: ECB and CTR.  Their reference on a schedule of the family's (the
     * harness includes no reference code: fuzz/aes.c gives reference/blockmodes.c's over its
     * block function): CBC decryption with the decryption schedule, the IV advanced; ctr32le;
     * XTS from the encrypted tweak T (the decryption schedule when decrypt), T advanced. */
    unsigned modes;
    void (*cbc_dec)(const void *ks, uint8_t *out, const uint8_t *in, size_t nblocks,
                    uint8_t iv[16]);
    void (*ctr32le)(const void *ks, uint8_t *out, const uint8_t *in, size_t nblocks,
                    uint8_t ctr[16]);
    void (*xts)(const void *ks, int decrypt, uint8_t *out, const uint8_t *in, size_t len,
                uint8_t tweak[16]);
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
extern const char *const bc_own_ops[2];       /* "ecb", "ctr" */
extern const char *const bc_own_ops_all[BC_NOPS]; /* a cipher with every mode: enum bc_op's */
const void *bc_own_make_ops(const struct convention *cv, const void *fn, size_t op);
int bc_own_identify(const struct convention *cv, const void *fn, const char *symbol);
#define BC_OWN_CONVENTION_OPS(family_, prototype_, ops_, nops_)                              \
    const struct convention convention_asmdiff_##family_ = {                                 \
        .name = "asmdiff", .prototype = (prototype_),                                        \
        .clean = CONV_CLEAN_VECTORS | CONV_CLEAN_STACK, .leftovers = "", .ops = (ops_),      \
        .nops = (nops_), .make_ops = bc_own_make_ops, .identify = bc_own_identify}
#define BC_OWN_CONVENTION(family_, prototype_) BC_OWN_CONVENTION_OPS(family_, prototype_, bc_own_ops, 2)
#define BC_OWN_CONVENTION_ALL(family_, prototype_)                                           \
    BC_OWN_CONVENTION_OPS(family_, prototype_, bc_own_ops_all, BC_NOPS)

/* For the upstream tables (bc_upstream.c): the blocks of call i of chained operation op
 * (enum bc_op), done blocks before it, and the bytes the operation takes (XTS's tail too). */
size_t bc_call_blocks(const struct bc_case *c, int op, size_t i, size_t done);
size_t bc_op_bytes(const struct bc_case *c, int op);

/* The reference's schedule of the current case (for extra_run): enc or dec. */
const void *bc_reference_schedule(int decrypt, unsigned *rounds, size_t *kernel_bytes);

/* The case, for a family's extra_run and params. */
struct bc_case {
    size_t keylen, nblocks;
    uint8_t key[32], ctr[16];
    uint8_t in[16 * BC_MAX_BLOCKS + 16]; /* and XTS's tail */
    int in_place;
    size_t nsplits, split[3];
    /* the modes beyond ECB and CTR: XTS's second key, partial last block (bytes, 0..15) and
     * data unit tweak (also CBC's IV); ctr32le's initial counter block */
    uint8_t key2[32], iv[16], ctr32[16];
    size_t tail;
};

/* Defined by the family file. */
extern const struct bc_cipher bc_cipher __attribute__((weak)); /* only cipher families */

/* Buffer indices: the key (raw, for libraries), the key schedule (kernels), and these; the
 * last two are for the family's own operations (extra_run): a schedule a kernel computes, and
 * its round count. */
enum { BC_BUF_KEY, BC_BUF_SCHEDULE, BC_BUF_IN, BC_BUF_OUT, BC_BUF_CTR, BC_BUF_SCHEDULE_OUT,
       BC_BUF_ROUNDS_OUT, BC_BUF_IV, BC_BUF_TWEAK_SCHEDULE, BC_BUF_CONTEXT, BC_NBUFS };
/* A cipher of ECB and CTR alone has the buffers before BC_BUF_IV: the driver reads a
 * placement choice per buffer from the input's front, so its inputs decode as they did.
 * BC_BUF_CONTEXT: an upstream convention's context that must be 16-byte aligned (Linux's
 * struct crypto_aes_ctx, which its AES-NI code reads with movaps/vmovdqa), placed at 16-byte
 * granules. */
#define BC_NBUFS_ECB_CTR BC_BUF_IV
extern const struct buf_spec bc_bufs[BC_NBUFS];
extern const struct bench_op bc_bench_ops[3 * BC_NOPS];

void *bc_decode(struct input *in);
const void *bc_expect(const void *c);
void bc_run(const struct impl *im, const void *c, const void *want);
void bc_params(const void *c);
void bc_vary_secrets(void *c, uint64_t seed);
int bc_kat(const char *srcdir);
int bc_exhaustive(void);
void bc_bench_setup(size_t op);
int bc_bench_run(const struct impl *im, size_t op, uint8_t *buf, size_t bytes);

/* The family struct's shared part: BC_FAMILY("aria", "RFC 5794", impls); a cipher with all
 * the modes: BC_FAMILY_MODES(..., BC_NOPS). */
#define BC_FAMILY(name_, spec_, impls_) BC_FAMILY_MODES(name_, spec_, impls_, 3)
#define BC_FAMILY_MODES(name_, spec_, impls_, nops_)                                        \
    {                                                                                        \
        .name = (name_), .spec = (spec_), .impls = (impls_),                                 \
        .nimpls = sizeof(impls_) / sizeof((impls_)[0]), .bufs = bc_bufs,                     \
        .nbufs = (nops_) == 3 ? BC_NBUFS_ECB_CTR : BC_NBUFS,                                  \
        .decode = bc_decode, .expect = bc_expect, .run = bc_run, .params = bc_params,        \
        .vary_secrets = bc_vary_secrets, .kat = bc_kat, .exhaustive = bc_exhaustive,         \
        .bench_ops = bc_bench_ops, .nbench_ops = 3 * (nops_), .bench_setup = bc_bench_setup, \
        .bench_run = bc_bench_run                                                            \
    }

#endif
