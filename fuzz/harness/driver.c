/* driver.c — the family driver's core (driver.h): placement, the loop over implementations,
 * the compare-and-report step and the counts of what ran.  How a call runs and how a case is
 * judged is the current backend's (backend.h, backend_<mode>.c); the outside kernel of a check
 * build is outside.c's.  Linked into both builds of every family (fuzz_<family> and
 * asmdiff-<family>). */
#include "driver.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asmdiff-config.h"
#include "backend.h"
#include "outside.h"
#include "cpu.h"
#include "guard.h"
#include "report.h"
#include "results.h"
#include "stats.h"

#define POISON 0x5c

static const struct family *const F = &asmdiff_family;
const struct family *const drv_family = &asmdiff_family;

/* Process-wide: the mode, and the counts (stats.h). */
struct drv_state drv = {.backend = &backend_native};
struct drv_stats drv_stats;

/* The buffers' mappings, kept between passes (each pass places its buffers in them): the
 * family's buffers, then the pieces' (drv_pass_slots). */
static struct gbuf mappings[DRV_MAX_SLOTS];
/* The pass in progress, for what the family's run calls without one (drv_in, drv_call,
 * drv_expect_*) and for the reports' context.  Between passes, a pass of no implementation:
 * drv_check's for the C reference, or `idle` outside any case.  The backends are handed the
 * pass; only this file reads `now`. */
static struct drv_pass idle = {.bufs = mappings};
static struct drv_pass *now = &idle;
/* What the last input chose for the extra pass (drv_one_input), handed to check_case. */
static struct {
    enum guard_place side;
    size_t offset[DRV_MAX_BUFS];
    int misaligned;
} input_choice;

/* ASMDIFF_STATS=1: time each part of an exec (off by default: clock reads cost) */
static int stats_on = -1;
int drv_timing(void)
{
    if (stats_on < 0) {
        const char *e = getenv("ASMDIFF_STATS");
        stats_on = e && *e == '1';
    }
    return stats_on;
}
static double monotonic_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* The clock of ASMDIFF_STATS, read around every call.  On x86-64 the time-stamp counter,
 * scaled by its rate against CLOCK_MONOTONIC measured over 2 ms at the first read: a
 * clock_gettime here cost 85-140 ns (and ASan intercepts it), rdtsc a third of that, and the
 * reads' own cost lands in the shares they measure.  Not under ASan: the timespec would take a
 * fake stack frame on each read. */
__attribute__((no_sanitize("address"))) double drv_now_ns(void)
{
#if ARCH_X86_64
    static double ns_per_tick;
    if (!ns_per_tick) {
        double t0 = monotonic_ns(), t;
        uint64_t c0 = __builtin_ia32_rdtsc();
        while ((t = monotonic_ns()) - t0 < 2e6) continue;
        uint64_t c1 = __builtin_ia32_rdtsc();
        ns_per_tick = c1 > c0 ? (t - t0) / (double)(c1 - c0) : 1.0;
    }
    return (double)__builtin_ia32_rdtsc() * ns_per_tick;
#else
    return monotonic_ns();
#endif
}

void drv_print_stats(void)
{
    struct drv_stats *s = &drv_stats;
    if (!drv_timing() || !s->execs) return;
    double harness = s->ns_total - s->ns_decode - s->ns_reference - s->ns_kernels - s->ns_libraries;
    double pl = (double)(s->placed[0] + s->placed[1] + s->placed[2]);
    fprintf(stderr,
            "asmdiff stats: %s, %llu execs, %.1f us/exec: reference %.0f%%, kernels %.0f%%, "
            "libraries %.0f%%, decode %.0f%%, harness (placement, copies, checks) %.0f%%\n"
            "asmdiff stats: buffer placements: flush after %.0f%%, flush before %.0f%%, "
            "misaligned %.0f%% (%llu placements)\n",
            F->name, s->execs, s->ns_total / 1e3 / (double)s->execs,
            100 * s->ns_reference / s->ns_total, 100 * s->ns_kernels / s->ns_total,
            100 * s->ns_libraries / s->ns_total, 100 * s->ns_decode / s->ns_total,
            100 * harness / s->ns_total, 100 * (double)s->placed[0] / pl,
            100 * (double)s->placed[1] / pl, 100 * (double)s->placed[2] / pl,
            (unsigned long long)pl);
}

