/* known_x86_64.S — an object whose VEX/EVEX forms are known, for the inventory's test
 * (inventory_test.sh): 8 vector instructions in 7 forms, all in the executor's table, one
 * legacy instruction (not counted) and, after the function, bytes of a vpxor in a table
 * outside any function symbol (never read as code). */
    .text
    .globl inv_known
    .type inv_known, @function
inv_known:
    vpxor %xmm1, %xmm2, %xmm3               /* vpxor VEX.128 xmm, xmm, xmm */
    vpxor %xmm4, %xmm5, %xmm6               /* the same form again */
    vpxor %ymm1, %ymm2, %ymm3               /* vpxor VEX.256 ymm, ymm, ymm */
    vpxor (%rdi), %ymm2, %ymm3              /* vpxor VEX.256 m, ymm, ymm */
    vpxord %zmm1, %zmm2, %zmm3{%k1}{z}      /* vpxord EVEX.512 zmm, zmm, zmm {k}{z} */
    vpxord (%rdi){1to16}, %zmm2, %zmm3      /* vpxord EVEX.512 m{1to16}, zmm, zmm */
    vpopcntb %xmm16, %xmm17                 /* vpopcntb EVEX.128 xmm, xmm */
    rorx $3, %eax, %ecx                     /* rorxl VEX.128 imm, r32, r32 */
    add %eax, %ebx
    ret
    .size inv_known, . - inv_known
inv_table:
    .byte 0xc5, 0xf9, 0xef, 0xc0, 0xc5, 0xf9, 0xef, 0xc0
    .section .note.GNU-stack, "", @progbits
