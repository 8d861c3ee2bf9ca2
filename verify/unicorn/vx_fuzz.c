/* vx_fuzz.c — libFuzzer target: the vector executor against the real CPU.
 *
 * Each input chooses a form of the executor's table (vexec.h), its encoding path (VEX C4 or C5,
 * the ModRM mode: register, mod 00/01/10, SIB with and without base or index, disp32 alone,
 * RIP-relative, disp8*N; the legacy prefixes the form takes; the vector length: vx_diff.h), its
 * operands (registers, opmask with merge or zero masking, broadcast), an immediate and the
 * whole register file and memory; the instruction runs natively
 * and in the executor and every zmm, k, GPR, defined flag, branch outcome and memory byte must
 * agree.  A difference aborts with the form, the instruction bytes and the first differing
 * register or byte.  On a CPU without the forms' features there is nothing to compare with:
 * the target exits 77 at start, saying what the CPU lacks (a run that compared nothing is not
 * a pass), and a run whose inputs compared no instruction at all exits 1 at its end.
 *
 * VX_FUZZ_FORMS=PREFIX limits the inputs to the forms whose name starts with PREFIX (the first
 * input byte picks among them): a way to spend a run on newly added rows, e.g. "vpabs".
 */
#include "emu/vexec.h"
#include "vx_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static long only[64];
static size_t nonly;
static unsigned long long compared;

/* At exit: a run in which no input compared an instruction checked nothing. */
static void check_compared(void)
{
    if (compared) {
        fprintf(stderr, "vx_fuzz: %llu instructions compared with the CPU\n", compared);
        return;
    }
    fprintf(stderr, "vx_fuzz: FAIL: no input compared an instruction with the CPU\n");
    fflush(stderr);
    _exit(1);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char why[200];
    if (vxd_init(why, sizeof why)) {
        printf("vx_fuzz: SKIP: nothing to compare the executor with: %s\n", why);
        fflush(stdout);
        exit(77);
    }
    const char *prefix = getenv("VX_FUZZ_FORMS");
    if (prefix && *prefix) {
        size_t n;
        const struct vx_form *f = vx_forms(&n);
        for (size_t i = 0; i < n && nonly < sizeof only / sizeof only[0]; i++)
            if (!strncmp(f[i].name, prefix, strlen(prefix))) only[nonly++] = (long)i;
        if (!nonly) {
            fprintf(stderr, "vx_fuzz: VX_FUZZ_FORMS=%s names no form of the table\n", prefix);
            exit(2);
        }
        fprintf(stderr, "vx_fuzz: %zu forms named %s*\n", nonly, prefix);
    }
    atexit(check_compared);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    long form = -1;
    if (nonly) {
        form = only[data[0] % nonly];
        data++;
        size--;
    }
    char msg[600];
    enum vxd_result r = vxd_case(data, size, form, msg, sizeof msg, NULL);
    if (r == VXD_DIFF) {
        fprintf(stderr, "vx_fuzz: executor differs from the CPU: %s\n", msg);
        abort();
    }
    compared += r == VXD_SAME;
    return 0;
}
