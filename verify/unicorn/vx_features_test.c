/* vx_features_test.c — the features column of the executor's table (emu/vexec.c) against the
 * Intel SDM.
 *
 * Source: Intel 64 and IA-32 Architectures Software Developer's Manual, Vol. 2A-2D (order
 * 325462), the "CPUID Feature Flag" column of each instruction's opcode table; the feature
 * names as CPUID.01H:ECX/EDX and CPUID.(EAX=07H,ECX=0):EBX/ECX name them (Vol. 2A, CPUID).
 * Each case below is an instruction as LLVM's assembler encodes it (llvm-mc -show-encoding),
 * decoded by vx_decode, and the set vx_insn_features must give for it, with the SDM row it
 * comes from.  The executor's own additions (vexec.h, vx_insn_features) are marked.
 *
 * Then the whole table, at every vector length each form allows: every VEX and EVEX form needs
 * something, every EVEX form needs AVX512VL below 512 bits and not at 512, every VEX vector form
 * needs AVX or AVX2, no legacy form needs more than SSE (but pclmulqdq, PCLMULQDQ), and every
 * feature has its SDM name.
 *
 * Exit 0 when every case and rule holds, 1 otherwise (each failure printed). */
#include "emu/vexec.h"

#include <stdio.h>
#include <string.h>

struct want {
    const char *text;     /* the instruction, AT&T syntax */
    uint8_t bytes[8];
    size_t n;
    uint32_t feat;        /* what the SDM's column says (with the notes) */
    const char *sdm;      /* the SDM's row */
};

#define B(...) {__VA_ARGS__}, sizeof((uint8_t[]){__VA_ARGS__})
#define F(x) VXF(x)

