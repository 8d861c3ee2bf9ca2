/* backend.h — the ways of running a call (one backend per mode).  Internal to the driver:
 * families see driver.h only.  What the backends share of the driver core is drv_core.h; the
 * outside kernels of a check build are outside.h.
 *
 * A backend says four things about its way of running a call:
 *   - setup: whether this build and host can run it at all, and if not, why;
 *   - unavailable: why an implementation does not run in this mode (NULL: the usual reasons
 *     decide — the CPU, the library, a check build);
 *   - call: how one call of the pass it is given runs and what is checked around it;
 *   - check_case: how a case is judged — which implementations, placements and phases.
 * The core (driver.c) holds no mode flags: it asks the current backend.  A new mode is one
 * file backend_<mode>.c and one row of tool_main.c's table of modes.
 */
#ifndef ASMDIFF_BACKEND_H
#define ASMDIFF_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "driver.h"
#include "drv_core.h"

struct backend {
    const char *name; /* "native", "ct", "bounds", "ct-trace", "emu-diff" */
    /* 0 when the mode can run here; else -1 and *why.  NULL: always. */
    int (*setup)(const char **why);
    /* Why im does not run in this mode; NULL: the usual reasons decide.  NULL: none. */
    const char *(*unavailable)(const struct impl *im);
    /* 1 when im's calls run in an emulator in this mode. */
    int (*emulated)(const struct impl *im);
    /* One call of pass p's implementation, every check of the mode included; marks p
     * abandoned when the call did not complete. */
    uint64_t (*call)(struct drv_pass *p, const void *fn, const uint64_t *argv, size_t argc);
    /* One case: the implementations the mode runs, in its placements and phases (drv_pass). */
    void (*check_case)(const struct drv_case *k);
    /* An input buffer of pass p holding secrets was just placed at buf (ct: undefined for
     * Valgrind).  NULL: none. */
    void (*secret)(const struct drv_pass *p, void *buf, size_t len);
    /* The run is over, before its summary: records of the mode's own (coverage).  NULL: none. */
    void (*finish)(void);
    /* The implementations the mode tests (struct impl's flags), whose running none is a skip
     * or a failure in the summary; 0: our kernels (IMPL_KERNEL). */
    unsigned subject;
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
extern const struct backend backend_isa;      /* backend_isa.c: each kernel emulated with only
                                               * the CPU features it declares */
extern const struct backend backend_dispatch; /* backend_dispatch.c: the libraries alone, on
                                               * the path their own CPU dispatch chooses */

/* The emulated call (backend_emulated.c): a kernel the host lacks, run inside emu_call with
 * the checked call's contract.  Not a mode: the native and emu-diff backends use it for the
 * kernels this CPU cannot run. */
int emulated_runs(const struct impl *im);
uint64_t emulated_call(const char *name, int clean, const void *fn, const uint64_t *argv,
                       size_t argc);
/* 1 when the emulated call can run here (Unicorn linked, ASMDIFF_EMULATE not 0). */
int emulated_available(void);
/* The ISA-subset mode's call (backend_isa.c): fn in the emulator whatever this CPU has, through
 * the checked call, every instruction held to the features of declared (a VXF() set of
 * emu/vexec.h, widened by vx_feat_closure); one beyond them is a finding (FINDING_ISA). */
uint64_t emulated_call_isa(const char *name, int clean, uint32_t declared, const void *fn,
                           const uint64_t *argv, size_t argc);
/* fn(argv) in the emulator without the checked call's verdicts: the bench's emulated rows. */
int emulated_plain_call(const void *fn, const uint64_t *argv, size_t argc, uint64_t *ret,
                        char *err, size_t errlen);
/* The instruction the last emulated call stopped at, when it failed (0: unknown). */
uint64_t emulated_last_pc(void);

/* The default judging of a case (native, emu-diff): every implementation, ours in every
 * placement, a library in the one the input chose (backend_native.c). */
void drv_check_placements(const struct drv_case *k);
/* For the emulator modes (backend_unicorn.c): 0 when this build has the engine, else -1 and
 * *why; and their unavailable(): a library does not run. */
int drv_emulator_linked(const char **why);
const char *drv_kernels_only(const struct impl *im);
/* The Unicorn modes' setup (the engine linked, the program's symbols and .rodata loaded), and
 * their call: the arguments, each placed buffer mapped alone, the program's .rodata
 * (backend_unicorn.c; the coverage mode's observer makes its calls the same way). */
int drv_uc_setup(const char **why);
struct uc_call;
void drv_uc_call_fill(const struct drv_pass *p, struct uc_call *call, const uint64_t *argv,
                      size_t argc);
/* The Unicorn modes: "" when every read of .rodata fell inside a sized table (bounds per
 * table), else the info line saying it was not established (backend_unicorn.c). */
const char *drv_bounds_untabled(void);

#endif
