/* blockcipher.c — see blockcipher.h. */
#include "blockcipher.h"

#include <stdio.h>

#include "bc_upstream.h"
#include <string.h>

#include "properties.h"
#include "report.h"
#include "rng.h"
#include "vectors.h"

#define C (&bc_cipher)

const struct buf_spec bc_bufs[BC_NBUFS] = {
    {"key", 1, BUF_SECRET},   {"key schedule", 1, BUF_SECRET}, {"input", 1, BUF_SECRET},
    {"output", 1, 0},         {"counter", 1, 0},               {"computed schedule", 1, 0},
    {"rounds", 4, 0},
};

enum op { OP_ECB_ENC, OP_ECB_DEC, OP_CTR, OP_COUNT };
static const char *const op_names[] = {"ecb-encrypt", "ecb-decrypt", "ctr"};

static struct bc_case the_case;

struct schedule {
    uint8_t ks[BC_MAX_SCHEDULE] __attribute__((aligned(16)));
    unsigned rounds;
    size_t bytes; /* what a kernel reads */
};

static struct bc_want {
    struct schedule enc, dec;
    uint8_t out[OP_COUNT][16 * BC_MAX_BLOCKS];
    uint8_t ctr[16];
} want_;

void *bc_decode(struct input *in)
{
    struct bc_case *c = &the_case;
    c->keylen = 16 + 8 * (size_t)input_pick(in, 3);
    c->nblocks = input_length(in, 300, C->widths, 3);
    c->in_place = input_bool(in);
    c->nsplits = input_pick(in, 4);
    size_t left = c->nblocks;
    for (size_t i = 0; i < c->nsplits; i++) {
        c->split[i] = input_length(in, left, C->widths, 3);
        left -= c->split[i];
    }
    /* counter: random, or just below a wrap of the low 32, 64 or all 128 bits.  The wrap
     * falls inside the call's blocks (or on the first block after them): a carry bug shows
     * only where a call crosses it, and a wrap past the call's end tests nothing a random
     * counter does not (the same input byte as before, so cases elsewhere are unchanged). */
    int bias = (int)input_pick(in, 4);
    uint64_t below = input_range(in, 0, 2 * 64) % (c->nblocks + 1);
    input_bytes(in, c->ctr, 16);
    if (bias) {
        size_t low = bias == 1 ? 4 : bias == 2 ? 8 : 16;
        uint64_t v = ~(uint64_t)0 - below;
        for (size_t i = 0; i < low; i++) c->ctr[15 - i] = i < 8 ? (uint8_t)(v >> (8 * i)) : 0xff;
    }
    input_fill_words(in, c->key, c->keylen / 4, 4);
    input_fill_words(in, c->in, 4 * c->nblocks, 4);
    return c;
}

static void schedule(struct schedule *s, const uint8_t *key, size_t keylen, int decrypt)
{
    C->schedule(s->ks, key, keylen, decrypt, &s->rounds, &s->bytes);
}

const void *bc_expect(const void *cv)
{
    const struct bc_case *c = cv;
    schedule(&want_.enc, c->key, c->keylen, 0);
    schedule(&want_.dec, c->key, c->keylen, 1);
    C->ecb(want_.enc.ks, want_.out[OP_ECB_ENC], c->in, c->nblocks);
    C->ecb(want_.dec.ks, want_.out[OP_ECB_DEC], c->in, c->nblocks);
    memcpy(want_.ctr, c->ctr, 16);
    C->ctr(want_.enc.ks, want_.out[OP_CTR], c->in, c->nblocks, want_.ctr);
    return &want_;
}

/* ---- the asmdiff convention: outside kernels of our own kernels' prototypes ----
 *
 * Each one's ops is its own struct bc_kernel_ops (the entry point it is not left NULL), so
 * they are called and benched as our own kernels are, and several live in one check build. */
const char *const bc_own_ops[2] = {"ecb", "ctr"};
static struct bc_kernel_ops own_kernels[OUTSIDE_MAX];
static size_t nown;

static const struct bc_kernel_ops *own_of(const struct impl *im)
{
    const struct bc_kernel_ops *k = im->ops;
    return (im->flags & IMPL_OUTSIDE) && k >= own_kernels && k < own_kernels + nown ? k : NULL;
}

