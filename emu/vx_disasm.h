/* vx_disasm.h — one instruction as text, for messages ("vpdpbusd %zmm1, %zmm2, %zmm3").
 * With LLVM's C disassembler (llvm-19-dev) when the build found it; otherwise the bytes in
 * hex ("bytes 62 f2 75 48 50 d9"), which still identify the instruction exactly. */
#ifndef ASMDIFF_VX_DISASM_H
#define ASMDIFF_VX_DISASM_H

#include <stddef.h>
#include <stdint.h>

const char *vx_disasm(const uint8_t *bytes, size_t n, uint64_t addr, char *buf, size_t len);

#endif
