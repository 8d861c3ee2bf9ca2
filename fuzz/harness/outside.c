/* outside.c — the outside kernel of a check build (driver.h, ./asmdiff check): one more
 * implementation made from the family's convention of the kernel's name, the operation it
 * computes, and the leftovers its convention allows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmdiff-config.h"
#include "backend.h"
#include "cpu.h"
#include "report.h"

static const struct family *const F = &asmdiff_family;

static struct impl outside;             /* made in outside_setup; .name NULL when none */
static const struct convention *outside_conv;
static char outside_desc[1024], outside_missing[256], outside_info[256], outside_covered[128];
static enum finding outside_info_kind; /* the check outside_info would have been */
static char outside_unidentified[200]; /* why no operation could be identified, or "" */
static int probe_emulated; /* identify() calls run in the emulator (the CPU cannot run them) */

static const char *outside_describe(void)
{
    return outside_desc;
}

void outside_setup(void)
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
    /* The operation is identified before anything runs, on the CPU or, when this one lacks
     * (or the mask hides) what the kernel needs, in the emulator: never taken as the first
     * one unseen (a CTR entry point checked as ECB). */
    int can_probe = 1;
    if (cv->nops > 1 && cv->identify && cpu_unavailable_reason(needs)) {
        struct impl probe = {.name = k->symbol, .needs = needs, .flags = IMPL_KERNEL};
        probe_emulated = emulated_runs(&probe);
        can_probe = probe_emulated;
    }
    if (*k->op) {
        op = -1;
        for (size_t i = 0; i < cv->nops; i++)
            if (!strcmp(cv->ops[i], k->op)) op = (int)i;
        if (op < 0) {
            fprintf(stderr, "asmdiff: %s has no operation '%s' in the %s convention\n", F->name,
                    k->op, cv->name);
            exit(2);
        }
        /* --op names the operation of a kernel that computes none (to see how it differs);
         * one that computes another is not checked as the one named */
        int seen = cv->nops > 1 && cv->identify && can_probe ? cv->identify(k->fn) : -1;
        if (seen >= 0 && seen != op) {
            fprintf(stderr, "asmdiff: %s computes %s on the first known answer, not %s (--op)\n",
                    k->symbol, cv->ops[seen], cv->ops[op]);
            printf("%s: FAIL: %s computes %s on the first known answer, not %s as --op says\n",
                   F->name, k->symbol, cv->ops[seen], cv->ops[op]);
            exit(1);
        }
    } else if (cv->nops > 1 && cv->identify) {
        if (!can_probe) {
            /* neither the CPU nor an emulator runs it: nothing will run, and no operation is
             * claimed */
            op = 0;
            snprintf(outside_unidentified, sizeof outside_unidentified, "not identified: %s "
                     "runs here neither natively nor emulated", k->symbol);
        } else if ((op = cv->identify(k->fn)) < 0) {
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
    snprintf(outside_covered, sizeof outside_covered, "%s",
             *outside_unidentified ? outside_unidentified : cv->nops ? cv->ops[op] : "all");
    outside.name = k->symbol;
    outside.needs = needs;
    /* always the clean call: what the convention allows is then information, not silence */
    outside.flags = IMPL_KERNEL | IMPL_OUTSIDE | IMPL_CLEAN;
    outside.ops = cv->make_ops(k->fn, (size_t)op);
    outside.describe = outside_describe;
}

static void probe_quiet(const char *who, const char *what)
{
    (void)who, (void)what;
}

uint64_t drv_probe_call(const void *fn, const uint64_t *argv, size_t argc)
{
    abi_set_fail_handler(probe_quiet);
#if ARCH_X86_64
    if (probe_emulated) abi_emulate(1);
#endif
    uint64_t r = abi_call("probe", fn, argv, argc);
#if ARCH_X86_64
    if (probe_emulated) abi_emulate(0);
#endif
    abi_set_fail_handler(drv_on_abi_violation);
    return r;
}

const struct impl *outside_impl(void)
{
    return outside.name ? &outside : NULL;
}

int outside_accepts(const struct impl *im, const void *c)
{
    return !(im->flags & IMPL_OUTSIDE) || !outside_conv->accepts || outside_conv->accepts(c);
}

int outside_allows(enum finding kind, const char *what)
{
    unsigned need = kind == FINDING_RESIDUE ? CONV_CLEAN_VECTORS
                    : kind == FINDING_STACK ? CONV_CLEAN_STACK
                                            : 0;
    if (!need || (outside_conv->clean & need)) return 0;
    if (!*outside_info) {
        snprintf(outside_info, sizeof outside_info, "%s after return (allowed by the %s "
                 "convention: %s)", what, outside_conv->name, outside_conv->leftovers);
        outside_info_kind = kind;
    }
    return 1;
}

const char *drv_outside_info(enum finding *check)
{
    if (check) *check = outside_info_kind;
    return outside_info;
}

const char *outside_covers(void)
{
    return outside_covered;
}

const char *outside_not_covered(void)
{
    return outside_missing;
}
