/* abi.h — the checked call: every kernel call in a fuzz target goes through it.
 *
 * In the spirit of BoringSSL's CHECK_ABI and dav1d's checkasm: before the call the trampoline
 * loads random values into the callee-saved registers (x86-64 SysV: rbx, rbp, r12-r15, the list
 * ABI_X86_64_SYSV_SAVED in emu/regstate.h), clears the direction flag, calls with a 16-byte
 * aligned stack, and puts junk (0xaa bytes) into the unused upper bits of arguments declared 8,
 * 16 or 32 bits wide; after the call it records the callee-saved registers, rsp, the direction
 * flag, MXCSR, the x87 control and tag words, and (when asked) a snapshot of every vector and
 * opmask register, so that a kernel that leaves key-derived state in zmm/k registers is caught.
 * abi_check() compares and names the first broken property.
 */
#ifndef ASMDIFF_ABI_H
#define ASMDIFF_ABI_H

#include <stddef.h>
#include <stdint.h>

#include "report.h" /* enum finding */

#define ABI_MAX_ARGS 10

/* the callee-saved register lists; on x86-64 struct abi_state too, shared with the engines below
 * the harness */
#include "emu/regstate.h"

#if defined(__riscv)
/* RISC-V LP64 (psABI): the trampoline (abi_riscv64.S) loads random values into s0-s11 and
 * fs0-fs11, sets the rounding mode frm, and, when the CPU has V, scrambles what a kernel must
 * not rely on: vtype and vl (a random legal configuration set with vsetvl), vxrm and vxsat (both
 * nonzero).  After the call it records s0-s11, fs0-fs11, sp, gp, tp, frm and vstart, and (when
 * asked) a snapshot of v0-v31, so that a kernel that leaves key-derived data in vector
 * registers is caught.  vl, vtype, vxrm and vxsat are not preserved across calls in the psABI,
 * so they are not compared.  The frame is found again through a process-wide lock and a
 * PC-relative global, because a broken callee may have changed sp, gp and tp all at once. */

/* Bytes of one vector register the snapshot can hold: VLEN up to 2048 bits.  With a larger
 * VLEN the leftover check is skipped (abi_call_clean then works as abi_call). */
#define ABI_RV_VLENB_MAX 256

enum abi_vec_mode {
    ABI_VEC_NONE = 0, /* no snapshot */
    ABI_VEC_RVV = 1,  /* v0-v31, whole registers (vlenb bytes each) */
};

/* Register state around one call.  Layout is shared with abi_riscv64.S: its offsets are the
 * ABI_RV_ST_* of emu/regstate.h (static asserts in abi.c). */
struct abi_state {
    ABI_RISCV64_LP64_SAVED(ABI_REG_FIELD_) /* 0: s0-s11, fs0-fs11 (raw 64-bit patterns); in:
                         * loaded; out: observed */
    uint64_t sp_delta;  /* 192: out: sp after - sp before (must be 0) */
    uint64_t gp, tp;    /* 200, 208: in: the caller's; out: observed after the call */
    uint64_t frm;       /* 216: in: rounding mode loaded; out: observed */
    uint64_t vstart;    /* 224: out: vstart after the call (must be 0) */
    uint64_t vtype;     /* 232: in: vtype set before the call (has_v only) */
    uint64_t avl;       /* 240: in: the AVL given to vsetvl with it */
    uint64_t vxrm;      /* 248: in: vxrm before the call (nonzero) */
    uint64_t vxsat;     /* 256: in: vxsat before the call (nonzero) */
    uint32_t has_v;     /* 264: in: the CPU has V: vector CSRs exist */
    uint32_t vec_mode;  /* 268: in: enum abi_vec_mode */
    uint64_t vec_fill;  /* 272: in: pattern loaded into every vector register before the call */
    uint64_t vlenb;     /* 280: in: bytes per vector register */
    uint8_t vec[32][ABI_RV_VLENB_MAX] __attribute__((aligned(64))); /* 320: out: v0-v31 after
                         * the call, register n at vec[n], vlenb bytes each */
};
#endif

/* The trampoline (abi_x86_64.S).  Calls fn(argv[0], ..., argv[argc-1]) with argc <= ABI_MAX_ARGS
 * (the first six in registers, the rest on the stack), with the callee-saved registers, MXCSR and
 * x87 control word taken from *st, and fills *st with what it observed after the call.
 * Returns rax. */
uint64_t abi_trampoline(const void *fn, struct abi_state *st, const uint64_t *argv, size_t argc);

