/* backend_emu_diff.c — mode emu-diff: the emulator checked on the family's own kernels and
 * cases.  Each call of a kernel this CPU runs natively runs first on the CPU and then in the
 * emulator (emu_call, the path that runs kernels the host lacks), from the same buffers and
 * register state; every buffer, rax and the register state after the call (zmm0-31, k0-7,
 * callee-saved registers, rsp, DF, MXCSR, x87 control) must agree (check "emu-diff").  Libraries
 * do not run; kernels the CPU cannot run are emulated and judged by the reference alone. */
#include <stdlib.h>
#include <string.h>

#include "asmdiff-config.h"
#include "backend.h"
#include "cpu.h"
#include "report.h"
#include "rng.h"
#include "stats.h"

#if ARCH_X86_64
#include "emu/emu_call.h"
#endif

static unsigned long long emu_compared;

unsigned long long drv_emu_compared(void)
{
    return emu_compared;
}

#if ARCH_X86_64
/* What both paths observed after the call; NULL when they agree.  Of the flags only DF: the
 * arithmetic flags at return may come from a stack-address computation, and the emulated stack
 * is elsewhere. */
static const char *same_state(const struct abi_state *n, const struct abi_state *e)
{
    static char m[300];
#define SAME_SAVED_(kind, r, R)                                                              \
    if (n->r != e->r)                                                                        \
        return snprintf(m, sizeof m, "%s is 0x%llx on the CPU, 0x%llx emulated", #r,          \
                        (unsigned long long)n->r, (unsigned long long)e->r), m;
    ABI_X86_64_SYSV_SAVED(SAME_SAVED_)
#undef SAME_SAVED_
    if (n->rsp_delta != e->rsp_delta) return "rsp after the call differs";
    if ((n->rflags ^ e->rflags) & 0x400) return "the direction flag differs";
    if (n->mxcsr != e->mxcsr)
        return snprintf(m, sizeof m, "MXCSR is 0x%x on the CPU, 0x%x emulated", n->mxcsr,
                        e->mxcsr), m;
    if (n->x87cw != e->x87cw) return "the x87 control word differs";
    unsigned nvec = n->vec_mode == ABI_VEC_AVX512 ? 32 : 16;
    unsigned width = n->vec_mode == ABI_VEC_AVX512 ? 64 : n->vec_mode == ABI_VEC_AVX ? 32 : 16;
    for (unsigned r = 0; r < nvec; r++)
        for (unsigned off = 0; off < width; off += 16)
            if (memcmp(n->vec[r] + off, e->vec[r] + off, 16)) {
                const uint64_t *x = (const void *)(n->vec[r] + off), *y = (const void *)(e->vec[r] + off);
                return snprintf(m, sizeof m, "%s%u bytes %u-%u: 0x%016llx%016llx on the CPU, "
                                "0x%016llx%016llx emulated", width == 64 ? "zmm" : width == 32
                                ? "ymm" : "xmm", r, off, off + 15, (unsigned long long)x[1],
                                (unsigned long long)x[0], (unsigned long long)y[1],
                                (unsigned long long)y[0]), m;
            }
    if (n->vec_mode == ABI_VEC_AVX512)
        for (int k = 0; k < 8; k++)
            if (n->k[k] != e->k[k])
                return snprintf(m, sizeof m, "k%d is 0x%llx on the CPU, 0x%llx emulated", k,
                                (unsigned long long)n->k[k], (unsigned long long)e->k[k]), m;
    return NULL;
}


static void emu_report(const struct drv_pass *p, enum finding kind, const char *what,
                       const void *cpu, const void *emu, size_t n, uint64_t pc)
{
    char t[600];
    drv_title(p, t, sizeof t, what);
    report_begin(kind, t);
    if (pc) report_instruction((uintptr_t)pc);
    if (n) report_diff("cpu", cpu, "emulator", emu, n);
    report_param("emulated by", "emu_call: Unicorn Engine and the vector executor "
                 "(emu/), from the CPU run's buffers and registers");
    report_end();
}

/* rax left as a stack address by a function without a result: each run had its own stack
 * (the checked call's separate one, the emulator's), so such values cannot agree. */
static int stack_addresses(uint64_t cpu_rax, uint64_t emu_rax)
{
    uint64_t lo, hi, elo, entry;
    size_t esize;
    abi_stack_range(&lo, &hi);
    emu_stack(&elo, &esize, &entry);
    return cpu_rax >= lo && cpu_rax < hi && emu_rax >= elo && emu_rax < elo + esize;
}

