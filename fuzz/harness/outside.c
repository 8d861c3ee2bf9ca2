/* outside.c — the outside kernels of a check build (driver.h, ./asmdiff check): each one more
 * implementation made from the family's convention of the kernel's name, the operation it
 * computes, and the leftovers its convention allows.  A check build has up to OUTSIDE_MAX of
 * them (several entry points in one command, or a patch's file beside the file before it: one
 * program, every stage judging them all on the same cases). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asmdiff-config.h"
#include "backend.h"
#include "outside.h"
#include "cpu.h"
#include "report.h"

static const struct family *const F = &asmdiff_family;

/* One outside kernel: its implementation and what its setup found out. */
struct outside_slot {
    const struct outside_kernel *k;
    struct impl impl;
    const struct convention *conv;
    char desc[1024], missing[256], covered[200];
    char unidentified[200]; /* why no operation could be identified, or "" */
};
static struct outside_slot slots[OUTSIDE_MAX];
static size_t nslots, nkernels; /* set up so far; in the build */
static char outside_info[320];
static enum finding outside_info_kind; /* the check outside_info would have been */
static int probe_emulated; /* identify() calls run in the emulator (the CPU cannot run them) */

static const struct outside_slot *slot_of(const struct impl *im)
{
    for (size_t i = 0; i < nslots; i++)
        if (im == &slots[i].impl) return &slots[i];
    return NULL;
}

static const char *outside_describe_at(size_t i)
{
    return slots[i].desc;
}
/* struct impl's describe takes no argument: one function per slot */
static const char *describe0(void) { return outside_describe_at(0); }
static const char *describe1(void) { return outside_describe_at(1); }
static const char *describe2(void) { return outside_describe_at(2); }
static const char *describe3(void) { return outside_describe_at(3); }
static const char *describe4(void) { return outside_describe_at(4); }
static const char *describe5(void) { return outside_describe_at(5); }
static const char *describe6(void) { return outside_describe_at(6); }
static const char *describe7(void) { return outside_describe_at(7); }
static const char *describe8(void) { return outside_describe_at(8); }
static const char *describe9(void) { return outside_describe_at(9); }
static const char *(*const describers[OUTSIDE_MAX])(void) = {
    describe0, describe1, describe2, describe3, describe4,
    describe5, describe6, describe7, describe8, describe9};

static void slot_setup(struct outside_slot *sl);

void outside_setup(void)
{
    const struct outside_kernel *const all[OUTSIDE_MAX] = {
        &asmdiff_outside,  &asmdiff_outside1, &asmdiff_outside2, &asmdiff_outside3,
        &asmdiff_outside4, &asmdiff_outside5, &asmdiff_outside6, &asmdiff_outside7,
        &asmdiff_outside8, &asmdiff_outside9};
    while (nkernels < OUTSIDE_MAX && all[nkernels]) nkernels++;
    for (size_t i = 0; i < nkernels; i++) { /* an ordinary build: all undefined */
        slots[nslots].k = all[i];
        slots[nslots].impl.describe = describers[nslots];
        slot_setup(&slots[nslots++]);
    }
}

