/* valgrind_controls.c — positive and negative controls of the constant-time engine: Valgrind
 * memcheck with secret bytes marked undefined reports a branch or a memory address that depends
 * on them ("Conditional jump or move depends on uninitialised value", "Use of uninitialised
 * value of size 8").  Every family registered with the 'valgrind' engine runs its kernels the
 * same way (asmdiff-<family> ct N, the driver marking its BUF_SECRET buffers undefined); these
 * controls prove the engine can fail:
 *     valgrind --error-exitcode=1 valgrind_controls leak-branch|leak-index   must be reported
 *     valgrind --error-exitcode=1 valgrind_controls clean                    must not
 * Outside Valgrind the client requests do nothing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "fuzz/harness/rng.h"

/* Secret-dependent control flow and table index: what memcheck must flag. */
__attribute__((noinline)) static unsigned leak_branch(const uint8_t *s)
{
    unsigned r = 5;
    if (s[0] & 1) {
        __asm__ volatile("" : "+r"(r)); /* a real jump, not a cmov the compiler could pick */
        r = 3;
    }
    return r;
}
static const uint8_t table[256] = {1, 2, 3};
__attribute__((noinline)) static unsigned leak_index(const uint8_t *s)
{
    return table[s[0]];
}
__attribute__((noinline)) static unsigned clean_xor(const uint8_t *s, size_t n)
{
    unsigned acc = 0;
    for (size_t i = 0; i < n; i++) acc ^= s[i];
    return acc;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    static uint8_t secret[1024];
    uint64_t x = 0x9e3779b97f4a7c15ull;
    rng_fill(&x, secret, sizeof secret);
    if (strcmp(mode, "leak-branch") && strcmp(mode, "leak-index") && strcmp(mode, "clean")) {
        fprintf(stderr, "usage: valgrind_controls leak-branch|leak-index|clean\n");
        return 2;
    }
    VALGRIND_MAKE_MEM_UNDEFINED(secret, sizeof secret);
    unsigned r = !strcmp(mode, "leak-branch") ? leak_branch(secret)
                 : !strcmp(mode, "leak-index") ? leak_index(secret)
                                                : clean_xor(secret, sizeof secret);
    VALGRIND_MAKE_MEM_DEFINED(&r, sizeof r); /* the result is declassified on purpose */
    printf("%s: %u\n", mode, r);
    return 0;
}
