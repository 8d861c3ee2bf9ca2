/* linux/linkage.h (linux-compat) — the Kconfig facts Linux's build gives every file through
 * its forced include of the generated autoconf.h, for ./asmdiff check of Linux's crypto
 * assembly; then our user-space linkage.h (verify/outside/include/linux/linkage.h).
 *
 * CONFIG_AS_GFNI: the assembler knows GFNI (Linux sets it when it does; clang 19's does), so
 * aria-aesni-avx2-asm_64.S builds its aria_aesni_avx2_gfni_* entry points too. */
#ifndef CONFIG_AS_GFNI
#define CONFIG_AS_GFNI 1
#endif
#include_next <linux/linkage.h>
