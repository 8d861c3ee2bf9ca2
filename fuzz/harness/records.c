/* records.c — the driver's records in the result stream (docs/results.md): the start of a
 * run, and one implementation as list, a run's end and a fuzzer's start describe it.  Both
 * programs (asmdiff-<family>, fuzz_<family>) write them through here, so they agree. */
#include <stdio.h>
#include <string.h>

#include "asmdiff-config.h"
#include "backend.h"
#include "outside.h"
#include "cpu.h"
#include "records.h"
#include "report.h"
#include "results.h"
#include "stats.h"

void drv_record_start(int argc, char **argv)
{
    char names[512];
    jr_begin("start");
    jr_list_begin("argv");
    for (int i = 0; i < argc; i++) jr_str(NULL, argv[i]);
    jr_list_end();
    jr_str("cpu", cpu_feature_names(cpu_features(), names, sizeof names));
    jr_str("detected", cpu_feature_names(cpu_features_detected(), names, sizeof names));
    jr_str("masked", cpu_features_masked()
                         ? cpu_feature_names(cpu_features_masked(), names, sizeof names)
                         : "");
    jr_str("env", report_env());
#if ARCH_RISCV64
    if (cpu_riscv_vlenb()) jr_uint("vlen", 8ull * cpu_riscv_vlenb()); /* bits */
#endif
    jr_end();
}

const char *drv_impl_kind(const struct impl *im)
{
    return im->flags & IMPL_REFERENCE ? "reference"
           : im->flags & IMPL_OUTSIDE ? "outside"
           : im->flags & IMPL_KERNEL  ? "kernel"
                                      : "library";
}

/* "a, b" as a list */
static void comma_list(const char *key, const char *s)
{
    jr_list_begin(key);
    while (s && *s) {
        size_t n = strcspn(s, ",");
        char item[128];
        const char *p = s;
        while (*p == ' ') p++, n--;
        snprintf(item, sizeof item, "%.*s", (int)n, p);
        if (*item && strcmp(item, "none") && strcmp(item, "all")) jr_str(NULL, item);
        s += (size_t)(p - s) + n;
        if (*s == ',') s++;
    }
    jr_list_end();
}

void drv_record_impl(size_t i, int with_counts)
{
    const struct impl *im = drv_impl_at(i);
    const char *why = impl_unavailable(im);
    char names[512];
    jr_begin("impl");
    jr_str("name", impl_name(im));
    jr_str("kind", drv_impl_kind(im));
    jr_str("needs", im->needs ? cpu_feature_names(im->needs, names, sizeof names) : "");
    jr_bool("available", !why);
    jr_bool("emulated", !why && impl_emulated(im));
    jr_str("reason", why);
    if (with_counts) {
        jr_uint("cases", drv_stats.ran[i]);
        jr_uint("skipped_cases", drv_stats.skipped[i]);
        jr_uint("refused_cases", drv_stats.refused[i]);
        jr_uint("calls", drv_stats.impl_calls[i]);
    } else {
        jr_null("cases");
        jr_null("skipped_cases");
        jr_null("refused_cases");
        jr_null("calls");
    }
    jr_str("describe", im->describe ? im->describe() : NULL);
    if (im->version) jr_str("version", im->version());
    if (im->hwf) {
        jr_list_begin("hwf");
        for (const char *p = im->hwf(); *p;) {
            size_t n = strcspn(p, " ");
            char item[128];
            snprintf(item, sizeof item, "%.*s", (int)n, p);
            if (n) jr_str(NULL, item);
            p += n + (p[n] == ' ');
        }
        jr_list_end();
    }
    if (im->flags & IMPL_OUTSIDE) {
        const struct outside_kernel *k = outside_kernel_of(im);
        jr_str("source", k->source);
        jr_str("convention", k->convention);
        jr_str("symbol", k->symbol);
        comma_list("covers", outside_covers(im));
        comma_list("not_covered", outside_not_covered(im));
    }
    jr_end();
}

void drv_record_impls_at_exit(void)
{
    for (size_t i = 0; i < drv_nimpls(); i++)
        if (!(drv_impl_at(i)->flags & IMPL_REFERENCE)) drv_record_impl(i, 1);
}
