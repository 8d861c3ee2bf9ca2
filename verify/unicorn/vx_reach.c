/* vx_reach.c — every form of the vector executor's table, run against the real CPU.
 *
 * Property: for each form of vexec.c's table, `rounds` random cases (operands, vector length,
 * mask, memory operand, register file) give the same zmm, k, GPRs, defined flags, branch
 * outcome and memory natively and in the executor.  The cases of a form go round every
 * encoding path it can take (vx_diff.h: VEX C4 and C5, each ModRM mode and SIB shape,
 * RIP-relative, disp8*N, the legacy prefixes it takes, each vector length), so each path of
 * the decoder is compared with the CPU on every form that has it.  Prints how many forms were
 * reached, every mismatch, every (form, path) that no case checked, and a table: path, forms
 * that can take it, forms checked on it, cases.  Exit 0 when every form was checked on every
 * path it has without a mismatch, 1 otherwise, 77 when this CPU lacks a feature the forms need
 * (the reason is printed).
 *
 *   vx_reach [rounds] [--list] [--per-form]
 *     --list: the table as Markdown (docs/vector-executor.md)
 *     --per-form: also each form's cases per path
 */
#include "emu/vexec.h"
#include "vx_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void list(void)
{
    size_t n;
    const struct vx_form *f = vx_forms(&n);
    static const char *const enc[] = {"legacy", "VEX", "EVEX"};
    static const char *const map[] = {"", "0F", "0F38", "0F3A"};
    static const char *const pp[] = {"", "66", "F3", "F2"};
    printf("| # | mnemonic | encoding | opcode | W | lengths | operands |\n");
    printf("|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < n; i++) {
        char op[32], lens[32] = "";
        snprintf(op, sizeof op, "%s%s%s%s%02X%s", f[i].pp < 4 ? pp[f[i].pp] :
                 f[i].pp == 0xfe ? "[66]" : "", (f[i].pp < 4 && f[i].pp) || f[i].pp == 0xfe ? " " : "", map[f[i].map], f[i].map ? " " : "",
                 f[i].op, f[i].reg >= 0 ? (const char[]){' ', '/', (char)('0' + f[i].reg), 0}
                                        : "");
        if (f[i].enc == VX_ENC_LEG) {
            snprintf(lens, sizeof lens, "-");
        } else {
            for (int l = 0; l < 3; l++)
                if ((f[i].lm >> l) & 1)
                    snprintf(lens + strlen(lens), sizeof lens - strlen(lens), "%s%d",
                             lens[0] ? "/" : "", 128 << l);
        }
        char ops[80];
        size_t o = 0;
        for (const char *c = f[i].ops; *c && o + 3 < sizeof ops; c++) {
            if (*c == '|') ops[o++] = '\\'; /* Markdown: a pipe inside a cell */
            ops[o++] = *c;
        }
        ops[o] = 0;
        printf("| %zu | %s | %s | %s | %s | %s | %s |\n", i + 1, f[i].name, enc[f[i].enc], op,
               f[i].w < 0 ? "any" : f[i].w ? "1" : "0", lens, ops);
    }
}

/* The paths of group [first, last] that the form can take. */
static unsigned group(uint64_t allowed, int first, int last, int *out)
{
    unsigned c = 0;
    for (int p = first; p <= last; p++)
        if ((allowed >> p) & 1) out[c++] = p;
    return c;
}

