/* backend_valgrind.c — mode ct, for runs under Valgrind memcheck: our kernels only, once per
 * case (one placement), with the BUF_SECRET buffers undefined during each call and every
 * output declassified after it; memcheck then reports any branch or address that depends on a
 * secret. */
#include <string.h>

#include "asmdiff-config.h"
#include "backend.h"
#include "stats.h"

#if ASMDIFF_HAVE_VALGRIND_H
#include <valgrind/memcheck.h>
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED(p, n)
#define DECLASSIFY(p, n) VALGRIND_MAKE_MEM_DEFINED(p, n)
#else
#define SECRET(p, n) ((void)(p), (void)(n))
#define DECLASSIFY(p, n) ((void)(p), (void)(n))
#endif

typedef uint64_t (*any_fn)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                           uint64_t, uint64_t, uint64_t);

static void declassify_buffers(const struct drv_pass *p)
{
    for (size_t i = 0; i < drv_pass_slots(p); i++)
        if (p->use[i].placed) DECLASSIFY(p->bufs[i].p, p->bufs[i].len);
}

/* A plain call: the checked call's comparisons would branch on the secret-derived state it
 * records.  Extra arguments are harmless in the SysV ABI. */
static uint64_t valgrind_call(struct drv_pass *p, const void *fn, const uint64_t *argv,
                              size_t argc)
{
    if (p->no_ct_claim) {
        drv_note_unjudged(p);
        declassify_buffers(p);
    }
    uint64_t a[10] = {0};
    memcpy(a, argv, (argc < 10 ? argc : 10) * sizeof a[0]);
    uint64_t r = ((any_fn)fn)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]);
    DECLASSIFY(&r, sizeof r); /* outputs are public once computed */
    declassify_buffers(p);
    drv_stats.calls++;
    drv_stats.impl_calls[p->index]++;
    drv_after_call(p);
    return r;
}

static void valgrind_check_case(const struct drv_case *k)
{
    void *c = k->c;
    const void *want = k->want;
    for (size_t i = 0; i < drv_nimpls(); i++) {
        if (!(drv_impl_at(i)->flags & IMPL_KERNEL)) continue; /* libraries may branch */
        if (!drv_takes(i, c, 1)) continue;
        drv_pass(i, c, want, GUARD_TAIL, NULL, "flush against the guard page after each buffer");
        drv_stats.ran[i]++;
    }
}

static void valgrind_secret(const struct drv_pass *p, void *buf, size_t len)
{
    (void)p;
    SECRET(buf, len);
    (void)buf, (void)len;
}

const struct backend backend_valgrind = {
    .name = "ct",
    .call = valgrind_call,
    .check_case = valgrind_check_case,
    .secret = valgrind_secret,
};