const void *bc_own_make_ops(const struct convention *cv, const void *fn, size_t op)
{
    (void)cv;
    if (nown == OUTSIDE_MAX) return NULL; /* outside.c makes at most OUTSIDE_MAX */
    struct bc_kernel_ops *k = &own_kernels[nown++];
    if (op == 1) k->ctr = (bc_kernel_ctr)fn;
    else k->ecb = (bc_kernel_ecb)fn;
    return k;
}

/* ECB or CTR: 64 blocks of zeros under a fixed key's encryption schedule, every argument of a
 * CTR call passed (an ECB entry point ignores the counter), against the reference's ECB and
 * its CTR from a zero counter. */
int bc_own_identify(const struct convention *cv, const void *fn, const char *symbol)
{
    (void)cv, (void)symbol;
    static struct schedule s;
    static uint8_t in[16 * 64], out[16 * 64], want_ecb[16 * 64], want_ctr[16 * 64];
    uint8_t key[16] = {1, 2, 3, 4}, ctr0[16] = {0}, ctr[16] = {0};
    schedule(&s, key, sizeof key, 0);
    C->ecb(s.ks, want_ecb, in, 64);
    C->ctr(s.ks, want_ctr, in, 64, ctr0);
    DRV_PROBE(fn, (const uint8_t *)s.ks + C->kernel_offset, s.rounds, out, (const uint8_t *)in,
              (size_t)64, ctr);
    return !memcmp(out, want_ecb, sizeof out) ? 0 : !memcmp(out, want_ctr, sizeof out) ? 1 : -1;
}

/* Whether an outside kernel does operation op: ours by its entry point, an upstream
 * convention's by its row. */
static int outside_does(const struct impl *im, int op)
{
    const struct bc_kernel_ops *own = own_of(im);
    if (own) return op == OP_CTR ? own->ctr != NULL : own->ecb != NULL;
    return bc_upstream_does(im, op);
}

const void *bc_reference_schedule(int decrypt, unsigned *rounds, size_t *kernel_bytes)
{
    const struct schedule *s = decrypt ? &want_.dec : &want_.enc;
    *rounds = s->rounds;
    *kernel_bytes = s->bytes;
    return s->ks + C->kernel_offset;
}

/* One operation of one implementation on in[0, 16 * nblocks): into out (in place when asked),
 * the final counter into ctr_out.  Returns the output buffer. */
static uint8_t *one_op(const struct impl *im, const struct bc_case *c, enum op op,
                       const uint8_t *in, uint8_t ctr_out[16])
{
    size_t bytes = 16 * c->nblocks;
    const struct schedule *s = op == OP_ECB_DEC ? &want_.dec : &want_.enc;
    drv_op(op_names[op]);
    uint8_t *src = c->in_place ? drv_inout(BC_BUF_IN, in, bytes) : drv_in(BC_BUF_IN, in, bytes);
    uint8_t *dst = c->in_place ? src : drv_out(BC_BUF_OUT, bytes);
    uint8_t *ctr = op == OP_CTR ? drv_inout(BC_BUF_CTR, c->ctr, 16) : NULL;
    if ((im->flags & IMPL_OUTSIDE) && !own_of(im)) {
        bc_upstream_call(im, c, (int)op, dst, src, ctr);
    } else if (im->flags & IMPL_KERNEL) {
        const struct bc_kernel_ops *ops = im->ops;
        const uint8_t *ks = drv_in(BC_BUF_SCHEDULE, s->ks + C->kernel_offset, s->bytes);
        if (op != OP_CTR) {
            DRV_CALL(ops->ecb, ks, s->rounds, dst, (const uint8_t *)src, c->nblocks);
        } else {
            size_t done = 0;
            for (size_t i = 0; i <= c->nsplits; i++) {
                size_t n = i < c->nsplits ? c->split[i] : c->nblocks - done;
                DRV_CALL(ops->ctr, ks, s->rounds, dst + 16 * done,
                         (const uint8_t *)src + 16 * done, n, ctr);
                done += n;
            }
        }
    } else {
        const struct bc_lib_ops *ops = im->ops;
        const uint8_t *key = drv_in(BC_BUF_KEY, c->key, c->keylen);
        int rc = op == OP_CTR ? (int)DRV_CALL(ops->ctr, key, c->keylen, dst, (const uint8_t *)src,
                                              c->nblocks, ctr)
                              : (int)DRV_CALL(ops->ecb, op == OP_ECB_ENC, key, c->keylen, dst,
                                              (const uint8_t *)src, c->nblocks);
        drv_expect_true(rc == 0, "the library call failed");
    }
    if (ctr) memcpy(ctr_out, ctr, 16);
    return dst;
}

