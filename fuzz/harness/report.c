/* report.c — see report.h.  Prints to stderr only; each distinct finding also becomes one
 * `finding` record of the result stream (results.h, docs/results.md).
 *
 * While a report is being made its human text goes through emit(): in libFuzzer mode straight
 * to stderr, as before; in tool mode it is held in a static buffer until the context has named
 * the implementation, and then printed (the first report of this implementation and check) or
 * dropped (a repeat, only counted).  A report can be made from the guard-page signal handler:
 * nothing on this path allocates except the first source-line lookup (srcline.h says why that
 * is acceptable); stdio's formatting is used as it always was here, the fault being in a
 * kernel and never inside stdio. */
#include "report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "asmdiff-config.h"
#include "cpu.h"
#include "results.h"
#include "sha1.h"
#include "srcline.h"

const char *report_current_file;
const struct report_policy report_stop_at_first = {"stop at the first finding", 0, 0};
const struct report_policy report_go_on = {"every distinct finding, then exit 1", 1, 1};
static const struct report_policy *policy = &report_stop_at_first;

void report_set_policy(const struct report_policy *p)
{
    policy = p ? p : &report_stop_at_first;
}

const struct report_policy *report_policy(void)
{
    return policy;
}
const char *report_rerun;
const char *report_replay_cmd;

static const char *family_name = "?";
static void (*context_fn)(void);
static const uint8_t *input_data;
static size_t input_size;

static const char *const names[FINDING_COUNT] = {
#define CHECK(e, name, heading, row, describe) name,
#include "checks.def"
#undef CHECK
};
static const char *const headings[FINDING_COUNT] = {
#define CHECK(e, name, heading, row, describe) heading,
#include "checks.def"
#undef CHECK
};

static unsigned long long n_findings, n_events;

unsigned long long report_findings(void)
{
    return n_findings;
}

unsigned long long report_finding_events(void)
{
    return n_events;
}

const char *finding_heading(enum finding kind)
{
    return kind < FINDING_COUNT ? headings[kind] : "?";
}

const char *finding_name(enum finding kind)
{
    return kind < FINDING_COUNT ? names[kind] : "?";
}

void report_set_context(const char *family, void (*context)(void))
{
    family_name = family;
    context_fn = context;
}

void report_set_input(const uint8_t *data, size_t size)
{
    input_data = data;
    input_size = size;
}

/* ---- the report being made: its human text and its record's fields ---- */

enum out_mode {
    OUT_HOLD,  /* tool mode, before the context named the implementation: held */
    OUT_PRINT, /* to stderr */
    OUT_QUIET, /* a repeat: counted, not printed */
};

#define MAX_PAIRS 256   /* distinct (implementation, check) pairs remembered */
#define MAX_PARAMS 32
#define MAX_BUFFERS 16
#define POOL_SIZE 16384 /* the params' names and values */

struct param {
    const char *name, *value; /* in pool */
    int detail;               /* given after the context: the finding's own detail */
};

static struct {
    enum finding kind;
    char title[600];
    char implementation[160];
    int has_implementation, library;
    char operation[80];
    char placement[160];
    const char *what;        /* given by report_what or report_simple, else derived */
    char what_buf[512];
    struct param params[MAX_PARAMS];
    size_t nparams;
    char pool[POOL_SIZE];
    size_t pool_used;
    struct {
        char name[48], place[64];
        size_t len, offset;
    } buffers[MAX_BUFFERS];
    size_t nbuffers;
    char location[64];
    long location_offset;
    int has_location;
    uintptr_t pc;
    int has_pc;
    char instruction[300];
    char source[1100];
} rep;

static int in_report, in_context;
static enum out_mode out_mode;
static char held[32768];
static size_t held_len;

static struct {
    enum finding kind;
    char implementation[160];
} seen[MAX_PAIRS];
static size_t nseen;

static void emit_v(const char *fmt, va_list ap)
{
    if (!in_report || out_mode == OUT_PRINT) {
        vfprintf(stderr, fmt, ap);
    } else if (out_mode == OUT_HOLD && held_len < sizeof held - 1) {
        int n = vsnprintf(held + held_len, sizeof held - held_len, fmt, ap);
        if (n > 0) held_len += (size_t)n < sizeof held - held_len ? (size_t)n
                                                                   : sizeof held - 1 - held_len;
    }
}