static void slot_setup(struct outside_slot *sl)
{
    const struct outside_kernel *k = sl->k;
    const void *fn = k->fn;
    if (!fn) {
        fprintf(stderr, "asmdiff: %s defines no symbol %s\n", k->source, k->symbol);
        printf("%s: FAIL: %s defines no symbol %s\n", F->name, k->source, k->symbol);
        exit(2);
    }
    for (size_t i = 0; drv_convention_at(i); i++)
        if (!strcmp(drv_convention_at(i)->name, k->convention)) sl->conv = drv_convention_at(i);
    if (!sl->conv) {
        fprintf(stderr, "asmdiff: %s accepts no convention '%s' (it accepts:", F->name,
                k->convention);
        for (size_t i = 0; drv_convention_at(i); i++)
            fprintf(stderr, " %s", drv_convention_at(i)->name);
        fprintf(stderr, ")\n");
        exit(2);
    }
    const struct convention *cv = sl->conv;
    /* the needs as a mask string ("-sse2,-avx2"): cpu.h's one parser of feature names; the
     * command's (--needs), else those the convention declares for its entry points */
    uint64_t needs = 0;
    const char *need_names = *k->needs ? k->needs : cv->needs ? cv->needs : "";
    if (*need_names) {
        char mask[256] = "", err[200];
        for (const char *p = need_names; *p;) {
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
    /* A symbol of this home that no operation of the family's contract is (a function that
     * computes two families' operations in one call) is refused, with the convention's reason,
     * before anything runs: never taken as the operation its name contains. */
    const char *refused = cv->refuse ? cv->refuse(cv, k->symbol) : NULL;
    if (refused) {
        fprintf(stderr, "asmdiff: %s is not checked in the %s convention: %s\n", k->symbol,
                cv->name, refused);
        printf("%s: FAIL: %s is not checked in the %s convention: %s\n", F->name, k->symbol,
               cv->name, refused);
        exit(1);
    }
    int op = 0;
    /* The operation is identified before anything runs, on the CPU or, when this one lacks
     * (or the mask hides) what the kernel needs, in the emulator: never taken as the first
     * one unseen (a CTR entry point checked as ECB). */
    int can_probe = 1;
    probe_emulated = 0;
    if (cv->nops > 1 && cv->identify && cpu_unavailable_reason(needs)) {
        struct impl probe = {.name = k->symbol, .needs = needs, .flags = IMPL_KERNEL};
        probe_emulated = emulated_runs(&probe);
        can_probe = probe_emulated;
    }
    if (*k->op) {
        op = -1;
        for (size_t i = 0; i < cv->nops; i++)
            if (!strcmp(conv_op_name(cv, i), k->op)) op = (int)i;
        if (op < 0) {
            fprintf(stderr, "asmdiff: %s has no operation '%s' in the %s convention\n", F->name,
                    k->op, cv->name);
            exit(2);
        }
        /* --op names the operation of a kernel that computes none (to see how it differs);
         * one that computes another is not checked as the one named */
        int seen = cv->nops > 1 && cv->identify && can_probe ? cv->identify(cv, fn, k->symbol) : -1;
        if (seen >= 0 && seen != op &&
            !(cv->same_operation && cv->same_operation(cv, (size_t)seen, (size_t)op))) {
            fprintf(stderr, "asmdiff: %s computes %s on the first known answer, not %s (--op)\n",
                    k->symbol, conv_op_name(cv, (size_t)seen), conv_op_name(cv, (size_t)op));
            printf("%s: FAIL: %s computes %s on the first known answer, not %s as --op says\n",
                   F->name, k->symbol, conv_op_name(cv, (size_t)seen), conv_op_name(cv, (size_t)op));
            exit(1);
        }
    } else if (cv->nops > 1 && cv->identify) {
        if (!can_probe) {
            /* neither the CPU nor an emulator runs it: nothing will run, and no operation is
             * claimed */
            op = 0;
            snprintf(sl->unidentified, sizeof sl->unidentified, "not identified: %s "
                     "runs here neither natively nor emulated", k->symbol);
        } else if ((op = cv->identify(cv, fn, k->symbol)) < 0) {
            /* wrong on the known answer: the operation its name says, when it says one, so
             * the checks show how it differs */
            for (size_t i = 0; i < cv->nops; i++)
                if (strstr(k->symbol, conv_op_name(cv, i))) op = op == -1 ? (int)i : -2;
            if (op < 0) op = -1;
        }
        if (op < 0) {
            /* not a finding of a check yet: the command names no operation it could compare */
            fprintf(stderr, "asmdiff: %s computes none of the %s operations on the first known "
                            "answer; name the one it is with --op to see how it differs\n",
                    k->symbol, F->name);
            printf("%s: FAIL: %s computes none of the operations (", F->name, k->symbol);
            for (size_t i = 0; i < cv->nops; i++) printf("%s%s", i ? ", " : "", conv_op_name(cv, i));
            printf(") on the first known answer\n");
            exit(1);
        }
    }
    for (size_t i = 0; i < cv->nops; i++)
        if ((int)i != op)
            snprintf(sl->missing + strlen(sl->missing),
                     sizeof sl->missing - strlen(sl->missing), "%s%s",
                     *sl->missing ? ", " : "", conv_op_name(cv, i));
    snprintf(sl->desc, sizeof sl->desc, "outside kernel from %s, %s convention; covers: %s;"
             " not covered: %s", k->source, cv->name, cv->nops ? conv_op_name(cv, (size_t)op) : "all",
             *sl->missing ? sl->missing : "none");
    snprintf(sl->covered, sizeof sl->covered, "%s",
             *sl->unidentified ? sl->unidentified : cv->nops ? conv_op_name(cv, (size_t)op) : "all");
    /* its name in rows and findings: the symbol, or the name the command gave it (the old
     * file's "old:SYMBOL", a symbol two files define) */
    sl->impl.name = k->name && *k->name ? k->name : k->symbol;
    sl->impl.needs = needs;
    /* always the clean call: what the convention allows is then information, not silence */
    sl->impl.flags = IMPL_KERNEL | IMPL_OUTSIDE | IMPL_CLEAN;
    sl->impl.ops = cv->make_ops(cv, fn, (size_t)op);
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
    return nslots ? &slots[0].impl : NULL;
}

size_t outside_count(void)
{
    return nslots;
}

const struct impl *outside_at(size_t i)
{
    return i < nslots ? &slots[i].impl : NULL;
}

const struct outside_kernel *outside_kernel_of(const struct impl *im)
{
    const struct outside_slot *sl = slot_of(im);
    return sl ? sl->k : NULL;
}

int outside_accepts(const struct impl *im, const void *c)
{
    const struct outside_slot *sl = slot_of(im);
    if (!sl || !sl->conv->accepts) return 1;
    return sl->conv->accepts(sl->conv, im->ops, c);
}

const void *drv_outside_entry(const void *fn, const char *name)
{
    for (size_t i = 0; i < nslots; i++) {
        const struct outside_kernel *k = slots[i].k;
        if (k->fn != fn || !k->entries) continue;
        for (const struct outside_entry *e = k->entries; e->name; e++)
            if (!strcmp(e->name, name)) return e->fn;
    }
    return NULL;
}

const struct convention *drv_convention_at(size_t i)
{
    return asmdiff_conventions ? asmdiff_conventions[i] : NULL;
}

const char *conv_op_name(const struct convention *cv, size_t op)
{
    if (cv->op_name) return cv->op_name(cv, op);
    return cv->ops && op < cv->nops ? cv->ops[op] : "?";
}

int outside_allows(const struct impl *im, enum finding kind, const char *what)
{
    const struct outside_slot *sl = im ? slot_of(im) : NULL;
    unsigned need = kind == FINDING_RESIDUE ? CONV_CLEAN_VECTORS
                    : kind == FINDING_STACK ? CONV_CLEAN_STACK
                                            : 0;
    if (!sl || !need || (sl->conv->clean & need)) return 0;
    if (!*outside_info) {
        /* named when the build has several kernels: the convention is that kernel's */
        snprintf(outside_info, sizeof outside_info, "%s%s%s after return (allowed by the %s "
                 "convention: %s)", nkernels > 1 ? sl->impl.name : "", nkernels > 1 ? ": " : "",
                 what, sl->conv->name, sl->conv->leftovers);
        outside_info_kind = kind;
    }
    return 1;
}

const char *drv_outside_info(enum finding *check)
{
    if (check) *check = outside_info_kind;
    return outside_info;
}

const char *outside_covers(const struct impl *im)
{
    const struct outside_slot *sl = slot_of(im);
    return sl ? sl->covered : "";
}

const char *outside_not_covered(const struct impl *im)
{
    const struct outside_slot *sl = slot_of(im);
    return sl ? sl->missing : "";
}
