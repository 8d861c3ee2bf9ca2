/* vexec.h — the vector executor: decodes and executes x86-64 VEX/EVEX instructions (AVX, AVX2,
 * AVX-512 F/BW/VL/VBMI/VBMI2, GFNI, VAES, VPCLMULQDQ: the integer/crypto subset in the table of
 * docs/vector-executor.md) and the plain scalar instructions between them, on a register file of
 * its own, so that kernels run on hosts (and emulators) that lack those extensions.
 *
 * Semantics are written from the Intel SDM.  Memory is reached only through the callbacks of
 * struct vx_env: the caller decides what is mapped, checks bounds and records traces.  A masked-
 * off element is never read or written (the callbacks never see it).  An instruction outside the
 * table is not guessed: vx_run stops in front of it with VX_UNKNOWN and leaves the state as it
 * was, so the caller can hand it to another engine (Unicorn, for legacy SSE) or report it.
 *
 * Usage: fill a struct vx_cpu, an env, then vx_run(cpu, env, stop_rip, ...).  Not thread-safe
 * (one decode cache per process; vx_flush_cache() after code changes).
 */
#ifndef ASMDIFF_VEXEC_H
#define ASMDIFF_VEXEC_H

#include <stddef.h>
#include <stdint.h>

enum { VX_RAX, VX_RCX, VX_RDX, VX_RBX, VX_RSP, VX_RBP, VX_RSI, VX_RDI,
       VX_R8, VX_R9, VX_R10, VX_R11, VX_R12, VX_R13, VX_R14, VX_R15 };

/* rflags bits the executor computes */
#define VX_CF 0x001u
#define VX_PF 0x004u
#define VX_AF 0x010u
#define VX_ZF 0x040u
#define VX_SF 0x080u
#define VX_DF 0x400u
#define VX_OF 0x800u
#define VX_ARITH_FLAGS (VX_CF | VX_PF | VX_AF | VX_ZF | VX_SF | VX_OF)

union vx_vreg {
    uint8_t b[64];
    uint16_t w[32];
    uint32_t d[16];
    uint64_t q[8];
} __attribute__((aligned(64)));

struct vx_cpu {
    uint64_t gpr[16]; /* enum order: rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8-r15 */
    uint64_t rip;
    uint64_t rflags;
    union vx_vreg z[32]; /* zmm0-31; xmm/ymm are their low 16/32 bytes */
    uint64_t k[8];
};

/* The world outside the register file.  read/write return 0, or -1 when the access cannot be
 * done (unmapped, protected): the executor then stops with VX_FAULT and the env's message (the
 * env writes it into msg through vx_fault_msg, or leaves it to the executor's default).  fetch
 * copies up to n code bytes and returns how many it could (fewer at the end of a mapping).
 * insn, when set, is called before each instruction executes (trace, limits); nonzero stops
 * the run with VX_HALT before that instruction. */
struct vx_env {
    void *ctx;
    int (*read)(void *ctx, uint64_t addr, void *dst, size_t n);
    int (*write)(void *ctx, uint64_t addr, const void *src, size_t n);
    size_t (*fetch)(void *ctx, uint64_t addr, uint8_t *dst, size_t n);
    int (*insn)(void *ctx, uint64_t rip);
    /* The ISA-subset check: when isa_check, an instruction that needs a feature outside isa
     * (a VXF() set, vx_insn_features) is not run: vx_run stops in front of it with VX_ISA. */
    int isa_check;
    uint32_t isa;          /* vx_feat_closure(isa_declared) */
    uint32_t isa_declared; /* as the implementation declared them, for the message */
};

enum vx_status {
    VX_STOPPED = 0, /* rip reached stop_rip */
    VX_UNKNOWN = 1, /* the instruction at rip is not in the table; state untouched by it */
    VX_FAULT = 2,   /* a memory access failed (msg); rip at the faulting instruction */
    VX_HALT = 3,    /* env->insn asked to stop; rip at the instruction it was shown */
    VX_ISA = 5,     /* env->isa_check: the instruction at rip needs a feature outside env->isa */
    VX_LIMIT = 4,   /* max_insns executed */
};

/* Runs from cpu->rip until rip == stop_rip or one of the other statuses.  *executed counts the
 * instructions completed (may be NULL).  msg receives a sentence for VX_FAULT. */
