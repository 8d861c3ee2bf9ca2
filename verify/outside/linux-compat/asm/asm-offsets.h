/* asm/asm-offsets.h — stand-in for the header Linux generates at build time
 * (arch/x86/kernel/asm-offsets.c), for ./asmdiff check of Linux's crypto assembly in user space.
 *
 * Only the offsets the x86 crypto files read.  ARIA: struct aria_ctx (include/crypto/aria.h)
 * is enc_key[17][4] u32, dec_key[17][4] u32, int rounds, int key_length, so the two round-key
 * tables sit at 0 and 17 * 16 = 272 and the round count at 544; fuzz/aria.c builds a context of
 * that layout from the reference's schedule. */
#ifndef ASMDIFF_LINUX_COMPAT_ASM_OFFSETS_H
#define ASMDIFF_LINUX_COMPAT_ASM_OFFSETS_H

#define ARIA_CTX_enc_key 0
#define ARIA_CTX_dec_key 272
#define ARIA_CTX_rounds 544

#endif
