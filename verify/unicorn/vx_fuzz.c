/* vx_fuzz.c — libFuzzer target: the vector executor against the real CPU.
 *
 * Each input chooses a form of the executor's table (vexec.h), its operands (registers, opmask
 * with merge or zero masking, memory operand with disp8*N or RIP-relative, broadcast), an
 * immediate and the whole register file and memory (vx_diff.h); the instruction runs natively
 * and in the executor and every zmm, k, GPR, defined flag, branch outcome and memory byte must
 * agree.  A difference aborts with the form, the instruction bytes and the first differing
 * register or byte.  On a CPU without the forms' features every input is skipped, and the
 * target says so once.
 *
 * VX_FUZZ_FORMS=PREFIX limits the inputs to the forms whose name starts with PREFIX (the first
 * input byte picks among them): a way to spend a run on newly added rows, e.g. "vpabs".
 */
#include "emu/vexec.h"
#include "vx_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int state; /* 0 unknown, 1 ready, -1 CPU lacks features */
    static long only[64];
    static size_t nonly;
    if (!state) {
        char why[200];
        state = vxd_init(why, sizeof why) ? -1 : 1;
        if (state < 0) fprintf(stderr, "vx_fuzz: every input skipped: %s\n", why);
        const char *prefix = getenv("VX_FUZZ_FORMS");
        if (prefix && *prefix) {
            size_t n;
            const struct vx_form *f = vx_forms(&n);
            for (size_t i = 0; i < n && nonly < sizeof only / sizeof only[0]; i++)
                if (!strncmp(f[i].name, prefix, strlen(prefix))) only[nonly++] = (long)i;
            fprintf(stderr, "vx_fuzz: %zu forms named %s*\n", nonly, prefix);
            if (!nonly) state = -1;
        }
    }
    if (state < 0 || size < 2) return 0;
    long form = -1;
    if (nonly) {
        form = only[data[0] % nonly];
        data++;
        size--;
    }
    char msg[600];
    if (vxd_case(data, size, form, msg, sizeof msg, NULL) == VXD_DIFF) {
        fprintf(stderr, "vx_fuzz: executor differs from the CPU: %s\n", msg);
        abort();
    }
    return 0;
}
