/* srcline_selftest_x86_64.S — instructions at known lines, for verify/srcline_selftest.c.
 *
 * Built with line information (the project's -g).  srcline_selftest.c finds the expected line
 * of each instruction by the marker comment on it, in this file, and checks that the address
 * resolves to this file and that line exactly.  Nothing here is called.
 *
 * srcline_known:  a global function; its fourth instruction is at +0x3 (three one-byte nops).
 * srcline_local:  a local symbol (no .globl), reached through srcline_local_addr, so the
 *                 lookup must read the symbol table, not the dynamic symbols dladdr sees.
 */
    .text
    .globl srcline_known
    .type srcline_known, @function
srcline_known:
    nop
    nop
    nop
    movq %rdi, %rax     /* SRCLINE-MARK known+3 */
    ret
    .size srcline_known, . - srcline_known

    .type srcline_local, @function
srcline_local:
    nop
    movq %rsi, %rax     /* SRCLINE-MARK local+1 */
    ret
    .size srcline_local, . - srcline_local

    .section .data.rel.ro, "aw"
    .globl srcline_local_addr
    .p2align 3
srcline_local_addr:
    .quad srcline_local

    .section .note.GNU-stack, "", @progbits
