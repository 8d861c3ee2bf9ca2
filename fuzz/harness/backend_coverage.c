/* backend_coverage.c — mode coverage: which instructions of our kernels the inputs reached, and
 * where each one went next (so a consumer sees each conditional branch taken, not taken, or
 * both).  The emulator is the observer: each kernel call runs once inside Unicorn and the
 * vector executor (emu/ucheck.h), whose trace names every executed instruction; then the
 * buffers are put back as they were and the call runs as in the native mode (the checked call,
 * every placement), whose verdicts are the run's.  Kernels this CPU lacks are emulated for the
 * verdict as usual.  At the end one `coverage` record per reached instruction (docs/results.md)
 * carries its link-time address, hits and successors; tools/asmdiff/coverage.py decodes the
 * kernels' code and turns the records into the table, the annotated listing and the HTML page.
 * Libraries do not run: their code is not ours to cover.
 *
 * With ASMDIFF_COVERAGE_PROPERTIES=1 it also checks the family's case properties (properties.h,
 * the guided fuzz mode's features) against what the emulator saw: per case it keeps the set of
 * instructions and branch directions reached, and per property value the intersection of
 * those sets over the cases with that value.  A value whose every case reached an instruction
 * (or direction) implies it: an input of a new value is then an input that reaches it.  At the
 * end one `coverage-property` record per reached instruction or direction that some case of
 * its implementation did not reach (the rest run whenever the kernel runs), with the values
 * that imply it (verify/coverage_properties.py turns them into a table per kernel block). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmdiff-config.h"
#include "backend.h"
#include "outside.h"
#include "properties.h"
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
    uint32_t id; /* in order of first reach: the properties check's item numbers */
    unsigned long long hits;
    uint64_t next[COV_NEXT];
    unsigned long long next_hits[COV_NEXT];
    unsigned long long next_other; /* transfers to a successor beyond COV_NEXT */
};

static struct cov_entry *table;
static size_t table_cap, table_used;
static uint32_t next_id;
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
        table[s].id = next_id++;
        table_used++;
    }
    return &table[s];
}

/* ---- the properties check ---- */

static int first_module(struct dl_phdr_info *info, size_t size, void *data);

/* Items: per entry the instruction (slot 0) and its successors (slot 1 + k). */
#define ITEM_SLOTS (1 + COV_NEXT)
#define PROP_BUCKETS (PROP_IDS * PROP_VALUES)
static int prop_check;
static unsigned prop_dropped; /* bit per property id left out (the control) */

struct itemset {
    uint64_t *bits;
    size_t words;
};
static struct itemset case_items;
/* Per property value, then per implementation ("the kernel ran in the case"): the items every
 * case of it reached, and how many cases. */
static struct itemset implied[PROP_BUCKETS + DRV_MAX_IMPLS];
static unsigned long long bucket_cases[PROP_BUCKETS + DRV_MAX_IMPLS];
static unsigned *item_cases; /* per item: the cases that reached it */
static size_t item_cases_len;
static int case_impl_ran[DRV_MAX_IMPLS];

static void mark(uint32_t id, unsigned slot)
{
    size_t item = (size_t)id * ITEM_SLOTS + slot, w = item / 64;
    if (w >= case_items.words) {
        size_t words = 2 * w + 64;
        case_items.bits = realloc(case_items.bits, words * sizeof(uint64_t));
        if (!case_items.bits) abort();
        memset(case_items.bits + case_items.words, 0,
               (words - case_items.words) * sizeof(uint64_t));
        case_items.words = words;
    }
    case_items.bits[w] |= 1ull << (item % 64);
}

static void intersect(size_t bucket)
{
    struct itemset *s = &implied[bucket];
    if (!bucket_cases[bucket]++) {
        s->bits = malloc(case_items.words * sizeof(uint64_t));
        if (!s->bits) abort();
        memcpy(s->bits, case_items.bits, case_items.words * sizeof(uint64_t));
        s->words = case_items.words;
        return;
    }
    /* items beyond s->words were first reached after the bucket's first case: not in it */
    for (size_t w = 0; w < s->words; w++)
        s->bits[w] &= w < case_items.words ? case_items.bits[w] : 0;
}

