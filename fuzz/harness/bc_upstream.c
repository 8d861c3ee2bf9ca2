/* bc_upstream.c — see bc_upstream.h. */
#include "bc_upstream.h"

#include <string.h>

#define C (&bc_cipher)
#define PROBE_BLOCKS 64
#define MAX_CTX 4096

enum { OP_ENC, OP_DEC, OP_CTR };

static const struct bc_upstream *table_of(const struct convention *cv)
{
    return cv->rows;
}

const char *bc_upstream_op_name(const struct convention *cv, size_t op)
{
    const struct bc_upstream *u = table_of(cv);
    return op < u->nentries ? u->entries[op].name : "?";
}

/* One outside kernel of a table convention: what struct impl.ops points to. */
struct upstream_kernel {
    const void *fn;
    const struct bc_entry *e;
    const struct bc_upstream *u;
};
static struct upstream_kernel kernels[OUTSIDE_MAX]; /* outside.c makes at most OUTSIDE_MAX */
static size_t nkernels;

const void *bc_upstream_make_ops(const struct convention *cv, const void *fn, size_t op)
{
    const struct bc_upstream *u = table_of(cv);
    if (nkernels == OUTSIDE_MAX || op >= u->nentries) return NULL;
    kernels[nkernels] = (struct upstream_kernel){fn, &u->entries[op], u};
    return &kernels[nkernels++];
}

static const struct upstream_kernel *kernel_of(const struct impl *im)
{
    const struct upstream_kernel *k = im->ops;
    return (im->flags & IMPL_OUTSIDE) && k >= kernels && k < kernels + nkernels ? k : NULL;
}

int bc_upstream_of(const struct impl *im)
{
    return kernel_of(im) != NULL;
}

int bc_upstream_does(const struct impl *im, int op)
{
    const struct upstream_kernel *k = kernel_of(im);
    return k && (k->e->does & (1u << op));
}

/* The operation a row is probed and judged as: the first it does. */
static int first_op(const struct bc_entry *e)
{
    return e->does & BC_DOES_ENC ? OP_ENC : e->does & BC_DOES_DEC ? OP_DEC : OP_CTR;
}

static const uint8_t *key_arg(const struct bc_upstream *u, const uint8_t *ctx, int op)
{
    return op == OP_DEC ? ctx + u->dec_key_offset : ctx;
}

/* One call of entry e on n blocks (n == width but for BC_CTX_DST_SRC_COUNT); keystream: the
 * scratch of BC_CTX_DST_SRC_KS_IV.  probe: through DRV_PROBE (identify), else DRV_CALL. */
#define ENTRY_CALL(CALL, u, e, fn, op, ctx, dst, src, n, keystream, ctr)                    \
    do {                                                                                    \
        switch ((e)->shape) {                                                               \
        case BC_CTX_DST_SRC: CALL(fn, ctx, dst, src); break;                                \
        case BC_CTX_DST_SRC_KEY: CALL(fn, ctx, dst, src, key_arg(u, ctx, op)); break;       \
        case BC_CTX_DST_SRC_COUNT: CALL(fn, ctx, dst, src, (unsigned)(n)); break;           \
        case BC_CTX_DST_SRC_IV: CALL(fn, ctx, dst, src, ctr); break;                        \
        case BC_CTX_DST_SRC_KS_IV: CALL(fn, ctx, dst, src, keystream, ctr); break;          \
        }                                                                                   \
    } while (0)

/* Whether the symbol ends with the row's name (or its suffix). */
static int names(const char *symbol, const struct bc_entry *e)
{
    const char *end = e->suffix ? e->suffix : e->name;
    size_t len = strlen(symbol), n = strlen(end);
    return n <= len && !strcmp(symbol + len - n, end);
}

/* Which row fn is: a known answer for each candidate row, 64 blocks of zeros under a fixed
 * 128-bit key, the output filled with a marker, against the reference's encryption,
 * decryption and CTR from a zero counter; the row's width of output must be right and the
 * marker past it untouched (a 16-way kernel is not a 32-way one).  The candidates are the
 * rows whose name ends the symbol; when none does, every row whose arguments are all
 * pointers (a count where a pointer is expected could crash the probe). */
