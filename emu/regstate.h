/* regstate.h — the callee-saved register list of each ABI, and the x86-64 register state
 * around one call, as the checked-call trampoline (fuzz/harness/abi_x86_64.S) and the emulator
 * (emu_call.h) both record it, so that one comparison (the harness's abi_check) judges a native
 * and an emulated call alike.
 *
 * It lives here, below both: the engines in emu/ include nothing of the harness, and the
 * harness's abi.h includes this file.  The trampoline includes it too (a .S file goes through
 * the C preprocessor): everything outside the __ASSEMBLER__ guards is macros only.
 *
 * ---- The callee-saved registers: one list per ABI ----
 *
 * Each list is an X-macro: LIST(X) expands to X(kind, name, NAME) once per callee-saved register
 * the checked call loads with a random value and compares after the call, in struct order.
 *   kind  GPR (a 64-bit integer register), FPR (a 64-bit floating-point register, as its raw
 *         bit pattern) or XMM (the low 128 bits of a vector register); ABI_REG_TYPE_<kind> and
 *         ABI_REG_SIZE_<kind> give its C type and its size in bytes
 *   name  the field of the state struct and the register's name in messages ("rbx")
 *   NAME  the suffix of ids and offsets: UC_X86_REG_<NAME> (Unicorn), VX_<NAME> (emu/vexec.h),
 *         ST_<NAME> (the trampolines)
 * The stack pointer is callee-saved in every ABI but in no list: it cannot be loaded with a
 * random value, so it is checked as rsp_delta (sp_delta) instead.
 *
 * What each list generates (grep for the list's name):
 *   SysV  struct abi_state's first fields (below) and their offsets, checked against the ABI_ST_*
 *         numbers the trampoline uses; in fuzz/harness/abi_x86_64.S the ST_<NAME> offsets, the
 *         loads before the call and the stores after it; in fuzz/harness/abi.c the random values
 *         loaded, the comparison and its message, and the stack check's "a value the caller
 *         passed in"; in emu/uc_front.c the executor's registers in and out and their names
 *         (emu_call.c and ucheck.c load and read them there); in fuzz/harness/backend_emu_diff.c the CPU-emulator comparison
 *         and the seed; in verify/unicorn/emu_call_test.c the same.  The cases of the checked
 *         call's self-test (verify/abi_selftest*: one clobbering function per register, the
 *         message each must give) are not generated: they are the independent statement of
 *         what SysV requires, and fail when the list loses a register.
 *   Win64 struct abi_win64_saved, its names (ABI_REG_NAMES) and a compile-time check of its
 *         layout, for the Win64 convention to build on.
 *   RISC-V LP64  the first fields of the RISC-V struct abi_state (fuzz/harness/abi.h) and
 *         their offsets (ABI_RV_ST_*); in fuzz/harness/abi_riscv64.S ST_<NAME>, the loads and
 *         the stores; in abi.c the random values, the comparison and its message; the values
 *         verify/riscv's self-test loads (its cases are written out, as on x86-64).
 * A new ABI is one more list here, then its convention's uses of it.
 */
#ifndef ASMDIFF_EMU_REGSTATE_H
#define ASMDIFF_EMU_REGSTATE_H

/* x86-64 System V (psABI 3.2.1): rbx, rbp, r12-r15 (and rsp); no vector register. */
#define ABI_X86_64_SYSV_SAVED(X)                                                              \
    X(GPR, rbx, RBX) X(GPR, rbp, RBP) X(GPR, r12, R12) X(GPR, r13, R13) X(GPR, r14, R14)     \
    X(GPR, r15, R15)

/* Windows x64: rbx, rbp, rdi, rsi, r12-r15 (and rsp), and xmm6-xmm15 (their low 128 bits). */
#define ABI_X86_64_WIN64_SAVED(X)                                                             \
    X(GPR, rbx, RBX) X(GPR, rbp, RBP) X(GPR, rdi, RDI) X(GPR, rsi, RSI) X(GPR, r12, R12)     \
    X(GPR, r13, R13) X(GPR, r14, R14) X(GPR, r15, R15)                                       \
    X(XMM, xmm6, XMM6) X(XMM, xmm7, XMM7) X(XMM, xmm8, XMM8) X(XMM, xmm9, XMM9)              \
    X(XMM, xmm10, XMM10) X(XMM, xmm11, XMM11) X(XMM, xmm12, XMM12) X(XMM, xmm13, XMM13)      \
    X(XMM, xmm14, XMM14) X(XMM, xmm15, XMM15)

