/* openssl_perlasm.h — what the conventions of OpenSSL's perlasm files share
 * (openssl_chacha.c, openssl_poly1305.c, and fuzz/mpi.c's for x86_64-mont.pl): the capability
 * vector their entry points read, and the pair of conventions one perlasm file gets, its elf output (`openssl`, System V) and its
 * mingw64 output (`win64`, Microsoft's x64 calling convention, taken as it is: the check
 * assembles its body as ELF, tools/asmdiff/check/build.py win64_body), the same functions and
 * rows under two names.
 *
 * OPENSSL_ia32cap_P: the files choose their path from it, RIP-relative.  The check build
 * defines it (verify/outside/openssl_ia32cap.c, added for these conventions); elsewhere this
 * weak reference is NULL and unused.  Only the bit positions (CPUID words as OpenSSL's
 * crypto/x86_64cpuid.pl stores them) are facts used here. */
#ifndef ASMDIFF_OPENSSL_PERLASM_H
#define ASMDIFF_OPENSSL_PERLASM_H

#include "driver.h"

extern unsigned int OPENSSL_ia32cap_P[4] __attribute__((weak));

/* word 1 (CPUID.1:ECX) and word 2 (CPUID.7.0:EBX) bits the files test */
#define OPENSSL_CAP1_SSSE3 (1u << 9)
#define OPENSSL_CAP1_AVX (1u << 28)
#define OPENSSL_CAP2_AVX2 (1u << 5)
#define OPENSSL_CAP2_BMI2 (1u << 8)
#define OPENSSL_CAP2_ADX (1u << 19)
#define OPENSSL_CAP2_AVX512F (1u << 16)
#define OPENSSL_CAP2_AVX512VL (1u << 31)

/* exactly the bits that choose a path, whatever this CPU has: the kernel then runs in the
 * emulator where the CPU lacks the path's features, as any kernel does */
static inline void openssl_caps_set(unsigned cap1, unsigned cap2)
{
    if (!OPENSSL_ia32cap_P) return;
    OPENSSL_ia32cap_P[0] = 0;
    OPENSSL_ia32cap_P[1] = cap1;
    OPENSSL_ia32cap_P[2] = cap2;
    OPENSSL_ia32cap_P[3] = 0;
}

/* the vector as a region of its own address, for the Unicorn modes (drv_global_region) */
static inline void openssl_caps_region(void)
{
    if (OPENSSL_ia32cap_P)
        drv_global_region("OPENSSL_ia32cap_P", OPENSSL_ia32cap_P, sizeof(unsigned int[4]), 0);
}

/* The paths of a perlasm file are one entry point choosing among them: without --op the first
 * row (the widest path), and any row may be named for any of them (one computation). */
static inline int openssl_identify_first(const struct convention *cv, const void *fn,
                                         const char *symbol)
{
    (void)cv, (void)fn, (void)symbol;
    return 0;
}

static inline int openssl_same_operation(const struct convention *cv, size_t a, size_t b)
{
    (void)cv, (void)a, (void)b;
    return 1;
}

#define OPENSSL_LEFTOVERS                                                                     \
    "OpenSSL's assembly clears neither vector registers nor its stack after a call, and "     \
    "promises nothing about them"

/* convention_openssl_FAMILY and convention_win64_FAMILY (registered by name in
 * fuzz/meson.build's 'conventions' list; driver.h: struct convention): PROTOTYPE the
 * functions' contract, then the struct's function and row fields, shared.  A convention's
 * code tells the two apart by cv->name ("win64": calls through DRV_CALL_WIN64). */
#define OPENSSL_PERLASM_CONVENTIONS(family, prototype_, ...)                                  \
    const struct convention convention_openssl_##family = {                                  \
        .name = "openssl",                                                                    \
        .prototype = prototype_ " (System V: perlasm's elf flavour)",                         \
        .clean = 0,                                                                           \
        .leftovers = OPENSSL_LEFTOVERS,                                                       \
        __VA_ARGS__};                                                                         \
    const struct convention convention_win64_##family = {                                    \
        .name = "win64",                                                                      \
        .prototype = prototype_ " (Windows x64: perlasm's mingw64 flavour, called with rcx, " \
                     "rdx, r8, r9 and the stack above 32 bytes of shadow space; rdi, rsi and " \
                     "xmm6-15 callee-saved)",                                                 \
        .clean = 0,                                                                           \
        .leftovers = OPENSSL_LEFTOVERS,                                                       \
        __VA_ARGS__}

#endif
