/* bc_upstream.c — see bc_upstream.h. */
#include "bc_upstream.h"

#include <string.h>


#define C (&bc_cipher)
#define PROBE_BLOCKS 64
#define MAX_CTX 4096

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
    for (int op = 0; op < BC_NOPS; op++)
        if (e->does & (1u << op)) return op;
    return BC_OP_ECB_ENC;
}

static int decrypts(int op)
{
    return op == BC_OP_ECB_DEC || op == BC_OP_CBC_DEC || op == BC_OP_XTS_DEC;
}

static const uint8_t *key_arg(const struct bc_upstream *u, const uint8_t *ctx, int op)
{
    return decrypts(op) ? ctx + u->dec_key_offset : ctx;
}

/* One call of entry e on n blocks (len bytes: 16 n, and XTS's tail on its last call); keystream:
 * the scratch of BC_CTX_DST_SRC_KS_IV.  probe: through DRV_PROBE (identify), else DRV_CALL. */
#define ENTRY_CALL(CALL, u, e, fn, op, ctx, rounds, dst, src, n, len, keystream, iv)          \
    do {                                                                                      \
        const uint8_t *key_ = key_arg(u, ctx, op);                                            \
        switch ((e)->shape) {                                                                 \
        case BC_CTX_DST_SRC: CALL(fn, ctx, dst, src); break;                                  \
        case BC_CTX_DST_SRC_KEY: CALL(fn, ctx, dst, src, key_); break;                        \
        case BC_CTX_DST_SRC_COUNT: CALL(fn, ctx, dst, src, (unsigned)(n)); break;             \
        case BC_CTX_DST_SRC_IV: CALL(fn, ctx, dst, src, iv); break;                           \
        case BC_CTX_DST_SRC_KS_IV: CALL(fn, ctx, dst, src, keystream, iv); break;             \
        case BC_CTX_DST_SRC_LEN: CALL(fn, ctx, dst, src, (size_t)(len)); break;               \
        case BC_CTX_DST_SRC_LEN_IV: CALL(fn, ctx, dst, src, (size_t)(len), iv); break;        \
        case BC_CTX_SRC_DST_LEN_IV: CALL(fn, ctx, src, dst, (unsigned)(len), iv); break;      \
        case BC_CTX_SRC_DST_SIZE: CALL(fn, ctx, src, dst, (size_t)(len)); break;              \
        case BC_CTX_SRC_DST_SIZE_IV: CALL(fn, ctx, src, dst, (size_t)(len), iv); break;       \
        case BC_SRC_IV_CTX_DST_LEN: CALL(fn, src, iv, ctx, dst, (size_t)(len)); break;        \
        case BC_KEY_ENC_DST_SRC_N_ROUNDS:                                                     \
            CALL(fn, key_, (int)!decrypts(op), dst, src, (size_t)(n), (unsigned)(rounds));    \
            break;                                                                            \
        case BC_KEY_IV_DST_SRC_N_ROUNDS:                                                      \
            CALL(fn, key_, iv, dst, src, (size_t)(n), (unsigned)(rounds));                    \
            break;                                                                            \
        case BC_KEY_IV_DST_SRC_N_ROUNDS_ENC:                                                  \
            CALL(fn, key_, iv, dst, src, (size_t)(n), (unsigned)(rounds),                     \
                 (int)!decrypts(op));                                                         \
            break;                                                                            \
        case BC_CTX_BLOCK_INPLACE: /* the block copied to the output, encrypted there */      \
            memcpy(dst, src, 16);                                                             \
            CALL(fn, ctx, dst);                                                               \
            break;                                                                            \
        }                                                                                     \
    } while (0)

/* A direct call for the bench, every argument a word: seven passed whatever the row takes (the
 * widest row takes seven; the callee ignores the rest, in registers or above its own frame). */
static void direct_call(const void *fn, const uint64_t *a, size_t n)
{
    typedef void (*fn7)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
    uint64_t w[7] = {0};
    memcpy(w, a, (n < 7 ? n : 7) * sizeof *a);
    ((fn7)(uintptr_t)fn)(w[0], w[1], w[2], w[3], w[4], w[5], w[6]);
}
#define DIRECT_CALL(fn, ...)                                                                  \
    direct_call((const void *)(fn), (const uint64_t[]){ABI_MAP_(__VA_ARGS__)},                \
                ABI_NARGS_(__VA_ARGS__))

/* Whether the symbol ends with the row's name (or its suffix). */
static int names(const char *symbol, const struct bc_entry *e)
{
    const char *end = e->suffix ? e->suffix : e->name;
    size_t len = strlen(symbol), n = strlen(end);
    return n <= len && !strcmp(symbol + len - n, end);
}