static int has(const struct itemset *s, size_t item)
{
    return item / 64 < s->words && (s->bits[item / 64] >> (item % 64) & 1);
}

static void case_done(const void *c)
{
    if (!case_items.words) return;
    size_t items = case_items.words * 64;
    if (items > item_cases_len) {
        item_cases = realloc(item_cases, items * sizeof *item_cases);
        if (!item_cases) abort();
        memset(item_cases + item_cases_len, 0, (items - item_cases_len) * sizeof *item_cases);
        item_cases_len = items;
    }
    for (size_t w = 0; w < case_items.words; w++)
        for (uint64_t b = case_items.bits[w]; b; b &= b - 1)
            item_cases[w * 64 + (size_t)__builtin_ctzll(b)]++;
    struct case_property p[PROP_MAX];
    size_t n = asmdiff_properties.of(c, p, PROP_MAX);
    static unsigned char seen[PROP_BUCKETS];
    memset(seen, 0, sizeof seen);
    for (size_t i = 0; i < n; i++) {
        size_t b = (size_t)p[i].id * PROP_VALUES + p[i].value;
        if (p[i].id >= PROP_IDS || (prop_dropped >> p[i].id & 1) || seen[b]) continue;
        seen[b] = 1;
        intersect(b);
    }
    for (size_t i = 0; i < DRV_MAX_IMPLS; i++)
        if (case_impl_ran[i]) intersect(PROP_BUCKETS + i);
    memset(case_items.bits, 0, case_items.words * sizeof(uint64_t));
    memset(case_impl_ran, 0, sizeof case_impl_ran);
}

static void prop_setup(void)
{
    const char *e = getenv("ASMDIFF_COVERAGE_PROPERTIES");
    prop_check = e && !strcmp(e, "1") && &asmdiff_properties && asmdiff_properties.of &&
                 !outside_impl();
    const char *drop = getenv("ASMDIFF_COVERAGE_PROPERTIES_DROP"); /* "name;name" */
    for (size_t i = 0; prop_check && drop && i < asmdiff_properties.nnames && i < PROP_IDS; i++) {
        const char *name = asmdiff_properties.names[i], *at = drop;
        size_t len = strlen(name);
        while ((at = strstr(at, name)))
            if ((at == drop || at[-1] == ';') && (at[len] == ';' || !at[len])) {
                prop_dropped |= 1u << i;
                break;
            } else {
                at++;
            }
    }
}

static void prop_records(void)
{
    uint64_t bias = 0;
    dl_iterate_phdr(first_module, &bias);
    unsigned long long emitted = 0, unimplied = 0;
    for (size_t i = 0; i < table_cap; i++) {
        const struct cov_entry *e = &table[i];
        if (!e->pc) continue;
        for (unsigned slot = 0; slot < ITEM_SLOTS; slot++) {
            if (slot && !e->next[slot - 1]) break;
            size_t item = (size_t)e->id * ITEM_SLOTS + slot;
            if (has(&implied[PROP_BUCKETS + e->impl], item)) continue; /* runs whenever it ran */
            size_t by[4], nby = 0, total = 0;
            for (size_t b = 0; b < PROP_BUCKETS; b++) {
                if (bucket_cases[b] < 2 || !has(&implied[b], item)) continue;
                total++;
                /* keep the four values with the most cases */
                size_t at = nby < 4 ? nby++ : 4;
                while (at > 0 && bucket_cases[by[at - 1]] < bucket_cases[b]) {
                    if (at < 4) by[at] = by[at - 1];
                    at--;
                }
                if (at < 4) by[at] = b;
            }
            emitted++, unimplied += !total;
            jr_begin("coverage-property");
            jr_str("impl", impl_name(drv_impl_at(e->impl)));
            jr_strf("pc", "0x%llx", (unsigned long long)(e->pc - bias));
            if (slot) jr_strf("next", "0x%llx", (unsigned long long)(e->next[slot - 1] - bias));
            else jr_null("next");
            jr_uint("cases", item < item_cases_len ? item_cases[item] : 0);
            jr_uint("of", bucket_cases[PROP_BUCKETS + e->impl]);
            jr_uint("values", total);
            jr_list_begin("by");
            for (size_t k = 0; k < nby; k++) {
                size_t id = by[k] / PROP_VALUES;
                jr_strf(NULL, "%s=%zu (%llu cases)",
                        id < asmdiff_properties.nnames ? asmdiff_properties.names[id] : "?",
                        by[k] % PROP_VALUES, bucket_cases[by[k]]);
            }
            jr_list_end();
            jr_end();
        }
    }
    fprintf(stderr, "%s coverage: properties: %llu instructions and branch directions some case "
            "of their kernel did not reach, %llu implied by no property value\n",
            drv_family->name, emitted, unimplied);
}

