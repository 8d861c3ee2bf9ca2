/* tool_main.c — main() of the plain build, asmdiff-<family>: the family driver without libFuzzer.
 *
 *   asmdiff-<family> replay PATH...     run each file (directories: every file below them)
 *   asmdiff-<family> random N [SEED]    N random inputs of random length (no coverage guidance)
 *   asmdiff-<family> list               implementations, whether this host runs them, and why not
 *   asmdiff-<family> kat [SRCDIR]       published vectors on every implementation
 *   asmdiff-<family> exhaustive         small domains, completely
 *   asmdiff-<family> bench [--csv]      bench-slope table, every implementation side by side;
 *                      [--pair NEW OLD]  and after each operation's rows those two in
 *                                       alternation: old/new per pair (docs/speed.md)
 *   asmdiff-<family> ct N               N random cases, kernels only, secrets undefined: run it
 *                                       under valgrind --error-exitcode=1 (constant time)
 *   asmdiff-<family> bounds PATH...|random N [SEED]
 *                                       our x86-64 kernels inside Unicorn, each buffer mapped
 *                                       alone: byte-exact bounds, ABI, register residue
 *   asmdiff-<family> ct-trace PATH...|random N [SEED]
 *                                       as bounds, and each case again with other secrets: the
 *                                       instruction and access trace must not change
 *   asmdiff-<family> emu-diff PATH...|random N [SEED]
 *                                       each kernel call on the CPU and in the emulator
 *                                       (emu_call): buffers and registers after must agree
 *
 *   asmdiff-<family> checks             the checks asmdiff reports, one line each
 *
 * Before the mode, --json writes the result stream (docs/results.md) to standard output; the
 * human text (summary, list, bench table) then goes to standard error.
 *
 * Exit status: 0 every check passed and something of ours ran; 1 one or more findings (each
 * reported once; the run goes on after each) or a mode that checked nothing it should have; 2 bad usage; 77 this host can run none
 * of the family's kernels (the message names what it lacks); 99 a setup error.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "backend.h"
#include "outside.h"
#include "bench.h"
#include "cpu.h"
#include "driver.h"
#include "records.h"
#include "report.h"
#include "results.h"
#include "rng.h"
#include "stats.h"

static const struct family *const F = &asmdiff_family;

/* Where the human text goes: standard output, or standard error under --json. */
static FILE *human;
static double started;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- the honest summary: what ran, what did not and why, and the verdict ---- */

static int host_lacks(const struct impl *im)
{
    return (im->needs & ~cpu_features_detected()) != 0;
}

/* check: the check that did not report it (allowed-leftover), or NULL */
static void info_record(const char *kind, const char *message, const char *check)
{
    jr_begin("info");
    jr_str("kind", kind);
    jr_str("message", message);
    if (check) jr_str("check", check);
    jr_end();
}

/* The summary record (docs/results.md), once, at the end of a mode that checked cases. */
static void summary_record(const char *what, const char *verdict, int rc, const char *reason,
                           size_t total, size_t ran, size_t emulated, size_t kernels,
                           size_t kernels_ran)
{
    jr_begin("summary");
    jr_str("what", what);
    jr_str("verdict", verdict);
    jr_int("exit", rc);
    jr_str("reason", reason);
    jr_uint("cases", drv_stats.cases);
    jr_uint("calls", drv_stats.calls);
    jr_uint("emulated_calls", drv_stats.emulated_calls);
    jr_uint("compared_calls", drv_emu_compared());
    jr_uint("impls_total", total);
    jr_uint("impls_ran", ran);
    jr_uint("impls_emulated", emulated);
    jr_uint("kernels_total", kernels);
    jr_uint("kernels_ran", kernels_ran);
    jr_uint("findings", report_findings());
    jr_uint("finding_events", report_finding_events());
    jr_num("seconds", now_s() - started);
    jr_end();
}

/* A mode that ends before it checked anything (no input, a skip): its verdict alone. */
static int verdict_only(const char *what, const char *verdict, int rc, const char *reason)
{
    summary_record(what, verdict, rc, reason, 0, 0, 0, 0, 0);
    return rc;
}

/* Prints "<family> <mode>: <what>; ran K of M implementations (skipped: ...)" and returns the
 * exit status: 1 on a finding, when a vector failed, when a kernel that could run here was
 * called on no case (masked away, set aside, or no case was one it takes: the true reason is
 * said), 77 when the host lacks what every kernel needs, else 0.  `what` says what was checked;
 * the summary adds ", no finding" or the number of findings.  own_failures: checks of the
 * family's own failed (exhaustive): `what` is then said as is.  reproducing: the inputs are
 * files a user named (replay FILE...: a finding's file), where a case that some kernel does not
 * take is the file's, not a hole in the mode: an idle kernel beside one that ran is said, not
 * failed. */
