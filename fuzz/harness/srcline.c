/* srcline.c — see srcline.h. */
#include "srcline.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "asmdiff-config.h"

#if ASMDIFF_HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#endif

int srcline_available(void)
{
    return ASMDIFF_HAVE_LIBDW;
}

#if ASMDIFF_HAVE_LIBDW

/* Lexical clean-up of an absolute path: "a/./b" -> "a/b", "a/x/../b" -> "a/b". */
static void normalize(char *path)
{
    char *out = path;
    const char *p = path;
    while (*p) {
        while (*p == '/') p++;
        const char *end = strchr(p, '/');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == 0) break;
        if (n == 1 && p[0] == '.') {
            /* nothing */
        } else if (n == 2 && p[0] == '.' && p[1] == '.') {
            while (out > path && *--out != '/') {}
        } else {
            *out++ = '/';
            memmove(out, p, n);
            out += n;
        }
        p += n;
    }
    if (out == path) *out++ = '/';
    *out = 0;
}

/* The source root as the files' paths will be compared with it: resolved like them. */
static const char *source_root(void)
{
    static char root[PATH_MAX];
    if (!root[0] && !realpath(ASMDIFF_SOURCE_ROOT, root)) {
        snprintf(root, sizeof root, "%s", ASMDIFF_SOURCE_ROOT);
        normalize(root);
    }
    return root;
}

/* The file a line row names, absolute (relative names are relative to the compilation's
 * directory), then relative to the source root when it is under it. */
static const char *display_path(const char *name, const char *comp_dir)
{
    static char joined[PATH_MAX], resolved[PATH_MAX];
    if (name[0] == '/' || !comp_dir) snprintf(joined, sizeof joined, "%s", name);
    else snprintf(joined, sizeof joined, "%s/%s", comp_dir, name);
    const char *path = joined;
    if (realpath(joined, resolved)) path = resolved;
    else if (joined[0] == '/') normalize(joined);
    const char *root = source_root();
    size_t n = strlen(root);
    if (n > 1 && !strncmp(path, root, n) && path[n] == '/') return path + n + 1;
    return path;
}

static Dwfl *session(void)
{
    static Dwfl *dwfl;
    static int tried;
    static char *debuginfo_path;
    static const Dwfl_Callbacks callbacks = {
        .find_elf = dwfl_linux_proc_find_elf,
        .find_debuginfo = dwfl_standard_find_debuginfo,
        .debuginfo_path = &debuginfo_path,
    };
    if (tried) return dwfl;
    tried = 1;
    dwfl = dwfl_begin(&callbacks);
    if (!dwfl) return NULL;
    if (dwfl_linux_proc_report(dwfl, getpid()) != 0 || dwfl_report_end(dwfl, NULL, NULL) != 0) {
        dwfl_end(dwfl);
        dwfl = NULL;
    }
    return dwfl;
}

/* The line when the module's .debug_aranges does not cover pc: clang writes that table for
 * assembly units only, and libdw before 0.191 looks nowhere else.  So every unit is asked
 * whether its ranges hold pc. */
static const char *line_from_units(Dwfl_Module *m, uintptr_t pc, int *line, const char **comp_dir)
{
    Dwarf_Addr bias;
    for (Dwarf_Die *cu = NULL; (cu = dwfl_module_nextcu(m, cu, &bias));) {
        if (dwarf_haspc(cu, (Dwarf_Addr)pc - bias) <= 0) continue;
        Dwarf_Line *row = dwarf_getsrc_die(cu, (Dwarf_Addr)pc - bias);
        if (!row || dwarf_lineno(row, line) != 0) return NULL;
        Dwarf_Attribute attr;
        *comp_dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
        return dwarf_linesrc(row, NULL, NULL);
    }
    return NULL;
}

static int lookup(uintptr_t pc, struct srcline *out)
{
    memset(out, 0, sizeof *out);
    Dwfl *d = session();
    Dwfl_Module *m = d ? dwfl_addrmodule(d, (Dwarf_Addr)pc) : NULL;
    if (!m) return 0;
    GElf_Off off = 0;
    GElf_Sym sym;
    const char *name = dwfl_module_addrinfo(m, (GElf_Addr)pc, &off, &sym, NULL, NULL, NULL);
    if (name && *name) {
        /* a check build renames each outside kernel's entry point asmdiff_slot<i>_<name> in
         * its own object (verify/outside/rename_syms.py): the author's name is the one to show */
        if (!strncmp(name, "asmdiff_slot", 12)) {
            const char *p = name + 12;
            while (*p >= '0' && *p <= '9') p++;
            if (p > name + 12 && *p == '_' && p[1]) name = p + 1;
        }
        out->symbol = name;
        out->sym_offset = (uintptr_t)off;
    }
    Dwfl_Line *row = dwfl_module_getsrc(m, (Dwarf_Addr)pc);
    int line = 0;
    const char *file = NULL, *comp_dir = NULL;
    if (row) {
        file = dwfl_lineinfo(row, NULL, &line, NULL, NULL, NULL);
        comp_dir = dwfl_line_comp_dir(row);
    } else {
        file = line_from_units(m, pc, &line, &comp_dir);
    }
    if (file && line > 0) {
        out->file = display_path(file, comp_dir);
        out->line = line;
    }
    return out->symbol || out->file;
}

/* The lookup runs on a stack of its own.  A report of a guard-page fault is made in the signal
 * handler, on whatever stack that runs: the alternate signal stack, which ASan makes small
 * (a few pages), where libdw's reading of a line table with ASan's malloc overflows it.  Static,
 * so it costs nothing until a report touches it. */
static struct {
    uintptr_t pc;
    struct srcline *out;
    int found;
} pending;
static ucontext_t caller, on_own_stack;
static char own_stack[1024 * 1024] __attribute__((aligned(64)));

static void lookup_pending(void)
{
    pending.found = lookup(pending.pc, pending.out);
}

int srcline_lookup(uintptr_t pc, struct srcline *out)
{
    static int busy;
    if (busy) return lookup(pc, out); /* not expected: a fault inside a lookup ends the run */
    busy = 1;
    pending.pc = pc, pending.out = out, pending.found = 0;
    if (getcontext(&on_own_stack) == 0) {
        on_own_stack.uc_stack.ss_sp = own_stack;
        on_own_stack.uc_stack.ss_size = sizeof own_stack;
        on_own_stack.uc_link = &caller;
        makecontext(&on_own_stack, lookup_pending, 0);
        if (swapcontext(&caller, &on_own_stack) != 0) lookup_pending();
    } else {
        lookup_pending();
    }
    busy = 0;
    return pending.found;
}

#else

int srcline_lookup(uintptr_t pc, struct srcline *out)
{
    (void)pc;
    memset(out, 0, sizeof *out);
    return 0;
}

#endif

void srcline_format(uintptr_t pc, const struct srcline *s, char *buf, size_t len)
{
    int n;
    if (s->symbol) n = snprintf(buf, len, "%s+0x%lx", s->symbol, (unsigned long)s->sym_offset);
    else n = snprintf(buf, len, "%#lx", (unsigned long)pc);
    if (n < 0 || (size_t)n >= len) return;
    if (s->file)
        snprintf(buf + n, len - (size_t)n, " (%s:%d)", s->file, s->line);
    else
        snprintf(buf + n, len - (size_t)n, " (%ssource line unknown)",
                 s->symbol ? "" : "no symbol; ");
}
