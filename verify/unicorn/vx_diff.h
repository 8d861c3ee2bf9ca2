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

/* 0 when this CPU can run every form natively; else -1 and why ("the CPU lacks AVX512VBMI"). */
int vxd_init(char *why, size_t len);

enum vxd_result { VXD_SAME = 0, VXD_DIFF = 1, VXD_SKIP = 2 };

/* Runs one case chosen by data (any bytes; shorter inputs are extended by a PRNG seeded from
 * them).  form_index >= 0 forces the form.  On VXD_DIFF, msg names the form, the bytes, the
 * disassembly-free operand summary and the first differing register or byte. */
enum vxd_result vxd_case(const uint8_t *data, size_t n, long form_index, char *msg, size_t len,
                         size_t *form_used);

#endif
