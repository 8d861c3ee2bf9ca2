/* vx_uc.c — see vx_uc.h. */
#include "emu/vx_uc.h"
#include "emu/ucheck_elf.h"
#include "emu/vx_disasm.h"

#include <stdio.h>
#include <string.h>

static const int gpr_ids[16] = {
    UC_X86_REG_RAX, UC_X86_REG_RCX, UC_X86_REG_RDX, UC_X86_REG_RBX, UC_X86_REG_RSP,
    UC_X86_REG_RBP, UC_X86_REG_RSI, UC_X86_REG_RDI, UC_X86_REG_R8, UC_X86_REG_R9,
    UC_X86_REG_R10, UC_X86_REG_R11, UC_X86_REG_R12, UC_X86_REG_R13, UC_X86_REG_R14,
    UC_X86_REG_R15};

static void push_state(struct vxu *v)
{
    int ids[34];
    void *vals[34];
    int n = 0;
    for (int i = 0; i < 16; i++) { ids[n] = gpr_ids[i]; vals[n++] = &v->cpu.gpr[i]; }
    ids[n] = UC_X86_REG_RIP; vals[n++] = &v->cpu.rip;
    ids[n] = UC_X86_REG_RFLAGS; vals[n++] = &v->cpu.rflags;
    for (int i = 0; i < 16; i++) { ids[n] = UC_X86_REG_XMM0 + i; vals[n++] = v->cpu.z[i].b; }
    uc_reg_write_batch(v->uc, ids, vals, n);
}

static void pull_state(struct vxu *v)
{
    int ids[34];
    void *vals[34];
    int n = 0;
    uint8_t x[16][16];
    for (int i = 0; i < 16; i++) { ids[n] = gpr_ids[i]; vals[n++] = &v->cpu.gpr[i]; }
    ids[n] = UC_X86_REG_RIP; vals[n++] = &v->cpu.rip;
    ids[n] = UC_X86_REG_RFLAGS; vals[n++] = &v->cpu.rflags;
    for (int i = 0; i < 16; i++) { ids[n] = UC_X86_REG_XMM0 + i; vals[n++] = x[i]; }
    uc_reg_read_batch(v->uc, ids, vals, n);
    for (int i = 0; i < 16; i++) memcpy(v->cpu.z[i].b, x[i], 16);
}

/* Called on every instruction Unicorn runs: the prefix bytes only, no decode (c4, c5 and 62
 * are VEX and EVEX in 64-bit mode, as vx_is_vector_insn says; and the one legacy SSE
 * instruction the executor takes from Unicorn, pclmulqdq). */
int vxu_unicorn_check(struct vxu *v, uint64_t addr)
{
    uint8_t b[15];
    size_t got = v->env.fetch(v->env.ctx, addr, b, sizeof b), i = 0;
    while (i < got && (b[i] == 0x2e || b[i] == 0x3e || b[i] == 0x26 || b[i] == 0x36 ||
                       b[i] == 0x64 || b[i] == 0x65 || b[i] == 0x67))
        i++;
    /* legacy pclmulqdq (66 [REX] 0F 3A 44), which Unicorn 2.0.1 refuses: the executor's too
     * (which judges its features in the isa mode, as it does VEX's) */
    size_t j = i < got && b[i] == 0x66 ? i + 1 : got;
    if (j < got && (b[j] & 0xf0) == 0x40) j++;
    int clmul = j + 2 < got && b[j] == 0x0f && b[j + 1] == 0x3a && b[j + 2] == 0x44;
    if (!clmul && !(i < got && (b[i] == 0xc4 || b[i] == 0xc5 || b[i] == 0x62))) {
        if (v->env.isa_check && (vx_legacy_features(b, got) & ~v->env.isa)) {
            /* beyond the declared features: stopped in front of it, as the executor stops */
            v->isa_stop = addr;
            v->caller_stop = 1;
            uc_emu_stop(v->uc);
            return 1;
        }
        return 0;
    }
    uc_emu_stop(v->uc);
    return 1;
}

/* "beyond the declared features: pshufb %xmm1, %xmm0 at sym+0x1a4 needs SSSE3; declared
 * AVX+AES" into msg, for the instruction at addr that needs what isa lacks. */
