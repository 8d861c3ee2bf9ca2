/* fuzz/conventions/asmdiff_chacha.c — the asmdiff convention for ChaCha: an outside kernel
 * written to the prototype of our own kernels (kernels/chacha/chacha.h), a patch to one of
 * them or a form of its own; one entry point is one counter form:
 *
 *   void chacha_ctr32_F(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t len,
 *                       unsigned int nrounds);     word 12 a 32-bit counter (wraps)
 *   void chacha_ctr64_F(...);                      words 12-13 a 64-bit counter
 *
 * Any length, the counter written back advanced by ceil(len / 64) blocks: each of the
 * family's calls is one call of the kernel.  Data left in vector registers or on the stack is a
 * finding, as for our own.  Which form a symbol is: the name says (ctr32 / ctr64), else a known
 * answer whose counter wraps at 2^32 in its second block (the two forms differ there). */
#include <string.h>

#include "driver.h"
#include "stream_upstream.h"
#include "reference/chacha.h"

static const char *const ops[] = {"ctr32", "ctr64"};

typedef void (*own_fn)(uint32_t state[16], uint8_t *dst, const uint8_t *src, size_t len,
                       unsigned int nrounds);

static void own_call(const struct stream_upstream *k, uint32_t state[16], uint8_t *dst,
                     const uint8_t *src, size_t len, unsigned int nrounds)
{
    DRV_CALL((own_fn)k->fn, state, dst, src, len, nrounds);
}

static void own_bench(const struct stream_upstream *k, uint32_t state[16], uint8_t *buf,
                      size_t len, unsigned int nrounds)
{
    ((own_fn)k->fn)(state, buf, buf, len, nrounds);
}

static struct stream_upstream kernels[OUTSIDE_MAX];
static size_t nkernels;

static const void *make_ops(const struct convention *cv, const void *fn, size_t op)
{
    (void)cv;
    if (nkernels == OUTSIDE_MAX || op > 1) return NULL;
    kernels[nkernels] = (struct stream_upstream){
        .fn = fn, .ctr32 = op == 0 ? own_call : NULL, .ctr64 = op == 1 ? own_call : NULL,
        .bench32 = op == 0 ? own_bench : NULL};
    return &kernels[nkernels++];
}

static int identify(const struct convention *cv, const void *fn, const char *symbol)
{
    (void)cv;
    if (strstr(symbol, "ctr32")) return 0;
    if (strstr(symbol, "ctr64")) return 1;
    static const uint8_t key[32] = {0x63, 0x68};
    static uint8_t in[128], out[128], want[2][128];
    const uint32_t w[4] = {0xffffffffu, 5, 6, 7};
    uint32_t state[16];
    for (int m = 0; m < 2; m++) {
        chacha_init(state, key, w);
        chacha_xor(state, 20, m ? CHACHA_CTR64 : CHACHA_CTR32_WRAP, want[m], in, sizeof in);
    }
    chacha_init(state, key, w);
    memset(out, 0, sizeof out);
    DRV_PROBE((own_fn)fn, state, out, (const uint8_t *)in, sizeof in, 20u);
    for (int m = 0; m < 2; m++)
        if (!memcmp(out, want[m], sizeof out)) return m;
    return -1;
}

/* registered by name in fuzz/meson.build's 'conventions' list (driver.h: struct convention) */
const struct convention convention_asmdiff_chacha = {
    .name = "asmdiff",
    .prototype = "as kernels/chacha/chacha.h: void chacha_ctr32_F(uint32_t state[16], uint8_t "
                 "*dst, const uint8_t *src, size_t len, unsigned int nrounds) (word 12 wraps), "
                 "chacha_ctr64_F (words 12-13 one counter): any len, the counter written back",
    .clean = CONV_CLEAN_VECTORS | CONV_CLEAN_STACK,
    .leftovers = "",
    .ops = ops,
    .nops = 2,
    .make_ops = make_ops,
    .identify = identify,
};
