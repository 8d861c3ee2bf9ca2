/* driver.c — the family driver (driver.h): placement, the loop over implementations, the
 * checked call with its after-call checks, the compare-and-report step, and the counts of what
 * ran.  Linked into both builds of every family (fuzz_<family> and asmdiff-<family>). */
#include "driver.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asmdiff-config.h"
#include "cpu.h"
#include "guard.h"
#include "report.h"
#include "stats.h"

#if ASMDIFF_HAVE_VALGRIND_H
#include <valgrind/memcheck.h>
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED(p, n)
#define DECLASSIFY(p, n) VALGRIND_MAKE_MEM_DEFINED(p, n)
#else
#define SECRET(p, n) ((void)(p), (void)(n))
#define DECLASSIFY(p, n) ((void)(p), (void)(n))
#endif

#define MAX_BUFS 8
#define MAX_IMPLS 64
#define POISON 0x5c

static const struct family *const F = &asmdiff_family;

/* ---- the state of the current check ---- */

static struct gbuf bufs[MAX_BUFS];
static struct {
    int placed;       /* placed for the current call sequence */
    const void *orig; /* what an input held; NULL for outputs and in/out buffers */
} use[MAX_BUFS];

/* The placement of the current pass: all buffers on one side, each at its offset. */
static enum guard_place pass_side;
static size_t pass_offset[MAX_BUFS];
/* What the input chose: a side and a misalignment per buffer for the extra pass. */
static enum guard_place input_side;
static size_t input_offset[MAX_BUFS];
static int input_misaligned;

static const struct impl *cur;
static const char *cur_op;
static const void *cur_case;
static const char *pass_name;

struct drv_stats drv_stats;

/* ASMDIFF_STATS=1: time each part of an exec (off by default: clock reads cost) */
static int stats_on = -1;
static int stats(void)
{
    if (stats_on < 0) {
        const char *e = getenv("ASMDIFF_STATS");
        stats_on = e && *e == '1';
    }
    return stats_on;
}
static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

