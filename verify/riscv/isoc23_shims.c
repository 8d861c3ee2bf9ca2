/* isoc23_shims.c — the four glibc 2.38 names that Debian trixie's riscv64 libFuzzer archive
 * (libclang_rt.fuzzer-riscv64.a, built against glibc 2.41) calls, for a static link against
 * bookworm's glibc 2.36, which predates them.  C23 only changed strtol and friends to accept a
 * 0b/0B prefix for base 0 and 2; libFuzzer parses its own flags in base 10, so forwarding to the
 * plain functions is exact for it.  Linked into the riscv64 fuzz_<family> binaries only; can go
 * when the cross glibc is 2.38 or later. */
#include <stdlib.h>

long __isoc23_strtol(const char *s, char **end, int base);
unsigned long __isoc23_strtoul(const char *s, char **end, int base);
long long __isoc23_strtoll(const char *s, char **end, int base);
unsigned long long __isoc23_strtoull(const char *s, char **end, int base);

long __isoc23_strtol(const char *s, char **end, int base)
{
    return strtol(s, end, base);
}
unsigned long __isoc23_strtoul(const char *s, char **end, int base)
{
    return strtoul(s, end, base);
}
long long __isoc23_strtoll(const char *s, char **end, int base)
{
    return strtoll(s, end, base);
}
unsigned long long __isoc23_strtoull(const char *s, char **end, int base)
{
    return strtoull(s, end, base);
}