/* The call on the CPU, then in the emulator from the same state: the buffers and the register
 * state after both must agree.  The emulated call's outputs stay in the buffers and its rax is
 * returned, so the family's comparison with the reference judges the emulated call (rax of a
 * function without a result is whatever it left: only the family knows which calls return
 * one; the CPU's rax is judged in every other mode). */
static uint64_t emu_diff_call(struct drv_pass *p, const void *fn, const uint64_t *argv,
                              size_t argc)
{
    static uint8_t *pre[DRV_MAX_SLOTS], *cpu[DRV_MAX_SLOTS];
    static size_t cap[DRV_MAX_SLOTS];
    static uint64_t rs = 0x9e3779b97f4a7c15ull;
    size_t slots = drv_pass_slots(p);
    for (size_t i = 0; i < slots; i++) {
        const struct gbuf *g = &p->bufs[i];
        if (!p->use[i].placed || !g->len) continue;
        if (cap[i] < g->len) {
            free(pre[i]);
            free(cpu[i]);
            cap[i] = g->len;
            pre[i] = malloc(cap[i]);
            cpu[i] = malloc(cap[i]);
            if (!pre[i] || !cpu[i]) abort();
        }
        memcpy(pre[i], g->p, g->len);
    }
    struct abi_state b;
    memset(&b, 0, sizeof b);
#define SEED_SAVED_(kind, r, R) b.r = rng_next(&rs);
    ABI_X86_64_SYSV_SAVED(SEED_SAVED_)
#undef SEED_SAVED_
    /* Each side is the checked call, with its verdicts (ABI, and for IMPL_CLEAN kernels data
     * left in registers or on the stack), from the same callee-saved values. */
    const char *name = impl_name(p->impl);
    int clean = (p->impl->flags & IMPL_CLEAN) != 0;
    struct abi_state sn, se;
    uint64_t rn = abi_call_state(name, fn, argv, argc, clean, &b, &sn);
    if (abi_call_abandoned() || p->abandoned) { /* it faulted on the CPU (reported) */
        p->abandoned = 1;
        drv_stats.calls++;
        drv_stats.impl_calls[p->index]++;
        return 0;
    }
    for (size_t i = 0; i < slots; i++) {
        const struct gbuf *g = &p->bufs[i];
        if (p->use[i].placed && g->len) {
            memcpy(cpu[i], g->p, g->len);
            memcpy(g->p, pre[i], g->len);
        }
    }
    char w[500];
    drv_stats.calls++;
    drv_stats.impl_calls[p->index]++; /* one call of the kernel's, compared */
    drv_stats.emulated_calls++; /* the emulated run of the pair */
    abi_emulate(1);
    uint64_t re = abi_call_state(name, fn, argv, argc, clean, &b, &se);
    abi_emulate(0);
    if (p->abandoned) return 0; /* the emulator stopped or faulted (reported) */
    for (size_t i = 0; i < slots; i++) {
        const struct gbuf *g = &p->bufs[i];
        if (p->use[i].placed && g->len && memcmp(cpu[i], g->p, g->len)) {
            snprintf(w, sizeof w, "the emulator disagrees with the CPU: %s differs after the "
                     "call", g->name);
            emu_report(p, FINDING_EMU_DIFF, w, cpu[i], g->p, g->len, 0);
        }
    }
    if (rn != re && !stack_addresses(rn, re)) {
        snprintf(w, sizeof w, "the emulator disagrees with the CPU after the call: rax is "
                 "0x%llx on the CPU, 0x%llx emulated", (unsigned long long)rn,
                 (unsigned long long)re);
        emu_report(p, FINDING_EMU_DIFF, w, NULL, NULL, 0, 0);
    }
    const char *diff = same_state(&sn, &se);
    if (diff) {
        snprintf(w, sizeof w, "the emulator disagrees with the CPU after the call: %s", diff);
        emu_report(p, FINDING_EMU_DIFF, w, NULL, NULL, 0, 0);
    }
    emu_compared++;
    drv_after_call(p);
    return re;
}

/* A kernel this CPU cannot run has nothing to be compared with: the emulated checked call. */
static uint64_t emu_diff_or_emulated(struct drv_pass *p, const void *fn, const uint64_t *argv,
                                     size_t argc)
{
    if (emulated_runs(p->impl)) return backend_native.call(p, fn, argv, argc);
    return emu_diff_call(p, fn, argv, argc);
}
#endif

static int emu_diff_setup(const char **why)
{
    return drv_emulator_linked(why);
}

const struct backend backend_emu_diff = {
    .name = "emu-diff",
    .setup = emu_diff_setup,
    .unavailable = drv_kernels_only,
    .emulated = emulated_runs,
#if ARCH_X86_64
    .call = emu_diff_or_emulated,
#endif
    .check_case = drv_check_placements,
};