/* RISC-V LP64 (psABI, integer and LP64D calling conventions): s0-s11 and fs0-fs11 (and sp). */
#define ABI_RISCV64_LP64_SAVED(X)                                                             \
    X(GPR, s0, S0) X(GPR, s1, S1) X(GPR, s2, S2) X(GPR, s3, S3) X(GPR, s4, S4) X(GPR, s5, S5) \
    X(GPR, s6, S6) X(GPR, s7, S7) X(GPR, s8, S8) X(GPR, s9, S9) X(GPR, s10, S10)             \
    X(GPR, s11, S11)                                                                          \
    X(FPR, fs0, FS0) X(FPR, fs1, FS1) X(FPR, fs2, FS2) X(FPR, fs3, FS3) X(FPR, fs4, FS4)     \
    X(FPR, fs5, FS5) X(FPR, fs6, FS6) X(FPR, fs7, FS7) X(FPR, fs8, FS8) X(FPR, fs9, FS9)     \
    X(FPR, fs10, FS10) X(FPR, fs11, FS11)

#define ABI_REG_SIZE_GPR 8
#define ABI_REG_SIZE_FPR 8
#define ABI_REG_SIZE_XMM 16
#define ABI_REG_TYPE_GPR uint64_t
#define ABI_REG_TYPE_FPR uint64_t
#define ABI_REG_TYPE_XMM struct abi_xmm

/* Generators, for LIST(generator): */
#define ABI_REG_SIZE_PLUS_(kind, name, NAME) +ABI_REG_SIZE_##kind
#define ABI_REG_COUNT_PLUS_(kind, name, NAME) +1
#define ABI_REG_FIELD_(kind, name, NAME) ABI_REG_TYPE_##kind name;
#define ABI_REG_NAME_(kind, name, NAME) #name,
/* bytes the list's registers take in their struct (no padding: every type is 8-aligned) */
#define ABI_REGS_SIZE(LIST) (0 LIST(ABI_REG_SIZE_PLUS_))
#define ABI_REGS_COUNT(LIST) (0 LIST(ABI_REG_COUNT_PLUS_))
/* an initializer: the names in list order, {"rbx", "rbp", ...} */
#define ABI_REG_NAMES(LIST) {LIST(ABI_REG_NAME_)}

/* What the vector snapshot covers; chosen once from the CPU features. */
#define ABI_VEC_SSE_ 1    /* xmm0-15 */
#define ABI_VEC_AVX_ 2    /* ymm0-15 */
#define ABI_VEC_AVX512_ 3 /* zmm0-31 and k0-7 */

/* struct abi_state's offsets, as the trampoline addresses it (the callee-saved registers before
 * ABI_ST_RSP_DELTA are ST_<NAME>, laid out by abi_x86_64.S from the list); abi.c checks each
 * against offsetof. */
#define ABI_ST_RSP_DELTA ABI_REGS_SIZE(ABI_X86_64_SYSV_SAVED)
#define ABI_ST_RFLAGS (ABI_ST_RSP_DELTA + 8)
#define ABI_ST_MXCSR (ABI_ST_RFLAGS + 8)
#define ABI_ST_X87CW (ABI_ST_MXCSR + 4)
#define ABI_ST_X87TW (ABI_ST_X87CW + 2)
#define ABI_ST_VEC_MODE (ABI_ST_X87TW + 2)
#define ABI_ST_VEC_FILL (ABI_ST_VEC_MODE + 8) /* after pad1 */
#define ABI_ST_VEC ((ABI_ST_VEC_FILL + 8 + 63) & ~63) /* 32 rows of ABI_ST_VEC_ROW bytes */
#define ABI_ST_VEC_ROW 64
#define ABI_ST_K (ABI_ST_VEC + 32 * ABI_ST_VEC_ROW) /* 8 x 8 bytes */
#define ABI_ST_STACK_TOP (ABI_ST_K + 8 * 8)

/* struct abi_win64_call's offsets (fuzz/harness/abi.h), as the Win64 bridge addresses it
 * (abi_win64_x86_64.S; the registers of the list are W_<NAME> within in and out). */
#define ABI_W64_FN 0
#define ABI_W64_NARGS 8
#define ABI_W64_IN 16
#define ABI_W64_OUT (ABI_W64_IN + ABI_REGS_SIZE(ABI_X86_64_WIN64_SAVED))
/* what the bridge puts in the shadow space and unused argument slots */
#define ABI_W64_JUNK 0x5badc0de5badc0de

/* The word below the callee's stack pointer before every checked call, native and emulated:
 * the checked call's separate stack (fuzz/harness/abi.c) and the emulator's stack (emu_call.c)
 * hold it in every 8-byte-aligned word, so a kernel that reads stack it has not written (a
 * tail staged in a stack slot by a byte copy, then loaded whole into a register: Linux's AVX2
 * ChaCha) reads the same bytes in both runs, and emu-diff's comparison of the registers after
 * the call holds for such a kernel too. */
#define ABI_STACK_MARKER 0x57ac6e1e57ac6e1eull