static int summary_of(const char *mode, const char *what_checked, int own_failures,
                      int reproducing)
{
    size_t total = 0, ran = 0, kernels = 0, kernels_ran = 0, masked = 0, lacking = 0, emulated = 0;
    size_t aside = 0, idle = 0, refused = 0;
    char skipped[2048] = "", idle_names[512] = "", what[256], reason[700];
    unsigned long long findings = report_findings();
    if (own_failures)
        snprintf(what, sizeof what, "%s", what_checked);
    else if (findings)
        snprintf(what, sizeof what, "%s; %llu finding%s", what_checked, findings,
                 findings == 1 ? "" : "s");
    else
        snprintf(what, sizeof what, "%s, no finding", what_checked);
    /* what the mode tests: our kernels, or (dispatch) the libraries */
    unsigned subject = drv.backend && drv.backend->subject ? drv.backend->subject : IMPL_KERNEL;
    const char *nouns = subject == IMPL_KERNEL ? "kernels" : "libraries";
    for (size_t i = 0; i < drv_nimpls(); i++) {
        const struct impl *im = drv_impl_at(i);
        if (im->flags & IMPL_REFERENCE) continue;
        total++;
        kernels += (im->flags & subject) != 0;
        if (drv_stats.ran[i]) {
            ran++;
            emulated += impl_emulated(im) != 0;
            kernels_ran += (im->flags & subject) != 0;
            continue;
        }
        const char *why = impl_unavailable(im);
        int candidate = im->flags & subject && !(outside_impl() && !(im->flags & IMPL_OUTSIDE));
        /* (in a check build our own kernels never run, mask or not: not candidates) */
        if (!why && drv_stats.refused[i]) {
            /* an outside kernel whose convention's precondition no case met: a stage's n/a,
             * which ./asmdiff check judges over all its stages (never called: a failure) */
            why = "none of the cases met its convention's precondition";
            refused += candidate != 0;
        } else if (!why) {
            why = "no case reached it";
            if (candidate) {
                idle++;
                size_t u = strlen(idle_names);
                snprintf(idle_names + u, sizeof idle_names - u, "%s%s", u ? ", " : "",
                         impl_name(im));
            }
        } else if (candidate && drv_set_aside(im))
            aside++;
        else if (candidate && cpu_unavailable_reason(im->needs))
            host_lacks(im) ? lacking++ : masked++;
        size_t used = strlen(skipped);
        snprintf(skipped + used, sizeof skipped - used, "%s%s because %s", used ? "; " : "",
                 impl_name(im), why);
    }
    fprintf(human, "%s %s: %s; ran %zu of %zu implementations", F->name, mode, what, ran, total);
    if (emulated) fprintf(human, " (%zu of them emulated)", emulated);
    if (*skipped) fprintf(human, " (skipped: %s)", skipped);
    fprintf(human, " — %llu cases, %llu checked calls\n", drv_stats.cases, drv_stats.calls);
    char tally_prefix[160];
    snprintf(tally_prefix, sizeof tally_prefix, "%s %s: ", F->name, mode);
    drv_print_tallies(human, tally_prefix);
    enum finding allowed;
    if (*drv_outside_info(&allowed)) {
        fprintf(human, "%s %s: info: %s\n", F->name, mode, drv_outside_info(NULL));
        info_record("allowed-leftover", drv_outside_info(NULL), finding_name(allowed));
    }
    if (*drv_ct_unjudged()) {
        fprintf(human, "%s %s: info: not judged for constant time: %s\n", F->name, mode,
                drv_ct_unjudged());
        info_record("ct-unjudged", drv_ct_unjudged(), NULL);
    }
    if (*drv_bounds_untabled()) {
        fprintf(human, "%s %s: info: %s\n", F->name, mode, drv_bounds_untabled());
        info_record("bounds-per-table", drv_bounds_untabled(), NULL);
    }
    if (drv.backend && drv.backend->finish) drv.backend->finish();
    for (size_t i = 0; i < drv_nimpls(); i++)
        if (!(drv_impl_at(i)->flags & IMPL_REFERENCE)) drv_record_impl(i, 1);

    const char *verdict = "pass";
    int rc = 0;
    *reason = 0;
    if (findings) {
        verdict = "finding", rc = 1;
    } else if (own_failures) {
        snprintf(reason, sizeof reason, "%d checks of the family's own failed", own_failures);
        verdict = "fail", rc = 1;
    } else if (drv_stats.vector_failures) {
        snprintf(reason, sizeof reason, "%llu published vectors disagree with the reference",
                 drv_stats.vector_failures);
        verdict = "fail", rc = 1;
    } else if (!drv_stats.cases) {
        snprintf(reason, sizeof reason, "no case was checked");
        verdict = "fail", rc = 1;
    } else if (idle && (!kernels_ran || !reproducing)) {
        /* it could run here and was called on no case: whatever else ran, a hole in what was
         * tested (a decoder or convention that never makes its case, a harness that stopped
         * calling it), never a skip */
        snprintf(reason, sizeof reason, "%zu kernel%s could run here and %s called on none of "
                 "the %llu cases: %s", idle, idle == 1 ? "" : "s", idle == 1 ? "was" : "were",
                 drv_stats.cases, idle_names);
        verdict = "fail", rc = 1;
    } else if (kernels && !kernels_ran && masked) {
        snprintf(reason, sizeof reason, "none of the %zu kernels ran: masked away, nothing "
                 "of ours was tested", kernels);
        verdict = "fail", rc = 1;
    } else if (kernels && !kernels_ran && aside) {
        snprintf(reason, sizeof reason, "none of the kernels ran: the %zu this host could run "
                 "%s set aside by ASMDIFF_SET_ASIDE, nothing of ours was tested", aside,
                 aside == 1 ? "was" : "were");
        verdict = "fail", rc = 1;
    } else if (kernels && !kernels_ran && refused) {
        snprintf(reason, sizeof reason, "none of the %llu cases met the convention's "
                 "precondition of the kernel%s here (see above)", drv_stats.cases,
                 refused == 1 ? "" : "s");
        verdict = "skip", rc = 77;
    } else if (kernels && !kernels_ran) {
        snprintf(reason, sizeof reason, "this host runs none of the %zu %s (see above)",
                 kernels, nouns);
        verdict = "skip", rc = 77;
    } else if (!ran) {
        snprintf(reason, sizeof reason, "no implementation ran");
        verdict = "fail", rc = 1;
    }
    if (idle && rc != 1 && reproducing)
        fprintf(human, "%s %s: info: not called on these inputs (each takes cases the files do "
                "not hold): %s\n", F->name, mode, idle_names);
    if (*reason && !own_failures) /* exhaustive's own failures said so already */
        fprintf(human, "%s %s: %s: %s\n", F->name, mode, rc == 77 ? "SKIP" : "FAIL", reason);
    summary_record(what, verdict, rc, *reason ? reason : NULL, total, ran, emulated, kernels,
                   kernels_ran);
    return rc;
}