void bc_run(const struct impl *im, const void *cv, const void *wv)
{
    const struct bc_case *c = cv;
    const struct bc_want *w = wv;
    static uint8_t ct[16 * BC_MAX_BLOCKS];
    size_t bytes = 16 * c->nblocks;
    uint8_t ctr[16];
    for (int op = 0; op < OP_COUNT; op++) {
        if ((im->flags & IMPL_OUTSIDE) && !outside_does(im, op))
            continue; /* an outside entry point of another operation */
        uint8_t *out = one_op(im, c, (enum op)op, c->in, ctr);
        drv_expect_equal("output", w->out[op], out, bytes);
        if (op == OP_CTR) drv_expect_equal("final counter", w->ctr, ctr, 16);
        if (op == OP_ECB_ENC && (im->flags & IMPL_KERNEL) &&
            (!(im->flags & IMPL_OUTSIDE) || outside_does(im, OP_ECB_DEC))) {
            /* the round trip through the kernel itself (an outside entry point that only
             * encrypts, as Linux's encrypt_Nway, has none) */
            memcpy(ct, out, bytes);
            out = one_op(im, c, OP_ECB_DEC, ct, ctr);
            drv_op("ecb-decrypt of its own ciphertext");
            drv_expect_equal("decrypt(encrypt(x))", c->in, out, bytes);
        }
    }
    if (C->extra_run) C->extra_run(im, c);
}

void bc_params(const void *cv)
{
    const struct bc_case *c = cv;
    report_param("key size", "%zu bits (%u rounds)", 8 * c->keylen, want_.enc.rounds);
    report_param("blocks", "%zu", c->nblocks);
    report_param("in place", "%s", c->in_place ? "yes" : "no");
    char s[64] = "";
    for (size_t i = 0; i < c->nsplits; i++)
        snprintf(s + strlen(s), sizeof s - strlen(s), "%zu+", c->split[i]);
    report_param("ctr calls", "%srest", s);
    report_hex("initial counter", c->ctr, 16);
    report_hex("key", c->key, c->keylen);
    report_hex("input (first 64 bytes)", c->in, 16 * c->nblocks < 64 ? 16 * c->nblocks : 64);
}

void bc_vary_secrets(void *cv, uint64_t seed)
{
    struct bc_case *c = cv;
    rng_fill(&seed, c->key, sizeof c->key);
    rng_fill(&seed, c->in, sizeof c->in);
}

/* ---- published vectors, each also as N identical blocks, both directions ---- */

int bc_kat(const char *srcdir)
{
    struct bc_case *c = &the_case;
    static const size_t counts[] = {1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 128, 129, 200};
    static struct schedule s;
    uint8_t pt[16], ct[16], got[16];
    struct vec_file vf;
    int count = 0;
    if (vec_open(&vf, srcdir, C->kat_file)) return -1;
    while (vec_next(&vf)) {
        memset(c, 0, sizeof *c);
        long kl = vec_get_hex(&vf, "Key", c->key, sizeof c->key);
        long pl = vec_get_hex(&vf, "Plaintext", pt, sizeof pt);
        long cl = vec_get_hex(&vf, "Ciphertext", ct, sizeof ct);
        vec_done(&vf);
        if ((kl != 16 && kl != 24 && kl != 32) || pl != 16 || cl != 16) {
            drv_vector_errors(1);
            continue;
        }
        c->keylen = (size_t)kl;
        count++;
        for (int dir = 0; dir < 2; dir++) {
            schedule(&s, c->key, c->keylen, dir);
            C->ecb(s.ks, got, dir ? ct : pt, 1);
            if (!drv_reference_agrees(vf.path, dir ? "plaintext" : "ciphertext", dir ? pt : ct,
                                      got, 16))
                goto next;
        }
        for (size_t n = 0; n < sizeof counts / sizeof counts[0]; n++) {
            c->nblocks = counts[n];
            for (int dir = 0; dir < 2; dir++) {
                for (size_t b = 0; b < c->nblocks; b++) memcpy(c->in + 16 * b, dir ? ct : pt, 16);
                c->in_place = (int)(n & 1);
                drv_check(c);
            }
        }
    next:;
    }
    drv_vector_errors(vec_close(&vf));
    return count;
}

/* ---- exhaustive: every block count 0..200 and 255..513, every key size ---- */

