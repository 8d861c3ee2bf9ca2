/* backend_unicorn.c — the Unicorn modes (emu/ucheck.h), for x86-64 kernels of ours on any
 * x86-64 host: every kernel call runs inside Unicorn and the vector executor, each placed
 * buffer mapped alone and the program's .rodata the only other memory it may read besides its
 * stack, each read of it inside one constant table (the sized object, ELF .size, that its first
 * byte falls in: a read in no sized table is a finding for our kernels; for an outside kernel,
 * whose tables may have no size, it is judged against the whole section and the summary says
 * so); libraries do not run; one placement per case.
 *   bounds: an access outside every buffer, byte-exact, is a finding (check "bounds"), as are
 *     the ABI and, for IMPL_CLEAN kernels, data left in vector and opmask registers.
 *   ct-trace: the same, and then every case runs again with other secrets of the same shape
 *     (the family's vary_secrets); the trace of each call (instruction addresses and accessed
 *     buffer offsets, never data) must not change (check "ct-trace"). */
#include <stdlib.h>
#include <string.h>

#include "asmdiff-config.h"
#include "backend.h"
#include "outside.h"
#include "report.h"
#include "stats.h"

#if ARCH_X86_64
#include "emu/emu_call.h"
#include "emu/ucheck.h"
#include "emu/ucheck_elf.h"

/* ct-trace keeps the first run's trace of every call, by implementation and call number, to
 * compare the second run's (other secrets) with. */
struct kept_trace {
    size_t impl, call;
    struct uc_call shape; /* the region names, for the message */
    struct uc_result res; /* its trace */
};
static struct kept_trace *kept;
static size_t nkept, kept_cap;
static int trace_phase;   /* 0: record, 1: compare */
static size_t call_no;    /* calls of the current implementation in this run */
static struct uc_region rodata;
/* An outside kernel may keep its constants in .text beside its code (perlasm does): its reads
 * there are allowed, not judged per object (docs/check-your-patch.md says so). */
static struct uc_region text;
static unsigned long long vary_seed;
/* Reads of .rodata that no sized object holds, over the run, and the first of them. */
static unsigned long long untabled_reads;
static size_t unsized_objects;
static char untabled_first[256];

static int tracing(void)
{
    return drv.backend == &backend_trace;
}

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

/* A report of these modes; pc is the instruction it is about (0: none known), region the
 * buffer (NULL: none). */
static void uc_report_at(const struct drv_pass *p, enum finding kind, const char *what,
                         uint64_t pc, const char *region, int64_t offset)
{
    char t[700];
    drv_title(p, t, sizeof t, what);
    report_begin(kind, t);
    if (pc) report_instruction((uintptr_t)pc);
    if (region) report_location(region, (long)offset);
    if (tracing())
        report_param("secrets", "%s run (the second replaces them with vary_secrets, seed %llu)",
                     trace_phase ? "second" : "first", vary_seed);
    report_param("emulated by", "Unicorn Engine and the vector executor (emu/), each "
                 "buffer mapped alone, byte-exact");
    report_end();
}

static void uc_report(const struct drv_pass *p, enum finding kind, const char *what, uint64_t pc)
{
    uc_report_at(p, kind, what, pc, NULL, 0);
}

/* the globals outside kernels reach RIP-relative (drv_global_region) */
static struct uc_region globals[4];
static size_t nglobals;

void drv_uc_call_fill(const struct drv_pass *p, struct uc_call *call, const uint64_t *argv,
                      size_t argc)
{
    call->nargs = argc;
    memcpy(call->args, argv, argc * sizeof argv[0]);
    /* the placed buffers and pieces; room is kept for the program's own regions below */
    for (size_t i = 0; i < drv_pass_slots(p); i++) {
        if (!p->use[i].placed) continue;
        if (call->nregions + 4 + nglobals >= UC_MAX_REGIONS) {
            fprintf(stderr, "asmdiff: a call with more placed buffers than the emulator maps "
                            "(%d regions)\n", UC_MAX_REGIONS);
            abort();
        }
        call->regions[call->nregions++] = (struct uc_region){
            p->bufs[i].name, p->bufs[i].p, p->bufs[i].len, p->use[i].orig == NULL, 0};
    }
    if (rodata.len) call->regions[call->nregions++] = rodata;
    if (text.len && (p->impl->flags & IMPL_OUTSIDE)) call->regions[call->nregions++] = text;
    /* the Win64 bridge's registers in and out: the harness's, written back; and Win64 has no
     * red zone (the bridge writes nothing below rsp either) */
    if (drv_win64_now) {
        call->regions[call->nregions++] = (struct uc_region){
            "the Win64 call's registers (harness)", drv_win64_now, sizeof *drv_win64_now, 1, 0};
        call->no_red_zone = 1;
    }
    for (size_t i = 0; i < nglobals && call->nregions < UC_MAX_REGIONS; i++)
        call->regions[call->nregions++] = globals[i];
}

