/* asm/frame.h — asmdiff's stand-in (see linux/linkage.h): the frame-pointer prologue and
 * epilogue a kernel built with frame pointers emits; here a real push/pop of rbp, so the
 * checked call sees exactly the stack use the kernel build would have. */
#ifndef ASMDIFF_OUTSIDE_ASM_FRAME_H
#define ASMDIFF_OUTSIDE_ASM_FRAME_H
#define FRAME_BEGIN push %rbp; mov %rsp, %rbp
#define FRAME_END pop %rbp
#endif