static void isa_message(struct vxu *v, uint64_t addr, char *msg, size_t len)
{
    uint8_t b[16];
    size_t got = v->env.fetch(v->env.ctx, addr, b, 15);
    struct vx_insn in;
    uint32_t need = vx_decode(b, got, addr, &in) == 0
                        ? vx_insn_features(&in) |
                              (in.f->enc == VX_ENC_LEG ? vx_legacy_features(b, got) : 0)
                        : vx_legacy_features(b, got);
    char text[160], where[128], needs[160], declared[200];
    vx_disasm(b, got, addr, text, sizeof text);
    elfsym_format(addr, where, sizeof where);
    vx_feat_format(need & ~v->env.isa, needs, sizeof needs);
    vx_feat_format(v->env.isa_declared, declared, sizeof declared);
    snprintf(msg, len, "beyond the declared features: %s at %s needs %s; declared %s", text,
             where, needs, declared[0] ? declared : "none (baseline x86-64)");
}

void vxu_describe(struct vxu *v, uint64_t addr, const char *what, char *msg, size_t len)
{
    uint8_t b[16];
    size_t got = v->env.fetch(v->env.ctx, addr, b, 15);
    char text[160], where[128];
    vx_disasm(b, got, addr, text, sizeof text);
    elfsym_format(addr, where, sizeof where);
    snprintf(msg, len, "%s: %s at %s", what, text, where);
}

enum vxu_status vxu_run(struct vxu *v, uint64_t stop, char *msg, size_t len)
{
    v->vexec_insns = v->unicorn_turns = 0;
    v->uc_error = UC_ERR_OK;
    if (len) msg[0] = 0;
    for (;;) {
        uint64_t done = 0;
        char why[200];
        enum vx_status s = vx_run(&v->cpu, &v->env, stop, v->limit - v->vexec_insns, &done,
                                  why, sizeof why);
        v->vexec_insns += done;
        switch (s) {
        case VX_STOPPED:
            if (!v->final_state_vexec_only) push_state(v);
            return VXU_DONE;
        case VX_HALT:
            push_state(v);
            return VXU_HALT;
        case VX_LIMIT:
            push_state(v);
            snprintf(msg, len, "runaway: more than %llu instructions",
                     (unsigned long long)v->limit);
            return VXU_ERROR;
        case VX_FAULT: {
            push_state(v);
            char where[128];
            elfsym_format(v->cpu.rip, where, sizeof where);
            if (!msg[0]) snprintf(msg, len, "fault: %s by instruction at %s", why, where);
            return VXU_ERROR;
        }
        case VX_ISA:
            push_state(v);
            isa_message(v, v->cpu.rip, msg, len);
            return VXU_ERROR;
        case VX_UNKNOWN:
            break;
        }
        size_t ilen;
        if (vx_is_vector_insn(&v->env, v->cpu.rip, &ilen)) {
            push_state(v);
            vxu_describe(v, v->cpu.rip, "unsupported instruction", msg, len);
            return VXU_ERROR;
        }
        /* Unicorn's turn: from here to the next VEX/EVEX instruction or stop */
        uint64_t from = v->cpu.rip;
        push_state(v);
        v->unicorn_turns++;
        v->in_unicorn = 1;
        v->caller_stop = 0;
        v->isa_stop = 0;
        uc_err e = uc_emu_start(v->uc, from, stop, 0, 0);
        v->in_unicorn = 0;
        pull_state(v);
        if (v->isa_stop) {
            isa_message(v, v->isa_stop, msg, len);
            return VXU_ERROR;
        }
        if (e == UC_ERR_INSN_INVALID && v->cpu.rip == from) {
            vxu_describe(v, from, "unsupported instruction", msg, len);
            return VXU_ERROR;
        }
        if (e != UC_ERR_OK || v->caller_stop) {
            v->uc_error = e;
            return VXU_UC_ERROR;
        }
        if (v->cpu.rip == stop) return VXU_DONE;
        if (v->cpu.rip == from) {
            /* Unicorn stopped without progress and without an error: a caller's hook */
            return VXU_UC_ERROR;
        }
    }
}
