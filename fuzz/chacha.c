/* fuzz/chacha.c — the ChaCha family: the block function at 8, 12 and 20 rounds, the keystream
 * XOR with RFC 8439's 32-bit counter and 96-bit nonce ("ctr32") and with the original design's
 * 64-bit counter and 64-bit nonce ("ctr64"), HChaCha and XChaCha (draft-irtf-cfrg-xchacha-03).
 *
 * Property: for every key, every state words 12-15 (counters random, at 0, and just below the
 * 2^32 and 2^64 wraps, so a wrap falls on every block of a call), every length 0..2048 bytes
 * (every tail), in place and out of place, the message cut into up to four calls at block
 * boundaries (the keystream continued by the next call, empty calls included; for OpenSSL and
 * libgcrypt, which keep a partial block's keystream, each cut up to 63 bytes later), each
 * implementation's output and final counter equal the plain C reference's
 * (reference/chacha.c), under that implementation's own contract at the 2^32 wrap of the
 * 32-bit counter (below).  Libraries run 20 rounds only: a case at 8 or 12 rounds is judged for
 * the kernels alone.
 *
 * Outside kernels (./asmdiff check chacha), through fuzz/harness/stream_upstream.h: Linux's
 * x86 files (fuzz/conventions/linux_chacha.c: their glue's calls of at most the entry point's
 * width, the counter advanced in C; ctr32 only; hchacha_block_ssse3 for XChaCha's subkey) and
 * its riscv64 Zvkb file (whole blocks a call, a tail through the glue's block buffer),
 * kernels to our own prototype (asmdiff_chacha.c: one entry point, ctr32 or ctr64), OpenSSL's
 * perlasm output (openssl_chacha.c) and libgcrypt's files (libgcrypt_chacha.c: ctr64 only, the
 * rest of a call's keystream made in the block buffer, B_BLOCK).
 *
 * Operations (drv_op names): "block" (one 64-byte block of the block function at the case's
 * rounds: the keystream of 64 zero bytes), "ctr32", "ctr64", "xchacha" (the subkey from the
 * reference's HChaCha, the glue's part, then the ctr32 keystream under it; for an outside
 * HChaCha entry point, the subkey from it, compared first, and the reference's keystream).
 * HChaCha has no other implementation here (no library of this build exports it): its
 * published vector checks the reference, and XChaCha's checks it through the subkey.
 *
 * The 2^32 contract of each implementation's ctr32 (enum chacha_ctr; docs/chacha.md):
 *   ours (kernels/chacha/chacha.h) and nettle's chacha_crypt32: word 12 wraps, word 13 stays;
 *   OpenSSL's EVP_chacha20 and libgcrypt: the carry goes into word 13 (a 64-bit counter).
 * ctr64 carries into word 13 everywhere and wraps at 2^64 (words 14-15 untouched).
 */
#include <stdlib.h>
#include <string.h>

#include "asmdiff-config.h"
#include "cpu.h"
#include "driver.h"
#include "properties.h"
#include "report.h"
#include "rng.h"
#include "stream_upstream.h"
#include "vectors.h"
#include "reference/chacha.h"
#include "reference/oracles/chacha_oracles.h"
#if ASMDIFF_HAVE_GCRYPT
#include "reference/oracles/gcrypt_init.h"
#endif
#if ARCH_X86_64
#include "kernels/chacha/chacha.h"
#endif

#define CHACHA_MAX_BYTES 2048 /* 32 blocks: four batches of the 8-block kernels */
#define CHACHA_MAX_SPLITS 3

/* Our kernels' shape (kernels/chacha/chacha.h): dst = src ^ keystream for len bytes from the
 * 16-word state, its counter advanced by ceil(len / 64) blocks. */
typedef void (*chacha_kernel_fn)(uint32_t state[16], uint8_t *dst, const uint8_t *src,
                                 size_t len, unsigned nrounds);
typedef int (*chacha_lib_fn)(int ctr64, const uint8_t key[32], const uint32_t w[4], uint8_t *out,
                             const uint8_t *in, size_t len, const size_t *split, size_t nsplit);

