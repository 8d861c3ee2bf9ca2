/* uc_front.h — the Unicorn front-end of both emulated runs: ucheck.c (the checker behind the
 * bounds, ct-trace and coverage modes) and emu_call.c (the emulated call of a kernel the host
 * lacks).  What they share is here:
 *   - the engine (x86-64, 64-bit) and the vector executor beside it (vx_uc.h), the program's
 *     symbols loaded first;
 *   - the program image's ranges (its PT_LOAD segments) and the question "is this address in
 *     it";
 *   - the return sentinel: one page of hlt the function returns to, where a run stops;
 *   - the hooks: every instruction Unicorn is about to run is first offered to the executor (a
 *     VEX/EVEX one stops Unicorn there and the executor takes over), then to the owner's
 *     instruction hook; accesses to unmapped or protected memory go to the owner's hooks;
 *   - the x86-64 SysV entry state in the executor's register file (arguments, callee-saved
 *     values from regstate.h's list, scratch registers, rsp, rip, rflags, MXCSR and the x87
 *     control word) and its read-back after the run.
 * What each owner does with memory (ucheck: each region mapped alone, the image copied; emu_call:
 * host memory at its own addresses), the values it loads and what it judges stay its own.
 * Not thread-safe, like both owners: one engine each per process.
 */
#ifndef ASMDIFF_UC_FRONT_H
#define ASMDIFF_UC_FRONT_H

#include <stddef.h>
#include <stdint.h>
#include <unicorn/unicorn.h>

#include "emu/regstate.h"
#include "emu/vx_uc.h"

#define UCF_PAGE 4096ull
#define UCF_MAX_IMAGE 8
/* Integer arguments passed in registers (rdi, rsi, rdx, rcx, r8, r9). */
#define UCF_REG_ARGS 6
/* The SysV callee-saved registers (regstate.h), in its order. */
#define UCF_SAVED_ONE_(kind, r, R) +1
#define UCF_NSAVED (0 ABI_X86_64_SYSV_SAVED(UCF_SAVED_ONE_))
/* Scratch registers the entry state fills: rax, r10, r11. */
#define UCF_SCRATCH 3

/* The main program's PT_LOAD segments, page-rounded. */
struct ucf_image {
    uint64_t lo[UCF_MAX_IMAGE], hi[UCF_MAX_IMAGE];
    uint32_t prot[UCF_MAX_IMAGE]; /* UC_PROT_* (UCF_IMAGE_READONLY) */
    size_t n;
};
enum ucf_image_kind {
    UCF_IMAGE_ALL,      /* every segment (.data and .bss too), up to UCF_MAX_IMAGE */
    UCF_IMAGE_READONLY, /* the read-only ones (code and constants), merged where they share a
                         * page, with their protection */
};

/* The owner's hooks.  insn: an instruction Unicorn is about to run, once the executor has
 * declined it (NULL: none); unmapped, prot: Unicorn's UC_HOOK_MEM_UNMAPPED and
 * UC_HOOK_MEM_PROT callbacks (true: go on). */
struct ucf_hooks {
    void (*insn)(uc_engine *uc, uint64_t addr);
    bool (*unmapped)(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value,
                     void *user);
    bool (*prot)(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value,
                 void *user);
};

struct ucf {
    struct vxu vx;          /* vx.uc is the engine; vx.env and vx.limit are the owner's */
    struct ucf_image image;
    uint64_t sentinel;      /* the return address: a page of hlt (ucf_map_sentinel) */
    void (*insn)(uc_engine *uc, uint64_t addr);
};

/* Loads the program's symbols, opens the engine (f->vx.uc) and scans the image.  UC_ERR_OK, or
 * uc_open's error. */
uc_err ucf_open(struct ucf *f, enum ucf_image_kind image, uint64_t sentinel);
/* 1 when a lies in the image. */
int ucf_in_image(const struct ucf *f, uint64_t a);
/* Maps one page of hlt at f->sentinel, readable and executable. */
uc_err ucf_map_sentinel(struct ucf *f);
/* Adds the code hook (the executor's handoff, then h->insn) and h's memory hooks. */
uc_err ucf_add_hooks(struct ucf *f, const struct ucf_hooks *h);

/* The SysV entry state: f->vx.cpu's integer registers (arguments, callee-saved values, scratch,
 * rsp), rip = fn and rflags 0x202 (IF; DF clear, as the ABI promises at entry), and Unicorn's
 * MXCSR and x87 control word (the executor has neither).  The vector and opmask registers are
 * the owner's. */
void ucf_load_entry(struct ucf *f, uint64_t fn, const uint64_t args[UCF_REG_ARGS],
                    const uint64_t saved[UCF_NSAVED], const uint64_t scratch[UCF_SCRATCH],
                    uint64_t rsp, uint64_t mxcsr, uint64_t fpcw);
/* After a run: the callee-saved registers as the executor's register file holds them (the
 * final state, whichever engine ran last), in regstate.h's order, and their names. */
void ucf_read_saved(const struct ucf *f, uint64_t saved[UCF_NSAVED]);
extern const char *const ucf_saved_names[UCF_NSAVED];
/* After a run: MXCSR (32 bits) and the x87 control word (16 bits), from Unicorn. */
void ucf_read_fp(struct ucf *f, uint32_t *mxcsr, uint16_t *fpcw);

#endif
