/* vx_reach.c — every form of the vector executor's table, run against the real CPU.
 *
 * Property: for each form of vexec.c's table, `rounds` random cases (operands, vector length,
 * mask, memory operand, register file) give the same zmm, k, GPRs, defined flags, branch
 * outcome and memory natively and in the executor.  Prints how many forms were reached (ran at
 * least one case) and every mismatch; exit 0 when all forms were reached without a mismatch,
 * 1 otherwise, 77 when this CPU lacks a feature the forms need (the reason is printed).
 *
 *   vx_reach [rounds] [--list]     --list: the table as Markdown (docs/vector-executor.md)
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

int main(int argc, char **argv)
{
    long rounds = 300;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--list")) {
            list();
            return 0;
        }
        rounds = atol(argv[i]);
    }
    char why[200];
    if (vxd_init(why, sizeof why)) {
        printf("SKIP: %s\n", why);
        return 77;
    }
    size_t n;
    const struct vx_form *forms = vx_forms(&n);
    size_t reached = 0, bad = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t fi = 0; fi < n; fi++) {
        long same = 0, diff = 0;
        char msg[512];
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
            size_t used;
            enum vxd_result res = vxd_case(seed, sizeof seed, (long)fi, msg, sizeof msg, &used);
            if (res == VXD_SAME) same++;
            if (res == VXD_DIFF) {
                if (diff++ < 3) printf("MISMATCH %s\n", msg);
            }
        }
        if (same && !diff) reached++;
        if (diff) bad++;
        if (!same) printf("NOT REACHED %s (%s)\n", forms[fi].name, forms[fi].ops);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%zu of %zu forms reached and equal to the CPU, %zu with mismatches (%ld cases each, "
           "%.1f s)\n", reached, n, bad, rounds,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    return reached == n && !bad ? 0 : 1;
}