struct chacha_ops {
    chacha_kernel_fn ctr32, ctr64; /* ours and the reference */
    chacha_lib_fn lib;             /* a library's */
    enum chacha_ctr ctr32_mode;    /* what its 32-bit counter does at 2^32 */
    int any_cut;                   /* a library that keeps a partial block's keystream between
                                    * calls: cut anywhere, not only at block boundaries */
};

/* The reference in the kernels' shape (listed and benched). */
static void ref_ctr32(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t len,
                      unsigned nrounds)
{
    chacha_xor(state, nrounds, CHACHA_CTR32_WRAP, dst, src, len);
}

static void ref_ctr64(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t len,
                      unsigned nrounds)
{
    chacha_xor(state, nrounds, CHACHA_CTR64, dst, src, len);
}

static const struct chacha_ops reference = {.ctr32 = ref_ctr32, .ctr64 = ref_ctr64,
                                            .ctr32_mode = CHACHA_CTR32_WRAP};
#if ARCH_X86_64
#define KERNEL_OPS(f)                                                                         \
    {.ctr32 = chacha_ctr32_x86_64_##f, .ctr64 = chacha_ctr64_x86_64_##f,                      \
     .ctr32_mode = CHACHA_CTR32_WRAP}
static const struct chacha_ops avx512_zmm = KERNEL_OPS(avx512_zmm);
static const struct chacha_ops avx512vl_prold = KERNEL_OPS(avx512vl_prold);
static const struct chacha_ops avx512vl_shuf = KERNEL_OPS(avx512vl_shuf);
static const struct chacha_ops avx2 = KERNEL_OPS(avx2);
/* vmovdqu8 and kmovd for the tail: AVX512BW in both forms */
#define NEEDS_AVX512VL (CPU_AVX512F | CPU_AVX512VL | CPU_AVX512BW)
/* zmm throughout (no VL); the tail's vmovdqu8 and kmovq are AVX512BW */
#define NEEDS_AVX512_ZMM (CPU_AVX512F | CPU_AVX512BW)
#endif
#if ASMDIFF_HAVE_OPENSSL
static const struct chacha_ops openssl = {.lib = oracle_openssl_chacha_xor,
                                          .ctr32_mode = CHACHA_CTR64, .any_cut = 1};
#endif
#if ASMDIFF_HAVE_GCRYPT
static const struct chacha_ops gcrypt = {.lib = oracle_gcrypt_chacha_xor,
                                         .ctr32_mode = CHACHA_CTR64, .any_cut = 1};
#endif
#if ASMDIFF_HAVE_NETTLE
static const struct chacha_ops nettle = {.lib = oracle_nettle_chacha_xor,
                                         .ctr32_mode = CHACHA_CTR32_WRAP};
#endif

static const struct impl impls[] = {
    IMPL("c-reference", 0, IMPL_REFERENCE, &reference),
#if ARCH_X86_64
    IMPL("x86_64-avx512-zmm", NEEDS_AVX512_ZMM, IMPL_KERNEL | IMPL_CLEAN, &avx512_zmm),
    IMPL("x86_64-avx512vl-prold", NEEDS_AVX512VL, IMPL_KERNEL | IMPL_CLEAN, &avx512vl_prold),
    IMPL("x86_64-avx512vl-shuf", NEEDS_AVX512VL, IMPL_KERNEL | IMPL_CLEAN, &avx512vl_shuf),
    IMPL("x86_64-avx2", CPU_AVX2, IMPL_KERNEL | IMPL_CLEAN, &avx2),
#endif
#if ASMDIFF_HAVE_OPENSSL
    IMPL("openssl", 0, IMPL_LIBRARY, &openssl, .describe = oracle_openssl_chacha_describe),
#endif
#if ASMDIFF_HAVE_NETTLE
    IMPL("nettle", 0, IMPL_LIBRARY, &nettle, .describe = oracle_nettle_chacha_describe),
#endif
#if ASMDIFF_HAVE_GCRYPT
    IMPL("libgcrypt", 0, IMPL_LIBRARY, &gcrypt, .describe = oracle_gcrypt_describe,
         .label = oracle_gcrypt_label, .version = oracle_gcrypt_version,
         .hwf = oracle_gcrypt_hwf),
#endif
};

