/* backend_coverage.c — mode coverage: which instructions of our kernels the inputs reached, and
 * where each one went next (so a consumer sees each conditional branch taken, not taken, or
 * both).  The emulator is the observer: each kernel call runs once inside Unicorn and the
 * vector executor (emu/ucheck.h), whose trace names every executed instruction; then the
 * buffers are put back as they were and the call runs as in the native mode (the checked call,
 * every placement), whose verdicts are the run's.  Kernels this CPU lacks are emulated for the
 * verdict as usual.  At the end one `coverage` record per reached instruction (docs/results.md)
 * carries its link-time address, hits and successors; tools/asmdiff/coverage.py decodes the
 * kernels' code and turns the records into the table, the annotated listing and the HTML page.
 * Libraries do not run: their code is not ours to cover. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmdiff-config.h"
#include "backend.h"
#include "results.h"
#include "srcline.h"
#include "stats.h"

#if ARCH_X86_64
#include <link.h>

#include "emu/ucheck.h"
#include "emu/ucheck_elf.h"

/* Successors kept per instruction: a conditional branch has two, a ret or an indirect jump
 * may have more (counted apart). */
#define COV_NEXT 4

struct cov_entry {
    uint64_t pc; /* run-time address; 0: empty slot */
    uint32_t impl;
    unsigned long long hits;
    uint64_t next[COV_NEXT];
    unsigned long long next_hits[COV_NEXT];
    unsigned long long next_other; /* transfers to a successor beyond COV_NEXT */
};

static struct cov_entry *table;
static size_t table_cap, table_used;
/* Per implementation: calls observed, calls the observer could not finish, the first reason. */
static unsigned long long observed[DRV_MAX_IMPLS], unfinished[DRV_MAX_IMPLS];
static char unfinished_why[DRV_MAX_IMPLS][200];
/* The pass of each implementation observed in the current case: one per case is enough, the
 * emulated run maps each buffer alone whatever the host placement. */
static const char *observed_pass[DRV_MAX_IMPLS];

static size_t slot_of(uint32_t impl, uint64_t pc)
{
    uint64_t h = (pc ^ (uint64_t)impl << 56) * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 20) & (table_cap - 1);
}

static struct cov_entry *entry(uint32_t impl, uint64_t pc)
{
    if (2 * (table_used + 1) > table_cap) {
        size_t old_cap = table_cap;
        struct cov_entry *old = table;
        table_cap = table_cap ? 2 * table_cap : 4096;
        table = calloc(table_cap, sizeof *table);
        if (!table) abort();
        table_used = 0;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].pc) {
                size_t s = slot_of(old[i].impl, old[i].pc);
                while (table[s].pc) s = (s + 1) & (table_cap - 1);
                table[s] = old[i];
                table_used++;
            }
        free(old);
    }
    size_t s = slot_of(impl, pc);
    while (table[s].pc && (table[s].pc != pc || table[s].impl != impl))
        s = (s + 1) & (table_cap - 1);
    if (!table[s].pc) {
        table[s].pc = pc;
        table[s].impl = impl;
        table_used++;
    }
    return &table[s];
}

static void note_edge(struct cov_entry *e, uint64_t next)
{
    for (int k = 0; k < COV_NEXT; k++) {
        if (e->next[k] == next || !e->next[k]) {
            e->next[k] = next;
            e->next_hits[k]++;
            return;
        }
    }
    e->next_other++;
}

static void observe(const void *fn, const uint64_t *argv, size_t argc)
{
    const struct family *F = drv_family;
    uint32_t impl = (uint32_t)drv.cur_index;
    if (argc > UC_MAX_ARGS) {
        unfinished[impl]++;
        snprintf(unfinished_why[impl], sizeof unfinished_why[impl], "a call with %zu "
                 "arguments: the emulator's observer passes at most %d", argc, UC_MAX_ARGS);
        return;
    }
    /* ucheck copies every writable buffer back: keep what the native call must start from */
    static uint8_t *saved[DRV_MAX_BUFS];
    static size_t saved_cap[DRV_MAX_BUFS];
    struct uc_call call = {.fn = fn};
    for (size_t i = 0; i < F->nbufs; i++) {
        struct gbuf *g = &drv.bufs[i];
        if (!drv.use[i].placed) continue;
        if (g->len > saved_cap[i]) {
            free(saved[i]);
            saved[i] = malloc(g->len);
            if (!saved[i]) abort();
            saved_cap[i] = g->len;
        }
        if (g->len) memcpy(saved[i], g->p, g->len);
    }
    drv_uc_call_fill(&call, argv, argc);
    static struct uc_result res;
    int rc = ucheck_run(&call, &res);
    for (size_t i = 0; i < F->nbufs; i++)
        if (drv.use[i].placed && drv.bufs[i].len) memcpy(drv.bufs[i].p, saved[i], drv.bufs[i].len);
    observed[impl]++;
    if (rc) {
        /* what ran before the stop did run: it is counted; the rest of the call is not */
        unfinished[impl]++;
        if (!unfinished_why[impl][0])
            snprintf(unfinished_why[impl], sizeof unfinished_why[impl], "%s", res.error);
    }
    struct cov_entry *prev = NULL;
    for (size_t i = 0; i < res.trace_len; i++) {
        const struct uc_event *ev = &res.trace[i];
        if (ev->kind != UC_EV_INSN) continue;
        uint64_t pc = (uint64_t)(uintptr_t)fn + (uint64_t)ev->insn;
        if (prev) note_edge(prev, pc);
        prev = entry(impl, pc);
        prev->hits++;
    }
}