void drv_global_region(const char *name, const void *p, size_t len, int writable)
{
    for (size_t i = 0; i < nglobals; i++)
        if (globals[i].host == p) return;
    if (p && len && nglobals < sizeof globals / sizeof globals[0])
        globals[nglobals++] = (struct uc_region){name, p, len, writable, UC_REGION_FIXED};
}

static uint64_t uc_call_checked(struct drv_pass *p, const void *fn, const uint64_t *argv,
                                size_t argc)
{
    struct uc_call call = {.fn = fn, .nargs = argc,
                           .check_vectors = (p->impl->flags & IMPL_CLEAN) != 0,
                           .per_table = 1};
    /* ct-trace: both runs of a call start from the same junk (registers not passed, random
     * callee-saved values), so only the secrets differ between them: a kernel that branches on
     * a register it was never given is not reported as secret-dependent (seen: OpenSSL 3.0's
     * poly1305_blocks_avx2 tests r11d on its .Leven_avx2 path, where nothing set it) */
    if (tracing())
        call.junk_seed = 0x9e3779b97f4a7c15ull ^ ((uint64_t)p->index << 40) ^ (uint64_t)call_no;
    if (argc > UC_MAX_ARGS) {
        char w[160];
        snprintf(w, sizeof w, "a call with %zu arguments: the Unicorn modes pass at most %d",
                 argc, UC_MAX_ARGS);
        uc_report(p, FINDING_EMULATOR, w, 0);
        p->abandoned = 1;
        return 0;
    }
    drv_uc_call_fill(p, &call, argv, argc);
    static struct uc_result res;
    int rc = ucheck_run(&call, &res);
    uint64_t rax = res.rax;
    drv_stats.calls++;
    drv_stats.impl_calls[p->index]++;
    drv_stats.emulated_calls++;
    if (res.bounds_violation) {
        char w[700];
        snprintf(w, sizeof w, "%s%s", res.bounds_msg, res.bounds_violation > 1
                 ? " (and more accesses outside its buffers)" : "");
        uc_report_at(p, FINDING_BOUNDS, w, res.bounds_pc, res.bounds_region, res.bounds_offset);
    }
    if (res.untabled_reads && (p->impl->flags & IMPL_OUTSIDE)) {
        /* an author's file may leave its tables unsized: judged against the whole section,
         * and the summary says so */
        if (!untabled_reads)
            snprintf(untabled_first, sizeof untabled_first, "%s", res.untabled_msg);
        untabled_reads += res.untabled_reads;
    } else if (res.untabled_reads) {
        /* ours give every constant table a .size: a read in none is out of bounds */
        char w[400];
        snprintf(w, sizeof w, "%s: every constant table of our kernels has a .size",
                 res.untabled_msg);
        uc_report_at(p, FINDING_BOUNDS, w, res.untabled_pc, "program .rodata", 0);
    }
    unsized_objects = res.unsized_objects;
    if (rc) {
        uc_report(p, FINDING_EMULATOR, res.error, res.error_pc);
        p->abandoned = 1; /* it did not return: its outputs and trace mean nothing */
        return 0;
    }
    if (res.abi_violation) {
        enum finding kind = res.abi_kind == UC_ABI_RESIDUE ? FINDING_RESIDUE : FINDING_ABI;
        /* leftovers an outside kernel's convention allows: information, as natively */
        if (!((p->impl->flags & IMPL_OUTSIDE) && outside_allows(p->impl, kind, res.abi_msg)))
            uc_report(p, kind, res.abi_msg, 0);
    }
    if (tracing() && p->no_ct_claim) {
        drv_note_unjudged(p);
        call_no++;
    } else if (tracing()) {
        size_t n = call_no++;
        if (!trace_phase) {
            if (nkept == kept_cap) {
                kept_cap = kept_cap ? 2 * kept_cap : 16;
                kept = realloc(kept, kept_cap * sizeof *kept);
                if (!kept) abort();
            }
            struct kept_trace *k = &kept[nkept++];
            *k = (struct kept_trace){.impl = p->index, .call = n, .shape = call};
            k->res = res; /* takes the trace buffer; the next call gets a new one */
            memset(&res, 0, sizeof res);
        } else {
            struct kept_trace *k = find_kept(p->index, n);
            char msg[600], w[700];
            if (!k) {
                snprintf(w, sizeof w, "made call %zu with other secrets, which it did not "
                         "make before: how many calls it makes depends on a secret", n + 1);
                uc_report(p, FINDING_TRACE, w, 0);
            } else {
                long at = ucheck_trace_diff(&k->shape, &k->res, &res, msg, sizeof msg);
                if (at >= 0) {
                    snprintf(w, sizeof w, "the trace changed with the secrets: %s", msg);
                    uc_report(p, FINDING_TRACE, w, ucheck_event_pc(&call, &res, at));
                }
            }
        }
    }
    drv_after_call(p);
    return rax;
}

