/* backend.h — the ways of running a call (one backend per mode), and the part of the driver
 * core they share.  Internal to the driver: families see driver.h only.
 *
 * A backend says four things about its way of running a call:
 *   - setup: whether this build and host can run it at all, and if not, why;
 *   - unavailable: why an implementation does not run in this mode (NULL: the usual reasons
 *     decide — the CPU, the library, a check build);
 *   - call: how one call of the current implementation runs and what is checked around it;
 *   - check_case: how a case is judged — which implementations, placements and phases.
 * The core (driver.c) holds no mode flags: it asks the current backend.  A new mode is one
 * file backend_<mode>.c and one row of tool_main.c's table of modes.
 */
#ifndef ASMDIFF_BACKEND_H
#define ASMDIFF_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "driver.h"
#include "guard.h"

#define DRV_MAX_BUFS 8
#define DRV_MAX_IMPLS 64

struct backend {
    const char *name; /* "native", "ct", "bounds", "ct-trace", "emu-diff" */
    /* 0 when the mode can run here; else -1 and *why.  NULL: always. */
    int (*setup)(const char **why);
    /* Why im does not run in this mode; NULL: the usual reasons decide.  NULL: none. */
    const char *(*unavailable)(const struct impl *im);
    /* 1 when im's calls run in an emulator in this mode. */
    int (*emulated)(const struct impl *im);
    /* One call of the current implementation (drv.cur), every check of the mode included. */
    uint64_t (*call)(const void *fn, const uint64_t *argv, size_t argc);
    /* One case: the implementations the mode runs, in its placements and phases. */
    void (*check_case)(void *c, const void *want);
    /* An input buffer of secrets was just placed (ct: undefined for Valgrind).  NULL: none. */
    void (*secret)(void *p, size_t len);
    /* The run is over, before its summary: records of the mode's own (coverage).  NULL: none. */
    void (*finish)(void);
};

/* The modes (one file each). */
extern const struct backend backend_native;   /* backend_native.c: the checked call */
extern const struct backend backend_valgrind; /* backend_valgrind.c: ct, under Valgrind */
extern const struct backend backend_bounds;   /* backend_unicorn.c: each buffer alone */
extern const struct backend backend_trace;    /* backend_unicorn.c: bounds, twice */
extern const struct backend backend_emu_diff; /* backend_emu_diff.c: CPU vs emulator */
extern const struct backend backend_coverage; /* backend_coverage.c: what the calls reached */
extern const struct backend backend_guided;   /* backend_guided.c: native, with kernel features
                                               * for libFuzzer (fuzz_main.c) */

/* The emulated call (backend_emulated.c): a kernel the host lacks, run inside emu_call with
 * the checked call's contract.  Not a mode: the native and emu-diff backends use it for the
 * kernels this CPU cannot run. */
int emulated_runs(const struct impl *im);
uint64_t emulated_call(const char *name, int clean, const void *fn, const uint64_t *argv,
                       size_t argc);
/* fn(argv) in the emulator without the checked call's verdicts: the bench's emulated rows. */
int emulated_plain_call(const void *fn, const uint64_t *argv, size_t argc, uint64_t *ret,
                        char *err, size_t errlen);
/* The instruction the last emulated call stopped at, when it failed (0: unknown). */
uint64_t emulated_last_pc(void);

/* The default judging of a case (native, emu-diff): every implementation, ours in every
 * placement, a library in the one the input chose (backend_native.c). */
void drv_check_placements(void *c, const void *want);
/* For the emulator modes (backend_unicorn.c): 0 when this build has the engine, else -1 and
 * *why; and their unavailable(): a library does not run. */
int drv_emulator_linked(const char **why);
const char *drv_kernels_only(const struct impl *im);
/* The Unicorn modes' setup (the engine linked, the program's symbols and .rodata loaded), and
 * their call: the arguments, each placed buffer mapped alone, the program's .rodata
 * (backend_unicorn.c; the coverage mode's observer makes its calls the same way). */
int drv_uc_setup(const char **why);
struct uc_call;
void drv_uc_call_fill(struct uc_call *call, const uint64_t *argv, size_t argc);
/* The Unicorn modes: "" when every read of .rodata fell inside a sized table (bounds per
 * table), else the info line saying it was not established (backend_unicorn.c). */
const char *drv_bounds_untabled(void);

/* ---- the core's state, shared with the backends ---- */

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

/* The outside kernels of a check build (outside.c). */
void outside_setup(void);
const struct impl *outside_impl(void); /* the first; NULL in other builds */
size_t outside_count(void);
const struct impl *outside_at(size_t i);
const struct outside_kernel *outside_kernel_of(const struct impl *im); /* NULL: not one */
/* 0 when c is outside the convention's precondition (not its contract). */
int outside_accepts(const struct impl *im, const void *c);
/* The operations it was checked as, and those it was not ("a, b"; "none"). */
const char *outside_covers(const struct impl *im);
const char *outside_not_covered(const struct impl *im);
/* 1 when the convention allows this leftover (noted as information, not a finding). */
int outside_allows(enum finding kind, const char *what);

#endif