/* ---- the family's tallies (drv_tally) ---- */

#define TALLY_NAMES 4
#define TALLY_VALUES 32 /* the histogram's buckets: 0 .. 31, the last also every larger value */
static struct {
    const char *name;
    unsigned long long cases, sum, max, hist[TALLY_VALUES];
} tallies[TALLY_NAMES];

void drv_tally(const char *name, unsigned long long value)
{
    size_t i = 0;
    while (i < TALLY_NAMES && tallies[i].name && tallies[i].name != name) i++;
    if (i == TALLY_NAMES) return; /* (documented: at most 4 names) */
    tallies[i].name = name;
    tallies[i].cases++;
    tallies[i].sum += value;
    if (value > tallies[i].max) tallies[i].max = value;
    tallies[i].hist[value < TALLY_VALUES ? value : TALLY_VALUES - 1]++;
}

void drv_print_tallies(FILE *human, const char *prefix)
{
    for (size_t i = 0; i < TALLY_NAMES && tallies[i].name; i++) {
        char hist[600] = "";
        size_t used = 0;
        for (size_t v = 0; v < TALLY_VALUES && used < sizeof hist; v++)
            if (tallies[i].hist[v])
                used += (size_t)snprintf(hist + used, sizeof hist - used, "%s%zu%s: %llu",
                                         used ? ", " : "", v, v == TALLY_VALUES - 1 ? "+" : "",
                                         tallies[i].hist[v]);
        double mean = tallies[i].cases ? (double)tallies[i].sum / (double)tallies[i].cases : 0;
        fprintf(human, "%s%s per case: mean %.2f, max %llu over %llu cases (%s)\n", prefix,
                tallies[i].name, mean, tallies[i].max, tallies[i].cases, hist);
        jr_begin("tally");
        jr_str("name", tallies[i].name);
        jr_uint("cases", tallies[i].cases);
        jr_uint("sum", tallies[i].sum);
        jr_uint("max", tallies[i].max);
        jr_num("mean", mean);
        jr_list_begin("histogram"); /* cases per value, from 0; the last bucket: that or more */
        size_t last = TALLY_VALUES;
        while (last && !tallies[i].hist[last - 1]) last--;
        for (size_t v = 0; v < last; v++) jr_uint(NULL, tallies[i].hist[v]);
        jr_list_end();
        jr_end();
    }
}

void drv_print_tallies_at_exit(void)
{
    char prefix[80];
    snprintf(prefix, sizeof prefix, "asmdiff: fuzz_%s: tally: ", F->name);
    drv_print_tallies(stderr, prefix);
}

/* The mode: its backend, once its setup says it can run here. */
int drv_use_backend(const struct backend *b, const char **why)
{
    *why = NULL;
    if (b->setup && b->setup(why)) return -1;
    drv.backend = b;
    return 0;
}

const char *drv_mode(void)
{
    return drv.backend->name;
}

int impl_emulated(const struct impl *im)
{
    return drv.backend->emulated ? drv.backend->emulated(im) : 0;
}

const char *impl_name(const struct impl *im)
{
    return im->label ? im->label() : im->name;
}

static void setup(void);

size_t drv_nimpls(void)
{
    setup();
    return F->nimpls + outside_count();
}

const struct impl *drv_impl_at(size_t i)
{
    setup();
    return i < F->nimpls ? &F->impls[i] : outside_at(i - F->nimpls);
}

/* ASMDIFF_SET_ASIDE="NAME;NAME": implementations not run in this process, by name.  What
 * `./asmdiff check` sets when its fuzz stage stopped at one outside kernel's finding: the
 * stage goes on with the others (a fuzzer stops at its first finding) instead of leaving their
 * rows without a call.  Parsed once; an empty or unset list costs one test per call. */
int drv_benching;