enum vx_status vx_run(struct vx_cpu *cpu, const struct vx_env *env, uint64_t stop_rip,
                      uint64_t max_insns, uint64_t *executed, char *msg, size_t msglen);

/* 1 when the bytes at addr (through env->fetch) start with a VEX or EVEX instruction: one that
 * Unicorn 2.0.1 cannot run, so a VX_UNKNOWN there is final.  *len gets its length when the
 * decoder could find it (0 otherwise). */
int vx_is_vector_insn(const struct vx_env *env, uint64_t addr, size_t *len);

void vx_flush_cache(void);

/* The host path the fast forms take (GFNI affine and inverse, unpacks): the best the host
 * has, or the one ASMDIFF_VX_HOST (portable, ssse3, avx2) asks for when the host has it. */
enum { VX_HOST_PORTABLE = 0, VX_HOST_SSSE3 = 1, VX_HOST_AVX2 = 2 };
int vx_host_path(void);
/* 1 when the GF(2^8) inverse's tower field was built and checked at start-up (all 256 bytes
 * against the plain inverse table); the SSSE3/AVX2 paths of vgf2p8affineinvqb need it. */
int vx_host_tower_ok(void);

/* ---- CPU features: what a form needs, as the Intel SDM names them ------------------------- */

/* Each feature: its enumerator, its name in the SDM's CPUID tables (Vol. 2A, CPUID, "Feature
 * Information" and "Structured Extended Feature Flags") and in the CPUID Feature Flag column of
 * the instruction pages (Vol. 2A-2D), and where CPUID reports it: leaf, sub-leaf, register
 * (0 eax, 1 ebx, 2 ecx, 3 edx) and bit. */
#define VX_FEATURES(X)                                      \
    X(SSE, "SSE", 0x01, 0, 3, 25)                           \
    X(SSE2, "SSE2", 0x01, 0, 3, 26)                         \
    X(PCLMULQDQ, "PCLMULQDQ", 0x01, 0, 2, 1)                \
    X(AES, "AES", 0x01, 0, 2, 25)                           \
    X(AVX, "AVX", 0x01, 0, 2, 28)                           \
    X(BMI1, "BMI1", 0x07, 0, 1, 3)                          \
    X(AVX2, "AVX2", 0x07, 0, 1, 5)                          \
    X(BMI2, "BMI2", 0x07, 0, 1, 8)                          \
    X(AVX512F, "AVX512F", 0x07, 0, 1, 16)                   \
    X(AVX512DQ, "AVX512DQ", 0x07, 0, 1, 17)                 \
    X(AVX512_IFMA, "AVX512_IFMA", 0x07, 0, 1, 21)           \
    X(AVX512BW, "AVX512BW", 0x07, 0, 1, 30)                 \
    X(AVX512VL, "AVX512VL", 0x07, 0, 1, 31)                 \
    X(AVX512_VBMI, "AVX512_VBMI", 0x07, 0, 2, 1)            \
    X(AVX512_VBMI2, "AVX512_VBMI2", 0x07, 0, 2, 6)          \
    X(GFNI, "GFNI", 0x07, 0, 2, 8)                          \
    X(VAES, "VAES", 0x07, 0, 2, 9)                          \
    X(VPCLMULQDQ, "VPCLMULQDQ", 0x07, 0, 2, 10)             \
    X(AVX512_BITALG, "AVX512_BITALG", 0x07, 0, 2, 12)       \
    X(AVX512_VPOPCNTDQ, "AVX512_VPOPCNTDQ", 0x07, 0, 2, 14) \
    X(SSE3, "SSE3", 0x01, 0, 2, 0)                          \
    X(SSSE3, "SSSE3", 0x01, 0, 2, 9)                        \
    X(SSE4_1, "SSE4_1", 0x01, 0, 2, 19)                     \
    X(SSE4_2, "SSE4_2", 0x01, 0, 2, 20)                     \
    X(POPCNT, "POPCNT", 0x01, 0, 2, 23)                     \
    X(ADX, "ADX", 0x07, 0, 1, 19)                           \
    X(SHA, "SHA", 0x07, 0, 1, 29)

enum vx_feat_bit {
#define VX_FEAT_ENUM(id, name, leaf, sub, reg, bit) VX_FEAT_##id,
    VX_FEATURES(VX_FEAT_ENUM)
#undef VX_FEAT_ENUM
    VX_NFEAT
};
/* A set of features: bit VX_FEAT_x of a uint32_t; VXF(AVX2) is the set {AVX2}. */
#define VXF(id) (1u << VX_FEAT_##id)