static int summary(const char *mode, const char *what_checked, int own_failures)
{
    return summary_of(mode, what_checked, own_failures, 0);
}

/* ---- replay and random ---- */

static size_t replayed;

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "asmdiff: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "asmdiff: out of memory reading %s\n", path);
        return -1;
    }
    report_current_file = path;
    drv_one_input(buf, len);
    report_current_file = NULL;
    free(buf);
    replayed++;
    return 0;
}

static int replay_path(const char *path)
{
    struct stat st;
    if (stat(path, &st)) {
        fprintf(stderr, "asmdiff: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) return replay_file(path);
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "asmdiff: %s: %s\n", path, strerror(errno));
        return -1;
    }
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        if (replay_path(sub)) rc = -1;
    }
    closedir(d);
    return rc;
}

static int parse_count(const char *s, unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end || s[0] == '-') return -1;
    *out = v;
    return 0;
}

/* Random inputs of random length from the one generator (rng.h), seeded by seed. */
static void random_inputs(unsigned long long n, unsigned long long seed)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
    if (!x) x = 1; /* xorshift's state must not be 0 */
    uint8_t *buf = malloc(8192);
    if (!buf) {
        fprintf(stderr, "asmdiff: out of memory\n");
        exit(99);
    }
    for (unsigned long long i = 0; i < n; i++) {
        size_t len = (size_t)(rng_next(&x) % 8192);
        rng_fill(&x, buf, len);
        drv_one_input(buf, len);
    }
    free(buf);
}

/* ---- the modes ---- */

struct mode {
    const char *name;
    const char *usage; /* its arguments, for the usage line */
    const struct backend *backend; /* how it runs calls: NULL for the default (native) */
    int (*handler)(const struct mode *m, int argc, char **argv); /* argv[0] is the mode */
    const char *bad_args; /* what it takes, when its arguments are wrong */
    const char *what; /* (emulator modes) how each input was checked, for the summary */
};

