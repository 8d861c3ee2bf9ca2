/* vexec.c — see vexec.h.  Semantics from the Intel SDM (Vol. 2, instruction pages; Vol. 1
 * ch. 15 for masking, 2.7.5 for compressed disp8*N); the decoder from SDM Vol. 2 ch. 2. */
#include "emu/vexec.h"

#include "emu/gf256.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- context ------------------------------------------------------------------------------ */

struct vx {
    struct vx_cpu *c;
    const struct vx_env *env;
    char *msg;
    size_t msglen;
    uint64_t next; /* rip of the next instruction */
};

typedef int (*vec_fn)(struct vx *x, const struct vx_insn *in, union vx_vreg *out,
                      const union vx_vreg *d, const union vx_vreg *a, const union vx_vreg *b,
                      unsigned vl);
typedef int (*spec_fn)(struct vx *x, const struct vx_insn *in);

/* The handlers' two signatures, for the table's fn column: a vector handler computes out from
 * d (the destination's old value), a and b (the sources, by the form's kind: exec_vec) at vector
 * length vl; a special or scalar handler does all of its instruction.  Each uses what it needs. */
#define VX_UNUSED __attribute__((unused))
#define VEC_FN(name)                                                                           \
    static int name(VX_UNUSED struct vx *x, VX_UNUSED const struct vx_insn *in, union vx_vreg *o, \
                    VX_UNUSED const union vx_vreg *d, VX_UNUSED const union vx_vreg *a,         \
                    VX_UNUSED const union vx_vreg *b, VX_UNUSED unsigned vl)
#define SPEC_FN(name) static int name(VX_UNUSED struct vx *x, VX_UNUSED const struct vx_insn *in)

static int fault(struct vx *x, const char *what, uint64_t addr, size_t n)
{
    if (x->msg && x->msglen && !x->msg[0])
        snprintf(x->msg, x->msglen, "%s of %zu byte%s at 0x%llx failed", what, n,
                 n == 1 ? "" : "s", (unsigned long long)addr);
    return -1;
}

static int rd(struct vx *x, uint64_t a, void *p, size_t n)
{
    if (!n) return 0;
    return x->env->read(x->env->ctx, a, p, n) ? fault(x, "read", a, n) : 0;
}

static int wr(struct vx *x, uint64_t a, const void *p, size_t n)
{
    if (!n) return 0;
    return x->env->write(x->env->ctx, a, p, n) ? fault(x, "write", a, n) : 0;
}

static unsigned vlen(const struct vx_insn *in) { return 16u << in->l; }

static int masked(const struct vx_insn *in) { return in->enc == VX_ENC_EVEX && in->aaa; }

static uint64_t wmask(const struct vx *x, const struct vx_insn *in)
{
    return masked(in) ? x->c->k[in->aaa] : ~0ull;
}

static uint64_t ea(const struct vx *x, const struct vx_insn *in)
{
    uint64_t a = (uint64_t)in->disp;
    if (in->base == 16)
        a += x->next;
    else if (in->base >= 0)
        a += x->c->gpr[in->base];
    if (in->index >= 0) a += x->c->gpr[in->index] << in->scale;
    return a;
}

/* Reads the elements of [a, a+n) whose mask bit (element size es) is set, in runs of adjacent
 * active elements; inactive bytes become 0. */
static int rd_masked(struct vx *x, uint64_t a, uint8_t *p, unsigned n, unsigned es, uint64_t m)
{
    memset(p, 0, n);
    unsigned ne = n / es;
    for (unsigned i = 0; i < ne;) {
        if (!((m >> i) & 1)) { i++; continue; }
        unsigned j = i;
        while (j < ne && ((m >> j) & 1)) j++;
        if (rd(x, a + i * es, p + i * es, (j - i) * es)) return -1;
        i = j;
    }
    return 0;
}

static int wr_masked(struct vx *x, uint64_t a, const uint8_t *p, unsigned n, unsigned es,
                     uint64_t m)
{
    unsigned ne = n / es;
    for (unsigned i = 0; i < ne;) {
        if (!((m >> i) & 1)) { i++; continue; }
        unsigned j = i;
        while (j < ne && ((m >> j) & 1)) j++;
        if (wr(x, a + i * es, p + i * es, (j - i) * es)) return -1;
        i = j;
    }
    return 0;
}

static uint64_t lowbits(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

static int misaligned(struct vx *x, uint64_t a, unsigned n)
{
    if (x->msg && x->msglen)
        snprintf(x->msg, x->msglen, "misaligned %u-byte access at 0x%llx (#GP)", n,
                 (unsigned long long)a);
    return -1;
}

/* The rm source operand of a vector form: a register, a memory vector (masked per element
 * when the form is element-wise), a fixed-size memory operand, or an embedded broadcast. */
static int load_rm(struct vx *x, const struct vx_insn *in, union vx_vreg *b, unsigned vl)
{
    const struct vx_form *f = in->f;
    if (!in->mem) {
        *b = x->c->z[in->rm];
        return 0;
    }
    uint64_t a = ea(x, in);
    uint64_t m = wmask(x, in);
    if (in->bc) {
        unsigned es = f->bsz;
        for (unsigned q = vl / 8; q < 8; q++) b->q[q] = 0;
        if (masked(in) && !(m & lowbits(vl / f->esz))) { memset(b, 0, vl); return 0; }
        uint64_t e = 0;
        if (rd(x, a, &e, es)) return -1; /* little-endian: the element in the low bytes */
        uint64_t pat = es == 4 ? e | e << 32 : es == 2 ? e * 0x0001000100010001ull
                       : es == 1 ? e * 0x0101010101010101ull : e;
        for (unsigned i = 0; i < vl / 8; i++) b->q[i] = pat;
        return 0;
    }
    unsigned n = vx_mem_size(f, vl);
    /* the bytes past the operand are zero (the operand's own are all written below: whole
     * words from the one holding byte n, rather than a library call per load) */
    for (unsigned q = n / 8; q < 8; q++) b->q[q] = 0;
    /* An aligned move with no active element does not fault on this CPU (Zen 5, measured by
     * the reach test); with any active element it does, as the SDM says. */
    int any = !masked(in) || (m & lowbits(vl / f->esz));
    if ((f->flags & VF_ALIGN) && (a & (n - 1)) && any) return misaligned(x, a, n);
    if (masked(in) && (!f->msz || f->msz >= 0xf0) && (f->flags & VF_EWISE))
        return rd_masked(x, a, b->b, n, f->esz * n / vl, m); /* memory element per result one */
    /* A vector-sized operand of a form without fault suppression (permutes, unpacks, shuffles:
     * SDM exception class E4NF) is read whole even when no element is active: this CPU faults
     * there (measured by the reach test's guard-page cases). */
    if (masked(in) && !(m & lowbits(vl / f->esz)) && (f->msz && f->msz < 0xf0)) {
        memset(b, 0, n);
        return 0;
    }
    return rd(x, a, b->b, n);
}

/* Writes a vector result: merge- or zero-masking per element, bytes past n cleared (VEX and
 * EVEX zero the destination up to the maximum vector length). */
/* The byte lanes of 8-byte word q whose element (size es) has its bit set in mask m. */
static uint64_t lane_bytes(unsigned es, uint64_t m, unsigned q)
{
    static uint64_t of_bits[256]; /* 8 mask bits -> 8 bytes of 0x00/0xff */
    if (!of_bits[1])
        for (unsigned v = 0; v < 256; v++)
            for (unsigned i = 0; i < 8; i++)
                if ((v >> i) & 1) of_bits[v] |= 0xffull << (8 * i);
    unsigned per = 8 / es;
    unsigned bits = (unsigned)(m >> (q * per)) & ((1u << per) - 1);
    if (es == 1) return of_bits[bits];
    uint64_t r = 0, lane = es == 8 ? ~0ull : (1ull << (8 * es)) - 1;
    for (unsigned i = 0; i < per; i++)
        if ((bits >> i) & 1) r |= lane << (8 * es * i);
    return r;
}

static void wb_vec(struct vx *x, const struct vx_insn *in, unsigned dst, union vx_vreg *out,
                   unsigned n)
{
    union vx_vreg *d = &x->c->z[dst];
    if (!masked(in)) { /* constant sizes: inline copies, no library calls */
        switch (n) {
        case 64: memcpy(d, out, 64); return;
        case 32: memcpy(d, out, 32); memset(d->b + 32, 0, 32); return;
        case 16: memcpy(d, out, 16); memset(d->b + 16, 0, 48); return;
        default: break;
        }
    } else if (!(n & 7) && in->f->esz <= 8) { /* merge by 8-byte words with a byte mask */
        unsigned nq = n / 8, es = in->f->esz;
        uint64_t m = x->c->k[in->aaa];
        for (unsigned q = 0; q < nq; q++) {
            uint64_t keep = lane_bytes(es, m, q);
            out->q[q] = (out->q[q] & keep) | (in->z ? 0 : d->q[q] & ~keep);
        }
        memset(out->b + n, 0, 64 - n);
        memcpy(d, out, 64);
        return;
    }
    if (masked(in)) {
        unsigned es = in->f->esz;
        uint64_t m = x->c->k[in->aaa];
        for (unsigned i = 0; i < n / es; i++)
            if (!((m >> i) & 1)) {
                if (in->z)
                    memset(out->b + i * es, 0, es);
                else
                    memcpy(out->b + i * es, d->b + i * es, es);
            }
    }
    memset(out->b + n, 0, 64 - n);
    *d = *out;
}

/* ---- vector kinds ------------------------------------------------------------------------- */

/* Zeroes the bytes of a register past a vl-byte result (VEX and EVEX clear up to the maximum
 * vector length). */
static void clear_upper(union vx_vreg *d, unsigned vl)
{
    switch (vl) {
    case 16: memset(d->b + 16, 0, 48); break;
    case 32: memset(d->b + 32, 0, 32); break;
    default: break;
    }
}

VEC_FN(v_mov);

/* in_place: the form's handler may write the destination register itself (see
 * writes_in_place): an unmasked result then needs no temporary, no clearing of it and no
 * copy back, which were half the time of a simple instruction. */
static int exec_vec(struct vx *x, const struct vx_insn *in, int in_place)
{
    const struct vx_form *f = in->f;
    vec_fn fn = (vec_fn)f->fn;
    unsigned vl = vlen(in);
    union vx_vreg out, bmem;
    const union vx_vreg *b = &bmem;
    struct vx_cpu *c = x->c;
    /* Register sources are passed in place: handlers write only out, and the destination is
     * written after they return. */
    if (f->kind != VK_MR) {
        if (in->mem) {
            if (load_rm(x, in, &bmem, vl)) return -1;
        } else {
            b = &c->z[in->rm];
        }
    }
    if (in_place && !masked(in)) {
        unsigned dst = f->kind == VK_VM ? in->vvvv : in->reg;
        union vx_vreg *d = &c->z[dst];
        /* the operands as the switch below passes them: d is the destination's old value */
        const union vx_vreg *a = f->kind == VK_RVM ? &c->z[in->vvvv] : b;
        fn(x, in, d, d, a, b, vl); /* in-place handlers cannot fail */
        clear_upper(d, vl);
        return 0;
    }
    if (f->kind == VK_MR && in->mem && !masked(in) && fn == v_mov) {
        /* a plain store (the AVX2 kernels' spills): straight from the register */
        unsigned n = f->msz ? f->msz : vl;
        uint64_t addr = ea(x, in);
        if ((f->flags & VF_ALIGN) && (addr & (n - 1))) return misaligned(x, addr, n);
        return wr(x, addr, c->z[in->reg].b, n);
    }
    memset(&out, 0, sizeof out);
    switch (f->kind) {
    case VK_RVM:
        if (fn(x, in, &out, &c->z[in->reg], &c->z[in->vvvv], b, vl)) return -1;
        wb_vec(x, in, in->reg, &out, vl);
        return 0;
    case VK_RM:
        if (fn(x, in, &out, &c->z[in->reg], b, b, vl)) return -1;
        wb_vec(x, in, in->reg, &out, vl);
        return 0;
    case VK_VM:
        if (fn(x, in, &out, &c->z[in->vvvv], b, b, vl)) return -1;
        wb_vec(x, in, in->vvvv, &out, vl);
        return 0;
    case VK_MR: {
        unsigned n = f->msz ? f->msz : vl;
        const union vx_vreg *a = &c->z[in->reg];
        if (fn(x, in, &out, a, a, a, vl)) return -1;
        if (!in->mem) {
            wb_vec(x, in, in->rm, &out, n);
            return 0;
        }
        uint64_t addr = ea(x, in);
        int any = !masked(in) || (c->k[in->aaa] & lowbits(n / f->esz));
        if ((f->flags & VF_ALIGN) && (addr & (n - 1)) && any) return misaligned(x, addr, n);
        if (masked(in)) return wr_masked(x, addr, out.b, n, f->esz, c->k[in->aaa]);
        return wr(x, addr, out.b, n);
    }
    case VK_KVM: {
        const union vx_vreg *a = &c->z[in->vvvv];
        if (fn(x, in, &out, a, a, b, vl)) return -1;
        uint64_t r = out.q[0] & lowbits(vl / f->esz);
        if (masked(in)) r &= c->k[in->aaa];
        c->k[in->reg & 7] = r;
        return 0;
    }
    }
    return 1;
}

/* ---- element helpers ---------------------------------------------------------------------- */

#define FOR_E(es, vl) for (unsigned i = 0; i < (vl) / (es); i++)

static uint64_t eget(const union vx_vreg *v, unsigned es, unsigned i)
{
    switch (es) {
    case 1: return v->b[i];
    case 2: return v->w[i];
    case 4: return v->d[i];
    default: return v->q[i];
    }
}

static void eset(union vx_vreg *v, unsigned es, unsigned i, uint64_t val)
{
    switch (es) {
    case 1: v->b[i] = (uint8_t)val; break;
    case 2: v->w[i] = (uint16_t)val; break;
    case 4: v->d[i] = (uint32_t)val; break;
    default: v->q[i] = val; break;
    }
}

static int64_t esext(uint64_t v, unsigned es)
{
    unsigned s = 64 - 8 * es;
    return (int64_t)(v << s) >> s;
}

/* ---- moves, broadcasts, inserts, extracts ------------------------------------------------- */

VEC_FN(v_mov)
{
    if (o == b) return 0; /* in place: nothing to move */
    if (vl == 64) memcpy(o->b, b->b, 64); /* constant sizes: inline copies */
    else if (vl == 32) memcpy(o->b, b->b, 32);
    else memcpy(o->b, b->b, 16);
    return 0;
}

VEC_FN(v_bcast)
{
    unsigned n = in->f->msz; /* the element or block, from the low bytes of the source */
    if (n <= 8) { /* one 8-byte pattern, stored by words: no call per element */
        uint64_t e = n == 8 ? b->q[0] : n == 4 ? b->d[0] : n == 2 ? b->w[0] : b->b[0];
        uint64_t pat = n == 1 ? e * 0x0101010101010101ull : n == 2 ? e * 0x0001000100010001ull
                       : n == 4 ? e | e << 32 : e;
        for (unsigned i = 0; i < vl / 8; i++) o->q[i] = pat;
        return 0;
    }
    for (unsigned i = 0; i < vl; i += n) memcpy(o->b + i, b->b, n);
    return 0;
}

/* vpbroadcastb/w/d/q from a general-purpose register (EVEX 7A/7B/7C) */
SPEC_FN(s_bcast_gpr)
{
    union vx_vreg o;
    uint64_t v = x->c->gpr[in->rm];
    unsigned es = in->f->esz, vl = vlen(in);
    for (unsigned i = 0; i < vl; i += es) memcpy(o.b + i, &v, es);
    wb_vec(x, in, in->reg, &o, vl);
    return 0;
}

VEC_FN(v_insert)
{
    unsigned n = in->f->msz, slots = vl / n;
    memcpy(o->b, a->b, vl);
    memcpy(o->b + (in->imm & (slots - 1)) * n, b->b, n);
    return 0;
}

VEC_FN(v_extract)
{
    unsigned n = in->f->msz, slots = vl / n;
    memcpy(o->b, a->b + (in->imm & (slots - 1)) * n, n);
    return 0;
}

/* vshufi32x4/64x2: result 128-bit lane j from src1 (vvvv) for the low half of the lanes, from
 * src2 (rm) for the high half, each chosen by an imm field (1 bit per lane at 256, 2 at 512) */
VEC_FN(v_shufi)
{
    unsigned lanes = vl / 16, bits = lanes == 4 ? 2 : 1;
    for (unsigned j = 0; j < lanes; j++) {
        unsigned sel = (unsigned)(in->imm >> (bits * j)) & ((1u << bits) - 1);
        memcpy(o->b + 16 * j, (j < lanes / 2 ? a : b)->b + 16 * sel, 16);
    }
    return 0;
}

/* vpblendd / vpblendw (VEX, imm8 chooses per dword / per word of each 128-bit lane) */
VEC_FN(v_blendi)
{
    unsigned es = in->f->esz; /* imm bit i % 8 chooses element i (words repeat per lane) */
    FOR_E(es, vl) eset(o, es, i, ((in->imm >> (i % 8)) & 1) ? eget(b, es, i) : eget(a, es, i));
    return 0;
}

/* vpmovzx / vpmovsx: element i of the result from element i of the low part of the source */
VEC_FN(v_pmovx)
{
    unsigned es = in->f->esz, ss = es / (in->f->msz & 15);
    int sign = (in->op & 0xf0) == 0x20;
    FOR_E(es, vl) {
        uint64_t v = eget(b, ss, i);
        eset(o, es, i, sign ? (uint64_t)esext(v, ss) : v);
    }
    return 0;
}

VEC_FN(v_perm2i128)
{
    for (int h = 0; h < 2; h++) {
        unsigned ctl = (unsigned)(in->imm >> (4 * h)) & 0xf;
        const union vx_vreg *s = (ctl & 2) ? b : a;
        if (ctl & 8)
            memset(o->b + 16 * h, 0, 16);
        else
            memcpy(o->b + 16 * h, s->b + 16 * (ctl & 1), 16);
    }
    return 0;
}

/* ---- logic, arithmetic -------------------------------------------------------------------- */

#define QOP(name, expr)                                                                        \
    VEC_FN(name)                                                                               \
    {                                                                                          \
        uint64_t r[8]; /* whole registers into a temporary: o may be a or b, r is neither, */ \
        for (unsigned i = 0; i < 8; i++) r[i] = (expr); /* so the loop is vectorised */       \
        if (vl == 64) memcpy(o, r, 64);                                                        \
        else if (vl == 32) memcpy(o, r, 32);                                                   \
        else memcpy(o, r, 16);                                                                 \
        return 0;                                                                              \
    }
QOP(v_and, a->q[i] & b->q[i])
QOP(v_andn, ~a->q[i] & b->q[i])
QOP(v_or, a->q[i] | b->q[i])
QOP(v_xor, a->q[i] ^ b->q[i])

VEC_FN(v_ternlog)
{
    unsigned imm = (unsigned)in->imm & 0xff;
    if (imm == 0x96) { /* three-way xor: most of the kernels' ternlogs */
        uint64_t r[8];
        for (unsigned i = 0; i < 8; i++) r[i] = d->q[i] ^ a->q[i] ^ b->q[i];
        if (vl == 64) memcpy(o, r, 64);
        else if (vl == 32) memcpy(o, r, 32);
        else memcpy(o, r, 16);
        return 0;
    }
    /* the operands copied first: o may be one of them (in place), and with copies the compiler
     * knows it is not, and runs the loop on whole vectors (half the instructions) */
    const union vx_vreg dc = *d, ac = *a, bc = *b;
    for (unsigned i = 0; i < vl / 8; i++) {
        uint64_t r = 0, p = dc.q[i], q = ac.q[i], s = bc.q[i];
        for (unsigned t = 0; t < 8; t++)
            if ((imm >> t) & 1)
                r |= ((t & 4) ? p : ~p) & ((t & 2) ? q : ~q) & ((t & 1) ? s : ~s);
        o->q[i] = r;
    }
    return 0;
}

#define EOP(name, expr)                                                                        \
    VEC_FN(name)                                                                               \
    {                                                                                          \
        unsigned es = in->f->esz;                                                              \
        FOR_E(es, vl) {                                                                        \
            uint64_t p = eget(a, es, i), q = eget(b, es, i);                                   \
            (void)p; (void)q;                                                                  \
            eset(o, es, i, (expr));                                                            \
        }                                                                                      \
        return 0;                                                                              \
    }
EOP(v_add, p + q)
EOP(v_sub, p - q)
EOP(v_cmpeq_v, p == q ? ~0ull : 0)
EOP(v_cmpgt_v, esext(p, es) > esext(q, es) ? ~0ull : 0)
EOP(v_minu, p < q ? p : q)
EOP(v_maxu, p > q ? p : q)
EOP(v_mins, esext(p, es) < esext(q, es) ? p : q)
EOP(v_maxs, esext(p, es) > esext(q, es) ? p : q)
EOP(v_mullo, p * q)
/* vpabsb/w/d/q: the unsigned result of |signed element|, so the most negative element stays
 * itself (0x80 for bytes: SDM, "the unsigned result 80H") */
EOP(v_abs, esext(p, es) < 0 ? -p : p)

VEC_FN(v_muludq)
{
    for (unsigned i = 0; i < vl / 8; i++)
        o->q[i] = (uint64_t)(uint32_t)a->q[i] * (uint32_t)b->q[i];
    return 0;
}

VEC_FN(v_muldq)
{
    for (unsigned i = 0; i < vl / 8; i++)
        o->q[i] = (uint64_t)((int64_t)(int32_t)a->q[i] * (int32_t)b->q[i]);
    return 0;
}

/* ---- shifts and rotates ------------------------------------------------------------------- */

enum { SH_LL, SH_RL, SH_RA, SH_ROL, SH_ROR };

static uint64_t shift1(uint64_t v, unsigned es, int kind, uint64_t n)
{
    unsigned w = 8 * es;
    uint64_t m = lowbits(w);
    v &= m;
    switch (kind) {
    case SH_LL: return n >= w ? 0 : (v << n) & m;
    case SH_RL: return n >= w ? 0 : v >> n;
    case SH_RA: return (uint64_t)(esext(v, es) >> (n >= w ? w - 1 : n)) & m;
    case SH_ROL: n &= w - 1; return n ? ((v << n) | (v >> (w - n))) & m : v;
    default: n &= w - 1; return n ? ((v >> n) | (v << (w - n))) & m : v;
    }
}

/* by immediate (VK_VM: b is the source), by the count in an xmm/m128 (VK_RVM: a is the source,
 * b the count), or per element (VK_RVM "v" forms); the kind of shift is the handler's */
static inline void shift_imm(const struct vx_insn *in, union vx_vreg *o,
                             VX_UNUSED const union vx_vreg *a, const union vx_vreg *b,
                             unsigned vl, int k)
{
    unsigned es = in->f->esz;
    FOR_E(es, vl) eset(o, es, i, shift1(eget(b, es, i), es, k, (uint64_t)in->imm & 0xff));
}

static inline void shift_xmm(const struct vx_insn *in, union vx_vreg *o, const union vx_vreg *a,
                             const union vx_vreg *b, unsigned vl, int k)
{
    unsigned es = in->f->esz;
    uint64_t n = b->q[0]; /* before o (maybe b) is written */
    FOR_E(es, vl) eset(o, es, i, shift1(eget(a, es, i), es, k, n));
}

static inline void shift_var(const struct vx_insn *in, union vx_vreg *o, const union vx_vreg *a,
                             const union vx_vreg *b, unsigned vl, int k)
{
    unsigned es = in->f->esz;
    FOR_E(es, vl) eset(o, es, i, shift1(eget(a, es, i), es, k, eget(b, es, i)));
}

#define SHIFT_FN(name, how, kind)                                                              \
    VEC_FN(name)                                                                               \
    {                                                                                          \
        how(in, o, a, b, vl, kind);                                                            \
        return 0;                                                                              \
    }
SHIFT_FN(v_sll_i, shift_imm, SH_LL)
SHIFT_FN(v_srl_i, shift_imm, SH_RL)
SHIFT_FN(v_sra_i, shift_imm, SH_RA)
SHIFT_FN(v_rol_i, shift_imm, SH_ROL)
SHIFT_FN(v_ror_i, shift_imm, SH_ROR)
SHIFT_FN(v_sll_x, shift_xmm, SH_LL)
SHIFT_FN(v_srl_x, shift_xmm, SH_RL)
SHIFT_FN(v_sra_x, shift_xmm, SH_RA)
SHIFT_FN(v_sll_v, shift_var, SH_LL)
SHIFT_FN(v_srl_v, shift_var, SH_RL)
SHIFT_FN(v_sra_v, shift_var, SH_RA)
SHIFT_FN(v_rol_v, shift_var, SH_ROL)
SHIFT_FN(v_ror_v, shift_var, SH_ROR)

/* vpshld/vpshrd (VBMI2): concatenate and shift, immediate or per-element count (var: the
 * vpshldv/vpshrdv forms) */
static inline void shld(const struct vx_insn *in, union vx_vreg *o, const union vx_vreg *d,
                        const union vx_vreg *a, const union vx_vreg *b, unsigned vl, int right,
                        int var)
{
    unsigned es = in->f->esz, w = 8 * es;
    FOR_E(es, vl) {
        uint64_t hi, lo, n;
        if (var) { /* vpshldv: dst = (dst:src2) ; count per element in src3 */
            hi = eget(d, es, i); lo = eget(a, es, i); n = eget(b, es, i) & (w - 1);
            if (right) { uint64_t t = hi; hi = lo; lo = t; } /* vpshrdv: (src2:dst) >> n */
        } else {
            hi = eget(a, es, i); lo = eget(b, es, i); n = (uint64_t)in->imm & (w - 1);
            if (right) { uint64_t t = hi; hi = lo; lo = t; } /* vpshrd: (src2:src1) >> n */
        }
        uint64_t r;
        if (!right)
            r = n ? (hi << n) | (lo >> (w - n)) : hi;
        else
            r = n ? (lo >> n) | (hi << (w - n)) : lo;
        eset(o, es, i, r & lowbits(w));
    }
}

#define SHLD_FN(name, right, var)                                                              \
    VEC_FN(name)                                                                               \
    {                                                                                          \
        shld(in, o, d, a, b, vl, right, var);                                                  \
        return 0;                                                                              \
    }
SHLD_FN(v_shld_i, 0, 0)
SHLD_FN(v_shrd_i, 1, 0)
SHLD_FN(v_shld_v, 0, 1)
SHLD_FN(v_shrd_v, 1, 1)

VEC_FN(v_bslq)
{
    unsigned n = (unsigned)in->imm & 0xff;
    int left = in->f->reg == 7;
    for (unsigned l = 0; l < vl; l += 16)
        for (unsigned i = 0; i < 16; i++) {
            int s = left ? (int)i - (int)n : (int)(i + n);
            o->b[l + i] = (s >= 0 && s < 16) ? b->b[l + s] : 0;
        }
    return 0;
}

/* ---- shuffles, permutes, unpacks, align ---------------------------------------------------- */

VEC_FN(v_pshufb)
{
    for (unsigned i = 0; i < vl; i++)
        o->b[i] = (b->b[i] & 0x80) ? 0 : a->b[(i & ~15u) + (b->b[i] & 15)];
    return 0;
}

VEC_FN(v_pshufd)
{
    for (unsigned i = 0; i < vl / 4; i++)
        o->d[i] = b->d[(i & ~3u) + ((in->imm >> (2 * (i & 3))) & 3)];
    return 0;
}

VEC_FN(v_pshufhlw)
{
    unsigned hi = in->pp == 2; /* F3: vpshufhw */
    memcpy(o->b, b->b, vl);
    for (unsigned l = 0; l < vl / 2; l += 8)
        for (unsigned i = 0; i < 4; i++)
            o->w[l + 4 * hi + i] = b->w[l + 4 * hi + ((in->imm >> (2 * i)) & 3)];
    return 0;
}

VEC_FN(v_permq_imm)
{
    for (unsigned i = 0; i < vl / 8; i++)
        o->q[i] = b->q[(i & ~3u) + ((in->imm >> (2 * (i & 3))) & 3)];
    return 0;
}

/* vpermb/w/d/q: index in vvvv (a), table in rm (b) */
VEC_FN(v_perm)
{
    unsigned es = in->f->esz, n = vl / es;
    FOR_E(es, vl) eset(o, es, i, eget(b, es, eget(a, es, i) & (n - 1)));
    return 0;
}

/* vpermi2*: index in the destination, tables vvvv (low) and rm (high).
 * vpermt2*: table low in the destination, index in vvvv, table high in rm. */
static inline void perm2(const struct vx_insn *in, union vx_vreg *o, const union vx_vreg *idx,
                         const union vx_vreg *lo, const union vx_vreg *hi, unsigned vl)
{
    unsigned es = in->f->esz, n = vl / es;
    FOR_E(es, vl) {
        uint64_t j = eget(idx, es, i);
        eset(o, es, i, eget((j & n) ? hi : lo, es, j & (n - 1)));
    }
}

VEC_FN(v_permi2)
{
    perm2(in, o, d, a, b, vl);
    return 0;
}

VEC_FN(v_permt2)
{
    perm2(in, o, a, d, b, vl);
    return 0;
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HAVE_HOST_SSSE3 1
/* The host's vector paths of the fast forms, chosen once by cpuid: AVX2 (32 bytes a step),
 * SSSE3 (pshufb, 16 bytes) or portable C.  ASMDIFF_VX_HOST=portable|ssse3|avx2 asks for a
 * lower one, so each path can be compared with the CPU on one machine (the reach test's
 * host-path runs).  Never the host's GFNI or AVX-512: the reach test compares this executor
 * with them, and the same instruction on both sides would prove nothing. */
static int host_level_chosen = -1;
static int host_level_choose(void)
{
    int level;
    int have = __builtin_cpu_supports("avx2") ? VX_HOST_AVX2
               : __builtin_cpu_supports("ssse3") ? VX_HOST_SSSE3 : VX_HOST_PORTABLE;
    int want = have;
    const char *e = getenv("ASMDIFF_VX_HOST");
    if (e && *e) {
        if (!strcmp(e, "portable")) want = VX_HOST_PORTABLE;
        else if (!strcmp(e, "ssse3")) want = VX_HOST_SSSE3;
        else if (!strcmp(e, "avx2")) want = VX_HOST_AVX2;
        else {
            fprintf(stderr, "ASMDIFF_VX_HOST=%s: expected portable, ssse3 or avx2\n", e);
            exit(2);
        }
    }
    level = want < have ? want : have;
    host_level_chosen = level;
    return level;
}
static inline int host_level(void)
{
    return host_level_chosen >= 0 ? host_level_chosen : host_level_choose();
}
static int host_has_ssse3(void) { return host_level() >= VX_HOST_SSSE3; }

/* unpack_ssse3's shuffles 32 bytes a step (each 16-byte lane read before it is written) */
__attribute__((target("avx2"))) static void unpack_avx2(uint8_t *o, const uint8_t *a,
                                                        const uint8_t *b, unsigned vl,
                                                        const uint8_t *mask_a,
                                                        const uint8_t *mask_b)
{
    const __m256i from_a = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)mask_a));
    const __m256i from_b = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)mask_b));
    for (unsigned l = 0; l < vl; l += 32) {
        __m256i va = _mm256_loadu_si256((const __m256i *)(a + l));
        __m256i vb = _mm256_loadu_si256((const __m256i *)(b + l));
        _mm256_storeu_si256((__m256i *)(o + l), _mm256_or_si256(_mm256_shuffle_epi8(va, from_a),
                                                                _mm256_shuffle_epi8(vb, from_b)));
    }
}