/* One case: our kernels only, one placement (ucheck maps each buffer alone, flush against its
 * end, whatever the host placement); for ct-trace twice, the second time with other
 * secrets. */
static void uc_check_case(const struct drv_case *k)
{
    void *c = k->c;
    const void *want = k->want;
    int phases = tracing() ? 2 : 1;
    for (trace_phase = 0; trace_phase < phases; trace_phase++) {
        if (trace_phase) {
            /* the same seed for every input: a saved input reproduces its finding alone */
            vary_seed = 0x5ec2e75eedull;
            drv_family->vary_secrets(c, vary_seed);
            want = drv_family->expect(c);
        }
        for (size_t i = 0; i < drv_nimpls(); i++) {
            if (!drv_takes(i, c, !trace_phase)) continue;
            call_no = 0;
            drv_pass(i, c, want, GUARD_TAIL, NULL,
                     trace_phase ? "each buffer alone in the emulator, other secrets"
                                 : "each buffer alone in the emulator");
            if (trace_phase + 1 == phases) drv_stats.ran[i]++;
        }
    }
    forget_traces();
    trace_phase = 0;
}

static int uc_emulated(const struct impl *im)
{
    return (im->flags & IMPL_KERNEL) && !(im->unavailable && im->unavailable());
}
#endif

/* Whether this build has the engine; the stub says what is missing. */
int drv_emulator_linked(const char **why)
{
#if ARCH_X86_64
    static char msg[300];
    if (emu_available()) return 0;
    struct uc_call probe = {0};
    struct uc_result res = {0};
    ucheck_run(&probe, &res);
    snprintf(msg, sizeof msg, "%s", res.error);
    *why = msg;
    return -1;
#else
    *why = "the Unicorn modes run x86-64 kernels: this is not an x86-64 build";
    return -1;
#endif
}

/* For the summary's info record: "" when every read of .rodata in the bounds and ct-trace
 * modes fell inside a sized table, else what was not judged per table. */
const char *drv_bounds_untabled(void)
{
#if ARCH_X86_64
    static char msg[512];
    if (!untabled_reads) return "";
    snprintf(msg, sizeof msg, "bounds per table not established: %zu unsized object%s in "
             ".rodata; %llu read%s of it outside every sized object, judged against the whole "
             "section (the first: %s)", unsized_objects, unsized_objects == 1 ? "" : "s",
             untabled_reads, untabled_reads == 1 ? "" : "s", untabled_first);
    return msg;
#else
    return "";
#endif
}

const char *drv_kernels_only(const struct impl *im)
{
    return im->flags & IMPL_KERNEL ? NULL : "a library (the emulator modes run our kernels)";
}

int drv_uc_setup(const char **why)
{
    if (drv_emulator_linked(why)) return -1;
#if ARCH_X86_64
    elfsym_load();
    uint64_t lo, size;
    if (!elfsec_lookup(".rodata", &lo, &size))
        rodata = (struct uc_region){"program .rodata", (const void *)(uintptr_t)lo, size, 0, 0};
    if (!elfsec_lookup(".text", &lo, &size))
        text = (struct uc_region){"program .text (constants beside code)",
                                  (const void *)(uintptr_t)lo, size, 0, UC_REGION_WHOLE};
#endif
    return 0;
}

static int trace_setup(const char **why)
{
    if (drv_emulator_linked(why)) return -1;
    if (!drv_family->vary_secrets) {
        *why = "the family declares no vary_secrets: nothing to compare a trace with";
        return -1;
    }
    return drv_uc_setup(why);
}

#if ARCH_X86_64
#define UC_CALLS .emulated = uc_emulated, .call = uc_call_checked, .check_case = uc_check_case
#else
#define UC_CALLS .call = NULL, .check_case = NULL /* setup refuses first */
#endif

const struct backend backend_bounds = {
    .name = "bounds",
    .setup = drv_uc_setup,
    .unavailable = drv_kernels_only,
    UC_CALLS,
};

const struct backend backend_trace = {
    .name = "ct-trace",
    .setup = trace_setup,
    .unavailable = drv_kernels_only,
    UC_CALLS,
};
