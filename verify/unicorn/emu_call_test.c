/* emu_call_test.c — emu_call (emu_call.h), the engine itself: what the family targets' use of it
 * relies on, shown on control functions (uc_controls_x86_64.S, uc_vcontrols_x86_64.S).
 *
 * The families' kernels are compared with the CPU by the driver's emu-diff mode
 * (asmdiff-F emu-diff: every kernel call on the CPU and emulated, buffers and registers equal),
 * and run emulated wherever the host lacks their ISA (the masked replay tests); this program
 * checks the parts of the engine no kernel exercises on purpose:
 *   - the register snapshot modes of the trampoline (SSE, AVX, AVX-512) are filled alike;
 *   - ten arguments, four of them on the stack, and the emulated stack exposed;
 *   - TLS through %fs as the host thread has it;
 *   - host pages at identical addresses: a masked access next to a PROT_NONE page touches only
 *     its active elements, and an overread into it (by the executor, and by Unicorn for legacy
 *     SSE) is reported as a fault naming the instruction.
 * On a CPU without AVX-512 the native side of the comparisons is left out (emulated results
 * are judged by their known answers).  Exit 0 all passed, 1 a failure.
 */
#define _GNU_SOURCE
#include "emu/emu_call.h"
#include "emu/ucheck_elf.h"
#include "abi.h" /* the native trampoline, to compare with */
#include "verify/selftest.h"

#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void uc_vctl_overread1(uint8_t out[64], const uint8_t in[63]);
void uc_vctl_xor64_masked(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t len);
void uc_ctl_overread16(const uint8_t *in, size_t len, uint8_t out[16]);
void uc_ctl_xor(uint8_t *dst, const uint8_t *a, const uint8_t *b, size_t len);
uint32_t uc_ctl_secret_branch(const uint8_t *secret);
uint64_t uc_vctl_fs_canary(void);
uint64_t uc_vctl_stack_deep_write(void);
uint64_t uc_vctl_stack_deep_read(void);
uint64_t uc_vctl_sum10(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                       uint64_t, uint64_t, uint64_t);

static void check(int ok, const char *what, const char *detail)
{
    ST_CHECK(ok, "emu_call %s: %s", what, detail);
}

