/* blockcipher.c — see blockcipher.h. */
#include "blockcipher.h"

#include <stdio.h>
#include <string.h>

#include "bc_upstream.h"
#include "properties.h"
#include "report.h"
#include "rng.h"
#include "vectors.h"

#define C (&bc_cipher)

const struct buf_spec bc_bufs[BC_NBUFS] = {
    {"key", 1, BUF_SECRET},   {"key schedule", 1, BUF_SECRET}, {"input", 1, BUF_SECRET},
    {"output", 1, 0},         {"counter", 1, 0},               {"computed schedule", 1, 0},
    {"rounds", 4, 0},         {"iv or tweak", 1, 0},           {"tweak key schedule", 1, BUF_SECRET},
    {"upstream context", 16, BUF_SECRET},
};

enum op { OP_ECB_ENC = BC_OP_ECB_ENC, OP_ECB_DEC, OP_CTR, OP_CBC_DEC, OP_CTR32LE, OP_XTS_ENC,
          OP_XTS_DEC, OP_COUNT };
static const char *const op_names[] = {"ecb-encrypt", "ecb-decrypt", "ctr", "cbc-decrypt",
                                       "ctr32le", "xts-encrypt", "xts-decrypt"};

static unsigned modes(void)
{
    return C->modes ? C->modes : BC_MODES_ECB_CTR;
}

static int decrypts(enum op op)
{
    return op == OP_ECB_DEC || op == OP_CBC_DEC || op == OP_XTS_DEC;
}

static int is_xts(enum op op)
{
    return op == OP_XTS_ENC || op == OP_XTS_DEC;
}

static struct bc_case the_case;

struct schedule {
    uint8_t ks[BC_MAX_SCHEDULE] __attribute__((aligned(16)));
    unsigned rounds;
    size_t bytes; /* what a kernel reads */
};

static struct bc_want {
    struct schedule enc, dec, tweak; /* tweak: the second key's encryption schedule (XTS) */
    uint8_t out[OP_COUNT][16 * BC_MAX_BLOCKS + 16];
    uint8_t chain[OP_COUNT][16]; /* the final counter, IV or tweak */
    uint8_t tweak0[16];          /* E_K2(iv): XTS's first tweak */
} want_;

/* The bytes an operation takes: whole blocks, XTS also the tail (none without a block). */
static size_t op_bytes(const struct bc_case *c, enum op op)
{
    return 16 * c->nblocks + (is_xts(op) && c->nblocks ? c->tail : 0);
}

size_t bc_op_bytes(const struct bc_case *c, int op)
{
    return op_bytes(c, (enum op)op);
}

/* The blocks of call i of a chained operation, done blocks before it: the case's splits, the
 * rest in the last call.  XTS leaves its last call at least one whole block when there is a
 * tail to steal from. */
size_t bc_call_blocks(const struct bc_case *c, int o, size_t i, size_t done)
{
    enum op op = (enum op)o;
    size_t left = c->nblocks - done;
    if (i == c->nsplits) return left;
    size_t keep = is_xts(op) && c->tail && left ? 1 : 0;
    return c->split[i] < left - keep ? c->split[i] : left - keep;
}

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
    memset(c->key2, 0, sizeof c->key2), memset(c->iv, 0, 16), memset(c->ctr32, 0, 16);
    c->tail = 0;
    int more = (modes() & ~BC_MODES_ECB_CTR) != 0, wrap32 = 0;
    uint32_t below32 = 0;
    if (more) {
        /* the modes' choices next to the others (control values come from the input's end,
         * so they must not wait behind the data's); only a cipher with the modes reads them,
         * so the ECB/CTR ciphers' cases stay as they were */
        c->tail = input_pick(in, 16);
        wrap32 = input_bool(in); /* ctr32le's wrap inside the call */
        below32 = (uint32_t)(input_range(in, 0, 64) % (c->nblocks + 1));
    }
    input_fill_words(in, c->key, c->keylen / 4, 4);
    input_fill_words(in, c->in, 4 * c->nblocks, 4);
    if (more) {
        input_bytes(in, c->in + 16 * c->nblocks, 16);
        input_fill_words(in, c->key2, c->keylen / 4, 4);
        input_bytes(in, c->iv, 16);
        memcpy(c->ctr32, c->ctr, 16);
        if (wrap32) {
            uint32_t v = ~(uint32_t)0 - below32;
            for (int i = 0; i < 4; i++) c->ctr32[i] = (uint8_t)(v >> (8 * i));
        }
    }
    return c;
}

static void schedule(struct schedule *s, const uint8_t *key, size_t keylen, int decrypt)
{
    C->schedule(s->ks, key, keylen, decrypt, &s->rounds, &s->bytes);
}