static const struct mode modes[];
static const char *argv0;
#define BENCH_PAIR_ARGS 8
/* bench --pair NEW OLD: two implementations timed in alternation after each operation's rows */
static const char *pair_names[BENCH_PAIR_ARGS][2];
static int npairs;
static int bench_table(int csv);
static const struct impl *impl_named(const char *name);

static int usage(void)
{
    fprintf(stderr, "usage: %s [--json] ", argv0);
    for (const struct mode *m = modes; m->name; m++)
        fprintf(stderr, "%s%s%s%s", m == modes ? "" : " | ", m->name, *m->usage ? " " : "",
                m->usage);
    fputc('\n', stderr);
    return 2;
}

static int bad_args(const struct mode *m)
{
    if (m->bad_args) {
        fprintf(stderr, "asmdiff: %s\n", m->bad_args);
        return 2;
    }
    return usage();
}

/* replay PATH... and the emulator modes' file form: every file under the paths; -1 on a path
 * that cannot be read, 0 when none was found (said), else 1. */
static int replay_all(const char *mode, int argc, char **argv)
{
    int bad = 0;
    for (int i = 1; i < argc; i++)
        if (replay_path(argv[i])) bad = 1;
    if (bad) return -1;
    if (!replayed) {
        fprintf(human, "%s %s: FAIL: no input file under %s\n", F->name, mode, argv[1]);
        return 0;
    }
    return 1;
}

/* 1 when every path is a file, none a folder: a user's own inputs (a finding's file), not a
 * corpus */
static int only_files(int argc, char **argv)
{
    struct stat st;
    for (int i = 1; i < argc; i++)
        if (stat(argv[i], &st) || S_ISDIR(st.st_mode)) return 0;
    return 1;
}

static int cmd_replay(const struct mode *m, int argc, char **argv)
{
    if (argc < 2) return usage();
    int r = replay_all(m->name, argc, argv);
    if (r < 0) return 2;
    if (!r) return verdict_only("no input", "fail", 1, "no input file");
    char what[64];
    snprintf(what, sizeof what, "replayed %zu inputs", replayed);
    return summary_of(m->name, what, 0, only_files(argc, argv));
}

/* N [SEED] from argv[from]; -1 when they are not numbers. */
static int count_and_seed(int argc, char **argv, int from, unsigned long long *n,
                          unsigned long long *seed)
{
    if (argc < from + 1 || argc > from + 2 || parse_count(argv[from], n) ||
        (argc == from + 2 && parse_count(argv[from + 1], seed)))
        return -1;
    return 0;
}

static int cmd_random(const struct mode *m, int argc, char **argv)
{
    unsigned long long n, seed = (unsigned long long)time(NULL);
    if (count_and_seed(argc, argv, 1, &n, &seed)) return bad_args(m);
    fprintf(human, "%s: random seed %llu\n", F->name, seed);
    random_inputs(n, seed);
    char what[64];
    snprintf(what, sizeof what, "%llu random inputs", n);
    return summary(m->name, what, 0);
}

static int cmd_ct(const struct mode *m, int argc, char **argv)
{
    unsigned long long n;
    if (argc != 2 || parse_count(argv[1], &n)) return bad_args(m);
    random_inputs(n, 1);
    char what[96];
    snprintf(what, sizeof what, "%llu random cases with the secrets undefined, every kernel", n);
    return summary(m->name, what, 0);
}

/* emu-diff compares a kernel's call on the CPU with the emulator's: of our kernels (and an
 * author's), how many this CPU (under ASMDIFF_CPU_MASK: as masked) runs natively */
static size_t native_kernels(void)
{
    size_t n = 0;
    for (size_t i = 0; i < drv_nimpls(); i++) {
        const struct impl *im = drv_impl_at(i);
        if ((im->flags & IMPL_KERNEL) && !(im->needs & ~cpu_features()) &&
            !(im->unavailable && im->unavailable()))
            n++;
    }
    return n;
}

static int emu_diff_nothing_native(const char *what)
{
    char why[200];
    snprintf(why, sizeof why, "%s runs none of the kernels natively: nothing to compare "
             "the emulator with", cpu_features_masked()
             ? "this CPU, under ASMDIFF_CPU_MASK," : "this CPU");
    fprintf(human, "%s emu-diff: SKIP: %s\n", F->name, why);
    return verdict_only(what, "skip", 77, why);
}

/* every input path there (a missing one is bad input, exit 2, before any skip) */
static int paths_exist(int argc, char **argv, int random)
{
    struct stat st;
    if (random) return 1;
    for (int i = 1; i < argc; i++)
        if (stat(argv[i], &st)) return 0;
    return 1;
}