/* The SDM's name of feature bit b ("AVX512_VBMI"), NULL past the last. */
const char *vx_feat_name(unsigned b);
/* The set as names joined by '+' ("AVX512F+AVX512VL"; "" for none) into buf; returns buf. */
char *vx_feat_format(uint32_t set, char *buf, size_t len);
/* The features CPUID reports on this CPU (0 on another architecture).  Only the CPUID bits:
 * whether the OS enabled the AVX/AVX-512 state (XCR0) is the caller's question. */
uint32_t vx_feat_host(void);

/* ---- the table of forms: read by the fuzzer, the reach test and the docs generator ---------- */

enum vx_enc { VX_ENC_LEG = 0, VX_ENC_VEX = 1, VX_ENC_EVEX = 2 };

enum vx_kind {
    VK_RVM,   /* vec reg <- op(vvvv, rm)             (imm when F_IMM8) */
    VK_RM,    /* vec reg <- op(rm)                   vvvv unused */
    VK_VM,    /* vec vvvv <- op(rm), imm             shift/rotate-by-immediate groups */
    VK_MR,    /* rm (vec reg or memory) <- op(reg)   stores, extracts */
    VK_KVM,   /* k reg <- op(vvvv, rm) under mask    compares and tests into an opmask */
    VK_SPEC,  /* everything else: mask-register ops, vmovd/q, vzeroupper ...: own handler */
    VK_SCALAR /* general-purpose instruction: own handler */
};

/* form flags */
#define VF_MODRM 0x0001u
#define VF_IMM8 0x0002u
#define VF_IMMZ 0x0004u    /* imm16/32 by operand size (legacy) */
#define VF_REL8 0x0008u
#define VF_REL32 0x0010u
#define VF_MASK 0x0020u    /* EVEX opmask allowed */
#define VF_NOZ 0x0040u     /* merging only (stores) */
#define VF_EWISE 0x0080u   /* element i of a memory source feeds only element i of the result:
                            * a masked-off element is not read */
#define VF_ALIGN 0x0100u   /* memory operand must be aligned to its size */
#define VF_MEMONLY 0x0200u
#define VF_REGONLY 0x0400u
#define VF_BRANCH 0x0800u  /* changes rip (or rsp): not fuzzed one instruction at a time */
#define VF_STACK 0x1000u   /* uses rsp implicitly */
#define VF_IMM64 0x2000u   /* imm64 with REX.W (mov r64, imm64) */
#define VF_BYTE 0x4000u    /* legacy: 8-bit operand size */
#define VF_INPLACE 0x8000u /* the handler may write the destination register itself, which may
                            * also be a source: each element (or 8-byte word) of the result
                            * depends only on the same element of the operands, or on values read
                            * before the first write; every byte of the vector length is written;
                            * it never fails.  An unmasked result then needs no temporary. */

struct vx_insn;
struct vx_form {
    const char *name;
    uint8_t enc, map, pp, op;
    uint8_t opmask;   /* op matches when (byte & opmask) == op: 0xff, or 0xf8/0xf0 for +r forms */
    int8_t w;         /* -1: either */
    int8_t reg;       /* -1: any; else modrm.reg */
    uint8_t lm;       /* allowed vector lengths: 1 = 128, 2 = 256, 4 = 512 (legacy: 1) */
    uint8_t kind;     /* enum vx_kind */
    uint8_t esz;      /* element size: masking and result granularity */
    uint8_t bsz;      /* EVEX embedded-broadcast element size, 0 when none */
    uint8_t msz;      /* memory operand size, 0: the vector length; 0xf2/0xf4/0xf8: half,
                       * quarter, eighth of it (vpmovzx/sx: HVM, QVM, OVM tuples) */
    uint16_t flags;
    uint16_t undef_flags; /* rflags bits the SDM leaves undefined (not compared) */
    void *fn;         /* handler; type by kind */
    const char *ops;  /* operands as the docs show them */
    const char *roles; /* what modrm.reg, vvvv and modrm.rm name: vx_form_roles */
    uint32_t feat[3]; /* the CPU features the form needs at 128, 256, 512 bits (legacy and
                       * VEX-encoded general-purpose forms: [0]), VXF() sets as the SDM's
                       * CPUID Feature Flag column lists them; fvar says what else changes them */
    uint8_t fvar;     /* enum vx_fvar */
};

