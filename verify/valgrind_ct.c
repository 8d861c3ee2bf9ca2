/* valgrind_ct.c — constant time under Valgrind memcheck, for kernels Unicorn cannot execute
 * (AVX2).  The secret inputs are marked undefined; memcheck then reports any branch or memory
 * address that depends on them ("Conditional jump or move depends on uninitialised value",
 * "Use of uninitialised value of size 8" for a secret-indexed load).  Run it as
 *     valgrind --error-exitcode=1 --track-origins=yes valgrind_ct MODE
 * MODE: nh (every NH kernel at every length, key and message secret), leak-branch and
 * leak-index (positive controls that must be reported), clean (a control that must not).
 * Outside Valgrind the client requests do nothing and the program only checks results. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "cpu.h"
#include "kernels/nh/nh.h"
#include "reference/nh.h"

static uint64_t x = 0x9e3779b97f4a7c15ull;
static uint8_t rnd(void)
{
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return (uint8_t)x;
}

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
    for (size_t i = 0; i < sizeof secret; i++) secret[i] = rnd();

    if (!strcmp(mode, "leak-branch") || !strcmp(mode, "leak-index") || !strcmp(mode, "clean")) {
        VALGRIND_MAKE_MEM_UNDEFINED(secret, sizeof secret);
        unsigned r = !strcmp(mode, "leak-branch") ? leak_branch(secret)
                     : !strcmp(mode, "leak-index") ? leak_index(secret)
                                                    : clean_xor(secret, sizeof secret);
        VALGRIND_MAKE_MEM_DEFINED(&r, sizeof r); /* the result is declassified on purpose */
        printf("%s: %u\n", mode, r);
        return 0;
    }
    if (strcmp(mode, "nh")) {
        fprintf(stderr, "usage: %s nh|leak-branch|leak-index|clean\n", argv[0]);
        return 2;
    }
    static const struct {
        const char *name;
        uint64_t needs;
        void (*fn)(const uint32_t *, const uint8_t *, size_t, uint8_t *);
    } k[] = {{"sse2-addperm", CPU_SSE2, nh_sse2_addperm},
             {"sse2-permload", CPU_SSE2, nh_sse2_permload},
             {"avx2", CPU_AVX2, nh_avx2}};
    static uint32_t key[NH_KEY_WORDS];
    static uint8_t msg[NH_MESSAGE_BYTES_MAX];
    int fails = 0, calls = 0;
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        const char *why = cpu_unavailable_reason(k[i].needs);
        if (why) {
            printf("skip %s: %s\n", k[i].name, why);
            continue;
        }
        for (size_t len = 16; len <= NH_MESSAGE_BYTES_MAX; len += 16) {
            uint8_t got[32], want[32];
            for (size_t j = 0; j < NH_KEY_WORDS; j++) key[j] = (uint32_t)rnd() << 24 | rnd();
            for (size_t j = 0; j < len; j++) msg[j] = rnd();
            nh_ref(key, msg, len, want);
            VALGRIND_MAKE_MEM_UNDEFINED(key, sizeof key);
            VALGRIND_MAKE_MEM_UNDEFINED(msg, len);
            k[i].fn(key, msg, len, got);
            VALGRIND_MAKE_MEM_DEFINED(got, sizeof got); /* the hash is public output */
            VALGRIND_MAKE_MEM_DEFINED(key, sizeof key);
            VALGRIND_MAKE_MEM_DEFINED(msg, len);
            if (memcmp(got, want, sizeof got)) {
                printf("FAIL %s len %zu: hash differs from the reference\n", k[i].name, len);
                fails++;
            }
            calls++;
        }
        printf("ok   %s: every length 16..1024 with secret key and message\n", k[i].name);
    }
    printf("nh: %d calls, %d wrong hashes%s\n", calls, fails,
           RUNNING_ON_VALGRIND ? " (under memcheck: any secret-dependent branch or address "
                                 "is reported above)" : " (not under Valgrind: results only)");
    return fails ? 1 : 0;
}
