/* tool_main.c — main() of the plain build, asmdiff-<family>: the family driver without libFuzzer.
 *
 *   asmdiff-<family> replay PATH...     run each file (directories: every file below them)
 *   asmdiff-<family> random N [SEED]    N random inputs of random length (no coverage guidance)
 *   asmdiff-<family> list               implementations, whether this host runs them, and why not
 *   asmdiff-<family> kat [SRCDIR]       published vectors on every implementation
 *   asmdiff-<family> exhaustive         small domains, completely
 *   asmdiff-<family> bench [--csv]      bench-slope table, every implementation side by side
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
 * Exit status: 0 every check passed and something of ours ran; 1 a finding (the report says
 * which) or a mode that checked nothing it should have; 2 bad usage; 77 this host can run none
 * of the family's kernels (the message names what it lacks); 99 a setup error.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench.h"
#include "cpu.h"
#include "driver.h"
#include "report.h"
#include "stats.h"

static const struct family *const F = &asmdiff_family;

static int usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s replay PATH... | random N [SEED] | list | kat [SRCDIR] | exhaustive | "
            "bench [--csv] | ct N | bounds (PATH... | random N [SEED]) | "
            "ct-trace (PATH... | random N [SEED]) | emu-diff (PATH... | random N [SEED])\n",
            argv0);
    return 2;
}

/* ---- the honest summary: what ran, what did not and why, and the verdict ---- */

static int host_lacks(const struct impl *im)
{
    return (im->needs & ~cpu_features_detected()) != 0;
}

/* Prints "<family> <mode>: <what>; ran K of M implementations (skipped: ...)" and returns the
 * exit status: 1 when a vector failed or nothing of ours ran although the host could run it
 * (masked away), 77 when the host lacks what every kernel needs, else 0. */
static int summary(const char *mode, const char *what)
{
    size_t total = 0, ran = 0, kernels = 0, kernels_ran = 0, masked = 0, lacking = 0, emulated = 0;
    char skipped[2048] = "";
    for (size_t i = 0; i < drv_nimpls(); i++) {
        const struct impl *im = drv_impl_at(i);
        if (im->flags & IMPL_REFERENCE) continue;
        total++;
        kernels += (im->flags & IMPL_KERNEL) != 0;
        if (drv_stats.ran[i]) {
            ran++;
            emulated += impl_emulated(im) != 0;
            kernels_ran += (im->flags & IMPL_KERNEL) != 0;
            continue;
        }
        const char *why = impl_unavailable(im);
        if (!why) why = "no case reached it";
        else if (im->flags & IMPL_KERNEL && cpu_unavailable_reason(im->needs))
            host_lacks(im) ? lacking++ : masked++;
        size_t used = strlen(skipped);
        snprintf(skipped + used, sizeof skipped - used, "%s%s because %s", used ? "; " : "",
                 impl_name(im), why);
    }
    printf("%s %s: %s; ran %zu of %zu implementations", F->name, mode, what, ran, total);
    if (emulated) printf(" (%zu of them emulated)", emulated);
    if (*skipped) printf(" (skipped: %s)", skipped);
    printf(" — %llu cases, %llu checked calls\n", drv_stats.cases, drv_stats.calls);
    if (*drv_outside_info()) printf("%s %s: info: %s\n", F->name, mode, drv_outside_info());
    if (*drv_ct_unjudged())
        printf("%s %s: info: not judged for constant time: %s\n", F->name, mode,
               drv_ct_unjudged());
    if (drv_stats.vector_failures) {
        printf("%s %s: FAIL: %llu published vectors disagree with the reference\n", F->name, mode,
               drv_stats.vector_failures);
        return 1;
    }
    if (!drv_stats.cases) {
        printf("%s %s: FAIL: no case was checked\n", F->name, mode);
        return 1;
    }
    if (kernels && !kernels_ran) {
        if (masked) {
            printf("%s %s: FAIL: none of the %zu kernels ran: masked away, nothing of ours was "
                   "tested\n", F->name, mode, kernels);
            return 1;
        }
        if (!lacking) {
            /* they could run: no case was one they take (an outside kernel's precondition) */
            printf("%s %s: SKIP: none of the %llu cases was one the kernels here accept (see "
                   "above)\n", F->name, mode, drv_stats.cases);
            return 77;
        }
        printf("%s %s: SKIP: this host runs none of the %zu kernels (see above)\n", F->name, mode,
               kernels);
        return 77;
    }
    if (!ran) {
        printf("%s %s: FAIL: no implementation ran\n", F->name, mode);
        return 1;
    }
    return 0;
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

static void random_inputs(unsigned long long n, unsigned long long seed)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
    uint8_t *buf = malloc(8192);
    for (unsigned long long i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t len = (size_t)(x % 8192);
        for (size_t j = 0; j < len; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            buf[j] = (uint8_t)(x >> 32);
        }
        drv_one_input(buf, len);
    }
    free(buf);
}