enum { B_STATE, B_IN, B_OUT, B_KEY, B_WORDS, B_BLOCK, B_SUBKEY };
/* the state is words (the kernels load it as such); the rest any byte offset, but the two an
 * outside kernel's glue keeps as its own aligned arrays: a block buffer (a tail XORed in it,
 * stream_upstream.h) and HChaCha's subkey words (granule 64: never misaligned, and no input
 * byte is spent on their placement, so every seed decodes as before they were added) */
static const struct buf_spec bufs[] = {{"state", 4, BUF_SECRET},
                                       {"in", 1, BUF_SECRET},
                                       {"out", 1, 0},
                                       {"key", 1, BUF_SECRET},
                                       {"words 12-15", 4, 0},
                                       {"block buffer", 64, BUF_SECRET},
                                       {"subkey", 64, 0}};
_Static_assert(B_BLOCK == STREAM_B_BLOCK, "stream_upstream.h's block buffer");

enum op { OP_BLOCK, OP_CTR32, OP_CTR64, OP_XCHACHA, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"block", "ctr32", "ctr64", "xchacha"};

static struct chacha_case {
    unsigned rounds;         /* 8, 12 or 20 */
    uint8_t key[32];
    uint32_t w[4];           /* state words 12-15: counter and nonce */
    uint8_t xnonce[24];      /* XChaCha's nonce (its counter is w[0]) */
    size_t len;
    int in_place;
    size_t nsplits, split[CHACHA_MAX_SPLITS]; /* byte offsets, multiples of 64, ascending */
    size_t cut_shift; /* 0..63: the libraries that take any cut see each one this much later */
    uint8_t msg[CHACHA_MAX_BYTES];
} the_case;
/* what a convention's accepts() reads of it (stream_upstream.h) */
_Static_assert(offsetof(struct chacha_case, rounds) == offsetof(struct stream_case_head, rounds),
               "the case begins with its rounds");

static struct chacha_want {
    uint8_t block[64];
    uint32_t block_state[16];
    uint8_t out[2][CHACHA_MAX_BYTES]; /* [enum chacha_ctr] */
    uint32_t state[2][16];
    uint8_t xchacha[CHACHA_MAX_BYTES];
    uint32_t xchacha_state[16];
    uint8_t subkey[32]; /* HChaCha's, under which xchacha runs */
} want_;

static const uint8_t zeros[64];

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Word 12 (and 13): random, 0, or k blocks before the wrap, k in 1..40, so the wrap falls on
 * every lane of an 8-block batch within the first calls. */
static uint32_t decode_counter(struct input *in, uint32_t payload)
{
    switch (input_pick(in, 4)) {
    case 0: return payload;
    case 1: return 0;
    default: return (uint32_t)(0 - input_range(in, 1, 40));
    }
}

static void *decode(struct input *in)
{
    struct chacha_case *c = &the_case;
    static const size_t widths[] = {64, 256, 512};
    c->len = input_length(in, CHACHA_MAX_BYTES, widths, 3);
    input_bytes(in, c->key, sizeof c->key);
    uint32_t payload[4];
    input_fill_words(in, payload, 4, 4);
    c->w[0] = decode_counter(in, payload[0]);
    c->w[1] = input_pick(in, 3) == 0 ? 0xffffffffu : payload[1]; /* 2^64 wrap with w[0] near */
    c->w[2] = payload[2], c->w[3] = payload[3];
    input_bytes(in, c->xnonce, sizeof c->xnonce);
    input_bytes(in, c->msg, c->len);
    static const unsigned round_choice[] = {20, 20, 12, 8};
    c->rounds = round_choice[input_pick(in, 4)];
    c->in_place = input_bool(in);
    c->nsplits = input_pick(in, 3) == 0 ? (size_t)input_range(in, 1, CHACHA_MAX_SPLITS) : 0;
    for (size_t i = 0; i < c->nsplits; i++) c->split[i] = 64 * (size_t)input_range(in, 0, c->len / 64);
    qsort(c->split, c->nsplits, sizeof c->split[0], cmp_size);
    c->cut_shift = c->nsplits ? (size_t)input_range(in, 0, 63) : 0;
    return c;
}

static size_t call_from(const struct chacha_case *c, size_t i)
{
    return i == 0 ? 0 : c->split[i - 1];
}

static size_t call_to(const struct chacha_case *c, size_t i)
{
    return i < c->nsplits ? c->split[i] : c->len;
}

