/* selftest.h — the pass/fail counter every self-test shares (abi_selftest, harness_selftest,
 * uc_selftest, emu_call_test, abi_selftest_riscv64).
 *
 *   ST_CHECK(cond, fmt, ...)   prints "ok   <text>" or "FAIL <text>" on one line, counts it,
 *                              and gives cond's truth (0 or 1) back
 *   st_finish()                prints "N passed, M failed" alone on a line; returns the exit
 *                              status: 0 when nothing failed, else 1
 *
 * Header-only with static state, because each self-test is one translation unit: nothing to
 * link, and no test can see another's counts. */
#ifndef ASMDIFF_SELFTEST_H
#define ASMDIFF_SELFTEST_H

#include <stdarg.h>
#include <stdio.h>

static int st_passed, st_failed;

static inline int __attribute__((format(printf, 2, 3))) st_check(int ok, const char *fmt, ...)
{
    va_list ap;
    /* the two marks have one width, so the checks' text lines up */
    fputs(ok ? "ok   " : "FAIL ", stdout);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    if (ok)
        st_passed++;
    else
        st_failed++;
    return ok;
}

#define ST_CHECK(cond, ...) st_check(!!(cond), __VA_ARGS__)

static inline int st_finish(void)
{
    printf("%d passed, %d failed\n", st_passed, st_failed);
    fflush(stdout);
    return st_failed ? 1 : 0;
}

#endif