/* vpunpck{l,h}{bw,wd,dq,qdq} per 16-byte lane as two byte shuffles (SSSE3 pshufb, not the
 * host's own unpack): result byte j is byte of a or b by the element it belongs to. */
__attribute__((target("ssse3"))) static void unpack_ssse3(uint8_t *o, const uint8_t *a,
                                                          const uint8_t *b, unsigned vl,
                                                          unsigned es, unsigned hi)
{
    static uint8_t masks[2][4][2][16]; /* [hi][log2 es][from a, from b] */
    static int ready;
    if (!ready) {
        for (unsigned h = 0; h < 2; h++)
            for (unsigned lg = 0; lg < 4; lg++) {
                unsigned size = 1u << lg, half = 8 / size;
                for (unsigned j = 0; j < 16; j++) {
                    unsigned k = j / size, src = (h * half + k / 2) * size + j % size;
                    masks[h][lg][0][j] = (k & 1) ? 0x80 : (uint8_t)src;
                    masks[h][lg][1][j] = (k & 1) ? (uint8_t)src : 0x80;
                }
            }
        ready = 1;
    }
    unsigned lg = es == 1 ? 0 : es == 2 ? 1 : es == 4 ? 2 : 3;
    if (vl >= 32 && host_level() >= VX_HOST_AVX2) {
        unpack_avx2(o, a, b, vl, masks[hi][lg][0], masks[hi][lg][1]);
        return;
    }
    const __m128i from_a = _mm_loadu_si128((const __m128i *)masks[hi][lg][0]);
    const __m128i from_b = _mm_loadu_si128((const __m128i *)masks[hi][lg][1]);
    for (unsigned l = 0; l < vl; l += 16) {
        __m128i va = _mm_loadu_si128((const __m128i *)(a + l));
        __m128i vb = _mm_loadu_si128((const __m128i *)(b + l));
        _mm_storeu_si128((__m128i *)(o + l), _mm_or_si128(_mm_shuffle_epi8(va, from_a),
                                                          _mm_shuffle_epi8(vb, from_b)));
    }
}
#else
#define HAVE_HOST_SSSE3 0
static int host_level(void) { return VX_HOST_PORTABLE; }
#endif

int vx_host_path(void) { return host_level(); }

VEC_FN(v_unpack)
{
    unsigned es = in->f->esz;
    unsigned hi = (in->op >= 0x68 && in->op <= 0x6a) || in->op == 0x6d;
#if HAVE_HOST_SSSE3
    if (host_has_ssse3()) {
        unpack_ssse3(o->b, a->b, b->b, vl, es, hi);
        return 0;
    }
#endif
    /* one loop per element type (constant trip counts, typed copies): the generic element
     * accessors were a twelfth of an emulated ARIA call.  From copies: o may be a or b (the
     * form writes in place, writes_in_place) */
    const union vx_vreg ac = *a, bc = *b;
    a = &ac;
    b = &bc;
#define UNPACK(field, per)                                                                     \
    for (unsigned l = 0; l < vl / 16; l++)                                                     \
        for (unsigned i = 0; i < (per) / 2; i++) {                                             \
            unsigned s = l * (per) + hi * ((per) / 2) + i;                                     \
            o->field[l * (per) + 2 * i] = a->field[s];                                         \
            o->field[l * (per) + 2 * i + 1] = b->field[s];                                     \
        }
    switch (es) {
    case 1: UNPACK(b, 16) break;
    case 2: UNPACK(w, 8) break;
    case 4: UNPACK(d, 4) break;
    default: UNPACK(q, 2) break;
    }
#undef UNPACK
    return 0;
}

VEC_FN(v_palignr)
{
    unsigned n = (unsigned)in->imm & 0xff;
    for (unsigned l = 0; l < vl; l += 16)
        for (unsigned i = 0; i < 16; i++) {
            unsigned s = i + n;
            o->b[l + i] = s < 16 ? b->b[l + s] : s < 32 ? a->b[l + s - 16] : 0;
        }
    return 0;
}

VEC_FN(v_valign)
{
    unsigned es = in->f->esz, n = vl / es, s = (unsigned)in->imm & (n - 1);
    FOR_E(es, vl) {
        unsigned j = i + s;
        eset(o, es, i, j < n ? eget(b, es, j) : eget(a, es, j - n));
    }
    return 0;
}

/* ---- compares into masks ------------------------------------------------------------------ */

static int cmp_pred(uint64_t p, uint64_t q, unsigned es, unsigned pred, int sign)
{
    int lt = sign ? esext(p, es) < esext(q, es) : p < q;
    int eq = p == q;
    switch (pred & 7) {
    case 0: return eq;
    case 1: return lt;
    case 2: return lt || eq;
    case 3: return 0;
    case 4: return !eq;
    case 5: return !lt;
    case 6: return !lt && !eq;
    default: return 1;
    }
}

/* vpcmp{eq,gt,,u}{b,w,d,q} into a mask: predicate pred (SDM VPCMP's imm8 encoding), signed or
 * unsigned elements */
static inline void kcmp(const struct vx_insn *in, union vx_vreg *o, const union vx_vreg *a,
                        const union vx_vreg *b, unsigned vl, unsigned pred, int sign)
{
    unsigned es = in->f->esz;
    uint64_t r = 0;
    /* one loop per element size (typed reads, no per-element switch): Camellia's cmpmask
     * form's vpcmpltb took a tenth of its emulated call through the generic accessors */
    /* the predicate's answer for greater (bit 0), equal (bit 1) and less (bit 2), once */
    unsigned truth = (unsigned)cmp_pred(1, 0, 8, pred, 0) |
                     (unsigned)cmp_pred(0, 0, 8, pred, 0) << 1 |
                     (unsigned)cmp_pred(0, 1, 8, pred, 0) << 2;
#define KCMP(field)                                                                            \
    for (unsigned i = 0; i < vl / es; i++) {                                                   \
        uint64_t p = a->field[i], q = b->field[i];                                             \
        int lt = sign ? esext(p, es) < esext(q, es) : p < q;                                   \
        r |= (uint64_t)((truth >> (lt ? 2 : p == q)) & 1) << i;                                \
    }
    switch (es) {
    case 1: KCMP(b) break;
    case 2: KCMP(w) break;
    case 4: KCMP(d) break;
    default: KCMP(q) break;
    }
#undef KCMP
    o->q[0] = r;
}

VEC_FN(k_cmpeq)
{
    kcmp(in, o, a, b, vl, 0, 0);
    return 0;
}

VEC_FN(k_cmpgt)
{
    kcmp(in, o, a, b, vl, 6, 1);
    return 0;
}

VEC_FN(k_cmp_imm)
{
    kcmp(in, o, a, b, vl, (unsigned)in->imm, 1);
    return 0;
}

VEC_FN(k_cmpu_imm)
{
    kcmp(in, o, a, b, vl, (unsigned)in->imm, 0);
    return 0;
}

VEC_FN(k_test)
{
    unsigned es = in->f->esz;
    int nm = in->pp == 2;
    uint64_t r = 0;
    FOR_E(es, vl) r |= (uint64_t)(((eget(a, es, i) & eget(b, es, i)) != 0) ^ nm) << i;
    o->q[0] = r;
    return 0;
}

/* vpmovm2b/w/d/q and vpmovb2m/w2m/d2m/q2m */
SPEC_FN(s_movm2)
{
    unsigned es = in->f->esz, vl = vlen(in);
    union vx_vreg o;
    uint64_t m = x->c->k[in->rm & 7];
    memset(&o, 0, sizeof o);
    FOR_E(es, vl) eset(&o, es, i, ((m >> i) & 1) ? ~0ull : 0);
    memset(o.b + vl, 0, 64 - vl);
    x->c->z[in->reg] = o;
    return 0;
}

SPEC_FN(s_mov2m)
{
    unsigned es = in->f->esz, vl = vlen(in);
    uint64_t r = 0;
    FOR_E(es, vl) r |= (eget(&x->c->z[in->rm], es, i) >> (8 * es - 1) & 1) << i;
    x->c->k[in->reg & 7] = r;
    return 0;
}

/* vpblendm*: active elements from rm, inactive ones from vvvv (merging) or zero */
SPEC_FN(s_blendm)
{
    unsigned es = in->f->esz, vl = vlen(in);
    union vx_vreg b, o;
    if (load_rm(x, in, &b, vl)) return -1;
    const union vx_vreg *a = &x->c->z[in->vvvv];
    uint64_t m = wmask(x, in);
    memset(&o, 0, sizeof o);
    FOR_E(es, vl) eset(&o, es, i, ((m >> i) & 1) ? eget(&b, es, i) : in->z ? 0 : eget(a, es, i));
    x->c->z[in->reg] = o;
    return 0;
}

/* ---- GF(2^8): GFNI and AES ---------------------------------------------------------------- */

/* The field's arithmetic is emu/gf256.h's (the GFNI constant generators use it too); the
 * tables and the tower below are built from it. */
static uint8_t gf_inv_tab[256], aes_sbox[256], aes_isbox[256];

static void tower_init(void);

static void gf_init(void)
{
    if (aes_sbox[0]) return;
    for (unsigned a = 1; a < 256; a++) gf_inv_tab[a] = gf256_inv((uint8_t)a);
    for (unsigned a = 0; a < 256; a++) {
        uint8_t v = gf_inv_tab[a], s = v;
        for (int r = 1; r <= 4; r++) s ^= (uint8_t)((v << r) | (v >> (8 - r)));
        s ^= 0x63;
        aes_sbox[a] = s;
        aes_isbox[s] = (uint8_t)a;
    }
    tower_init();
}

/* The GF(2^8) inverse 16 or 32 bytes at a time, with pshufb's 16-entry look-ups only.  The
 * field is taken (a linear map: two nibble tables) to the isomorphic tower GF((2^4)^2): a byte
 * is a Y + b, a and b in GF(16) = GF(2)[x]/(x^4 + x + 1), Y^2 = Y + lambda.  There
 * (a Y + b)^-1 = (a Y + (a + b)) / D with D = a^2 lambda + a b + b^2, and the products of
 * GF(16) are sums of logarithms: log a + log b (saturating), reduced modulo 15 by
 * min(s, s - 15), then the exponent table; log 0 is 0xf0, so any sum with it has bit 7 set and
 * pshufb gives 0.  The way back and the instruction's own affine map are one linear map of
 * (c, d) = the inverse's halves: two more nibble tables, per matrix.  The tower and the
 * isomorphism are found at start-up by search (no constants carried), and the scalar mirror of
 * the vector steps is checked against gf_inv_tab for all 256 bytes (tw.ok). */
static struct tower {
    int ok;
    uint8_t a_lo[16], a_hi[16], b_lo[16], b_hi[16]; /* x -> a, b by x's low and high nibble */
    /* GF(16): log (0xf0 for 0), 2^i, a^2 lambda, b^2, -log */
    uint8_t log[16], exp[16], sql[16], sq[16], ilog[16];
    uint8_t from_c[16], from_d[16];                       /* back: (c Y) and d as AES bytes */
} tw;

static uint8_t gf16_mul(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    for (int i = 0; i < 4; i++) {
        if ((b >> i) & 1) r ^= a;
        a = (uint8_t)(a << 1);
        if (a & 0x10) a ^= 0x13;
    }
    return r;
}

static uint8_t tower_mul(uint8_t p, uint8_t q, uint8_t lambda)
{
    uint8_t a1 = p >> 4, b1 = p & 15, a2 = q >> 4, b2 = q & 15, aa = gf16_mul(a1, a2);
    return (uint8_t)((aa ^ gf16_mul(a1, b2) ^ gf16_mul(b1, a2)) << 4 |
                     (gf16_mul(aa, lambda) ^ gf16_mul(b1, b2)));
}

static uint8_t shuf1(const uint8_t t[16], uint8_t i) { return (i & 0x80) ? 0 : t[i & 15]; }

static uint8_t log_mul1(uint8_t p, uint8_t q) /* exactly as the vector steps do it */
{
    unsigned s = p + q > 255 ? 255 : p + q;
    uint8_t t = (uint8_t)(s - 15);
    return shuf1(tw.exp, (uint8_t)s < t ? (uint8_t)s : t);
}

/* (c << 4 | d): the inverse of x in the tower */
static uint8_t tower_inv1(uint8_t x)
{
    uint8_t l = x & 15, h = x >> 4;
    uint8_t a = tw.a_lo[l] ^ tw.a_hi[h], b = tw.b_lo[l] ^ tw.b_hi[h];
    uint8_t la = shuf1(tw.log, a), lb = shuf1(tw.log, b);
    uint8_t D = shuf1(tw.sql, a) ^ shuf1(tw.sq, b) ^ log_mul1(la, lb);
    uint8_t ld = shuf1(tw.ilog, D);
    return (uint8_t)(log_mul1(la, ld) << 4 | log_mul1(shuf1(tw.log, a ^ b), ld));
}

static void tower_init(void)
{
    uint8_t lambda = 0; /* Y^2 + Y + lambda irreducible: no y with y^2 + y = lambda */
    for (uint8_t l = 1; l < 16 && !lambda; l++) {
        int root = 0;
        for (uint8_t y = 0; y < 16; y++) root |= (gf16_mul(y, y) ^ y) == l;
        if (!root) lambda = l;
    }
    uint8_t pw[9] = {1}; /* powers of g, a root of the AES polynomial in the tower */
    int found = 0;
    for (unsigned g = 2; g < 256 && !found; g++) {
        for (int i = 1; i <= 8; i++) pw[i] = tower_mul(pw[i - 1], (uint8_t)g, lambda);
        found = (pw[8] ^ pw[4] ^ pw[3] ^ pw[1] ^ pw[0]) == 0;
    }
    if (!found || !lambda) return;
    uint8_t phi[256], back[256], seen[256] = {0};
    for (unsigned x = 0; x < 256; x++) {
        uint8_t v = 0;
        for (int i = 0; i < 8; i++)
            if ((x >> i) & 1) v ^= pw[i];
        phi[x] = v;
        back[v] = (uint8_t)x;
        if (seen[v]++) return; /* not a bijection */
    }
    for (unsigned n = 0; n < 16; n++) {
        tw.a_lo[n] = phi[n] >> 4;
        tw.a_hi[n] = phi[n << 4] >> 4;
        tw.b_lo[n] = phi[n] & 15;
        tw.b_hi[n] = phi[n << 4] & 15;
        tw.sql[n] = gf16_mul(gf16_mul((uint8_t)n, (uint8_t)n), lambda);
        tw.sq[n] = gf16_mul((uint8_t)n, (uint8_t)n);
        tw.from_c[n] = back[n << 4];
        tw.from_d[n] = back[n];
    }
    uint8_t e = 1;
    for (unsigned i = 0; i < 15; i++) {
        tw.exp[i] = e;
        tw.log[e] = (uint8_t)i;
        e = gf16_mul(e, 2);
    }
    tw.exp[15] = 1;
    tw.log[0] = 0xf0;
    tw.ilog[0] = 0xf0;
    for (unsigned n = 1; n < 16; n++) tw.ilog[n] = (uint8_t)((15 - tw.log[n]) % 15);
    for (unsigned x = 0; x < 256; x++) {
        uint8_t cd = tower_inv1((uint8_t)x);
        if ((tw.from_c[cd >> 4] ^ tw.from_d[cd & 15]) != gf_inv_tab[x]) return;
    }
    tw.ok = 1;
}

int vx_host_tower_ok(void)
{
    gf_init();
    return tw.ok;
}

/* Per (matrix, imm): affine(A, x) ^ imm = lo[x & 15] ^ hi[x >> 4] (affine is linear in x), and
 * affine(A, inverse) ^ imm = inv_c[c] ^ inv_d[d] from the tower's halves.  Built from the
 * matrix's eight columns (a few hundred host instructions), in a direct-mapped cache: the
 * kernels use a handful of broadcast matrices, and Camellia's field form a few hundred per-call
 * matrices, eight to an instruction (its 256-entry tables per matrix, rebuilt as a 16-entry
 * cache thrashed, were 60% of its emulated time). */
#define AFFINE_CACHE 256
static struct gf_affine {
    uint64_t A;
    uint8_t imm, used;
    uint8_t lo[16], hi[16];       /* affine(A, n) ^ imm, affine(A, n << 4) */
    uint8_t inv_c[16], inv_d[16]; /* affine(A, back(c << 4)), affine(A, back(d)) ^ imm */
} affine_cache[AFFINE_CACHE];

static const struct gf_affine *affine_of(uint64_t A, uint8_t imm)
{
    struct gf_affine *e =
        &affine_cache[((A * 0x9e3779b97f4a7c15ull) >> 56 ^ imm) & (AFFINE_CACHE - 1)];
    if (e->used && e->A == A && e->imm == imm) return e;
    uint8_t col[8];
    for (int k = 0; k < 8; k++) col[k] = gf256_affine(A, (uint8_t)(1u << k), 0);
    e->lo[0] = imm;
    e->hi[0] = 0;
    for (unsigned n = 1; n < 16; n++) {
        unsigned k = (unsigned)__builtin_ctz(n);
        e->lo[n] = e->lo[n & (n - 1)] ^ col[k];
        e->hi[n] = e->hi[n & (n - 1)] ^ col[k + 4];
    }
    for (unsigned n = 0; n < 16; n++) {
        uint8_t c = tw.from_c[n], d = tw.from_d[n];
        e->inv_c[n] = e->lo[c & 15] ^ e->hi[c >> 4] ^ imm;
        e->inv_d[n] = e->lo[d & 15] ^ e->hi[d >> 4];
    }
    e->A = A;
    e->imm = imm;
    e->used = 1;
    return e;
}

#if HAVE_HOST_SSSE3
__attribute__((target("ssse3"))) static inline __m128i log_mul_ssse3(__m128i p, __m128i q,
                                                                    __m128i expt, __m128i k15)
{
    __m128i s = _mm_adds_epu8(p, q);
    return _mm_shuffle_epi8(expt, _mm_min_epu8(s, _mm_sub_epi8(s, k15)));
}

#define LD16(t) _mm_loadu_si128((const __m128i *)(t))
/* vl bytes of a through the matrix (inv: of their inverses); each chunk read before it is
 * written: o may be a. */
__attribute__((target("ssse3"))) static void gf_affine_ssse3(uint8_t *o, const uint8_t *a,
                                                             unsigned vl, int inv,
                                                             const struct gf_affine *t)
{
    const __m128i low4 = _mm_set1_epi8(0x0f);
    if (!inv) {
        const __m128i lo = LD16(t->lo), hi = LD16(t->hi);
        for (unsigned i = 0; i < vl; i += 16) {
            __m128i v = LD16(a + i);
            __m128i h = _mm_and_si128(_mm_srli_epi16(v, 4), low4);
            __m128i r = _mm_xor_si128(_mm_shuffle_epi8(lo, _mm_and_si128(v, low4)),
                                      _mm_shuffle_epi8(hi, h));
            _mm_storeu_si128((__m128i *)(o + i), r);
        }
        return;
    }
    const __m128i alo = LD16(tw.a_lo), ahi = LD16(tw.a_hi), blo = LD16(tw.b_lo),
                  bhi = LD16(tw.b_hi), lg = LD16(tw.log), ex = LD16(tw.exp), sql = LD16(tw.sql),
                  sq = LD16(tw.sq), ilg = LD16(tw.ilog), oc = LD16(t->inv_c), od = LD16(t->inv_d),
                  k15 = _mm_set1_epi8(15);
    for (unsigned i = 0; i < vl; i += 16) {
        __m128i v = LD16(a + i);
        __m128i l = _mm_and_si128(v, low4), h = _mm_and_si128(_mm_srli_epi16(v, 4), low4);
        __m128i ea = _mm_xor_si128(_mm_shuffle_epi8(alo, l), _mm_shuffle_epi8(ahi, h));
        __m128i eb = _mm_xor_si128(_mm_shuffle_epi8(blo, l), _mm_shuffle_epi8(bhi, h));
        __m128i la = _mm_shuffle_epi8(lg, ea), lb = _mm_shuffle_epi8(lg, eb);
        __m128i sums = _mm_xor_si128(_mm_shuffle_epi8(sql, ea), _mm_shuffle_epi8(sq, eb));
        __m128i dd = _mm_xor_si128(sums, log_mul_ssse3(la, lb, ex, k15));
        __m128i ld = _mm_shuffle_epi8(ilg, dd);
        __m128i c = log_mul_ssse3(la, ld, ex, k15);
        __m128i d = log_mul_ssse3(_mm_shuffle_epi8(lg, _mm_xor_si128(ea, eb)), ld, ex, k15);
        _mm_storeu_si128((__m128i *)(o + i),
                         _mm_xor_si128(_mm_shuffle_epi8(oc, c), _mm_shuffle_epi8(od, d)));
    }
}

__attribute__((target("avx2"))) static inline __m256i log_mul_avx2(__m256i p, __m256i q,
                                                                  __m256i expt, __m256i k15)
{
    __m256i s = _mm256_adds_epu8(p, q);
    return _mm256_shuffle_epi8(expt, _mm256_min_epu8(s, _mm256_sub_epi8(s, k15)));
}

#define LD32(t) _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(t)))
/* gf_affine_ssse3 32 bytes a step (vl 32 or 64; pshufb looks up per 16-byte lane, so every
 * table is in both lanes) */
__attribute__((target("avx2"))) static void gf_affine_avx2(uint8_t *o, const uint8_t *a,
                                                           unsigned vl, int inv,
                                                           const struct gf_affine *t)
{
    const __m256i low4 = _mm256_set1_epi8(0x0f);
    if (!inv) {
        const __m256i lo = LD32(t->lo), hi = LD32(t->hi);
        for (unsigned i = 0; i < vl; i += 32) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(a + i));
            __m256i r = _mm256_xor_si256(
                _mm256_shuffle_epi8(lo, _mm256_and_si256(v, low4)),
                _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), low4)));
            _mm256_storeu_si256((__m256i *)(o + i), r);
        }
        return;
    }
    const __m256i alo = LD32(tw.a_lo), ahi = LD32(tw.a_hi), blo = LD32(tw.b_lo),
                  bhi = LD32(tw.b_hi), lg = LD32(tw.log), ex = LD32(tw.exp), sql = LD32(tw.sql),
                  sq = LD32(tw.sq), ilg = LD32(tw.ilog), oc = LD32(t->inv_c), od = LD32(t->inv_d),
                  k15 = _mm256_set1_epi8(15);
    for (unsigned i = 0; i < vl; i += 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(a + i));
        __m256i l = _mm256_and_si256(v, low4), h = _mm256_and_si256(_mm256_srli_epi16(v, 4), low4);
        __m256i ea = _mm256_xor_si256(_mm256_shuffle_epi8(alo, l), _mm256_shuffle_epi8(ahi, h));
        __m256i eb = _mm256_xor_si256(_mm256_shuffle_epi8(blo, l), _mm256_shuffle_epi8(bhi, h));
        __m256i la = _mm256_shuffle_epi8(lg, ea), lb = _mm256_shuffle_epi8(lg, eb);
        __m256i dd = _mm256_xor_si256(
            _mm256_xor_si256(_mm256_shuffle_epi8(sql, ea), _mm256_shuffle_epi8(sq, eb)),
            log_mul_avx2(la, lb, ex, k15));
        __m256i ld = _mm256_shuffle_epi8(ilg, dd);
        __m256i c = log_mul_avx2(la, ld, ex, k15);
        __m256i d = log_mul_avx2(_mm256_shuffle_epi8(lg, _mm256_xor_si256(ea, eb)), ld, ex, k15);
        __m256i r = _mm256_xor_si256(_mm256_shuffle_epi8(oc, c), _mm256_shuffle_epi8(od, d));
        _mm256_storeu_si256((__m256i *)(o + i), r);
    }
}
#undef LD16
#undef LD32
#endif