/* Checked call: random callee-saved values, the call, then the comparison.  On a broken
 * property it calls the fail handler with a message naming the register (e.g. "callee-saved
 * register rbx modified (before 0x..., after 0x...)").  `name` is the implementation's name. */
uint64_t abi_call(const char *name, const void *fn, const uint64_t *argv, size_t argc);

/* As abi_call, but the vector registers are filled with a marker before the call and checked
 * after it: every 128-bit lane of each register must still hold the marker (untouched) or be all
 * zero (cleared); every opmask register likewise.  Anything else is data left behind by the
 * kernel: reported as "zmm5 not cleared: holds data".  Lanes rather than whole registers because
 * a legacy-SSE kernel that clears xmm5 with pxor cannot touch the upper lanes of ymm5/zmm5,
 * which keep the marker.
 * On x86-64 the call also runs on a separate stack whose ABI_STACK_SCAN bytes below the callee's
 * rsp (red zone and the kernel's own frame) hold a marker before the call; after it every 8-byte
 * word there must be the marker, zero, or something that is not data: the return address, a
 * value the caller passed in (callee-saved registers pushed, arguments), an address on that
 * stack, in the kernel's code or within 1 MiB of a pointer argument, or a small count
 * (< 2^20).  Anything else — a spilled key word, cipher state — is "stack below the caller's
 * frame holds data".  The 216 bytes above the callee's stack arguments (the caller's frame)
 * must be untouched. */
#define ABI_STACK_SCAN 8192
uint64_t abi_call_clean(const char *name, const void *fn, const uint64_t *argv, size_t argc);

#if defined(__x86_64__)
/* The checked call from a given state, its state after the call given back (emu-diff: the same
 * call on the CPU and, under abi_emulate, in the emulator, each judged as abi_call_clean judges
 * when clean and as abi_call otherwise, their states then compared).  The vector registers are
 * loaded and recorded in the CPU's widest mode either way; seed's callee-saved registers are
 * loaded (its other fields are set as every checked call sets them). */
uint64_t abi_call_state(const char *name, const void *fn, const uint64_t *argv, size_t argc,
                        int clean, const struct abi_state *seed, struct abi_state *after);
/* The separate stack of the checked calls that scan it: [*lo, *hi), 0 before the first. */
void abi_stack_range(uint64_t *lo, uint64_t *hi);
#endif

/* Compare a finished state against what was loaded; NULL when all is well, otherwise a
 * static (thread-local) message describing the first broken property.  MXCSR is compared in
 * its control bits only: the exception flags (bits 0-5) are caller-saved in the SysV ABI. */
const char *abi_check(const struct abi_state *before, const struct abi_state *after,
                      int check_vectors);

#if defined(__x86_64__)
/* An emulator that runs a call with the trampoline's register contract (emu/emu_call.h): 0 and *rax on success, -1 with a message ("fault: ...", "unsupported instruction:
 * ...") otherwise; emu_stack gives its stack ([lo, lo + size), the return address at
 * entry_rsp) for the leftover check. */
typedef int (*abi_emulator_fn)(const void *fn, const uint64_t *argv, size_t argc,
                               const struct abi_state *before, struct abi_state *after,
                               uint64_t *rax, char *err, size_t errlen);
typedef void (*abi_emu_stack_fn)(uint64_t *lo, size_t *size, uint64_t *entry_rsp);
void abi_set_emulator(abi_emulator_fn run, abi_emu_stack_fn stack, uint64_t stack_poison);
/* While on, checked calls run in the emulator (for a kernel whose ISA the host lacks). */
void abi_emulate(int on);
#endif

/* What the last failed check found (report.h's enum finding): FINDING_ABI, FINDING_RESIDUE
 * (data in a vector or opmask register), FINDING_STACK (data left on the stack, or the
 * caller's frame written), and for emulated calls FINDING_GUARD_PAGE (an access to an unmapped
 * page) or FINDING_EMULATOR (an instruction it cannot run). */
enum finding abi_last_kind(void);

/* Leave the checked call running now (a fault handler's way out, after its report): the call
 * returns 0 and abi_call_abandoned() is 1 until the next checked call.  Does nothing outside a
 * checked call, so the caller then ends the process itself. */
void abi_abandon_call(void);
int abi_call_abandoned(void);
#if defined(__x86_64__)
/* abi_trampoline, named as a checked call (abi_current_impl) and left by abi_abandon_call on a
 * fault: then it returns 0, abi_call_abandoned() is 1, and MXCSR and the x87 control word are
 * restored.  For callers that judge the state themselves (emu-diff). */
uint64_t abi_trampoline_guarded(const char *name, const void *fn, struct abi_state *st,
                                const uint64_t *argv, size_t argc);