int main(int argc, char **argv)
{
    long rounds = 300;
    int per_form = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--list")) {
            list();
            return 0;
        }
        if (!strcmp(argv[i], "--per-form")) {
            per_form = 1;
            continue;
        }
        char *end;
        rounds = strtol(argv[i], &end, 10);
        if (*end || rounds <= 0) {
            fprintf(stderr, "vx_reach: %s: expected a number of cases per form, --list or "
                    "--per-form\n", argv[i]);
            return 2;
        }
    }
    char why[200];
    if (vxd_init(why, sizeof why)) {
        printf("SKIP: %s\n", why);
        return 77;
    }
    /* the host path the fast forms take here (ASMDIFF_VX_HOST picks a lower one): a run
     * forced to a path this host lacks would check another, so it skips */
    static const char *const host_name[] = {"portable", "ssse3", "avx2"};
    int host = vx_host_path();
    const char *want = getenv("ASMDIFF_VX_HOST");
    if (want && *want && strcmp(want, host_name[host])) {
        printf("SKIP: ASMDIFF_VX_HOST=%s asks for a path this host lacks (it has %s)\n", want,
               host_name[host]);
        return 77;
    }
    if (host >= VX_HOST_SSSE3 && !vx_host_tower_ok()) {
        printf("FAIL: the GF(2^8) inverse's tower field failed its start-up check: "
               "vgf2p8affineinvqb would take the table path\n");
        return 1;
    }
    printf("host path: %s%s\n", host_name[host],
           host >= VX_HOST_SSSE3 ? " (GF(2^8) inverse through the tower field)" : "");
    size_t n;
    const struct vx_form *forms = vx_forms(&n);
    size_t reached = 0, bad = 0, unchecked = 0;
    unsigned long long can[VXP_N] = {0}, forms_checked[VXP_N] = {0}, cases[VXP_N] = {0};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t fi = 0; fi < n; fi++) {
        long same = 0, diff = 0;
        long on[VXP_N] = {0};
        char msg[512];
        uint64_t allowed = vxd_paths(&forms[fi]);
        int pre[4], leg[5], mod[10], len[4];
        unsigned npre = group(allowed, VXP_VEX_C4, VXP_LEGACY, pre);
        unsigned nleg = group(allowed, VXP_NOPFX, VXP_F2, leg);
        unsigned nmod = group(allowed, VXP_NOMODRM, VXP_RIP, mod);
        unsigned nlen = group(allowed, VXP_LNONE, VXP_L512, len);
        for (long k = 0; k < rounds; k++) {
            /* full-entropy case bytes: a low-entropy seed would leave every immediate and
             * mask choice near zero (it once hid signed vpcmpu* compares) */
            uint8_t seed[96];
            uint64_t s = fi * 1000003u + (uint64_t)k * 0x9e3779b97f4a7c15ull;
            for (size_t j = 0; j < sizeof seed; j += 8) {
                uint64_t z = (s += 0x9e3779b97f4a7c15ull);
                z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
                z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
                z ^= z >> 31;
                memcpy(seed + j, &z, 8);
            }
            /* every combination of ModRM mode, length, prefix and legacy prefix in turn */
            unsigned long q = (unsigned long)k;
            struct vxd_plan plan;
            plan.modrm = mod[q % nmod];
            q /= nmod;
            plan.length = len[q % nlen];
            q /= nlen;
            plan.prefix = pre[q % npre];
            q /= npre;
            plan.legacy = leg[q % nleg];
            size_t used;
            uint64_t took = 0;
            enum vxd_result res = vxd_case_plan(seed, sizeof seed, (long)fi, &plan, msg,
                                                sizeof msg, &used, &took);
            if (res == VXD_SAME) {
                same++;
                for (int p = 0; p < VXP_N; p++) on[p] += (took >> p) & 1;
            }
            if (res == VXD_DIFF) {
                if (diff++ < 3) printf("MISMATCH %s\n", msg);
            }
        }
        if (same && !diff) reached++;
        if (diff) bad++;
        if (!same) printf("NOT REACHED %s (%s)\n", forms[fi].name, forms[fi].ops);
        if (per_form) printf("form %zu %s (%s):", fi + 1, forms[fi].name, forms[fi].ops);
        for (int p = 0; p < VXP_N; p++) {
            if (!((allowed >> p) & 1)) continue;
            can[p]++;
            cases[p] += (unsigned long long)on[p];
            if (on[p]) forms_checked[p]++;
            else if (same) {
                unchecked++;
                printf("NOT CHECKED %s (%s) on the path %s\n", forms[fi].name, forms[fi].ops,
                       vxd_path_name[p]);
            }
            if (per_form) printf(" %s=%ld", vxd_path_name[p], on[p]);
        }
        if (per_form) printf("\n");
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("| encoding path | forms that have it | forms checked on it | cases |\n");
    printf("|---|---|---|---|\n");
    for (int p = 0; p < VXP_N; p++)
        printf("| %s | %llu | %llu | %llu |\n", vxd_path_name[p], can[p], forms_checked[p],
               cases[p]);
    size_t zero_paths = 0;
    for (int p = 0; p < VXP_N; p++) {
        if (p == VXP_SIB_ABS && !can[p]) {
            printf("note: the data area is not below 2 GiB here: no disp32-alone case\n");
            continue;
        }
        if (!cases[p]) {
            zero_paths++;
            printf("PATH NOT CHECKED: %s (no case of any form took it)\n", vxd_path_name[p]);
        }
    }
    printf("%zu of %zu forms reached and equal to the CPU, %zu with mismatches, %zu "
           "(form, path) pairs unchecked (%ld cases each, %.1f s)\n", reached, n, bad, unchecked,
           rounds, (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    return reached == n && !bad && !unchecked && !zero_paths ? 0 : 1;
}