/* One matrix for all bytes (a broadcast: how the kernels use it): the host's vector path. */
static inline int gf_affine_vector(uint8_t *o, const uint8_t *a, unsigned vl, int inv,
                            const struct gf_affine *t)
{
#if HAVE_HOST_SSSE3
    int level = host_level();
    if (inv && !tw.ok) return 1;
    if (level >= VX_HOST_AVX2 && vl >= 32) {
        gf_affine_avx2(o, a, vl, inv, t);
        return 0;
    }
    if (level >= VX_HOST_SSSE3) {
        gf_affine_ssse3(o, a, vl, inv, t);
        return 0;
    }
#endif
    (void)o; (void)a; (void)vl; (void)inv; (void)t;
    return 1;
}

/* A matrix per qword (Camellia's field form makes its FL matrices so): the inverses (if any)
 * first, into a copy (o may be a or b).  Out of line: v_gfaffine's common path then saves no
 * registers for it. */
__attribute__((noinline)) static void gf_affine_per_qword(union vx_vreg *o,
                                                          const union vx_vreg *a,
                                                          const union vx_vreg *b, unsigned vl,
                                                          int inv, uint8_t imm)
{
    uint8_t v[64];
    static const uint64_t identity = 0x0102040810204080ull;
    if (!inv || gf_affine_vector(v, a->b, vl, 1, affine_of(identity, 0)))
        for (unsigned i = 0; i < vl; i++) v[i] = inv ? gf_inv_tab[a->b[i]] : a->b[i];
    for (unsigned q = 0; q < vl / 8; q++) {
        const struct gf_affine *t = affine_of(b->q[q], imm); /* read before o's word is written */
        for (unsigned i = 8 * q; i < 8 * q + 8; i++) o->b[i] = t->lo[v[i] & 15] ^ t->hi[v[i] >> 4];
    }
}

VEC_FN(v_gfaffine)
{
    int inv = in->op == 0xcf;
    uint8_t imm = (uint8_t)in->imm;
    const uint64_t A0 = b->q[0], *q = b->q;
    uint64_t diff = q[1] ^ A0; /* one matrix in every qword?  (constant sizes: no loop) */
    if (vl >= 32) diff |= (q[2] ^ A0) | (q[3] ^ A0);
    if (vl == 64) diff |= (q[4] ^ A0) | (q[5] ^ A0) | (q[6] ^ A0) | (q[7] ^ A0);
    if (diff) {
        gf_affine_per_qword(o, a, b, vl, inv, imm);
        return 0;
    }
    const struct gf_affine *t = affine_of(A0, imm); /* the tables first: o may be b */
    if (!gf_affine_vector(o->b, a->b, vl, inv, t)) return 0;
    for (unsigned i = 0; i < vl; i++) { /* byte i read before it is written: o may be a */
        uint8_t v = inv ? gf_inv_tab[a->b[i]] : a->b[i];
        o->b[i] = t->lo[v & 15] ^ t->hi[v >> 4];
    }
    return 0;
}

VEC_FN(v_gfmul)
{
    for (unsigned i = 0; i < vl; i++) o->b[i] = gf256_mul(a->b[i], b->b[i]);
    return 0;
}

static void mixcol(uint8_t *s, int inv)
{
    for (int c = 0; c < 4; c++) {
        uint8_t *p = s + 4 * c, t[4];
        for (int r = 0; r < 4; r++) {
            if (!inv)
                t[r] = (uint8_t)(gf256_mul(2, p[r]) ^ gf256_mul(3, p[(r + 1) & 3]) ^
                                 p[(r + 2) & 3] ^ p[(r + 3) & 3]);
            else
                t[r] = (uint8_t)(gf256_mul(14, p[r]) ^ gf256_mul(11, p[(r + 1) & 3]) ^
                                 gf256_mul(13, p[(r + 2) & 3]) ^ gf256_mul(9, p[(r + 3) & 3]));
        }
        memcpy(p, t, 4);
    }
}

/* vaesenc/enclast/dec/declast: a is the state (vvvv), b the round key (rm), per 128-bit lane */
VEC_FN(v_aes)
{
    int dec = in->op >= 0xde, last = in->op & 1;
    for (unsigned l = 0; l < vl; l += 16) {
        uint8_t s[16];
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++) {
                int src = dec ? (c - r + 4) & 3 : (c + r) & 3;
                uint8_t v = a->b[l + 4 * src + r];
                s[4 * c + r] = dec ? aes_isbox[v] : aes_sbox[v];
            }
        if (!last) mixcol(s, dec);
        for (int i = 0; i < 16; i++) o->b[l + i] = s[i] ^ b->b[l + i];
    }
    return 0;
}

VEC_FN(v_clmul)
{
    for (unsigned l = 0; l < vl / 8; l += 2) {
        uint64_t p = a->q[l + (in->imm & 1)], q = b->q[l + ((in->imm >> 4) & 1)];
        uint64_t lo = 0, hi = 0;
        for (int i = 0; i < 64; i++)
            if ((q >> i) & 1) {
                lo ^= p << i;
                if (i) hi ^= p >> (64 - i);
            }
        o->q[l] = lo;
        o->q[l + 1] = hi;
    }
    return 0;
}

/* ---- special vector forms ----------------------------------------------------------------- */

SPEC_FN(s_vzero)
{
    for (int r = 0; r < 16; r++)
        memset(x->c->z[r].b + (in->l ? 0 : 16), 0, in->l ? 64 : 48);
    return 0;
}

/* vmovd/vmovq xmm <- r/m32/64 (66 0F 6E) */
SPEC_FN(s_movd_to_x)
{
    unsigned n = in->w ? 8 : 4;
    uint64_t v = 0;
    if (in->mem) {
        if (rd(x, ea(x, in), &v, n)) return -1;
    } else {
        v = x->c->gpr[in->rm & 15];
        if (n == 4) v = (uint32_t)v;
    }
    union vx_vreg *d = &x->c->z[in->reg];
    memset(d, 0, sizeof *d);
    d->q[0] = v;
    return 0;
}

/* vmovd/vmovq r/m32/64 <- xmm (66 0F 7E) */
SPEC_FN(s_movd_from_x)
{
    unsigned n = in->w ? 8 : 4;
    uint64_t v = x->c->z[in->reg].q[0];
    if (in->mem) return wr(x, ea(x, in), &v, n);
    x->c->gpr[in->rm & 15] = n == 4 ? (uint32_t)v : v;
    return 0;
}

/* vmovq xmm <- xmm/m64 (F3 0F 7E) */
SPEC_FN(s_movq_load)
{
    uint64_t v;
    if (in->mem) {
        if (rd(x, ea(x, in), &v, 8)) return -1;
    } else {
        v = x->c->z[in->rm].q[0];
    }
    union vx_vreg *d = &x->c->z[in->reg];
    memset(d, 0, sizeof *d);
    d->q[0] = v;
    return 0;
}

/* vmovq xmm/m64 <- xmm (66 0F D6) */
SPEC_FN(s_movq_store)
{
    uint64_t v = x->c->z[in->reg].q[0];
    if (in->mem) return wr(x, ea(x, in), &v, 8);
    union vx_vreg *d = &x->c->z[in->rm];
    memset(d, 0, sizeof *d);
    d->q[0] = v;
    return 0;
}

/* vpextrb/d/q r/m <- xmm, imm (66 0F3A 14 / 16) */
SPEC_FN(s_pextr)
{
    unsigned n = in->op == 0x14 ? 1 : in->w ? 8 : 4;
    uint64_t v = 0;
    memcpy(&v, x->c->z[in->reg].b + (in->imm & (16 / n - 1)) * n, n);
    if (in->mem) return wr(x, ea(x, in), &v, n);
    x->c->gpr[in->rm & 15] = v;
    return 0;
}

/* vpinsrb/d/q xmm <- xmm(vvvv), r/m, imm (66 0F3A 20 / 22) */
SPEC_FN(s_pinsr)
{
    unsigned n = in->op == 0x20 ? 1 : in->w ? 8 : 4;
    uint64_t v = 0;
    if (in->mem) {
        if (rd(x, ea(x, in), &v, n)) return -1;
    } else {
        v = x->c->gpr[in->rm & 15];
    }
    union vx_vreg o;
    memset(&o, 0, sizeof o);
    memcpy(o.b, x->c->z[in->vvvv].b, 16);
    memcpy(o.b + (in->imm & (16 / n - 1)) * n, &v, n);
    x->c->z[in->reg] = o;
    return 0;
}

/* vpmovmskb r32 <- ymm/xmm (VEX 66 0F D7) */
SPEC_FN(s_pmovmskb)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < vlen(in); i++) r |= (uint64_t)(x->c->z[in->rm].b[i] >> 7) << i;
    x->c->gpr[in->reg & 15] = r;
    return 0;
}

/* vptest (VEX 66 0F38 17): ZF = (a AND b) == 0, CF = (NOT a AND b) == 0 */
SPEC_FN(s_ptest)
{
    union vx_vreg b;
    unsigned vl = vlen(in);
    if (load_rm(x, in, &b, vl)) return -1;
    const union vx_vreg *a = &x->c->z[in->reg];
    uint64_t and = 0, andn = 0;
    for (unsigned i = 0; i < vl / 8; i++) {
        and |= a->q[i] & b.q[i];
        andn |= ~a->q[i] & b.q[i];
    }
    x->c->rflags &= ~(uint64_t)VX_ARITH_FLAGS;
    if (!and) x->c->rflags |= VX_ZF;
    if (!andn) x->c->rflags |= VX_CF;
    return 0;
}

/* ---- opmask instructions ------------------------------------------------------------------ */

static unsigned ksize(const struct vx_insn *in)
{
    if (in->pp == 3) return in->w ? 64 : 32;
    if (in->pp == 1) return in->w ? 32 : 8;
    return in->w ? 64 : 16;
}

SPEC_FN(s_klogic)
{
    uint64_t a = x->c->k[in->vvvv & 7], b = x->c->k[in->rm & 7], r;
    unsigned n = ksize(in);
    switch (in->op) {
    case 0x41: r = a & b; break;
    case 0x42: r = ~a & b; break;
    case 0x44: r = ~b; break;
    case 0x45: r = a | b; break;
    case 0x46: r = ~(a ^ b); break;
    case 0x47: r = a ^ b; break;
    case 0x4a: r = a + b; break;
    default: /* 4b kunpck: src2 low half, src1 high half */
        n = in->pp == 1 ? 16 : in->w ? 64 : 32;
        r = ((a & lowbits(n / 2)) << (n / 2)) | (b & lowbits(n / 2));
        break;
    }
    x->c->k[in->reg & 7] = r & lowbits(n);
    return 0;
}

SPEC_FN(s_kmov)
{
    unsigned n = ksize(in), nb = n / 8;
    uint64_t v = 0;
    switch (in->op) {
    case 0x90: /* k <- k/m */
        if (in->mem) {
            if (rd(x, ea(x, in), &v, nb)) return -1;
        } else {
            v = x->c->k[in->rm & 7];
        }
        x->c->k[in->reg & 7] = v & lowbits(n);
        return 0;
    case 0x91: /* m <- k */
        v = x->c->k[in->reg & 7];
        return wr(x, ea(x, in), &v, nb);
    case 0x92: /* k <- r */
        x->c->k[in->reg & 7] = x->c->gpr[in->rm & 15] & lowbits(n);
        return 0;
    default: /* 93: r <- k (zero-extended; 64-bit only for kmovq) */
        x->c->gpr[in->reg & 15] = x->c->k[in->rm & 7] & lowbits(n);
        return 0;
    }
}

/* kshift's operand size: op bit 0 and W (SDM: KSHIFTR/L B, W, D, Q) */
static unsigned kshift_size(const struct vx_insn *in)
{
    static const unsigned sz[2][2] = {{8, 16}, {32, 64}};
    return sz[in->op & 1][in->w];
}

SPEC_FN(s_kshift)
{
    unsigned n = kshift_size(in), cnt = (unsigned)in->imm & 0xff;
    uint64_t v = x->c->k[in->rm & 7] & lowbits(n), r;
    if (cnt >= n)
        r = 0;
    else
        r = (in->op & 2) ? (v << cnt) & lowbits(n) : v >> cnt;
    x->c->k[in->reg & 7] = r;
    return 0;
}

SPEC_FN(s_ktest)
{
    unsigned n = ksize(in);
    uint64_t a = x->c->k[in->reg & 7] & lowbits(n), b = x->c->k[in->rm & 7] & lowbits(n);
    x->c->rflags &= ~(uint64_t)VX_ARITH_FLAGS;
    if (in->op == 0x98) { /* kortest */
        if (!(a | b)) x->c->rflags |= VX_ZF;
        if ((a | b) == lowbits(n)) x->c->rflags |= VX_CF;
    } else {
        if (!(a & b)) x->c->rflags |= VX_ZF;
        if (!(~a & b & lowbits(n))) x->c->rflags |= VX_CF;
    }
    return 0;
}

/* ---- scalar instructions ------------------------------------------------------------------ */

static unsigned osize(const struct vx_insn *in)
{
    if (in->f->flags & VF_BYTE) return 1;
    if (in->rex & 8) return 8;
    return in->osz16 ? 2 : 4;
}

/* 8-bit registers: without REX, 4-7 are ah, ch, dh, bh */
static uint64_t greg(const struct vx *x, const struct vx_insn *in, unsigned r, unsigned n)
{
    if (n == 1 && !in->rex && r >= 4 && r < 8) return (x->c->gpr[r - 4] >> 8) & 0xff;
    return x->c->gpr[r] & lowbits(8 * n);
}

static void sreg(struct vx *x, const struct vx_insn *in, unsigned r, unsigned n, uint64_t v)
{
    uint64_t *g = &x->c->gpr[r];
    switch (n) {
    case 1:
        if (!in->rex && r >= 4 && r < 8)
            x->c->gpr[r - 4] = (x->c->gpr[r - 4] & ~0xff00ull) | ((v & 0xff) << 8);
        else
            *g = (*g & ~0xffull) | (v & 0xff);
        break;
    case 2: *g = (*g & ~0xffffull) | (v & 0xffff); break;
    case 4: *g = (uint32_t)v; break;
    default: *g = v; break;
    }
}

static int rd_rm(struct vx *x, const struct vx_insn *in, unsigned n, uint64_t *v)
{
    if (!in->mem) { *v = greg(x, in, in->rm, n); return 0; }
    *v = 0;
    return rd(x, ea(x, in), v, n);
}

static int wr_rm(struct vx *x, const struct vx_insn *in, unsigned n, uint64_t v)
{
    if (!in->mem) { sreg(x, in, in->rm, n, v); return 0; }
    return wr(x, ea(x, in), &v, n);
}

static void set_szp(struct vx *x, uint64_t r, unsigned n)
{
    uint64_t f = x->c->rflags & ~(uint64_t)(VX_SF | VX_ZF | VX_PF);
    r &= lowbits(8 * n);
    if (!r) f |= VX_ZF;
    if ((r >> (8 * n - 1)) & 1) f |= VX_SF;
    if (!(__builtin_popcount((unsigned)(r & 0xff)) & 1)) f |= VX_PF;
    x->c->rflags = f;
}

enum { A_ADD, A_OR, A_ADC, A_SBB, A_AND, A_SUB, A_XOR, A_CMP };

/* The ALU of the 00-3F family, group 1 (80/81/83), test, inc/dec/neg: result and flags. */
static uint64_t alu(struct vx *x, int op, uint64_t a, uint64_t b, unsigned n)
{
    uint64_t m = lowbits(8 * n), sb = 1ull << (8 * n - 1), r, f = x->c->rflags;
    uint64_t cin = (op == A_ADC || op == A_SBB) ? (f & VX_CF) : 0;
    a &= m; b &= m;
    f &= ~(uint64_t)VX_ARITH_FLAGS;
    switch (op) {
    case A_ADD: case A_ADC:
        r = (a + b + cin) & m;
        if (r < a || (cin && r == a)) f |= VX_CF;
        if (~(a ^ b) & (a ^ r) & sb) f |= VX_OF;
        if ((a ^ b ^ r) & 0x10) f |= VX_AF;
        break;
    case A_SUB: case A_SBB: case A_CMP:
        r = (a - b - cin) & m;
        if (a < b || (cin && a == b)) f |= VX_CF;
        if ((a ^ b) & (a ^ r) & sb) f |= VX_OF;
        if ((a ^ b ^ r) & 0x10) f |= VX_AF;
        break;
    case A_AND: r = a & b; break;
    case A_OR: r = a | b; break;
    default: r = a ^ b; break;
    }
    x->c->rflags = f;
    set_szp(x, r, n);
    return r;
}

/* 00-3B: op r/m, r | op r, r/m (d bit 1) ; 04/05 etc: op al/eax, imm */
SPEC_FN(g_alu)
{
    int op = (in->op >> 3) & 7;
    unsigned n = osize(in);
    uint64_t a, b, r;
    if ((in->op & 7) >= 4) { /* al/eax, imm */
        a = greg(x, in, 0, n);
        r = alu(x, op, a, (uint64_t)in->imm, n);
        if (op != A_CMP) sreg(x, in, 0, n, r);
        return 0;
    }
    int to_reg = in->op & 2;
    uint64_t rmv;
    if (rd_rm(x, in, n, &rmv)) return -1;
    uint64_t regv = greg(x, in, in->reg, n);
    a = to_reg ? regv : rmv;
    b = to_reg ? rmv : regv;
    r = alu(x, op, a, b, n);
    if (op == A_CMP) return 0;
    if (to_reg) { sreg(x, in, in->reg, n, r); return 0; }
    return wr_rm(x, in, n, r);
}

/* 80/81/83 /op r/m, imm */
SPEC_FN(g_alu_imm)
{
    unsigned n = osize(in);
    uint64_t a;
    if (rd_rm(x, in, n, &a)) return -1;
    uint64_t r = alu(x, in->regf, a, (uint64_t)in->imm, n);
    if (in->regf == A_CMP) return 0;
    return wr_rm(x, in, n, r);
}

/* 84/85 test r/m, r ; A8/A9 test al/eax, imm ; F6/F7 /0 test r/m, imm */
SPEC_FN(g_test)
{
    unsigned n = osize(in);
    uint64_t a, b;
    if (in->op == 0xa8 || in->op == 0xa9) {
        a = greg(x, in, 0, n);
        b = (uint64_t)in->imm;
    } else {
        if (rd_rm(x, in, n, &a)) return -1;
        b = (in->op == 0xf6 || in->op == 0xf7) ? (uint64_t)in->imm : greg(x, in, in->reg, n);
    }
    alu(x, A_AND, a, b, n);
    return 0;
}

/* FE/FF /0 inc, /1 dec: CF unchanged */
SPEC_FN(g_incdec)
{
    unsigned n = osize(in);
    uint64_t a, cf = x->c->rflags & VX_CF;
    if (rd_rm(x, in, n, &a)) return -1;
    uint64_t r = alu(x, in->regf ? A_SUB : A_ADD, a, 1, n);
    x->c->rflags = (x->c->rflags & ~(uint64_t)VX_CF) | cf;
    return wr_rm(x, in, n, r);
}

/* F6/F7 /2 not, /3 neg */
SPEC_FN(g_notneg)
{
    unsigned n = osize(in);
    uint64_t a;
    if (rd_rm(x, in, n, &a)) return -1;
    if (in->regf == 2) return wr_rm(x, in, n, ~a);
    uint64_t r = alu(x, A_SUB, 0, a, n);
    return wr_rm(x, in, n, r);
}

/* C0/C1 imm, D0/D1 by 1, D2/D3 by cl: /0 rol /1 ror /4 shl /5 shr /7 sar */
SPEC_FN(g_shift)
{
    unsigned n = osize(in), w = 8 * n;
    uint64_t a, cnt;
    if (in->op == 0xd0 || in->op == 0xd1) cnt = 1;
    else if (in->op == 0xd2 || in->op == 0xd3) cnt = x->c->gpr[VX_RCX];
    else cnt = (uint64_t)in->imm;
    cnt &= n == 8 ? 63 : 31;
    if (in->regf == 2 || in->regf == 3) return 1; /* rcl, rcr: not in the table */
    if (rd_rm(x, in, n, &a)) return -1;
    if (!cnt) /* flags unchanged; a 32-bit register destination is still zero-extended */
        return (n == 4 && !in->mem) ? wr_rm(x, in, n, a) : 0;
    uint64_t m = lowbits(w), r, f = x->c->rflags, sb = 1ull << (w - 1);
    a &= m;
    switch (in->regf) {
    case 0: { unsigned c = (unsigned)(cnt % w);
        r = c ? ((a << c) | (a >> (w - c))) & m : a;
        f = (f & ~(uint64_t)(VX_CF | VX_OF)) | ((r & 1) ? VX_CF : 0);
        if (((r >> (w - 1)) ^ r) & 1) f |= VX_OF;
        x->c->rflags = f;
        return wr_rm(x, in, n, r); }
    case 1: { unsigned c = (unsigned)(cnt % w);
        r = c ? ((a >> c) | (a << (w - c))) & m : a;
        f = (f & ~(uint64_t)(VX_CF | VX_OF)) | ((r & sb) ? VX_CF : 0);
        if (((r >> (w - 1)) ^ (r >> (w - 2))) & 1) f |= VX_OF;
        x->c->rflags = f;
        return wr_rm(x, in, n, r); }
    case 4: case 6:
        r = cnt >= w ? 0 : (a << cnt) & m;
        f &= ~(uint64_t)(VX_CF | VX_OF | VX_AF);
        if (cnt <= w && ((a >> (w - cnt)) & 1)) f |= VX_CF;
        if ((((r >> (w - 1)) & 1) ^ ((f & VX_CF) ? 1 : 0))) f |= VX_OF;
        break;
    case 5:
        r = cnt >= w ? 0 : a >> cnt;
        f &= ~(uint64_t)(VX_CF | VX_OF | VX_AF);
        if ((a >> (cnt - 1)) & 1) f |= VX_CF;
        if (cnt == 1 && (a & sb)) f |= VX_OF;
        break;
    case 7:
        r = (uint64_t)(esext(a, n) >> (cnt >= w ? w - 1 : cnt)) & m;
        f &= ~(uint64_t)(VX_CF | VX_OF | VX_AF);
        if ((uint64_t)(esext(a, n) >> (cnt - 1)) & 1) f |= VX_CF;
        break;
    default: return 1;
    }
    x->c->rflags = f;
    set_szp(x, r, n);
    return wr_rm(x, in, n, r);
}

/* 88/89 mov r/m, r ; 8A/8B mov r, r/m ; C6/C7 mov r/m, imm ; B0-BF mov r, imm */
SPEC_FN(g_mov)
{
    unsigned n = osize(in);
    uint64_t v;
    switch (in->op & 0xfe) {
    case 0x88: return wr_rm(x, in, n, greg(x, in, in->reg, n));
    case 0x8a:
        if (rd_rm(x, in, n, &v)) return -1;
        sreg(x, in, in->reg, n, v);
        return 0;
    case 0xc6: return wr_rm(x, in, n, (uint64_t)in->imm);
    default: /* B0+r, B8+r */
        sreg(x, in, (in->op & 7) | ((in->rex & 1) << 3), n, (uint64_t)in->imm);
        return 0;
    }
}

SPEC_FN(g_lea)
{
    sreg(x, in, in->reg, osize(in), ea(x, in));
    return 0;
}

/* 0F B6/B7 movzx, 0F BE/BF movsx, 63 movsxd */
SPEC_FN(g_movx)
{
    unsigned sn = in->op == 0x63 ? 4 : (in->op & 1) ? 2 : 1, n = osize(in);
    uint64_t v;
    if (in->mem) {
        v = 0;
        if (rd(x, ea(x, in), &v, sn)) return -1;
    } else {
        v = greg(x, in, in->rm, sn);
    }
    if (in->op != 0xb6 && in->op != 0xb7) v = (uint64_t)esext(v, sn);
    sreg(x, in, in->reg, n, v);
    return 0;
}

static int cond(const struct vx *x, unsigned cc)
{
    uint64_t f = x->c->rflags;
    int cf = !!(f & VX_CF), zf = !!(f & VX_ZF), sf = !!(f & VX_SF), of = !!(f & VX_OF),
        pf = !!(f & VX_PF), r;
    switch (cc >> 1) {
    case 0: r = of; break;
    case 1: r = cf; break;
    case 2: r = zf; break;
    case 3: r = cf || zf; break;
    case 4: r = sf; break;
    case 5: r = pf; break;
    case 6: r = sf != of; break;
    default: r = zf || sf != of; break;
    }
    return (cc & 1) ? !r : r;
}

SPEC_FN(g_jcc)
{
    if (cond(x, in->op & 15)) x->next += (uint64_t)in->imm;
    return 0;
}

SPEC_FN(g_cmov)
{
    unsigned n = osize(in);
    uint64_t v;
    if (rd_rm(x, in, n, &v)) return -1;
    if (cond(x, in->op & 15))
        sreg(x, in, in->reg, n, v);
    else if (n == 4)
        x->c->gpr[in->reg] = (uint32_t)x->c->gpr[in->reg];
    return 0;
}

SPEC_FN(g_setcc)
{
    return wr_rm(x, in, 1, (uint64_t)cond(x, in->op & 15));
}

SPEC_FN(g_jmp)
{
    x->next += (uint64_t)in->imm;
    return 0;
}

static int push(struct vx *x, uint64_t v)
{
    uint64_t sp = x->c->gpr[VX_RSP] - 8;
    if (wr(x, sp, &v, 8)) return -1;
    x->c->gpr[VX_RSP] = sp;
    return 0;
}

/* movsb and rep movsb (F3 or F2, as the CPU takes either for movs), upward only: copies
 * [rsi, rsi + n) to rdi in chunks, n = rcx (rep) or 1, advancing rsi, rdi and rcx after each
 * chunk as an interrupted rep would leave them.  Overlapping upward copies (rdi a little above
 * rsi, which repeat a pattern byte by byte) take chunks no longer than their distance, so each
 * chunk reads what the one before wrote.  DF set, a segment override or 32-bit addressing:
 * left to Unicorn (VX_UNKNOWN, nothing done).  Camellia's AVX2 kernel copies its tail blocks
 * with it: two Unicorn turns a call before. */