void drv_print_stats(void)
{
    struct drv_stats *s = &drv_stats;
    if (!stats() || !s->execs) return;
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

/* Constant-time mode (under Valgrind): secret buffers undefined during each kernel call. */
static int ct_mode;

void drv_set_ct(int on)
{
    ct_mode = on;
}

/* The emulator (emu/emu_call.c; its stub, whose emu_available() is 0, in builds
 * without Unicorn).  Every x86-64 build links one of the two; the Unicorn modes' engine
 * (ucheck.h) comes with it. */
#if ARCH_X86_64
#include "emu/emu_call.h"
#include "emu/ucheck.h"
#include "emu/ucheck_elf.h"
_Static_assert(EMU_MAX_ARGS >= ABI_MAX_ARGS, "the emulator passes every argument a checked call has");
#endif

/* The Unicorn modes (driver.h): every kernel call inside ucheck_run. */
static enum drv_uc_mode uc_mode;

/* A kernel this CPU cannot run (or that the mask hides) runs in the emulator instead, when it
 * is linked in and ASMDIFF_EMULATE is not 0. */
int impl_emulated(const struct impl *im)
{
#if ARCH_X86_64
    if (uc_mode == DRV_UC_BOUNDS || uc_mode == DRV_UC_TRACE)
        return (im->flags & IMPL_KERNEL) && !(im->unavailable && im->unavailable());
    static int allowed = -1;
    if (allowed < 0) {
        const char *e = getenv("ASMDIFF_EMULATE");
        allowed = !(e && !strcmp(e, "0")) && emu_available();
        if (allowed) abi_set_emulator(emu_call, emu_stack, 0xe5);
    }
    return allowed && (im->flags & IMPL_KERNEL) && cpu_unavailable_reason(im->needs) &&
           !(im->unavailable && im->unavailable());
#else
    (void)im;
    return 0;
#endif
}

const char *impl_name(const struct impl *im)
{
    return im->label ? im->label() : im->name;
}

/* ---- the outside kernel of a check build (driver.h) ---- */

static void setup(void);
static void on_abi_violation(const char *who, const char *what);
static struct impl outside;             /* made in outside_setup; .name NULL when none */
static const struct convention *outside_conv;
static char outside_desc[1024], outside_missing[256], outside_info[256];

static void outside_setup(void)
{
    const struct outside_kernel *k = &asmdiff_outside;
    if (!k) return; /* an ordinary build: the weak symbol is undefined */
    for (size_t i = 0; i < F->nconventions; i++)
        if (!strcmp(F->conventions[i].name, k->convention)) outside_conv = &F->conventions[i];
    if (!outside_conv) {
        fprintf(stderr, "asmdiff: %s accepts no convention '%s' (it accepts:", F->name,
                k->convention);
        for (size_t i = 0; i < F->nconventions; i++)
            fprintf(stderr, " %s", F->conventions[i].name);
        fprintf(stderr, ")\n");
        exit(2);
    }
    const struct convention *cv = outside_conv;
    /* the needs as a mask string ("-sse2,-avx2"): cpu.h's one parser of feature names */
    uint64_t needs = 0;
    if (*k->needs) {
        char mask[256] = "", err[200];
        for (const char *p = k->needs; *p;) {
            size_t n = strcspn(p, ", ");
            if (n) snprintf(mask + strlen(mask), sizeof mask - strlen(mask), "%s-%.*s",
                            *mask ? "," : "", (int)n, p);
            p += n + (p[n] != 0);
        }
        if (cpu_parse_mask(mask, &needs, err, sizeof err)) {
            fprintf(stderr, "asmdiff: outside kernel needs: %s\n", err);
            exit(2);
        }
    }
    int op = 0;
    if (*k->op) {
        op = -1;
        for (size_t i = 0; i < cv->nops; i++)
            if (!strcmp(cv->ops[i], k->op)) op = (int)i;
        if (op < 0) {
            fprintf(stderr, "asmdiff: %s has no operation '%s' in the %s convention\n", F->name,
                    k->op, cv->name);
            exit(2);
        }
    } else if (cv->nops > 1 && cv->identify) {
        if (cpu_unavailable_reason(needs)) op = 0; /* cannot run it here: the summary skips */
        else if ((op = cv->identify(k->fn)) < 0) {
            /* wrong on the known answer: the operation its name says, when it says one, so
             * the checks show how it differs */
            for (size_t i = 0; i < cv->nops; i++)
                if (strstr(k->symbol, cv->ops[i])) op = op == -1 ? (int)i : -2;
            if (op < 0) op = -1;
        }
        if (op < 0) {
            /* not a finding of a check yet: the command names no operation it could compare */
            fprintf(stderr, "asmdiff: %s computes none of the %s operations on the first known "
                            "answer; name the one it is with --op to see how it differs\n",
                    k->symbol, F->name);
            printf("%s: FAIL: %s computes none of the operations (", F->name, k->symbol);
            for (size_t i = 0; i < cv->nops; i++) printf("%s%s", i ? ", " : "", cv->ops[i]);
            printf(") on the first known answer\n");
            exit(1);
        }
    }
    for (size_t i = 0; i < cv->nops; i++)
        if ((int)i != op)
            snprintf(outside_missing + strlen(outside_missing),
                     sizeof outside_missing - strlen(outside_missing), "%s%s",
                     *outside_missing ? ", " : "", cv->ops[i]);
    snprintf(outside_desc, sizeof outside_desc, "outside kernel from %s, %s convention; covers: %s;"
             " not covered: %s", k->source, cv->name, cv->nops ? cv->ops[op] : "all",
             *outside_missing ? outside_missing : "none");
    outside.name = k->symbol;
    outside.needs = needs;
    /* always the clean call: what the convention allows is then information, not silence */
    outside.flags = IMPL_KERNEL | IMPL_OUTSIDE | IMPL_CLEAN;
    outside.ops = cv->make_ops(k->fn, (size_t)op);
}

static void probe_quiet(const char *who, const char *what)
{
    (void)who, (void)what;
}

uint64_t drv_probe_call(const void *fn, const uint64_t *argv, size_t argc)
{
    abi_set_fail_handler(probe_quiet);
    uint64_t r = abi_call("probe", fn, argv, argc);
    abi_set_fail_handler(on_abi_violation);
    return r;
}

static const char *outside_describe(void)
{
    return outside_desc;
}

size_t drv_nimpls(void)
{
    setup();
    return F->nimpls + (outside.name != NULL);
}

const struct impl *drv_impl_at(size_t i)
{
    setup();
    return i < F->nimpls ? &F->impls[i] : &outside;
}

const struct convention *drv_outside_convention(void)
{
    return outside_conv;
}

const char *drv_outside_info(void)
{
    return outside_info;
}

const char *drv_outside_uncovered(void)
{
    return outside_missing;
}

const char *impl_unavailable(const struct impl *im)
{
    if (uc_mode && !(im->flags & IMPL_KERNEL))
        return "a library (the emulator modes run our kernels)";
    if (outside.name && (im->flags & IMPL_KERNEL) && !(im->flags & IMPL_OUTSIDE))
        return "a check build runs the outside kernel, not ours (the default build tests ours)";
    if (impl_emulated(im)) return NULL;
    const char *why = cpu_unavailable_reason(im->needs);
    if (!why && im->unavailable) why = im->unavailable();
    return why;
}

const struct impl *drv_impl(void)
{
    return cur;
}

/* ---- reports: the context every finding prints ---- */

static void context(void)
{
    if (cur) {
        report_param("implementation", "%s%s", impl_name(cur),
                     cur->flags & IMPL_LIBRARY ? " (library)" : "");
        if (cur_op) report_param("operation", "%s", cur_op);
    }
    if (pass_name) report_param("placement", "%s", pass_name);
    if (cur_case && F->params) F->params(cur_case);
    for (size_t i = 0; i < F->nbufs; i++)
        if (use[i].placed)
            report_param("buffer", "%-12s %6zu bytes at %p, %s, offset %zu", F->bufs[i].name,
                         bufs[i].len, (void *)bufs[i].p, guard_place_name(bufs[i].place),
                         bufs[i].offset);
}

static void on_abi_violation(const char *who, const char *what)
{
    const char *kind = abi_last_kind();
    if (cur && (cur->flags & IMPL_OUTSIDE)) {
        /* leftovers the outside kernel's convention allows: noted once, not reported */
        unsigned need = !strcmp(kind, "residue") ? CONV_CLEAN_VECTORS
                        : !strcmp(kind, "stack") ? CONV_CLEAN_STACK
                                                 : 0;
        if (need && !(outside_conv->clean & need)) {
            if (!*outside_info)
                snprintf(outside_info, sizeof outside_info, "%s after return (allowed by the %s "
                         "convention: %s)", what, outside_conv->name, outside_conv->leftovers);
            return;
        }
    }
    enum finding k = !strcmp(kind, "residue")      ? FINDING_RESIDUE
                     : !strcmp(kind, "stack")      ? FINDING_STACK
                     : !strcmp(kind, "guard-page") ? FINDING_GUARD_PAGE
                     : !strcmp(kind, "emulator")   ? FINDING_EMULATOR
                                                   : FINDING_ABI;
    report_simple(k, who, what);
}

static void setup(void)
{
    static int done;
    if (done) return;
    done = 1;
    report_set_context(F->name, context);
    abi_set_fail_handler(on_abi_violation);
    if (F->nbufs > MAX_BUFS || F->nimpls + 1 > MAX_IMPLS) {
        fprintf(stderr, "asmdiff: %s declares more buffers or implementations than the driver "
                        "holds\n", F->name);
        exit(99);
    }
    outside_setup();
    if (outside.name) outside.describe = outside_describe;
}

static void title(char *out, size_t len, const char *what)
{
    snprintf(out, len, "%s%s%s: %s", cur ? impl_name(cur) : "c-reference", cur_op ? " " : "",
             cur_op ? cur_op : "", what);
}

/* ---- buffers ---- */

static void *place(size_t idx, size_t len, const void *orig)
{
    if (idx >= F->nbufs) {
        fprintf(stderr, "asmdiff: %s uses buffer %zu of %zu\n", F->name, idx, F->nbufs);
        abort();
    }
    uint8_t *p = gbuf_place(&bufs[idx], len, pass_side, pass_offset[idx]);
    bufs[idx].name = F->bufs[idx].name;
    use[idx].placed = 1;
    drv_stats.placed[pass_offset[idx] ? 2 : pass_side == GUARD_TAIL ? 0 : 1]++;
    use[idx].orig = orig;
    return p;
}

void *drv_in(size_t idx, const void *src, size_t len)
{
    void *p = place(idx, len, src);
    if (len) memcpy(p, src, len);
    if (ct_mode && (F->bufs[idx].flags & BUF_SECRET)) SECRET(p, len);
    return p;
}

void *drv_inout(size_t idx, const void *src, size_t len)
{
    void *p = place(idx, len, NULL);
    if (len) memcpy(p, src, len);
    if (ct_mode && (F->bufs[idx].flags & BUF_SECRET)) SECRET(p, len);
    return p;
}

void *drv_out(size_t idx, size_t len)
{
    void *p = place(idx, len, NULL);
    memset(p, POISON, len);
    return p;
}

static const char *no_ct_claim;
static struct {
    const char *op, *why;
} unjudged[8];
static size_t nunjudged;

void drv_op(const char *name)
{
    cur_op = name;
    no_ct_claim = NULL;
}

void drv_no_ct_claim(const char *why)
{
    no_ct_claim = why;
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
static void note_unjudged(void)
{
    const char *op = cur_op ? cur_op : "a call";
    for (size_t i = 0; i < nunjudged; i++)
        if (!strcmp(unjudged[i].op, op) && unjudged[i].why == no_ct_claim) return;
    if (nunjudged < sizeof unjudged / sizeof unjudged[0])
        unjudged[nunjudged].op = op, unjudged[nunjudged++].why = no_ct_claim;
}

/* Canaries next to every placed buffer, and the inputs that must not change. */
static void after_call(void)
{
    char what[256], t[400];
    for (size_t i = 0; i < F->nbufs; i++) {
        if (!use[i].placed) continue;
        long where;
        if (gbuf_check_canary(&bufs[i], &where)) {
            snprintf(what, sizeof what, "wrote outside %s: byte %ld relative to its start",
                     F->bufs[i].name, where);
            title(t, sizeof t, what);
            report_begin(FINDING_CANARY, t);
            report_end();
        }
        if (use[i].orig && memcmp(bufs[i].p, use[i].orig, bufs[i].len)) {
            snprintf(what, sizeof what, "modified its input %s", F->bufs[i].name);
            title(t, sizeof t, what);
            report_begin(FINDING_INPUT_MODIFIED, t);
            report_diff("original", use[i].orig, impl_name(cur), bufs[i].p, bufs[i].len);
            report_end();
        }
    }
}

/* ---- the Unicorn modes ---- */

#if ARCH_X86_64
/* DRV_UC_TRACE keeps the first run's trace of every call, by implementation and call number,
 * to compare the second run's (other secrets) with. */
struct kept_trace {
    size_t impl, call;
    struct uc_call shape; /* the region names, for the message */
    struct uc_result res; /* its trace */
};
static struct kept_trace *kept;
static size_t nkept, kept_cap;
static int trace_phase;   /* 0: record, 1: compare */
static size_t call_no;    /* calls of the current implementation in this run */
static size_t cur_index;  /* the current implementation's index in drv_impl_at */
static struct uc_region rodata;
static unsigned long long vary_seed;

static void forget_traces(void)
{
    for (size_t i = 0; i < nkept; i++) ucheck_result_free(&kept[i].res);
    nkept = 0;
}

static struct kept_trace *find_kept(size_t impl, size_t call)
{
    for (size_t i = 0; i < nkept; i++)
        if (kept[i].impl == impl && kept[i].call == call) return &kept[i];
    return NULL;
}

static void uc_report(enum finding kind, const char *what)
{
    char t[700];
    title(t, sizeof t, what);
    report_begin(kind, t);
    if (uc_mode == DRV_UC_TRACE)
        report_param("secrets", "%s run (the second replaces them with vary_secrets, seed %llu)",
                     trace_phase ? "second" : "first", vary_seed);
    report_param("emulated by", "Unicorn Engine and the vector executor (emu/), each "
                 "buffer mapped alone, byte-exact");
    report_end();
}

static uint64_t uc_drv_call(const void *fn, const uint64_t *argv, size_t argc)
{
    struct uc_call call = {.fn = fn, .nargs = argc,
                           .check_vectors = (cur->flags & IMPL_CLEAN) != 0};
    if (argc > UC_MAX_ARGS) {
        char w[160];
        snprintf(w, sizeof w, "a call with %zu arguments: the Unicorn modes pass at most %d",
                 argc, UC_MAX_ARGS);
        uc_report(FINDING_EMULATOR, w);
    }
    memcpy(call.args, argv, argc * sizeof argv[0]);
    for (size_t i = 0; i < F->nbufs; i++)
        if (use[i].placed)
            call.regions[call.nregions++] = (struct uc_region){
                F->bufs[i].name, bufs[i].p, bufs[i].len, use[i].orig == NULL};
    if (rodata.len) call.regions[call.nregions++] = rodata;
    static struct uc_result res;
    int rc = ucheck_run(&call, &res);
    uint64_t rax = res.rax;
    drv_stats.calls++;
    if (res.bounds_violation) {
        char w[700];
        snprintf(w, sizeof w, "%s%s", res.bounds_msg, res.bounds_violation > 1
                 ? " (and more accesses outside its buffers)" : "");
        uc_report(FINDING_BOUNDS, w);
    }
    if (rc) uc_report(FINDING_EMULATOR, res.error);
    if (res.abi_violation)
        uc_report(!strncmp(res.abi_msg, "zmm", 3) || res.abi_msg[0] == 'k' ? FINDING_RESIDUE
                                                                            : FINDING_ABI,
                  res.abi_msg);
    if (uc_mode == DRV_UC_TRACE && no_ct_claim) {
        note_unjudged();
        call_no++;
    } else if (uc_mode == DRV_UC_TRACE) {
        size_t n = call_no++;
        if (!trace_phase) {
            if (nkept == kept_cap) {
                kept_cap = kept_cap ? 2 * kept_cap : 16;
                kept = realloc(kept, kept_cap * sizeof *kept);
                if (!kept) abort();
            }
            struct kept_trace *k = &kept[nkept++];
            *k = (struct kept_trace){.impl = cur_index, .call = n, .shape = call};
            k->res = res; /* takes the trace buffer; the next call gets a new one */
            memset(&res, 0, sizeof res);
        } else {
            struct kept_trace *k = find_kept(cur_index, n);
            char msg[600], w[700];
            if (!k) {
                snprintf(w, sizeof w, "made call %zu with other secrets, which it did not "
                         "make before: how many calls it makes depends on a secret", n + 1);
                uc_report(FINDING_TRACE, w);
            }
            if (ucheck_trace_diff(&k->shape, &k->res, &res, msg, sizeof msg) >= 0) {
                snprintf(w, sizeof w, "the trace changed with the secrets: %s", msg);
                uc_report(FINDING_TRACE, w);
            }
        }
    }
    after_call();
    return rax;
}
#endif

static unsigned long long emu_compared;

unsigned long long drv_emu_compared(void)
{
    return emu_compared;
}

#if ARCH_X86_64
/* What both paths observed after the call; NULL when they agree.  Of the flags only DF: the
 * arithmetic flags at return may come from a stack-address computation, and the emulated stack
 * is elsewhere. */
static const char *same_state(const struct abi_state *n, const struct abi_state *e)
{
    static char m[300];
    static const char *const names[6] = {"rbx", "rbp", "r12", "r13", "r14", "r15"};
    const uint64_t a[6] = {n->rbx, n->rbp, n->r12, n->r13, n->r14, n->r15};
    const uint64_t b[6] = {e->rbx, e->rbp, e->r12, e->r13, e->r14, e->r15};
    for (int i = 0; i < 6; i++)
        if (a[i] != b[i])
            return snprintf(m, sizeof m, "%s is 0x%llx on the CPU, 0x%llx emulated", names[i],
                            (unsigned long long)a[i], (unsigned long long)b[i]), m;
    if (n->rsp_delta != e->rsp_delta) return "rsp after the call differs";
    if ((n->rflags ^ e->rflags) & 0x400) return "the direction flag differs";
    if (n->mxcsr != e->mxcsr)
        return snprintf(m, sizeof m, "MXCSR is 0x%x on the CPU, 0x%x emulated", n->mxcsr,
                        e->mxcsr), m;
    if (n->x87cw != e->x87cw) return "the x87 control word differs";
    unsigned nvec = n->vec_mode == ABI_VEC_AVX512 ? 32 : 16;
    unsigned width = n->vec_mode == ABI_VEC_AVX512 ? 64 : n->vec_mode == ABI_VEC_AVX ? 32 : 16;
    for (unsigned r = 0; r < nvec; r++)
        for (unsigned off = 0; off < width; off += 16)
            if (memcmp(n->vec[r] + off, e->vec[r] + off, 16)) {
                const uint64_t *x = (const void *)(n->vec[r] + off), *y = (const void *)(e->vec[r] + off);
                return snprintf(m, sizeof m, "%s%u bytes %u-%u: 0x%016llx%016llx on the CPU, "
                                "0x%016llx%016llx emulated", width == 64 ? "zmm" : width == 32
                                ? "ymm" : "xmm", r, off, off + 15, (unsigned long long)x[1],
                                (unsigned long long)x[0], (unsigned long long)y[1],
                                (unsigned long long)y[0]), m;
            }
    if (n->vec_mode == ABI_VEC_AVX512)
        for (int k = 0; k < 8; k++)
            if (n->k[k] != e->k[k])
                return snprintf(m, sizeof m, "k%d is 0x%llx on the CPU, 0x%llx emulated", k,
                                (unsigned long long)n->k[k], (unsigned long long)e->k[k]), m;
    return NULL;
}

static void emu_report(enum finding kind, const char *what, const void *cpu, const void *emu,
                       size_t n)
{
    char t[600];
    title(t, sizeof t, what);
    report_begin(kind, t);
    if (n) report_diff("cpu", cpu, "emulator", emu, n);
    report_param("emulated by", "emu_call: Unicorn Engine and the vector executor "
                 "(emu/), from the CPU run's buffers and registers");
    report_end();
}

/* The call on the CPU, then in the emulator from the same state: the buffers and the register
 * state after both must agree.  The emulated call's outputs stay in the buffers and its rax is
 * returned, so the family's comparison with the reference judges the emulated call (rax of a
 * function without a result is whatever it left: only the family knows which calls return
 * one; the CPU's rax is judged in every other mode). */
static uint64_t emu_diff_call(const void *fn, const uint64_t *argv, size_t argc)
{
    static uint8_t *pre[MAX_BUFS], *cpu[MAX_BUFS];
    static size_t cap[MAX_BUFS];
    static uint64_t rs = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < F->nbufs; i++) {
        if (!use[i].placed || !bufs[i].len) continue;
        if (cap[i] < bufs[i].len) {
            free(pre[i]);
            free(cpu[i]);
            cap[i] = bufs[i].len;
            pre[i] = malloc(cap[i]);
            cpu[i] = malloc(cap[i]);
            if (!pre[i] || !cpu[i]) abort();
        }
        memcpy(pre[i], bufs[i].p, bufs[i].len);
    }
    struct abi_state b;
    memset(&b, 0, sizeof b);
    uint64_t *saved[6] = {&b.rbx, &b.rbp, &b.r12, &b.r13, &b.r14, &b.r15};
    for (int i = 0; i < 6; i++) {
        rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
        *saved[i] = rs;
    }
    b.mxcsr = 0x1f80;
    b.x87cw = 0x37f;
    uint64_t have = cpu_features();
    b.vec_mode = (have & CPU_AVX512F) ? ABI_VEC_AVX512 : (have & CPU_AVX2) ? ABI_VEC_AVX
                                                                         : ABI_VEC_SSE;
    b.vec_fill = 0x5ca1ab1e0ddba11ull;
    struct abi_state sn = b, se;
    abi_trampoline(fn, &sn, argv, argc);
    uint64_t re;
    for (size_t i = 0; i < F->nbufs; i++)
        if (use[i].placed && bufs[i].len) {
            memcpy(cpu[i], bufs[i].p, bufs[i].len);
            memcpy(bufs[i].p, pre[i], bufs[i].len);
        }
    char err[400], w[500];
    if (emu_call(fn, argv, argc, &b, &se, &re, err, sizeof err)) emu_report(FINDING_EMULATOR, err, NULL, NULL, 0);
    for (size_t i = 0; i < F->nbufs; i++)
        if (use[i].placed && bufs[i].len && memcmp(cpu[i], bufs[i].p, bufs[i].len)) {
            snprintf(w, sizeof w, "the emulator disagrees with the CPU: %s differs after the "
                     "call", F->bufs[i].name);
            emu_report(FINDING_EMU_DIFF, w, cpu[i], bufs[i].p, bufs[i].len);
        }
    const char *d = same_state(&sn, &se);
    if (d) {
        snprintf(w, sizeof w, "the emulator disagrees with the CPU after the call: %s", d);
        emu_report(FINDING_EMU_DIFF, w, NULL, NULL, 0);
    }
    emu_compared++;
    drv_stats.calls++;
    after_call();
    return re;
}
#endif

int drv_set_unicorn(enum drv_uc_mode mode, const char **why)
{
#if ARCH_X86_64
    static char msg[300];
    struct uc_call probe = {0};
    struct uc_result res = {0};
    *why = NULL;
    if (!emu_available()) {
        ucheck_run(&probe, &res); /* the stub says what is missing */
        snprintf(msg, sizeof msg, "%s", res.error);
        *why = msg;
        return -1;
    }
    if (mode == DRV_EMU_DIFF) {
        uc_mode = mode;
        return 0;
    }
    if (mode == DRV_UC_TRACE && !F->vary_secrets) {
        *why = "the family declares no vary_secrets: nothing to compare a trace with";
        return -1;
    }
    elfsym_load();
    uint64_t lo, size;
    if (!elfsec_lookup(".rodata", &lo, &size))
        rodata = (struct uc_region){"program .rodata", (const void *)(uintptr_t)lo, size, 0};
    uc_mode = mode;
    return 0;
#else
    (void)mode;
    *why = "the Unicorn modes run x86-64 kernels: this is not an x86-64 build";
    return -1;
#endif
}

typedef uint64_t (*any_fn)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                           uint64_t, uint64_t, uint64_t);