/* bounds, ct-trace, emu-diff: input files, or random N [SEED] */
static int cmd_emulator(const struct mode *m, int argc, char **argv)
{
    unsigned long long n = 0, seed = 1;
    int random = argc >= 2 && !strcmp(argv[1], "random");
    if (argc < 2 || (random && count_and_seed(argc, argv, 2, &n, &seed))) return bad_args(m);
    /* a finding's input file is checked again by this mode, not by replay */
    static char replay_cmd[1100];
    snprintf(replay_cmd, sizeof replay_cmd, "%s %s", argv0, m->name);
    report_replay_cmd = replay_cmd;
    char what[160];
    /* said before any input runs: emulating every input only to compare nothing took minutes
     * a family on a host without AVX-512 */
    if (m->backend == &backend_emu_diff && !native_kernels() && paths_exist(argc, argv, random))
        return emu_diff_nothing_native(random ? "random inputs, no kernel run natively"
                                              : "inputs, no kernel run natively");
    if (random) {
        fprintf(human, "%s: random seed %llu\n", F->name, seed);
        random_inputs(n, seed);
        snprintf(what, sizeof what, "%llu random inputs %s", n, m->what);
    } else {
        int r = replay_all(m->name, argc, argv);
        if (r < 0) return 2;
        if (!r) return verdict_only("no input", "fail", 1, "no input file");
        snprintf(what, sizeof what, "%zu inputs %s", replayed, m->what);
    }
    int rc = summary_of(m->name, what, 0, !random && only_files(argc, argv));
    if (m->backend == &backend_emu_diff && rc == 0) {
        fprintf(human, "%s emu-diff: %llu kernel calls compared with the CPU, register for "
                "register\n", F->name, drv_emu_compared());
        if (!drv_emu_compared()) {
            /* this CPU runs some of the kernels (said before any input ran): none of their
             * calls was compared, which is a hole, not a skip */
            char why[200];
            snprintf(why, sizeof why, "this CPU runs %zu of the kernels natively and none of "
                     "their calls was compared with the emulator", native_kernels());
            fprintf(human, "%s emu-diff: FAIL: %s\n", F->name, why);
            return verdict_only(what, "fail", 1, why);
        }
    }
    return rc;
}

static int cmd_list(const struct mode *m, int argc, char **argv)
{
    (void)m, (void)argv;
    if (argc != 1) return usage();
    char names[512];
    fprintf(human, "%s  (cpu: %s", F->name, cpu_feature_names(cpu_features(), names, sizeof names));
    if (cpu_features_masked())
        fprintf(human, "; masked: %s",
                cpu_feature_names(cpu_features_masked(), names, sizeof names));
#if defined(__riscv)
    if (cpu_riscv_vlenb()) fprintf(human, "; VLEN %u bits", 8 * cpu_riscv_vlenb());
#endif
    fprintf(human, ")\n");
    size_t total = 0, runs = 0;
    for (size_t i = 0; i < drv_nimpls(); i++) {
        const struct impl *im = drv_impl_at(i);
        const char *why = impl_unavailable(im);
        const char *kind = im->flags & IMPL_REFERENCE ? "reference"
                           : im->flags & IMPL_KERNEL  ? "kernel"
                                                      : "library";
        if (!(im->flags & IMPL_REFERENCE)) total++, runs += !why;
        fprintf(human, "  %-32s %-9s %-8s needs: %-28s", impl_name(im), kind,
                why ? "n/a" : impl_emulated(im) ? "emulated" : "runs",
                im->needs ? cpu_feature_names(im->needs, names, sizeof names) : "-");
        if (why) fprintf(human, " -- %s", why);
        else if (im->flags & IMPL_REFERENCE) fprintf(human, " (authoritative: %s)", F->spec);
        else if (im->describe) fprintf(human, " %s", im->describe());
        fprintf(human, "\n");
        drv_record_impl(i, 0);
    }
    if (F->list_extra) F->list_extra(human);
    for (size_t i = 0; drv_convention_at(i); i++) { /* what ./asmdiff check accepts */
        const struct convention *cv = drv_convention_at(i);
        fprintf(human, "  convention %-10s %s\n", cv->name, cv->prototype);
        jr_begin("convention");
        jr_str("name", cv->name);
        jr_str("prototype", cv->prototype);
        jr_list_begin("ops");
        for (size_t op = 0; op < cv->nops; op++) jr_str(NULL, conv_op_name(cv, op));
        jr_list_end();
        jr_end();
    }
    fprintf(human, "  %zu of %zu implementations run here\n", runs, total);
    return 0;
}