SPEC_FN(g_movsb)
{
    struct vx_cpu *c = x->c;
    if (in->seg || (c->rflags & VX_DF)) return 1;
    uint64_t n = in->rep ? c->gpr[VX_RCX] : 1;
    uint8_t buf[512];
    while (n) {
        uint64_t s = c->gpr[VX_RSI], d = c->gpr[VX_RDI];
        uint64_t k = n < sizeof buf ? n : sizeof buf;
        if (d > s && d - s < k) k = d - s;
        if (rd(x, s, buf, k) || wr(x, d, buf, k)) return -1;
        c->gpr[VX_RSI] = s + k;
        c->gpr[VX_RDI] = d + k;
        if (in->rep) c->gpr[VX_RCX] -= k;
        n -= k;
    }
    return 0;
}

SPEC_FN(g_call)
{
    if (push(x, x->next)) return -1;
    x->next += (uint64_t)in->imm;
    return 0;
}

/* call r/m64 (FF /2): the target read before the return address is pushed (an operand that
 * addresses the stack sees it unchanged).  The bench functions call a kernel through its ops
 * table this way. */
SPEC_FN(g_call_ind)
{
    uint64_t to;
    if (rd_rm(x, in, 8, &to)) return -1;
    if (push(x, x->next)) return -1;
    x->next = to;
    return 0;
}

/* Legacy SSE xorps xmm, xmm/m128 (0F 57): bits 511:128 of the destination are kept (only VEX
 * and EVEX clear them); a memory operand must be 16-byte aligned.  The compiled C around the
 * kernels (the bench functions zero a counter with it) would otherwise hand a call to Unicorn. */
SPEC_FN(s_xorps_leg)
{
    uint8_t m[16];
    const uint8_t *src = x->c->z[in->rm].b;
    if (in->mem) {
        uint64_t a = ea(x, in);
        if (a & 15) return misaligned(x, a, 16);
        if (rd(x, a, m, 16)) return -1;
        src = m;
    }
    uint8_t *d = x->c->z[in->reg].b;
    for (unsigned i = 0; i < 16; i++) d[i] ^= src[i];
    return 0;
}

/* Legacy SSE pclmulqdq xmm, xmm/m128, imm8 (66 0F 3A 44): vpclmulqdq's 128-bit product with
 * the destination as its first source; bits 511:128 are kept, a memory operand must be 16-byte
 * aligned.  Unicorn 2.0.1 refuses the instruction whatever CPU model it is given, so the
 * executor runs it wherever it appears (Linux's polyval-clmulni_asm.S mixes it with VEX). */
SPEC_FN(s_pclmulqdq_leg)
{
    union vx_vreg a, b, o;
    memcpy(a.b, x->c->z[in->reg].b, 16);
    if (in->mem) {
        uint64_t ad = ea(x, in);
        if (ad & 15) return misaligned(x, ad, 16);
        if (rd(x, ad, b.b, 16)) return -1;
    } else {
        memcpy(b.b, x->c->z[in->rm].b, 16);
    }
    v_clmul(x, in, &o, NULL, &a, &b, 16);
    memcpy(x->c->z[in->reg].b, o.b, 16);
    return 0;
}

/* Legacy SSE movaps xmm/m128, xmm (0F 29): a register destination keeps bits 511:128. */
SPEC_FN(s_movaps_store_leg)
{
    const uint8_t *src = x->c->z[in->reg].b;
    if (!in->mem) {
        memmove(x->c->z[in->rm].b, src, 16);
        return 0;
    }
    uint64_t a = ea(x, in);
    if (a & 15) return misaligned(x, a, 16);
    return wr(x, a, src, 16);
}

SPEC_FN(g_ret)
{
    uint64_t v;
    if (rd(x, x->c->gpr[VX_RSP], &v, 8)) return -1;
    x->c->gpr[VX_RSP] += 8;
    x->next = v;
    return 0;
}

SPEC_FN(g_push)
{
    return push(x, x->c->gpr[(in->op & 7) | ((in->rex & 1) << 3)]);
}

SPEC_FN(g_pop)
{
    uint64_t v;
    if (rd(x, x->c->gpr[VX_RSP], &v, 8)) return -1;
    x->c->gpr[VX_RSP] += 8;
    x->c->gpr[(in->op & 7) | ((in->rex & 1) << 3)] = v;
    return 0;
}

SPEC_FN(g_nop)
{
    return 0;
}

/* F3 0F 1E FA; the other F3 0F 1E /7 encodings are not endbr64 */
SPEC_FN(g_endbr)
{
    return in->rmf == 2 && !in->rex ? 0 : 1;
}

SPEC_FN(g_bswap)
{
    unsigned r = (in->op & 7) | ((in->rex & 1) << 3);
    uint64_t v = x->c->gpr[r];
    x->c->gpr[r] = (in->rex & 8) ? __builtin_bswap64(v) : __builtin_bswap32((uint32_t)v);
    return 0;
}

/* 0F AF imul r, r/m (CF = OF = the product did not fit; SF ZF AF PF undefined) */
/* shld/shrd r/m, r, imm8|cl (0F A4/A5, AC/AD): the destination shifted, the source's bits
 * shifted in.  SDM: the count is masked to 5 bits (6 with REX.W); a zero count changes nothing,
 * flags included; CF is the last bit shifted out of the destination; SF, ZF, PF follow the
 * result; OF (a change of sign) is defined for a count of 1 only, AF never. */
SPEC_FN(g_shxd)
{
    unsigned n = osize(in), w = 8 * n;
    uint64_t cnt = (in->op & 1) ? x->c->gpr[VX_RCX] : (uint64_t)in->imm, a;
    cnt &= n == 8 ? 63 : 31;
    if (rd_rm(x, in, n, &a)) return -1;
    if (!cnt) /* as the shifts: a 32-bit register destination is still zero-extended */
        return (n == 4 && !in->mem) ? wr_rm(x, in, n, a) : 0;
    uint64_t m = lowbits(w), b = greg(x, in, in->reg, n) & m, r, cf;
    a &= m;
    if (in->op == 0xa4 || in->op == 0xa5) {
        r = ((a << cnt) | (b >> (w - cnt))) & m;
        cf = (a >> (w - cnt)) & 1;
    } else {
        r = ((a >> cnt) | (b << (w - cnt))) & m;
        cf = (a >> (cnt - 1)) & 1;
    }
    uint64_t f = x->c->rflags & ~(uint64_t)(VX_CF | VX_OF | VX_AF);
    if (cf) f |= VX_CF;
    if (((r ^ a) >> (w - 1)) & 1) f |= VX_OF;
    x->c->rflags = f;
    set_szp(x, r, n);
    return wr_rm(x, in, n, r);
}

SPEC_FN(g_imul)
{
    unsigned n = osize(in);
    uint64_t b;
    if (rd_rm(x, in, n, &b)) return -1;
    int64_t p = esext(greg(x, in, in->reg, n), n), q = esext(b, n);
    __int128 full = (__int128)p * q;
    uint64_t r = (uint64_t)full & lowbits(8 * n);
    x->c->rflags &= ~(uint64_t)(VX_CF | VX_OF);
    if (full != (__int128)esext(r, n)) x->c->rflags |= VX_CF | VX_OF;
    set_szp(x, r, n);
    sreg(x, in, in->reg, n, r);
    return 0;
}

/* 87 xchg r/m, r (register form only: the memory form is a locked access) */
SPEC_FN(g_xchg)
{
    unsigned n = osize(in);
    uint64_t a = greg(x, in, in->rm, n), b = greg(x, in, in->reg, n);
    sreg(x, in, in->rm, n, b);
    sreg(x, in, in->reg, n, a);
    return 0;
}

/* ---- forms of the real corpus: BITALG/VPOPCNTDQ, IFMA, AVX float moves and logic ---------- */

/* vpopcntb/w/d/q: the number of bits set in each element */
VEC_FN(v_popcnt)
{
    unsigned es = in->f->esz;
    FOR_E(es, vl) eset(o, es, i, (uint64_t)__builtin_popcountll(eget(b, es, i)));
    return 0;
}

/* vpmadd52luq / vpmadd52huq: the 104-bit product of the low 52 bits of each qword of src1 and
 * src2; its low (or high) 52 bits added to the destination's qword */
VEC_FN(v_madd52)
{
    const uint64_t m52 = (1ull << 52) - 1;
    int high = in->op == 0xb5;
    for (unsigned i = 0; i < vl / 8; i++) {
        unsigned __int128 p = (unsigned __int128)(a->q[i] & m52) * (b->q[i] & m52);
        o->q[i] = d->q[i] + ((uint64_t)(high ? p >> 52 : p) & m52);
    }
    return 0;
}

/* vmovddup: each even qword of the source into itself and the odd one above it */
VEC_FN(v_movddup)
{
    for (unsigned i = 0; i < vl / 8; i += 2) o->q[i] = o->q[i + 1] = b->q[i];
    return 0;
}

/* vpblendvb: byte i from src2 when bit 7 of byte i of the register named by imm8[7:4] is set,
 * else from src1 */
VEC_FN(v_blendvb)
{
    const union vx_vreg *m = &x->c->z[(in->imm >> 4) & 15];
    for (unsigned i = 0; i < vl; i++) o->b[i] = (m->b[i] & 0x80) ? b->b[i] : a->b[i];
    return 0;
}

/* ---- VEX-encoded general-purpose instructions: BMI1 andn, BMI2 bzhi, mulx, rorx, shlx... -- */

static unsigned vex_osize(const struct vx_insn *in) { return in->w ? 8 : 4; }

/* SF and ZF from the result, CF and OF cleared (andn; bzhi sets CF itself) */
static void logic_flags(struct vx *x, uint64_t r, unsigned n)
{
    x->c->rflags &= ~(uint64_t)(VX_CF | VX_OF);
    set_szp(x, r, n);
}

SPEC_FN(g_andn)
{
    unsigned n = vex_osize(in);
    uint64_t b;
    if (rd_rm(x, in, n, &b)) return -1;
    uint64_t r = ~x->c->gpr[in->vvvv] & b & lowbits(8 * n);
    sreg(x, in, in->reg, n, r);
    logic_flags(x, r, n);
    return 0;
}

SPEC_FN(g_bzhi)
{
    unsigned n = vex_osize(in), idx = x->c->gpr[in->vvvv] & 0xff;
    uint64_t v;
    if (rd_rm(x, in, n, &v)) return -1;
    if (idx < 8 * n) v &= lowbits(idx);
    sreg(x, in, in->reg, n, v);
    logic_flags(x, v, n);
    if (idx > 8 * n - 1) x->c->rflags |= VX_CF;
    return 0;
}

SPEC_FN(g_mulx)
{
    unsigned n = vex_osize(in);
    uint64_t v;
    if (rd_rm(x, in, n, &v)) return -1;
    unsigned __int128 p = (unsigned __int128)(x->c->gpr[VX_RDX] & lowbits(8 * n)) * v;
    uint64_t lo = n == 8 ? (uint64_t)p : (uint32_t)p, hi = n == 8 ? (uint64_t)(p >> 64)
                                                                  : (uint32_t)(p >> 32);
    sreg(x, in, in->vvvv, n, lo);
    sreg(x, in, in->reg, n, hi); /* the high half wins when both name one register */
    return 0;
}

/* shlx / sarx / shrx (66 / F3 / F2): r/m shifted by vvvv modulo the operand size, no flags */
SPEC_FN(g_shiftx)
{
    unsigned n = vex_osize(in), c = x->c->gpr[in->vvvv] & (8 * n - 1);
    uint64_t v;
    if (rd_rm(x, in, n, &v)) return -1;
    uint64_t r = in->pp == 1 ? v << c : in->pp == 3 ? v >> c : (uint64_t)(esext(v, n) >> c);
    sreg(x, in, in->reg, n, r & lowbits(8 * n));
    return 0;
}

SPEC_FN(g_rorx)
{
    unsigned n = vex_osize(in), c = (unsigned)in->imm & (8 * n - 1);
    uint64_t v;
    if (rd_rm(x, in, n, &v)) return -1;
    uint64_t r = c ? ((v >> c) | (v << (8 * n - c))) & lowbits(8 * n) : v;
    sreg(x, in, in->reg, n, r);
    return 0;
}

/* ---- the table ---------------------------------------------------------------------------- */

#define L128 1
#define L256 2
#define L512 4
#define LV (L128 | L256)
#define LA (L128 | L256 | L512)
#define M VF_MODRM
#define I8 VF_IMM8
#define KM (VF_MASK)
#define EW VF_EWISE
#define IP VF_INPLACE

/* The features column (struct vx_form's feat[3] and fvar), from the CPUID Feature Flag column
 * of each instruction's page in the Intel SDM (Vol. 2A-2D, order 325462):
 *   FAVX12     VEX: AVX at 128 bits, AVX2 at 256 (the integer forms: VPXOR, VPSHUFB ...)
 *   FAVX       VEX: AVX at both (VMOVDQA, VBROADCASTF128, VINSERTF128, VZEROUPPER ...)
 *   FAVX2      VEX: AVX2 at both (VPBROADCASTB, VPERMQ, VPSLLVD, VINSERTI128 ...)
 *   FV2(a, b)  VEX: a at 128 bits, b at 256 (AES AVX / VAES, PCLMULQDQ AVX / VPCLMULQDQ)
 *   FREG2      VEX: AVX from memory, AVX2 from a register (VBROADCASTSS/SD)
 *   FE(x)      EVEX: x at 512 bits, x and AVX512VL at 128 and 256
 *   FK(x)      opmask instructions: x for the W form, AVX512DQ for B, AVX512BW for D and Q
 *   FFIX(x)    x at any length (one-length forms, BMI1/2, legacy SSE)
 *   FNONE      baseline x86-64 */
#define X_SSE VXF(SSE)
#define X_AES VXF(AES)
#define X_PCLMULQDQ VXF(PCLMULQDQ)
#define X_AVX VXF(AVX)
#define X_AVX2 VXF(AVX2)
#define X_BMI1 VXF(BMI1)
#define X_BMI2 VXF(BMI2)
#define X_F VXF(AVX512F)
#define X_DQ VXF(AVX512DQ)
#define X_BW VXF(AVX512BW)
#define X_IFMA VXF(AVX512_IFMA)
#define X_VBMI VXF(AVX512_VBMI)
#define X_VBMI2 VXF(AVX512_VBMI2)
#define X_BITALG VXF(AVX512_BITALG)
#define X_VPOPCNTDQ VXF(AVX512_VPOPCNTDQ)
#define X_GFNI VXF(GFNI)
#define X_VAES VXF(VAES)
#define X_VPCLMULQDQ VXF(VPCLMULQDQ)
#define FV2(a, b) {(a), (b), 0}, VX_FV_NONE
#define FAVX12 FV2(X_AVX, X_AVX2)
#define FAVX FV2(X_AVX, X_AVX)
#define FAVX2 FV2(X_AVX2, X_AVX2)
#define FREG2 {X_AVX, X_AVX, 0}, VX_FV_REG_AVX2
#define FE(x) {(x) | VXF(AVX512VL), (x) | VXF(AVX512VL), (x)}, VX_FV_NONE
#define FK(x) {(x), (x), (x)}, VX_FV_KSIZE
#define FFIX(x) {(x), (x), (x)}, VX_FV_NONE
#define FNONE {0, 0, 0}, VX_FV_NONE

/* The operand roles of a VEX or EVEX form of a vector kind (vx_form_roles) */
#define KROLES(k) ((k) == VK_RVM ? "vvv" : (k) == VK_VM ? "xvv" : (k) == VK_KVM ? "kvv" : "v-v")

/* VEX and EVEX rows: name, map, pp, op, w, reg, [lm,] kind, esz, [bsz,] msz, flags, fn, ops,
 * features */
#define VEX(n, mp, pp, op, w, rg, lm, k, es, ms, fl, fn, ops, ft)                              \
    {n, VX_ENC_VEX, mp, pp, op, 0xff, w, rg, lm, k, es, 0, ms, M | (fl), 0, (void *)(fn), ops, \
     KROLES(k), ft},
#define EVX(n, mp, pp, op, w, rg, k, es, bs, ms, fl, fn, ops, ft)                              \
    {n, VX_ENC_EVEX, mp, pp, op, 0xff, w, rg, LA, k, es, bs, ms, M | KM | (fl), 0,             \
     (void *)(fn), ops, KROLES(k), ft},
/* legacy rows: name, map, pp (0xff any), op, opmask, w, reg, flags, undef, fn, ops; roles:
 * modrm.reg an opcode extension or a register, rm a register or memory; baseline x86-64 */
#define LEG(n, mp, pp, op, om, w, rg, fl, un, fn, ops)                                         \
    {n, VX_ENC_LEG, mp, pp, op, om, w, rg, 1, VK_SCALAR, 0, 0, 0, (fl), un, (void *)(fn), ops,  \
     ((fl) & M) ? ((rg) >= 0 ? "x-g" : "g-g") : "", FNONE},