int drv_set_aside(const struct impl *im)
{
    static const char *list;
    static int parsed;
    if (!parsed) {
        list = getenv("ASMDIFF_SET_ASIDE");
        if (list && !*list) list = NULL;
        parsed = 1;
    }
    if (!list) return 0;
    const char *name = impl_name(im);
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ';');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && !memcmp(p, name, n)) return 1;
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

const char *impl_unavailable(const struct impl *im)
{
    const char *why = drv.backend->unavailable ? drv.backend->unavailable(im) : NULL;
    if (why) return why;
    if (drv_set_aside(im))
        return "set aside by the caller (ASMDIFF_SET_ASIDE: check after a finding of its own, the levels test for a kernel emulated here)";
    if (outside_impl() && (im->flags & IMPL_KERNEL) && !(im->flags & IMPL_OUTSIDE) &&
        !drv_benching)
        return "a check build runs the outside kernel, not ours (the default build tests ours)";
    if (impl_emulated(im)) return NULL;
    why = cpu_unavailable_reason(im->needs);
    if (!why && im->unavailable) why = im->unavailable();
    return why;
}

/* ---- reports: the context every finding prints ---- */

static void context(void)
{
    const struct drv_pass *p = now;
    if (p->impl) {
        report_param("implementation", "%s%s", impl_name(p->impl),
                     p->impl->flags & IMPL_LIBRARY ? " (library)" : "");
        if (p->op) report_param("operation", "%s", p->op);
    }
    if (p->name) report_param("placement", "%s", p->name);
    if (p->c && F->params) F->params(p->c);
    for (size_t i = 0; i < drv_pass_slots(p); i++)
        if (p->use[i].placed)
            report_buffer(p->bufs[i].name, p->bufs[i].len, p->bufs[i].p,
                          guard_place_name(p->bufs[i].place), p->bufs[i].offset);
}

void drv_on_abi_violation(const char *who, const char *what)
{
    enum finding kind = abi_last_kind();
    /* leftovers the outside kernel's convention allows: noted once, not reported */
    if (now->impl && (now->impl->flags & IMPL_OUTSIDE) && outside_allows(now->impl, kind, what))
        return;
    /* the call did not complete: what it left in its outputs means nothing */
    if (kind == FINDING_GUARD_PAGE || kind == FINDING_EMULATOR || kind == FINDING_ISA) {
        now->abandoned = 1;
        /* these kinds come only from an emulated call (a native fault is guard.c's) */
        uint64_t pc = emulated_last_pc();
        if (pc) {
            char t[512];
            snprintf(t, sizeof t, "%s: %s", who ? who : "(outside a checked call)", what);
            report_begin(kind, t);
            report_instruction((uintptr_t)pc);
            report_end();
            return;
        }
    }
    report_simple(kind, who, what);
}

static void setup(void)
{
    static int done;
    if (done) return;
    done = 1;
    report_set_context(F->name, context);
    abi_set_fail_handler(drv_on_abi_violation);
    if (F->nbufs > DRV_MAX_BUFS || F->nimpls + 1 > DRV_MAX_IMPLS) {
        fprintf(stderr, "asmdiff: %s declares more buffers or implementations than the driver "
                        "holds\n", F->name);
        exit(99);
    }
    outside_setup();
}

void drv_title(const struct drv_pass *p, char *out, size_t len, const char *what)
{
    snprintf(out, len, "%s%s%s: %s", p->impl ? impl_name(p->impl) : "c-reference",
             p->op ? " " : "", p->op ? p->op : "", what);
}

/* ---- buffers ---- */

static void check_buf(size_t idx)
{
    if (idx >= F->nbufs) {
        fprintf(stderr, "asmdiff: %s uses buffer %zu of %zu\n", F->name, idx, F->nbufs);
        abort();
    }
}

/* Place slot `slot` (a buffer's, or a piece's of buffer idx) as buffer idx is placed in this
 * pass: the same side and offset. */
static void *place_slot(size_t slot, size_t idx, size_t len, const void *orig, const char *name)
{
    struct drv_pass *ps = now;
    uint8_t *p = gbuf_place(&ps->bufs[slot], len, ps->side, ps->offset[idx]);
    ps->bufs[slot].name = name;
    ps->use[slot].placed = 1;
    drv_stats.placed[ps->offset[idx] ? 2 : ps->side == GUARD_TAIL ? 0 : 1]++;
    ps->use[slot].orig = orig;
    return p;
}

