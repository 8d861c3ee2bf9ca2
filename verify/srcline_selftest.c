/* srcline_selftest.c — an instruction's address resolves to its symbol+offset and to its
 * exact source line, and code without line information resolves to no line rather than a
 * wrong one.
 *
 *   known:   srcline_known+0x3 (verify/srcline_selftest_x86_64.S) names the symbol, the offset,
 *            the file relative to the source root, and the line of the marker comment
 *            "SRCLINE-MARK known+3" in that file; the report's human form is checked whole.
 *   local:   srcline_local+0x1, a symbol that is not global, likewise ("SRCLINE-MARK local+1").
 *   noline:  srcline_noline+0x1 (verify/srcline_selftest_noline_x86_64.S, built with -g0): the
 *            symbol, and no file, no line.
 *   c code:  main's address resolves to this file.
 *
 * `--wrong-line` expects every line one below the truth: meson runs it as a test that must
 * fail, the proof that a wrong line is caught.  Without libdw the build knows no lines: exit 77.
 * Ends with "N passed, M failed"; exit 0 only when all pass. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmdiff-config.h"
#include "srcline.h"

void srcline_known(void);
void srcline_noline(void);
extern void (*const srcline_local_addr)(void);

static int passed, failed, wrong_line;

static void check(int ok, const char *what)
{
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (ok) passed++;
    else failed++;
}

/* The line of the marker in the file (relative to the source root), or 0. */
static int marker_line(const char *file, const char *marker)
{
    char path[4096], text[512];
    snprintf(path, sizeof path, "%s/%s", ASMDIFF_SOURCE_ROOT, file);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "srcline_selftest: cannot read %s\n", path);
        exit(2);
    }
    int n = 0, found = 0;
    while (fgets(text, sizeof text, f)) {
        n++;
        if (strstr(text, marker)) {
            found = n;
            break;
        }
    }
    fclose(f);
    if (!found) {
        fprintf(stderr, "srcline_selftest: no \"%s\" in %s\n", marker, path);
        exit(2);
    }
    return found + wrong_line;
}

static void expect(const char *name, uintptr_t pc, const char *symbol, uintptr_t offset,
                   const char *file, const char *marker)
{
    struct srcline s;
    char what[600], want[600], got[600];
    int found = srcline_lookup(pc, &s);
    snprintf(what, sizeof what, "%s: a symbol or line is found", name);
    check(found, what);
    snprintf(what, sizeof what, "%s: symbol %s+0x%lx (got %s+0x%lx)", name, symbol,
             (unsigned long)offset, s.symbol ? s.symbol : "(none)", (unsigned long)s.sym_offset);
    check(s.symbol && !strcmp(s.symbol, symbol) && s.sym_offset == offset, what);
    if (!file) {
        snprintf(what, sizeof what, "%s: no source line (got %s:%d)", name,
                 s.file ? s.file : "(none)", s.line);
        check(!s.file && s.line == 0, what);
        srcline_format(pc, &s, got, sizeof got);
        snprintf(want, sizeof want, "%s+0x%lx (source line unknown)", symbol,
                 (unsigned long)offset);
    } else {
        int line = marker ? marker_line(file, marker) : 0;
        snprintf(what, sizeof what, "%s: file %s (got %s)", name, file, s.file ? s.file : "(none)");
        check(s.file && !strcmp(s.file, file), what);
        if (!marker) return;
        snprintf(what, sizeof what, "%s: line %d (got %d)", name, line, s.line);
        check(s.line == line, what);
        srcline_format(pc, &s, got, sizeof got);
        snprintf(want, sizeof want, "%s+0x%lx (%s:%d)", symbol, (unsigned long)offset, file, line);
    }
    snprintf(what, sizeof what, "%s: printed \"%s\" (got \"%s\")", name, want, got);
    check(!strcmp(want, got), what);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--wrong-line")) wrong_line = 1;
    else if (argc > 1) {
        fprintf(stderr, "usage: srcline_selftest [--wrong-line]\n");
        return 2;
    }
    if (!srcline_available()) {
        printf("skip: built without libdw (elfutils): no source lines to check\n");
        return 77;
    }
    expect("known", (uintptr_t)srcline_known + 3, "srcline_known", 3,
           "verify/srcline_selftest_x86_64.S", "SRCLINE-MARK known+3");
    expect("local", (uintptr_t)srcline_local_addr + 1, "srcline_local", 1,
           "verify/srcline_selftest_x86_64.S", "SRCLINE-MARK local+1");
    expect("noline", (uintptr_t)srcline_noline + 1, "srcline_noline", 1, NULL, NULL);
    expect("c code", (uintptr_t)main, "main", 0, "verify/srcline_selftest.c", NULL);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