/* pp: 0 none, 1 66, 2 F3, 3 F2.  map: 1 0F, 2 0F38, 3 0F3A. */
static const struct vx_form forms[] = {
    /* moves */
    VEX("vmovdqa", 1, 1, 0x6f, -1, -1, LV, VK_RM, 1, 0, VF_ALIGN | IP, v_mov, "v, v/m", FAVX)
    VEX("vmovdqu", 1, 2, 0x6f, -1, -1, LV, VK_RM, 1, 0, IP, v_mov, "v, v/m", FAVX)
    VEX("vmovdqa", 1, 1, 0x7f, -1, -1, LV, VK_MR, 1, 0, VF_ALIGN, v_mov, "v/m, v", FAVX)
    VEX("vmovdqu", 1, 2, 0x7f, -1, -1, LV, VK_MR, 1, 0, 0, v_mov, "v/m, v", FAVX)
    VEX("vmovaps", 1, 0, 0x28, -1, -1, LV, VK_RM, 1, 0, VF_ALIGN | IP, v_mov, "v, v/m", FAVX)
    VEX("vmovaps", 1, 0, 0x29, -1, -1, LV, VK_MR, 1, 0, VF_ALIGN, v_mov, "v/m, v", FAVX)
    VEX("vmovups", 1, 0, 0x10, -1, -1, LV, VK_RM, 1, 0, IP, v_mov, "v, v/m", FAVX)
    VEX("vmovups", 1, 0, 0x11, -1, -1, LV, VK_MR, 1, 0, 0, v_mov, "v/m, v", FAVX)
    EVX("vmovdqa32", 1, 1, 0x6f, 0, -1, VK_RM, 4, 0, 0, VF_ALIGN | EW | IP, v_mov, "v{k}{z}, v/m", FE(X_F))
    EVX("vmovdqa64", 1, 1, 0x6f, 1, -1, VK_RM, 8, 0, 0, VF_ALIGN | EW | IP, v_mov, "v{k}{z}, v/m", FE(X_F))
    EVX("vmovdqu32", 1, 2, 0x6f, 0, -1, VK_RM, 4, 0, 0, EW | IP, v_mov, "v{k}{z}, v/m", FE(X_F))
    EVX("vmovdqu64", 1, 2, 0x6f, 1, -1, VK_RM, 8, 0, 0, EW | IP, v_mov, "v{k}{z}, v/m", FE(X_F))
    EVX("vmovdqu8", 1, 3, 0x6f, 0, -1, VK_RM, 1, 0, 0, EW | IP, v_mov, "v{k}{z}, v/m", FE(X_BW))
    EVX("vmovdqu16", 1, 3, 0x6f, 1, -1, VK_RM, 2, 0, 0, EW | IP, v_mov, "v{k}{z}, v/m", FE(X_BW))
    EVX("vmovdqa32", 1, 1, 0x7f, 0, -1, VK_MR, 4, 0, 0, VF_ALIGN | VF_NOZ, v_mov, "v/m{k}, v", FE(X_F))
    EVX("vmovdqa64", 1, 1, 0x7f, 1, -1, VK_MR, 8, 0, 0, VF_ALIGN | VF_NOZ, v_mov, "v/m{k}, v", FE(X_F))
    EVX("vmovdqu32", 1, 2, 0x7f, 0, -1, VK_MR, 4, 0, 0, VF_NOZ, v_mov, "v/m{k}, v", FE(X_F))
    EVX("vmovdqu64", 1, 2, 0x7f, 1, -1, VK_MR, 8, 0, 0, VF_NOZ, v_mov, "v/m{k}, v", FE(X_F))
    EVX("vmovdqu8", 1, 3, 0x7f, 0, -1, VK_MR, 1, 0, 0, VF_NOZ, v_mov, "v/m{k}, v", FE(X_BW))
    EVX("vmovdqu16", 1, 3, 0x7f, 1, -1, VK_MR, 2, 0, 0, VF_NOZ, v_mov, "v/m{k}, v", FE(X_BW))
    {"vmovd/q", VX_ENC_VEX, 1, 1, 0x6e, 0xff, -1, -1, L128, VK_SPEC, 4, 0, 0, M, 0, (void *)s_movd_to_x, "xmm, r/m32|64", "v-g", FAVX},
    {"vmovd/q", VX_ENC_VEX, 1, 1, 0x7e, 0xff, -1, -1, L128, VK_SPEC, 4, 0, 0, M, 0, (void *)s_movd_from_x, "r/m32|64, xmm", "v-g", FAVX},
    {"vmovq", VX_ENC_VEX, 1, 2, 0x7e, 0xff, -1, -1, L128, VK_SPEC, 8, 0, 8, M, 0, (void *)s_movq_load, "xmm, xmm/m64", "v-v", FAVX},
    {"vmovq", VX_ENC_VEX, 1, 1, 0xd6, 0xff, -1, -1, L128, VK_SPEC, 8, 0, 8, M, 0, (void *)s_movq_store, "xmm/m64, xmm", "v-v", FAVX},
    {"vmovd/q", VX_ENC_EVEX, 1, 1, 0x6e, 0xff, -1, -1, L128, VK_SPEC, 4, 0, 0, M, 0, (void *)s_movd_to_x, "xmm, r/m32|64", "v-g", FFIX(X_F)},
    {"vmovd/q", VX_ENC_EVEX, 1, 1, 0x7e, 0xff, -1, -1, L128, VK_SPEC, 4, 0, 0, M, 0, (void *)s_movd_from_x, "r/m32|64, xmm", "v-g", FFIX(X_F)},
    {"vpextrb", VX_ENC_VEX, 3, 1, 0x14, 0xff, -1, -1, L128, VK_SPEC, 1, 0, 1, M | I8, 0, (void *)s_pextr, "r/m8, xmm, imm", "v-g", FAVX},
    {"vpextrd/q", VX_ENC_VEX, 3, 1, 0x16, 0xff, -1, -1, L128, VK_SPEC, 4, 0, 4, M | I8, 0, (void *)s_pextr, "r/m32|64, xmm, imm", "v-g", FAVX},
    {"vpinsrb", VX_ENC_VEX, 3, 1, 0x20, 0xff, -1, -1, L128, VK_SPEC, 1, 0, 1, M | I8, 0, (void *)s_pinsr, "xmm, xmm, r/m8, imm", "vvg", FAVX},
    {"vpinsrd/q", VX_ENC_VEX, 3, 1, 0x22, 0xff, -1, -1, L128, VK_SPEC, 4, 0, 4, M | I8, 0, (void *)s_pinsr, "xmm, xmm, r/m32|64, imm", "vvg", FAVX},
    {"vpextrb", VX_ENC_EVEX, 3, 1, 0x14, 0xff, -1, -1, L128, VK_SPEC, 1, 0, 1, M | I8, 0, (void *)s_pextr, "r/m8, xmm, imm", "v-g", FFIX(X_BW)},
    {"vpextrd/q", VX_ENC_EVEX, 3, 1, 0x16, 0xff, -1, -1, L128, VK_SPEC, 4, 0, 0, M | I8, 0, (void *)s_pextr, "r/m32|64, xmm, imm", "v-g", FFIX(X_DQ)},
    {"vpinsrb", VX_ENC_EVEX, 3, 1, 0x20, 0xff, -1, -1, L128, VK_SPEC, 1, 0, 1, M | I8, 0, (void *)s_pinsr, "xmm, xmm, r/m8, imm", "vvg", FFIX(X_BW)},
    {"vpinsrd/q", VX_ENC_EVEX, 3, 1, 0x22, 0xff, -1, -1, L128, VK_SPEC, 4, 0, 0, M | I8, 0, (void *)s_pinsr, "xmm, xmm, r/m32|64, imm", "vvg", FFIX(X_DQ)},
    {"vpmovmskb", VX_ENC_VEX, 1, 1, 0xd7, 0xff, -1, -1, LV, VK_SPEC, 1, 0, 0, M | VF_REGONLY, 0, (void *)s_pmovmskb, "r32, v", "g-v", FAVX12},
    {"vptest", VX_ENC_VEX, 2, 1, 0x17, 0xff, 0, -1, LV, VK_SPEC, 1, 0, 0, M, 0, (void *)s_ptest, "v, v/m", "v-v", FAVX},
    /* broadcasts, inserts, extracts */
    VEX("vpbroadcastb", 2, 1, 0x78, 0, -1, LV, VK_RM, 1, 1, IP, v_bcast, "v, xmm/m8", FAVX2)
    VEX("vpbroadcastw", 2, 1, 0x79, 0, -1, LV, VK_RM, 2, 2, IP, v_bcast, "v, xmm/m16", FAVX2)
    VEX("vpbroadcastd", 2, 1, 0x58, 0, -1, LV, VK_RM, 4, 4, IP, v_bcast, "v, xmm/m32", FAVX2)
    VEX("vpbroadcastq", 2, 1, 0x59, 0, -1, LV, VK_RM, 8, 8, IP, v_bcast, "v, xmm/m64", FAVX2)
    EVX("vpbroadcastb", 2, 1, 0x78, 0, -1, VK_RM, 1, 0, 1, IP, v_bcast, "v{k}{z}, xmm/m8", FE(X_BW))
    EVX("vpbroadcastw", 2, 1, 0x79, 0, -1, VK_RM, 2, 0, 2, IP, v_bcast, "v{k}{z}, xmm/m16", FE(X_BW))
    EVX("vpbroadcastd", 2, 1, 0x58, 0, -1, VK_RM, 4, 0, 4, IP, v_bcast, "v{k}{z}, xmm/m32", FE(X_F))
    EVX("vpbroadcastq", 2, 1, 0x59, 1, -1, VK_RM, 8, 0, 8, IP, v_bcast, "v{k}{z}, xmm/m64", FE(X_F))
    {"vpbroadcastb", VX_ENC_EVEX, 2, 1, 0x7a, 0xff, 0, -1, LA, VK_SPEC, 1, 0, 0, M | KM | VF_REGONLY, 0, (void *)s_bcast_gpr, "v{k}{z}, r32", "v-g", FE(X_BW)},
    {"vpbroadcastw", VX_ENC_EVEX, 2, 1, 0x7b, 0xff, 0, -1, LA, VK_SPEC, 2, 0, 0, M | KM | VF_REGONLY, 0, (void *)s_bcast_gpr, "v{k}{z}, r32", "v-g", FE(X_BW)},
    {"vpbroadcastd", VX_ENC_EVEX, 2, 1, 0x7c, 0xff, 0, -1, LA, VK_SPEC, 4, 0, 0, M | KM | VF_REGONLY, 0, (void *)s_bcast_gpr, "v{k}{z}, r32", "v-g", FE(X_F)},
    {"vpbroadcastq", VX_ENC_EVEX, 2, 1, 0x7c, 0xff, 1, -1, LA, VK_SPEC, 8, 0, 0, M | KM | VF_REGONLY, 0, (void *)s_bcast_gpr, "v{k}{z}, r64", "v-g", FE(X_F)},
    VEX("vbroadcasti128", 2, 1, 0x5a, 0, -1, L256, VK_RM, 1, 16, VF_MEMONLY, v_bcast, "ymm, m128", FAVX2)
    {"vbroadcasti32x4", VX_ENC_EVEX, 2, 1, 0x5a, 0xff, 0, -1, L256 | L512, VK_RM, 4, 0, 16, M | KM | VF_MEMONLY, 0, (void *)v_bcast, "v{k}{z}, m128", "v-v", FE(X_F)},
    {"vbroadcasti64x2", VX_ENC_EVEX, 2, 1, 0x5a, 0xff, 1, -1, L256 | L512, VK_RM, 8, 0, 16, M | KM | VF_MEMONLY, 0, (void *)v_bcast, "v{k}{z}, m128", "v-v", FE(X_DQ)},
    {"vbroadcasti32x8", VX_ENC_EVEX, 2, 1, 0x5b, 0xff, 0, -1, L512, VK_RM, 4, 0, 32, M | KM | VF_MEMONLY, 0, (void *)v_bcast, "zmm{k}{z}, m256", "v-v", FE(X_DQ)},
    {"vbroadcasti64x4", VX_ENC_EVEX, 2, 1, 0x5b, 0xff, 1, -1, L512, VK_RM, 8, 0, 32, M | KM | VF_MEMONLY, 0, (void *)v_bcast, "zmm{k}{z}, m256", "v-v", FE(X_F)},
    VEX("vinserti128", 3, 1, 0x38, 0, -1, L256, VK_RVM, 1, 16, I8, v_insert, "ymm, ymm, xmm/m128, imm", FAVX2)
    VEX("vextracti128", 3, 1, 0x39, 0, -1, L256, VK_MR, 1, 16, I8, v_extract, "xmm/m128, ymm, imm", FAVX2)
    VEX("vperm2i128", 3, 1, 0x46, 0, -1, L256, VK_RVM, 1, 0, I8, v_perm2i128, "ymm, ymm, ymm/m256, imm", FAVX2)
    {"vshufi32x4", VX_ENC_EVEX, 3, 1, 0x43, 0xff, 0, -1, L256 | L512, VK_RVM, 4, 4, 0, M | KM | I8, 0, (void *)v_shufi, "v{k}{z}, v, v/m/m32bcst, imm", "vvv", FE(X_F)},
    {"vshufi64x2", VX_ENC_EVEX, 3, 1, 0x43, 0xff, 1, -1, L256 | L512, VK_RVM, 8, 8, 0, M | KM | I8, 0, (void *)v_shufi, "v{k}{z}, v, v/m/m64bcst, imm", "vvv", FE(X_F)},
    VEX("vpblendd", 3, 1, 0x02, 0, -1, LV, VK_RVM, 4, 0, I8, v_blendi, "v, v, v/m, imm", FAVX2)
    VEX("vpblendw", 3, 1, 0x0e, -1, -1, LV, VK_RVM, 2, 0, I8, v_blendi, "v, v, v/m, imm", FAVX12)
    {"vinserti32x4", VX_ENC_EVEX, 3, 1, 0x38, 0xff, 0, -1, L256 | L512, VK_RVM, 4, 0, 16, M | KM | I8, 0, (void *)v_insert, "v{k}{z}, v, xmm/m128, imm", "vvv", FE(X_F)},
    {"vinserti64x2", VX_ENC_EVEX, 3, 1, 0x38, 0xff, 1, -1, L256 | L512, VK_RVM, 8, 0, 16, M | KM | I8, 0, (void *)v_insert, "v{k}{z}, v, xmm/m128, imm", "vvv", FE(X_DQ)},
    {"vinserti32x8", VX_ENC_EVEX, 3, 1, 0x3a, 0xff, 0, -1, L512, VK_RVM, 4, 0, 32, M | KM | I8, 0, (void *)v_insert, "zmm{k}{z}, zmm, ymm/m256, imm", "vvv", FE(X_DQ)},
    {"vinserti64x4", VX_ENC_EVEX, 3, 1, 0x3a, 0xff, 1, -1, L512, VK_RVM, 8, 0, 32, M | KM | I8, 0, (void *)v_insert, "zmm{k}{z}, zmm, ymm/m256, imm", "vvv", FE(X_F)},
    {"vextracti32x4", VX_ENC_EVEX, 3, 1, 0x39, 0xff, 0, -1, L256 | L512, VK_MR, 4, 0, 16, M | KM | I8, 0, (void *)v_extract, "xmm/m128{k}{z}, v, imm", "v-v", FE(X_F)},
    {"vextracti64x2", VX_ENC_EVEX, 3, 1, 0x39, 0xff, 1, -1, L256 | L512, VK_MR, 8, 0, 16, M | KM | I8, 0, (void *)v_extract, "xmm/m128{k}{z}, v, imm", "v-v", FE(X_DQ)},
    {"vextracti32x8", VX_ENC_EVEX, 3, 1, 0x3b, 0xff, 0, -1, L512, VK_MR, 4, 0, 32, M | KM | I8, 0, (void *)v_extract, "ymm/m256{k}{z}, zmm, imm", "v-v", FE(X_DQ)},
    {"vextracti64x4", VX_ENC_EVEX, 3, 1, 0x3b, 0xff, 1, -1, L512, VK_MR, 8, 0, 32, M | KM | I8, 0, (void *)v_extract, "ymm/m256{k}{z}, zmm, imm", "v-v", FE(X_F)},
    /* zero and sign extension */
    VEX("vpmovsxbw", 2, 1, 0x20, -1, -1, LV, VK_RM, 2, 0xf2, 0, v_pmovx, "v, xmm/ymm/m (half)", FAVX12)
    EVX("vpmovsxbw", 2, 1, 0x20, -1, -1, VK_RM, 2, 0, 0xf2, EW, v_pmovx, "v{k}{z}, xmm/ymm/m (half)", FE(X_BW))
    VEX("vpmovsxbd", 2, 1, 0x21, -1, -1, LV, VK_RM, 4, 0xf4, 0, v_pmovx, "v, xmm/ymm/m (quarter)", FAVX12)
    EVX("vpmovsxbd", 2, 1, 0x21, -1, -1, VK_RM, 4, 0, 0xf4, EW, v_pmovx, "v{k}{z}, xmm/ymm/m (quarter)", FE(X_F))
    VEX("vpmovsxbq", 2, 1, 0x22, -1, -1, LV, VK_RM, 8, 0xf8, 0, v_pmovx, "v, xmm/ymm/m (eighth)", FAVX12)
    EVX("vpmovsxbq", 2, 1, 0x22, -1, -1, VK_RM, 8, 0, 0xf8, EW, v_pmovx, "v{k}{z}, xmm/ymm/m (eighth)", FE(X_F))
    VEX("vpmovsxwd", 2, 1, 0x23, -1, -1, LV, VK_RM, 4, 0xf2, 0, v_pmovx, "v, xmm/ymm/m (half)", FAVX12)
    EVX("vpmovsxwd", 2, 1, 0x23, -1, -1, VK_RM, 4, 0, 0xf2, EW, v_pmovx, "v{k}{z}, xmm/ymm/m (half)", FE(X_F))
    VEX("vpmovsxwq", 2, 1, 0x24, -1, -1, LV, VK_RM, 8, 0xf4, 0, v_pmovx, "v, xmm/ymm/m (quarter)", FAVX12)
    EVX("vpmovsxwq", 2, 1, 0x24, -1, -1, VK_RM, 8, 0, 0xf4, EW, v_pmovx, "v{k}{z}, xmm/ymm/m (quarter)", FE(X_F))
    VEX("vpmovsxdq", 2, 1, 0x25, -1, -1, LV, VK_RM, 8, 0xf2, 0, v_pmovx, "v, xmm/ymm/m (half)", FAVX12)
    EVX("vpmovsxdq", 2, 1, 0x25, 0, -1, VK_RM, 8, 0, 0xf2, EW, v_pmovx, "v{k}{z}, xmm/ymm/m (half)", FE(X_F))
    VEX("vpmovzxbw", 2, 1, 0x30, -1, -1, LV, VK_RM, 2, 0xf2, 0, v_pmovx, "v, xmm/ymm/m (half)", FAVX12)
    EVX("vpmovzxbw", 2, 1, 0x30, -1, -1, VK_RM, 2, 0, 0xf2, EW, v_pmovx, "v{k}{z}, xmm/ymm/m (half)", FE(X_BW))
    VEX("vpmovzxbd", 2, 1, 0x31, -1, -1, LV, VK_RM, 4, 0xf4, 0, v_pmovx, "v, xmm/ymm/m (quarter)", FAVX12)
    EVX("vpmovzxbd", 2, 1, 0x31, -1, -1, VK_RM, 4, 0, 0xf4, EW, v_pmovx, "v{k}{z}, xmm/ymm/m (quarter)", FE(X_F))
    VEX("vpmovzxbq", 2, 1, 0x32, -1, -1, LV, VK_RM, 8, 0xf8, 0, v_pmovx, "v, xmm/ymm/m (eighth)", FAVX12)
    EVX("vpmovzxbq", 2, 1, 0x32, -1, -1, VK_RM, 8, 0, 0xf8, EW, v_pmovx, "v{k}{z}, xmm/ymm/m (eighth)", FE(X_F))
    VEX("vpmovzxwd", 2, 1, 0x33, -1, -1, LV, VK_RM, 4, 0xf2, 0, v_pmovx, "v, xmm/ymm/m (half)", FAVX12)
    EVX("vpmovzxwd", 2, 1, 0x33, -1, -1, VK_RM, 4, 0, 0xf2, EW, v_pmovx, "v{k}{z}, xmm/ymm/m (half)", FE(X_F))
    VEX("vpmovzxwq", 2, 1, 0x34, -1, -1, LV, VK_RM, 8, 0xf4, 0, v_pmovx, "v, xmm/ymm/m (quarter)", FAVX12)
    EVX("vpmovzxwq", 2, 1, 0x34, -1, -1, VK_RM, 8, 0, 0xf4, EW, v_pmovx, "v{k}{z}, xmm/ymm/m (quarter)", FE(X_F))
    VEX("vpmovzxdq", 2, 1, 0x35, -1, -1, LV, VK_RM, 8, 0xf2, 0, v_pmovx, "v, xmm/ymm/m (half)", FAVX12)
    EVX("vpmovzxdq", 2, 1, 0x35, 0, -1, VK_RM, 8, 0, 0xf2, EW, v_pmovx, "v{k}{z}, xmm/ymm/m (half)", FE(X_F))
    /* logic */
    VEX("vpand", 1, 1, 0xdb, -1, -1, LV, VK_RVM, 1, 0, IP, v_and, "v, v, v/m", FAVX12)
    VEX("vpandn", 1, 1, 0xdf, -1, -1, LV, VK_RVM, 1, 0, IP, v_andn, "v, v, v/m", FAVX12)
    VEX("vpor", 1, 1, 0xeb, -1, -1, LV, VK_RVM, 1, 0, IP, v_or, "v, v, v/m", FAVX12)
    VEX("vpxor", 1, 1, 0xef, -1, -1, LV, VK_RVM, 1, 0, IP, v_xor, "v, v, v/m", FAVX12)
    EVX("vpandd", 1, 1, 0xdb, 0, -1, VK_RVM, 4, 4, 0, EW | IP, v_and, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vpandq", 1, 1, 0xdb, 1, -1, VK_RVM, 8, 8, 0, EW | IP, v_and, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    EVX("vpandnd", 1, 1, 0xdf, 0, -1, VK_RVM, 4, 4, 0, EW | IP, v_andn, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vpandnq", 1, 1, 0xdf, 1, -1, VK_RVM, 8, 8, 0, EW | IP, v_andn, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    EVX("vpord", 1, 1, 0xeb, 0, -1, VK_RVM, 4, 4, 0, EW | IP, v_or, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vporq", 1, 1, 0xeb, 1, -1, VK_RVM, 8, 8, 0, EW | IP, v_or, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    EVX("vpxord", 1, 1, 0xef, 0, -1, VK_RVM, 4, 4, 0, EW | IP, v_xor, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vpxorq", 1, 1, 0xef, 1, -1, VK_RVM, 8, 8, 0, EW | IP, v_xor, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    EVX("vpternlogd", 3, 1, 0x25, 0, -1, VK_RVM, 4, 4, 0, EW | I8 | IP, v_ternlog, "v{k}{z}, v, v/m/m32bcst, imm", FE(X_F))
    EVX("vpternlogq", 3, 1, 0x25, 1, -1, VK_RVM, 8, 8, 0, EW | I8 | IP, v_ternlog, "v{k}{z}, v, v/m/m64bcst, imm", FE(X_F))
    /* add, sub, multiply, min/max */
    VEX("vpaddb", 1, 1, 0xfc, -1, -1, LV, VK_RVM, 1, 0, IP, v_add, "v, v, v/m", FAVX12)
    VEX("vpaddw", 1, 1, 0xfd, -1, -1, LV, VK_RVM, 2, 0, IP, v_add, "v, v, v/m", FAVX12)
    VEX("vpaddd", 1, 1, 0xfe, -1, -1, LV, VK_RVM, 4, 0, IP, v_add, "v, v, v/m", FAVX12)
    VEX("vpaddq", 1, 1, 0xd4, -1, -1, LV, VK_RVM, 8, 0, IP, v_add, "v, v, v/m", FAVX12)
    VEX("vpsubb", 1, 1, 0xf8, -1, -1, LV, VK_RVM, 1, 0, IP, v_sub, "v, v, v/m", FAVX12)
    VEX("vpsubw", 1, 1, 0xf9, -1, -1, LV, VK_RVM, 2, 0, IP, v_sub, "v, v, v/m", FAVX12)
    VEX("vpsubd", 1, 1, 0xfa, -1, -1, LV, VK_RVM, 4, 0, IP, v_sub, "v, v, v/m", FAVX12)
    VEX("vpsubq", 1, 1, 0xfb, -1, -1, LV, VK_RVM, 8, 0, IP, v_sub, "v, v, v/m", FAVX12)
    EVX("vpaddb", 1, 1, 0xfc, -1, -1, VK_RVM, 1, 0, 0, EW | IP, v_add, "v{k}{z}, v, v/m", FE(X_BW))
    EVX("vpaddw", 1, 1, 0xfd, -1, -1, VK_RVM, 2, 0, 0, EW | IP, v_add, "v{k}{z}, v, v/m", FE(X_BW))
    EVX("vpaddd", 1, 1, 0xfe, 0, -1, VK_RVM, 4, 4, 0, EW | IP, v_add, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vpaddq", 1, 1, 0xd4, 1, -1, VK_RVM, 8, 8, 0, EW | IP, v_add, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    EVX("vpsubb", 1, 1, 0xf8, -1, -1, VK_RVM, 1, 0, 0, EW | IP, v_sub, "v{k}{z}, v, v/m", FE(X_BW))
    EVX("vpsubw", 1, 1, 0xf9, -1, -1, VK_RVM, 2, 0, 0, EW | IP, v_sub, "v{k}{z}, v, v/m", FE(X_BW))
    EVX("vpsubd", 1, 1, 0xfa, 0, -1, VK_RVM, 4, 4, 0, EW | IP, v_sub, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vpsubq", 1, 1, 0xfb, 1, -1, VK_RVM, 8, 8, 0, EW | IP, v_sub, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    VEX("vpmuludq", 1, 1, 0xf4, -1, -1, LV, VK_RVM, 8, 0, 0, v_muludq, "v, v, v/m", FAVX12)
    EVX("vpmuludq", 1, 1, 0xf4, 1, -1, VK_RVM, 8, 8, 0, EW, v_muludq, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    VEX("vpmuldq", 2, 1, 0x28, -1, -1, LV, VK_RVM, 8, 0, 0, v_muldq, "v, v, v/m", FAVX12)
    EVX("vpmuldq", 2, 1, 0x28, 1, -1, VK_RVM, 8, 8, 0, EW, v_muldq, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    VEX("vpmulld", 2, 1, 0x40, -1, -1, LV, VK_RVM, 4, 0, IP, v_mullo, "v, v, v/m", FAVX12)
    EVX("vpmulld", 2, 1, 0x40, 0, -1, VK_RVM, 4, 4, 0, EW | IP, v_mullo, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vpmullq", 2, 1, 0x40, 1, -1, VK_RVM, 8, 8, 0, EW | IP, v_mullo, "v{k}{z}, v, v/m/m64bcst", FE(X_DQ))
    VEX("vpminub", 1, 1, 0xda, -1, -1, LV, VK_RVM, 1, 0, IP, v_minu, "v, v, v/m", FAVX12)
    VEX("vpmaxub", 1, 1, 0xde, -1, -1, LV, VK_RVM, 1, 0, IP, v_maxu, "v, v, v/m", FAVX12)
    VEX("vpminud", 2, 1, 0x3b, -1, -1, LV, VK_RVM, 4, 0, IP, v_minu, "v, v, v/m", FAVX12)
    VEX("vpmaxud", 2, 1, 0x3f, -1, -1, LV, VK_RVM, 4, 0, IP, v_maxu, "v, v, v/m", FAVX12)
    VEX("vpminsd", 2, 1, 0x39, -1, -1, LV, VK_RVM, 4, 0, IP, v_mins, "v, v, v/m", FAVX12)
    VEX("vpmaxsd", 2, 1, 0x3d, -1, -1, LV, VK_RVM, 4, 0, IP, v_maxs, "v, v, v/m", FAVX12)
    EVX("vpminub", 1, 1, 0xda, -1, -1, VK_RVM, 1, 0, 0, EW | IP, v_minu, "v{k}{z}, v, v/m", FE(X_BW))
    EVX("vpmaxub", 1, 1, 0xde, -1, -1, VK_RVM, 1, 0, 0, EW | IP, v_maxu, "v{k}{z}, v, v/m", FE(X_BW))
    EVX("vpminud", 2, 1, 0x3b, 0, -1, VK_RVM, 4, 4, 0, EW | IP, v_minu, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vpminuq", 2, 1, 0x3b, 1, -1, VK_RVM, 8, 8, 0, EW | IP, v_minu, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    EVX("vpmaxud", 2, 1, 0x3f, 0, -1, VK_RVM, 4, 4, 0, EW | IP, v_maxu, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vpmaxuq", 2, 1, 0x3f, 1, -1, VK_RVM, 8, 8, 0, EW | IP, v_maxu, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    VEX("vpabsb", 2, 1, 0x1c, -1, -1, LV, VK_RM, 1, 0, IP, v_abs, "v, v/m", FAVX12)
    VEX("vpabsw", 2, 1, 0x1d, -1, -1, LV, VK_RM, 2, 0, IP, v_abs, "v, v/m", FAVX12)
    VEX("vpabsd", 2, 1, 0x1e, -1, -1, LV, VK_RM, 4, 0, IP, v_abs, "v, v/m", FAVX12)
    EVX("vpabsb", 2, 1, 0x1c, -1, -1, VK_RM, 1, 0, 0, EW | IP, v_abs, "v{k}{z}, v/m", FE(X_BW))
    EVX("vpabsw", 2, 1, 0x1d, -1, -1, VK_RM, 2, 0, 0, EW | IP, v_abs, "v{k}{z}, v/m", FE(X_BW))
    EVX("vpabsd", 2, 1, 0x1e, 0, -1, VK_RM, 4, 4, 0, EW | IP, v_abs, "v{k}{z}, v/m/m32bcst", FE(X_F))
    EVX("vpabsq", 2, 1, 0x1f, 1, -1, VK_RM, 8, 8, 0, EW | IP, v_abs, "v{k}{z}, v/m/m64bcst", FE(X_F))
    /* shifts and rotates */
    VEX("vpsrlw", 1, 1, 0x71, -1, 2, LV, VK_VM, 2, 0, I8 | VF_REGONLY | IP, v_srl_i, "v, v/m, imm", FAVX12)
    VEX("vpsraw", 1, 1, 0x71, -1, 4, LV, VK_VM, 2, 0, I8 | VF_REGONLY | IP, v_sra_i, "v, v/m, imm", FAVX12)
    VEX("vpsllw", 1, 1, 0x71, -1, 6, LV, VK_VM, 2, 0, I8 | VF_REGONLY | IP, v_sll_i, "v, v/m, imm", FAVX12)
    VEX("vpsrld", 1, 1, 0x72, -1, 2, LV, VK_VM, 4, 0, I8 | VF_REGONLY | IP, v_srl_i, "v, v/m, imm", FAVX12)
    VEX("vpsrad", 1, 1, 0x72, -1, 4, LV, VK_VM, 4, 0, I8 | VF_REGONLY | IP, v_sra_i, "v, v/m, imm", FAVX12)
    VEX("vpslld", 1, 1, 0x72, -1, 6, LV, VK_VM, 4, 0, I8 | VF_REGONLY | IP, v_sll_i, "v, v/m, imm", FAVX12)
    VEX("vpsrlq", 1, 1, 0x73, -1, 2, LV, VK_VM, 8, 0, I8 | VF_REGONLY | IP, v_srl_i, "v, v/m, imm", FAVX12)
    VEX("vpsllq", 1, 1, 0x73, -1, 6, LV, VK_VM, 8, 0, I8 | VF_REGONLY | IP, v_sll_i, "v, v/m, imm", FAVX12)
    VEX("vpsrldq", 1, 1, 0x73, -1, 3, LV, VK_VM, 1, 0, I8 | VF_REGONLY, v_bslq, "v, v, imm", FAVX12)
    VEX("vpslldq", 1, 1, 0x73, -1, 7, LV, VK_VM, 1, 0, I8 | VF_REGONLY, v_bslq, "v, v, imm", FAVX12)
    EVX("vpsrlw", 1, 1, 0x71, -1, 2, VK_VM, 2, 0, 0, I8 | EW | IP, v_srl_i, "v{k}{z}, v/m, imm", FE(X_BW))
    EVX("vpsraw", 1, 1, 0x71, -1, 4, VK_VM, 2, 0, 0, I8 | EW | IP, v_sra_i, "v{k}{z}, v/m, imm", FE(X_BW))
    EVX("vpsllw", 1, 1, 0x71, -1, 6, VK_VM, 2, 0, 0, I8 | EW | IP, v_sll_i, "v{k}{z}, v/m, imm", FE(X_BW))
    EVX("vprord", 1, 1, 0x72, 0, 0, VK_VM, 4, 4, 0, I8 | EW | IP, v_ror_i, "v{k}{z}, v/m/m32bcst, imm", FE(X_F))
    EVX("vprorq", 1, 1, 0x72, 1, 0, VK_VM, 8, 8, 0, I8 | EW | IP, v_ror_i, "v{k}{z}, v/m/m64bcst, imm", FE(X_F))
    EVX("vprold", 1, 1, 0x72, 0, 1, VK_VM, 4, 4, 0, I8 | EW | IP, v_rol_i, "v{k}{z}, v/m/m32bcst, imm", FE(X_F))
    EVX("vprolq", 1, 1, 0x72, 1, 1, VK_VM, 8, 8, 0, I8 | EW | IP, v_rol_i, "v{k}{z}, v/m/m64bcst, imm", FE(X_F))
    EVX("vpsrld", 1, 1, 0x72, 0, 2, VK_VM, 4, 4, 0, I8 | EW | IP, v_srl_i, "v{k}{z}, v/m/m32bcst, imm", FE(X_F))
    EVX("vpsrad", 1, 1, 0x72, 0, 4, VK_VM, 4, 4, 0, I8 | EW | IP, v_sra_i, "v{k}{z}, v/m/m32bcst, imm", FE(X_F))
    EVX("vpsraq", 1, 1, 0x72, 1, 4, VK_VM, 8, 8, 0, I8 | EW | IP, v_sra_i, "v{k}{z}, v/m/m64bcst, imm", FE(X_F))
    EVX("vpslld", 1, 1, 0x72, 0, 6, VK_VM, 4, 4, 0, I8 | EW | IP, v_sll_i, "v{k}{z}, v/m/m32bcst, imm", FE(X_F))
    EVX("vpsrlq", 1, 1, 0x73, 1, 2, VK_VM, 8, 8, 0, I8 | EW | IP, v_srl_i, "v{k}{z}, v/m/m64bcst, imm", FE(X_F))
    EVX("vpsllq", 1, 1, 0x73, 1, 6, VK_VM, 8, 8, 0, I8 | EW | IP, v_sll_i, "v{k}{z}, v/m/m64bcst, imm", FE(X_F))
    {"vpsrldq", VX_ENC_EVEX, 1, 1, 0x73, 0xff, -1, 3, LA, VK_VM, 1, 0, 0, M | I8, 0, (void *)v_bslq, "v, v/m, imm", "xvv", FE(X_BW)},
    {"vpslldq", VX_ENC_EVEX, 1, 1, 0x73, 0xff, -1, 7, LA, VK_VM, 1, 0, 0, M | I8, 0, (void *)v_bslq, "v, v/m, imm", "xvv", FE(X_BW)},
    VEX("vpsrlw", 1, 1, 0xd1, -1, -1, LV, VK_RVM, 2, 16, IP, v_srl_x, "v, v, xmm/m128", FAVX12)
    VEX("vpsrld", 1, 1, 0xd2, -1, -1, LV, VK_RVM, 4, 16, IP, v_srl_x, "v, v, xmm/m128", FAVX12)
    VEX("vpsrlq", 1, 1, 0xd3, -1, -1, LV, VK_RVM, 8, 16, IP, v_srl_x, "v, v, xmm/m128", FAVX12)
    VEX("vpsraw", 1, 1, 0xe1, -1, -1, LV, VK_RVM, 2, 16, IP, v_sra_x, "v, v, xmm/m128", FAVX12)
    VEX("vpsrad", 1, 1, 0xe2, -1, -1, LV, VK_RVM, 4, 16, IP, v_sra_x, "v, v, xmm/m128", FAVX12)
    VEX("vpsllw", 1, 1, 0xf1, -1, -1, LV, VK_RVM, 2, 16, IP, v_sll_x, "v, v, xmm/m128", FAVX12)
    VEX("vpslld", 1, 1, 0xf2, -1, -1, LV, VK_RVM, 4, 16, IP, v_sll_x, "v, v, xmm/m128", FAVX12)
    VEX("vpsllq", 1, 1, 0xf3, -1, -1, LV, VK_RVM, 8, 16, IP, v_sll_x, "v, v, xmm/m128", FAVX12)
    EVX("vpsrlw", 1, 1, 0xd1, -1, -1, VK_RVM, 2, 0, 16, IP, v_srl_x, "v{k}{z}, v, xmm/m128", FE(X_BW))
    EVX("vpsrld", 1, 1, 0xd2, 0, -1, VK_RVM, 4, 0, 16, IP, v_srl_x, "v{k}{z}, v, xmm/m128", FE(X_F))
    EVX("vpsrlq", 1, 1, 0xd3, 1, -1, VK_RVM, 8, 0, 16, IP, v_srl_x, "v{k}{z}, v, xmm/m128", FE(X_F))
    EVX("vpsraw", 1, 1, 0xe1, -1, -1, VK_RVM, 2, 0, 16, IP, v_sra_x, "v{k}{z}, v, xmm/m128", FE(X_BW))
    EVX("vpsrad", 1, 1, 0xe2, 0, -1, VK_RVM, 4, 0, 16, IP, v_sra_x, "v{k}{z}, v, xmm/m128", FE(X_F))
    EVX("vpsraq", 1, 1, 0xe2, 1, -1, VK_RVM, 8, 0, 16, IP, v_sra_x, "v{k}{z}, v, xmm/m128", FE(X_F))
    EVX("vpsllw", 1, 1, 0xf1, -1, -1, VK_RVM, 2, 0, 16, IP, v_sll_x, "v{k}{z}, v, xmm/m128", FE(X_BW))
    EVX("vpslld", 1, 1, 0xf2, 0, -1, VK_RVM, 4, 0, 16, IP, v_sll_x, "v{k}{z}, v, xmm/m128", FE(X_F))
    EVX("vpsllq", 1, 1, 0xf3, 1, -1, VK_RVM, 8, 0, 16, IP, v_sll_x, "v{k}{z}, v, xmm/m128", FE(X_F))
    VEX("vpsrlvd", 2, 1, 0x45, 0, -1, LV, VK_RVM, 4, 0, IP, v_srl_v, "v, v, v/m", FAVX2)
    VEX("vpsrlvq", 2, 1, 0x45, 1, -1, LV, VK_RVM, 8, 0, IP, v_srl_v, "v, v, v/m", FAVX2)
    VEX("vpsravd", 2, 1, 0x46, 0, -1, LV, VK_RVM, 4, 0, IP, v_sra_v, "v, v, v/m", FAVX2)
    VEX("vpsllvd", 2, 1, 0x47, 0, -1, LV, VK_RVM, 4, 0, IP, v_sll_v, "v, v, v/m", FAVX2)
    VEX("vpsllvq", 2, 1, 0x47, 1, -1, LV, VK_RVM, 8, 0, IP, v_sll_v, "v, v, v/m", FAVX2)
    EVX("vpsrlvd", 2, 1, 0x45, 0, -1, VK_RVM, 4, 4, 0, EW | IP, v_srl_v, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vpsrlvq", 2, 1, 0x45, 1, -1, VK_RVM, 8, 8, 0, EW | IP, v_srl_v, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    EVX("vpsravd", 2, 1, 0x46, 0, -1, VK_RVM, 4, 4, 0, EW | IP, v_sra_v, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vpsravq", 2, 1, 0x46, 1, -1, VK_RVM, 8, 8, 0, EW | IP, v_sra_v, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    EVX("vpsllvd", 2, 1, 0x47, 0, -1, VK_RVM, 4, 4, 0, EW | IP, v_sll_v, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vpsllvq", 2, 1, 0x47, 1, -1, VK_RVM, 8, 8, 0, EW | IP, v_sll_v, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    EVX("vprorvd", 2, 1, 0x14, 0, -1, VK_RVM, 4, 4, 0, EW | IP, v_ror_v, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vprorvq", 2, 1, 0x14, 1, -1, VK_RVM, 8, 8, 0, EW | IP, v_ror_v, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    EVX("vprolvd", 2, 1, 0x15, 0, -1, VK_RVM, 4, 4, 0, EW | IP, v_rol_v, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vprolvq", 2, 1, 0x15, 1, -1, VK_RVM, 8, 8, 0, EW | IP, v_rol_v, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    EVX("vpshldd", 3, 1, 0x71, 0, -1, VK_RVM, 4, 4, 0, EW | I8, v_shld_i, "v{k}{z}, v, v/m/m32bcst, imm", FE(X_VBMI2))
    EVX("vpshldq", 3, 1, 0x71, 1, -1, VK_RVM, 8, 8, 0, EW | I8, v_shld_i, "v{k}{z}, v, v/m/m64bcst, imm", FE(X_VBMI2))
    EVX("vpshrdd", 3, 1, 0x73, 0, -1, VK_RVM, 4, 4, 0, EW | I8, v_shrd_i, "v{k}{z}, v, v/m/m32bcst, imm", FE(X_VBMI2))
    EVX("vpshrdq", 3, 1, 0x73, 1, -1, VK_RVM, 8, 8, 0, EW | I8, v_shrd_i, "v{k}{z}, v, v/m/m64bcst, imm", FE(X_VBMI2))
    EVX("vpshldvd", 2, 1, 0x71, 0, -1, VK_RVM, 4, 4, 0, EW, v_shld_v, "v{k}{z}, v, v/m/m32bcst", FE(X_VBMI2))
    EVX("vpshldvq", 2, 1, 0x71, 1, -1, VK_RVM, 8, 8, 0, EW, v_shld_v, "v{k}{z}, v, v/m/m64bcst", FE(X_VBMI2))
    EVX("vpshrdvd", 2, 1, 0x73, 0, -1, VK_RVM, 4, 4, 0, EW, v_shrd_v, "v{k}{z}, v, v/m/m32bcst", FE(X_VBMI2))
    EVX("vpshrdvq", 2, 1, 0x73, 1, -1, VK_RVM, 8, 8, 0, EW, v_shrd_v, "v{k}{z}, v, v/m/m64bcst", FE(X_VBMI2))
    /* shuffles, permutes, unpacks, align */
    VEX("vpshufb", 2, 1, 0x00, -1, -1, LV, VK_RVM, 1, 0, 0, v_pshufb, "v, v, v/m", FAVX12)
    /* no EW: the CPU does not suppress faults of masked-off vpshufb elements (measured) */
    EVX("vpshufb", 2, 1, 0x00, -1, -1, VK_RVM, 1, 0, 0, 0, v_pshufb, "v{k}{z}, v, v/m", FE(X_BW))
    VEX("vpshufd", 1, 1, 0x70, -1, -1, LV, VK_RM, 4, 0, I8, v_pshufd, "v, v/m, imm", FAVX12)
    EVX("vpshufd", 1, 1, 0x70, 0, -1, VK_RM, 4, 4, 0, I8, v_pshufd, "v{k}{z}, v/m/m32bcst, imm", FE(X_F))
    VEX("vpshufhw", 1, 2, 0x70, -1, -1, LV, VK_RM, 2, 0, I8, v_pshufhlw, "v, v/m, imm", FAVX12)
    VEX("vpshuflw", 1, 3, 0x70, -1, -1, LV, VK_RM, 2, 0, I8, v_pshufhlw, "v, v/m, imm", FAVX12)
    EVX("vpshufhw", 1, 2, 0x70, -1, -1, VK_RM, 2, 0, 0, I8, v_pshufhlw, "v{k}{z}, v/m, imm", FE(X_BW))
    EVX("vpshuflw", 1, 3, 0x70, -1, -1, VK_RM, 2, 0, 0, I8, v_pshufhlw, "v{k}{z}, v/m, imm", FE(X_BW))
    VEX("vpermq", 3, 1, 0x00, 1, -1, L256, VK_RM, 8, 0, I8, v_permq_imm, "ymm, ymm/m256, imm", FAVX2)
    {"vpermq", VX_ENC_EVEX, 3, 1, 0x00, 0xff, 1, -1, L256 | L512, VK_RM, 8, 8, 0, M | KM | I8, 0, (void *)v_permq_imm, "v{k}{z}, v/m/m64bcst, imm", "v-v", FE(X_F)},
    VEX("vpermd", 2, 1, 0x36, 0, -1, L256, VK_RVM, 4, 0, 0, v_perm, "ymm, ymm, ymm/m256", FAVX2)
    {"vpermd", VX_ENC_EVEX, 2, 1, 0x36, 0xff, 0, -1, L256 | L512, VK_RVM, 4, 4, 0, M | KM, 0, (void *)v_perm, "v{k}{z}, v, v/m/m32bcst", "vvv", FE(X_F)},
    {"vpermq", VX_ENC_EVEX, 2, 1, 0x36, 0xff, 1, -1, L256 | L512, VK_RVM, 8, 8, 0, M | KM, 0, (void *)v_perm, "v{k}{z}, v, v/m/m64bcst", "vvv", FE(X_F)},
    EVX("vpermb", 2, 1, 0x8d, 0, -1, VK_RVM, 1, 0, 0, 0, v_perm, "v{k}{z}, v, v/m", FE(X_VBMI))
    EVX("vpermw", 2, 1, 0x8d, 1, -1, VK_RVM, 2, 0, 0, 0, v_perm, "v{k}{z}, v, v/m", FE(X_BW))
    EVX("vpermi2b", 2, 1, 0x75, 0, -1, VK_RVM, 1, 0, 0, 0, v_permi2, "v{k}{z}, v, v/m", FE(X_VBMI))
    EVX("vpermi2w", 2, 1, 0x75, 1, -1, VK_RVM, 2, 0, 0, 0, v_permi2, "v{k}{z}, v, v/m", FE(X_BW))
    EVX("vpermi2d", 2, 1, 0x76, 0, -1, VK_RVM, 4, 4, 0, 0, v_permi2, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vpermi2q", 2, 1, 0x76, 1, -1, VK_RVM, 8, 8, 0, 0, v_permi2, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    EVX("vpermt2b", 2, 1, 0x7d, 0, -1, VK_RVM, 1, 0, 0, 0, v_permt2, "v{k}{z}, v, v/m", FE(X_VBMI))
    EVX("vpermt2w", 2, 1, 0x7d, 1, -1, VK_RVM, 2, 0, 0, 0, v_permt2, "v{k}{z}, v, v/m", FE(X_BW))
    EVX("vpermt2d", 2, 1, 0x7e, 0, -1, VK_RVM, 4, 4, 0, 0, v_permt2, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vpermt2q", 2, 1, 0x7e, 1, -1, VK_RVM, 8, 8, 0, 0, v_permt2, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    VEX("vpunpcklbw", 1, 1, 0x60, -1, -1, LV, VK_RVM, 1, 0, IP, v_unpack, "v, v, v/m", FAVX12)
    VEX("vpunpcklwd", 1, 1, 0x61, -1, -1, LV, VK_RVM, 2, 0, IP, v_unpack, "v, v, v/m", FAVX12)
    VEX("vpunpckldq", 1, 1, 0x62, -1, -1, LV, VK_RVM, 4, 0, IP, v_unpack, "v, v, v/m", FAVX12)
    VEX("vpunpcklqdq", 1, 1, 0x6c, -1, -1, LV, VK_RVM, 8, 0, IP, v_unpack, "v, v, v/m", FAVX12)
    VEX("vpunpckhbw", 1, 1, 0x68, -1, -1, LV, VK_RVM, 1, 0, IP, v_unpack, "v, v, v/m", FAVX12)
    VEX("vpunpckhwd", 1, 1, 0x69, -1, -1, LV, VK_RVM, 2, 0, IP, v_unpack, "v, v, v/m", FAVX12)
    VEX("vpunpckhdq", 1, 1, 0x6a, -1, -1, LV, VK_RVM, 4, 0, IP, v_unpack, "v, v, v/m", FAVX12)
    VEX("vpunpckhqdq", 1, 1, 0x6d, -1, -1, LV, VK_RVM, 8, 0, IP, v_unpack, "v, v, v/m", FAVX12)
    EVX("vpunpcklbw", 1, 1, 0x60, -1, -1, VK_RVM, 1, 0, 0, IP, v_unpack, "v{k}{z}, v, v/m", FE(X_BW))
    EVX("vpunpcklwd", 1, 1, 0x61, -1, -1, VK_RVM, 2, 0, 0, IP, v_unpack, "v{k}{z}, v, v/m", FE(X_BW))
    EVX("vpunpckldq", 1, 1, 0x62, 0, -1, VK_RVM, 4, 4, 0, IP, v_unpack, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vpunpcklqdq", 1, 1, 0x6c, 1, -1, VK_RVM, 8, 8, 0, IP, v_unpack, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    EVX("vpunpckhbw", 1, 1, 0x68, -1, -1, VK_RVM, 1, 0, 0, IP, v_unpack, "v{k}{z}, v, v/m", FE(X_BW))
    EVX("vpunpckhwd", 1, 1, 0x69, -1, -1, VK_RVM, 2, 0, 0, IP, v_unpack, "v{k}{z}, v, v/m", FE(X_BW))
    EVX("vpunpckhdq", 1, 1, 0x6a, 0, -1, VK_RVM, 4, 4, 0, IP, v_unpack, "v{k}{z}, v, v/m/m32bcst", FE(X_F))
    EVX("vpunpckhqdq", 1, 1, 0x6d, 1, -1, VK_RVM, 8, 8, 0, IP, v_unpack, "v{k}{z}, v, v/m/m64bcst", FE(X_F))
    VEX("vpalignr", 3, 1, 0x0f, -1, -1, LV, VK_RVM, 1, 0, I8, v_palignr, "v, v, v/m, imm", FAVX12)
    EVX("vpalignr", 3, 1, 0x0f, -1, -1, VK_RVM, 1, 0, 0, I8, v_palignr, "v{k}{z}, v, v/m, imm", FE(X_BW))
    EVX("valignd", 3, 1, 0x03, 0, -1, VK_RVM, 4, 4, 0, I8, v_valign, "v{k}{z}, v, v/m/m32bcst, imm", FE(X_F))
    EVX("valignq", 3, 1, 0x03, 1, -1, VK_RVM, 8, 8, 0, I8, v_valign, "v{k}{z}, v, v/m/m64bcst, imm", FE(X_F))
    /* compares */
    VEX("vpcmpeqb", 1, 1, 0x74, -1, -1, LV, VK_RVM, 1, 0, IP, v_cmpeq_v, "v, v, v/m", FAVX12)
    VEX("vpcmpeqw", 1, 1, 0x75, -1, -1, LV, VK_RVM, 2, 0, IP, v_cmpeq_v, "v, v, v/m", FAVX12)
    VEX("vpcmpeqd", 1, 1, 0x76, -1, -1, LV, VK_RVM, 4, 0, IP, v_cmpeq_v, "v, v, v/m", FAVX12)
    VEX("vpcmpeqq", 2, 1, 0x29, -1, -1, LV, VK_RVM, 8, 0, IP, v_cmpeq_v, "v, v, v/m", FAVX12)
    VEX("vpcmpgtb", 1, 1, 0x64, -1, -1, LV, VK_RVM, 1, 0, IP, v_cmpgt_v, "v, v, v/m", FAVX12)
    VEX("vpcmpgtw", 1, 1, 0x65, -1, -1, LV, VK_RVM, 2, 0, IP, v_cmpgt_v, "v, v, v/m", FAVX12)
    VEX("vpcmpgtd", 1, 1, 0x66, -1, -1, LV, VK_RVM, 4, 0, IP, v_cmpgt_v, "v, v, v/m", FAVX12)
    VEX("vpcmpgtq", 2, 1, 0x37, -1, -1, LV, VK_RVM, 8, 0, IP, v_cmpgt_v, "v, v, v/m", FAVX12)
    EVX("vpcmpeqb", 1, 1, 0x74, -1, -1, VK_KVM, 1, 0, 0, EW, k_cmpeq, "k{k}, v, v/m", FE(X_BW))
    EVX("vpcmpeqw", 1, 1, 0x75, -1, -1, VK_KVM, 2, 0, 0, EW, k_cmpeq, "k{k}, v, v/m", FE(X_BW))
    EVX("vpcmpeqd", 1, 1, 0x76, 0, -1, VK_KVM, 4, 4, 0, EW, k_cmpeq, "k{k}, v, v/m/m32bcst", FE(X_F))
    EVX("vpcmpeqq", 2, 1, 0x29, 1, -1, VK_KVM, 8, 8, 0, EW, k_cmpeq, "k{k}, v, v/m/m64bcst", FE(X_F))
    EVX("vpcmpgtb", 1, 1, 0x64, -1, -1, VK_KVM, 1, 0, 0, EW, k_cmpgt, "k{k}, v, v/m", FE(X_BW))
    EVX("vpcmpgtw", 1, 1, 0x65, -1, -1, VK_KVM, 2, 0, 0, EW, k_cmpgt, "k{k}, v, v/m", FE(X_BW))
    EVX("vpcmpgtd", 1, 1, 0x66, 0, -1, VK_KVM, 4, 4, 0, EW, k_cmpgt, "k{k}, v, v/m/m32bcst", FE(X_F))
    EVX("vpcmpgtq", 2, 1, 0x37, 1, -1, VK_KVM, 8, 8, 0, EW, k_cmpgt, "k{k}, v, v/m/m64bcst", FE(X_F))
    EVX("vpcmpb", 3, 1, 0x3f, 0, -1, VK_KVM, 1, 0, 0, EW | I8, k_cmp_imm, "k{k}, v, v/m, imm", FE(X_BW))
    EVX("vpcmpw", 3, 1, 0x3f, 1, -1, VK_KVM, 2, 0, 0, EW | I8, k_cmp_imm, "k{k}, v, v/m, imm", FE(X_BW))
    EVX("vpcmpub", 3, 1, 0x3e, 0, -1, VK_KVM, 1, 0, 0, EW | I8, k_cmpu_imm, "k{k}, v, v/m, imm", FE(X_BW))
    EVX("vpcmpuw", 3, 1, 0x3e, 1, -1, VK_KVM, 2, 0, 0, EW | I8, k_cmpu_imm, "k{k}, v, v/m, imm", FE(X_BW))
    EVX("vpcmpd", 3, 1, 0x1f, 0, -1, VK_KVM, 4, 4, 0, EW | I8, k_cmp_imm, "k{k}, v, v/m/m32bcst, imm", FE(X_F))
    EVX("vpcmpq", 3, 1, 0x1f, 1, -1, VK_KVM, 8, 8, 0, EW | I8, k_cmp_imm, "k{k}, v, v/m/m64bcst, imm", FE(X_F))
    EVX("vpcmpud", 3, 1, 0x1e, 0, -1, VK_KVM, 4, 4, 0, EW | I8, k_cmpu_imm, "k{k}, v, v/m/m32bcst, imm", FE(X_F))
    EVX("vpcmpuq", 3, 1, 0x1e, 1, -1, VK_KVM, 8, 8, 0, EW | I8, k_cmpu_imm, "k{k}, v, v/m/m64bcst, imm", FE(X_F))
    EVX("vptestmb", 2, 1, 0x26, 0, -1, VK_KVM, 1, 0, 0, EW, k_test, "k{k}, v, v/m", FE(X_BW))
    EVX("vptestmw", 2, 1, 0x26, 1, -1, VK_KVM, 2, 0, 0, EW, k_test, "k{k}, v, v/m", FE(X_BW))
    EVX("vptestmd", 2, 1, 0x27, 0, -1, VK_KVM, 4, 4, 0, EW, k_test, "k{k}, v, v/m/m32bcst", FE(X_F))
    EVX("vptestmq", 2, 1, 0x27, 1, -1, VK_KVM, 8, 8, 0, EW, k_test, "k{k}, v, v/m/m64bcst", FE(X_F))
    EVX("vptestnmb", 2, 2, 0x26, 0, -1, VK_KVM, 1, 0, 0, EW, k_test, "k{k}, v, v/m", FE(X_BW))
    EVX("vptestnmw", 2, 2, 0x26, 1, -1, VK_KVM, 2, 0, 0, EW, k_test, "k{k}, v, v/m", FE(X_BW))
    EVX("vptestnmd", 2, 2, 0x27, 0, -1, VK_KVM, 4, 4, 0, EW, k_test, "k{k}, v, v/m/m32bcst", FE(X_F))
    EVX("vptestnmq", 2, 2, 0x27, 1, -1, VK_KVM, 8, 8, 0, EW, k_test, "k{k}, v, v/m/m64bcst", FE(X_F))
    {"vpmovm2b", VX_ENC_EVEX, 2, 2, 0x28, 0xff, 0, -1, LA, VK_SPEC, 1, 0, 0, M | VF_REGONLY, 0, (void *)s_movm2, "v, k", "v-k", FE(X_BW)},
    {"vpmovm2w", VX_ENC_EVEX, 2, 2, 0x28, 0xff, 1, -1, LA, VK_SPEC, 2, 0, 0, M | VF_REGONLY, 0, (void *)s_movm2, "v, k", "v-k", FE(X_BW)},
    {"vpmovm2d", VX_ENC_EVEX, 2, 2, 0x38, 0xff, 0, -1, LA, VK_SPEC, 4, 0, 0, M | VF_REGONLY, 0, (void *)s_movm2, "v, k", "v-k", FE(X_DQ)},
    {"vpmovm2q", VX_ENC_EVEX, 2, 2, 0x38, 0xff, 1, -1, LA, VK_SPEC, 8, 0, 0, M | VF_REGONLY, 0, (void *)s_movm2, "v, k", "v-k", FE(X_DQ)},
    {"vpmovb2m", VX_ENC_EVEX, 2, 2, 0x29, 0xff, 0, -1, LA, VK_SPEC, 1, 0, 0, M | VF_REGONLY, 0, (void *)s_mov2m, "k, v", "k-v", FE(X_BW)},
    {"vpmovw2m", VX_ENC_EVEX, 2, 2, 0x29, 0xff, 1, -1, LA, VK_SPEC, 2, 0, 0, M | VF_REGONLY, 0, (void *)s_mov2m, "k, v", "k-v", FE(X_BW)},
    {"vpmovd2m", VX_ENC_EVEX, 2, 2, 0x39, 0xff, 0, -1, LA, VK_SPEC, 4, 0, 0, M | VF_REGONLY, 0, (void *)s_mov2m, "k, v", "k-v", FE(X_DQ)},
    {"vpmovq2m", VX_ENC_EVEX, 2, 2, 0x39, 0xff, 1, -1, LA, VK_SPEC, 8, 0, 0, M | VF_REGONLY, 0, (void *)s_mov2m, "k, v", "k-v", FE(X_DQ)},
    {"vpblendmb", VX_ENC_EVEX, 2, 1, 0x66, 0xff, 0, -1, LA, VK_SPEC, 1, 0, 0, M | KM | EW, 0, (void *)s_blendm, "v{k}{z}, v, v/m", "vvv", FE(X_BW)},
    {"vpblendmw", VX_ENC_EVEX, 2, 1, 0x66, 0xff, 1, -1, LA, VK_SPEC, 2, 0, 0, M | KM | EW, 0, (void *)s_blendm, "v{k}{z}, v, v/m", "vvv", FE(X_BW)},
    {"vpblendmd", VX_ENC_EVEX, 2, 1, 0x64, 0xff, 0, -1, LA, VK_SPEC, 4, 4, 0, M | KM | EW, 0, (void *)s_blendm, "v{k}{z}, v, v/m/m32bcst", "vvv", FE(X_F)},
    {"vpblendmq", VX_ENC_EVEX, 2, 1, 0x64, 0xff, 1, -1, LA, VK_SPEC, 8, 8, 0, M | KM | EW, 0, (void *)s_blendm, "v{k}{z}, v, v/m/m64bcst", "vvv", FE(X_F)},
    /* crypto: GFNI, VAES, VPCLMULQDQ */
    VEX("vgf2p8affineqb", 3, 1, 0xce, 1, -1, LV, VK_RVM, 1, 0, I8 | IP, v_gfaffine, "v, v, v/m, imm", FV2(X_GFNI | X_AVX, X_GFNI | X_AVX))
    VEX("vgf2p8affineinvqb", 3, 1, 0xcf, 1, -1, LV, VK_RVM, 1, 0, I8 | IP, v_gfaffine, "v, v, v/m, imm", FV2(X_GFNI | X_AVX, X_GFNI | X_AVX))
    VEX("vgf2p8mulb", 2, 1, 0xcf, 0, -1, LV, VK_RVM, 1, 0, 0, v_gfmul, "v, v, v/m", FV2(X_GFNI | X_AVX, X_GFNI | X_AVX))
    EVX("vgf2p8affineqb", 3, 1, 0xce, 1, -1, VK_RVM, 1, 8, 0, I8 | IP, v_gfaffine, "v{k}{z}, v, v/m/m64bcst, imm", FE(X_GFNI | X_F))
    EVX("vgf2p8affineinvqb", 3, 1, 0xcf, 1, -1, VK_RVM, 1, 8, 0, I8 | IP, v_gfaffine, "v{k}{z}, v, v/m/m64bcst, imm", FE(X_GFNI | X_F))
    EVX("vgf2p8mulb", 2, 1, 0xcf, 0, -1, VK_RVM, 1, 0, 0, EW, v_gfmul, "v{k}{z}, v, v/m", FE(X_GFNI | X_F))
    VEX("vaesenc", 2, 1, 0xdc, -1, -1, LV, VK_RVM, 1, 0, 0, v_aes, "v, v, v/m", FV2(X_AES | X_AVX, X_VAES | X_AVX))
    VEX("vaesenclast", 2, 1, 0xdd, -1, -1, LV, VK_RVM, 1, 0, 0, v_aes, "v, v, v/m", FV2(X_AES | X_AVX, X_VAES | X_AVX))
    VEX("vaesdec", 2, 1, 0xde, -1, -1, LV, VK_RVM, 1, 0, 0, v_aes, "v, v, v/m", FV2(X_AES | X_AVX, X_VAES | X_AVX))
    VEX("vaesdeclast", 2, 1, 0xdf, -1, -1, LV, VK_RVM, 1, 0, 0, v_aes, "v, v, v/m", FV2(X_AES | X_AVX, X_VAES | X_AVX))
    {"vaesenc", VX_ENC_EVEX, 2, 1, 0xdc, 0xff, -1, -1, LA, VK_RVM, 1, 0, 0, M, 0, (void *)v_aes, "v, v, v/m", "vvv", FE(X_VAES | X_F)},
    {"vaesenclast", VX_ENC_EVEX, 2, 1, 0xdd, 0xff, -1, -1, LA, VK_RVM, 1, 0, 0, M, 0, (void *)v_aes, "v, v, v/m", "vvv", FE(X_VAES | X_F)},
    {"vaesdec", VX_ENC_EVEX, 2, 1, 0xde, 0xff, -1, -1, LA, VK_RVM, 1, 0, 0, M, 0, (void *)v_aes, "v, v, v/m", "vvv", FE(X_VAES | X_F)},
    {"vaesdeclast", VX_ENC_EVEX, 2, 1, 0xdf, 0xff, -1, -1, LA, VK_RVM, 1, 0, 0, M, 0, (void *)v_aes, "v, v, v/m", "vvv", FE(X_VAES | X_F)},
    VEX("vpclmulqdq", 3, 1, 0x44, -1, -1, LV, VK_RVM, 1, 0, I8, v_clmul, "v, v, v/m, imm", FV2(X_PCLMULQDQ | X_AVX, X_VPCLMULQDQ | X_AVX))
    {"vpclmulqdq", VX_ENC_EVEX, 3, 1, 0x44, 0xff, -1, -1, LA, VK_RVM, 1, 0, 0, M | I8, 0, (void *)v_clmul, "v, v, v/m, imm", "vvv", FE(X_VPCLMULQDQ | X_F)},
    /* forms of the real corpus (libgcrypt 1.12, Linux 6.12, OpenSSL 3.0: ./asmdiff inventory) */
    VEX("vbroadcastss", 2, 1, 0x18, 0, -1, LV, VK_RM, 4, 4, IP, v_bcast, "v, xmm/m32", FREG2)
    VEX("vbroadcastsd", 2, 1, 0x19, 0, -1, L256, VK_RM, 8, 8, IP, v_bcast, "ymm, xmm/m64", FREG2)
    VEX("vbroadcastf128", 2, 1, 0x1a, 0, -1, L256, VK_RM, 1, 16, VF_MEMONLY, v_bcast, "ymm, m128", FAVX)
    VEX("vinsertf128", 3, 1, 0x18, 0, -1, L256, VK_RVM, 1, 16, I8, v_insert, "ymm, ymm, xmm/m128, imm", FAVX)
    VEX("vextractf128", 3, 1, 0x19, 0, -1, L256, VK_MR, 1, 16, I8, v_extract, "xmm/m128, ymm, imm", FAVX)
    VEX("vperm2f128", 3, 1, 0x06, 0, -1, L256, VK_RVM, 1, 0, I8, v_perm2i128, "ymm, ymm, ymm/m256, imm", FAVX)
    VEX("vmovddup", 1, 3, 0x12, -1, -1, L128, VK_RM, 8, 8, 0, v_movddup, "xmm, xmm/m64", FAVX)
    VEX("vmovddup", 1, 3, 0x12, -1, -1, L256, VK_RM, 8, 0, 0, v_movddup, "ymm, ymm/m256", FAVX)
    VEX("vandps", 1, 0, 0x54, -1, -1, LV, VK_RVM, 4, 0, IP, v_and, "v, v, v/m", FAVX)
    VEX("vandpd", 1, 1, 0x54, -1, -1, LV, VK_RVM, 8, 0, IP, v_and, "v, v, v/m", FAVX)
    VEX("vandnps", 1, 0, 0x55, -1, -1, LV, VK_RVM, 4, 0, IP, v_andn, "v, v, v/m", FAVX)
    VEX("vandnpd", 1, 1, 0x55, -1, -1, LV, VK_RVM, 8, 0, IP, v_andn, "v, v, v/m", FAVX)
    VEX("vorps", 1, 0, 0x56, -1, -1, LV, VK_RVM, 4, 0, IP, v_or, "v, v, v/m", FAVX)
    VEX("vorpd", 1, 1, 0x56, -1, -1, LV, VK_RVM, 8, 0, IP, v_or, "v, v, v/m", FAVX)
    VEX("vxorps", 1, 0, 0x57, -1, -1, LV, VK_RVM, 4, 0, IP, v_xor, "v, v, v/m", FAVX)
    VEX("vxorpd", 1, 1, 0x57, -1, -1, LV, VK_RVM, 8, 0, IP, v_xor, "v, v, v/m", FAVX)
    VEX("vpblendvb", 3, 1, 0x4c, 0, -1, LV, VK_RVM, 1, 0, I8, v_blendvb, "v, v, v/m, v (imm[7:4])", FAVX12)
    EVX("vpopcntb", 2, 1, 0x54, 0, -1, VK_RM, 1, 0, 0, EW, v_popcnt, "v{k}{z}, v/m", FE(X_BITALG))
    EVX("vpopcntw", 2, 1, 0x54, 1, -1, VK_RM, 2, 0, 0, EW, v_popcnt, "v{k}{z}, v/m", FE(X_BITALG))
    EVX("vpopcntd", 2, 1, 0x55, 0, -1, VK_RM, 4, 4, 0, EW, v_popcnt, "v{k}{z}, v/m/m32bcst", FE(X_VPOPCNTDQ))
    EVX("vpopcntq", 2, 1, 0x55, 1, -1, VK_RM, 8, 8, 0, EW, v_popcnt, "v{k}{z}, v/m/m64bcst", FE(X_VPOPCNTDQ))
    EVX("vpmadd52luq", 2, 1, 0xb4, 1, -1, VK_RVM, 8, 8, 0, EW, v_madd52, "v{k}{z}, v, v/m/m64bcst", FE(X_IFMA))
    EVX("vpmadd52huq", 2, 1, 0xb5, 1, -1, VK_RVM, 8, 8, 0, EW, v_madd52, "v{k}{z}, v, v/m/m64bcst", FE(X_IFMA))
    {"andn", VX_ENC_VEX, 2, 0, 0xf2, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 8, M, VX_AF | VX_PF, (void *)g_andn, "r32|64, r32|64, r/m32|64", "ggg", FFIX(X_BMI1)},
    {"bzhi", VX_ENC_VEX, 2, 0, 0xf5, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 8, M, VX_AF | VX_PF, (void *)g_bzhi, "r32|64, r/m32|64, r32|64", "ggg", FFIX(X_BMI2)},
    {"mulx", VX_ENC_VEX, 2, 3, 0xf6, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 8, M, 0, (void *)g_mulx, "r32|64, r32|64, r/m32|64 (rdx)", "ggg", FFIX(X_BMI2)},
    {"shlx", VX_ENC_VEX, 2, 1, 0xf7, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 8, M, 0, (void *)g_shiftx, "r32|64, r/m32|64, r32|64", "ggg", FFIX(X_BMI2)},
    {"sarx", VX_ENC_VEX, 2, 2, 0xf7, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 8, M, 0, (void *)g_shiftx, "r32|64, r/m32|64, r32|64", "ggg", FFIX(X_BMI2)},
    {"shrx", VX_ENC_VEX, 2, 3, 0xf7, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 8, M, 0, (void *)g_shiftx, "r32|64, r/m32|64, r32|64", "ggg", FFIX(X_BMI2)},
    {"rorx", VX_ENC_VEX, 3, 3, 0xf0, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 8, M | I8, 0, (void *)g_rorx, "r32|64, r/m32|64, imm", "g-g", FFIX(X_BMI2)},
    /* opmask registers (VEX-encoded) */
    {"kandw/b/q/d", VX_ENC_VEX, 1, 0xfe, 0x41, 0xff, -1, -1, L256, VK_SPEC, 0, 0, 0, M | VF_REGONLY, 0, (void *)s_klogic, "k, k, k", "kkk", FK(X_F)},
    {"kandnw/b/q/d", VX_ENC_VEX, 1, 0xfe, 0x42, 0xff, -1, -1, L256, VK_SPEC, 0, 0, 0, M | VF_REGONLY, 0, (void *)s_klogic, "k, k, k", "kkk", FK(X_F)},
    {"knotw/b/q/d", VX_ENC_VEX, 1, 0xfe, 0x44, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 0, M | VF_REGONLY, 0, (void *)s_klogic, "k, k", "k-k", FK(X_F)},
    {"korw/b/q/d", VX_ENC_VEX, 1, 0xfe, 0x45, 0xff, -1, -1, L256, VK_SPEC, 0, 0, 0, M | VF_REGONLY, 0, (void *)s_klogic, "k, k, k", "kkk", FK(X_F)},
    {"kxnorw/b/q/d", VX_ENC_VEX, 1, 0xfe, 0x46, 0xff, -1, -1, L256, VK_SPEC, 0, 0, 0, M | VF_REGONLY, 0, (void *)s_klogic, "k, k, k", "kkk", FK(X_F)},
    {"kxorw/b/q/d", VX_ENC_VEX, 1, 0xfe, 0x47, 0xff, -1, -1, L256, VK_SPEC, 0, 0, 0, M | VF_REGONLY, 0, (void *)s_klogic, "k, k, k", "kkk", FK(X_F)},
    {"kaddw/b/q/d", VX_ENC_VEX, 1, 0xfe, 0x4a, 0xff, -1, -1, L256, VK_SPEC, 0, 0, 0, M | VF_REGONLY, 0, (void *)s_klogic, "k, k, k", "kkk", FK(X_DQ)},
    {"kunpckbw", VX_ENC_VEX, 1, 1, 0x4b, 0xff, 0, -1, L256, VK_SPEC, 0, 0, 0, M | VF_REGONLY, 0, (void *)s_klogic, "k, k, k", "kkk", FFIX(X_F)},
    {"kunpckwd/dq", VX_ENC_VEX, 1, 0, 0x4b, 0xff, -1, -1, L256, VK_SPEC, 0, 0, 0, M | VF_REGONLY, 0, (void *)s_klogic, "k, k, k", "kkk", FFIX(X_BW)},
    {"kmovw/b/q/d", VX_ENC_VEX, 1, 0xfe, 0x90, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 0, M, 0, (void *)s_kmov, "k, k/m", "k-k", FK(X_F)},
    {"kmovw/b/q/d", VX_ENC_VEX, 1, 0xfe, 0x91, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 0, M | VF_MEMONLY, 0, (void *)s_kmov, "m, k", "k-k", FK(X_F)},
    {"kmovw/b", VX_ENC_VEX, 1, 0xfe, 0x92, 0xff, 0, -1, L128, VK_SPEC, 0, 0, 0, M | VF_REGONLY, 0, (void *)s_kmov, "k, r32", "k-g", FK(X_F)},
    {"kmovd/q", VX_ENC_VEX, 1, 3, 0x92, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 0, M | VF_REGONLY, 0, (void *)s_kmov, "k, r32|64", "k-g", FK(X_F)},
    {"kmovw/b", VX_ENC_VEX, 1, 0xfe, 0x93, 0xff, 0, -1, L128, VK_SPEC, 0, 0, 0, M | VF_REGONLY, 0, (void *)s_kmov, "r32, k", "g-k", FK(X_F)},
    {"kmovd/q", VX_ENC_VEX, 1, 3, 0x93, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 0, M | VF_REGONLY, 0, (void *)s_kmov, "r32|64, k", "g-k", FK(X_F)},
    {"kortestw/b/q/d", VX_ENC_VEX, 1, 0xfe, 0x98, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 0, M | VF_REGONLY, 0, (void *)s_ktest, "k, k", "k-k", FK(X_F)},
    {"ktestw/b/q/d", VX_ENC_VEX, 1, 0xfe, 0x99, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 0, M | VF_REGONLY, 0, (void *)s_ktest, "k, k", "k-k", FK(X_DQ)},
    {"kshiftrb/w", VX_ENC_VEX, 3, 1, 0x30, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 0, M | I8 | VF_REGONLY, 0, (void *)s_kshift, "k, k, imm", "k-k", FK(X_F)},
    {"kshiftrd/q", VX_ENC_VEX, 3, 1, 0x31, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 0, M | I8 | VF_REGONLY, 0, (void *)s_kshift, "k, k, imm", "k-k", FK(X_F)},
    {"kshiftlb/w", VX_ENC_VEX, 3, 1, 0x32, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 0, M | I8 | VF_REGONLY, 0, (void *)s_kshift, "k, k, imm", "k-k", FK(X_F)},
    {"kshiftld/q", VX_ENC_VEX, 3, 1, 0x33, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 0, M | I8 | VF_REGONLY, 0, (void *)s_kshift, "k, k, imm", "k-k", FK(X_F)},
    {"vzeroupper", VX_ENC_VEX, 1, 0, 0x77, 0xff, -1, -1, L128, VK_SPEC, 0, 0, 0, 0, 0, (void *)s_vzero, "", "", FAVX},
    {"vzeroall", VX_ENC_VEX, 1, 0, 0x77, 0xff, -1, -1, L256, VK_SPEC, 0, 0, 0, 0, 0, (void *)s_vzero, "", "", FAVX},

    /* scalar: pp 0xff = any prefix (66 is the operand size) */
#define AF_ (VX_AF)
    LEG("add/or/adc/sbb/and/sub/xor/cmp r/m8, r8", 0, 0xff, 0x00, 0xc7, -1, -1, M | VF_BYTE, AF_, g_alu, "r/m8, r8")
    LEG("add/or/adc/sbb/and/sub/xor/cmp r/m, r", 0, 0xff, 0x01, 0xc7, -1, -1, M, 0, g_alu, "r/m, r")
    LEG("add/or/adc/sbb/and/sub/xor/cmp r8, r/m8", 0, 0xff, 0x02, 0xc7, -1, -1, M | VF_BYTE, 0, g_alu, "r8, r/m8")
    LEG("add/or/adc/sbb/and/sub/xor/cmp r, r/m", 0, 0xff, 0x03, 0xc7, -1, -1, M, 0, g_alu, "r, r/m")
    LEG("add/or/adc/sbb/and/sub/xor/cmp al, imm8", 0, 0xff, 0x04, 0xc7, -1, -1, VF_IMM8 | VF_BYTE, 0, g_alu, "al, imm8")
    LEG("add/or/adc/sbb/and/sub/xor/cmp eax, imm", 0, 0xff, 0x05, 0xc7, -1, -1, VF_IMMZ, 0, g_alu, "eax, imm32")
    LEG("alu r/m8, imm8", 0, 0xff, 0x80, 0xff, -1, -1, M | I8 | VF_BYTE, 0, g_alu_imm, "r/m8, imm8")
    LEG("alu r/m, imm32", 0, 0xff, 0x81, 0xff, -1, -1, M | VF_IMMZ, 0, g_alu_imm, "r/m, imm32")
    LEG("alu r/m, imm8", 0, 0xff, 0x83, 0xff, -1, -1, M | I8, 0, g_alu_imm, "r/m, imm8")
    LEG("test r/m8, r8", 0, 0xff, 0x84, 0xff, -1, -1, M | VF_BYTE, VX_AF, g_test, "r/m8, r8")
    LEG("test r/m, r", 0, 0xff, 0x85, 0xff, -1, -1, M, VX_AF, g_test, "r/m, r")
    LEG("test al, imm8", 0, 0xff, 0xa8, 0xff, -1, -1, I8 | VF_BYTE, VX_AF, g_test, "al, imm8")
    LEG("test eax, imm", 0, 0xff, 0xa9, 0xff, -1, -1, VF_IMMZ, VX_AF, g_test, "eax, imm32")
    LEG("test r/m8, imm8", 0, 0xff, 0xf6, 0xff, -1, 0, M | I8 | VF_BYTE, VX_AF, g_test, "r/m8, imm8")
    LEG("test r/m, imm", 0, 0xff, 0xf7, 0xff, -1, 0, M | VF_IMMZ, VX_AF, g_test, "r/m, imm32")
    LEG("not r/m8", 0, 0xff, 0xf6, 0xff, -1, 2, M | VF_BYTE, 0, g_notneg, "r/m8")
    LEG("not r/m", 0, 0xff, 0xf7, 0xff, -1, 2, M, 0, g_notneg, "r/m")
    LEG("neg r/m8", 0, 0xff, 0xf6, 0xff, -1, 3, M | VF_BYTE, 0, g_notneg, "r/m8")
    LEG("neg r/m", 0, 0xff, 0xf7, 0xff, -1, 3, M, 0, g_notneg, "r/m")
    LEG("inc r/m8", 0, 0xff, 0xfe, 0xff, -1, 0, M | VF_BYTE, 0, g_incdec, "r/m8")
    LEG("dec r/m8", 0, 0xff, 0xfe, 0xff, -1, 1, M | VF_BYTE, 0, g_incdec, "r/m8")
    LEG("inc r/m", 0, 0xff, 0xff, 0xff, -1, 0, M, 0, g_incdec, "r/m")
    LEG("dec r/m", 0, 0xff, 0xff, 0xff, -1, 1, M, 0, g_incdec, "r/m")
    LEG("rol/ror/shl/shr/sar r/m, imm8", 0, 0xff, 0xc1, 0xff, -1, -1, M | I8, VX_OF | VX_AF, g_shift, "r/m, imm8")
    LEG("rol/ror/shl/shr/sar r/m8, imm8", 0, 0xff, 0xc0, 0xff, -1, -1, M | I8 | VF_BYTE, VX_OF | VX_AF, g_shift, "r/m8, imm8")
    LEG("rol/ror/shl/shr/sar r/m, 1", 0, 0xff, 0xd1, 0xff, -1, -1, M, VX_AF, g_shift, "r/m, 1")
    LEG("rol/ror/shl/shr/sar r/m, cl", 0, 0xff, 0xd3, 0xff, -1, -1, M, VX_OF | VX_AF, g_shift, "r/m, cl")
    /* helper vxspeed: the byte forms by 1 and by cl (Camellia's key schedule rotates with
     * `rolb %cl`: each call handed the rest of the schedule to Unicorn) */
    LEG("rol/ror/shl/shr/sar r/m8, 1", 0, 0xff, 0xd0, 0xff, -1, -1, M | VF_BYTE, VX_AF, g_shift, "r/m8, 1")
    LEG("rol/ror/shl/shr/sar r/m8, cl", 0, 0xff, 0xd2, 0xff, -1, -1, M | VF_BYTE, VX_OF | VX_AF, g_shift, "r/m8, cl")
    /* helper vxspeed: shld/shrd (Camellia's key schedule: `shldq %cl`) */
    LEG("shld r/m, r, imm8", 1, 0xff, 0xa4, 0xff, -1, -1, M | I8, VX_OF | VX_AF, g_shxd, "r/m, r, imm8")
    LEG("shld r/m, r, cl", 1, 0xff, 0xa5, 0xff, -1, -1, M, VX_OF | VX_AF, g_shxd, "r/m, r, cl")
    LEG("shrd r/m, r, imm8", 1, 0xff, 0xac, 0xff, -1, -1, M | I8, VX_OF | VX_AF, g_shxd, "r/m, r, imm8")
    LEG("shrd r/m, r, cl", 1, 0xff, 0xad, 0xff, -1, -1, M, VX_OF | VX_AF, g_shxd, "r/m, r, cl")
    LEG("mov r/m8, r8", 0, 0xff, 0x88, 0xff, -1, -1, M | VF_BYTE, 0, g_mov, "r/m8, r8")
    LEG("mov r/m, r", 0, 0xff, 0x89, 0xff, -1, -1, M, 0, g_mov, "r/m, r")
    LEG("mov r8, r/m8", 0, 0xff, 0x8a, 0xff, -1, -1, M | VF_BYTE, 0, g_mov, "r8, r/m8")
    LEG("mov r, r/m", 0, 0xff, 0x8b, 0xff, -1, -1, M, 0, g_mov, "r, r/m")
    LEG("mov r/m8, imm8", 0, 0xff, 0xc6, 0xff, -1, 0, M | I8 | VF_BYTE, 0, g_mov, "r/m8, imm8")
    LEG("mov r/m, imm32", 0, 0xff, 0xc7, 0xff, -1, 0, M | VF_IMMZ, 0, g_mov, "r/m, imm32")
    LEG("mov r8, imm8", 0, 0xff, 0xb0, 0xf8, -1, -1, I8 | VF_BYTE, 0, g_mov, "r8, imm8")
    LEG("mov r, imm", 0, 0xff, 0xb8, 0xf8, -1, -1, VF_IMMZ | VF_IMM64, 0, g_mov, "r, imm32|64")
    LEG("lea", 0, 0xff, 0x8d, 0xff, -1, -1, M | VF_MEMONLY, 0, g_lea, "r, m")
    LEG("movzx r, r/m8", 1, 0xff, 0xb6, 0xff, -1, -1, M, 0, g_movx, "r, r/m8")
    LEG("movzx r, r/m16", 1, 0xff, 0xb7, 0xff, -1, -1, M, 0, g_movx, "r, r/m16")
    LEG("movsx r, r/m8", 1, 0xff, 0xbe, 0xff, -1, -1, M, 0, g_movx, "r, r/m8")
    LEG("movsx r, r/m16", 1, 0xff, 0xbf, 0xff, -1, -1, M, 0, g_movx, "r, r/m16")
    LEG("movsxd r64, r/m32", 0, 0xff, 0x63, 0xff, -1, -1, M, 0, g_movx, "r64, r/m32")
    LEG("imul r, r/m", 1, 0xff, 0xaf, 0xff, -1, -1, M, VX_SF | VX_ZF | VX_AF | VX_PF, g_imul, "r, r/m")
    LEG("xchg r, r", 0, 0xff, 0x87, 0xff, -1, -1, M | VF_REGONLY, 0, g_xchg, "r, r")
    LEG("cmovcc r, r/m", 1, 0xff, 0x40, 0xf0, -1, -1, M, 0, g_cmov, "r, r/m")
    LEG("setcc r/m8", 1, 0xff, 0x90, 0xf0, -1, -1, M, 0, g_setcc, "r/m8")
    LEG("bswap r", 1, 0xff, 0xc8, 0xf8, -1, -1, 0, 0, g_bswap, "r32|64")
    LEG("jcc rel8", 0, 0xff, 0x70, 0xf0, -1, -1, VF_REL8 | VF_BRANCH, 0, g_jcc, "rel8")
    LEG("jcc rel32", 1, 0xff, 0x80, 0xf0, -1, -1, VF_REL32 | VF_BRANCH, 0, g_jcc, "rel32")
    LEG("jmp rel8", 0, 0xff, 0xeb, 0xff, -1, -1, VF_REL8 | VF_BRANCH, 0, g_jmp, "rel8")
    LEG("jmp rel32", 0, 0xff, 0xe9, 0xff, -1, -1, VF_REL32 | VF_BRANCH, 0, g_jmp, "rel32")
    LEG("call rel32", 0, 0xff, 0xe8, 0xff, -1, -1, VF_REL32 | VF_BRANCH | VF_STACK, 0, g_call, "rel32")
    LEG("ret", 0, 0xff, 0xc3, 0xff, -1, -1, VF_BRANCH | VF_STACK, 0, g_ret, "")
    LEG("call r/m64", 0, 0xff, 0xff, 0xff, -1, 2, M | VF_BRANCH | VF_STACK, 0, g_call_ind, "r/m64")
    /* legacy SSE of the compiled C around the kernels (the bench functions) */
    {"xorps", VX_ENC_LEG, 1, 0, 0x57, 0xff, -1, -1, 1, VK_SPEC, 16, 0, 16, M | VF_ALIGN, 0, (void *)s_xorps_leg, "xmm, xmm/m128", "v-v", FFIX(X_SSE)},
    {"movaps", VX_ENC_LEG, 1, 0, 0x29, 0xff, -1, -1, 1, VK_SPEC, 16, 0, 16, M | VF_ALIGN, 0, (void *)s_movaps_store_leg, "xmm/m128, xmm", "v-v", FFIX(X_SSE)},
    LEG("push r64", 0, 0xff, 0x50, 0xf8, -1, -1, VF_STACK, 0, g_push, "r64")
    LEG("pop r64", 0, 0xff, 0x58, 0xf8, -1, -1, VF_STACK, 0, g_pop, "r64")
    LEG("nop", 0, 0xff, 0x90, 0xff, -1, -1, 0, 0, g_nop, "")
    LEG("movsb", 0, 0xff, 0xa4, 0xff, -1, -1, VF_BYTE, 0, g_movsb, "")
    LEG("nop r/m", 1, 0xff, 0x1f, 0xff, -1, 0, M, 0, g_nop, "r/m")
    LEG("endbr64", 1, 2, 0x1e, 0xff, -1, 7, M | VF_REGONLY, 0, g_endbr, "")
    /* legacy SSE Unicorn cannot run (s_pclmulqdq_leg) */
    {"pclmulqdq", VX_ENC_LEG, 3, 1, 0x44, 0xff, -1, -1, 1, VK_SPEC, 16, 0, 16, M | VF_ALIGN | I8, 0, (void *)s_pclmulqdq_leg, "xmm, xmm/m128, imm8", "v-v", FFIX(X_PCLMULQDQ)},
};

const struct vx_form *vx_forms(size_t *n)
{
    *n = sizeof forms / sizeof forms[0];
    return forms;
}

/* ---- decoder ------------------------------------------------------------------------------ */

static int pp_ok(const struct vx_form *f, unsigned pp)
{
    if (f->pp == 0xff) return 1;
    if (f->pp == 0xfe) return pp <= 1;
    return f->pp == pp;
}

/* Forms by (encoding, map, opcode byte), in table order: the decoder looks at a handful of
 * rows instead of the whole table.  Built on first use. */
#define NFORMS (sizeof forms / sizeof forms[0])
static uint16_t by_op_start[3][4][257];
static uint16_t by_op[NFORMS * 8 + 64];
static int by_op_ready;

static void index_forms(void)
{
    size_t n = 0;
    for (unsigned e = 0; e < 3; e++)
        for (unsigned m = 0; m < 4; m++) {
            for (unsigned op = 0; op < 256; op++) {
                by_op_start[e][m][op] = (uint16_t)n;
                for (size_t i = 0; i < NFORMS; i++)
                    if (forms[i].enc == e && forms[i].map == m &&
                        (op & forms[i].opmask) == forms[i].op && n < sizeof by_op / sizeof by_op[0])
                        by_op[n++] = (uint16_t)i;
            }
            by_op_start[e][m][256] = (uint16_t)n;
        }
    by_op_ready = 1;
}

static const struct vx_form *find_form(const struct vx_insn *in, int need_modrm)
{
    if (!by_op_ready) index_forms();
    if (in->enc > 2 || in->map > 3) return NULL;
    const uint16_t *st = by_op_start[in->enc][in->map];
    size_t end = in->op == 255 ? st[256] : st[in->op + 1];
    for (size_t k = st[in->op]; k < end; k++) {
        const struct vx_form *f = &forms[by_op[k]];
        if (!pp_ok(f, in->pp)) continue;
        if (!need_modrm) return f;
        if (f->reg >= 0 && f->reg != in->regf) continue;
        if (f->w >= 0 && f->w != in->w) continue;
        if (f->enc != VX_ENC_LEG && !((f->lm >> in->l) & 1)) continue;
        if ((f->flags & VF_MODRM) && (f->flags & VF_MEMONLY) && !in->mem) continue;
        if ((f->flags & VF_MODRM) && (f->flags & VF_REGONLY) && in->mem) continue;
        if (f->enc == VX_ENC_LEG && (f->flags & VF_BYTE) == 0 && in->osz16 && f->pp != 1 &&
            f->op != 0x1f && f->op != 0x90)
            continue; /* 16-bit operand size: not in the table (66 as an SSE form's own
                       * prefix, pp 1, is no operand size) */
        return f;
    }
    return NULL;
}

int vx_decode(const uint8_t *p, size_t n, uint64_t rip, struct vx_insn *in)
{
    memset(in, 0, sizeof *in);
    in->rip = rip;
    in->base = in->index = -1;
    size_t i = 0;
    unsigned last_rep = 0;
#define NEED(k) do { if (i + (k) > n || i + (k) > 15) return 1; } while (0)
    for (;; i++) {
        NEED(1);
        uint8_t b = p[i];
        if (b == 0x66) in->osz16 = 1;
        else if (b == 0xf2 || b == 0xf3) last_rep = b;
        else if (b == 0x2e || b == 0x3e || b == 0x26 || b == 0x36) continue;
        else if (b == 0x64 || b == 0x65) in->seg = b;
        else if (b == 0xf0) in->lock = 1;
        else if (b == 0x67) in->seg = b; /* 32-bit addressing: not in the table */
        else break;
    }
    in->rep = (uint8_t)last_rep;
    NEED(1);
    int vex_ok = !in->osz16 && !last_rep && !in->lock;
    uint8_t b0 = p[i];
    unsigned R = 0, X = 0, B = 0, R2 = 0, V2 = 0;
    if ((b0 == 0xc4 || b0 == 0xc5 || b0 == 0x62) && vex_ok) {
        if (b0 == 0xc5) {
            NEED(3);
            uint8_t v = p[i + 1];
            in->enc = VX_ENC_VEX;
            R = !(v & 0x80);
            in->vvvv = (~v >> 3) & 15;
            in->l = (v >> 2) & 1;
            in->pp = v & 3;
            in->map = 1;
            i += 2;
        } else if (b0 == 0xc4) {
            NEED(4);
            uint8_t v1 = p[i + 1], v2 = p[i + 2];
            in->enc = VX_ENC_VEX;
            R = !(v1 & 0x80); X = !(v1 & 0x40); B = !(v1 & 0x20);
            in->map = v1 & 0x1f;
            in->w = v2 >> 7;
            in->vvvv = (~v2 >> 3) & 15;
            in->l = (v2 >> 2) & 1;
            in->pp = v2 & 3;
            i += 3;
        } else {
            NEED(5);
            uint8_t e0 = p[i + 1], e1 = p[i + 2], e2 = p[i + 3];
            if ((e0 & 0x08) || !(e1 & 0x04)) return 1;
            in->enc = VX_ENC_EVEX;
            R = !(e0 & 0x80); X = !(e0 & 0x40); B = !(e0 & 0x20); R2 = !(e0 & 0x10);
            in->map = e0 & 7;
            in->w = e1 >> 7;
            in->vvvv = (~e1 >> 3) & 15;
            in->pp = e1 & 3;
            in->z = e2 >> 7;
            in->l = (e2 >> 5) & 3;
            in->bc = (e2 >> 4) & 1;
            V2 = !(e2 & 0x08);
            in->aaa = e2 & 7;
            in->vvvv |= (uint8_t)(V2 << 4);
            i += 4;
            if (in->l == 3) return 1;
        }
        in->op = p[i++];
    } else {
        if ((b0 & 0xf0) == 0x40) {
            in->rex = b0;
            R = (b0 >> 2) & 1; X = (b0 >> 1) & 1; B = b0 & 1;
            in->w = (b0 >> 3) & 1;
            i++;
            NEED(1);
        }
        in->enc = VX_ENC_LEG;
        in->pp = last_rep == 0xf3 ? 2 : last_rep == 0xf2 ? 3 : in->osz16 ? 1 : 0;
        if (p[i] == 0x0f) {
            NEED(2);
            if (p[i + 1] == 0x38 || p[i + 1] == 0x3a) {
                NEED(3);
                in->map = p[i + 1] == 0x38 ? 2 : 3;
                in->op = p[i + 2];
                i += 3;
            } else {
                in->map = 1;
                in->op = p[i + 1];
                i += 2;
            }
        } else {
            in->map = 0;
            in->op = p[i++];
        }
    }
    const struct vx_form *f0 = find_form(in, 0);
    if (!f0) { in->len = 0; return 1; }
    int disp8 = 0;
    if (f0->flags & VF_MODRM) {
        NEED(1);
        uint8_t m = p[i++];
        in->has_modrm = 1;
        in->mod = m >> 6;
        in->regf = (m >> 3) & 7;
        in->rmf = m & 7;
        in->reg = (uint8_t)(in->regf | (R << 3) | (R2 << 4));
        if (in->mod == 3) {
            in->rm = (uint8_t)(in->rmf | (B << 3) | (in->enc == VX_ENC_EVEX ? X << 4 : 0));
        } else {
            in->mem = 1;
            unsigned base = in->rmf;
            if (base == 4) {
                NEED(1);
                uint8_t s = p[i++];
                in->scale = s >> 6;
                unsigned idx = ((s >> 3) & 7) | (X << 3);
                if (idx != 4) in->index = (int8_t)idx;
                base = s & 7;
                if (base == 5 && in->mod == 0) {
                    in->base = -1;
                    NEED(4);
                    int32_t d;
                    memcpy(&d, p + i, 4);
                    in->disp = d;
                    i += 4;
                    goto disp_done;
                }
            } else if (base == 5 && in->mod == 0) {
                in->base = 16;
                NEED(4);
                int32_t d;
                memcpy(&d, p + i, 4);
                in->disp = d;
                i += 4;
                goto disp_done;
            }
            in->base = (int8_t)(base | (B << 3));
            if (in->mod == 1) {
                NEED(1);
                in->disp = (int8_t)p[i++];
                disp8 = 1;
            } else if (in->mod == 2) {
                NEED(4);
                int32_t d;
                memcpy(&d, p + i, 4);
                in->disp = d;
                i += 4;
            }
        }
    }
disp_done:;
    const struct vx_form *f = find_form(in, 1);
    if (!f) {
        /* the length is still useful to the caller: assume the immediate of the opcode's
         * first form */
        f = f0;
        in->f = NULL;
    } else {
        in->f = f;
    }
    unsigned osz = (f->flags & VF_BYTE) ? 1 : (in->rex & 8) ? 8 : in->osz16 ? 2 : 4;
    if (f->flags & (VF_IMM8 | VF_REL8)) {
        NEED(1);
        in->imm = (f->flags & VF_REL8) ? (int8_t)p[i] : p[i];
        if (f->enc == VX_ENC_LEG && (f->flags & VF_IMM8) && !(f->flags & VF_BYTE))
            in->imm = (int8_t)p[i]; /* sign-extended to the operand size */
        i++;
    } else if ((f->flags & VF_IMM64) && osz == 8) {
        NEED(8);
        memcpy(&in->imm, p + i, 8);
        i += 8;
    } else if (f->flags & (VF_IMMZ | VF_REL32)) {
        if (osz == 2 && !(f->flags & VF_REL32)) {
            NEED(2);
            int16_t v;
            memcpy(&v, p + i, 2);
            in->imm = v;
            i += 2;
        } else {
            NEED(4);
            int32_t v;
            memcpy(&v, p + i, 4);
            in->imm = v;
            i += 4;
        }
    }
    in->len = (uint8_t)i;
    if (!in->f) return 1;
    /* an address-size prefix changes nothing without a memory operand (OpenSSL pads with it) */
    if ((in->seg && !(in->seg == 0x67 && !in->mem)) || in->lock) { in->f = NULL; return 1; }
    if (in->enc != VX_ENC_EVEX && (in->aaa || in->z || in->bc)) { in->f = NULL; return 1; }
    if (in->enc == VX_ENC_EVEX) {
        if ((in->aaa || in->z) && !(f->flags & VF_MASK)) { in->f = NULL; return 1; }
        if (in->z && ((f->flags & VF_NOZ) || !in->aaa) && f->kind != VK_KVM) { in->f = NULL; return 1; }
        if (in->z && f->kind == VK_KVM) { in->f = NULL; return 1; }
        if (in->z && f->kind == VK_MR && in->mem) { in->f = NULL; return 1; }
        if (in->bc && (!in->mem || !f->bsz)) { in->f = NULL; return 1; }
        if (disp8) {
            unsigned N = in->bc ? f->bsz : vx_mem_size(f, 16u << in->l);
            if (f->kind == VK_SPEC && !f->msz) N = f->esz ? f->esz : 1;
            if (f->kind == VK_SPEC && (f->op == 0x6e || f->op == 0x7e)) N = in->w ? 8 : 4;
            if (f->kind == VK_SPEC && f->map == 3 && (f->op == 0x16 || f->op == 0x22))
                N = in->w ? 8 : 4; /* vpextrd/q, vpinsrd/q: T1S by W */
            if (f->kind == VK_SPEC && (f->op == 0x64 || f->op == 0x66)) N = in->bc ? f->bsz : 16u << in->l;
            in->disp *= (int64_t)N;
        }
    }
    /* VEX register numbers beyond 15 do not exist; mask them for VEX */
    if (in->enc == VX_ENC_VEX) in->vvvv &= 15;
    return 0;
#undef NEED
}

/* ---- decode cache and run loop ------------------------------------------------------------ */

/* Decoded instructions live in a pool, in the order they were first run, found through a
 * direct-mapped index of pointers; straight-line code then runs through consecutive entries
 * (the next one is tried before the index).  A table of whole entries indexed by address had
 * them scattered over 1.3 MB: the lookup's cache misses were a fifth of an emulated Camellia
 * call.  A flush is a new generation: entries of an older one never match (the reach test
 * flushes once per generated case). */
#define INDEX_SIZE 32768
#define POOL_SIZE 65536
struct centry;
/* How an entry runs, chosen once when it is decoded (threaded dispatch: the run loop calls it
 * with no look-up of the form's kind, masking or operand kind per instruction). */
typedef int (*exec_fn)(struct vx *x, const struct centry *e);
struct centry {
    uint64_t rip;
    uint32_t gen;
    uint8_t known;
    uint8_t dst, src1; /* exec_reg_in_place's registers */
    exec_fn exec;
    uint64_t next_rip; /* rip + length */
    uint32_t feat;     /* the CPU features it needs (the ISA-subset check) */
    struct vx_insn in;
};
static struct centry *pool;
static size_t npool;
static uint32_t generation = 1;
static struct centry *cache_index[INDEX_SIZE];

void vx_flush_cache(void)
{
    generation++;
    npool = 0;
}

/* Forms whose handler may write the destination register itself (VF_INPLACE: the table's IP
 * column).  Checked by vexec-reach and vexec-fuzz, whose cases use a source as the destination
 * as often as not. */
static int writes_in_place(const struct vx_insn *in)
{
    const struct vx_form *f = in->f;
    return (f->flags & VF_INPLACE) && (f->kind == VK_RVM || f->kind == VK_RM || f->kind == VK_VM);
}

static int exec_spec(struct vx *x, const struct centry *e)
{
    return ((spec_fn)e->in.f->fn)(x, &e->in);
}

static int exec_vec_copy(struct vx *x, const struct centry *e) { return exec_vec(x, &e->in, 0); }

static int exec_vec_in_place(struct vx *x, const struct centry *e)
{
    return exec_vec(x, &e->in, 1);
}

/* The common case of the kernels: an element-wise form, unmasked, register operands only.
 * What exec_vec decides per call (kind, mask, operand fetch, destination) is in the entry. */
static int exec_reg_in_place(struct vx *x, const struct centry *e)
{
    const struct vx_insn *in = &e->in;
    union vx_vreg *z = x->c->z, *d = &z[e->dst];
    unsigned vl = vlen(in);
    ((vec_fn)in->f->fn)(x, in, d, d, &z[e->src1], &z[in->rm], vl); /* cannot fail */
    clear_upper(d, vl);
    return 0;
}

/* vpxor/vpxord/vpxorq, unmasked, registers only: half the instructions of an ARIA call, run
 * without the handler call (whole registers xored into a temporary, the compiler vectorises). */
static int exec_xor_reg(struct vx *x, const struct centry *e)
{
    union vx_vreg *z = x->c->z, *d = &z[e->dst];
    const union vx_vreg *a = &z[e->src1], *b = &z[e->in.rm];
    uint64_t r[8];
    for (unsigned i = 0; i < 8; i++) r[i] = a->q[i] ^ b->q[i];
    switch (e->in.l) {
    case 2: memcpy(d, r, 64); break;
    case 1: memcpy(d, r, 32); memset(d->b + 32, 0, 32); break;
    default: memcpy(d, r, 16); memset(d->b + 16, 0, 48); break;
    }
    return 0;
}

#if HAVE_HOST_SSSE3
/* exec_xor_reg for 512-bit registers on an AVX2 host: two 32-byte xors, no length switch */
__attribute__((target("avx2"))) static int exec_xor_zmm_avx2(struct vx *x, const struct centry *e)
{
    union vx_vreg *z = x->c->z;
    const __m256i *a = (const __m256i *)&z[e->src1], *b = (const __m256i *)&z[e->in.rm];
    __m256i lo = _mm256_xor_si256(_mm256_load_si256(a), _mm256_load_si256(b));
    __m256i hi = _mm256_xor_si256(_mm256_load_si256(a + 1), _mm256_load_si256(b + 1));
    __m256i *d = (__m256i *)&z[e->dst];
    _mm256_store_si256(d, lo);
    _mm256_store_si256(d + 1, hi);
    return 0;
}
#endif

/* An unmasked element-wise form whose memory operand is the whole vector (no broadcast): the
 * kernels' loads and their xors with round keys.  What load_rm decides per call is known. */
static int exec_mem_in_place(struct vx *x, const struct centry *e)
{
    const struct vx_insn *in = &e->in;
    const struct vx_form *f = in->f;
    union vx_vreg *z = x->c->z, *d = &z[e->dst];
    unsigned vl = vlen(in);
    union vx_vreg m;
    uint64_t addr = ea(x, in);
    if ((f->flags & VF_ALIGN) && (addr & (vl - 1))) return misaligned(x, addr, vl);
    if (rd(x, addr, m.b, vl)) return -1;
    clear_upper(&m, vl); /* constant sizes: no library call (the AVX2 kernels' spills) */
    ((vec_fn)f->fn)(x, in, d, d, f->kind == VK_RVM ? &z[in->vvvv] : &m, &m, vl);
    clear_upper(d, vl);
    return 0;
}

/* vpbroadcast{b,w,d,q} (and vbroadcastss/sd) from memory, unmasked: the kernels' round keys
 * (a tenth of an emulated ARIA call's instructions, a quarter of its time through load_rm). */
static int exec_bcast_mem(struct vx *x, const struct centry *e)
{
    const struct vx_insn *in = &e->in;
    unsigned n = in->f->msz, words = vlen(in) / 8;
    uint64_t v = 0;
    if (rd(x, ea(x, in), &v, n)) return -1; /* little-endian: the element in the low bytes */
    uint64_t pat = n == 1 ? v * 0x0101010101010101ull : n == 2 ? v * 0x0001000100010001ull
                   : n == 4 ? v | v << 32 : v;
    union vx_vreg *d = &x->c->z[e->dst];
    uint64_t r[8]; /* whole words, constant sizes: vector stores */
    for (unsigned i = 0; i < 8; i++) r[i] = pat;
    switch (words) {
    case 8: memcpy(d, r, 64); break;
    case 4: memcpy(d, r, 32); memset(d->b + 32, 0, 32); break;
    default: memcpy(d, r, 16); memset(d->b + 16, 0, 48); break;
    }
    return 0;
}

/* An unmasked element-wise form with an embedded broadcast ({1toN}): the round keys and
 * matrices of the kernels' vpxord, vpternlogd and vgf2p8affineqb.  The element read once, the
 * pattern built by words (load_rm's way, without its per-call decisions). */
static int exec_bcmem_in_place(struct vx *x, const struct centry *e)
{
    const struct vx_insn *in = &e->in;
    const struct vx_form *f = in->f;
    unsigned es = f->bsz, vl = vlen(in);
    union vx_vreg *z = x->c->z, *d = &z[e->dst];
    uint64_t v = 0;
    if (rd(x, ea(x, in), &v, es)) return -1; /* little-endian: the element in the low bytes */
    const uint64_t rep = es == 2 ? 0x0001000100010001ull : 0x0101010101010101ull;
    uint64_t pat = es == 4 ? v | v << 32 : es == 8 ? v : v * rep;
    union vx_vreg m;
    for (unsigned i = 0; i < 8; i++) m.q[i] = pat; /* past vl: cleared in d below */
    ((vec_fn)f->fn)(x, in, d, d, f->kind == VK_RVM ? &z[in->vvvv] : &m, &m, vl);
    clear_upper(d, vl);
    return 0;
}

static exec_fn choose_exec(struct centry *e)
{
    const struct vx_insn *in = &e->in;
    const struct vx_form *f = in->f;
    if (f->kind == VK_SPEC || f->kind == VK_SCALAR) return exec_spec;
    if (!writes_in_place(in)) return exec_vec_copy;
    /* as exec_vec's in-place branch passes them */
    e->dst = f->kind == VK_VM ? in->vvvv : in->reg;
    e->src1 = f->kind == VK_RVM ? in->vvvv : in->rm;
    if (!masked(in) && in->mem && !in->bc && vx_mem_size(f, vlen(in)) == vlen(in))
        return exec_mem_in_place;
    if (!masked(in) && in->mem && !in->bc && (vec_fn)f->fn == v_bcast) return exec_bcast_mem;
    if (!masked(in) && in->mem && in->bc) return exec_bcmem_in_place;
    if (masked(in) || in->mem) return exec_vec_in_place;
#if HAVE_HOST_SSSE3
    if ((vec_fn)f->fn == v_xor && in->l == 2 && host_level() >= VX_HOST_AVX2)
        return exec_xor_zmm_avx2;
#endif
    if ((vec_fn)f->fn == v_xor) return exec_xor_reg;
    return exec_reg_in_place;
}

static const struct centry *decode_at(const struct vx_env *env, uint64_t rip,
                                      const struct centry *prev)
{
    if (prev && prev + 1 < pool + npool && prev[1].rip == rip && prev[1].gen == generation)
        return prev + 1;
    struct centry **slot = &cache_index[(rip ^ (rip >> 15)) & (INDEX_SIZE - 1)];
    struct centry *e = *slot;
    if (e && e->rip == rip && e->gen == generation) return e;
    if (!pool && !(pool = malloc(POOL_SIZE * sizeof *pool))) return NULL;
    if (npool == POOL_SIZE) vx_flush_cache(); /* full: start again */
    e = &pool[npool++];
    uint8_t buf[16];
    size_t got = env->fetch(env->ctx, rip, buf, 15);
    e->rip = rip;
    e->gen = generation;
    e->known = got ? vx_decode(buf, got, rip, &e->in) == 0 : 0;
    if (!got) e->in.len = 0;
    e->exec = e->known ? choose_exec(e) : NULL;
    e->next_rip = rip + e->in.len;
    /* a legacy form of the table needs at most SSE by its column; the prefixes and opcode
     * tell the rest (tzcnt beside bsf, popcnt) */
    e->feat = !e->known ? 0 : vx_insn_features(&e->in) |
                               (e->in.f->enc == VX_ENC_LEG ? vx_legacy_features(buf, got) : 0);
    *slot = e;
    return e;
}

int vx_is_vector_insn(const struct vx_env *env, uint64_t addr, size_t *len)
{
    uint8_t buf[16];
    size_t got = env->fetch(env->ctx, addr, buf, 15), i = 0;
    struct vx_insn in;
    *len = 0;
    if (got && vx_decode(buf, got, addr, &in) <= 1) *len = in.len;
    while (i < got && (buf[i] == 0x2e || buf[i] == 0x3e || buf[i] == 0x26 || buf[i] == 0x36 ||
                       buf[i] == 0x64 || buf[i] == 0x65 || buf[i] == 0x67))
        i++;
    return i < got && (buf[i] == 0xc4 || buf[i] == 0xc5 || buf[i] == 0x62);
}


enum vx_status vx_run(struct vx_cpu *cpu, const struct vx_env *env, uint64_t stop_rip,
                      uint64_t max_insns, uint64_t *executed, char *msg, size_t msglen)
{
    struct vx x = {.c = cpu, .env = env, .msg = msg, .msglen = msglen};
    uint64_t done = 0;
    enum vx_status st = VX_STOPPED;
    gf_init();
    if (msg && msglen) msg[0] = 0;
    const struct centry *e = NULL;
    int (*const insn_hook)(void *, uint64_t) = env->insn;
    while (cpu->rip != stop_rip) {
        if (done >= max_insns) { st = VX_LIMIT; break; }
        e = decode_at(env, cpu->rip, e);
        if (!e) { /* no memory for the decode cache */
            if (msg && msglen) snprintf(msg, msglen, "out of memory for the decode cache");
            st = VX_FAULT;
            break;
        }
        if (!e->known) { st = VX_UNKNOWN; break; }
        if (env->isa_check && (e->feat & ~env->isa)) { st = VX_ISA; break; }
        if (insn_hook && insn_hook(env->ctx, cpu->rip)) { st = VX_HALT; break; }
        x.next = e->next_rip;
        int r = e->exec(&x, e);
        if (r) { st = r > 0 ? VX_UNKNOWN : VX_FAULT; break; }
        cpu->rip = x.next;
        done++;
    }
    if (executed) *executed = done;
    return st;
}

/* ---- the table's columns, for the fuzzer's encoder, the docs and the ISA-subset check ------- */

const char *vx_form_roles(const struct vx_form *f) { return f->roles; }

static const char *const feat_names[] = {
#define VX_FEAT_NAME(id, name, leaf, sub, reg, bit) name,
    VX_FEATURES(VX_FEAT_NAME)
#undef VX_FEAT_NAME
};

const char *vx_feat_name(unsigned b) { return b < VX_NFEAT ? feat_names[b] : NULL; }

char *vx_feat_format(uint32_t set, char *buf, size_t len)
{
    size_t o = 0;
    if (len) buf[0] = 0;
    for (unsigned b = 0; b < VX_NFEAT; b++)
        if ((set >> b) & 1) {
            int k = snprintf(buf + o, o < len ? len - o : 0, "%s%s", o ? "+" : "", feat_names[b]);
            if (k > 0) o += (size_t)k;
        }
    return buf;
}

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
uint32_t vx_feat_host(void)
{
    static const struct { uint32_t leaf, sub; uint8_t reg, bit; } where[] = {
#define VX_FEAT_WHERE(id, name, leaf, sub, reg, bit) {leaf, sub, reg, bit},
        VX_FEATURES(VX_FEAT_WHERE)
#undef VX_FEAT_WHERE
    };
    uint32_t have = 0, max = __get_cpuid_max(0, NULL);
    for (unsigned b = 0; b < VX_NFEAT; b++) {
        unsigned r[4] = {0, 0, 0, 0};
        if (where[b].leaf > max) continue;
        __cpuid_count(where[b].leaf, where[b].sub, r[0], r[1], r[2], r[3]);
        if ((r[where[b].reg] >> where[b].bit) & 1) have |= 1u << b;
    }
    return have;
}
#else
uint32_t vx_feat_host(void) { return 0; }
#endif

uint32_t vx_insn_features(const struct vx_insn *in)
{
    const struct vx_form *f = in->f;
    if (!f) return 0;
    uint32_t r = f->feat[f->enc == VX_ENC_LEG || in->l > 2 ? 0 : in->l];
    switch (f->fvar) {
    case VX_FV_REG_AVX2:
        if (!in->mem) r = (r & ~VXF(AVX)) | VXF(AVX2);
        break;
    case VX_FV_KSIZE: {
        unsigned n = f->map == 3 ? kshift_size(in) : ksize(in);
        if (n == 8) r = VXF(AVX512DQ);
        else if (n > 16) r = VXF(AVX512BW);
        break;
    }
    default: break;
    }
    return r;
}

/* ---- the features of legacy-encoded instructions (for the ISA-subset check) ---------------- */

uint32_t vx_legacy_features(const uint8_t *b, size_t n)
{
    size_t i = 0;
    uint8_t pp = 0; /* the last of 66, F2, F3: the mandatory prefix of an SSE form */
    for (; i < n; i++) {
        uint8_t c = b[i];
        if (c == 0x66 || c == 0xf2 || c == 0xf3) pp = c;
        else if (!(c == 0x2e || c == 0x3e || c == 0x26 || c == 0x36 || c == 0x64 || c == 0x65 ||
                   c == 0x67 || c == 0xf0))
            break;
    }
    if (i < n && (b[i] & 0xf0) == 0x40) i++; /* REX */
    if (i + 1 >= n || b[i] != 0x0f) return 0;
    uint8_t m = b[i + 1];
    if (m == 0x38 || m == 0x3a) {
        if (i + 2 >= n) return 0;
        uint8_t op = b[i + 2];
        if (m == 0x38) {
            if (op <= 0x0b || (op >= 0x1c && op <= 0x1e))
                return pp == 0 || pp == 0x66 ? VXF(SSSE3) : 0;
            if (pp == 0x66 && (op == 0x10 || op == 0x14 || op == 0x15 || op == 0x17 ||
                               (op >= 0x20 && op <= 0x25) || (op >= 0x28 && op <= 0x2b) ||
                               (op >= 0x30 && op <= 0x35) || (op >= 0x38 && op <= 0x41)))
                return VXF(SSE4_1);
            if (pp == 0x66 && op == 0x37) return VXF(SSE4_2);
            if (pp == 0x66 && op >= 0xdb && op <= 0xdf) return VXF(AES);
            if (pp == 0 && op >= 0xc8 && op <= 0xcd) return VXF(SHA);
            if (pp == 0xf2 && (op == 0xf0 || op == 0xf1)) return VXF(SSE4_2); /* crc32 */
            if ((pp == 0x66 || pp == 0xf3) && op == 0xf6) return VXF(ADX);   /* adcx, adox */
            return 0;
        }
        if (op == 0x0f) return pp == 0 || pp == 0x66 ? VXF(SSSE3) : 0; /* palignr */
        if (pp == 0x66 && ((op >= 0x08 && op <= 0x0e) || (op >= 0x14 && op <= 0x17) ||
                           (op >= 0x20 && op <= 0x22) || (op >= 0x40 && op <= 0x42)))
            return VXF(SSE4_1);
        if (pp == 0x66 && op == 0x44) return VXF(PCLMULQDQ);
        if (pp == 0x66 && op >= 0x60 && op <= 0x63) return VXF(SSE4_2);
        if (pp == 0x66 && op == 0xdf) return VXF(AES); /* aeskeygenassist */
        if (pp == 0 && op == 0xcc) return VXF(SHA);    /* sha1rnds4 */
        return 0;
    }
    if (pp == 0xf3 && m == 0xb8) return VXF(POPCNT);
    if (pp == 0xf3 && m == 0xbc) return VXF(BMI1); /* tzcnt (bsf without it) */
    if ((pp == 0xf2 || pp == 0x66) && (m == 0x7c || m == 0x7d || m == 0xd0)) return VXF(SSE3);
    if (pp == 0xf2 && (m == 0xf0 || m == 0x12)) return VXF(SSE3); /* lddqu, movddup */
    if (pp == 0xf3 && (m == 0x12 || m == 0x16)) return VXF(SSE3); /* movsldup, movshdup */
    return 0;
}

uint32_t vx_feat_closure(uint32_t d)
{
    d |= VXF(SSE) | VXF(SSE2);
    /* every AVX-512 subset presupposes the foundation (no CPU reports one without it) */
    if (d & (VXF(AVX512BW) | VXF(AVX512DQ) | VXF(AVX512VL) | VXF(AVX512_VBMI) |
             VXF(AVX512_VBMI2) | VXF(AVX512_IFMA) | VXF(AVX512_BITALG) | VXF(AVX512_VPOPCNTDQ)))
        d |= VXF(AVX512F);
    if (d & VXF(AVX512F)) d |= VXF(AVX2);
    if (d & VXF(AVX2)) d |= VXF(AVX);
    if (d & VXF(AVX)) d |= VXF(SSE4_2) | VXF(POPCNT);
    if (d & VXF(SSE4_2)) d |= VXF(SSE4_1);
    if (d & VXF(SSE4_1)) d |= VXF(SSSE3);
    if (d & VXF(SSSE3)) d |= VXF(SSE3);
    return d;
}
