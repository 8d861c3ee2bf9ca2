/* regstate.h — the x86-64 register state around one call, as the checked-call trampoline
 * (fuzz/harness/abi_x86_64.S) and the emulator (emu_call.h) both record it, so that one
 * comparison (the harness's abi_check) judges a native and an emulated call alike.
 *
 * It lives here, below both: the engines in emu/ include nothing of the harness, and the
 * harness's abi.h includes this file. */
#ifndef ASMDIFF_EMU_REGSTATE_H
#define ASMDIFF_EMU_REGSTATE_H

#include <stdint.h>

/* What the vector snapshot covers; chosen once from the CPU features. */
enum abi_vec_mode {
    ABI_VEC_NONE = 0,   /* no snapshot */
    ABI_VEC_SSE = 1,    /* xmm0-15 */
    ABI_VEC_AVX = 2,    /* ymm0-15 */
    ABI_VEC_AVX512 = 3, /* zmm0-31 and k0-7 */
};

/* Register state around one call.  Layout is shared with the harness's trampoline
 * (fuzz/harness/abi_x86_64.S): keep the offsets in sync (static asserts in fuzz/harness/abi.c). */
struct abi_state {
    uint64_t rbx, rbp, r12, r13, r14, r15; /* 0..40: callee-saved, in: loaded; out: observed */
    uint64_t rsp_delta;                    /* 48: out: rsp after - rsp before (must be 0) */
    uint64_t rflags;                       /* 56: out: rflags right after return */
    uint32_t mxcsr;                        /* 64: in: loaded; out: observed */
    uint16_t x87cw;                        /* 68: in: loaded; out: observed */
    uint16_t x87tw;                        /* 70: out: x87 tag word (0xffff: register stack
                                            *      empty, as the ABI requires; MMX code that
                                            *      forgot emms leaves it otherwise) */
    uint32_t vec_mode;                     /* 72: in: enum abi_vec_mode */
    uint32_t pad1;
    uint64_t vec_fill;                     /* 80: in: pattern loaded into every vector register
                                            *      and (AVX-512) opmask register before the call */
    uint8_t vec[32][64] __attribute__((aligned(64))); /* 128: out: zmm/ymm/xmm after the call;
                                            *      register n at vec[n], low bytes first */
    uint64_t k[8];                         /* 128+2048: out: k0-7 after the call */
    uint64_t stack_top;                    /* 2240: in: 0, or the callee's rsp on a separate
                                            *      stack (abi.c checks what is left below it) */
};

#endif