static const struct want cases[] = {
    {"vpxor %xmm1, %xmm2, %xmm3", B(0xc5, 0xe9, 0xef, 0xd9), F(AVX),
     "PXOR: VEX.128.66.0F.WIG EF /r VPXOR xmm1, xmm2, xmm3/m128 -- AVX"},
    {"vpxor %ymm1, %ymm2, %ymm3", B(0xc5, 0xed, 0xef, 0xd9), F(AVX2),
     "PXOR: VEX.256.66.0F.WIG EF /r VPXOR ymm1, ymm2, ymm3/m256 -- AVX2"},
    {"vpxord %zmm1, %zmm2, %zmm3", B(0x62, 0xf1, 0x6d, 0x48, 0xef, 0xd9), F(AVX512F),
     "PXOR: EVEX.512.66.0F.W0 EF /r VPXORD zmm1 {k1}{z}, zmm2, zmm3/m512/m32bcst -- AVX512F"},
    {"vpxord %ymm1, %ymm2, %ymm3", B(0x62, 0xf1, 0x6d, 0x28, 0xef, 0xd9), F(AVX512F) | F(AVX512VL),
     "PXOR: EVEX.256.66.0F.W0 EF /r VPXORD ymm1 {k1}{z}, ymm2, ymm3/m256/m32bcst -- AVX512VL AVX512F"},
    {"vpxord %xmm1, %xmm2, %xmm3", B(0x62, 0xf1, 0x6d, 0x08, 0xef, 0xd9), F(AVX512F) | F(AVX512VL),
     "PXOR: EVEX.128.66.0F.W0 EF /r VPXORD xmm1 {k1}{z}, xmm2, xmm3/m128/m32bcst -- AVX512VL AVX512F"},
    {"vpternlogd $0x96, %zmm1, %zmm2, %zmm3", B(0x62, 0xf3, 0x6d, 0x48, 0x25, 0xd9, 0x96), F(AVX512F),
     "VPTERNLOGD: EVEX.512.66.0F3A.W0 25 /r ib -- AVX512F"},
    {"vpshufb %zmm1, %zmm2, %zmm3", B(0x62, 0xf2, 0x6d, 0x48, 0x00, 0xd9), F(AVX512BW),
     "PSHUFB: EVEX.512.66.0F38.WIG 00 /r VPSHUFB zmm1 {k1}{z}, zmm2, zmm3/m512 -- AVX512BW"},
    {"vpshufb %ymm1, %ymm2, %ymm3{%k1}", B(0x62, 0xf2, 0x6d, 0x29, 0x00, 0xd9),
     F(AVX512BW) | F(AVX512VL),
     "PSHUFB: EVEX.256.66.0F38.WIG 00 /r VPSHUFB ymm1 {k1}{z}, ymm2, ymm3/m256 -- AVX512VL AVX512BW"},
    {"vgf2p8affineqb $0, %ymm1, %ymm2, %ymm3", B(0xc4, 0xe3, 0xed, 0xce, 0xd9, 0x00),
     F(GFNI) | F(AVX),
     "GF2P8AFFINEQB: VEX.256.66.0F3A.W1 CE /r /ib VGF2P8AFFINEQB ymm1, ymm2, ymm3/m256, imm8 -- AVX GFNI"},
    {"vgf2p8affineqb $0, %zmm1, %zmm2, %zmm3", B(0x62, 0xf3, 0xed, 0x48, 0xce, 0xd9, 0x00),
     F(GFNI) | F(AVX512F),
     "GF2P8AFFINEQB: EVEX.512.66.0F3A.W1 CE /r /ib -- AVX512F GFNI"},
    {"vaesenc %xmm1, %xmm2, %xmm3", B(0xc4, 0xe2, 0x69, 0xdc, 0xd9), F(AES) | F(AVX),
     "AESENC: VEX.128.66.0F38.WIG DC /r VAESENC xmm1, xmm2, xmm3/m128 -- AES AVX"},
    {"vaesenc %ymm1, %ymm2, %ymm3", B(0xc4, 0xe2, 0x6d, 0xdc, 0xd9), F(VAES) | F(AVX),
     "AESENC: VEX.256.66.0F38.WIG DC /r VAESENC ymm1, ymm2, ymm3/m256 -- VAES (+AVX: a VEX form)"},
    {"vaesenc %zmm1, %zmm2, %zmm3", B(0x62, 0xf2, 0x6d, 0x48, 0xdc, 0xd9), F(VAES) | F(AVX512F),
     "AESENC: EVEX.512.66.0F38.WIG DC /r VAESENC zmm1, zmm2, zmm3/m512 -- VAES AVX512F"},
    {"vpclmulqdq $0, %xmm1, %xmm2, %xmm3", B(0xc4, 0xe3, 0x69, 0x44, 0xd9, 0x00),
     F(PCLMULQDQ) | F(AVX),
     "PCLMULQDQ: VEX.128.66.0F3A.WIG 44 /r ib VPCLMULQDQ xmm1, xmm2, xmm3/m128, imm8 -- PCLMULQDQ AVX"},
    {"vpclmulqdq $0, %ymm1, %ymm2, %ymm3", B(0xc4, 0xe3, 0x6d, 0x44, 0xd9, 0x00),
     F(VPCLMULQDQ) | F(AVX),
     "PCLMULQDQ: VEX.256.66.0F3A.WIG 44 /r /ib -- VPCLMULQDQ (+AVX: a VEX form)"},
    {"vpclmulqdq $0, %zmm1, %zmm2, %zmm3", B(0x62, 0xf3, 0x6d, 0x48, 0x44, 0xd9, 0x00),
     F(VPCLMULQDQ) | F(AVX512F),
     "PCLMULQDQ: EVEX.512.66.0F3A.WIG 44 /r /ib -- VPCLMULQDQ AVX512F"},
    {"vpmadd52luq %zmm1, %zmm2, %zmm3", B(0x62, 0xf2, 0xed, 0x48, 0xb4, 0xd9), F(AVX512_IFMA),
     "VPMADD52LUQ: EVEX.512.66.0F38.W1 B4 /r -- AVX512_IFMA"},
    {"vpmadd52luq %xmm1, %xmm2, %xmm3", B(0x62, 0xf2, 0xed, 0x08, 0xb4, 0xd9),
     F(AVX512_IFMA) | F(AVX512VL),
     "VPMADD52LUQ: EVEX.128.66.0F38.W1 B4 /r -- AVX512_IFMA AVX512VL"},
    {"vpermb %zmm1, %zmm2, %zmm3", B(0x62, 0xf2, 0x6d, 0x48, 0x8d, 0xd9), F(AVX512_VBMI),
     "VPERMB: EVEX.512.66.0F38.W0 8D /r VPERMB zmm1 {k1}{z}, zmm2, zmm3/m512 -- AVX512_VBMI"},
    {"vpshldd $1, %zmm1, %zmm2, %zmm3", B(0x62, 0xf3, 0x6d, 0x48, 0x71, 0xd9, 0x01),
     F(AVX512_VBMI2), "VPSHLD: EVEX.512.66.0F3A.W0 71 /r /ib VPSHLDD -- AVX512_VBMI2"},
    {"vpopcntb %zmm1, %zmm2", B(0x62, 0xf2, 0x7d, 0x48, 0x54, 0xd1), F(AVX512_BITALG),
     "VPOPCNT: EVEX.512.66.0F38.W0 54 /r VPOPCNTB -- AVX512_BITALG"},
    {"vpmullq %ymm1, %ymm2, %ymm3", B(0x62, 0xf2, 0xed, 0x28, 0x40, 0xd9),
     F(AVX512DQ) | F(AVX512VL), "PMULLQ: EVEX.256.66.0F38.W1 40 /r VPMULLQ -- AVX512VL AVX512DQ"},
    {"vpbroadcastb %xmm1, %xmm2", B(0xc4, 0xe2, 0x79, 0x78, 0xd1), F(AVX2),
     "VPBROADCAST: VEX.128.66.0F38.W0 78 /r VPBROADCASTB xmm1, xmm2/m8 -- AVX2"},
    {"vpbroadcastb (%rax), %ymm2", B(0xc4, 0xe2, 0x7d, 0x78, 0x10), F(AVX2),
     "VPBROADCAST: VEX.256.66.0F38.W0 78 /r VPBROADCASTB ymm1, xmm2/m8 -- AVX2"},
    {"vbroadcastss (%rax), %ymm2", B(0xc4, 0xe2, 0x7d, 0x18, 0x10), F(AVX),
     "VBROADCAST: VEX.256.66.0F38.W0 18 /r VBROADCASTSS ymm1, m32 -- AVX"},
    {"vbroadcastss %xmm1, %ymm2", B(0xc4, 0xe2, 0x7d, 0x18, 0xd1), F(AVX2),
     "VBROADCAST: VEX.256.66.0F38.W0 18 /r VBROADCASTSS ymm1, xmm2 -- AVX2"},
    {"vmovdqa %ymm1, %ymm2", B(0xc5, 0xfd, 0x6f, 0xd1), F(AVX),
     "MOVDQA: VEX.256.66.0F.WIG 6F /r VMOVDQA ymm1, ymm2/m256 -- AVX"},
    {"vpextrd $1, %xmm1, %eax", B(0xc4, 0xe3, 0x79, 0x16, 0xc8, 0x01), F(AVX),
     "PEXTRD: VEX.128.66.0F3A.W0 16 /r ib VPEXTRD r32/m32, xmm2, imm8 -- AVX"},
    {"sarxq %rax, %rbx, %rcx", B(0xc4, 0xe2, 0xfa, 0xf7, 0xcb), F(BMI2),
     "SARX: VEX.LZ.F3.0F38.W1 F7 /r SARX r64a, r/m64, r64b -- BMI2"},
    {"andnq %rax, %rbx, %rcx", B(0xc4, 0xe2, 0xe0, 0xf2, 0xc8), F(BMI1),
     "ANDN: VEX.LZ.0F38.W1 F2 /r ANDN r64a, r64b, r/m64 -- BMI1"},
    {"kandw %k1, %k2, %k3", B(0xc5, 0xec, 0x41, 0xd9), F(AVX512F),
     "KANDW: VEX.L1.0F.W0 41 /r KANDW k1, k2, k3 -- AVX512F"},
    {"kandb %k1, %k2, %k3", B(0xc5, 0xed, 0x41, 0xd9), F(AVX512DQ),
     "KANDB: VEX.L1.66.0F.W0 41 /r KANDB k1, k2, k3 -- AVX512DQ"},
    {"kandq %k1, %k2, %k3", B(0xc4, 0xe1, 0xec, 0x41, 0xd9), F(AVX512BW),
     "KANDQ: VEX.L1.0F.W1 41 /r KANDQ k1, k2, k3 -- AVX512BW"},
    {"kaddw %k1, %k2, %k3", B(0xc5, 0xec, 0x4a, 0xd9), F(AVX512DQ),
     "KADDW: VEX.L1.0F.W0 4A /r KADDW k1, k2, k3 -- AVX512DQ"},
    {"kmovd %eax, %k1", B(0xc5, 0xfb, 0x92, 0xc8), F(AVX512BW),
     "KMOVD: VEX.L0.F2.0F.W0 92 /r KMOVD k1, r32 -- AVX512BW"},
    {"kshiftrw $1, %k1, %k2", B(0xc4, 0xe3, 0xf9, 0x30, 0xd1, 0x01), F(AVX512F),
     "KSHIFTRW: VEX.L0.66.0F3A.W1 30 /r KSHIFTRW k1, k2, imm8 -- AVX512F"},
    {"kshiftrb $1, %k1, %k2", B(0xc4, 0xe3, 0x79, 0x30, 0xd1, 0x01), F(AVX512DQ),
     "KSHIFTRB: VEX.L0.66.0F3A.W0 30 /r KSHIFTRB k1, k2, imm8 -- AVX512DQ"},
    {"kunpckbw %k1, %k2, %k3", B(0xc5, 0xed, 0x4b, 0xd9), F(AVX512F),
     "KUNPCKBW: VEX.L1.66.0F.W0 4B /r KUNPCKBW k1, k2, k3 -- AVX512F"},
    {"xorps %xmm1, %xmm2", B(0x0f, 0x57, 0xd1), F(SSE),
     "XORPS: NP 0F 57 /r XORPS xmm1, xmm2/m128 -- SSE"},
    {"pclmulqdq $0x11, %xmm7, %xmm11", B(0x66, 0x44, 0x0f, 0x3a, 0x44, 0xdf, 0x11), F(PCLMULQDQ),
     "PCLMULQDQ: 66 0F 3A 44 /r ib PCLMULQDQ xmm1, xmm2/m128, imm8 -- PCLMULQDQ"},
    {"addq %rax, %rbx", B(0x48, 0x01, 0xc3), 0, "ADD: REX.W + 01 /r -- baseline (no flag)"},
};

