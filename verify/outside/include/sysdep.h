/* sysdep.h — asmdiff's stand-in for the names libgcrypt's mpi/ assembly takes from its
 * sysdep.h and asm-syntax.h (see asm-common-amd64.h for what this folder is): C_SYMBOL_NAME is
 * the name as it is (ELF has no leading underscore), TEXT and ALIGN place the code;
 * FUNC_ENTRY() opens the function's unwind information (there is no argument shuffle under
 * System V), and FUNC_EXIT() is the return itself and closes it: the mpi files put nothing
 * else at either end. */
#ifndef ASMDIFF_OUTSIDE_SYSDEP_H
#define ASMDIFF_OUTSIDE_SYSDEP_H
#include "asm-common-amd64.h"

#define C_SYMBOL_NAME(name) name
#define TEXT .text
#define ALIGN(log) .p2align log
#define FUNC_ENTRY() CFI_STARTPROC();
#define FUNC_EXIT() ret_spec_stop; CFI_ENDPROC();
#endif