static void *place(size_t idx, size_t len, const void *orig)
{
    check_buf(idx);
    return place_slot(idx, idx, len, orig, F->bufs[idx].name);
}

/* Piece k of buffer idx: its slot in this pass (the same one each time the pass places it). */
static void *place_piece(size_t idx, size_t k, size_t len, const void *orig)
{
    static char names[DRV_MAX_PIECES][64];
    struct drv_pass *ps = now;
    check_buf(idx);
    size_t j = 0;
    while (j < ps->npieces && !(ps->piece[j].buf == idx && ps->piece[j].k == k)) j++;
    if (j == ps->npieces) {
        if (j == DRV_MAX_PIECES) {
            fprintf(stderr, "asmdiff: %s places more than %d pieces in one pass\n", F->name,
                    DRV_MAX_PIECES);
            abort();
        }
        ps->piece[j].buf = idx, ps->piece[j].k = k;
        ps->npieces++;
    }
    snprintf(names[j], sizeof names[j], "%s piece %zu", F->bufs[idx].name, k);
    return place_slot(F->nbufs + j, idx, len, orig, names[j]);
}

void *drv_in(size_t idx, const void *src, size_t len)
{
    uint8_t *p = place(idx, len, src);
    guard_copy(p, src, len);
    if (drv.backend->secret && (F->bufs[idx].flags & BUF_SECRET))
        drv.backend->secret(now, p, len);
    return p;
}

void *drv_inout(size_t idx, const void *src, size_t len)
{
    uint8_t *p = place(idx, len, NULL);
    guard_copy(p, src, len);
    if (drv.backend->secret && (F->bufs[idx].flags & BUF_SECRET))
        drv.backend->secret(now, p, len);
    return p;
}

void *drv_out(size_t idx, size_t len)
{
    uint8_t *p = place(idx, len, NULL);
    guard_fill(p, POISON, len);
    return p;
}

void *drv_in_piece(size_t idx, size_t k, const void *src, size_t len)
{
    uint8_t *p = place_piece(idx, k, len, src);
    guard_copy(p, src, len);
    if (drv.backend->secret && (F->bufs[idx].flags & BUF_SECRET))
        drv.backend->secret(now, p, len);
    return p;
}

void *drv_out_piece(size_t idx, size_t k, size_t len)
{
    uint8_t *p = place_piece(idx, k, len, NULL);
    guard_fill(p, POISON, len);
    return p;
}

static struct {
    const char *op, *why;
} unjudged[8];
static size_t nunjudged;

void drv_op(const char *name)
{
    now->op = name;
    now->no_ct_claim = NULL;
}

void drv_no_ct_claim(const char *why)
{
    now->no_ct_claim = why;
}

/* "op1, op2 (why); op3 (why)": operations grouped by their reason. */
const char *drv_ct_unjudged(void)
{
    static char out[700];
    out[0] = 0;
    for (size_t i = 0; i < nunjudged; i++) {
        size_t j = 0;
        while (j < i && unjudged[j].why != unjudged[i].why) j++;
        if (j < i) continue; /* listed with its group */
        for (size_t k = i; k < nunjudged; k++)
            if (unjudged[k].why == unjudged[i].why)
                snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s",
                         k == i ? (*out ? "; " : "") : ", ", unjudged[k].op);
        snprintf(out + strlen(out), sizeof out - strlen(out), " (%s)", unjudged[i].why);
    }
    return out;
}

/* A call the constant-time modes do not judge: noted once per operation for the summary. */
void drv_note_unjudged(const struct drv_pass *p)
{
    const char *op = p->op ? p->op : "a call";
    for (size_t i = 0; i < nunjudged; i++)
        if (!strcmp(unjudged[i].op, op) && unjudged[i].why == p->no_ct_claim) return;
    if (nunjudged < sizeof unjudged / sizeof unjudged[0])
        unjudged[nunjudged].op = op, unjudged[nunjudged++].why = p->no_ct_claim;
}