int bc_exhaustive(void)
{
    struct bc_case *c = &the_case;
    int fails = C->exhaustive_extra ? C->exhaustive_extra() : 0;
    uint64_t x = 0x626c6f636bu;
    for (size_t keylen = 16; keylen <= 32; keylen += 8)
        for (size_t n = 0; n <= 513; n++) {
            if (n > 200 && n < 255) continue;
            memset(c, 0, sizeof *c);
            c->keylen = keylen;
            c->nblocks = n;
            c->in_place = (int)(n % 2);
            rng_fill(&x, c->key, keylen);
            rng_fill(&x, c->in, 16 * n);
            rng_fill(&x, c->ctr, 16);
            if (n % 3 == 0) memset(c->ctr + 8, 0xff, 8); /* the 2^64 carry inside the call */
            c->nsplits = n % 4 == 1 && n > 64 ? 1 : 0;
            c->split[0] = n / 3;
            drv_check(c);
        }
    return fails;
}

/* ---- bench: <NAME>128/192/256 x {ECB enc, ECB dec, CTR} ---- */

#define BENCH_BYTES (16 * 1024)
static char bench_names[9][32];
const struct bench_op bc_bench_ops[9] = {
    {bench_names[0], 16, BENCH_BYTES}, {bench_names[1], 16, BENCH_BYTES},
    {bench_names[2], 16, BENCH_BYTES}, {bench_names[3], 16, BENCH_BYTES},
    {bench_names[4], 16, BENCH_BYTES}, {bench_names[5], 16, BENCH_BYTES},
    {bench_names[6], 16, BENCH_BYTES}, {bench_names[7], 16, BENCH_BYTES},
    {bench_names[8], 16, BENCH_BYTES},
};
static struct {
    uint8_t raw[32];
    size_t keylen;
    struct schedule s;
    enum op op;
} bench;

void bc_bench_setup(size_t op)
{
    static const char *const what[] = {"ECB enc", "ECB dec", "CTR"};
    for (size_t i = 0; i < sizeof bench.raw; i++) bench.raw[i] = (uint8_t)(i * 29 + 7);
    bench.keylen = 16 + 8 * (op / 3);
    bench.op = (enum op)(op % 3);
    snprintf(bench_names[op], sizeof bench_names[op], "%s%zu %s", C->name, 8 * bench.keylen,
             what[op % 3]);
    schedule(&bench.s, bench.raw, bench.keylen, bench.op == OP_ECB_DEC);
}

int bc_bench_run(const struct impl *im, size_t op, uint8_t *buf, size_t bytes)
{
    uint8_t ctr[16] = {0};
    size_t n = bytes / 16;
    (void)op;
    /* an upstream convention's kernel takes its own context: no bench row */
    if ((im->flags & IMPL_OUTSIDE) && !own_of(im)) return -1;
    if (im->flags & IMPL_KERNEL) {
        const struct bc_kernel_ops *k = im->ops;
        if (bench.op == OP_CTR ? !k->ctr : !k->ecb) return -1; /* an outside ECB or CTR one */
        const uint8_t *ks = bench.s.ks + C->kernel_offset;
        if (bench.op == OP_CTR) k->ctr(ks, bench.s.rounds, buf, buf, n, ctr);
        else k->ecb(ks, bench.s.rounds, buf, buf, n);
    } else {
        const struct bc_lib_ops *l = im->ops;
        if (bench.op == OP_CTR) l->ctr(bench.raw, bench.keylen, buf, buf, n, ctr);
        else l->ecb(bench.op == OP_ECB_ENC, bench.raw, bench.keylen, buf, buf, n);
    }
    return 0;
}

/* ---- case properties (properties.h): what the kernels branch on ----
 *
 * The kernels split a call the same way: 128 blocks and more take the pipelined batches of the
 * widest width (64), 64 to 127 one batch of it, then the rest is a tail of up to 63 blocks in
 * the smallest width that holds it.  The properties follow that shape:
 *   - blocks (ECB's count, and each CTR call's of the split): which of the three paths (below
 *     64, 64-127, 128 and more) with what is left for the tail (the empty call apart); and the
 *     whole batches (up to 4: the pipeline's loop) with the key size (the round count picks
 *     the pipelined code);
 *   - the counter, per batch of each CTR call: the batch's role (the pipeline's first, a later
 *     one, the one 64-block batch, a tail of each width), whether the counter's low byte
 *     carries inside it (the counter blocks are then built one by one), whether the low qword
 *     wraps inside it (the carry into the high qword), with the key size;
 *   - the highest counter byte a call changes (the low byte alone ... the low qword into the
 *     high one). */