/* Case properties (properties.h), per call: its blocks mod 16 (the zmm kernel's batch; the
 * AVX-512VL kernels' 8 and the AVX2 kernel's 4 are divisors; 16 for an empty call, which
 * returns at once), the scale of its 8-block batches and whether it has more than one 16-block
 * batch (the zmm kernel's skewed loop), the 32-byte chunk of its last batch where the bytes
 * run out (the kernels' chain of whole chunks: 16 in a batch of 512 bytes for AVX-512VL, 8 of
 * 256 for AVX2, and 64-byte blocks, 16 in a batch of 1024, for zmm; past the last chunk when
 * the batch is whole, and apart for an empty call) and its bytes mod 32 and mod 64 (the byte
 * tail: a mask, or 16/8/4/1 bytes), the block of the call at which word 12 wraps, mod 16
 * (16: none); and the rounds. */
static size_t last_chunk(size_t bytes, size_t batch, size_t chunk)
{
    return !bytes ? batch / chunk + 1 : bytes % batch ? bytes % batch / chunk : batch / chunk;
}

static const char *const property_names[] = {"call blocks mod 16", "call batches scale",
                                             "call tail bytes mod 32", "wrap at block mod 16",
                                             "rounds", "call last chunk of 512",
                                             "call last chunk of 256",
                                             "call last block of 1024", "call tail bytes mod 64",
                                             "call batches of 16 past the first"};
static size_t properties_of(const void *cv, struct case_property *out, size_t max)
{
    const struct chacha_case *c = cv;
    size_t n = prop_add(out, 0, max, 4, c->rounds);
    uint32_t ctr = c->w[0];
    for (size_t i = 0; i <= c->nsplits; i++) {
        size_t bytes = call_to(c, i) - call_from(c, i), blocks = (bytes + 63) / 64;
        n = prop_add(out, n, max, 0, bytes ? blocks % 16 : 16);
        n = prop_add(out, n, max, 1, prop_log2(blocks / 8));
        n = prop_add(out, n, max, 2, bytes % 32);
        n = prop_add(out, n, max, 5, last_chunk(bytes, 512, 32));
        n = prop_add(out, n, max, 6, last_chunk(bytes, 256, 32));
        n = prop_add(out, n, max, 7, last_chunk(bytes, 1024, 64));
        n = prop_add(out, n, max, 8, bytes % 64);
        n = prop_add(out, n, max, 9, blocks > 16 ? (blocks - 1) / 16 : 0);
        uint32_t to_wrap = 0u - ctr; /* blocks before word 12 wraps (0: 2^32) */
        n = prop_add(out, n, max, 3, to_wrap && to_wrap < blocks ? to_wrap % 16 : 16);
        ctr += (uint32_t)blocks;
    }
    return n;
}
const struct family_properties asmdiff_properties = {property_names, 10, properties_of};

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* XChaCha's ChaCha state under a subkey: the case's counter, word 13 zero, words 14-15 the
 * nonce's last 8 bytes (draft 2.3) */
static void xchacha_state_under(const struct chacha_case *c, const uint8_t subkey[32],
                                uint32_t state[16])
{
    uint32_t w[4] = {c->w[0], 0, le32(c->xnonce + 16), le32(c->xnonce + 20)};
    chacha_init(state, subkey, w);
}

/* ... with the subkey from the reference's HChaCha (the glue's part, for kernels that have
 * none) */
static void xchacha_state(const struct chacha_case *c, uint32_t state[16])
{
    uint8_t subkey[32];
    hchacha(c->key, c->xnonce, c->rounds, subkey);
    xchacha_state_under(c, subkey, state);
}

static const void *expect(const void *cv)
{
    const struct chacha_case *c = cv;
    struct chacha_want *w = &want_;
    uint32_t s[16];
    chacha_init(s, c->key, c->w);
    chacha_block(s, c->rounds, w->block);
    memcpy(w->block_state, s, sizeof s);
    chacha_advance(w->block_state, CHACHA_CTR32_WRAP);
    for (int m = 0; m < 2; m++) {
        memcpy(w->state[m], s, sizeof s);
        chacha_xor(w->state[m], c->rounds, (enum chacha_ctr)m, w->out[m], c->msg, c->len);
    }
    hchacha(c->key, c->xnonce, c->rounds, w->subkey);
    xchacha_state(c, w->xchacha_state);
    chacha_xor(w->xchacha_state, c->rounds, CHACHA_CTR32_WRAP, w->xchacha, c->msg, c->len);
    /* the reference's own XChaCha agrees with the state built here */
    static uint8_t again[CHACHA_MAX_BYTES];
    xchacha_xor(c->key, c->xnonce, c->w[0], c->rounds, CHACHA_CTR32_WRAP, again, c->msg, c->len);
    if (memcmp(again, w->xchacha, c->len)) {
        fprintf(stderr, "chacha: the reference's xchacha_xor disagrees with its own parts\n");
        abort();
    }
    return w;
}