static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void emit(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit_v(fmt, ap);
    va_end(ap);
}

static const char *pool_copy(const char *s)
{
    size_t n = strlen(s) + 1;
    if (rep.pool_used + n > sizeof rep.pool) return NULL;
    char *p = memcpy(rep.pool + rep.pool_used, s, n);
    rep.pool_used += n;
    return p;
}

static void copy(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src);
}

/* Tool mode: is this (implementation, check) pair new?  Remembers it when it is.  A table
 * that is full takes every further pair for new: printed rather than lost. */
static int first_of_pair(void)
{
    const char *impl = rep.has_implementation ? rep.implementation : "";
    for (size_t i = 0; i < nseen; i++)
        if (seen[i].kind == rep.kind && !strcmp(seen[i].implementation, impl)) return 0;
    if (nseen < MAX_PAIRS) {
        seen[nseen].kind = rep.kind;
        copy(seen[nseen].implementation, sizeof seen[nseen].implementation, impl);
        nseen++;
    }
    return 1;
}

/* A fault (guard page, ABI check) while a report was being made: what was held is printed,
 * then the process ends, whatever the mode: the report's own state cannot be trusted. */
static __attribute__((noreturn)) void fault_in_report(enum finding kind, const char *what)
{
    if (out_mode == OUT_HOLD && held_len) fwrite(held, 1, held_len, stderr);
    fprintf(stderr, "asmdiff: %s while reporting: %s\n", finding_name(kind), what);
    fflush(stderr);
    if (policy->go_on) _exit(policy->exit_status);
    abort();
}

void report_begin(enum finding kind, const char *title)
{
    if (in_report) fault_in_report(kind, title);
    in_report = 1;
    memset(&rep, 0, sizeof rep);
    rep.kind = kind < FINDING_COUNT ? kind : FINDING_MISMATCH;
    copy(rep.title, sizeof rep.title, title);
    out_mode = policy->go_on ? OUT_HOLD : OUT_PRINT;
    held_len = 0;
    emit("\n==== asmdiff: %s in %s: %s\n", headings[rep.kind], family_name, title);
    emit("  %-14s = %s\n", "check", names[rep.kind]);
    in_context = 1;
    if (context_fn) context_fn();
    in_context = 0;
    if (out_mode == OUT_HOLD) {
        out_mode = first_of_pair() ? OUT_PRINT : OUT_QUIET;
        if (out_mode == OUT_PRINT) fwrite(held, 1, held_len, stderr);
        held_len = 0;
    }
}

/* One "  name = value" line, as every report line has been. */
static void line(const char *name, const char *value)
{
    emit("  %-14s = %s\n", name, value);
}

void report_param(const char *name, const char *fmt, ...)
{
    static char value[8192]; /* static: a report may run on a small signal stack */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    line(name, value);
    if (!in_report) return;
    /* the context's own names become the record's top-level fields */
    if (in_context && !strcmp(name, "implementation")) {
        static const char suffix[] = " (library)";
        size_t n = strlen(value), s = sizeof suffix - 1;
        if (n > s && !strcmp(value + n - s, suffix)) {
            value[n - s] = 0;
            rep.library = 1;
        }
        copy(rep.implementation, sizeof rep.implementation, value);
        rep.has_implementation = 1;
    } else if (in_context && !strcmp(name, "operation")) {
        copy(rep.operation, sizeof rep.operation, value);
    } else if (in_context && !strcmp(name, "placement")) {
        copy(rep.placement, sizeof rep.placement, value);
    } else if (in_context && !strcmp(name, "buffer")) {
        /* a buffer's line given as a parameter: its fields come through report_buffer only */
    } else if (rep.nparams < MAX_PARAMS) {
        const char *k = pool_copy(name), *v = pool_copy(value);
        if (k && v) {
            rep.params[rep.nparams].name = k;
            rep.params[rep.nparams].value = v;
            rep.params[rep.nparams++].detail = !in_context;
        }
    }
}

