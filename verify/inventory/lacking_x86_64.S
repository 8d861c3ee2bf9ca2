/* lacking_x86_64.S — the inventory's control (inventory_test.sh): one form the executor has
 * (vpxor) and one it lacks (vpdpbusd, AVX512-VNNI, not in vexec.c's table), which must be
 * listed as unsupported and fail --require-all. */
    .text
    .globl inv_lacking
    .type inv_lacking, @function
inv_lacking:
    vpxor %xmm1, %xmm2, %xmm3
    vpdpbusd %zmm1, %zmm2, %zmm3
    ret
    .size inv_lacking, . - inv_lacking
    .section .note.GNU-stack, "", @progbits