enum { BCP_BLOCKS, BCP_BLOCKS_KEY, BCP_CTR_BLOCKS, BCP_CTR_BLOCKS_KEY, BCP_CTR_BATCH,
       BCP_CTR_CARRY_BYTE, BCP_COUNT };
static const char *const bc_property_names[BCP_COUNT] = {
    "blocks: path and tail", "blocks: batches and key", "ctr call: path and tail",
    "ctr call: batches and key", "ctr batch: role, byte carry, qword wrap, key", "ctr carry byte",
};

/* ctr += n, big-endian over 16 bytes */
static void ctr_add(uint8_t ctr[16], uint64_t n)
{
    for (int i = 15; i >= 0 && n; i--) {
        uint64_t s = ctr[i] + (n & 0xff);
        ctr[i] = (uint8_t)s;
        n = (n >> 8) + (s >> 8);
    }
}

/* The kernels' path for k blocks: 0 below one batch, 1 one batch, 2 the pipelined ones. */
static unsigned bc_path(size_t k, size_t batch)
{
    return k >= 2 * batch ? 2 : k >= batch ? 1 : 0;
}

/* Whole batches, up to 4 (the pipeline's loop runs once with 2 of them, again with more). */
static unsigned bc_batches(size_t k, size_t batch)
{
    return k / batch < 4 ? (unsigned)(k / batch) : 4;
}

static size_t bc_properties_of(const void *cv, struct case_property *out, size_t max)
{
    const struct bc_case *c = cv;
    if (!&bc_cipher) return 0;
    size_t batch = C->widths[2] ? C->widths[2] : 64, n = 0;
    unsigned key = (unsigned)(c->keylen - 16) / 8; /* 0, 1, 2: 128, 192, 256 bits */
    /* path and tail: the empty call is its own value */
#define PATH_TAIL(k) (bc_path(k, batch) * (batch + 1) + ((k) ? (k) % batch : batch))
    n = prop_add(out, n, max, BCP_BLOCKS, PATH_TAIL(c->nblocks));
    n = prop_add(out, n, max, BCP_BLOCKS_KEY, bc_batches(c->nblocks, batch) * 3 + key);
    uint8_t ctr[16];
    memcpy(ctr, c->ctr, 16);
    size_t done = 0;
    for (size_t i = 0; i <= c->nsplits; i++) {
        size_t k = i < c->nsplits ? c->split[i] : c->nblocks - done;
        done += k;
        n = prop_add(out, n, max, BCP_CTR_BLOCKS, PATH_TAIL(k));
        n = prop_add(out, n, max, BCP_CTR_BLOCKS_KEY, bc_batches(k, batch) * 3 + key);
        uint8_t before[16];
        memcpy(before, ctr, 16);
        for (size_t at = 0; at < k;) {
            size_t left = k - at, width = batch;
            unsigned role;
            if (left >= batch) {
                role = k >= 2 * batch ? (at ? 1 : 0) : 2;
            } else { /* the tail: the smallest width that holds it */
                role = 3;
                while (role < 5 && C->widths[role - 3] < left) role++;
                width = C->widths[role - 3];
            }
            uint64_t low = 0;
            for (int b = 8; b < 16; b++) low = low << 8 | ctr[b];
            unsigned byte_carry = ctr[15] > 256 - width, qword_wraps = ~low < width;
            n = prop_add(out, n, max, BCP_CTR_BATCH,
                         ((role * 2 + byte_carry) * 2 + qword_wraps) * 3 + key);
            size_t step = left < batch ? left : batch;
            ctr_add(ctr, step);
            at += step;
        }
        int top = -1; /* the highest byte (0: the last, least significant) the call changed */
        for (int b = 0; b < 16; b++)
            if (before[b] != ctr[b]) {
                top = 15 - b;
                break;
            }
        n = prop_add(out, n, max, BCP_CTR_CARRY_BYTE, (uint64_t)(top + 1));
    }
#undef PATH_TAIL
    return n;
}

/* Weak: the other families (mpi, nh, polyval) define their own; a family without bc_cipher
 * has none from here. */
__attribute__((weak)) const struct family_properties asmdiff_properties = {
    .names = bc_property_names,
    .nnames = BCP_COUNT,
    .of = bc_properties_of,
};