void report_buffer(const char *name, size_t len, const void *p, const char *place,
                   size_t offset)
{
    char value[256];
    snprintf(value, sizeof value, "%-12s %6zu bytes at %p, %s, offset %zu", name, len, p, place,
             offset);
    line("buffer", value);
    if (!in_report || rep.nbuffers >= MAX_BUFFERS) return;
    copy(rep.buffers[rep.nbuffers].name, sizeof rep.buffers[0].name, name);
    copy(rep.buffers[rep.nbuffers].place, sizeof rep.buffers[0].place, place);
    rep.buffers[rep.nbuffers].len = len;
    rep.buffers[rep.nbuffers++].offset = offset;
}

void report_location(const char *buffer, long offset)
{
    char value[128];
    snprintf(value, sizeof value, "%s, byte %ld relative to its start", buffer, offset);
    line("location", value);
    if (!in_report) return;
    copy(rep.location, sizeof rep.location, buffer);
    rep.location_offset = offset;
    rep.has_location = 1;
}

void report_instruction(uintptr_t pc)
{
    struct srcline s;
    char value[sizeof rep.source + 320];
    /* a repeat is not printed: no need to read the line tables for it */
    if (in_report && out_mode == OUT_QUIET) return;
    srcline_lookup(pc, &s);
    srcline_format(pc, &s, value, sizeof value);
    line("instruction", value);
    if (!in_report) return;
    rep.pc = pc;
    rep.has_pc = 1;
    rep.instruction[0] = rep.source[0] = 0;
    if (s.symbol)
        snprintf(rep.instruction, sizeof rep.instruction, "%s+0x%lx", s.symbol,
                 (unsigned long)s.sym_offset);
    if (s.file) snprintf(rep.source, sizeof rep.source, "%s:%d", s.file, s.line);
}

void report_what(const char *what)
{
    if (!in_report || !what) return;
    copy(rep.what_buf, sizeof rep.what_buf, what);
    rep.what = rep.what_buf;
}

/* The title is "<implementation> <operation>: <what>" (or "c-reference ..." outside an
 * implementation): what follows that prefix, else the whole title. */
static const char *derived_what(void)
{
    const char *who = rep.has_implementation ? rep.implementation : "c-reference";
    size_t n = strlen(who), o = strlen(rep.operation);
    const char *p = rep.title;
    if (strncmp(p, who, n)) return rep.title;
    p += n;
    if (o && p[0] == ' ' && !strncmp(p + 1, rep.operation, o)) p += 1 + o;
    return p[0] == ':' && p[1] == ' ' ? p + 2 : rep.title;
}

static void dump(const char *label, const uint8_t *p, size_t from, size_t to, size_t mark)
{
    emit("  %s:\n", label);
    for (size_t row = from & ~(size_t)15; row < to; row += 16) {
        emit("    %06zx ", row);
        for (size_t i = row; i < row + 16; i++) {
            if (i < from || i >= to) emit("   ");
            else emit("%c%02x", i == mark ? '>' : ' ', p[i]);
        }
        emit("\n");
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
        emit("  (buffers of %zu bytes are equal)\n", n);
        return;
    }
    size_t last = n;
    while (last > first && e[last - 1] == a[last - 1]) last--;
    emit("  first difference at byte %zu (of %zu); last at byte %zu\n", first, n,
            last - 1);
    size_t from = 0, to = n;
    if (n > 256) { /* a window around the first difference */
        from = first > 64 ? (first - 64) & ~(size_t)15 : 0;
        to = from + 192 < n ? from + 192 : n;
    }
    char l1[128], l2[128];
    snprintf(l1, sizeof l1, "expected (%s), bytes %zu..%zu", exp_name, from, to - 1);
    snprintf(l2, sizeof l2, "actual   (%s), bytes %zu..%zu", act_name, from, to - 1);
    dump(l1, e, from, to, first);
    dump(l2, a, from, to, first);
}

/* The file libFuzzer writes the crashing input to: -artifact_prefix (from our command line,
 * default "./") followed by crash-<sha1 of the input>. */