/* The reference's output and final chaining value of op on the case. */
static void reference_op(const struct bc_case *c, enum op op, uint8_t *out, uint8_t chain[16])
{
    switch (op) {
    case OP_ECB_ENC: C->ecb(want_.enc.ks, out, c->in, c->nblocks); break;
    case OP_ECB_DEC: C->ecb(want_.dec.ks, out, c->in, c->nblocks); break;
    case OP_CTR:
        memcpy(chain, c->ctr, 16);
        C->ctr(want_.enc.ks, out, c->in, c->nblocks, chain);
        break;
    case OP_CBC_DEC:
        memcpy(chain, c->iv, 16);
        C->cbc_dec(want_.dec.ks, out, c->in, c->nblocks, chain);
        break;
    case OP_CTR32LE:
        memcpy(chain, c->ctr32, 16);
        C->ctr32le(want_.enc.ks, out, c->in, c->nblocks, chain);
        break;
    case OP_XTS_ENC:
    case OP_XTS_DEC:
        memcpy(chain, want_.tweak0, 16);
        C->xts(op == OP_XTS_DEC ? want_.dec.ks : want_.enc.ks, op == OP_XTS_DEC, out, c->in,
               op_bytes(c, op), chain);
        break;
    default: break;
    }
}

const void *bc_expect(const void *cv)
{
    const struct bc_case *c = cv;
    schedule(&want_.enc, c->key, c->keylen, 0);
    schedule(&want_.dec, c->key, c->keylen, 1);
    if (modes() & (1u << OP_XTS_ENC | 1u << OP_XTS_DEC)) {
        schedule(&want_.tweak, c->key2, c->keylen, 0);
        C->ecb(want_.tweak.ks, want_.tweak0, c->iv, 1);
    }
    for (int op = 0; op < OP_COUNT; op++)
        if (modes() & (1u << op)) reference_op(c, (enum op)op, want_.out[op], want_.chain[op]);
    return &want_;
}

/* ---- the asmdiff convention: outside kernels of our own kernels' prototypes ----
 *
 * Each one's ops is its own struct bc_kernel_ops (the entry point it is not left NULL), so
 * they are called and benched as our own kernels are, and several live in one check build.
 * A cipher of ECB and CTR alone has the two operations "ecb" and "ctr"; one with all the modes
 * (bc_cipher.modes) has one per entry point of kernels/aes/aes.h, in enum op's order. */
const char *const bc_own_ops[2] = {"ecb", "ctr"};
const char *const bc_own_ops_all[BC_NOPS] = {"ecb-enc", "ecb-dec", "ctr", "cbc-dec", "ctr32le",
                                             "xts-enc", "xts-dec"};
static struct bc_kernel_ops own_kernels[OUTSIDE_MAX];
static size_t nown;

static const struct bc_kernel_ops *own_of(const struct impl *im)
{
    const struct bc_kernel_ops *k = im->ops;
    return (im->flags & IMPL_OUTSIDE) && k >= own_kernels && k < own_kernels + nown ? k : NULL;
}

/* The kernel's entry point for op, or NULL.  For a cipher of ECB and CTR alone, ecb decrypts
 * with the decryption schedule; the others have an entry point of their own for it. */
static bc_kernel_ecb kernel_ecb(const struct bc_kernel_ops *k, enum op op)
{
    if (op == OP_ECB_DEC) return C->modes ? k->ecb_dec : k->ecb;
    return op == OP_ECB_ENC ? k->ecb : NULL;
}

static bc_kernel_ctr kernel_chained(const struct bc_kernel_ops *k, enum op op)
{
    switch (op) {
    case OP_CTR: return k->ctr;
    case OP_CBC_DEC: return k->cbc_dec;
    case OP_CTR32LE: return k->ctr32le;
    case OP_XTS_ENC: return k->xts_enc;
    case OP_XTS_DEC: return k->xts_dec;
    default: return NULL;
    }
}

static int kernel_has(const struct bc_kernel_ops *k, enum op op)
{
    if (op == OP_ECB_ENC || op == OP_ECB_DEC) return kernel_ecb(k, op) != NULL;
    return kernel_chained(k, op) != NULL;
}

static int library_has(const struct bc_lib_ops *l, enum op op)
{
    switch (op) {
    case OP_ECB_ENC: case OP_ECB_DEC: return l->ecb != NULL;
    case OP_CTR: return l->ctr != NULL;
    case OP_CBC_DEC: return l->cbc_dec != NULL;
    case OP_CTR32LE: return l->ctr32le != NULL;
    default: return l->xts != NULL;
    }
}

/* The convention's operation index <-> enum op. */
static enum op own_op(size_t i)
{
    return C->modes ? (enum op)i : i == 1 ? OP_CTR : OP_ECB_ENC;
}