#endif

#if defined(__x86_64__)
/* ---- the Win64 checked call ----
 * A function of Microsoft's x64 calling convention (perlasm's Win64 output: OpenSSL's mingw64
 * and nasm flavours) is called through abi_win64_bridge (abi_win64_x86_64.S), itself an
 * ordinary System V function, so every way a checked call runs (native, emulated, the Unicorn
 * modes, Valgrind) runs it unchanged: the System V checks stay, and the bridge puts the
 * arguments where Windows does (rcx, rdx, r8, r9, then the stack above 32 bytes of shadow
 * space), loads random values into the Win64 callee-saved list (emu/regstate.h
 * ABI_X86_64_WIN64_SAVED: rbx, rbp, rdi, rsi, r12-r15, xmm6-15) and records them after.  The
 * call: abi_win64_arm(c, fn, argc), then fn' = abi_win64_bridge with argv' = {c, argv...}
 * (argc + 1 arguments), then abi_win64_check(c). */
#define ABI_WIN64_MAX_ARGS (ABI_MAX_ARGS - 1)
struct abi_win64_call {
    const void *fn;             /* ABI_W64_FN: the Win64 function */
    uint64_t nargs;             /* ABI_W64_NARGS: its arguments (at most ABI_WIN64_MAX_ARGS) */
    struct abi_win64_saved in;  /* ABI_W64_IN: loaded before the call */
    struct abi_win64_saved out; /* ABI_W64_OUT: observed right after it */
};
uint64_t abi_win64_bridge(struct abi_win64_call *c, ...);
/* Random values in c->in (distinct from every other checked call's), c->out cleared. */
void abi_win64_arm(struct abi_win64_call *c, const void *fn, size_t argc);
/* NULL when every register of the list came back as loaded; else the first that did not:
 * "callee-saved register xmm6 modified (Win64 ABI: xmm6-15, rdi and rsi are callee-saved
 * there) (before 0x..., after 0x...)". */
const char *abi_win64_check(const struct abi_win64_call *c);
/* The whole Win64 checked call without a driver: the bridge through abi_call (or
 * abi_call_clean), then abi_win64_check, a broken register reported to the fail handler as
 * FINDING_ABI.  argc <= ABI_WIN64_MAX_ARGS. */
uint64_t abi_call_win64(const char *name, const void *fn, const uint64_t *argv, size_t argc,
                        int clean);
/* Whether the words w[0], w[1] are a value the Win64 call in progress loaded (its stack
 * leftovers: a Win64 function spills xmm6-15 and rdi/rsi, the caller's values, not data). */
int abi_win64_loaded_value(uint64_t w);
/* The Win64 call armed by abi_win64_arm is over (its values no longer excused on the stack). */
void abi_win64_done(void);
#endif

/* Called on a broken property.  Default: print to stderr and abort() via a non-inlined
 * function named abi_violation (its own crash signature).  Tests may replace the handler. */
typedef void (*abi_fail_fn)(const char *impl, const char *what);
void abi_set_fail_handler(abi_fail_fn fn);

#if defined(__x86_64__)
/* Argument marshalling: an argument narrower than 64 bits gets junk in its unused upper bits,
 * as real callers may leave it (the psABI leaves them undefined); 64-bit and pointer arguments
 * go as they are.  Every branch casts through uintptr_t first: _Generic still compiles the
 * branches it does not select, and a pointer cast straight to uint32_t warns. */
#define ABI_JUNK_HI 0xaaaaaaaa00000000ull
#define ABI_JUNK_HI16 0xaaaaaaaaaaaa0000ull
#define ABI_JUNK_HI8 0xaaaaaaaaaaaaaa00ull
#define ABI_ARG_U32(x) (ABI_JUNK_HI | (uint64_t)(uint32_t)(x))
#define ABI_ARG(x) _Generic((x),                                                             \
        _Bool: ABI_JUNK_HI8 | (uint64_t)(uint8_t)(uintptr_t)(x),                             \
        char: ABI_JUNK_HI8 | (uint64_t)(uint8_t)(uintptr_t)(x),                              \
        signed char: ABI_JUNK_HI8 | (uint64_t)(uint8_t)(uintptr_t)(x),                       \
        unsigned char: ABI_JUNK_HI8 | (uint64_t)(uint8_t)(uintptr_t)(x),                     \
        short: ABI_JUNK_HI16 | (uint64_t)(uint16_t)(uintptr_t)(x),                           \
        unsigned short: ABI_JUNK_HI16 | (uint64_t)(uint16_t)(uintptr_t)(x),                  \
        int: ABI_JUNK_HI | (uint64_t)(uint32_t)(uintptr_t)(x),                               \
        unsigned int: ABI_JUNK_HI | (uint64_t)(uint32_t)(uintptr_t)(x),                      \
        default: (uint64_t)(uintptr_t)(x))