/* How an instruction's features differ from its form's feat[length] (vx_insn_features). */
enum vx_fvar {
    VX_FV_NONE = 0,
    VX_FV_REG_AVX2, /* a register source needs AVX2 instead of AVX (vbroadcastss/sd: SDM) */
    VX_FV_KSIZE     /* an opmask instruction by operand size: byte AVX512DQ, dword and qword
                     * AVX512BW, word feat (AVX512F; AVX512DQ for kaddw, ktestw) */
};

const struct vx_form *vx_forms(size_t *n);

/* Bytes of a form's (non-broadcast) memory operand at vector length vl. */
static inline unsigned vx_mem_size(const struct vx_form *f, unsigned vl)
{
    return f->msz >= 0xf0 ? vl / (f->msz & 15) : f->msz ? f->msz : vl;
}

/* What the modrm.reg, vvvv and modrm.rm fields of a form name: three characters, 'v' vector
 * register, 'k' opmask, 'g' general-purpose register, 'x' modrm.reg is an opcode extension,
 * '-' unused (vvvv must then be 1111b); "" when the form has no modrm.  The table's column. */
const char *vx_form_roles(const struct vx_form *f);

/* Decoded instruction (exposed for the fuzzer's encoder check). */
struct vx_insn {
    uint64_t rip;
    const struct vx_form *f;
    uint8_t len, enc, map, pp, op, w, l, rex, osz16, rep, seg, lock;
    uint8_t has_modrm, mod, regf, rmf, reg, rm, vvvv;
    uint8_t aaa, z, bc;
    uint8_t mem, scale;
    int8_t base, index; /* -1 none; base 16: rip-relative */
    int64_t disp;
    int64_t imm;
};

/* Decodes bytes[0..n).  Returns 0 with in->f set for a form of the table, 1 for an instruction
 * outside it (in->len when it could be found, else 0). */
int vx_decode(const uint8_t *bytes, size_t n, uint64_t rip, struct vx_insn *in);

/* The CPU features (a VXF() set) a decoded instruction needs (in->f set by vx_decode): its
 * form's feat[] at its vector length, changed by the form's fvar.  Each set is what the SDM's
 * CPUID Feature Flag column lists for that encoding, with AVX added to the VEX.256 forms of VAES
 * and VPCLMULQDQ (the column names the extension alone; a VEX instruction needs AVX state) and
 * AVX512F to the EVEX.128/256 forms of GFNI, VAES and VPCLMULQDQ (the column: AVX512VL).
 * Implications between features (AVX2 presupposes AVX, AVX512BW AVX512F, ...) are not added:
 * vpshufb zmm needs AVX512BW.  0 for the baseline x86-64 scalar forms; NULL form: 0. */
uint32_t vx_insn_features(const struct vx_insn *in);

/* The CPU features a legacy-encoded (not VEX or EVEX) instruction needs, from its prefixes and
 * opcode alone (SDM Vol. 2, opcode maps and each page's CPUID Feature Flag column):
 * what the executor's table does not hold and Unicorn runs.  SSE3, SSSE3, SSE4.1, SSE4.2,
 * AES, PCLMULQDQ, SHA, ADX, POPCNT, BMI1 (tzcnt); 0 for baseline x86-64 (SSE, SSE2, scalar)
 * and for what it does not know (MOVBE, LZCNT and system instructions have no bit here). */
uint32_t vx_legacy_features(const uint8_t *b, size_t n);

/* Everything a CPU that has every feature of declared has, by the implications every shipped
 * x86-64 CPU honours: SSE and SSE2 always; SSSE3 brings SSE3; SSE4.1 SSSE3; SSE4.2 SSE4.1;
 * AVX brings SSE4.2 and POPCNT; AVX2 AVX; every AVX-512 subset AVX512F; AVX512F AVX2.
 * Nothing brings AES, PCLMULQDQ,
 * VAES, VPCLMULQDQ, GFNI, SHA, BMI1, BMI2, ADX or another AVX-512 subset: a kernel that uses
 * them must say so. */
uint32_t vx_feat_closure(uint32_t declared);

#endif