const void *bc_own_make_ops(const struct convention *cv, const void *fn, size_t i)
{
    (void)cv;
    if (nown == OUTSIDE_MAX) return NULL; /* outside.c makes at most OUTSIDE_MAX */
    struct bc_kernel_ops *k = &own_kernels[nown++];
    switch (own_op(i)) {
    case OP_ECB_ENC: k->ecb = (bc_kernel_ecb)fn; break;
    case OP_ECB_DEC: k->ecb_dec = (bc_kernel_ecb)fn; break;
    case OP_CTR: k->ctr = (bc_kernel_ctr)fn; break;
    case OP_CBC_DEC: k->cbc_dec = (bc_kernel_ctr)fn; break;
    case OP_CTR32LE: k->ctr32le = (bc_kernel_ctr)fn; break;
    case OP_XTS_ENC: k->xts_enc = (bc_kernel_ctr)fn; break;
    default: k->xts_dec = (bc_kernel_ctr)fn; break;
    }
    return k;
}

/* Which operation: 64 blocks of a pattern under a fixed key, every argument of a chained call
 * passed (an ECB entry point ignores the last), each operation's known answer in turn with
 * its own schedule and a zero counter, IV or tweak.  XTS's length is in bytes, so an entry
 * point of another operation given it takes 16 times the blocks: the buffers have room. */
int bc_own_identify(const struct convention *cv, const void *fn, const char *symbol)
{
    (void)symbol;
    enum { PROBE = 16 * 64 };
    static struct schedule s[2];
    static uint8_t in[16 * PROBE], out[16 * PROBE], want[PROBE];
    uint8_t key[16] = {1, 2, 3, 4}, chain[16];
    for (size_t i = 0; i < sizeof in; i++) in[i] = (uint8_t)(i * 7);
    schedule(&s[0], key, sizeof key, 0);
    schedule(&s[1], key, sizeof key, 1);
    for (size_t i = 0; i < cv->nops; i++) {
        enum op op = own_op(i);
        const struct schedule *k = &s[decrypts(op)];
        memset(chain, 0, 16);
        switch (op) {
        case OP_ECB_ENC: case OP_ECB_DEC: C->ecb(k->ks, want, in, 64); break;
        case OP_CTR: C->ctr(k->ks, want, in, 64, chain); break;
        case OP_CBC_DEC: C->cbc_dec(k->ks, want, in, 64, chain); break;
        case OP_CTR32LE: C->ctr32le(k->ks, want, in, 64, chain); break;
        default: C->xts(k->ks, op == OP_XTS_DEC, want, in, PROBE, chain); break;
        }
        memset(chain, 0, 16);
        memset(out, 0, sizeof out);
        DRV_PROBE(fn, (const uint8_t *)k->ks + C->kernel_offset, k->rounds, out,
                  (const uint8_t *)in, (size_t)(is_xts(op) ? PROBE : 64), chain);
        if (!memcmp(out, want, sizeof want)) return (int)i;
    }
    return -1;
}

/* Whether an outside kernel does operation op: ours by its entry point, an upstream
 * convention's by its row. */
static int outside_does(const struct impl *im, enum op op)
{
    const struct bc_kernel_ops *own = own_of(im);
    if (own) return kernel_has(own, op);
    return bc_upstream_does(im, (int)op);
}

/* Whether implementation im runs operation op of this cipher at all. */
static int does(const struct impl *im, enum op op)
{
    if (!(modes() & (1u << op))) return 0;
    if (im->flags & IMPL_OUTSIDE) return outside_does(im, op);
    if (im->flags & IMPL_KERNEL) return kernel_has(im->ops, op);
    return library_has(im->ops, op);
}

const void *bc_reference_schedule(int decrypt, unsigned *rounds, size_t *kernel_bytes)
{
    const struct schedule *s = decrypt ? &want_.dec : &want_.enc;
    *rounds = s->rounds;
    *kernel_bytes = s->bytes;
    return s->ks + C->kernel_offset;
}

/* A kernel's chained operation in the case's calls: the counter, IV or tweak placed as chain,
 * XTS's tweak encrypted first by the kernel's own ECB entry point under the second key. */
static void kernel_chained_calls(const struct bc_kernel_ops *ops, const struct bc_case *c,
                                 enum op op, const uint8_t *ks, const struct schedule *s,
                                 uint8_t *dst, const uint8_t *src, uint8_t *chain)
{
    bc_kernel_ctr fn = kernel_chained(ops, op);
    if (is_xts(op) && !ops->ecb) {
        memcpy(chain, want_.tweak0, 16); /* an outside XTS entry point alone: T from the reference */
    } else if (is_xts(op)) {
        const uint8_t *ks2 = drv_in(BC_BUF_TWEAK_SCHEDULE, want_.tweak.ks + C->kernel_offset,
                                    want_.tweak.bytes);
        drv_op("xts tweak (ecb-encrypt under the second key)");
        DRV_CALL(ops->ecb, ks2, want_.tweak.rounds, chain, (const uint8_t *)chain, (size_t)1);
        drv_op(op_names[op]);
    }
    size_t done = 0;
    for (size_t i = 0; i <= c->nsplits; i++) {
        size_t n = bc_call_blocks(c, op, i, done);
        size_t arg = is_xts(op) ? 16 * n + (i == c->nsplits && n ? c->tail : 0) : n;
        DRV_CALL(fn, ks, s->rounds, dst + 16 * done, (const uint8_t *)src + 16 * done, arg,
                 chain);
        done += n;
    }
}