/* An outside HChaCha entry point's subkey (as bytes: its 8 words little-endian): the state it
 * takes (constants, key, the nonce's first 16 bytes in words 12-15) and its output placed. */
static void hchacha_outside(const struct stream_upstream *k, const struct chacha_case *c,
                            uint8_t subkey[32])
{
    static uint32_t s[16]; /* (static: the placed input is compared with it after calls) */
    uint32_t w[4];
    for (int i = 0; i < 4; i++) w[i] = le32(c->xnonce + 4 * i);
    chacha_init(s, c->key, w);
    const uint32_t *state = drv_in(B_STATE, s, 64);
    uint32_t *out = drv_out(B_SUBKEY, 32);
    k->hchacha(k, state, out, c->rounds);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++) subkey[4 * i + j] = (uint8_t)(out[i] >> 8 * j);
}

/* One kernel over the case's calls on a placed state (wide: its ctr64 entry point); the output
 * buffer back.  An outside kernel's calls are its convention's (stream_upstream.h). */
static uint8_t *kernel_op(const struct impl *im, int wide, const struct chacha_case *c,
                          const uint32_t *start, const uint8_t *msg, size_t len, int split,
                          uint32_t **state_out)
{
    uint32_t *state = drv_inout(B_STATE, start, 64);
    uint8_t *src = c->in_place ? drv_inout(B_IN, msg, len) : drv_in(B_IN, msg, len);
    uint8_t *dst = c->in_place ? src : drv_out(B_OUT, len);
    size_t calls = split ? c->nsplits : 0;
    for (size_t i = 0; i <= calls; i++) {
        size_t from = split ? call_from(c, i) : 0, to = split ? call_to(c, i) : len;
        if (im->flags & IMPL_OUTSIDE) {
            const struct stream_upstream *k = im->ops;
            (wide ? k->ctr64 : k->ctr32)(k, state, dst + from, src + from, to - from, c->rounds);
        } else {
            const struct chacha_ops *ops = im->ops;
            DRV_CALL(wide ? ops->ctr64 : ops->ctr32, state, dst + from,
                     (const uint8_t *)src + from, to - from, c->rounds);
        }
    }
    *state_out = state;
    return dst;
}