static int cmd_kat(const struct mode *m, int argc, char **argv)
{
    if (argc > 2) return usage();
    if (!F->kat) {
        fprintf(stderr, "%s: no known-answer vectors\n", F->name);
        return verdict_only("no vectors", "skip", 77, "the family has no known-answer vectors");
    }
    int vectors = F->kat(argc == 2 ? argv[1] : ".");
    if (vectors < 0) return 2; /* the vector file is not where SRCDIR says */
    if (!vectors) {
        fprintf(human, "%s kat: FAIL: no vector was read\n", F->name);
        return verdict_only("no vectors", "fail", 1, "no vector was read");
    }
    char what[64];
    snprintf(what, sizeof what, "%d published vectors", vectors);
    return summary(m->name, what, 0);
}

static int cmd_exhaustive(const struct mode *m, int argc, char **argv)
{
    (void)argv;
    if (argc != 1) return usage();
    if (!F->exhaustive) {
        fprintf(stderr, "%s: no exhaustive check\n", F->name);
        return verdict_only("nothing", "skip", 77, "the family has no exhaustive check");
    }
    int fails = F->exhaustive();
    return summary(m->name, fails ? "FAILED" : "every case of the domain", fails);
}

static int cmd_bench(const struct mode *m, int argc, char **argv)
{
    (void)m;
    int csv = 0, mhz_only = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--csv")) csv = 1;
        else if (!strcmp(argv[i], "--mhz-only")) mhz_only = 1;
        else if (!strcmp(argv[i], "--cpu-mhz")) {
            double mhz;
            if (i + 1 == argc || bench_parse_mhz(argv[i + 1], &mhz)) {
                fprintf(stderr, "asmdiff: bench: --cpu-mhz needs the clock in MHz, a number "
                        "from 400 to 8000%s%s%s\n", i + 1 < argc ? " (got '" : "",
                        i + 1 < argc ? argv[i + 1] : "", i + 1 < argc ? "')" : "");
                return 2;
            }
            bench_set_mhz(mhz);
            i++;
        } else if (!strcmp(argv[i], "--pair")) {
            if (i + 2 >= argc || npairs == BENCH_PAIR_ARGS) {
                fprintf(stderr, "asmdiff: bench: --pair needs two implementations' names (NEW "
                        "OLD), up to %d pairs\n", BENCH_PAIR_ARGS);
                return 2;
            }
            pair_names[npairs][0] = argv[i + 1];
            pair_names[npairs][1] = argv[i + 2];
            npairs++;
            i += 2;
        } else {
            fprintf(stderr, "asmdiff: bench: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (mhz_only) {
        /* the clock this process's rows would use: ./asmdiff bench estimates once this way */
        double mhz = bench_mhz();
        if (!(mhz > 0)) return 1; /* bench_mhz said why */
        printf("%.0f\n", mhz);
        return 0;
    }
    drv_benching = 1; /* in a check build, ours beside the outside kernels */
    for (int p = 0; p < npairs; p++)
        for (int k = 0; k < 2; k++)
            if (!impl_named(pair_names[p][k])) {
                fprintf(stderr, "asmdiff: bench: --pair: %s has no implementation named '%s' "
                        "(asmdiff-%s list names them)\n", F->name, pair_names[p][k], F->name);
                return 2;
            }
    return bench_table(csv);
}

static int cmd_checks(const struct mode *m, int argc, char **argv)
{
    (void)m, (void)argv;
    if (argc != 1) return usage();
    static const char *const describe[FINDING_COUNT] = {
#define CHECK(e, name, heading, row, text) text,
#include "checks.def"
#undef CHECK
    };
    for (int k = 0; k < FINDING_COUNT; k++) {
        fprintf(human, "  %-15s %-26s %s\n", finding_name((enum finding)k),
                finding_heading((enum finding)k), describe[k]);
        jr_begin("check-kind");
        jr_str("name", finding_name((enum finding)k));
        jr_str("heading", finding_heading((enum finding)k));
        jr_str("describe", describe[k]);
        jr_end();
    }
    return 0;
}

/* coverage: the emulator modes' inputs, or the cases kat and exhaustive build, each kernel call
 * observed in the emulator (backend_coverage.c) */
static int cmd_coverage(const struct mode *m, int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "kat")) return cmd_kat(m, argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "exhaustive")) return cmd_exhaustive(m, argc - 1, argv + 1);
    return cmd_emulator(m, argc, argv);
}