static int libfuzzer_crash_file(char *out, size_t len)
{
    if (!input_data && input_size) return -1;
    char prefix[1024] = "./";
    FILE *f = fopen("/proc/self/cmdline", "rb");
    if (f) {
        char arg[2048];
        size_t n = 0;
        int c;
        while ((c = fgetc(f)) != EOF) {
            if (n < sizeof arg - 1) arg[n++] = (char)c;
            if (c == 0) {
                if (!strncmp(arg, "-artifact_prefix=", 17))
                    snprintf(prefix, sizeof prefix, "%s", arg + 17);
                n = 0;
            }
        }
        fclose(f);
    }
    uint8_t digest[20];
    sha1(input_data ? input_data : (const uint8_t *)"", input_size, digest);
    int used = snprintf(out, len, "%scrash-", prefix);
    for (int i = 0; i < 20 && used > 0 && (size_t)used < len; i++)
        used += snprintf(out + used, len - (size_t)used, "%02x", digest[i]);
    return 0;
}

/* Outside libFuzzer, the input is ours to keep: findings/<family>/crash-<sha1> (or under
 * ASMDIFF_FINDINGS), so the finding reproduces from the file alone. */
static int save_input(char *out, size_t len)
{
    const char *dir = getenv("ASMDIFF_FINDINGS");
    char d[900];
    snprintf(d, sizeof d, "%s/%s", dir && *dir ? dir : "findings", family_name);
    /* every folder of the path, as mkdir -p: ASMDIFF_FINDINGS may name one nothing made yet */
    for (char *p = d + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(d, 0777);
            *p = '/';
        }
    mkdir(d, 0777);
    uint8_t digest[20];
    sha1(input_data ? input_data : (const uint8_t *)"", input_size, digest);
    int used = snprintf(out, len, "%s/crash-", d);
    for (int i = 0; i < 20 && used > 0 && (size_t)used < len; i++)
        used += snprintf(out + used, len - (size_t)used, "%02x", digest[i]);
    FILE *f = fopen(out, "wb");
    if (!f) return -1;
    int ok = fwrite(input_data ? input_data : (const uint8_t *)"", 1, input_size, f) == input_size;
    return fclose(f) == 0 && ok ? 0 : -1;
}

const char *report_env(void)
{
    static char env[512];
    env[0] = 0;
    const char *mask = getenv("ASMDIFF_CPU_MASK");
    const char *level = getenv("ASMDIFF_GCRYPT_DISABLE");
    if (mask && *mask) snprintf(env + strlen(env), sizeof env - strlen(env), "ASMDIFF_CPU_MASK=%s ", mask);
    if (level && *level)
        snprintf(env + strlen(env), sizeof env - strlen(env), "ASMDIFF_GCRYPT_DISABLE=%s ", level);
    return env;
}

/* The reproduce command, environment included: one builder for the human line and the
 * record.  *input gets the input file it names, or NULL (a case the mode built). */
static void reproduce_command(char *out, size_t len, char *input, size_t input_len)
{
    const char *env = report_env();
    /* Everything in the environment that chose what ran goes into the reproduce line. */
    char vlen[32] = "";
#if ARCH_RISCV64
    if (cpu_riscv_vlenb()) snprintf(vlen, sizeof vlen, "--vlen %u ", 8 * cpu_riscv_vlenb());
#endif
    input[0] = 0;
    if (!report_current_file && !input_data && report_rerun) {
        /* a case the mode built (kat, exhaustive): the mode itself reproduces it */
        snprintf(out, len, "%s%s", env, report_rerun);
        return;
    }
    char file[1200];
    if (report_current_file)
        snprintf(file, sizeof file, "%s", report_current_file);
    else if (policy->go_on ? save_input(file, sizeof file)
                                : libfuzzer_crash_file(file, sizeof file))
        snprintf(file, sizeof file, policy->go_on ? "<the input could not be saved: %s>"
                                                       : "<the file libFuzzer names below>%s",
                 policy->go_on ? strerror(errno) : "");
    else
        snprintf(input, input_len, "%s", file);
    if (report_current_file) snprintf(input, input_len, "%s", file);
    if (report_replay_cmd)
        snprintf(out, len, "%s%s %s", env, report_replay_cmd, file);
    else
        snprintf(out, len, "%s./asmdiff fuzz %s %s%s", env, family_name, vlen, file);
}