/* The RISC-V struct abi_state's offsets (fuzz/harness/abi.h), as abi_riscv64.S addresses it
 * (the registers of the list come first, ST_<NAME> there); abi.c checks each. */
#define ABI_RV_ST_SP_DELTA ABI_REGS_SIZE(ABI_RISCV64_LP64_SAVED)
#define ABI_RV_ST_GP (ABI_RV_ST_SP_DELTA + 8)
#define ABI_RV_ST_TP (ABI_RV_ST_GP + 8)
#define ABI_RV_ST_FRM (ABI_RV_ST_TP + 8)
#define ABI_RV_ST_VSTART (ABI_RV_ST_FRM + 8)
#define ABI_RV_ST_VTYPE (ABI_RV_ST_VSTART + 8)
#define ABI_RV_ST_AVL (ABI_RV_ST_VTYPE + 8)
#define ABI_RV_ST_VXRM (ABI_RV_ST_AVL + 8)
#define ABI_RV_ST_VXSAT (ABI_RV_ST_VXRM + 8)
#define ABI_RV_ST_HAS_V (ABI_RV_ST_VXSAT + 8)
#define ABI_RV_ST_VEC_MODE (ABI_RV_ST_HAS_V + 4)
#define ABI_RV_ST_VEC_FILL (ABI_RV_ST_VEC_MODE + 4)
#define ABI_RV_ST_VLENB (ABI_RV_ST_VEC_FILL + 8)
#define ABI_RV_ST_VEC ((ABI_RV_ST_VLENB + 8 + 63) & ~63) /* 32 rows of ABI_RV_VLENB_MAX bytes */

#ifndef __ASSEMBLER__
#include <stdint.h>

/* The low 128 bits of a vector register, low quadword first; 8-aligned like a GPR, so a list
 * of both packs without padding. */
struct abi_xmm {
    uint64_t q[2];
};

#if defined(__x86_64__)
enum abi_vec_mode {
    ABI_VEC_NONE = 0, /* no snapshot */
    ABI_VEC_SSE = ABI_VEC_SSE_,
    ABI_VEC_AVX = ABI_VEC_AVX_,
    ABI_VEC_AVX512 = ABI_VEC_AVX512_,
};


/* Register state around one call.  Layout is shared with the harness's trampoline
 * (fuzz/harness/abi_x86_64.S): its offsets are the ABI_ST_* above (static asserts in
 * fuzz/harness/abi.c). */
struct abi_state {
    ABI_X86_64_SYSV_SAVED(ABI_REG_FIELD_)  /* 0..: callee-saved, in: loaded; out: observed */
    uint64_t rsp_delta;                    /* out: rsp after - rsp before (must be 0) */
    uint64_t rflags;                       /* out: rflags right after return */
    uint32_t mxcsr;                        /* in: loaded; out: observed */
    uint16_t x87cw;                        /* in: loaded; out: observed */
    uint16_t x87tw;                        /* out: x87 tag word (0xffff: register stack
                                            *      empty, as the ABI requires; MMX code that
                                            *      forgot emms leaves it otherwise) */
    uint32_t vec_mode;                     /* in: enum abi_vec_mode */
    uint32_t pad1;
    uint64_t vec_fill;                     /* in: pattern loaded into every vector register
                                            *      and (AVX-512) opmask register before the call */
    uint8_t vec[32][64] __attribute__((aligned(64))); /* out: zmm/ymm/xmm after the call;
                                            *      register n at vec[n], low bytes first */
    uint64_t k[8];                         /* out: k0-7 after the call */
    uint64_t stack_top;                    /* in: 0, or the callee's rsp on a separate
                                            *      stack (abi.c checks what is left below it) */
};
#endif

/* The Win64 callee-saved registers, as the Win64 checked call loads and observes them
 * (fuzz/harness/abi_win64_x86_64.S, the bridge a SysV checked call makes a Win64 call through;
 * struct abi_win64_call in abi.h: fn, the count of arguments, then the registers in and out). */
struct abi_win64_saved {
    ABI_X86_64_WIN64_SAVED(ABI_REG_FIELD_)
};
_Static_assert(sizeof(struct abi_win64_saved) == ABI_REGS_SIZE(ABI_X86_64_WIN64_SAVED),
               "a register list packs without padding");
_Static_assert(ABI_REGS_COUNT(ABI_X86_64_WIN64_SAVED) == 18,
               "Win64 saves 8 GPRs and xmm6-15 besides rsp");
_Static_assert(sizeof((const char *const[])ABI_REG_NAMES(ABI_X86_64_WIN64_SAVED)) ==
               ABI_REGS_COUNT(ABI_X86_64_WIN64_SAVED) * sizeof(const char *),
               "one name per register");
#endif

#endif
