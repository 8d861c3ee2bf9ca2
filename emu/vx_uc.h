/* vx_uc.h — Unicorn and the vector executor taking turns on one x86-64 thread of execution.
 *
 * The executor (vexec.h) runs every instruction it knows, scalar ones included, on its own
 * register file; what it does not know and is not VEX/EVEX goes to Unicorn (legacy SSE, rare
 * scalar forms), which runs until the next VEX/EVEX instruction.  Unicorn must never run one:
 * Unicorn 2.0.1 silently executes some of them wrongly (measured: VEX.128 vpxor runs as pxor,
 * vzeroupper as a no-op, kmovq %rax,%k1 as some other 5-byte instruction) and refuses the
 * rest, so the caller's UC_HOOK_CODE calls vxu_unicorn_check() on every instruction, which
 * stops Unicorn in front of any VEX/EVEX instruction.
 *
 * Register ownership: the executor's struct vx_cpu holds the whole state (zmm0-31, k0-7,
 * GPRs, rflags); Unicorn's copy of the GPRs, rflags and xmm0-15 is written before each turn of
 * Unicorn and read back after it.  The upper parts of zmm0-15 survive legacy SSE code, which
 * cannot change them.
 */
#ifndef ASMDIFF_VX_UC_H
#define ASMDIFF_VX_UC_H

#include "emu/vexec.h"

#include <stdint.h>
#include <unicorn/unicorn.h>

struct vxu {
    uc_engine *uc;
    struct vx_cpu cpu;
    struct vx_env env;   /* the executor's memory and per-instruction hook (the caller's) */
    uint64_t limit;      /* instructions, both engines together */
    /* statistics of the last vxu_run */
    uint64_t vexec_insns, unicorn_turns;
    uc_err uc_error;     /* when vxu_run returned VXU_UC_ERROR */
    int in_unicorn;
    int caller_stop;     /* set by the caller's Unicorn hooks when they stop it for a reason of
                          * their own (bounds, runaway): vxu_run then returns VXU_UC_ERROR */
    uint64_t isa_stop;   /* the instruction Unicorn was stopped in front of by the ISA-subset
                          * check (env.isa_check), 0 when none */
    int final_state_vexec_only; /* set by a caller that reads the final state from cpu alone:
                                 * VXU_DONE then leaves Unicorn's copy as it was (writing it
                                 * costs a batch of 34 registers per call) */
};

enum vxu_status {
    VXU_DONE = 0,      /* reached stop */
    VXU_ERROR = 1,     /* msg says why (unsupported instruction, executor fault, limit) */
    VXU_UC_ERROR = 2,  /* Unicorn stopped with v->uc_error, or a caller's hook stopped it */
    VXU_HALT = 3,      /* the caller's env->insn hook asked to stop the executor */
};

/* Runs from v->cpu.rip until rip == stop.  On return v->cpu holds the final state and Unicorn
 * holds the same GPRs, rflags and xmm0-15 (unless final_state_vexec_only, on VXU_DONE). */
enum vxu_status vxu_run(struct vxu *v, uint64_t stop, char *msg, size_t len);

/* For the caller's UC_HOOK_CODE: 1 (and Unicorn is stopped) when addr holds a VEX or EVEX
 * instruction; the executor takes over there.  Call it first in the hook. */
int vxu_unicorn_check(struct vxu *v, uint64_t addr);

/* "unsupported instruction: <text> at <symbol+off>" for the instruction at addr. */
void vxu_describe(struct vxu *v, uint64_t addr, const char *what, char *msg, size_t len);

#endif