int bc_upstream_identify(const struct convention *cv, const void *fn, const char *symbol)
{
    const struct bc_upstream *u = table_of(cv);
    static uint8_t ks[2][BC_MAX_SCHEDULE] __attribute__((aligned(16)));
    static uint8_t in[16 * PROBE_BLOCKS], out[16 * PROBE_BLOCKS], want[3][16 * PROBE_BLOCKS];
    /* room past the scratch: a kernel that overruns it is the checks' to report, not a
     * probe's crash */
    static uint8_t keystream[2 * 16 * PROBE_BLOCKS], ctx[MAX_CTX];
    const uint8_t key[16] = {1, 2, 3, 4};
    uint8_t ctr0[16] = {0}, iv[16];
    unsigned rounds[2];
    size_t bytes;
    if (u->ctx_bytes > MAX_CTX) return -1;
    for (int d = 0; d < 2; d++) C->schedule(ks[d], key, sizeof key, d, &rounds[d], &bytes);
    C->ecb(ks[0], want[OP_ENC], in, PROBE_BLOCKS);
    C->ecb(ks[1], want[OP_DEC], in, PROBE_BLOCKS);
    C->ctr(ks[0], want[OP_CTR], in, PROBE_BLOCKS, ctr0);
    const struct bc_keys k = {ks[0] + C->kernel_offset, ks[1] + C->kernel_offset, rounds[0],
                              sizeof key};
    size_t named = 0;
    for (size_t i = 0; i < u->nentries; i++) named += names(symbol, &u->entries[i]);
    for (size_t i = 0; i < u->nentries; i++) {
        const struct bc_entry *e = &u->entries[i];
        int is_named = names(symbol, e);
        if (named ? !is_named : e->shape == BC_CTX_DST_SRC_COUNT) continue;
        if (e->width > PROBE_BLOCKS) continue;
        int op = first_op(e);
        u->context(ctx, &k);
        memset(out, 0xa5, sizeof out);
        memset(iv, 0, sizeof iv);
        ENTRY_CALL(DRV_PROBE, u, e, fn, op, (const uint8_t *)ctx, out, (const uint8_t *)in,
                   e->width, keystream, iv);
        size_t w = 16 * (size_t)e->width;
        int marker = 1;
        for (size_t b = w; b < sizeof out; b++) marker &= out[b] == 0xa5;
        if (!memcmp(out, want[op], w) && marker) return (int)i;
    }
    return -1;
}

/* A case is the row's when every call it makes is one the row takes: the whole count (and,
 * for CTR, every split the case makes) a multiple of the width, or for a row that takes a
 * count, a last call of at least min_blocks; and the counter contract. */
int bc_upstream_accepts(const struct convention *cv, const void *ops, const void *cv_case)
{
    const struct bc_case *c = cv_case;
    const struct upstream_kernel *k = ops;
    const struct bc_entry *e = k->e;
    (void)cv;
    if (!c->nblocks) return 0;
    if (e->shape == BC_CTX_DST_SRC_COUNT) {
        size_t last = c->nblocks % e->width;
        return last == 0 || last >= e->min_blocks;
    }
    if (c->nblocks % e->width) return 0;
    if (e->does & BC_DOES_CTR) {
        for (size_t i = 0; i < c->nsplits; i++)
            if (c->split[i] % e->width) return 0;
        size_t low16 = (size_t)c->ctr[14] << 8 | c->ctr[15];
        if (k->u->ctr == BC_CTR_LOW16_NO_WRAP && low16 + c->nblocks >= 0x10000) return 0;
    }
    return 1;
}

/* The operation on the placed buffers in calls of the row's width (the last one shorter for
 * a row that takes a count); CTR in the calls the case splits it into; the context placed as
 * the key schedule, a CTR keystream scratch as the "computed schedule" buffer (so a write
 * past it is a guard-page finding). */
void bc_upstream_call(const struct impl *im, const struct bc_case *c, int op, uint8_t *dst,
                      const uint8_t *src, uint8_t *ctr)
{
    const struct upstream_kernel *k = kernel_of(im);
    const struct bc_upstream *u = k->u;
    const struct bc_entry *e = k->e;
    uint8_t ctxbuf[MAX_CTX];
    struct bc_keys keys = {.keylen = c->keylen};
    size_t bytes;
    keys.enc = bc_reference_schedule(0, &keys.rounds, &bytes);
    keys.dec = bc_reference_schedule(1, &keys.rounds, &bytes);
    u->context(ctxbuf, &keys);
    const uint8_t *ctx = drv_in(BC_BUF_SCHEDULE, ctxbuf, u->ctx_bytes);
    size_t done = 0;
    for (size_t i = 0; i <= (op == OP_CTR ? c->nsplits : 0); i++) {
        size_t n = op == OP_CTR && i < c->nsplits ? c->split[i] : c->nblocks - done;
        for (size_t left = n; left;) {
            size_t now = left < e->width ? left : e->width;
            uint8_t *keystream = e->shape == BC_CTX_DST_SRC_KS_IV
                                     ? drv_out(BC_BUF_SCHEDULE_OUT, 16 * (size_t)e->width)
                                     : NULL;
            ENTRY_CALL(DRV_CALL, u, e, k->fn, op, ctx, dst + 16 * done, src + 16 * done, now,
                       keystream, ctr);
            done += now, left -= now;
        }
    }
}