static void run_kernel(const struct impl *im, const struct chacha_case *c,
                       const struct chacha_want *w)
{
    /* ours wrap word 12 in ctr32 (kernels/chacha/chacha.h), and so does Linux's glue */
    enum chacha_ctr mode = CHACHA_CTR32_WRAP;
    int has32 = 1, has64 = 1;
    const struct stream_upstream *hch = NULL;
    if (im->flags & IMPL_OUTSIDE) {
        const struct stream_upstream *k = im->ops;
        has32 = k->ctr32 != NULL, has64 = k->ctr64 != NULL;
        if (k->hchacha) hch = k;
    } else {
        mode = ((const struct chacha_ops *)im->ops)->ctr32_mode;
    }
    uint32_t s[16], *state;
    uint8_t *out;
    chacha_init(s, c->key, c->w);

    /* an outside entry point is one counter form: the operations of the other are not run */
    if (has32) {
        drv_op(op_names[OP_BLOCK]);
        out = kernel_op(im, 0, c, s, zeros, 64, 0, &state);
        drv_expect_equal("block", w->block, out, 64);
        drv_expect_equal("state after the block", w->block_state, state, 64);

        drv_op(op_names[OP_CTR32]);
        out = kernel_op(im, 0, c, s, c->msg, c->len, 1, &state);
        drv_expect_equal("output", w->out[mode], out, c->len);
        drv_expect_equal("final state", w->state[mode], state, 64);
    }

    if (has64) {
        drv_op(op_names[OP_CTR64]);
        out = kernel_op(im, 1, c, s, c->msg, c->len, 1, &state);
        drv_expect_equal("output", w->out[CHACHA_CTR64], out, c->len);
        drv_expect_equal("final state", w->state[CHACHA_CTR64], state, 64);
    }

    if (has32 || hch) {
        drv_op(op_names[OP_XCHACHA]);
        if (hch) {
            /* the subkey by the entry point's HChaCha, as its glue computes it */
            uint8_t subkey[32];
            hchacha_outside(hch, c, subkey);
            drv_expect_equal("subkey", w->subkey, subkey, 32);
            xchacha_state_under(c, subkey, s);
        } else {
            xchacha_state(c, s);
        }
        if (has32) {
            out = kernel_op(im, 0, c, s, c->msg, c->len, 1, &state);
        } else {
            /* an HChaCha entry point alone: the keystream under its subkey from the reference
             * (its home's stream functions are judged as entry points of their own) */
            static uint8_t ref_out[CHACHA_MAX_BYTES];
            static uint32_t ref_state[16];
            memcpy(ref_state, s, sizeof ref_state);
            chacha_xor(ref_state, c->rounds, CHACHA_CTR32_WRAP, ref_out, c->msg, c->len);
            out = ref_out, state = ref_state;
        }
        drv_expect_equal("output", w->xchacha, out, c->len);
        drv_expect_equal("final state", w->xchacha_state, state, 64);
    }
}

static uint8_t *library_op(const struct chacha_ops *ops, const struct chacha_case *c, int ctr64,
                           const uint8_t *msg, size_t len, int split)
{
    static size_t splits[CHACHA_MAX_SPLITS];
    const uint8_t *key = drv_in(B_KEY, c->key, 32);
    const uint32_t *words = drv_in(B_WORDS, c->w, 16);
    uint8_t *src = c->in_place ? drv_inout(B_IN, msg, len) : drv_in(B_IN, msg, len);
    uint8_t *dst = c->in_place ? src : drv_out(B_OUT, len);
    /* a library that keeps a partial block's keystream is cut mid-block too (clipped to the
     * message): the keystream then continues inside a block in the next call */
    for (size_t i = 0; i < CHACHA_MAX_SPLITS; i++) {
        size_t at = c->split[i] + (ops->any_cut ? c->cut_shift : 0);
        splits[i] = at < len ? at : len;
    }
    int rc = (int)DRV_CALL(ops->lib, ctr64, key, words, dst, (const uint8_t *)src, len,
                           (const size_t *)splits, split ? c->nsplits : (size_t)0);
    drv_expect_true(rc == 0, "the library call failed");
    return dst;
}

static void run_library(const struct impl *im, const struct chacha_case *c,
                        const struct chacha_want *w)
{
    const struct chacha_ops *ops = im->ops;
    if (c->rounds != 20) return; /* the libraries have ChaCha20 only */
    drv_op(op_names[OP_BLOCK]);
    drv_expect_equal("block", w->block, library_op(ops, c, 0, zeros, 64, 0), 64);
    drv_op(op_names[OP_CTR32]);
    drv_expect_equal("output", w->out[ops->ctr32_mode], library_op(ops, c, 0, c->msg, c->len, 1),
                     c->len);
    drv_op(op_names[OP_CTR64]);
    drv_expect_equal("output", w->out[CHACHA_CTR64], library_op(ops, c, 1, c->msg, c->len, 1),
                     c->len);
}

static void run(const struct impl *im, const void *cv, const void *wv)
{
    if (im->flags & IMPL_LIBRARY) run_library(im, cv, wv);
    else run_kernel(im, cv, wv);
}