static const struct mode modes[] = {
    {"replay", "PATH...", NULL, cmd_replay, NULL, NULL},
    {"random", "N [SEED]", NULL, cmd_random,
     "random takes a count and an optional seed (numbers)", NULL},
    {"list", "", NULL, cmd_list, NULL, NULL},
    {"kat", "[SRCDIR]", NULL, cmd_kat, NULL, NULL},
    {"exhaustive", "", NULL, cmd_exhaustive, NULL, NULL},
    {"bench", "[--csv] [--cpu-mhz MHZ] [--mhz-only] [--pair NEW OLD]...", NULL, cmd_bench, NULL, NULL},
    {"ct", "N", &backend_valgrind, cmd_ct,
     "ct takes a count of random cases (run it under valgrind)", NULL},
    {"bounds", "(PATH... | random N [SEED])", &backend_bounds, cmd_emulator,
     "bounds takes input files or directories, or 'random N [SEED]'", "in Unicorn"},
    {"ct-trace", "(PATH... | random N [SEED])", &backend_trace, cmd_emulator,
     "ct-trace takes input files or directories, or 'random N [SEED]'",
     "in Unicorn, each twice with different secrets"},
    {"emu-diff", "(PATH... | random N [SEED])", &backend_emu_diff, cmd_emulator,
     "emu-diff takes input files or directories, or 'random N [SEED]'",
     "on the CPU and emulated"},
    {"coverage", "(PATH... | random N [SEED] | kat [SRCDIR] | exhaustive)", &backend_coverage,
     cmd_coverage, "coverage takes input files or directories, 'random N [SEED]', 'kat [SRCDIR]' "
     "or 'exhaustive'", "in the emulator for coverage, then checked as in replay"},
    {"isa", "(PATH... | random N [SEED] | kat [SRCDIR])", &backend_isa, cmd_coverage,
     "isa takes input files or directories, 'random N [SEED]' or 'kat [SRCDIR]'",
     "each kernel emulated with only the CPU features it declares"},
    {"dispatch", "(PATH... | random N [SEED] | kat [SRCDIR])", &backend_dispatch, cmd_coverage,
     "dispatch takes input files or directories, 'random N [SEED]' or 'kat [SRCDIR]'",
     "each library natively, on the path its own CPU dispatch chooses"},
    {"checks", "", NULL, cmd_checks, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv)
{
    argv0 = argv[0];
    human = stdout;
    started = now_s();
    int first = 1;
    if (argc > 1 && !strcmp(argv[1], "--json")) {
        results_to_stdout();
        human = stderr;
        first = 2;
    }
    if (argc <= first) return usage();
    cpu_features(); /* validates ASMDIFF_CPU_MASK before anything runs */
    report_set_policy(&report_go_on);
    const char *cmd = argv[first];
    static char rerun[1024];
    int used = 0;
    for (int i = 0; i < argc && used < (int)sizeof rerun; i++)
        used += snprintf(rerun + used, sizeof rerun - (size_t)used, "%s%s", i ? " " : "", argv[i]);
    report_rerun = rerun;

    const struct mode *m = modes;
    while (m->name && strcmp(m->name, cmd)) m++;
    if (!m->name) {
        fprintf(stderr, "asmdiff: unknown command '%s'\n", cmd);
        return usage();
    }
    results_init(argv[0], F->name, m->name);
    drv_record_start(argc, argv);
    if (m->backend) {
        const char *why;
        if (drv_use_backend(m->backend, &why)) {
            fprintf(human, "%s %s: SKIP: %s\n", F->name, cmd, why);
            return verdict_only("nothing", "skip", 77, why);
        }
    }
    return m->handler(m, argc - first, argv + first);
}
/* ---- bench ---- */

struct bench_ctx {
    const struct impl *im;
    size_t op;
    uint8_t *buf;
};

static void bench_thunk(void *ctx, size_t bytes)
{
    struct bench_ctx *b = ctx;
    F->bench_run(b->im, b->op, b->buf, bytes);
}

#define EMULATED_BENCH_BYTES 1024

/* A kernel this CPU cannot run (or the mask hides): the family's bench_run itself runs in the
 * emulator (it calls the kernel), so the row is the emulator's speed, never the CPU's. */
static int bench_emulated(struct bench_ctx *b, size_t bytes, char *err, size_t errlen)
{
    uint64_t argv[4] = {(uint64_t)(uintptr_t)b->im, b->op, (uint64_t)(uintptr_t)b->buf, bytes};
    uint64_t ret = 0;
    if (emulated_plain_call((const void *)(uintptr_t)F->bench_run, argv, 4, &ret, err, errlen))
        return -1;
    return (int)(int32_t)ret < 0 ? 1 : 0;
}

static void bench_thunk_emulated(void *ctx, size_t bytes)
{
    char err[320];
    (void)bench_emulated(ctx, bytes, err, sizeof err);
}

static const struct impl *impl_named(const char *name)
{
    for (size_t i = 0; i < drv_nimpls(); i++)
        if (!strcmp(impl_name(drv_impl_at(i)), name)) return drv_impl_at(i);
    return NULL;
}

/* Why the pair cannot be timed in alternation for this operation here, NULL when it can; *skip
 * set when one of them has no such operation (no line, as the table has no row). */
static const char *pair_unmeasurable(const struct impl *const im[2], const char *const name[2],
                                     size_t op, uint8_t *buf, int *skip, char *why, size_t len)
{
    *skip = 0;
    for (int k = 0; k < 2; k++) {
        const char *no = impl_unavailable(im[k]);
        if (!no && impl_emulated(im[k])) no = "emulated here: the emulator's speed, not the CPU's";
        if (no) {
            snprintf(why, len, "%s: %s", name[k], no);
            return why;
        }
    }
    for (int k = 0; k < 2; k++)
        if (F->bench_run(im[k], op, buf, F->bench_ops[op].unit) < 0) {
            *skip = 1;
            return "";
        }
    return NULL;
}

static void bench_pairs_of(size_t op, uint8_t *buf, int csv)
{
    const struct bench_op *o = &F->bench_ops[op];
    for (int p = 0; p < npairs; p++) {
        const struct impl *im[2] = {impl_named(pair_names[p][0]), impl_named(pair_names[p][1])};
        char why[400];
        int skip;
        const char *no = pair_unmeasurable(im, pair_names[p], op, buf, &skip, why, sizeof why);
        if (skip) continue;
        if (no) {
            bench_table_pairs(human, pair_names[p][0], pair_names[p][1], o->name, NULL, no, csv);
            continue;
        }
        struct bench_ctx b[2] = {{im[0], op, buf}, {im[1], op, buf}};
        struct bench_pairs r;
        bench_pairs(bench_thunk, &b[0], bench_thunk, &b[1], o->unit, o->max_bytes, &r);
        bench_table_pairs(human, pair_names[p][0], pair_names[p][1], o->name, &r, NULL, csv);
    }
}

static int bench_table(int csv)
{
    size_t max = 0;
    for (size_t op = 0; op < F->nbench_ops; op++)
        if (F->bench_ops[op].max_bytes > max) max = F->bench_ops[op].max_bytes;
    uint8_t *buf = malloc(max + 64);
    for (size_t i = 0; i < max; i++) buf[i] = (uint8_t)(i * 7 + 1);
    bench_table_begin(human, F->name, csv);
    size_t rows = 0;
    for (size_t op = 0; op < F->nbench_ops; op++) {
        const struct bench_op *o = &F->bench_ops[op];
        if (F->bench_setup) F->bench_setup(op);
        for (size_t i = 0; i < drv_nimpls(); i++) {
            const struct impl *im = drv_impl_at(i);
            const char *why = impl_unavailable(im);
            if (why) {
                bench_table_na(human, F->name, impl_name(im), o->name, why, csv);
                continue;
            }
            struct bench_ctx b = {im, op, buf};
            if (impl_emulated(im)) {
                char err[320];
                int rc = bench_emulated(&b, o->unit, err, sizeof err);
                bench_table_emulated(1);
                if (rc < 0) bench_table_na(human, F->name, impl_name(im), o->name, err, csv);
                if (rc) { /* failed, or no such operation */
                    bench_table_emulated(0);
                    continue;
                }
                /* one size, 1 KiB calls (or the unit's nearest multiple): the fuzzer's call
                 * size, per-call overhead included, and a row in a second, not minutes */
                size_t call = o->unit >= EMULATED_BENCH_BYTES ? o->unit
                              : EMULATED_BENCH_BYTES / o->unit * o->unit;
                if (call > o->max_bytes) call = o->max_bytes;
                struct bench_result r = bench_slope(bench_thunk_emulated, &b, call, call);
                bench_table_row(human, F->name, impl_name(im), o->name, &r, csv);
                bench_table_emulated(0);
                rows++;
                continue;
            }
            if (F->bench_run(im, op, buf, o->unit) < 0) continue; /* no such operation */
            struct bench_result r = bench_slope(bench_thunk, &b, o->unit, o->max_bytes);
            bench_table_row(human, F->name, impl_name(im), o->name, &r, csv);
            rows++;
        }
        bench_pairs_of(op, buf, csv);
    }
    bench_table_end(human, csv);
    free(buf);
    if (!rows) {
        fprintf(stderr, "%s bench: nothing could be measured here\n", F->name);
        return 1;
    }
    return 0;
}

