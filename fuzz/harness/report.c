/* report.c — see report.h.  Prints to stderr only. */
#include "report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu.h"

const char *report_current_file;

void report_begin(const char *family, const char *what)
{
    fprintf(stderr, "\n==== asmdiff: MISMATCH in %s: %s\n", family, what);
}

void report_param(const char *name, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "  %-14s = ", name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void dump(const char *label, const uint8_t *p, size_t from, size_t to, size_t mark)
{
    fprintf(stderr, "  %s:\n", label);
    for (size_t row = from & ~(size_t)15; row < to; row += 16) {
        fprintf(stderr, "    %06zx ", row);
        for (size_t i = row; i < row + 16; i++) {
            if (i < from || i >= to) fputs("   ", stderr);
            else fprintf(stderr, "%c%02x", i == mark ? '>' : ' ', p[i]);
        }
        fputc('\n', stderr);
    }
}

void report_hex(const char *label, const void *p, size_t n)
{
    dump(label, p, 0, n, (size_t)-1);
}

void report_diff(const char *exp_name, const void *exp, const char *act_name, const void *act,
                 size_t n)
{
    const uint8_t *e = exp, *a = act;
    size_t first = 0;
    while (first < n && e[first] == a[first]) first++;
    if (first == n) {
        fprintf(stderr, "  (buffers of %zu bytes are equal)\n", n);
        return;
    }
    size_t last = n;
    while (last > first && e[last - 1] == a[last - 1]) last--;
    fprintf(stderr, "  first difference at byte %zu (of %zu); last at byte %zu\n", first, n,
            last - 1);
    size_t from = 0, to = n;
    if (n > 256) { /* a window around the first difference */
        from = first > 64 ? (first - 64) & ~(size_t)15 : 0;
        to = from + 192 < n ? from + 192 : n;
    }
    char l1[96], l2[96];
    snprintf(l1, sizeof l1, "expected (%s), bytes %zu..%zu", exp_name, from, to - 1);
    snprintf(l2, sizeof l2, "actual   (%s), bytes %zu..%zu", act_name, from, to - 1);
    dump(l1, e, from, to, first);
    dump(l2, a, from, to, first);
}

void report_end(const char *family, void (*crash)(void))
{
    char names[512];
    fprintf(stderr, "  cpu features   = %s\n",
            cpu_feature_names(cpu_features(), names, sizeof names));
    if (cpu_features_masked())
        fprintf(stderr, "  masked         = %s (ASMDIFF_CPU_MASK=%s)\n",
                cpu_feature_names(cpu_features_masked(), names, sizeof names),
                getenv("ASMDIFF_CPU_MASK"));
    if (report_current_file)
        fprintf(stderr, "  reproduce      : %s./asmdiff fuzz %s %s\n",
                cpu_features_masked() ? "ASMDIFF_CPU_MASK=... " : "", family,
                report_current_file);
    else
        fprintf(stderr, "  reproduce      : ./asmdiff fuzz %s <the crash file libFuzzer names "
                        "below>\n", family);
    fflush(stderr);
    crash();
    abort();
}