/* Returns the successor's slot (COV_NEXT: beyond them). */
static unsigned note_edge(struct cov_entry *e, uint64_t next)
{
    for (unsigned k = 0; k < COV_NEXT; k++) {
        if (e->next[k] == next || !e->next[k]) {
            e->next[k] = next;
            e->next_hits[k]++;
            return k;
        }
    }
    e->next_other++;
    return COV_NEXT;
}

static void observe(const struct drv_pass *p, const void *fn, const uint64_t *argv,
                    size_t argc)
{
    uint32_t impl = (uint32_t)p->index;
    if (argc > UC_MAX_ARGS) {
        unfinished[impl]++;
        snprintf(unfinished_why[impl], sizeof unfinished_why[impl], "a call with %zu "
                 "arguments: the emulator's observer passes at most %d", argc, UC_MAX_ARGS);
        return;
    }
    /* ucheck copies every writable buffer back: keep what the native call must start from */
    static uint8_t *saved[DRV_MAX_SLOTS];
    static size_t saved_cap[DRV_MAX_SLOTS];
    struct uc_call call = {.fn = fn};
    for (size_t i = 0; i < drv_pass_slots(p); i++) {
        const struct gbuf *g = &p->bufs[i];
        if (!p->use[i].placed) continue;
        if (g->len > saved_cap[i]) {
            free(saved[i]);
            saved[i] = malloc(g->len);
            if (!saved[i]) abort();
            saved_cap[i] = g->len;
        }
        if (g->len) memcpy(saved[i], g->p, g->len);
    }
    drv_uc_call_fill(p, &call, argv, argc);
    static struct uc_result res;
    int rc = ucheck_run(&call, &res);
    for (size_t i = 0; i < drv_pass_slots(p); i++)
        if (p->use[i].placed && p->bufs[i].len) memcpy(p->bufs[i].p, saved[i], p->bufs[i].len);
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
        if (prev) {
            unsigned k = note_edge(prev, pc);
            if (prop_check && k < COV_NEXT) mark(prev->id, 1 + k);
        }
        prev = entry(impl, pc);
        prev->hits++;
        if (prop_check) mark(prev->id, 0);
    }
}

static uint64_t coverage_call(struct drv_pass *p, const void *fn, const uint64_t *argv,
                              size_t argc)
{
    size_t i = p->index;
    /* a check build observes the outside kernel alone: ./asmdiff check asks about it */
    int wanted = !outside_impl() || (p->impl->flags & IMPL_OUTSIDE);
    if (!observed_pass[i]) observed_pass[i] = p->name;
    if (wanted && observed_pass[i] == p->name) {
        observe(p, fn, argv, argc);
        case_impl_ran[i] = 1;
    }
    return backend_native.call(p, fn, argv, argc);
}

static void coverage_check_case(const struct drv_case *k)
{
    memset(observed_pass, 0, sizeof observed_pass);
    drv_check_placements(k);
    if (prop_check) case_done(k->c);
}

static int coverage_setup(const char **why)
{
    if (drv_uc_setup(why)) return -1;
    prop_setup();
    return 0;
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
    if (prop_check) prop_records(); /* before the table is compacted below */
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
#if ARCH_X86_64
    .setup = coverage_setup,
#else
    .setup = drv_uc_setup,
#endif
    .unavailable = drv_kernels_only,
    .emulated = emulated_runs,
#if ARCH_X86_64
    .call = coverage_call,
    .check_case = coverage_check_case,
    .finish = coverage_finish,
#endif
};