/* ---- list ---- */

static int cmd_list(void)
{
    char names[512];
    printf("%s  (cpu: %s", F->name, cpu_feature_names(cpu_features(), names, sizeof names));
    if (cpu_features_masked())
        printf("; masked: %s", cpu_feature_names(cpu_features_masked(), names, sizeof names));
#if defined(__riscv)
    if (cpu_riscv_vlenb()) printf("; VLEN %u bits", 8 * cpu_riscv_vlenb());
#endif
    printf(")\n");
    size_t total = 0, runs = 0;
    for (size_t i = 0; i < drv_nimpls(); i++) {
        const struct impl *im = drv_impl_at(i);
        const char *why = impl_unavailable(im);
        const char *kind = im->flags & IMPL_REFERENCE ? "reference"
                           : im->flags & IMPL_KERNEL  ? "kernel"
                                                      : "library";
        if (!(im->flags & IMPL_REFERENCE)) total++, runs += !why;
        printf("  %-32s %-9s %-8s needs: %-28s", impl_name(im), kind,
               why ? "n/a" : impl_emulated(im) ? "emulated" : "runs",
               im->needs ? cpu_feature_names(im->needs, names, sizeof names) : "-");
        if (why) printf(" -- %s", why);
        else if (im->flags & IMPL_REFERENCE) printf(" (authoritative: %s)", F->spec);
        else if (im->describe) printf(" %s", im->describe());
        printf("\n");
    }
    if (F->list_extra) F->list_extra(stdout);
    for (size_t i = 0; i < F->nconventions; i++) /* what ./asmdiff check accepts */
        printf("  convention %-10s %s\n", F->conventions[i].name, F->conventions[i].prototype);
    printf("  %zu of %zu implementations run here\n", runs, total);
    return 0;
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

static int cmd_bench(int csv)
{
    size_t max = 0;
    for (size_t op = 0; op < F->nbench_ops; op++)
        if (F->bench_ops[op].max_bytes > max) max = F->bench_ops[op].max_bytes;
    uint8_t *buf = malloc(max + 64);
    for (size_t i = 0; i < max; i++) buf[i] = (uint8_t)(i * 7 + 1);
    bench_table_begin(stdout, F->name, csv);
    size_t rows = 0;
    for (size_t op = 0; op < F->nbench_ops; op++) {
        const struct bench_op *o = &F->bench_ops[op];
        if (F->bench_setup) F->bench_setup(op);
        for (size_t i = 0; i < drv_nimpls(); i++) {
            const struct impl *im = drv_impl_at(i);
            const char *why = impl_unavailable(im);
            if (why) {
                bench_table_na(stdout, F->name, impl_name(im), o->name, why, csv);
                continue;
            }
            if (F->bench_run(im, op, buf, o->unit) < 0) continue; /* no such operation */
            struct bench_ctx b = {im, op, buf};
            struct bench_result r = bench_slope(bench_thunk, &b, o->unit, o->max_bytes);
            bench_table_row(stdout, F->name, impl_name(im), o->name, &r, csv);
            rows++;
        }
    }
    bench_table_end(stdout, csv);
    free(buf);
    if (!rows) {
        fprintf(stderr, "%s bench: nothing could be measured here\n", F->name);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage(argv[0]);
    cpu_features(); /* validates ASMDIFF_CPU_MASK before anything runs */
    report_exit_status = 1;
    const char *cmd = argv[1];
    static char rerun[1024];
    int used = 0;
    for (int i = 0; i < argc && used < (int)sizeof rerun; i++)
        used += snprintf(rerun + used, sizeof rerun - (size_t)used, "%s%s", i ? " " : "", argv[i]);
    report_rerun = rerun;

    if (!strcmp(cmd, "replay")) {
        if (argc < 3) return usage(argv[0]);
        int bad = 0;
        for (int i = 2; i < argc; i++)
            if (replay_path(argv[i])) bad = 1;
        if (bad) return 2;
        char what[64];
        snprintf(what, sizeof what, "replayed %zu inputs, no finding", replayed);
        if (!replayed) {
            printf("%s replay: FAIL: no input file under %s\n", F->name, argv[2]);
            return 1;
        }
        return summary("replay", what);
    }
    if (!strcmp(cmd, "random")) {
        unsigned long long n, seed = (unsigned long long)time(NULL);
        if (argc < 3 || argc > 4 || parse_count(argv[2], &n) ||
            (argc == 4 && parse_count(argv[3], &seed))) {
            fprintf(stderr, "asmdiff: random takes a count and an optional seed (numbers)\n");
            return 2;
        }
        printf("%s: random seed %llu\n", F->name, seed);
        random_inputs(n, seed);
        char what[64];
        snprintf(what, sizeof what, "%llu random inputs, no finding", n);
        return summary("random", what);
    }
    if (!strcmp(cmd, "ct")) {
        unsigned long long n;
        if (argc != 3 || parse_count(argv[2], &n)) {
            fprintf(stderr, "asmdiff: ct takes a count of random cases (run it under valgrind)\n");
            return 2;
        }
        drv_set_ct(1);
        random_inputs(n, 1);
        char what[96];
        snprintf(what, sizeof what, "%llu random cases with the secrets undefined, every kernel",
                 n);
        return summary("ct", what);
    }
    if (!strcmp(cmd, "bounds") || !strcmp(cmd, "ct-trace") || !strcmp(cmd, "emu-diff")) {
        int trace = !strcmp(cmd, "ct-trace"), diff = !strcmp(cmd, "emu-diff");
        unsigned long long n = 0, seed = 1;
        int random = argc >= 3 && !strcmp(argv[2], "random");
        if (argc < 3 || (random && (argc < 4 || argc > 5 || parse_count(argv[3], &n) ||
                                    (argc == 5 && parse_count(argv[4], &seed))))) {
            fprintf(stderr, "asmdiff: %s takes input files or directories, or 'random N "
                            "[SEED]'\n", cmd);
            return 2;
        }
        const char *why;
        if (drv_set_unicorn(diff ? DRV_EMU_DIFF : trace ? DRV_UC_TRACE : DRV_UC_BOUNDS, &why)) {
            printf("%s %s: SKIP: %s\n", F->name, cmd, why);
            return 77;
        }
        /* a finding's input file is checked again by this mode, not by replay */
        static char replay_cmd[1100];
        snprintf(replay_cmd, sizeof replay_cmd, "%s %s", argv[0], cmd);
        report_replay_cmd = replay_cmd;
        char what[160];
        if (random) {
            printf("%s: random seed %llu\n", F->name, seed);
            random_inputs(n, seed);
            snprintf(what, sizeof what, "%llu random inputs %s, no finding", n, diff
                     ? "on the CPU and emulated" : trace ? "in Unicorn, each twice with "
                     "different secrets" : "in Unicorn");
        } else {
            int bad = 0;
            for (int i = 2; i < argc; i++)
                if (replay_path(argv[i])) bad = 1;
            if (bad) return 2;
            if (!replayed) {
                printf("%s %s: FAIL: no input file under %s\n", F->name, cmd, argv[2]);
                return 1;
            }
            snprintf(what, sizeof what, "%zu inputs %s, no finding", replayed, diff
                     ? "on the CPU and emulated" : trace ? "in Unicorn, each twice with "
                     "different secrets" : "in Unicorn");
        }
        int rc = summary(cmd, what);
        if (diff && rc == 0) {
            printf("%s emu-diff: %llu kernel calls compared with the CPU, register for register\n",
                   F->name, drv_emu_compared());
            if (!drv_emu_compared()) {
                printf("%s emu-diff: SKIP: %s runs none of the kernels natively: nothing to "
                       "compare the emulator with\n", F->name,
                       cpu_features_masked() ? "this CPU, under ASMDIFF_CPU_MASK," : "this CPU");
                return 77;
            }
        }
        return rc;
    }
    if (!strcmp(cmd, "list") && argc == 2) return cmd_list();
    if (!strcmp(cmd, "kat") && argc <= 3) {
        if (!F->kat) {
            fprintf(stderr, "%s: no known-answer vectors\n", F->name);
            return 77;
        }
        int vectors = F->kat(argc == 3 ? argv[2] : ".");
        if (vectors < 0) return 2; /* the vector file is not where SRCDIR says */
        char what[64];
        snprintf(what, sizeof what, "%d published vectors, no finding", vectors);
        if (!vectors) {
            printf("%s kat: FAIL: no vector was read\n", F->name);
            return 1;
        }
        return summary("kat", what);
    }
    if (!strcmp(cmd, "exhaustive") && argc == 2) {
        if (!F->exhaustive) {
            fprintf(stderr, "%s: no exhaustive check\n", F->name);
            return 77;
        }
        int fails = F->exhaustive();
        int rc = summary("exhaustive", fails ? "FAILED" : "every case of the domain, no finding");
        return fails ? 1 : rc;
    }
    if (!strcmp(cmd, "bench")) {
        int csv = 0;
        for (int i = 2; i < argc; i++) {
            if (!strcmp(argv[i], "--csv")) csv = 1;
            else {
                fprintf(stderr, "asmdiff: bench: unknown argument '%s'\n", argv[i]);
                return 2;
            }
        }
        return cmd_bench(csv);
    }
    fprintf(stderr, "asmdiff: unknown command '%s'\n", cmd);
    return usage(argv[0]);
}