#endif

#if defined(__riscv)
/* Argument marshalling on RISC-V LP64: the psABI defines the upper bits, so there is no junk to
 * give.  An integer narrower than 64 bits is widened by the sign of its type to 32 bits, then
 * sign-extended to 64: int and short sign-extend; unsigned char, unsigned short and _Bool
 * zero-extend; and unsigned int is sign-extended from bit 31 too (0x80000000u arrives as
 * 0xffffffff80000000).  Kernels may rely on that (the *w instructions produce it), so junk
 * there would be an illegal call, not a test: the checked call passes exactly what a compiler
 * passes.  A kernel that wrongly treats an unsigned int as zero-extended (using it as a 64-bit
 * count or offset without zext) is caught by values with bit 31 set, not by junk. */
#define ABI_ARG_U32(x) ((uint64_t)(int64_t)(int32_t)(uint32_t)(x))
#define ABI_ARG(x) _Generic((x),                                                             \
        _Bool: (uint64_t)(uint8_t)(uintptr_t)(x),                                            \
        char: (uint64_t)(int64_t)(char)(uintptr_t)(x),                                       \
        signed char: (uint64_t)(int64_t)(signed char)(uintptr_t)(x),                         \
        unsigned char: (uint64_t)(unsigned char)(uintptr_t)(x),                              \
        short: (uint64_t)(int64_t)(short)(uintptr_t)(x),                                     \
        unsigned short: (uint64_t)(unsigned short)(uintptr_t)(x),                            \
        int: (uint64_t)(int64_t)(int)(uintptr_t)(x),                                         \
        unsigned int: (uint64_t)(int64_t)(int32_t)(uint32_t)(uintptr_t)(x),                  \
        default: (uint64_t)(uintptr_t)(x))
#endif

/* ABI_CALL(name, fn, args...): checked call of fn with each argument marshalled by ABI_ARG;
 * 1 to ABI_MAX_ARGS arguments. */
#define ABI_CALL(name, fn, ...)                                                              \
    abi_call((name), (const void *)(fn), (const uint64_t[]){ABI_MAP_(__VA_ARGS__)},           \
             ABI_NARGS_(__VA_ARGS__))
#define ABI_CALL_CLEAN(name, fn, ...)                                                        \
    abi_call_clean((name), (const void *)(fn), (const uint64_t[]){ABI_MAP_(__VA_ARGS__)},     \
                   ABI_NARGS_(__VA_ARGS__))

/* argument counting / mapping for up to 10 arguments */
#define ABI_NARGS_(...) ABI_NARGS_I_(__VA_ARGS__, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define ABI_NARGS_I_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, N, ...) N
#define ABI_MAP_(...) ABI_MAP_N_(ABI_NARGS_(__VA_ARGS__), __VA_ARGS__)
#define ABI_MAP_N_(n, ...) ABI_MAP_N2_(n, __VA_ARGS__)
#define ABI_MAP_N2_(n, ...) ABI_MAP_##n(__VA_ARGS__)
#define ABI_MAP_1(a) ABI_ARG(a)
#define ABI_MAP_2(a, ...) ABI_ARG(a), ABI_MAP_1(__VA_ARGS__)
#define ABI_MAP_3(a, ...) ABI_ARG(a), ABI_MAP_2(__VA_ARGS__)
#define ABI_MAP_4(a, ...) ABI_ARG(a), ABI_MAP_3(__VA_ARGS__)
#define ABI_MAP_5(a, ...) ABI_ARG(a), ABI_MAP_4(__VA_ARGS__)
#define ABI_MAP_6(a, ...) ABI_ARG(a), ABI_MAP_5(__VA_ARGS__)
#define ABI_MAP_7(a, ...) ABI_ARG(a), ABI_MAP_6(__VA_ARGS__)
#define ABI_MAP_8(a, ...) ABI_ARG(a), ABI_MAP_7(__VA_ARGS__)
#define ABI_MAP_9(a, ...) ABI_ARG(a), ABI_MAP_8(__VA_ARGS__)
#define ABI_MAP_10(a, ...) ABI_ARG(a), ABI_MAP_9(__VA_ARGS__)

/* The implementation inside a checked call right now (NULL outside one), so a fault handler
 * can say whose code touched a guard page. */
extern const char *volatile abi_current_impl;

#endif