uint64_t drv_call(const void *fn, const uint64_t *argv, size_t argc)
{
    if (ct_mode) {
        /* A plain call: the checked call's comparisons would branch on the secret-derived
         * state it records.  Extra arguments are harmless in the SysV ABI. */
        if (no_ct_claim) {
            note_unjudged();
            for (size_t i = 0; i < F->nbufs; i++)
                if (use[i].placed) DECLASSIFY(bufs[i].p, bufs[i].len);
        }
        uint64_t a[10] = {0};
        memcpy(a, argv, (argc < 10 ? argc : 10) * sizeof a[0]);
        uint64_t r = ((any_fn)fn)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]);
        DECLASSIFY(&r, sizeof r); /* outputs are public once computed */
        for (size_t i = 0; i < F->nbufs; i++)
            if (use[i].placed) DECLASSIFY(bufs[i].p, bufs[i].len);
        drv_stats.calls++;
        after_call();
        return r;
    }
#if ARCH_X86_64
    if (uc_mode == DRV_UC_BOUNDS || uc_mode == DRV_UC_TRACE) return uc_drv_call(fn, argv, argc);
    if (uc_mode == DRV_EMU_DIFF && !impl_emulated(cur)) return emu_diff_call(fn, argv, argc);
#endif
    const char *name = impl_name(cur);
    double t0 = stats() ? now_ns() : 0;