int main(void)
{
    int bad = 0;
    char got[160], want[160];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct want *c = &cases[i];
        struct vx_insn in;
        if (vx_decode(c->bytes, c->n, 0x1000, &in) || in.len != c->n) {
            printf("FAIL %s: not decoded as one form of the table\n", c->text);
            bad++;
            continue;
        }
        uint32_t f = vx_insn_features(&in);
        if (f != c->feat) {
            printf("FAIL %s (form %s, %s): needs %s by the table, the SDM says %s (%s)\n", c->text,
                   in.f->name, in.f->ops, vx_feat_format(f, got, sizeof got),
                   vx_feat_format(c->feat, want, sizeof want), c->sdm);
            bad++;
        }
    }
    printf("%zu instructions against the SDM's CPUID Feature Flag column: %s\n",
           sizeof cases / sizeof cases[0], bad ? "FAILED" : "ok");

    /* the rules every row keeps */
    size_t n, checked = 0;
    const struct vx_form *forms = vx_forms(&n);
    int rule_bad = 0;
    for (size_t i = 0; i < n; i++) {
        const struct vx_form *f = &forms[i];
        for (unsigned l = 0; l < 3; l++) {
            if (f->enc != VX_ENC_LEG && !((f->lm >> l) & 1)) continue;
            if (f->enc == VX_ENC_LEG && l) continue;
            uint32_t s = f->feat[l];
            const char *why = NULL;
            if (f->enc == VX_ENC_LEG && (s & ~VXF(SSE)) &&
                !(s == VXF(PCLMULQDQ) && !strcmp(f->name, "pclmulqdq")))
                why = "a legacy form needs at most SSE (pclmulqdq: PCLMULQDQ)";
            else if (f->enc != VX_ENC_LEG && !s)
                why = "a VEX or EVEX form needs a feature";
            else if (f->enc == VX_ENC_EVEX && f->fvar == VX_FV_NONE && f->lm != 1 &&
                     !(s & VXF(AVX512VL)) != (l == 2))
                why = "an EVEX form needs AVX512VL exactly below 512 bits";
            else if (f->enc == VX_ENC_VEX && f->kind != VK_SPEC && !(s & (VXF(AVX) | VXF(AVX2))))
                why = "a VEX vector form needs AVX or AVX2";
            for (unsigned b = 0; b < 32; b++)
                if (((s >> b) & 1) && !vx_feat_name(b)) why = "a feature bit without a name";
            if (why) {
                printf("FAIL form %zu %s (%s) at %u bits: %s (%s)\n", i + 1, f->name, f->ops,
                       128u << l, why, vx_feat_format(s, got, sizeof got));
                rule_bad++;
            }
            checked++;
        }
    }
    printf("%zu forms, %zu (form, length) rows against the table's rules: %s\n", n, checked,
           rule_bad ? "FAILED" : "ok");
    return bad || rule_bad;
}