/* A library's operation from the raw key, in one call. */
static int library_op(const struct bc_lib_ops *ops, const struct bc_case *c, enum op op,
                      uint8_t *dst, const uint8_t *src, uint8_t *chain)
{
    if (is_xts(op)) {
        uint8_t keys[64];
        memcpy(keys, c->key, c->keylen);
        memcpy(keys + c->keylen, c->key2, c->keylen);
        const uint8_t *k = drv_in(BC_BUF_KEY, keys, 2 * c->keylen);
        return (int)DRV_CALL(ops->xts, op == OP_XTS_ENC, k, c->keylen, dst, (const uint8_t *)src,
                             op_bytes(c, op), (const uint8_t *)chain);
    }
    const uint8_t *key = drv_in(BC_BUF_KEY, c->key, c->keylen);
    switch (op) {
    case OP_ECB_ENC: case OP_ECB_DEC:
        return (int)DRV_CALL(ops->ecb, op == OP_ECB_ENC, key, c->keylen, dst,
                             (const uint8_t *)src, c->nblocks);
    case OP_CTR: return (int)DRV_CALL(ops->ctr, key, c->keylen, dst, (const uint8_t *)src,
                                      c->nblocks, chain);
    case OP_CBC_DEC: return (int)DRV_CALL(ops->cbc_dec, key, c->keylen, dst,
                                          (const uint8_t *)src, c->nblocks, chain);
    default: return (int)DRV_CALL(ops->ctr32le, key, c->keylen, dst, (const uint8_t *)src,
                                  c->nblocks, chain);
    }
}

/* One operation of one implementation on in[0, op_bytes): into out (in place when asked), the
 * final counter, IV or tweak into chain_out.  Returns the output buffer, or NULL when a library
 * answered that it defines no such case (its function returned 1). */
static uint8_t *one_op(const struct impl *im, const struct bc_case *c, enum op op,
                       const uint8_t *in, uint8_t chain_out[16])
{
    size_t bytes = op_bytes(c, op);
    const struct schedule *s = decrypts(op) ? &want_.dec : &want_.enc;
    drv_op(op_names[op]);
    uint8_t *src = c->in_place ? drv_inout(BC_BUF_IN, in, bytes) : drv_in(BC_BUF_IN, in, bytes);
    uint8_t *dst = c->in_place ? src : drv_out(BC_BUF_OUT, bytes);
    const uint8_t *first = op == OP_CTR ? c->ctr : op == OP_CTR32LE ? c->ctr32 : c->iv;
    uint8_t *chain = op == OP_ECB_ENC || op == OP_ECB_DEC ? NULL
                     : op == OP_CTR                       ? drv_inout(BC_BUF_CTR, first, 16)
                                                          : drv_inout(BC_BUF_IV, first, 16);
    if ((im->flags & IMPL_OUTSIDE) && !own_of(im)) {
        if (is_xts(op)) memcpy(chain, want_.tweak0, 16); /* the caller encrypts the tweak */
        bc_upstream_call(im, c, (int)op, dst, src, chain);
    } else if (im->flags & IMPL_KERNEL) {
        const struct bc_kernel_ops *ops = im->ops;
        const uint8_t *ks = drv_in(BC_BUF_SCHEDULE, s->ks + C->kernel_offset, s->bytes);
        if (chain) kernel_chained_calls(ops, c, op, ks, s, dst, src, chain);
        else DRV_CALL(kernel_ecb(ops, op), ks, s->rounds, dst, (const uint8_t *)src, c->nblocks);
    } else {
        int rc = library_op(im->ops, c, op, dst, src, chain);
        if (rc == 1) return NULL; /* a case the library does not define (XTS-AES-192) */
        drv_expect_true(rc == 0, "the library call failed");
    }
    if (chain) memcpy(chain_out, chain, 16);
    return dst;
}

/* Whether the final chaining value is the implementation's to get right: a library's CTR
 * counter (its oracle advances it), every kernel's but XTS's after stealing (unspecified). */
static int judge_chain(const struct impl *im, const struct bc_case *c, enum op op)
{
    if (op == OP_ECB_ENC || op == OP_ECB_DEC) return 0;
    if (!(im->flags & IMPL_KERNEL)) return op == OP_CTR;
    return !(is_xts(op) && c->tail && c->nblocks);
}