/* The reports of drv_after_call and drv_expect_equal, out of line: their message buffers would
 * otherwise make ASan give the hot functions a fake stack frame on every call. */
__attribute__((noinline, cold)) static void report_canary(const struct drv_pass *p, size_t i)
{
    char what[256], t[400];
    long where = 0;
    gbuf_check_canary(&p->bufs[i], &where);
    snprintf(what, sizeof what, "wrote outside %s: byte %ld relative to its start",
             p->bufs[i].name, where);
    drv_title(p, t, sizeof t, what);
    report_begin(FINDING_CANARY, t);
    report_location(p->bufs[i].name, where);
    report_end();
}

__attribute__((noinline, cold)) static void report_input_modified(const struct drv_pass *p,
                                                                size_t i)
{
    char what[256], t[400];
    const struct gbuf *b = &p->bufs[i];
    snprintf(what, sizeof what, "modified its input %s", p->bufs[i].name);
    drv_title(p, t, sizeof t, what);
    report_begin(FINDING_INPUT_MODIFIED, t);
    report_diff("original", p->use[i].orig, impl_name(p->impl), b->p, b->len);
    report_end();
}

/* Canaries next to every placed buffer, and the inputs that must not change. */
void drv_after_call(const struct drv_pass *p)
{
    for (size_t i = 0; i < drv_pass_slots(p); i++) {
        if (!p->use[i].placed) continue;
        const struct gbuf *b = &p->bufs[i];
        if (!gbuf_canary_intact(b)) report_canary(p, i);
        if (p->use[i].orig && !guard_equal(b->p, p->use[i].orig, b->len))
            report_input_modified(p, i);
    }
}

uint64_t drv_call(const void *fn, const uint64_t *argv, size_t argc)
{
    if (now->abandoned) return 0; /* an earlier call of this pass faulted */
    return drv.backend->call(now, fn, argv, argc);
}

#if ARCH_X86_64
/* The Win64 call in progress (the Unicorn modes map it as a region of its own), or NULL. */
static struct abi_win64_call win64_call;
const struct abi_win64_call *drv_win64_now;

uint64_t drv_call_win64(const void *fn, const uint64_t *argv, size_t argc)
{
    if (now->abandoned) return 0;
    if (argc > ABI_WIN64_MAX_ARGS) {
        char w[120];
        snprintf(w, sizeof w, "a Win64 call with %zu arguments (at most %d)", argc,
                 ABI_WIN64_MAX_ARGS);
        report_simple(FINDING_ABI, impl_name(now->impl), w);
        now->abandoned = 1;
        return 0;
    }
    uint64_t a[ABI_MAX_ARGS];
    a[0] = (uint64_t)(uintptr_t)&win64_call;
    memcpy(a + 1, argv, argc * sizeof *argv);
    abi_win64_arm(&win64_call, fn, argc);
    drv_win64_now = &win64_call;
    uint64_t r = drv.backend->call(now, (const void *)abi_win64_bridge, a, argc + 1);
    drv_win64_now = NULL;
    abi_win64_done();
    if (now->abandoned) return r;
    const char *what = abi_win64_check(&win64_call);
    if (what) report_simple(FINDING_ABI, impl_name(now->impl), what);
    return r;
}
#endif

/* ---- compare and report ---- */

__attribute__((noinline, cold)) static void report_mismatch(const char *what, const void *want,
                                                          const void *got, size_t n)
{
    const struct impl *cur = now->impl;
    char msg[200], t[400];
    snprintf(msg, sizeof msg, "%s differs from the C reference%s", what,
             cur && (cur->flags & IMPL_LIBRARY) ? " (the library disagrees)" : "");
    drv_title(now, t, sizeof t, msg);
    report_begin(FINDING_MISMATCH, t);
    report_diff("c-reference", want, cur ? impl_name(cur) : "?", got, n);
    report_end();
}

void drv_expect_equal(const char *what, const void *want, const void *got, size_t n)
{
    if (now->abandoned || !n || guard_equal(want, got, n)) return;
    report_mismatch(what, want, got, n);
}

