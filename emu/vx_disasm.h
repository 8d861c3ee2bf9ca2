/* vx_disasm.h — one instruction as text, for messages ("vpdpbusd %zmm1, %zmm2, %zmm3").
 * With LLVM's C disassembler (llvm-19-dev) when the build found it; otherwise the bytes in
 * hex ("bytes 62 f2 75 48 50 d9"), which still identify the instruction exactly. */
#ifndef ASMDIFF_VX_DISASM_H
#define ASMDIFF_VX_DISASM_H

#include <stddef.h>
#include <stdint.h>

const char *vx_disasm(const uint8_t *bytes, size_t n, uint64_t addr, char *buf, size_t len);

/* 1 when LLVM's disassembler is linked in (vx_disasm_len can walk code). */
int vx_disasm_available(void);

/* Disassembles the instruction at bytes[0..n): its length (0 when the bytes are not a valid
 * instruction, or without LLVM), its AT&T text in buf (leading blanks and tabs removed). */
size_t vx_disasm_len(const uint8_t *bytes, size_t n, uint64_t addr, char *buf, size_t len);

#endif