static uint64_t rs = 0x1234567;
static uint64_t rnd(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void fill(void *p, size_t n)
{
    uint8_t *b = p;
    for (size_t i = 0; i < n; i++) b[i] = (uint8_t)rnd();
}

/* 1 when this CPU runs the AVX-512 controls natively (F, BW, VL) */
static int native;

static int cpu_ok(void)
{
    unsigned a, b, c, d;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && ((b >> 16) & 1) && ((b >> 30) & 1) &&
           ((b >> 31) & 1);
}

/* Compares what both paths observed; NULL when equal. */
static const char *same_state(const struct abi_state *n, const struct abi_state *e)
{
    static char m[300];
#define SAME_SAVED_(kind, r, R)                                                              \
    if (n->r != e->r) return snprintf(m, sizeof m, "%s differs", #r), m;
    ABI_X86_64_SYSV_SAVED(SAME_SAVED_)
#undef SAME_SAVED_
    if (n->rsp_delta != e->rsp_delta) return "rsp_delta differs";
    /* DF only: the arithmetic flags after return may come from an address computation (ARIA
     * CTR ends with add $24, %rsp: PF is the parity of the stack address), and the emulated
     * stack is not at the native one's address. */
    uint64_t fm = 0x400;
    if ((n->rflags ^ e->rflags) & fm) {
        snprintf(m, sizeof m, "rflags 0x%llx native, 0x%llx emulated",
                 (unsigned long long)(n->rflags & fm), (unsigned long long)(e->rflags & fm));
        return m;
    }
    if (n->mxcsr != e->mxcsr) return "mxcsr differs";
    if (n->x87cw != e->x87cw) return "x87cw differs";
    if (n->x87tw != e->x87tw) {
        snprintf(m, sizeof m, "x87tw 0x%x native, 0x%x emulated", n->x87tw, e->x87tw);
        return m;
    }
    for (int r = 0; r < 32; r++)
        if (memcmp(n->vec[r], e->vec[r], 64)) return snprintf(m, sizeof m, "zmm%d differs", r), m;
    for (int k = 0; k < 8; k++)
        if (n->k[k] != e->k[k]) return snprintf(m, sizeof m, "k%d differs", k), m;
    return NULL;
}

static struct abi_state st_before(void)
{
    struct abi_state s;
    memset(&s, 0, sizeof s);
#define RANDOM_SAVED_(kind, r, R) s.r = rnd();
    ABI_X86_64_SYSV_SAVED(RANDOM_SAVED_)
#undef RANDOM_SAVED_
    s.mxcsr = 0x1f80;
    s.x87cw = 0x37f;
    s.vec_mode = ABI_VEC_AVX512;
    s.vec_fill = 0x5ca1ab1e0ddba11ull;
    return s;
}

int main(void)
{
    char why[300], err[300];
    native = cpu_ok();
    if (!native)
        printf("note     this CPU lacks AVX-512 F/BW/VL: emulated results are judged by their "
               "known answers alone\n");
    elfsym_load();
    /* the trampoline's snapshot modes: the masked AVX-512 xor under each */
    {
        static const unsigned modes[3] = {ABI_VEC_SSE, ABI_VEC_AVX, ABI_VEC_AVX512};
        uint8_t a[64], bb[64], on[64], oe[64], want[64];
        int bad = 0;
        for (int m = 0; m < 3 && !bad; m++)
            for (size_t len = 0; len <= 64 && !bad; len += 7) {
                fill(a, 64);
                fill(bb, 64);
                memset(on, 0x33, 64);
                memset(oe, 0x33, 64);
                memcpy(want, on, 64);
                for (size_t i = 0; i < len; i++) want[i] = a[i] ^ bb[i];
                uint64_t argv[4] = {(uintptr_t)on, (uintptr_t)a, (uintptr_t)bb, len};
                struct abi_state b = st_before(), sn, se;
                b.vec_mode = modes[m];
                sn = b;
                if (native) abi_trampoline((const void *)uc_vctl_xor64_masked, &sn, argv, 4);
                argv[0] = (uintptr_t)oe;
                uint64_t rax;
                if (emu_call((const void *)uc_vctl_xor64_masked, argv, 4, &b, &se, &rax, err,
                             sizeof err)) {
                    snprintf(why, sizeof why, "mode %u, %zu bytes: %.250s", modes[m], len, err);
                    bad = 1;
                    break;
                }
                const char *d = native ? same_state(&sn, &se) : NULL;
                if (d || memcmp(oe, want, 64) || (native && memcmp(on, want, 64))) {
                    snprintf(why, sizeof why, "mode %u, %zu bytes: %s", modes[m], len,
                             d ? d : "output differs from a ^ b");
                    bad = 1;
                }
            }
        check(!bad, "register snapshot modes", bad ? why : native ? "xmm0-15 (SSE), ymm0-15 "
              "(AVX), zmm0-31 and k0-7 (AVX-512) as the trampoline fills them, 0..63 bytes"
              : "emulated outputs right under every mode");
    }
    /* ten arguments, four of them on the stack; the emulated stack is exposed */
    {
        uint64_t argv[10], rax_e = 0, want10 = 0;
        for (int i = 0; i < 10; i++) {
            argv[i] = rnd();
            want10 += (uint64_t)(i + 1) * argv[i];
        }
        struct abi_state b = st_before(), sn, se;
        if (!native) b.vec_mode = ABI_VEC_SSE; /* the trampoline's AVX-512 fill would SIGILL */
        sn = b;
        uint64_t rax_n = abi_trampoline((const void *)uc_vctl_sum10, &sn, argv, 10);
        int r = emu_call((const void *)uc_vctl_sum10, argv, 10, &b, &se, &rax_e, err,
                         sizeof err);
        uint64_t lo, entry;
        size_t size;
        emu_stack(&lo, &size, &entry);
        const char *d = r ? err : same_state(&sn, &se);
        int ok = !d && rax_e == want10 && rax_n == want10 && entry > lo && entry < lo + size;
        snprintf(why, sizeof why, "a1 + 2*a2 + ... + 10*a10 right (native and emulated); "
                 "emulated stack [0x%llx, +%zu), return address at 0x%llx", (unsigned long long)lo,
                 size, (unsigned long long)entry);
        check(ok, "ten arguments, four on the stack", ok ? why : d ? d : "wrong sum");
    }
    /* TLS through %fs, as the host thread has it */
    {
        struct abi_state b = st_before(), se;
        b.vec_mode = ABI_VEC_SSE;
        uint64_t rax_e = 0, want_fs = uc_vctl_fs_canary();
        int r = emu_call((const void *)uc_vctl_fs_canary, NULL, 0, &b, &se, &rax_e, err,
                         sizeof err);
        check(r == 0 && rax_e == want_fs, "TLS read through %fs", r ? err :
              rax_e == want_fs ? "%fs:0x28 (the stack-protector canary) as the host reads it"
              : "%fs:0x28 differs from the host's");
    }
    /* the stack poisoned again after a call whose stack writes only Unicorn saw */
    {
        struct abi_state b = st_before(), se;
        b.vec_mode = ABI_VEC_SSE;
        uint64_t w = 1, rd = 0;
        int r = emu_call((const void *)uc_vctl_stack_deep_write, NULL, 0, &b, &se, &w, err,
                         sizeof err);
        if (!r) r = emu_call((const void *)uc_vctl_stack_deep_read, NULL, 0, &b, &se, &rd, err,
                             sizeof err);
        uint64_t poison = EMU_STACK_POISON;
        char got[120];
        snprintf(got, sizeof got, "2 KiB below the stack pointer: 0x%016llx after a Unicorn "
                 "write of 0x1122334455667788", (unsigned long long)rd);
        check(r == 0 && rd == poison, "stack re-poisoned after Unicorn's writes",
              r ? err : got);
    }
    /* host pages at identical addresses: a guard page after the buffers */
    uint8_t *pg = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pg == MAP_FAILED || mprotect(pg + 2 * 4096, 4096, PROT_NONE)) {
        check(0, "guard page", "mmap/mprotect failed");
        return 1;
    }
    {
        uint8_t *ga = pg + 2 * 4096 - 33, *gb = pg + 2 * 4096 - 100, *gout = pg + 4096 - 33;
        uint8_t want[33];
        fill(ga, 33);
        fill(gb, 33);
        for (int i = 0; i < 33; i++) want[i] = ga[i] ^ gb[i];
        uint64_t argv[4] = {(uintptr_t)gout, (uintptr_t)ga, (uintptr_t)gb, 33};
        struct abi_state b = st_before(), se;
        uint64_t rax;
        int r = emu_call((const void *)uc_vctl_xor64_masked, argv, 4, &b, &se, &rax, err,
                         sizeof err);
        check(r == 0 && !memcmp(gout, want, 33), "masked access next to a guard page",
              r ? err : "33 bytes ending at a PROT_NONE page: the masked load never touches it");
        uint8_t o[64];
        uint64_t argv2[2] = {(uintptr_t)o, (uintptr_t)(pg + 2 * 4096 - 63)};
        r = emu_call((const void *)uc_vctl_overread1, argv2, 2, &b, &se, &rax, err, sizeof err);
        int ok = r != 0 && strstr(err, "fault: read of 64 bytes at") &&
                 strstr(err, "no readable host page") && strstr(err, "uc_vctl_overread1+0x0");
        check(ok, "overread into a guard page reported as a fault", err);
        /* the same through Unicorn: legacy SSE movdqu 16 bytes past the input */
        uint64_t argv3[3] = {(uintptr_t)(pg + 2 * 4096 - 64), 64, (uintptr_t)o};
        r = emu_call((const void *)uc_ctl_overread16, argv3, 3, &b, &se, &rax, err, sizeof err);
        ok = r != 0 && strstr(err, "fault: read of") && strstr(err, "no readable host page") &&
             strstr(err, "uc_ctl_overread16+");
        check(ok, "SSE overread into a guard page (run by Unicorn) reported as a fault", err);
    }
    /* which functions may run natively beside emulated ones (emu_needs_emulation): plain
     * scalar code, loops included, yes; an EVEX kernel, legacy SSE (not in the executor's
     * table) and a function of no known size (main's callee, C) no */
    {
        int plain = !emu_needs_emulation((const void *)uc_ctl_xor) &&
                    !emu_needs_emulation((const void *)uc_ctl_secret_branch);
        check(plain, "scalar functions need no emulation", "uc_ctl_xor, uc_ctl_secret_branch");
        int vector = emu_needs_emulation((const void *)uc_vctl_xor64_masked) &&
                     emu_needs_emulation((const void *)uc_ctl_overread16) &&
                     emu_needs_emulation((const void *)((const uint8_t *)uc_ctl_xor + 1));
        check(vector, "vector, SSE and unsized code needs emulation",
              "uc_vctl_xor64_masked, uc_ctl_overread16, an address inside uc_ctl_xor");
    }
    return st_finish();
}