static void write_record(const char *cpu, const char *reproduce, const char *input)
{
    if (!results_on()) return;
    jr_begin("finding");
    jr_str("check", names[rep.kind]);
    jr_str("heading", headings[rep.kind]);
    jr_str("title", rep.title);
    jr_str("implementation", rep.has_implementation ? rep.implementation : NULL);
    jr_bool("library", rep.library);
    jr_str("operation", rep.operation[0] ? rep.operation : NULL);
    jr_str("placement", rep.placement[0] ? rep.placement : NULL);
    jr_str("what", rep.what ? rep.what : derived_what());
    jr_obj_begin("params");
    for (size_t i = 0; i < rep.nparams; i++)
        if (!rep.params[i].detail) jr_str(rep.params[i].name, rep.params[i].value);
    jr_obj_end();
    jr_obj_begin("details");
    for (size_t i = 0; i < rep.nparams; i++)
        if (rep.params[i].detail) jr_str(rep.params[i].name, rep.params[i].value);
    jr_obj_end();
    jr_list_begin("buffers");
    for (size_t i = 0; i < rep.nbuffers; i++) {
        jr_obj_begin(NULL);
        jr_str("name", rep.buffers[i].name);
        jr_uint("len", rep.buffers[i].len);
        jr_str("place", rep.buffers[i].place);
        jr_uint("offset", rep.buffers[i].offset);
        jr_obj_end();
    }
    jr_list_end();
    jr_str("buffer", rep.has_location ? rep.location : NULL);
    if (rep.has_location) jr_int("offset", rep.location_offset);
    else jr_null("offset");
    jr_str("instruction", rep.instruction[0] ? rep.instruction : NULL);
    if (rep.has_pc) jr_strf("address", "0x%lx", (unsigned long)rep.pc);
    else jr_null("address");
    jr_str("source", rep.source[0] ? rep.source : NULL);
    jr_str("input", input[0] ? input : NULL);
    jr_str("reproduce", reproduce);
    jr_str("cpu", cpu);
    jr_end();
}

/* A run that reported a finding must not exit 0, whatever path its end takes (a mode whose
 * summary forgot to look at report_findings()): the exit status then becomes
 * the policy's exit_status.  Registered at the first distinct finding under report_go_on. */
static void never_clean_after_a_finding(int status, void *arg)
{
    (void)arg;
    if (status == 0 && n_findings) {
        fflush(NULL);
        _exit(policy->exit_status ? policy->exit_status : 1);
    }
}

int report_end(void)
{
    static int guarded;
    if (policy->go_on && !guarded) guarded = !on_exit(never_clean_after_a_finding, NULL);
    n_events++;
    if (out_mode == OUT_QUIET) { /* a repeat of a pair already reported */
        in_report = 0;
        out_mode = OUT_PRINT;
        return 0;
    }
    char cpu[512], reproduce[2048], input[1200];
    cpu_feature_names(cpu_features(), cpu, sizeof cpu);
    line("cpu features", cpu);
    reproduce_command(reproduce, sizeof reproduce, input, sizeof input);
    emit("  %-14s : %s\n", "reproduce", reproduce);
    fflush(stderr);
    write_record(cpu, reproduce, input);
    n_findings++;
    in_report = 0;
    out_mode = OUT_PRINT;
    if (!policy->go_on) abort(); /* libFuzzer keeps the input */
    /* ASMDIFF_MAX_FINDINGS=N: the run ends at its Nth distinct finding (the mutants runners
     * time the first catch), with the finding's record and saved input already written */
    static long max_findings = -1;
    if (max_findings < 0) {
        const char *e = getenv("ASMDIFF_MAX_FINDINGS");
        max_findings = e && *e ? strtol(e, NULL, 10) : 0;
        if (max_findings < 0) max_findings = 0;
    }
    if (max_findings && n_findings >= (unsigned long long)max_findings) {
        fprintf(stderr, "asmdiff: stopped at finding %llu (ASMDIFF_MAX_FINDINGS)\n", n_findings);
        fflush(stderr);
        _exit(policy->exit_status);
    }
    return 1;
}

int report_fault(enum finding kind, const char *who, const char *what, const char *buffer,
                 long offset, uintptr_t pc)
{
    char title[512];
    if (in_report) fault_in_report(kind, what);
    snprintf(title, sizeof title, "%s: %s", who ? who : "(outside a checked call)", what);
    report_begin(kind, title);
    report_what(what);
    if (buffer) report_location(buffer, offset);
    if (pc) report_instruction(pc);
    return report_end();
}

int report_simple(enum finding kind, const char *who, const char *what)
{
    return report_fault(kind, who, what, NULL, 0, 0);
}
