/* emu_call.h — run any x86-64 kernel emulated (Unicorn + the vector executor, vx_uc.h), with
 * the same register contract as the native checked-call trampoline (fuzz/harness/abi_x86_64.S),
 * so that abi_check() judges both paths alike and a host without AVX-512/GFNI can still run
 * (and fuzz) the AVX-512/GFNI kernels.
 *
 * Memory: the emulator sees host memory at identical addresses, mapped on demand: the first
 * access to a page the emulator does not have maps the host's readable mapping around it
 * (found in /proc/self/maps, with its protection) into Unicorn as shared memory
 * (uc_mem_map_ptr), so pointers pass unchanged and results land in host memory directly.  A
 * page the host has PROT_NONE (guard pages) or not at all stays unmapped: an access there stops
 * the call with "fault: read of 64 bytes at 0x7f... (no readable host page) by instruction at
 * sym+off".  A write to a host read-only page is a fault too.  Mappings of the program's own
 * segments (code, constants, .data, .bss) are kept for good; any other (heap, mmap'd and
 * guard-paged buffers) is kept only while the host still maps that range with the same
 * protection, checked against /proc/self/maps before each call.
 *
 * Stack: the emulated function runs on a stack of its own (EMU_STACK_SIZE bytes, host memory
 * with a PROT_NONE page below it, every 8-byte word filled with EMU_STACK_POISON before each
 * call: the word the checked call's own stack holds, so stale stack reads alike), never on the
 * caller's.  emu_stack() gives its place, so the caller can check after return that nothing
 * below the return address holds data (the red zone and the kernel's frame stay as the kernel
 * left them).  %fs is the host thread's, so TLS reads work.
 *
 * Not thread-safe: one engine per process (the harness's checked call is per thread, but the
 * emulated path is for one fuzzing thread).
 */
#ifndef ASMDIFF_EMU_CALL_H
#define ASMDIFF_EMU_CALL_H

#include <stddef.h>
#include <stdint.h>

#include "emu/regstate.h"

#define EMU_STACK_SIZE (64 * 1024)
/* Arguments a call may have: as many as the checked call passes (ABI_MAX_ARGS). */
#define EMU_MAX_ARGS 10
#define EMU_STACK_POISON ABI_STACK_MARKER /* emu/regstate.h */

/* Run fn(argv[0..argc)) (x86-64 SysV, up to 10 integer args, 6 in registers, rest on the stack)
 * under Unicorn + the vector executor, at the function's own address.  Before the call:
 * callee-saved rbx, rbp, r12-r15, MXCSR, x87 CW and every vector and opmask register are loaded
 * from *before (vec_fill pattern for the registers of before->vec_mode, as the trampoline does;
 * rax, r10, r11 and unused argument registers get the trampoline's junk).  After it, *after is
 * filled exactly as the native trampoline fills its state (callee-saved regs, rsp_delta,
 * rflags, mxcsr, x87cw/tw, vec[32][64] for the registers of vec_mode, k[8]); the other fields
 * are copied from *before.  Returns 0 and *rax on success; -1 with a message in err (e.g.
 * "unsupported instruction: vpdpbusd %zmm1, %zmm2, %zmm3 at aria_ecb_avx512_gfni_xor+0x1a4",
 * "fault: read of 64 bytes at 0x7f... (no readable host page) by instruction at sym+off")
 * otherwise. */
int emu_call(const void *fn, const uint64_t *argv, size_t argc, const struct abi_state *before,
             struct abi_state *after, uint64_t *rax, char *err, size_t errlen);

/* 0 when fn needs nothing a CPU could lack, so the caller may run it natively even when the
 * implementation it belongs to is emulated (Camellia's scalar key schedule beside its AVX-512
 * kernels): every instruction of the function (its ELF symbol's extent, read linearly) and of
 * the functions it calls directly is one of the executor's legacy scalar forms, which are all
 * baseline x86-64, and every jump stays inside its function.  1 otherwise, and whenever that
 * cannot be shown (no symbol size, an instruction outside the table, an indirect or outward
 * jump).  The answer is kept per function. */
int emu_needs_emulation(const void *fn);

/* The ISA-subset check for the calls that follow: with on, every instruction a call runs (in
 * the executor or in Unicorn) must need only features of vx_feat_closure(declared) (a VXF()
 * set, emu/vexec.h); the first that needs another stops the call, -1 and err "beyond the
 * declared features: vpbroadcastb %xmm0, %xmm1 at sym+0x1a4 needs AVX2; declared AVX+AES".
 * Off (0) by default. */
void emu_set_isa(int on, uint32_t declared);

/* 1 when built with Unicorn; 0 from emu_call_stub.c, whose emu_call fails saying why. */
int emu_available(void);

/* The emulated stack: [*lo, *lo + *size) in host memory; *entry_rsp is where the return
 * address was at the call (the caller's frame, stack arguments included, lies above it; the
 * function's own frame and red zone below).  Valid after the first emu_call. */
void emu_stack(uint64_t *lo, size_t *size, uint64_t *entry_rsp);

/* The address of the instruction the last emu_call stopped at when it failed (a fault or an
 * instruction it cannot run); 0 after a call that returned, or when unknown. */
uint64_t emu_last_pc(void);

/* Statistics of the last call: instructions run by the executor, turns of Unicorn. */
void emu_last_stats(uint64_t *vexec_insns, uint64_t *unicorn_turns);

/* The instruction at pc in this process (one the CPU refused: SIGILL) as text, "vpbroadcastb
 * %xmm0, %ymm1" (its bytes where no disassembler is linked), and the CPU features it needs as
 * the SDM names them, "AVX2" (the executor's table for its forms, the prefixes and opcode for
 * legacy ones; "" when neither knows it).  Reads only the page that holds pc. */
void emu_describe_insn(uint64_t pc, char *text, size_t tlen, char *needs, size_t nlen);

#endif