/* Every argument a pointer, or a count the probe passes right (not BC_CTX_DST_SRC_COUNT's
 * count, which a probe of another row could pass where a pointer is expected; not a
 * two-argument row, whose probe would leave another row's third argument unset). */
static int probe_safe(const struct bc_entry *e)
{
    return e->shape != BC_CTX_DST_SRC_COUNT && e->shape != BC_CTX_BLOCK_INPLACE;
}

/* The reference's answer of op on n blocks of in under the schedules ks (enc, dec), from a zero
 * counter, IV or tweak. */
static void probe_want(int op, uint8_t ks[2][BC_MAX_SCHEDULE], uint8_t *want, const uint8_t *in,
                       size_t n)
{
    uint8_t iv[16] = {0};
    switch (op) {
    case BC_OP_ECB_ENC: C->ecb(ks[0], want, in, n); break;
    case BC_OP_ECB_DEC: C->ecb(ks[1], want, in, n); break;
    case BC_OP_CTR: C->ctr(ks[0], want, in, n, iv); break;
    case BC_OP_CBC_DEC: C->cbc_dec(ks[1], want, in, n, iv); break;
    case BC_OP_CTR32LE: C->ctr32le(ks[0], want, in, n, iv); break;
    default: C->xts(ks[op == BC_OP_XTS_DEC], op == BC_OP_XTS_DEC, want, in, 16 * n, iv);
    }
}

/* Which row fn is: a known answer for each candidate row, 64 blocks (or the row's width) of a
 * pattern under a fixed key (of the row's size, for a row of one key size), the output filled
 * with a marker, against the reference's answer of the row's operation from a zero counter,
 * IV or tweak; the row's width of output must be right and the marker past it untouched (a
 * 16-way kernel is not a 32-way one).  The candidates are the rows whose name ends the
 * symbol; when none does, every row whose arguments a probe passes safely. */
int bc_upstream_identify(const struct convention *cv, const void *fn, const char *symbol)
{
    const struct bc_upstream *u = table_of(cv);
    static uint8_t ks[2][BC_MAX_SCHEDULE] __attribute__((aligned(16)));
    static uint8_t in[16 * PROBE_BLOCKS], out[16 * PROBE_BLOCKS], want[16 * PROBE_BLOCKS];
    /* room past the scratch: a kernel that overruns it is the checks' to report, not a
     * probe's crash */
    static uint8_t keystream[2 * 16 * PROBE_BLOCKS], ctx[MAX_CTX] __attribute__((aligned(64)));
    const uint8_t key[32] = {1, 2, 3, 4};
    uint8_t iv[16];
    unsigned rounds[2];
    size_t bytes;
    if (u->ctx_bytes > MAX_CTX) return -1;
    for (size_t i = 0; i < sizeof in; i++) in[i] = (uint8_t)(i * 7 + 1);
    size_t named = 0;
    for (size_t i = 0; i < u->nentries; i++) named += names(symbol, &u->entries[i]);
    for (size_t i = 0; i < u->nentries; i++) {
        const struct bc_entry *e = &u->entries[i];
        if (named ? !names(symbol, e) : !probe_safe(e)) continue;
        if (e->width > PROBE_BLOCKS) continue;
        size_t keylen = e->keylen ? e->keylen : 16, n = e->width ? e->width : PROBE_BLOCKS;
        for (int d = 0; d < 2; d++) C->schedule(ks[d], key, keylen, d, &rounds[d], &bytes);
        const struct bc_keys k = {ks[0] + C->kernel_offset, ks[1] + C->kernel_offset,
                                  rounds[0], keylen};
        int op = first_op(e);
        probe_want(op, ks, want, in, n);
        u->context(ctx, &k);
        memset(out, 0xa5, sizeof out);
        memset(iv, 0, sizeof iv);
        ENTRY_CALL(DRV_PROBE, u, e, fn, op, (const uint8_t *)ctx, rounds[0], out,
                   (const uint8_t *)in, n, 16 * n, keystream, iv);
        int marker = 1;
        for (size_t b = 16 * n; b < sizeof out; b++) marker &= out[b] == 0xa5;
        if (!memcmp(out, want, 16 * n) && marker) return (int)i;
    }
    return -1;
}

/* A case is the row's when every call it makes is one the row takes: the key size; the whole
 * count (and, for a chained operation, every split the case makes) a multiple of a fixed
 * width, or for a row that takes a count, a last call of at least min_blocks; the counter
 * contract; XTS's tail when the row steals. */