static void params(const void *cv)
{
    const struct chacha_case *c = cv;
    report_param("rounds", "%u", c->rounds);
    report_param("length", "%zu bytes (%zu blocks, a tail of %zu)", c->len, (c->len + 63) / 64,
                 c->len % 64);
    report_param("words 12-15", "%08x %08x %08x %08x (ctr32: counter %u; ctr64: counter %llu)",
                 c->w[0], c->w[1], c->w[2], c->w[3], c->w[0],
                 (unsigned long long)c->w[0] | (unsigned long long)c->w[1] << 32);
    report_param("in place", "%s", c->in_place ? "yes" : "no");
    if (c->nsplits && c->cut_shift)
        report_param("library cuts", "each %zu bytes later for OpenSSL and libgcrypt (they keep "
                     "a partial block's keystream)", c->cut_shift);
    char s[96] = "";
    for (size_t i = 0; i < c->nsplits; i++)
        snprintf(s + strlen(s), sizeof s - strlen(s), "[%zu,%zu) ", call_from(c, i), call_to(c, i));
    report_param("calls", "%s[%zu,%zu)", s, call_from(c, c->nsplits), c->len);
    report_hex("key", c->key, 32);
    report_hex("xchacha nonce", c->xnonce, 24);
    report_hex("input (first 64 bytes)", c->msg, c->len < 64 ? c->len : 64);
}

static void vary_secrets(void *cv, uint64_t seed)
{
    struct chacha_case *c = cv;
    rng_fill(&seed, c->key, sizeof c->key);
    rng_fill(&seed, c->msg, sizeof c->msg);
}

/* ---- known answers: corpus/chacha/kat.txt ---- */

/* Each vector is a case: whole, and (for the XOR vectors) cut before every block. */
static void check_vector_case(struct chacha_case *c)
{
    c->nsplits = 0;
    drv_check(c);
    c->nsplits = 1;
    for (size_t s = 64; s < c->len; s += 64) {
        c->split[0] = s;
        drv_check(c);
    }
}

static int kat(const char *srcdir)
{
    struct chacha_case *c = &the_case;
    struct vec_file vf;
    int count = 0;
    static uint8_t want[CHACHA_MAX_BYTES], got[CHACHA_MAX_BYTES];
    if (vec_open(&vf, srcdir, "corpus/chacha/kat.txt")) return -1;
    while (vec_next(&vf)) {
        memset(c, 0, sizeof *c);
        const char *op = vec_get(&vf, "Op");
        long long rounds = vec_get_uint(&vf, "Rounds");
        long klen = vec_get_hex(&vf, "Key", c->key, 32);
        uint8_t nonce[24];
        long nlen = vec_get_hex(&vf, "Nonce", nonce, sizeof nonce);
        c->rounds = (unsigned)rounds;
        int bad = !op || klen != 32 || nlen < 0 || (rounds != 8 && rounds != 12 && rounds != 20);
        long wlen = -1;
        if (!bad && !strcmp(op, "hchacha")) {
            wlen = vec_get_hex(&vf, "Subkey", want, 32);
            vec_done(&vf);
            bad = nlen != 16 || wlen != 32;
            if (!bad) {
                hchacha(c->key, nonce, c->rounds, got);
                if (drv_reference_agrees(vf.path, "subkey", want, got, 32)) {
                    memcpy(c->xnonce, nonce, 16); /* XChaCha's cases under this subkey */
                    c->len = 64;
                    check_vector_case(c);
                }
                count++;
            }
        } else if (!bad && (!strcmp(op, "ctr32") || !strcmp(op, "ctr64") || !strcmp(op, "xchacha"))) {
            long long counter = vec_get_uint(&vf, "Counter");
            long plen = vec_get_hex(&vf, "Plaintext", c->msg, sizeof c->msg);
            wlen = vec_get_hex(&vf, "Ciphertext", want, sizeof want);
            vec_done(&vf);
            int x = !strcmp(op, "xchacha"), wide = !strcmp(op, "ctr64");
            bad = counter < 0 || plen < 0 || wlen != plen ||
                  nlen != (x ? 24 : wide ? 8 : 12) || (!wide && counter > 0xffffffffll);
            if (!bad) {
                c->len = (size_t)plen;
                c->w[0] = (uint32_t)counter;
                if (x) {
                    memcpy(c->xnonce, nonce, 24);
                    xchacha_xor(c->key, nonce, c->w[0], c->rounds, CHACHA_CTR32_WRAP, got, c->msg,
                                c->len);
                } else {
                    uint32_t s[16];
                    if (wide) c->w[1] = (uint32_t)((unsigned long long)counter >> 32);
                    for (int i = wide ? 2 : 1; i < 4; i++) c->w[i] = le32(nonce + 4 * (i - (wide ? 2 : 1)));
                    chacha_init(s, c->key, c->w);
                    chacha_xor(s, c->rounds, wide ? CHACHA_CTR64 : CHACHA_CTR32_WRAP, got, c->msg,
                               c->len);
                }
                if (drv_reference_agrees(vf.path, "ciphertext", want, got, c->len))
                    check_vector_case(c);
                count++;
            }
        } else {
            vec_done(&vf);
            bad = 1;
        }
        if (bad) {
            fprintf(stderr, "%s:%d: want Op (hchacha, ctr32, ctr64, xchacha), Rounds (8, 12, 20), "
                            "a 32-byte Key, a Nonce of 16, 12, 8 or 24 bytes, and Subkey or "
                            "Counter, Plaintext and Ciphertext of its length\n",
                    vf.path, vf.b.line);
            drv_vector_errors(1);
        }
    }
    drv_vector_errors(vec_close(&vf));
    return count;
}

