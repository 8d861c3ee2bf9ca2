/* srcline_selftest_noline_x86_64.S — code without line information (built with -g0), for
 * verify/srcline_selftest.c: its addresses must resolve to a symbol and to no source line,
 * never to a neighbour's line. */
    .text
    .globl srcline_noline
    .type srcline_noline, @function
srcline_noline:
    nop
    movq %rdi, %rax
    ret
    .size srcline_noline, . - srcline_noline

    .section .note.GNU-stack, "", @progbits
