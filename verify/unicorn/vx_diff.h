/* vx_diff.h — the vector executor against the real CPU, one generated instruction at a time.
 *
 * A case picks a form of the executor's table (vexec.h), operands within the form's rules
 * (registers 0-31 under EVEX, an opmask with merge or zero masking, a memory operand with
 * base + index*scale + disp8*N / disp32 or RIP-relative, embedded broadcast), an immediate,
 * and a random register file and memory.  The bytes are encoded by vx_diff.c's own encoder,
 * run natively through vx_native_x86_64.S and in the executor from the same state, and every
 * zmm, k, GPR, the defined rflags bits, the branch outcome and the memory area are compared.
 */
#ifndef ASMDIFF_VX_DIFF_H
#define ASMDIFF_VX_DIFF_H

#include <stddef.h>
#include <stdint.h>

struct vx_form;

/* 0 when this CPU can run every form natively; else -1 and why ("the CPU lacks AVX512VBMI"). */
int vxd_init(char *why, size_t len);

enum vxd_result { VXD_SAME = 0, VXD_DIFF = 1, VXD_SKIP = 2 };

/* Runs one case chosen by data (any bytes; shorter inputs are extended by a PRNG seeded from
 * them).  form_index >= 0 forces the form.  On VXD_DIFF, msg names the form, the bytes, the
 * disassembly-free operand summary and the first differing register or byte. */
enum vxd_result vxd_case(const uint8_t *data, size_t n, long form_index, char *msg, size_t len,
                         size_t *form_used);

/* Encoding paths: the ways an assembler may encode one form, each decoded by its own code in
 * vx_decode.  A case takes one value of each of four choices (prefix, extra legacy prefix,
 * ModRM mode, vector length); DISP8N, BCST and REX are noted when they occur. */
enum vxd_path {
    /* the form's prefix */
    VXP_VEX_C4, VXP_VEX_C5, VXP_EVEX, VXP_LEGACY,
    /* legacy prefixes before it: none, a segment override (ignored in 64-bit mode; as branch
     * hints on jcc), 66 (byte forms, nop), F3 (rep ret, endbr64), F2 (bnd on branches) */
    VXP_NOPFX, VXP_SEG, VXP_66, VXP_F3, VXP_F2,
    /* ModRM: none, register, [base], [base+disp8] (disp8*N under EVEX), [base+disp32],
     * SIB base+index*scale, SIB base only (rsp, r12, or a redundant SIB), SIB index*scale+disp32
     * without base, SIB disp32 alone (absolute), RIP-relative */
    VXP_NOMODRM, VXP_REG, VXP_MOD00, VXP_MOD01, VXP_MOD10, VXP_SIB_BI, VXP_SIB_B, VXP_SIB_I,
    VXP_SIB_ABS, VXP_RIP,
    /* vector length (legacy forms: none) */
    VXP_LNONE, VXP_L128, VXP_L256, VXP_L512,
    /* noted, not chosen */
    VXP_DISP8N, VXP_BCST, VXP_REX,
    VXP_N
};
#define VXP_BIT(p) (1ull << (p))
extern const char *const vxd_path_name[VXP_N];

/* The paths form f can take (VXP_BIT set), those a case chooses among included. */
uint64_t vxd_paths(const struct vx_form *f);

/* A case's forced choices: each a path of its group that vxd_paths allows, or -1 (the input
 * chooses). */
struct vxd_plan {
    int prefix, legacy, modrm, length;
};

/* vxd_case with choices forced by plan (NULL: none); *paths (may be NULL) gets the paths the
 * encoded instruction took. */
enum vxd_result vxd_case_plan(const uint8_t *data, size_t n, long form_index,
                              const struct vxd_plan *plan, char *msg, size_t len,
                              size_t *form_used, uint64_t *paths);

#endif
