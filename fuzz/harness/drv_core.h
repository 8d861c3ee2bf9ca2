/* drv_core.h — the driver core's state and services that the backends (backend.h) and the
 * driver's other pieces share: the buffers of the current call sequence, the implementation
 * and operation being run, the pass's placement.  Internal to the driver: families see
 * driver.h only. */
#ifndef ASMDIFF_DRV_CORE_H
#define ASMDIFF_DRV_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "driver.h"
#include "guard.h"

#define DRV_MAX_BUFS 8
#define DRV_MAX_IMPLS 64

struct backend;

struct drv_state {
    const struct backend *backend;
    struct gbuf bufs[DRV_MAX_BUFS];
    struct {
        int placed;       /* placed for the current call sequence */
        const void *orig; /* what an input held; NULL for outputs and in/out buffers */
    } use[DRV_MAX_BUFS];
    /* The placement of the current pass: all buffers on one side, each at its offset. */
    enum guard_place pass_side;
    size_t pass_offset[DRV_MAX_BUFS];
    /* What the input chose: a side and a misalignment per buffer for the extra pass. */
    enum guard_place input_side;
    size_t input_offset[DRV_MAX_BUFS];
    int input_misaligned;

    const struct impl *cur;
    size_t cur_index; /* its index in drv_impl_at */
    const char *cur_op;
    const void *cur_case;
    const char *pass_name;
    const char *no_ct_claim; /* drv_no_ct_claim's reason for the current operation */
    /* A call of this pass was abandoned (it faulted, or the emulator stopped): its outputs
     * mean nothing, so the rest of the pass (calls and comparisons) does nothing. */
    int abandoned;
};
extern struct drv_state drv;
extern const struct family *const drv_family;

/* "<impl> <op>: what", the title of every report. */
void drv_title(char *out, size_t len, const char *what);
/* Canaries next to every placed buffer and the inputs that must not change. */
void drv_after_call(void);
/* The current call makes no constant-time claim: noted once per operation for the summary. */
void drv_note_unjudged(void);
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