#if ARCH_X86_64
    int emulated = impl_emulated(cur);
    if (emulated) abi_emulate(1);
#endif
    uint64_t r = cur->flags & IMPL_CLEAN ? abi_call_clean(name, fn, argv, argc)
                                         : abi_call(name, fn, argv, argc);
#if ARCH_X86_64
    if (emulated) abi_emulate(0);
#endif
    if (stats()) *(cur->flags & IMPL_LIBRARY ? &drv_stats.ns_libraries : &drv_stats.ns_kernels) +=
                     now_ns() - t0;
    drv_stats.calls++;
    after_call();
    return r;
}

/* ---- compare and report ---- */

void drv_expect_equal(const char *what, const void *want, const void *got, size_t n)
{
    if (!n || !memcmp(want, got, n)) return;
    char msg[200], t[400];
    snprintf(msg, sizeof msg, "%s differs from the C reference%s", what,
             cur && (cur->flags & IMPL_LIBRARY) ? " (the library disagrees)" : "");
    title(t, sizeof t, msg);
    report_begin(FINDING_MISMATCH, t);
    report_diff("c-reference", want, cur ? impl_name(cur) : "?", got, n);
    report_end();
}

void drv_expect_word(const char *what, uint64_t want, uint64_t got)
{
    if (want == got) return;
    char msg[200], t[400];
    snprintf(msg, sizeof msg, "%s differs from the C reference", what);
    title(t, sizeof t, msg);
    report_begin(FINDING_MISMATCH, t);
    report_param("expected", "0x%llx (c-reference)", (unsigned long long)want);
    report_param("actual", "0x%llx (%s)", (unsigned long long)got, cur ? impl_name(cur) : "?");
    report_end();
}

