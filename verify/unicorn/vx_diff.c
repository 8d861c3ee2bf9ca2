/* vx_diff.c — see vx_diff.h. */
#define _GNU_SOURCE
#include "vx_diff.h"
#include "emu/vexec.h"

#include <cpuid.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Layout shared with vx_native_x86_64.S */
struct vxn_state {
    uint64_t gpr[16];
    uint64_t rflags;
    uint64_t exit_kind;
    uint64_t k[8];
    uint8_t pad[48];
    uint8_t z[32][64] __attribute__((aligned(64)));
};
_Static_assert(__builtin_offsetof(struct vxn_state, rflags) == 128, "ST_RFLAGS");
_Static_assert(__builtin_offsetof(struct vxn_state, k) == 144, "ST_K");
_Static_assert(__builtin_offsetof(struct vxn_state, z) == 256, "ST_Z");

void vxn_exec(struct vxn_state *st, const void *entry);
extern char vxn_back_fall[], vxn_back_taken[];

#define CODE_SIZE 4096
#define DATA_SIZE (4 * 4096)
#define STACK_OFF (2 * 4096) /* rsp in the middle of the data area */
#define TAKEN_OFF 64        /* branch target stub, from the instruction */

static uint8_t *code, *data, *snapshot, *native_data;
static int absolute_ok; /* the data area lies below 2 GiB */

/* A fault of the native instruction (a masked-off element the CPU does not suppress, on the
 * guard page) comes back here; the handler runs on its own stack, not on the test's. */
static sigjmp_buf native_jb;
static void native_fault(int sig)
{
    siglongjmp(native_jb, sig);
}

static int run_native(struct vxn_state *st)
{
    static uint8_t altstack[64 * 1024];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack}, old_ss;
    struct sigaction sa, old_segv, old_bus, old_ill;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = native_fault;
    sa.sa_flags = SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaltstack(&ss, &old_ss);
    sigaction(SIGSEGV, &sa, &old_segv);
    sigaction(SIGBUS, &sa, &old_bus);
    sigaction(SIGILL, &sa, &old_ill);
    int sig = sigsetjmp(native_jb, 1);
    if (!sig) vxn_exec(st, code);
    sigaction(SIGSEGV, &old_segv, NULL);
    sigaction(SIGBUS, &old_bus, NULL);
    sigaction(SIGILL, &old_ill, NULL);
    sigaltstack(&old_ss, NULL);
    return sig;
}

int vxd_init(char *why, size_t len)
{
    unsigned a, b, c, d;
    /* every feature a form of the table needs (its features column), as CPUID reports them */
    size_t n;
    const struct vx_form *forms = vx_forms(&n);
    uint32_t need = 0, have = vx_feat_host();
    for (size_t i = 0; i < n; i++)
        need |= forms[i].feat[0] | forms[i].feat[1] | forms[i].feat[2];
    need |= VXF(AVX2) | VXF(AVX512BW) | VXF(AVX512DQ); /* the fvar variants (vx_insn_features) */
    for (unsigned f = 0; f < VX_NFEAT; f++)
        if (((need & ~have) >> f) & 1) {
            snprintf(why, len, "this CPU lacks %s: the executor cannot be compared with it",
                     vx_feat_name(f));
            return -1;
        }
    __get_cpuid(1, &a, &b, &c, &d);
    unsigned lo = 0, hi = 0;
    if ((c >> 27) & 1) __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 0xe6) != 0xe6) {
        snprintf(why, len, "this CPU lacks OS support for AVX-512 state (XCR0): the executor "
                 "cannot be compared with it");
        return -1;
    }
    /* code page, then the data area right after it: RIP-relative operands reach it */
    /* ... and a PROT_NONE guard page after the data: masked-off elements are placed there */
    /* ... below 2 GiB when the kernel allows it, so that a SIB operand with neither base nor
     * index (disp32 alone, sign-extended) reaches it too */
    size_t total = CODE_SIZE + DATA_SIZE + 4096;
    uint8_t *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
                      -1, 0);
    if (p == MAP_FAILED)
        p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    absolute_ok = p != MAP_FAILED && (uintptr_t)p + total < 0x7fffffffu;
    if (p == MAP_FAILED || mprotect(p, CODE_SIZE, PROT_READ | PROT_WRITE | PROT_EXEC) ||
        mprotect(p + CODE_SIZE + DATA_SIZE, 4096, PROT_NONE)) {
        snprintf(why, len, "cannot map an executable page");
        return -1;
    }
    code = p;
    data = p + CODE_SIZE;
    static uint8_t snap[DATA_SIZE], nat[DATA_SIZE];
    snapshot = snap;
    native_data = nat;
    return 0;
}

/* ---- case bytes --------------------------------------------------------------------------- */

struct src {
    const uint8_t *p;
    size_t n, i;
    uint64_t s;
};