/* ---- exhaustive: every length 0..CHACHA_MAX_BYTES, and the wraps on every block ----
 * Every length at each rounds count (the tails, the batches and their remainders of every
 * kernel), then the 2^32 wrap of word 12 on each of the first 40 blocks of a call (40 blocks
 * and a tail) with word 13 random and all-ones (the 2^64 wrap of ctr64), and the same cut into
 * two calls at every block. */
static int exhaustive(void)
{
    struct chacha_case *c = &the_case;
    uint64_t x = 0x6368616368613230ull;
    static const unsigned rounds[] = {20, 12, 8};
    memset(c, 0, sizeof *c);
    for (size_t len = 0; len <= CHACHA_MAX_BYTES; len++) {
        rng_fill(&x, c->key, sizeof c->key);
        rng_fill(&x, c->w, sizeof c->w);
        rng_fill(&x, c->xnonce, sizeof c->xnonce);
        rng_fill(&x, c->msg, len);
        c->rounds = rounds[len % 3];
        c->in_place = (int)(len / 3 % 2);
        c->len = len;
        c->nsplits = 0;
        drv_check(c);
    }
    for (uint32_t k = 1; k <= 40; k++)
        for (int top = 0; top < 2; top++) {
            rng_fill(&x, c->key, sizeof c->key);
            rng_fill(&x, c->w, sizeof c->w);
            rng_fill(&x, c->msg, sizeof c->msg);
            c->w[0] = 0u - k;
            if (top) c->w[1] = 0xffffffffu;
            c->rounds = 20;
            c->len = 40 * 64 + 17 < CHACHA_MAX_BYTES ? 40 * 64 + 17 : CHACHA_MAX_BYTES - 5;
            c->nsplits = 1;
            c->split[0] = 64 * (size_t)(k % (c->len / 64 + 1));
            drv_check(c);
        }
    return 0;
}

/* ---- bench: the keystream XOR of the whole buffer in one call, 20 rounds (and 12, 8 for our
 * kernels and the reference) ---- */

static const struct bench_op bench_ops[] = {
    {"ChaCha20 ctr32", 64, 16384}, {"ChaCha12 ctr32", 64, 16384}, {"ChaCha8 ctr32", 64, 16384}};
static const unsigned bench_rounds[] = {20, 12, 8};

static int bench_run(const struct impl *im, size_t op, uint8_t *buf, size_t bytes)
{
    static const uint8_t key[32] = {0x63, 0x68, 0x61};
    static const uint32_t w[4] = {1, 2, 3, 4};
    uint32_t state[16];
    chacha_init(state, key, w);
    if (im->flags & IMPL_OUTSIDE) { /* its convention's direct calls */
        const struct stream_upstream *k = im->ops;
        if (!k->bench32 || (k->rounds_only && k->rounds_only != bench_rounds[op])) return -1;
        k->bench32(k, state, buf, bytes, bench_rounds[op]);
        return 0;
    }
    const struct chacha_ops *ops = im->ops;
    if (ops->lib) {
        if (bench_rounds[op] != 20) return -1;
        return ops->lib(0, key, w, buf, buf, bytes, NULL, 0);
    }
    ops->ctr32(state, buf, buf, bytes, bench_rounds[op]);
    return 0;
}

const struct family asmdiff_family = {
    .name = "chacha",
    .spec = "RFC 8439, draft-irtf-cfrg-xchacha-03",
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