void bc_run(const struct impl *im, const void *cv, const void *wv)
{
    const struct bc_case *c = cv;
    const struct bc_want *w = wv;
    static uint8_t ct[16 * BC_MAX_BLOCKS + 16];
    uint8_t chain[16];
    for (int o = 0; o < OP_COUNT; o++) {
        enum op op = (enum op)o;
        if (!does(im, op)) continue; /* an entry point of another operation, or no such mode */
        size_t bytes = op_bytes(c, op);
        uint8_t *out = one_op(im, c, op, c->in, chain);
        if (!out) continue;
        drv_expect_equal("output", w->out[op], out, bytes);
        if (judge_chain(im, c, op))
            drv_expect_equal(op == OP_CTR || op == OP_CTR32LE ? "final counter"
                             : op == OP_CBC_DEC                ? "final iv"
                                                               : "final tweak",
                             w->chain[op], chain, 16);
        /* the round trip through the kernel itself (an outside entry point that only
         * encrypts, as Linux's encrypt_Nway, has none) */
        enum op back = op == OP_ECB_ENC ? OP_ECB_DEC : op == OP_XTS_ENC ? OP_XTS_DEC : OP_COUNT;
        if (back != OP_COUNT && (im->flags & IMPL_KERNEL) && does(im, back)) {
            memcpy(ct, out, bytes);
            out = one_op(im, c, back, ct, chain);
            drv_op(back == OP_ECB_DEC ? "ecb-decrypt of its own ciphertext"
                                      : "xts-decrypt of its own ciphertext");
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
    if (modes() & ~BC_MODES_ECB_CTR) {
        report_param("xts bytes", "%zu (a tail of %zu)", op_bytes(c, OP_XTS_ENC),
                     c->nblocks ? c->tail : 0);
        report_hex("ctr32le counter", c->ctr32, 16);
        report_hex("iv / xts data unit", c->iv, 16);
        report_hex("xts second key", c->key2, c->keylen);
    }
    report_hex("input (first 64 bytes)", c->in, 16 * c->nblocks < 64 ? 16 * c->nblocks : 64);
}

void bc_vary_secrets(void *cv, uint64_t seed)
{
    struct bc_case *c = cv;
    rng_fill(&seed, c->key, sizeof c->key);
    rng_fill(&seed, c->in, sizeof c->in);
    if (modes() & ~BC_MODES_ECB_CTR) rng_fill(&seed, c->key2, sizeof c->key2);
}

/* ---- published vectors ----
 *
 * A block of Key, Plaintext and Ciphertext (one block) is ECB, run also as N identical blocks
 * in both directions.  A block with Mode = CBC, CTR or XTS (and IV; XTS also Key2, the IV
 * being the data unit's tweak as 16 bytes) is that mode over the whole message: the reference
 * must give the published answer, then the message is a case (CBC's input its ciphertext,
 * the others' the plaintext) that every implementation runs in every mode. */

static struct schedule kat_s[3]; /* enc, dec, the second key's enc */

static int kat_mode(struct vec_file *vf, struct bc_case *c, const char *mode)
{
    static uint8_t pt[16 * BC_MAX_BLOCKS + 16], ct[16 * BC_MAX_BLOCKS + 16],
        got[16 * BC_MAX_BLOCKS + 16];
    int xts = !strcmp(mode, "XTS"), cbc = !strcmp(mode, "CBC"), ctr = !strcmp(mode, "CTR");
    long kl = vec_get_hex(vf, "Key", c->key, sizeof c->key);
    long k2 = xts ? vec_get_hex(vf, "Key2", c->key2, sizeof c->key2) : kl;
    long il = vec_get_hex(vf, "IV", c->iv, 16);
    long pl = vec_get_hex(vf, "Plaintext", pt, sizeof pt);
    long cl = vec_get_hex(vf, "Ciphertext", ct, sizeof ct);
    vec_done(vf);
    if ((!xts && !cbc && !ctr) || (kl != 16 && kl != 24 && kl != 32) || k2 != kl || il != 16 ||
        pl != cl || pl < 16 || (!xts && pl % 16) || pl > 16 * BC_MAX_BLOCKS ||
        !(modes() & (1u << (xts ? OP_XTS_ENC : cbc ? OP_CBC_DEC : OP_CTR)))) {
        fprintf(stderr, "%s: line %d: Mode = %s needs Key, IV, Plaintext and Ciphertext of "
                "equal length (whole blocks but for XTS; XTS also Key2) and a cipher with "
                "that mode\n", vf->path, vf->b.line, mode);
        drv_vector_errors(1);
        return 0;
    }
    c->keylen = (size_t)kl, c->nblocks = (size_t)pl / 16, c->tail = (size_t)pl % 16;
    schedule(&kat_s[0], c->key, c->keylen, 0);
    schedule(&kat_s[1], c->key, c->keylen, 1);
    uint8_t chain[16];
    memcpy(chain, c->iv, 16);
    if (cbc) {
        C->cbc_dec(kat_s[1].ks, got, ct, c->nblocks, chain);
        if (!drv_reference_agrees(vf->path, "plaintext", pt, got, (size_t)pl)) return 1;
    } else if (ctr) {
        C->ctr(kat_s[0].ks, got, pt, c->nblocks, chain);
        if (!drv_reference_agrees(vf->path, "ciphertext", ct, got, (size_t)pl)) return 1;
    } else {
        schedule(&kat_s[2], c->key2, c->keylen, 0);
        C->ecb(kat_s[2].ks, chain, c->iv, 1);
        uint8_t t0[16];
        memcpy(t0, chain, 16);
        C->xts(kat_s[0].ks, 0, got, pt, (size_t)pl, chain);
        if (!drv_reference_agrees(vf->path, "ciphertext", ct, got, (size_t)pl)) return 1;
        C->xts(kat_s[1].ks, 1, got, ct, (size_t)pl, t0);
        if (!drv_reference_agrees(vf->path, "plaintext", pt, got, (size_t)pl)) return 1;
    }
    if (ctr) memcpy(c->ctr, c->iv, 16);
    memcpy(c->ctr32, c->iv, 16);
    memcpy(c->in, cbc ? ct : pt, (size_t)pl);
    if (!xts) memcpy(c->key2, c->key, c->keylen);
    for (c->in_place = 0; c->in_place < 2; c->in_place++) drv_check(c);
    return 1;
}

int bc_kat(const char *srcdir)
{
    struct bc_case *c = &the_case;
    static const size_t counts[] = {1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 128, 129, 200};
    uint8_t pt[16], ct[16], got[16];
    struct vec_file vf;
    int count = 0;
    if (vec_open(&vf, srcdir, C->kat_file)) return -1;
    while (vec_next(&vf)) {
        memset(c, 0, sizeof *c);
        const char *mode = vec_get_opt(&vf, "Mode");
        if (mode && strcmp(mode, "ECB")) {
            count += kat_mode(&vf, c, mode);
            continue;
        }
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
            schedule(&kat_s[0], c->key, c->keylen, dir);
            C->ecb(kat_s[0].ks, got, dir ? ct : pt, 1);
            if (!drv_reference_agrees(vf.path, dir ? "plaintext" : "ciphertext", dir ? pt : ct,
                                      got, 16))
                goto next;
        }
        memcpy(c->key2, c->key, c->keylen);
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
            if (modes() & ~BC_MODES_ECB_CTR) {
                /* every XTS tail across the counts; ctr32le wrapping inside every third call */
                c->tail = n % 16;
                rng_fill(&x, c->in + 16 * n, 16);
                rng_fill(&x, c->key2, keylen);
                rng_fill(&x, c->iv, 16);
                memcpy(c->ctr32, c->ctr, 16);
                if (n % 3 == 1) memset(c->ctr32, 0xff, 4);
            }
            drv_check(c);
        }
    return fails;
}

/* ---- bench: <NAME>128/192/256 x each mode ---- */

#define BENCH_BYTES (16 * 1024)
static char bench_names[3 * BC_NOPS][32];
#define BENCH_OP(i) {bench_names[i], 16, BENCH_BYTES}
const struct bench_op bc_bench_ops[3 * BC_NOPS] = {
    BENCH_OP(0),  BENCH_OP(1),  BENCH_OP(2),  BENCH_OP(3),  BENCH_OP(4),  BENCH_OP(5),
    BENCH_OP(6),  BENCH_OP(7),  BENCH_OP(8),  BENCH_OP(9),  BENCH_OP(10), BENCH_OP(11),
    BENCH_OP(12), BENCH_OP(13), BENCH_OP(14), BENCH_OP(15), BENCH_OP(16), BENCH_OP(17),
    BENCH_OP(18), BENCH_OP(19), BENCH_OP(20),
};
static struct {
    uint8_t raw[64]; /* key || key2 */
    size_t keylen;
    struct schedule s, s2, enc, dec; /* enc, dec: an upstream kernel's context is built of both */
    enum op op;
} bench;

void bc_bench_setup(size_t i)
{
    static const char *const what[] = {"ECB enc", "ECB dec", "CTR", "CBC dec", "CTR32LE",
                                       "XTS enc", "XTS dec"};
    unsigned m = modes(), per_key = (unsigned)__builtin_popcount(m), k = (unsigned)(i % per_key);
    for (size_t j = 0; j < sizeof bench.raw; j++) bench.raw[j] = (uint8_t)(j * 29 + 7);
    bench.keylen = 16 + 8 * (i / per_key);
    int op = 0;
    for (; op < OP_COUNT; op++) /* the k-th mode the cipher has */
        if ((m & (1u << op)) && k-- == 0) break;
    bench.op = (enum op)op;
    snprintf(bench_names[i], sizeof bench_names[i], "%s%zu %s", C->name, 8 * bench.keylen,
             what[op]);
    schedule(&bench.s, bench.raw, bench.keylen, decrypts(bench.op));
    schedule(&bench.s2, bench.raw + bench.keylen, bench.keylen, 0);
    schedule(&bench.enc, bench.raw, bench.keylen, 0);
    schedule(&bench.dec, bench.raw, bench.keylen, 1);
}

int bc_bench_run(const struct impl *im, size_t i, uint8_t *buf, size_t bytes)
{
    uint8_t chain[16] = {0};
    size_t n = bytes / 16;
    enum op op = bench.op;
    (void)i;
    if ((im->flags & IMPL_OUTSIDE) && !own_of(im)) {
        /* an upstream convention's kernel: its context built of the schedules, its calls
         * made directly (XTS from the tweak as given: its encryption is the caller's) */
        if (!bc_upstream_of(im)) return -1;
        const struct bc_keys keys = {bench.enc.ks + C->kernel_offset,
                                     bench.dec.ks + C->kernel_offset, bench.enc.rounds,
                                     bench.keylen};
        return bc_upstream_bench(im, (int)op, &keys, buf, bytes, chain);
    }
    if (!does(im, op)) return -1;
    if (im->flags & IMPL_KERNEL) {
        const struct bc_kernel_ops *k = im->ops;
        const uint8_t *ks = bench.s.ks + C->kernel_offset;
        if (op == OP_ECB_ENC || op == OP_ECB_DEC) {
            kernel_ecb(k, op)(ks, bench.s.rounds, buf, buf, n);
        } else {
            if (is_xts(op) && k->ecb) /* the tweak's encryption, once per data unit */
                k->ecb(bench.s2.ks + C->kernel_offset, bench.s2.rounds, chain, chain, 1);
            kernel_chained(k, op)(ks, bench.s.rounds, buf, buf, is_xts(op) ? bytes : n, chain);
        }
    } else {
        /* a library that does not take the operation (1: XTS with a 192-bit key, which IEEE
         * 1619 does not define; -1: an error) has no row for it, never a row of its refusals */
        const struct bc_lib_ops *l = im->ops;
        int rc;
        switch (op) {
        case OP_ECB_ENC: case OP_ECB_DEC:
            rc = l->ecb(op == OP_ECB_ENC, bench.raw, bench.keylen, buf, buf, n); break;
        case OP_CTR: rc = l->ctr(bench.raw, bench.keylen, buf, buf, n, chain); break;
        case OP_CBC_DEC: rc = l->cbc_dec(bench.raw, bench.keylen, buf, buf, n, chain); break;
        case OP_CTR32LE: rc = l->ctr32le(bench.raw, bench.keylen, buf, buf, n, chain); break;
        default:
            rc = l->xts(op == OP_XTS_ENC, bench.raw, bench.keylen, buf, buf, bytes, chain);
            break;
        }
        if (rc) return -1;
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
       BCP_CTR_CARRY_BYTE, BCP_ECB_KEY, BCP_ECB_PASS, BCP_CHAIN_KEY, BCP_CHAIN_PASS,
       BCP_XTS_KEY16, BCP_XTS_KEY12, BCP_XTS_PASS, BCP_CTR_PASS, BCP_COUNT };
static const char *const bc_property_names[BCP_COUNT] = {
    "blocks: path and tail", "blocks: batches and key", "ctr call: path and tail",
    "ctr call: batches and key", "ctr batch: role, byte carry, qword wrap, key", "ctr carry byte",
    "ecb: blocks mod 16, key", "ecb: blocks mod 48, passes of 48",
    "cbc/ctr call: blocks mod 16, key", "cbc/ctr call: blocks mod 48, passes of 48",
    "xts call: bulk blocks mod 16, steals, key", "xts call: bulk blocks mod 12, steals, key",
    "xts call: bulk blocks mod 48, passes of 48",
    "ctr pass: mode, first, low byte or word near its wrap, whole, half of 32",
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

/* The modes' kernels (AES: 16 blocks a pass in zmm, tails of 8, 4, 2 and 1 blocks in ymm and
 * xmm; XTS 16 blocks a pass in ymm too (12 before round 8); CTR's fast paths while the
 * counter's low byte or its low 32 bits cannot wrap in the pass; every step branching on the
 * round count).  The operations of one call
 * shape share their properties (ECB's one call; CBC's, CTR's and ctr32le's calls; XTS's, whose
 * bulk leaves the last whole block to stealing): per call, the blocks modulo 16 (the tail's
 * steps) with the key size, and modulo 48 (a multiple of 12 and 16) with the passes of 48
 * (none, one, more); XTS's bulk modulo
 * 16 and 12 with whether it steals and the key; per 16-block pass of each CTR call, whether
 * its low 32 bits are near their wrap, and else whether its low byte is (the byte paths).
 * Each value stays below PROP_VALUES. */
static size_t call_properties(unsigned id_key, unsigned id_pass, size_t k, unsigned key,
                              struct case_property *out, size_t n, size_t max)
{
    uint64_t passes = k / 48 < 2 ? k / 48 : 2;
    n = prop_add(out, n, max, id_key, (uint64_t)(k % 16) * 3 + key);
    return prop_add(out, n, max, id_pass, (uint64_t)(k % 48) * 3 + passes);
}

static size_t mode_properties(const struct bc_case *c, unsigned key, struct case_property *out,
                              size_t n, size_t max)
{
    n = call_properties(BCP_ECB_KEY, BCP_ECB_PASS, c->nblocks, key, out, n, max);
    size_t done = 0;
    for (size_t i = 0; i <= c->nsplits; i++) {
        size_t k = bc_call_blocks(c, OP_CBC_DEC, i, done);
        done += k;
        n = call_properties(BCP_CHAIN_KEY, BCP_CHAIN_PASS, k, key, out, n, max);
    }
    done = 0;
    for (size_t i = 0; i <= c->nsplits; i++) {
        size_t k = bc_call_blocks(c, OP_XTS_ENC, i, done);
        unsigned steals = c->tail && c->nblocks && i == c->nsplits;
        size_t bulk = k - steals;
        done += k;
        n = prop_add(out, n, max, BCP_XTS_KEY16, ((uint64_t)(bulk % 16) * 2 + steals) * 3 + key);
        n = prop_add(out, n, max, BCP_XTS_KEY12, ((uint64_t)(bulk % 12) * 2 + steals) * 3 + key);
        n = prop_add(out, n, max, BCP_XTS_PASS,
                     (uint64_t)(bulk % 48) * 3 + (bulk / 48 < 2 ? bulk / 48 : 2));
    }
    uint64_t seen[2] = {0, 0}; /* each CTR pass value once per case */
    for (int m = 0; m < 2; m++) {
        enum op op = m ? OP_CTR32LE : OP_CTR;
        uint8_t ctr[16];
        memcpy(ctr, m ? c->ctr32 : c->ctr, 16);
        done = 0;
        for (size_t i = 0; i <= c->nsplits; i++) {
            size_t k = bc_call_blocks(c, op, i, done);
            done += k;
            for (size_t at = 0; at < k; at += 16) {
                uint32_t low = m ? (uint32_t)ctr[0] | (uint32_t)ctr[1] << 8 |
                                       (uint32_t)ctr[2] << 16 | (uint32_t)ctr[3] << 24
                                 : (uint32_t)ctr[12] << 24 | (uint32_t)ctr[13] << 16 |
                                       (uint32_t)ctr[14] << 8 | ctr[15];
                /* the low word near its wrap (the 32-bit path's test), and below that the low
                 * byte: at most 238 (both clmul forms' byte path), 239 (the AVX-512 one's
                 * only), above */
                unsigned near = low <= 0xffffffffu - 17 ? ((low & 0xff) <= 238 ? 0
                                                           : (low & 0xff) == 239 ? 1 : 2)
                              : low == 0xffffffffu - 16 ? 3 : 4;
                size_t step = k - at < 16 ? k - at : 16;
                /* which copy of the step makes it in the AVX-512 kernels' 32-block passes
                 * (the clmul form's CTR, CTR32LE): the first half of one, the second, or
                 * neither (a 16-block pass, the tail) */
                unsigned slot = step < 16 || at + 16 > k - (at % 32 ? 0 : 16) ? 0
                                : at % 32 ? 2 : 1;
                unsigned v = ((((unsigned)m * 2 + (at == 0)) * 5 + near) * 2 + (step == 16)) *
                                 3 + slot;
                if (!(seen[v / 64] & 1ull << v % 64)) n = prop_add(out, n, max, BCP_CTR_PASS, v);
                seen[v / 64] |= 1ull << v % 64;
                if (m) {
                    uint32_t x = low + (uint32_t)step;
                    for (int b = 0; b < 4; b++) ctr[b] = (uint8_t)(x >> (8 * b));
                } else {
                    ctr_add(ctr, step);
                }
            }
        }
    }
    return n;
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
    if (modes() & ~BC_MODES_ECB_CTR) n = mode_properties(c, key, out, n, max);
    return n;
}

/* Weak: the other families (mpi, nh, polyval) define their own; a family without bc_cipher
 * has none from here. */
__attribute__((weak)) const struct family_properties asmdiff_properties = {
    .names = bc_property_names,
    .nnames = BCP_COUNT,
    .of = bc_properties_of,
};
