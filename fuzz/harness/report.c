/* report.c — see report.h.  Prints to stderr only. */
#include "report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "asmdiff-config.h"
#include "cpu.h"
#include "sha1.h"

const char *report_current_file;
int report_exit_status;
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

static int in_report;

void report_begin(enum finding kind, const char *title)
{
    in_report = 1;
    fprintf(stderr, "\n==== asmdiff: %s in %s: %s\n", headings[kind], family_name, title);
    fprintf(stderr, "  %-14s = %s\n", "check", names[kind]);
    if (context_fn) context_fn();
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

void report_buffer(const char *name, size_t len, const void *p, const char *place,
                   size_t offset)
{
    report_param("buffer", "%-12s %6zu bytes at %p, %s, offset %zu", name, len, p, place,
                 offset);
}

void report_location(const char *buffer, long offset)
{
    report_param("location", "%s, byte %ld relative to its start", buffer, offset);
}

void report_instruction(uintptr_t pc)
{
    report_param("instruction", "%#lx", (unsigned long)pc);
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
    mkdir(dir && *dir ? dir : "findings", 0777);
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

void report_end(void)
{
    char names_buf[512], file[1200];
    const char *env = report_env();
    fprintf(stderr, "  %-14s = %s\n", "cpu features",
            cpu_feature_names(cpu_features(), names_buf, sizeof names_buf));
    /* Everything in the environment that chose what ran goes into the reproduce line. */
    char vlen[32] = "";
#if ARCH_RISCV64
    if (cpu_riscv_vlenb()) snprintf(vlen, sizeof vlen, "--vlen %u ", 8 * cpu_riscv_vlenb());
#endif
    if (!report_current_file && !input_data && report_rerun) {
        /* a case the mode built (kat, exhaustive): the mode itself reproduces it */
        fprintf(stderr, "  %-14s : %s%s\n", "reproduce", env, report_rerun);
    } else {
        if (report_current_file)
            snprintf(file, sizeof file, "%s", report_current_file);
        else if (report_exit_status ? save_input(file, sizeof file)
                                    : libfuzzer_crash_file(file, sizeof file))
            snprintf(file, sizeof file, "<the file libFuzzer names below>");
        if (report_replay_cmd)
            fprintf(stderr, "  %-14s : %s%s %s\n", "reproduce", env, report_replay_cmd, file);
        else
            fprintf(stderr, "  %-14s : %s./asmdiff fuzz %s %s%s\n", "reproduce", env,
                    family_name, vlen, file);
    }
    fflush(stderr);
    n_findings++, n_events++;
    if (report_exit_status) _exit(report_exit_status);
    abort();
}

void report_simple(enum finding kind, const char *who, const char *what)
{
    char title[512];
    if (in_report) { /* a fault inside a report: say so and stop */
        fprintf(stderr, "asmdiff: %s while reporting: %s\n", names[kind], what);
        if (report_exit_status) _exit(report_exit_status);
        abort();
    }
    snprintf(title, sizeof title, "%s: %s", who ? who : "(outside a checked call)", what);
    report_begin(kind, title);
    report_end();
}