static uint64_t next64(struct src *r)
{
    if (r->i + 8 <= r->n) {
        uint64_t v;
        memcpy(&v, r->p + r->i, 8);
        r->i += 8;
        return v;
    }
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned pick(struct src *r, unsigned n)
{
    if (r->i < r->n) return r->p[r->i++] % n;
    return (unsigned)(next64(r) % n);
}

/* ---- encoder ------------------------------------------------------------------------------ */

struct enc {
    unsigned l, w, reg, vvvv, rm, mem, aaa, z, bc;
    int base, index; /* -1 none, 16 rip */
    unsigned scale;
    unsigned mod;    /* memory operands: 0 (no displacement, or disp32 without base), 1, 2 */
    int sib;         /* 1: a SIB byte even where none is needed */
    int disp8;       /* 1: disp8 (already divided by N) */
    int32_t disp;
    uint64_t imm;
    unsigned rexw;
    int force_rex;
    int c5;          /* the 2-byte VEX prefix */
    unsigned free_b; /* REX/VEX/EVEX.B where no base register reads it (RIP-relative, SIB
                      * without base): the CPU ignores it, so may the encoder set it */
    uint8_t pfx[4];  /* legacy prefixes in front */
    unsigned npfx;
    int rex_emitted; /* set by encode */
};

static size_t imm_bytes(const struct vx_form *f, const struct enc *e)
{
    if (f->flags & (VF_IMM8 | VF_REL8)) return 1;
    if ((f->flags & VF_IMM64) && e->rexw) return 8;
    if (f->flags & (VF_IMMZ | VF_REL32)) return 4;
    return 0;
}

static size_t emit_modrm(const struct enc *e, uint8_t *o)
{
    size_t n = 0;
    if (!e->mem) {
        o[n++] = (uint8_t)(0xc0 | (e->reg & 7) << 3 | (e->rm & 7));
        return n;
    }
    if (e->base == 16) {
        o[n++] = (uint8_t)((e->reg & 7) << 3 | 5);
        memcpy(o + n, &e->disp, 4);
        return n + 4;
    }
    unsigned mod = e->base < 0 ? 0 : e->mod;
    if (!e->sib && e->index < 0 && e->base >= 0 && (e->base & 7) != 4) {
        o[n++] = (uint8_t)(mod << 6 | (e->reg & 7) << 3 | (e->base & 7));
    } else {
        o[n++] = (uint8_t)(mod << 6 | (e->reg & 7) << 3 | 4);
        unsigned idx = e->index < 0 ? 4 : (unsigned)e->index & 7;
        o[n++] = (uint8_t)(e->scale << 6 | idx << 3 | (e->base < 0 ? 5 : e->base & 7));
    }
    if (mod == 1) {
        o[n++] = (uint8_t)(int8_t)e->disp;
    } else if (mod == 2 || e->base < 0) {
        memcpy(o + n, &e->disp, 4);
        n += 4;
    }
    return n;
}

static size_t encode(const struct vx_form *f, struct enc *e, uint8_t *o)
{
    size_t n = 0;
    unsigned R = (e->reg >> 3) & 1, R2 = (e->reg >> 4) & 1, B, X;
    if (e->mem) {
        B = e->base >= 0 && e->base < 16 ? ((unsigned)e->base >> 3) & 1 : e->free_b;
        X = e->index >= 0 ? ((unsigned)e->index >> 3) & 1 : 0;
    } else {
        B = (e->rm >> 3) & 1;
        X = (e->rm >> 4) & 1;
    }
    for (unsigned i = 0; i < e->npfx; i++) o[n++] = e->pfx[i];
    e->rex_emitted = 0;
    if (f->enc == VX_ENC_LEG) {
        if (f->pp == 2) o[n++] = 0xf3;
        if (f->pp == 1) o[n++] = 0x66; /* an SSE form's own prefix (pclmulqdq) */
        unsigned rex = 0x40 | e->rexw << 3 | R << 2 | X << 1 | B;
        if (rex != 0x40 || e->force_rex) {
            o[n++] = (uint8_t)rex;
            e->rex_emitted = 1;
        }
        if (f->map >= 1) o[n++] = 0x0f;
        if (f->map == 2) o[n++] = 0x38;
        if (f->map == 3) o[n++] = 0x3a;
        unsigned op = f->op;
        if (f->opmask != 0xff && !(f->flags & VF_MODRM)) op |= e->rm & 7; /* +r forms */
        else if (f->opmask == 0xc7) op |= (e->imm >> 32) & 0x38;          /* ALU op in 5:3 */
        else if (f->opmask == 0xf0) op |= (e->imm >> 40) & 15;            /* condition code */
        o[n++] = (uint8_t)op;
    } else if (f->enc == VX_ENC_VEX) {
        unsigned pp = f->pp >= 0xfe ? (e->imm >> 48) & 1 : f->pp;
        if (e->c5) { /* map 0F, W0, no X or B: R, vvvv, L, pp in one byte */
            o[n++] = 0xc5;
            o[n++] = (uint8_t)((!R) << 7 | (~e->vvvv & 15) << 3 | e->l << 2 | pp);
        } else {
            o[n++] = 0xc4;
            o[n++] = (uint8_t)((!R) << 7 | (!X) << 6 | (!B) << 5 | f->map);
            o[n++] = (uint8_t)(e->w << 7 | (~e->vvvv & 15) << 3 | e->l << 2 | pp);
        }
        o[n++] = f->op;
    } else {
        o[n++] = 0x62;
        o[n++] = (uint8_t)((!R) << 7 | (!X) << 6 | (!B) << 5 | (!R2) << 4 | f->map);
        o[n++] = (uint8_t)(e->w << 7 | (~e->vvvv & 15) << 3 | 4 | f->pp);
        o[n++] = (uint8_t)(e->z << 7 | e->l << 5 | e->bc << 4 | (!((e->vvvv >> 4) & 1)) << 3 |
                           e->aaa);
        o[n++] = f->op;
    }
    if (f->flags & VF_MODRM) n += emit_modrm(e, o + n);
    size_t ib = imm_bytes(f, e);
    memcpy(o + n, &e->imm, ib);
    return n + ib;
}

/* ---- encoding paths ----------------------------------------------------------------------- */

const char *const vxd_path_name[VXP_N] = {
    [VXP_VEX_C4] = "VEX C4 (3-byte)", [VXP_VEX_C5] = "VEX C5 (2-byte)", [VXP_EVEX] = "EVEX",
    [VXP_LEGACY] = "legacy opcode", [VXP_NOPFX] = "no legacy prefix",
    [VXP_SEG] = "segment prefix 2E/3E/26/36", [VXP_66] = "66 prefix", [VXP_F3] = "F3 prefix",
    [VXP_F2] = "F2 prefix", [VXP_NOMODRM] = "no ModRM", [VXP_REG] = "ModRM register",
    [VXP_MOD00] = "mod 00 [base]", [VXP_MOD01] = "mod 01 [base+disp8]",
    [VXP_MOD10] = "mod 10 [base+disp32]", [VXP_SIB_BI] = "SIB base+index*scale",
    [VXP_SIB_B] = "SIB base, no index", [VXP_SIB_I] = "SIB index*scale+disp32, no base",
    [VXP_SIB_ABS] = "SIB disp32, no base or index", [VXP_RIP] = "RIP-relative",
    [VXP_LNONE] = "no vector length", [VXP_L128] = "128-bit", [VXP_L256] = "256-bit",
    [VXP_L512] = "512-bit", [VXP_DISP8N] = "EVEX disp8*N", [VXP_BCST] = "EVEX broadcast",
    [VXP_REX] = "REX prefix",
};

static int is_branch_form(const struct vx_form *f)
{
    return f->enc == VX_ENC_LEG && (f->flags & VF_BRANCH) && strncmp(f->name, "push", 4) &&
           strncmp(f->name, "pop", 3);
}

uint64_t vxd_paths(const struct vx_form *f)
{
    uint64_t p = 0;
    int endbr = !strcmp(f->name, "endbr64");
    if (f->enc == VX_ENC_VEX) {
        p |= VXP_BIT(VXP_VEX_C4);
        if (f->map == 1 && f->w != 1) p |= VXP_BIT(VXP_VEX_C5);
    } else {
        p |= VXP_BIT(f->enc == VX_ENC_EVEX ? VXP_EVEX : VXP_LEGACY);
    }
    p |= VXP_BIT(VXP_SEG);
    if (!endbr) p |= VXP_BIT(VXP_NOPFX);
    if (f->enc == VX_ENC_LEG) {
        /* 66 changes nothing for an 8-bit operation and is the nopw of padding */
        if ((f->flags & VF_BYTE) || !strcmp(f->name, "nop") || !strcmp(f->name, "nop r/m"))
            p |= VXP_BIT(VXP_66);
        if (endbr || !strcmp(f->name, "ret") || !strcmp(f->name, "movsb"))
            p |= VXP_BIT(VXP_F3); /* rep ret, rep movsb */
        if (is_branch_form(f)) p |= VXP_BIT(VXP_F2);                 /* bnd */
        if (!endbr) p |= VXP_BIT(VXP_REX);
        p |= VXP_BIT(VXP_LNONE);
    } else {
        for (int l = 0; l < 3; l++)
            if ((f->lm >> l) & 1) p |= VXP_BIT(VXP_L128 + l);
    }
    if (!(f->flags & VF_MODRM)) return p | VXP_BIT(VXP_NOMODRM);
    if (!(f->flags & VF_MEMONLY)) p |= VXP_BIT(VXP_REG);
    if (!(f->flags & VF_REGONLY)) {
        for (int m = VXP_MOD00; m <= VXP_RIP; m++)
            if (m != VXP_SIB_ABS || absolute_ok) p |= VXP_BIT(m);
        if (f->enc == VX_ENC_EVEX) p |= VXP_BIT(VXP_DISP8N);
        if (f->enc == VX_ENC_EVEX && f->bsz) p |= VXP_BIT(VXP_BCST);
    }
    return p;
}

/* One path of the group [first, last] that allowed has: the forced one, else the input's
 * choice; -1 when the forced one is not allowed. */
static int choose(struct src *r, uint64_t allowed, int first, int last, int forced)
{
    if (forced >= 0) return forced >= first && forced <= last && ((allowed >> forced) & 1)
                            ? forced : -1;
    int opts[16];
    unsigned c = 0;
    for (int p = first; p <= last; p++)
        if ((allowed >> p) & 1) opts[c++] = p;
    return c ? opts[pick(r, c)] : -1;
}

/* A general-purpose register of the set (bit i: register i); never rsp, which is the stack. */
static unsigned gpr_in(struct src *r, unsigned set)
{
    unsigned opts[16], c = 0;
    set &= ~(1u << VX_RSP);
    for (unsigned g = 0; g < 16; g++)
        if ((set >> g) & 1) opts[c++] = g;
    return opts[pick(r, c)];
}

/* ---- one case ----------------------------------------------------------------------------- */

static int readm(void *ctx, uint64_t a, void *dst, size_t n)
{
    (void)ctx;
    uint64_t d = (uint64_t)(uintptr_t)data;
    if (a < d || a + n > d + DATA_SIZE || a + n < a) return -1;
    memcpy(dst, (void *)(uintptr_t)a, n);
    return 0;
}

static int writem(void *ctx, uint64_t a, const void *src, size_t n)
{
    (void)ctx;
    uint64_t d = (uint64_t)(uintptr_t)data;
    if (a < d || a + n > d + DATA_SIZE || a + n < a) return -1;
    memcpy((void *)(uintptr_t)a, src, n);
    return 0;
}

static size_t fetchm(void *ctx, uint64_t a, uint8_t *dst, size_t n)
{
    (void)ctx;
    uint64_t c = (uint64_t)(uintptr_t)code;
    if (a < c || a >= c + CODE_SIZE) return 0;
    if (a + n > c + CODE_SIZE) n = c + CODE_SIZE - a;
    memcpy(dst, (void *)(uintptr_t)a, n);
    return n;
}

static unsigned vreg_pick(struct src *r, const struct vx_form *f)
{
    return pick(r, f->enc == VX_ENC_EVEX ? 32 : 16);
}

static unsigned gpr_pick(struct src *r)
{
    unsigned g;
    do g = pick(r, 16); while (g == VX_RSP);
    return g;
}

static unsigned role_pick(struct src *r, const struct vx_form *f, char role)
{
    switch (role) {
    case 'v': return vreg_pick(r, f);
    case 'k': return pick(r, 8);
    case 'g': return gpr_pick(r);
    default: return 0;
    }
}

static void jmp_stub(uint8_t *p, const void *to)
{
    p[0] = 0xff;
    p[1] = 0x25;
    memset(p + 2, 0, 4);
    uint64_t a = (uint64_t)(uintptr_t)to;
    memcpy(p + 6, &a, 8);
}

enum vxd_result vxd_case(const uint8_t *in, size_t n, long form_index, char *msg, size_t len,
                         size_t *form_used)
{
    return vxd_case_plan(in, n, form_index, NULL, msg, len, form_used, NULL);
}

enum vxd_result vxd_case_plan(const uint8_t *in, size_t n, long form_index,
                              const struct vxd_plan *plan, char *msg, size_t len,
                              size_t *form_used, uint64_t *paths)
{
    size_t nforms;
    const struct vx_form *forms = vx_forms(&nforms);
    struct src r = {in, n, 0, 0x5eed};
    for (size_t i = 0; i < n; i++) r.s = r.s * 131 + in[i];
    size_t fi = form_index >= 0 ? (size_t)form_index : pick(&r, (unsigned)nforms);
    if (fi >= nforms) return VXD_SKIP;
    const struct vx_form *f = &forms[fi];
    if (form_used) *form_used = fi;
    const char *roles = vx_form_roles(f);
    struct enc e;
    memset(&e, 0, sizeof e);
    e.base = e.index = -1;

    /* the encoding paths of this case */
    static const struct vxd_plan none = {-1, -1, -1, -1};
    if (!plan) plan = &none;
    uint64_t allowed = vxd_paths(f);
    int p_prefix = choose(&r, allowed, VXP_VEX_C4, VXP_LEGACY, plan->prefix);
    int p_legacy = choose(&r, allowed, VXP_NOPFX, VXP_F2, plan->legacy);
    int p_modrm = choose(&r, allowed, VXP_NOMODRM, VXP_RIP, plan->modrm);
    int p_length = choose(&r, allowed, VXP_LNONE, VXP_L512, plan->length);
    if (p_prefix < 0 || p_legacy < 0 || p_modrm < 0 || p_length < 0) return VXD_SKIP;
    uint64_t took = VXP_BIT(p_prefix) | VXP_BIT(p_modrm) | VXP_BIT(p_length);
    e.c5 = p_prefix == VXP_VEX_C5;
    /* registers a C5 prefix can name in ModRM.rm, SIB base and index: no X or B bit */
    unsigned gpr_ok = e.c5 ? 0x00ffu : 0xffffu;

    /* vector length, W */
    e.l = p_length == VXP_LNONE ? 0 : (unsigned)(p_length - VXP_L128);
    e.w = f->w >= 0 ? (unsigned)f->w : e.c5 ? 0 : pick(&r, 2);
    if (f->enc == VX_ENC_LEG) {
        e.rexw = (f->flags & VF_BYTE) ? pick(&r, 2) : pick(&r, 2);
        e.w = e.rexw;
        e.force_rex = pick(&r, 2);
        if (!strcmp(f->name, "movsxd r64, r/m32")) e.rexw = e.w = 1;
    }
    if (f->kind == VK_SPEC && f->enc == VX_ENC_EVEX &&
        (f->op == 0x6e || f->op == 0x7e || (f->map == 3 && (f->op == 0x16 || f->op == 0x22))))
        e.w = pick(&r, 2);

    /* legacy prefixes in front */
    static const uint8_t segs[4] = {0x2e, 0x3e, 0x26, 0x36};
    if (p_legacy == VXP_SEG) {
        e.pfx[e.npfx++] = segs[pick(&r, 4)];
    } else if (p_legacy == VXP_66) {
        /* padding's nopw: up to three 66 and a cs (66 66 2e 0f 1f 84 ...) */
        unsigned k = !strcmp(f->name, "nop r/m") ? 1 + pick(&r, 3) : 1;
        while (k--) e.pfx[e.npfx++] = 0x66;
        if (!strcmp(f->name, "nop r/m") && pick(&r, 2)) e.pfx[e.npfx++] = 0x2e;
    } else if (p_legacy == VXP_F3 && f->pp != 2) {
        e.pfx[e.npfx++] = 0xf3;
    } else if (p_legacy == VXP_F2) {
        e.pfx[e.npfx++] = 0xf2;
    }
    if (p_legacy == VXP_SEG && f->pp == 2 && f->enc == VX_ENC_LEG) took |= VXP_BIT(VXP_F3);
    for (unsigned i = 0; i < e.npfx; i++)
        took |= VXP_BIT(e.pfx[i] == 0x66 ? VXP_66 : e.pfx[i] == 0xf3 ? VXP_F3
                        : e.pfx[i] == 0xf2 ? VXP_F2 : VXP_SEG);
    if (p_legacy == VXP_F3) took |= VXP_BIT(VXP_F3); /* endbr64's own */
    if (!e.npfx && !(f->enc == VX_ENC_LEG && f->pp == 2)) took |= VXP_BIT(VXP_NOPFX);

    /* operands */
    int has_modrm = (f->flags & VF_MODRM) != 0;
    if (has_modrm) {
        e.reg = roles[0] == 'x' ? (unsigned)f->reg : role_pick(&r, f, roles[0]);
        if (!strncmp(f->name, "rol/ror", 7)) e.reg = (const unsigned[]){0, 1, 4, 5, 7}[pick(&r, 5)];
        e.vvvv = roles[1] == '-' ? 0 : role_pick(&r, f, roles[1]);
        int mem = p_modrm != VXP_REG;
        if (f->enc == VX_ENC_LEG && (f->flags & VF_BYTE) && !e.force_rex && !e.rexw) {
            /* without REX, 8-bit registers 4-7 are ah..bh: fine, but keep the REX-free
             * encodings to registers 0-7 */
            e.reg &= 7;
        }
        e.mem = (unsigned)mem;
        if (!mem) e.rm = role_pick(&r, f, roles[2] == '-' ? 'v' : roles[2]);
        if (e.c5 && !mem) e.rm &= 7;
        if (f->enc == VX_ENC_LEG && !e.rexw && !e.force_rex) {
            if (roles[0] != 'x') e.reg &= 7;
            e.rm &= 7;
            if (e.reg == 4 && roles[0] != 'x') e.reg = 5;
            if (e.rm == 4 && !mem) e.rm = 5;
        }
    } else if (f->enc == VX_ENC_LEG && f->opmask == 0xf8) {
        e.rm = gpr_pick(&r);
        if (!e.rexw && !e.force_rex) e.rm &= 7;
        if (e.rm == 4) e.rm = 5;
    }
    if (f->enc == VX_ENC_VEX && !has_modrm) e.vvvv = 0;
    if (!strcmp(f->name, "endbr64")) {
        e.rm = 2;
        e.rexw = e.w = 0;
        e.force_rex = 0;
    }
    if ((f->flags & VF_MASK) && pick(&r, 4)) {
        e.aaa = 1 + pick(&r, 7);
        if (!(f->flags & VF_NOZ) && f->kind != VK_KVM && !(f->kind == VK_MR && e.mem) &&
            pick(&r, 2))
            e.z = 1;
    }
    if (e.mem && f->bsz && f->enc == VX_ENC_EVEX && pick(&r, 3) == 0) e.bc = 1;
    if (e.bc) took |= VXP_BIT(VXP_BCST);
    e.imm = next64(&r);
    /* a quarter of vpternlog's cases the three-way xor, which the executor runs apart (the
     * case's stream of choices unchanged: bits of the immediate decide) */
    if (!strncmp(f->name, "vpternlog", 9) && ((e.imm >> 8) & 3) == 0)
        e.imm = (e.imm & ~0xffull) | 0x96;
    /* (its bytes 4-6 also choose the ALU operation, condition code or prefix of the rows
     * that stand for several opcodes: see encode) */
    if (f->flags & VF_REL8) e.imm = (e.imm & ~0xffull) | (TAKEN_OFF - 2);
    if (f->flags & VF_REL32) e.imm = (e.imm & ~0xffffffffull) | 0;

    /* register file */
    struct vxn_state st, nat;
    memset(&st, 0, sizeof st);
    for (int i = 0; i < 16; i++) st.gpr[i] = next64(&r);
    for (int i = 0; i < 8; i++) st.k[i] = next64(&r);
    for (int i = 0; i < 32; i++)
        for (int j = 0; j < 8; j++) {
            uint64_t v = next64(&r);
            if (pick(&r, 8) == 0) v = 0;                 /* zeros and small counts matter */
            else if (pick(&r, 8) == 0) v &= 0x8080808080808080ull | 0x3f;
            memcpy(st.z[i] + 8 * j, &v, 8);
        }
    /* now and then a register with one qword in every lane, as a broadcast GFNI matrix is:
     * the executor's nibble path of vgf2p8affineqb takes only those.  Chosen from the
     * register's own bytes: the case's stream of choices is unchanged. */
    for (int i = 0; i < 32; i++)
        if ((st.z[i][1] & 7) == 0)
            for (int j = 1; j < 8; j++) memcpy(st.z[i] + 8 * j, st.z[i], 8);
    st.rflags = 0x202 | (next64(&r) & VX_ARITH_FLAGS);
    st.gpr[VX_RSP] = (uint64_t)(uintptr_t)(data + STACK_OFF);
    if (pick(&r, 4) == 0) st.gpr[VX_RCX] &= 0x3f; /* shift counts in cl */
    for (size_t i = 0; i < DATA_SIZE; i += 8) {
        uint64_t v = next64(&r);
        memcpy(data + i, &v, 8);
    }

    /* the memory operand: a target inside the data area, reached by the ModRM mode of the
     * case: base, base + disp8 (disp8*N under EVEX) or disp32, SIB with base and index*scale,
     * base alone, index*scale without base, disp32 alone, or RIP-relative */
    uint64_t target = 0;
    unsigned vl = 16u << e.l;
    if (e.mem) {
        unsigned msz = e.bc ? f->bsz : f->enc == VX_ENC_LEG && !f->msz ? 8 : vx_mem_size(f, vl);
        if (msz == 0) msz = 64;
        uint64_t off = pick(&r, DATA_SIZE / 2 - 128) + 64;
        if ((f->flags & VF_ALIGN) || pick(&r, 2)) off &= ~(uint64_t)(msz - 1);
        /* now and then a misaligned operand for an aligned move: #GP on the CPU (SIGSEGV),
         * a fault in the executor, masked or not */
        if ((f->flags & VF_ALIGN) && pick(&r, 8) == 0) off += 8;
        /* Fault suppression against the CPU: the operand runs into the guard page, and
         * exactly the elements there are masked off.  For a form with fault suppression
         * (VF_EWISE, stores) the CPU must not fault, and the executor must not touch them (its
         * memory callbacks refuse the guard page); for one without, both must fault, even
         * when no element is active.  Every masked form gets these cases, so a wrong
         * VF_EWISE flag shows either way. */
        if (e.aaa && !e.bc && (!f->msz || f->msz >= 0xf0) && f->enc == VX_ENC_EVEX &&
            pick(&r, 3) == 0) {
            unsigned ne = vl / f->esz, t = (f->flags & VF_ALIGN) ? 0 : pick(&r, ne);
            off = DATA_SIZE - (uint64_t)t * (f->esz * vx_mem_size(f, vl) / vl);
            st.k[e.aaa] &= t >= 64 ? ~0ull : (1ull << t) - 1;
        }
        target = (uint64_t)(uintptr_t)data + off;
        unsigned N = e.bc ? f->bsz : vx_mem_size(f, vl);
        if (f->enc != VX_ENC_EVEX) N = 1;
        if (f->kind == VK_SPEC && f->enc == VX_ENC_EVEX)
            N = f->op == 0x6e || f->op == 0x7e || (f->map == 3 && (f->op == 0x16 ||
                f->op == 0x22)) ? (e.w ? 8 : 4) : f->op == 0x64 || f->op == 0x66 ?
                (e.bc ? f->bsz : vl) : f->msz ? f->msz : 1;
        /* rbp and r13 as a base need a displacement; rsp and r12 need a SIB byte */
        const unsigned no_sib = 0xffffu & ~(1u << 4 | 1u << 12), no_mod0 = ~(1u << 5 | 1u << 13);
        int rsp_base = 0;
        switch (p_modrm) {
        case VXP_RIP:
            e.base = 16;
            break;
        case VXP_MOD00:
            e.base = (int)gpr_in(&r, gpr_ok & no_sib & no_mod0);
            e.mod = 0;
            break;
        case VXP_MOD01:
        case VXP_MOD10:
            e.base = (int)gpr_in(&r, gpr_ok & no_sib);
            e.mod = p_modrm == VXP_MOD01 ? 1 : 2;
            break;
        case VXP_SIB_BI:
            e.base = (int)gpr_in(&r, gpr_ok);
            e.index = (int)gpr_in(&r, gpr_ok & ~(1u << e.base));
            e.scale = pick(&r, 4);
            e.mod = ((e.base & 7) == 5 ? 1 : 0) + pick(&r, (e.base & 7) == 5 ? 2 : 3);
            break;
        case VXP_SIB_B:
            e.sib = 1;
            e.scale = pick(&r, 4); /* ignored without an index: the CPU must ignore it */
            rsp_base = pick(&r, 3) == 0;
            if (rsp_base) {
                e.base = VX_RSP;
                e.mod = 2;
            } else {
                e.base = (int)gpr_in(&r, gpr_ok);
                e.mod = ((e.base & 7) == 5 ? 1 : 0) + pick(&r, (e.base & 7) == 5 ? 2 : 3);
            }
            break;
        case VXP_SIB_I:
            e.index = (int)gpr_in(&r, gpr_ok);
            e.scale = pick(&r, 4);
            break;
        case VXP_SIB_ABS:
            e.scale = pick(&r, 4);
            break;
        }
        if ((e.base == 16 || e.base < 0) && !e.c5) e.free_b = pick(&r, 2);
        if (p_modrm == VXP_SIB_ABS) {
            e.disp = (int32_t)target;
        } else if (p_modrm == VXP_SIB_I) {
            /* index*scale + disp32 = target: the disp takes what the scale cannot */
            e.disp = (int32_t)(next64(&r) & 0xfffff) - 0x80000;
            uint64_t rest = target - (uint64_t)(int64_t)e.disp;
            e.disp += (int32_t)(rest & ((1u << e.scale) - 1));
            st.gpr[e.index] = (target - (uint64_t)(int64_t)e.disp) >> e.scale;
        } else if (rsp_base) {
            e.disp = (int32_t)(target - st.gpr[VX_RSP]);
        } else if (e.base != 16) {
            uint64_t idxv = 0;
            if (e.index >= 0) {
                idxv = next64(&r) & (e.mod == 1 ? 0xff : 0xffff);
                st.gpr[e.index] = idxv;
            }
            int64_t full = 0;
            if (e.mod == 1) {
                e.disp8 = 1;
                e.disp = (int8_t)pick(&r, 256);
                full = (int64_t)e.disp * N;
                if (f->enc == VX_ENC_EVEX) took |= VXP_BIT(VXP_DISP8N);
            } else if (e.mod == 2) {
                e.disp = (int32_t)(next64(&r) & 0xfffff) - 0x80000;
                full = e.disp;
            }
            st.gpr[e.base] = target - (uint64_t)full - (idxv << e.scale);
        }
    }
    if (!strcmp(f->name, "movsb")) {
        /* inside the data area, either direction apart, a quarter of the cases an overlapping
         * upward copy (the destination 1-40 bytes above the source); rcx 0..599 */
        st.gpr[VX_RSI] = (uint64_t)(uintptr_t)(data + 64 + pick(&r, DATA_SIZE / 2 - 1024));
        st.gpr[VX_RDI] = pick(&r, 4) == 0 ? st.gpr[VX_RSI] + 1 + pick(&r, 40)
                         : (uint64_t)(uintptr_t)(data + 64 + pick(&r, DATA_SIZE - 1024));
        st.gpr[VX_RCX] = pick(&r, 600);
    }
    if ((f->flags & VF_STACK) && !strcmp(f->name, "ret")) {
        uint64_t t = (uint64_t)(uintptr_t)(code + TAKEN_OFF + 16);
        memcpy(data + STACK_OFF, &t, 8);
    }
    int indirect = !strcmp(f->name, "call r/m64");
    if (indirect) { /* the register or memory operand holds the taken stub's address */
        uint64_t t = (uint64_t)(uintptr_t)(code + TAKEN_OFF + 16);
        if (e.mem) memcpy((void *)(uintptr_t)target, &t, 8);
        else st.gpr[e.rm] = t;
    }

    /* encode: RIP-relative needs the length first */
    uint8_t bytes[32];
    size_t blen = encode(f, &e, bytes);
    if (e.base == 16) {
        e.disp = (int32_t)(target - ((uint64_t)(uintptr_t)code + blen));
        blen = encode(f, &e, bytes);
    }
    memset(code, 0xcc, CODE_SIZE);
    memcpy(code, bytes, blen);
    jmp_stub(code + blen, vxn_back_fall);
    uint64_t taken = 0;
    if (f->flags & VF_BRANCH) {
        taken = !strcmp(f->name, "ret") || indirect ? (uint64_t)(uintptr_t)(code + TAKEN_OFF + 16)
              : (f->flags & VF_REL8) ? (uint64_t)(uintptr_t)code + blen + (uint64_t)(int8_t)e.imm
              : (uint64_t)(uintptr_t)code + blen + (uint64_t)(int64_t)(int32_t)e.imm;
        if (taken == (uint64_t)(uintptr_t)code + blen) {
            /* rel32 = 0: taken and fall-through coincide; make it distinct */
            e.imm = (e.imm & ~0xffffffffull) | TAKEN_OFF;
            blen = encode(f, &e, bytes);
            memcpy(code, bytes, blen);
            jmp_stub(code + blen, vxn_back_fall);
            taken = (uint64_t)(uintptr_t)code + blen + TAKEN_OFF;
        }
        jmp_stub((uint8_t *)(uintptr_t)taken, vxn_back_taken);
    }
    __builtin___clear_cache((char *)code, (char *)code + CODE_SIZE);

    if (e.rex_emitted) took |= VXP_BIT(VXP_REX);
    if (paths) *paths = took;

    /* the executor must decode what we encoded as this very form */
    struct vx_insn di;
    int dec = vx_decode(bytes, blen, (uint64_t)(uintptr_t)code, &di);
    char hex[100] = "";
    for (size_t i = 0; i < blen && 3 * i + 3 < sizeof hex; i++)
        snprintf(hex + 3 * i, 4, "%02x ", bytes[i]);
    if (dec != 0 || di.len != blen) {
        snprintf(msg, len, "%s: the executor does not decode the encoded bytes %s(decode %d, "
                 "length %u of %zu)", f->name, hex, dec, di.len, blen);
        return VXD_DIFF;
    }
    if (di.f != f && strcmp(di.f->name, f->name)) {
        /* another row of the same opcode and name is fine; a different name is not */
        snprintf(msg, len, "%s: bytes %sdecode as %s", f->name, hex, di.f->name);
        return VXD_DIFF;
    }

    /* native */
    if (getenv("VXD_TRACE")) fprintf(stderr, "%s: %s\n", f->name, hex);
    memcpy(snapshot, data, DATA_SIZE);
    nat = st;
    int nsig = run_native(&nat);
    memcpy(native_data, data, DATA_SIZE);
    memcpy(data, snapshot, DATA_SIZE);

    /* emulated */
    struct vx_cpu cpu;
    memset(&cpu, 0, sizeof cpu);
    memcpy(cpu.gpr, st.gpr, sizeof cpu.gpr);
    cpu.rflags = st.rflags;
    memcpy(cpu.k, st.k, sizeof cpu.k);
    for (int i = 0; i < 32; i++) memcpy(cpu.z[i].b, st.z[i], 64);
    cpu.rip = (uint64_t)(uintptr_t)code;
    struct vx_env env = {.read = readm, .write = writem, .fetch = fetchm};
    char emsg[160];
    uint64_t done = 0;
    vx_flush_cache();
    enum vx_status s = vx_run(&cpu, &env, ~0ull, 1, &done, emsg, sizeof emsg);
    if (nsig == SIGILL) {
        snprintf(msg, len, "%s: bytes %s: the CPU raised SIGILL (the encoder made an invalid "
                 "instruction of this form)", f->name, hex);
        return VXD_DIFF;
    }
    if (nsig || s == VX_FAULT) {
        if (nsig && s == VX_FAULT) return VXD_SAME; /* both fault: the same memory rule */
        snprintf(msg, len, "%s: bytes %s: %s", f->name, hex, nsig ?
                 "the CPU faults (a masked-off element on the guard page: no fault "
                 "suppression for this form), the executor does not access it" :
                 "the executor faults, the CPU does not (it suppresses the fault of masked-off "
                 "elements)");
        if (!nsig) snprintf(msg + strlen(msg), len - strlen(msg), ": %s", emsg);
        return VXD_DIFF;
    }
    if (s != VX_LIMIT || done != 1) {
        snprintf(msg, len, "%s: bytes %s: executor stopped (status %d: %s)", f->name, hex,
                 (int)s, emsg);
        return VXD_DIFF;
    }

    /* compare */
    uint64_t want_rip = nat.exit_kind ? taken : (uint64_t)(uintptr_t)code + blen;
    if (cpu.rip != want_rip) {
        snprintf(msg, len, "%s: bytes %s: rip 0x%llx, native 0x%llx", f->name, hex,
                 (unsigned long long)cpu.rip, (unsigned long long)want_rip);
        return VXD_DIFF;
    }
    static const char *const gname[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi",
                                          "rdi", "r8", "r9", "r10", "r11", "r12", "r13",
                                          "r14", "r15"};
    for (int i = 0; i < 16; i++)
        if (cpu.gpr[i] != nat.gpr[i]) {
            snprintf(msg, len, "%s: bytes %s: %s = 0x%llx, native 0x%llx (before 0x%llx)",
                     f->name, hex, gname[i], (unsigned long long)cpu.gpr[i],
                     (unsigned long long)nat.gpr[i], (unsigned long long)st.gpr[i]);
            return VXD_DIFF;
        }
    uint64_t fm = (VX_ARITH_FLAGS | VX_DF) & ~(uint64_t)f->undef_flags;
    if ((cpu.rflags ^ nat.rflags) & fm) {
        snprintf(msg, len, "%s: bytes %s: rflags 0x%llx, native 0x%llx (before 0x%llx)",
                 f->name, hex, (unsigned long long)(cpu.rflags & fm),
                 (unsigned long long)(nat.rflags & fm), (unsigned long long)(st.rflags & fm));
        return VXD_DIFF;
    }
    if (getenv("VXD_DEBUG")) {
        fprintf(stderr, "reg %u vvvv %u rm %u mem %u aaa %u z %u bc %u l %u w %u imm 0x%llx\n",
                e.reg, e.vvvv, e.rm, e.mem, e.aaa, e.z, e.bc, e.l, e.w,
                (unsigned long long)e.imm);
        for (unsigned q = 0; q < 2; q++) {
            unsigned rr = q ? e.rm : e.vvvv;
            fprintf(stderr, "z%u:", rr);
            for (int j = 0; j < 8; j++) fprintf(stderr, " %08x", ((const uint32_t *)st.z[rr])[j]);
            fprintf(stderr, "\n");
        }
    }
    for (int i = 0; i < 8; i++)
        if (cpu.k[i] != nat.k[i]) {
            snprintf(msg, len, "%s: bytes %s: k%d = 0x%llx, native 0x%llx (before 0x%llx)",
                     f->name, hex, i, (unsigned long long)cpu.k[i],
                     (unsigned long long)nat.k[i], (unsigned long long)st.k[i]);
            return VXD_DIFF;
        }
    for (int i = 0; i < 32; i++)
        if (memcmp(cpu.z[i].b, nat.z[i], 64)) {
            int j = 0;
            while (cpu.z[i].b[j] == nat.z[i][j]) j++;
            snprintf(msg, len, "%s: bytes %s: zmm%d byte %d = 0x%02x, native 0x%02x (before "
                     "0x%02x)", f->name, hex, i, j, cpu.z[i].b[j], nat.z[i][j], st.z[i][j]);
            return VXD_DIFF;
        }
    if (memcmp(data, native_data, DATA_SIZE)) {
        int j = 0;
        while (data[j] == native_data[j]) j++;
        snprintf(msg, len, "%s: bytes %s: memory byte %d = 0x%02x, native 0x%02x", f->name,
                 hex, j, data[j], native_data[j]);
        return VXD_DIFF;
    }
    return VXD_SAME;
}