static uint64_t coverage_call(const void *fn, const uint64_t *argv, size_t argc)
{
    size_t i = drv.cur_index;
    /* a check build observes the outside kernel alone: ./asmdiff check asks about it */
    int wanted = !outside_impl() || (drv.cur->flags & IMPL_OUTSIDE);
    if (!observed_pass[i]) observed_pass[i] = drv.pass_name;
    if (wanted && observed_pass[i] == drv.pass_name) observe(fn, argv, argc);
    return backend_native.call(fn, argv, argc);
}

static void coverage_check_case(void *c, const void *want)
{
    memset(observed_pass, 0, sizeof observed_pass);
    drv_check_placements(c, want);
}

/* The program's load bias: records carry link-time addresses, which the program file's
 * disassembly shows. */
static int first_module(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(uint64_t *)data = (uint64_t)info->dlpi_addr;
    return 1;
}

static int cmp_entry(const void *a, const void *b)
{
    const struct cov_entry *x = a, *y = b;
    if (x->impl != y->impl) return x->impl < y->impl ? -1 : 1;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static void coverage_finish(void)
{
    uint64_t bias = 0;
    dl_iterate_phdr(first_module, &bias);
    size_t n = 0;
    for (size_t i = 0; i < table_cap; i++)
        if (table[i].pc) table[n++] = table[i];
    qsort(table, n, sizeof *table, cmp_entry);
    char sym[160], where[600];
    for (size_t i = 0; i < n; i++) {
        const struct cov_entry *e = &table[i];
        jr_begin("coverage");
        jr_str("impl", impl_name(drv_impl_at(e->impl)));
        jr_strf("pc", "0x%llx", (unsigned long long)(e->pc - bias));
        jr_str("symbol", elfsym_format(e->pc, sym, sizeof sym));
        struct srcline s;
        if (srcline_lookup((uintptr_t)e->pc, &s) && s.file) {
            snprintf(where, sizeof where, "%s:%d", s.file, s.line);
            jr_str("source", where);
        } else {
            jr_null("source");
        }
        jr_uint("hits", e->hits);
        jr_list_begin("next");
        for (int k = 0; k < COV_NEXT && e->next[k]; k++) {
            jr_list_begin(NULL);
            jr_strf(NULL, "0x%llx", (unsigned long long)(e->next[k] - bias));
            jr_uint(NULL, e->next_hits[k]);
            jr_list_end();
        }
        jr_list_end();
        jr_uint("next_other", e->next_other);
        jr_end();
    }
    unsigned long long total = 0;
    for (size_t i = 0; i < drv_nimpls(); i++) {
        total += observed[i];
        if (unfinished[i]) {
            char m[400];
            snprintf(m, sizeof m, "%s: %llu of %llu observed calls did not finish in the "
                     "emulator (the first: %s): the coverage counts what ran before each stop",
                     impl_name(drv_impl_at(i)), unfinished[i], observed[i], unfinished_why[i]);
            fprintf(stderr, "%s coverage: info: %s\n", drv_family->name, m);
            jr_begin("info");
            jr_str("kind", "coverage-unfinished");
            jr_str("message", m);
            jr_end();
        }
    }
    fprintf(stderr, "%s coverage: %llu kernel calls observed in the emulator, %zu distinct "
            "instructions reached\n", drv_family->name, total, n);
}
#endif

const struct backend backend_coverage = {
    .name = "coverage",
    .setup = drv_uc_setup,
    .unavailable = drv_kernels_only,
    .emulated = emulated_runs,
#if ARCH_X86_64
    .call = coverage_call,
    .check_case = coverage_check_case,
    .finish = coverage_finish,
#endif
};