int bc_upstream_accepts(const struct convention *cv, const void *ops, const void *cv_case)
{
    const struct bc_case *c = cv_case;
    const struct upstream_kernel *k = ops;
    const struct bc_entry *e = k->e;
    (void)cv;
    if (!c->nblocks || (e->keylen && e->keylen != c->keylen)) return 0;
    if (e->shape == BC_CTX_DST_SRC_COUNT) {
        size_t last = c->nblocks % e->width;
        return last == 0 || last >= e->min_blocks;
    }
    if ((e->does & (BC_DOES_XTS_ENC | BC_DOES_XTS_DEC)) && c->tail &&
        k->u->xts == BC_XTS_WHOLE_BLOCKS)
        return 0;
    if (e->does & BC_DOES_CTR) {
        size_t low16 = (size_t)c->ctr[14] << 8 | c->ctr[15];
        uint64_t low32 = (uint64_t)c->ctr[12] << 24 | (uint64_t)c->ctr[13] << 16 |
                         (uint64_t)c->ctr[14] << 8 | c->ctr[15];
        if (k->u->ctr == BC_CTR_LOW16_NO_WRAP && low16 + c->nblocks >= 0x10000) return 0;
        if (k->u->ctr == BC_CTR_LOW32_NO_WRAP && low32 + c->nblocks >= 0x100000000ull) return 0;
    }
    if (!e->width) return 1;
    if (c->nblocks % e->width) return 0;
    if (e->does & ~(BC_DOES_ENC | BC_DOES_DEC)) {
        for (size_t i = 0; i < c->nsplits; i++)
            if (c->split[i] % e->width) return 0;
    }
    return 1;
}

/* The operation on the placed buffers: ECB in calls of the row's width (the last one shorter
 * for a row that takes a count, all at once for a row of any width); a chained operation in
 * the calls the case splits it into (blockcipher.c's, the last one taking XTS's tail), each in
 * calls of the row's width.  The context is placed as the key schedule, a CTR keystream
 * scratch as the "computed schedule" buffer (so a write past it is a guard-page finding). */
void bc_upstream_call(const struct impl *im, const struct bc_case *c, int op, uint8_t *dst,
                      const uint8_t *src, uint8_t *iv)
{
    const struct upstream_kernel *k = kernel_of(im);
    const struct bc_upstream *u = k->u;
    const struct bc_entry *e = k->e;
    uint8_t ctxbuf[MAX_CTX] __attribute__((aligned(64))) = {0};
    struct bc_keys keys = {.keylen = c->keylen};
    size_t bytes;
    keys.enc = bc_reference_schedule(0, &keys.rounds, &bytes);
    keys.dec = bc_reference_schedule(1, &keys.rounds, &bytes);
    u->context(ctxbuf, &keys);
    size_t align = u->ctx_align ? u->ctx_align : 1;
    const uint8_t *ctx = drv_in(u->ctx_align ? BC_BUF_CONTEXT : BC_BUF_SCHEDULE, ctxbuf,
                                (u->ctx_bytes + align - 1) / align * align);
    int chained = op != BC_OP_ECB_ENC && op != BC_OP_ECB_DEC;
    size_t done = 0;
    for (size_t i = 0; i <= (chained ? c->nsplits : 0); i++) {
        size_t n = chained ? bc_call_blocks(c, op, i, done) : c->nblocks;
        size_t tail = i == (chained ? c->nsplits : 0) ? bc_op_bytes(c, op) - 16 * c->nblocks : 0;
        for (size_t left = n; left;) {
            size_t now = e->width && left > e->width ? e->width : left;
            size_t len = 16 * now + (now == left ? tail : 0);
            uint8_t *keystream = e->shape == BC_CTX_DST_SRC_KS_IV
                                     ? drv_out(BC_BUF_SCHEDULE_OUT, 16 * (size_t)e->width)
                                     : NULL;
            ENTRY_CALL(DRV_CALL, u, e, k->fn, op, ctx, keys.rounds, dst + 16 * done,
                       src + 16 * done, now, len, keystream, iv);
            done += now, left -= now;
        }
    }
}

int bc_upstream_bench(const struct impl *im, int op, const struct bc_keys *keys, uint8_t *buf,
                      size_t bytes, uint8_t *iv)
{
    const struct upstream_kernel *k = kernel_of(im);
    const struct bc_upstream *u = k->u;
    const struct bc_entry *e = k->e;
    static uint8_t ctx[MAX_CTX] __attribute__((aligned(64)));
    static uint8_t keystream[16 * 64];
    size_t n = bytes / 16;
    if (!(e->does & (1u << op)) || (e->keylen && e->keylen != keys->keylen)) return -1;
    if (e->width && (n % e->width || 16 * (size_t)e->width > sizeof keystream)) return -1;
    if (u->ctx_bytes > MAX_CTX) return -1;
    u->context(ctx, keys);
    for (size_t done = 0; done < n;) {
        size_t now = e->width ? e->width : n;
        ENTRY_CALL(DIRECT_CALL, u, e, k->fn, op, (const uint8_t *)ctx, keys->rounds,
                   buf + 16 * done, (const uint8_t *)buf + 16 * done, now, 16 * now, keystream,
                   iv);
        done += now;
    }
    return 0;
}
