/* drv_core.h — what the backends (backend.h) and the driver's other pieces share of the
 * driver core: the pass being run (struct drv_pass: the implementation and operation, the
 * placement, the buffers), the case being judged (struct drv_case), and the services around a
 * call.  Internal to the driver: families see driver.h only. */
#ifndef ASMDIFF_DRV_CORE_H
#define ASMDIFF_DRV_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "driver.h"
#include "guard.h"

#define DRV_MAX_BUFS 10
/* Pieces of split buffers placed in one pass (drv_in_piece: a stream given to an API's update
 * calls, each piece in a mapping of its own), and the slots of a pass: the family's buffers
 * first (slot = buffer index), then the pieces in the order the pass placed them. */
#define DRV_MAX_PIECES 48
#define DRV_MAX_SLOTS (DRV_MAX_BUFS + DRV_MAX_PIECES)
#define DRV_MAX_IMPLS 64

struct backend;

/* One pass: one implementation over one case, its buffers placed one way.  drv_pass makes it
 * and hands it to the backend's call and secret; a backend reads and marks the pass it is
 * given, never a global.  It lives as long as drv_pass (the family's run calls drv_in, drv_call
 * and drv_expect_* without it: driver.c alone knows which pass is in progress). */
struct drv_pass {
    const struct impl *impl; /* NULL: no implementation runs (the C reference) */
    size_t index;            /* its index in drv_impl_at */
    const char *op;          /* drv_op's name for the calls being made; NULL: none */
    const char *no_ct_claim; /* drv_no_ct_claim's reason for the current operation */
    const void *c;           /* the case */
    /* The placement: all buffers on one side, each at its offset. */
    enum guard_place side;
    size_t offset[DRV_MAX_BUFS];
    const char *name; /* "flush against the guard page after each buffer", ... */
    /* The buffers, placed for this pass in the driver's mappings (kept between passes: only
     * the placement changes), and what each holds: slots 0 .. drv_pass_slots(p) - 1, the
     * family's buffers, then the pieces (each gbuf's name says which). */
    struct gbuf *bufs;
    struct {
        int placed;       /* placed in this pass */
        const void *orig; /* what an input held; NULL for outputs and in/out buffers */
    } use[DRV_MAX_SLOTS];
    /* The pieces placed in this pass: slot nbufs + j holds piece piece[j].k of buffer
     * piece[j].buf (drv_in_piece). */
    size_t npieces;
    struct {
        size_t buf, k;
    } piece[DRV_MAX_PIECES];
    /* A call of this pass was abandoned (it faulted, or the emulator stopped): its outputs
     * mean nothing, so the rest of the pass (calls and comparisons) does nothing. */
    int abandoned;
};

/* One case to judge: what drv_check hands the backend's check_case. */
struct drv_case {
    void *c;
    const void *want; /* the C reference's answer */
    /* What the input chose for the extra pass: a side, and a misalignment per buffer
     * (offset NULL: none chosen, no misaligned pass). */
    enum guard_place input_side;
    const size_t *input_offset;
};

/* What stays process-wide, not per pass: the mode, chosen once at start (drv_use_backend) and
 * not changed while a case runs; and the counts of stats.h (drv_stats), which only add up. */
struct drv_state {
    const struct backend *backend;
};
extern struct drv_state drv;
extern const struct family *const drv_family;

/* The slots a pass may have placed (the family's buffers, then its pieces): every loop over a
 * pass's buffers (the checks after a call, the emulators' regions) runs over these. */
static inline size_t drv_pass_slots(const struct drv_pass *p)
{
    return drv_family->nbufs + p->npieces;
}

/* "<impl> <op>: what", the title of every report. */
void drv_title(const struct drv_pass *p, char *out, size_t len, const char *what);
/* Canaries next to every buffer p placed and the inputs that must not change. */
void drv_after_call(const struct drv_pass *p);
/* p's current call makes no constant-time claim: noted once per operation for the summary. */
void drv_note_unjudged(const struct drv_pass *p);
/* Whether implementation i runs case c in this mode; counts it skipped when it cannot. */
int drv_takes(size_t i, const void *c, int count_skip);
/* One pass of implementation i over case c: the family's run with the buffers placed on side
 * at offsets (NULL: flush). */
void drv_pass(size_t i, const void *c, const void *want, enum guard_place side,
              const size_t *offsets, const char *name);
/* The checked call's fail handler: a finding, or information for an outside kernel. */
void drv_on_abi_violation(const char *who, const char *what);
/* ASMDIFF_STATS=1 timing. */
int drv_timing(void);
double drv_now_ns(void);

#endif
