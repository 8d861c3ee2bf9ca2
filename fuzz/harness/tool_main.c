/* tool_main.c — main() of the plain build, asmdiff-<family>: the fuzz target without libFuzzer.
 *
 *   asmdiff-<family> replay PATH...     run each file (directories: every file below them)
 *   asmdiff-<family> random N [SEED]    N random inputs of random length (no coverage guidance)
 *   asmdiff-<family> list               implementations, whether this host runs them, and why not
 *   asmdiff-<family> kat [SRCDIR]       published vectors on every implementation
 *   asmdiff-<family> exhaustive         small domains, completely
 *   asmdiff-<family> bench [--csv]      bench-slope table
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cpu.h"
#include "family.h"
#include "report.h"

static int usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s replay PATH... | random N [SEED] | list | kat [SRCDIR] | exhaustive | "
            "bench [--csv]\n",
            argv0);
    return 2;
}

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
    asmdiff_family.one_input(buf, len);
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

static int cmd_random(unsigned long long n, unsigned long long seed)
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
        asmdiff_family.one_input(buf, len);
    }
    free(buf);
    printf("%s: %llu random inputs, no mismatch\n", asmdiff_family.name, n);
    return 0;
}

static int cmd_list(void)
{
    char names[512];
    printf("%s  (cpu: %s", asmdiff_family.name,
           cpu_feature_names(cpu_features(), names, sizeof names));
    if (cpu_features_masked())
        printf("; masked: %s", cpu_feature_names(cpu_features_masked(), names, sizeof names));
    printf(")\n");
    for (size_t i = 0; i < asmdiff_family.nimpls; i++) {
        const struct impl_info *info = asmdiff_family.impl(i);
        const char *why = impl_unavailable(info);
        printf("  %-28s %-10s needs: %s%s%s\n", info->name, why ? "n/a" : "runs",
               info->needs ? cpu_feature_names(info->needs, names, sizeof names) : "-",
               why ? "  -- " : "", why ? why : "");
    }
    if (asmdiff_family.list_extra) asmdiff_family.list_extra(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage(argv[0]);
    cpu_features(); /* validates ASMDIFF_CPU_MASK before anything runs */
    const char *cmd = argv[1];

    if (!strcmp(cmd, "replay")) {
        if (argc < 3) return usage(argv[0]);
        int rc = 0;
        for (int i = 2; i < argc; i++)
            if (replay_path(argv[i])) rc = 2;
        printf("%s: replayed %zu inputs, no mismatch\n", asmdiff_family.name, replayed);
        return rc;
    }
    if (!strcmp(cmd, "random")) {
        unsigned long long n, seed = (unsigned long long)time(NULL);
        if (argc < 3 || argc > 4 || parse_count(argv[2], &n) ||
            (argc == 4 && parse_count(argv[3], &seed))) {
            fprintf(stderr, "asmdiff: random takes a count and an optional seed (numbers)\n");
            return 2;
        }
        printf("%s: random seed %llu\n", asmdiff_family.name, seed);
        return cmd_random(n, seed);
    }
    if (!strcmp(cmd, "list") && argc == 2) return cmd_list();
    if (!strcmp(cmd, "kat") && argc <= 3) {
        if (!asmdiff_family.kat) {
            fprintf(stderr, "%s: no known-answer vectors\n", asmdiff_family.name);
            return 77;
        }
        int fails = asmdiff_family.kat(argc == 3 ? argv[2] : ".");
        return fails ? 1 : 0;
    }
    if (!strcmp(cmd, "exhaustive") && argc == 2) {
        if (!asmdiff_family.exhaustive) {
            fprintf(stderr, "%s: no exhaustive check\n", asmdiff_family.name);
            return 77;
        }
        return asmdiff_family.exhaustive() ? 1 : 0;
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
        return asmdiff_family.bench(stdout, csv);
    }
    fprintf(stderr, "asmdiff: unknown command '%s'\n", cmd);
    return usage(argv[0]);
}
