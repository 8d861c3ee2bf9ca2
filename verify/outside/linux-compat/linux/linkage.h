/* linux/linkage.h (linux-compat) — the Kconfig facts Linux's build gives every file through
 * its forced include of the generated autoconf.h, for ./asmdiff check of Linux's crypto
 * assembly; then our user-space linkage.h (verify/outside/include/linux/linkage.h).
 *
 * CONFIG_AS_GFNI: the assembler knows GFNI (Linux sets it when it does; clang 19's does), so
 * aria-aesni-avx2-asm_64.S builds its aria_aesni_avx2_gfni_* entry points too.
 * CONFIG_AS_VAES, CONFIG_AS_VPCLMULQDQ: likewise VAES and VPCLMULQDQ, so aes-xts-avx-x86_64.S
 * builds its vaes_avx2 and vaes_avx10_{256,512} entry points.
 * CONFIG_AS_AVX512: likewise AVX-512, so the kernel form of poly1305-x86_64-cryptogams.pl (its
 * perl output) builds poly1305_blocks_avx512, which it puts under #ifdef CONFIG_AS_AVX512. */
#ifndef CONFIG_AS_GFNI
#define CONFIG_AS_GFNI 1
#endif
#ifndef CONFIG_AS_VAES
#define CONFIG_AS_VAES 1
#endif
#ifndef CONFIG_AS_VPCLMULQDQ
#define CONFIG_AS_VPCLMULQDQ 1
#endif
#ifndef CONFIG_AS_AVX512
#define CONFIG_AS_AVX512 1
#endif
#include_next <linux/linkage.h>