void drv_expect_true(int ok, const char *what)
{
    if (ok) return;
    char t[400];
    title(t, sizeof t, what);
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

static void run_pass(const struct impl *im, const void *c, const void *want, const char *name)
{
    pass_name = name;
    cur_op = NULL;
    no_ct_claim = NULL;
    for (size_t i = 0; i < F->nbufs; i++) use[i].placed = 0;
    F->run(im, c, want);
}

#if ARCH_X86_64
/* One case in a Unicorn mode: our kernels only, one placement (ucheck maps each buffer alone,
 * flush against its end, whatever the host placement); for DRV_UC_TRACE twice, the second
 * time with other secrets. */
static void uc_check_case(void *c, const void *want)
{
    int phases = uc_mode == DRV_UC_TRACE ? 2 : 1;
    for (trace_phase = 0; trace_phase < phases; trace_phase++) {
        if (trace_phase) {
            /* the same seed for every input: a saved input reproduces its finding alone */
            vary_seed = 0x5ec2e75eedull;
            F->vary_secrets(c, vary_seed);
            want = F->expect(c);
        }
        for (size_t i = 0; i < drv_nimpls(); i++) {
            const struct impl *im = drv_impl_at(i);
            if (im->flags & IMPL_REFERENCE) continue;
            if ((im->flags & IMPL_OUTSIDE) && outside_conv->accepts && !outside_conv->accepts(c))
                continue;
            if (impl_unavailable(im)) {
                if (!trace_phase) drv_stats.skipped[i]++;
                continue;
            }
            cur = im;
            cur_index = i;
            call_no = 0;
            pass_side = GUARD_TAIL;
            memset(pass_offset, 0, sizeof pass_offset);
            run_pass(im, c, want, trace_phase ? "each buffer alone in the emulator, other secrets"
                                              : "each buffer alone in the emulator");
            if (trace_phase + 1 == phases) drv_stats.ran[i]++;
        }
    }
    forget_traces();
    trace_phase = 0;
}
#endif

void drv_check(const void *c)
{
    setup();
    cur = NULL;
    cur_op = NULL;
    pass_name = NULL;
    cur_case = c;
    double t0 = stats() ? now_ns() : 0;
    const void *want = F->expect(c);
    if (stats()) drv_stats.ns_reference += now_ns() - t0;
    drv_stats.cases++;
#if ARCH_X86_64
    if (uc_mode == DRV_UC_BOUNDS || uc_mode == DRV_UC_TRACE) {
        uc_check_case((void *)c, want);
        goto done;
    }
#endif
    for (size_t i = 0; i < drv_nimpls(); i++) {
        const struct impl *im = drv_impl_at(i);
        if (im->flags & IMPL_REFERENCE) continue;
        if (ct_mode && !(im->flags & IMPL_KERNEL)) continue; /* ours only: libraries may branch */
        if ((im->flags & IMPL_OUTSIDE) && outside_conv->accepts && !outside_conv->accepts(c))
            continue; /* outside its convention's precondition: not its contract */
        if (impl_unavailable(im)) {
            drv_stats.skipped[i]++;
            continue;
        }
        cur = im;
        if (im->flags & IMPL_LIBRARY) {
            /* a library is an oracle first: one placement per case, the side the input chose
             * (its bounds are the library's business; ours are checked on every side) */
            pass_side = input_side;
            memset(pass_offset, 0, sizeof pass_offset);
            run_pass(im, c, want, input_side == GUARD_TAIL
                                      ? "flush against the guard page after each buffer"
                                      : "flush against the guard page before each buffer");
            drv_stats.ran[i]++;
            continue;
        }
        /* flush after, flush before: an overread or overwrite in either direction faults */
        pass_side = GUARD_TAIL;
        memset(pass_offset, 0, sizeof pass_offset);
        run_pass(im, c, want, "flush against the guard page after each buffer");
        if (ct_mode) {
            drv_stats.ran[i]++;
            continue;
        }
        pass_side = GUARD_HEAD;
        run_pass(im, c, want, "flush against the guard page before each buffer");
        if (input_misaligned) {
            pass_side = input_side;
            memcpy(pass_offset, input_offset, sizeof pass_offset);
            run_pass(im, c, want, "misaligned as the input chose (canaries on both sides)");
        }
        drv_stats.ran[i]++;
    }
#if ARCH_X86_64
done:
#endif
    cur = NULL;
    cur_op = NULL;
    pass_name = NULL;
    cur_case = NULL;
    input_misaligned = 0;
}

int drv_one_input(const uint8_t *data, size_t size)
{
    struct input in;
    setup();
    report_set_input(data, size);
    input_init(&in, data, size);
    /* placement first: the rest of the input cannot shift it */
    input_side = input_bool(&in) ? GUARD_HEAD : GUARD_TAIL;
    input_misaligned = 0;
    for (size_t i = 0; i < F->nbufs; i++) {
        size_t g = F->bufs[i].granule ? F->bufs[i].granule : 1;
        input_offset[i] = 0;
        if (g < 64 && input_pick(&in, 2) == 0) {
            input_offset[i] = g * (size_t)input_range(&in, 1, 63 / g);
            input_misaligned = 1;
        }
    }
    double t0 = stats() ? now_ns() : 0;
    void *c = F->decode(&in);
    if (stats()) drv_stats.ns_decode += now_ns() - t0;
    drv_check(c);
    if (stats()) {
        drv_stats.ns_total += now_ns() - t0;
        /* libFuzzer may leave with _Exit: report as it goes, at every power of two */
        if (++drv_stats.execs >= 256 && !(drv_stats.execs & (drv_stats.execs - 1)))
            drv_print_stats();
    }
    return 0;
}