void drv_expect_word(const char *what, uint64_t want, uint64_t got)
{
    if (now->abandoned || want == got) return;
    char msg[200], t[400];
    snprintf(msg, sizeof msg, "%s differs from the C reference", what);
    drv_title(now, t, sizeof t, msg);
    report_begin(FINDING_MISMATCH, t);
    report_param("expected", "0x%llx (c-reference)", (unsigned long long)want);
    report_param("actual", "0x%llx (%s)", (unsigned long long)got,
                 now->impl ? impl_name(now->impl) : "?");
    report_end();
}

void drv_expect_true(int ok, const char *what)
{
    if (now->abandoned || ok) return;
    char t[400];
    drv_title(now, t, sizeof t, what);
    report_begin(FINDING_MISMATCH, t);
    report_end();
}

int drv_reference_agrees(const char *where, const char *what, const void *want, const void *got,
                         size_t n)
{
    if (!memcmp(want, got, n)) return 1;
    fprintf(stderr, "%s: the C reference gives the wrong %s\n", where, what);
    drv_stats.vector_failures++;
    return 0;
}

void drv_vector_errors(int n)
{
    if (n > 0) drv_stats.vector_failures += (unsigned long long)n;
}

/* ---- the loop ---- */

int drv_takes(size_t i, const void *c, int count_skip)
{
    const struct impl *im = drv_impl_at(i);
    if (im->flags & IMPL_REFERENCE) return 0;
    if (!outside_accepts(im, c)) { /* outside its convention's precondition */
        if (count_skip) drv_stats.refused[i]++;
        return 0;
    }
    if (impl_unavailable(im)) {
        if (count_skip) drv_stats.skipped[i]++;
        return 0;
    }
    return 1;
}

void drv_pass(size_t i, const void *c, const void *want, enum guard_place side,
              const size_t *offsets, const char *name)
{
    struct drv_pass p = {.impl = drv_impl_at(i), .index = i, .c = c, .side = side,
                         .name = name, .bufs = mappings};
    if (offsets) memcpy(p.offset, offsets, sizeof p.offset);
    struct drv_pass *outer = now;
    now = &p;
    F->run(p.impl, c, want);
    now = outer;
}

void drv_check(const void *c)
{
    setup();
    /* the C reference's pass: no implementation, the case */
    struct drv_pass ref = {.c = c, .bufs = mappings};
    struct drv_pass *outer = now;
    now = &ref;
    double t0 = drv_timing() ? drv_now_ns() : 0;
    const void *want = F->expect(c);
    if (drv_timing()) drv_stats.ns_reference += drv_now_ns() - t0;
    drv_stats.cases++;
    struct drv_case k = {.c = (void *)c, .want = want, .input_side = input_choice.side,
                         .input_offset = input_choice.misaligned ? input_choice.offset : NULL};
    drv.backend->check_case(&k);
    now = outer;
    input_choice.misaligned = 0;
}

int drv_one_input(const uint8_t *data, size_t size)
{
    struct input in;
    setup();
    report_set_input(data, size);
    input_init(&in, data, size);
    /* placement first: the rest of the input cannot shift it */
    input_choice.side = input_bool(&in) ? GUARD_HEAD : GUARD_TAIL;
    input_choice.misaligned = 0;
    for (size_t i = 0; i < F->nbufs; i++) {
        size_t g = F->bufs[i].granule ? F->bufs[i].granule : 1;
        input_choice.offset[i] = 0;
        if (g < 64 && input_pick(&in, 2) == 0) {
            input_choice.offset[i] = g * (size_t)input_range(&in, 1, 63 / g);
            input_choice.misaligned = 1;
        }
    }
    double t0 = drv_timing() ? drv_now_ns() : 0;
    void *c = F->decode(&in);
    if (drv_timing()) drv_stats.ns_decode += drv_now_ns() - t0;
    drv_check(c);
    if (drv_timing()) {
        drv_stats.ns_total += drv_now_ns() - t0;
        /* libFuzzer may leave with _Exit: report as it goes, at every power of two */
        if (++drv_stats.execs >= 256 && !(drv_stats.execs & (drv_stats.execs - 1)))
            drv_print_stats();
    }
    return 0;
}
