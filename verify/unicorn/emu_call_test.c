/* emu_call_test.c — emu_call (emu_call.h) runs kernels exactly as the native checked call does.
 *
 * Property: for the AVX-512/GFNI and AVX2 kernels (ARIA xor, ternlog, AVX2; Camellia cmpmask,
 * gfnishift, AVX2, ECB and CTR; NH AVX2), a scalar one (camellia_setkey_x86_64) and a
 * legacy-SSE one (NH SSE2, whose SSE code goes to Unicorn), with random keys, data and block
 * counts, the emulated call writes the same output and returns the same state as the native
 * trampoline (abi_x86_64.S): every zmm and k register, the callee-saved registers, rsp,
 * DF, MXCSR and x87 control; abi_check() accepts both.  Host pages at identical
 * addresses: a buffer that ends at a PROT_NONE guard page is read exactly (masked loads never
 * touch the guard), and an unmasked overread into it is reported as a fault naming the
 * instruction.  Then the emulated throughput per kernel.
 * On a CPU that cannot run the kernels natively (no AVX-512 BW/VL or GFNI: e.g. under
 * qemu-x86_64 -cpu Haswell) the emulated calls are judged by the references and abi_check
 * alone, which is what emu_call is for.  Exit 0 all passed, 1 a difference.
 */
#define _GNU_SOURCE
#include "emu_call.h"
#include "ucheck_elf.h"

#include "kernels/aria/aria.h"
#include "kernels/camellia/camellia.h"
#include "kernels/nh/nh.h"
#include "reference/aria.h"
#include "reference/camellia.h"

#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

void uc_vctl_overread1(uint8_t out[64], const uint8_t in[63]);
void uc_ctl_overread16(const uint8_t *in, size_t len, uint8_t out[16]);
uint64_t uc_vctl_fs_canary(void);
uint64_t uc_vctl_sum10(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
                       uint64_t, uint64_t, uint64_t);

static int passed, failed;

static void check(int ok, const char *what, const char *detail)
{
    printf("%s emu_call %s: %s\n", ok ? "ok  " : "FAIL", what, detail);
    if (ok)
        passed++;
    else
        failed++;
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
    for (size_t i = 0; i < n; i++) ((uint8_t *)p)[i] = (uint8_t)rnd();
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cpu_ok(char *why, size_t len)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !((b >> 16) & 1) || !((b >> 30) & 1) ||
        !((b >> 31) & 1) || !((c >> 8) & 1) || !((b >> 5) & 1)) {
        snprintf(why, len, "this CPU lacks AVX2, AVX512F/BW/VL or GFNI: the kernels cannot run "
                 "natively, so there is nothing to compare the emulated call with");
        return 0;
    }
    return 1;
}

/* 1: the kernels also run natively here and every emulated call is compared with a native
 * one; 0: emulated only, judged by the references and abi_check (the point of emu_call). */
static int native;

static uint64_t run_native(const void *fn, struct abi_state *st, const uint64_t *argv,
                           size_t argc)
{
    if (!native) {
        /* the SSE2 NH kernel runs anywhere: it gives the expected hash of any NH kernel */
        if (fn == (const void *)nh_avx2 || fn == (const void *)nh_sse2_permload)
            nh_sse2_permload((const uint32_t *)(uintptr_t)argv[0],
            (const uint8_t *)(uintptr_t)argv[1], argv[2], (uint8_t *)(uintptr_t)argv[3]);
        return 0;
    }
    return abi_trampoline(fn, st, argv, argc);
}

static const char *same_state(const struct abi_state *n, const struct abi_state *e);

/* Without a native run: the emulated state must pass the harness's own check. */
static const char *judge(const struct abi_state *b, const struct abi_state *n,
                         const struct abi_state *e)
{
    return native ? same_state(n, e) : abi_check(b, e, 1);
}

/* Compares what both paths observed; NULL when equal. */
static const char *same_state(const struct abi_state *n, const struct abi_state *e)
{
    static char m[300];
    const uint64_t *a = &n->rbx, *b = &e->rbx;
    static const char *const names[6] = {"rbx", "rbp", "r12", "r13", "r14", "r15"};
    for (int i = 0; i < 6; i++)
        if (a[i] != b[i]) return snprintf(m, sizeof m, "%s differs", names[i]), m;
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
    s.rbx = rnd(); s.rbp = rnd(); s.r12 = rnd(); s.r13 = rnd(); s.r14 = rnd(); s.r15 = rnd();
    s.mxcsr = 0x1f80;
    s.x87cw = 0x37f;
    s.vec_mode = ABI_VEC_AVX512;
    s.vec_fill = 0x5ca1ab1e0ddba11ull;
    return s;
}

typedef void (*aria_fn)(const uint8_t *, unsigned int, uint8_t *, const uint8_t *, size_t);
static const struct {
    const char *name;
    aria_fn fn;
} arias[] = {
    {"aria_ecb_avx512_gfni_xor", aria_ecb_avx512_gfni_xor},
    {"aria_ecb_avx512_gfni_ternlog", aria_ecb_avx512_gfni_ternlog},
    {"aria_ecb_avx2_gfni", aria_ecb_avx2_gfni},
};
typedef void (*aria_ctr_fn)(const uint8_t *, unsigned int, uint8_t *, const uint8_t *, size_t,
                            uint8_t *);
static const struct {
    const char *name;
    aria_ctr_fn fn;
} aria_ctrs[] = {
    {"aria_ctr_avx512_gfni_xor", aria_ctr_avx512_gfni_xor},
    {"aria_ctr_avx512_gfni_ternlog", aria_ctr_avx512_gfni_ternlog},
    {"aria_ctr_avx2_gfni", aria_ctr_avx2_gfni},
};
typedef void (*cam_fn)(const uint64_t *, unsigned int, uint8_t *, const uint8_t *, size_t);
typedef void (*cam_ctr_fn)(const uint64_t *, unsigned int, uint8_t *, const uint8_t *, size_t,
                           uint8_t *);
static const struct {
    const char *name;
    cam_fn ecb;
    cam_ctr_fn ctr;
} cams[] = {
    {"avx512_gfni_cmpmask", camellia_ecb_avx512_gfni_cmpmask, camellia_ctr_avx512_gfni_cmpmask},
    {"avx512_gfni_gfnishift", camellia_ecb_avx512_gfni_gfnishift,
     camellia_ctr_avx512_gfni_gfnishift},
    {"avx2_gfni", camellia_ecb_avx2_gfni, camellia_ctr_avx2_gfni},
};
typedef void (*nh_fn)(const uint32_t *, const uint8_t *, size_t, uint8_t *);
static const struct {
    const char *name;
    nh_fn fn;
} nhs[] = {{"nh_avx2", nh_avx2}, {"nh_sse2_permload", nh_sse2_permload}};

static uint8_t in[130 * 16], out_n[130 * 16], out_e[130 * 16], want[130 * 16];
static uint32_t nkey[1104 / 4];
static uint8_t msg[1024], hash_n[32], hash_e[32];

int main(void)
{
    char why[300], err[300];
    native = cpu_ok(why, sizeof why);
    if (!native)
        printf("note     %s; emulated calls are judged by the references and abi_check "
               "only\n", why);
    elfsym_load();
    static const size_t counts[] = {1, 7, 16, 31, 32, 33, 63, 64, 65, 100, 128, 129};
    /* ARIA: emulated == native == reference, same register state */
    for (size_t k = 0; k < 3; k++) {
        int bad = 0;
        for (size_t ci = 0; ci < sizeof counts / sizeof counts[0] && !bad; ci++) {
            size_t nb = counts[ci];
            uint8_t key[32];
            fill(key, 32);
            fill(in, sizeof in);
            struct aria_key ak;
            aria_set_encrypt_key(&ak, key, 16 + 8 * (ci % 3));
            aria_ecb(&ak, want, in, nb);
            uint64_t argv[5] = {(uintptr_t)ak.rk, ABI_ARG_U32((unsigned)ak.rounds),
                                (uintptr_t)out_n, (uintptr_t)in, nb};
            struct abi_state b = st_before(), sn = b, se;
            memset(out_n, 0, sizeof out_n);
            uint64_t rax_n = run_native((const void *)arias[k].fn, &sn, argv, 5), rax_e;
            argv[2] = (uintptr_t)out_e;
            memset(out_e, 0, sizeof out_e);
            if (emu_call((const void *)arias[k].fn, argv, 5, &b, &se, &rax_e, err, sizeof err)) {
                snprintf(why, sizeof why, "%zu blocks: %.250s", nb, err);
                bad = 1;
                break;
            }
            const char *d = judge(&b, &sn, &se);
            const char *an = native ? abi_check(&b, &sn, 1) : NULL, *ae = abi_check(&b, &se, 1);
            if (memcmp(out_e, want, 16 * nb) || (native && memcmp(out_n, want, 16 * nb)) || d ||
                (native && rax_n != rax_e) || (!an) != (!ae)) {
                snprintf(why, sizeof why, "%zu blocks: %s", nb, d ? d : memcmp(out_e, want,
                         16 * nb) ? "emulated output differs from aria_ecb" : rax_n != rax_e ?
                         "rax differs" : "abi_check verdicts differ");
                bad = 1;
            }
        }
        char label[100];
        snprintf(label, sizeof label, "%s %s", arias[k].name, native ? "equals native" :
                 "equals the reference (emulated only)");
        check(!bad, label, bad ? why : native ? "1..129 blocks, ARIA-128/192/256: output, "
              "zmm0-31, k0-7, callee-saved, rsp, DF, MXCSR, x87 equal; abi_check accepts both"
              : "1..129 blocks, ARIA-128/192/256: output equals aria_ecb; abi_check accepts "
              "the emulated state");
    }
    /* ARIA CTR: six arguments, the counter updated in place */
    for (size_t k = 0; k < 3; k++) {
        int bad = 0;
        for (size_t ci = 0; ci < sizeof counts / sizeof counts[0] && !bad; ci++) {
            size_t nb = counts[ci];
            uint8_t key[16], ctr0[16], ctr_n[16], ctr_e[16], ctr_w[16];
            fill(key, 16);
            fill(in, sizeof in);
            fill(ctr0, 16);
            memset(ctr0 + 8, 0xff, 7); /* carries into the high half */
            struct aria_key ak;
            aria_set_encrypt_key(&ak, key, 16);
            memcpy(ctr_w, ctr0, 16);
            aria_ctr(&ak, want, in, nb, ctr_w);
            memcpy(ctr_n, ctr0, 16);
            memcpy(ctr_e, ctr0, 16);
            uint64_t argv[6] = {(uintptr_t)ak.rk, ABI_ARG_U32((unsigned)ak.rounds),
                                (uintptr_t)out_n, (uintptr_t)in, nb, (uintptr_t)ctr_n};
            struct abi_state b = st_before(), sn = b, se;
            run_native((const void *)aria_ctrs[k].fn, &sn, argv, 6);
            argv[2] = (uintptr_t)out_e;
            argv[5] = (uintptr_t)ctr_e;
            uint64_t rax_e;
            if (emu_call((const void *)aria_ctrs[k].fn, argv, 6, &b, &se, &rax_e, err,
                         sizeof err)) {
                snprintf(why, sizeof why, "%zu blocks: %.250s", nb, err);
                bad = 1;
                break;
            }
            const char *d = judge(&b, &sn, &se);
            if (d || memcmp(out_e, want, 16 * nb) || memcmp(ctr_e, ctr_w, 16) ||
                (native && (memcmp(out_n, want, 16 * nb) || memcmp(ctr_n, ctr_w, 16)))) {
                snprintf(why, sizeof why, "%zu blocks: %s", nb, d ? d : "output or counter "
                         "differs from aria_ctr");
                bad = 1;
            }
        }
        char label[100];
        snprintf(label, sizeof label, "%s %s", aria_ctrs[k].name, native ? "equals native" :
                 "equals the reference (emulated only)");
        check(!bad, label, bad ? why : native ? "1..129 blocks: output, counter and every "
              "register equal" : "1..129 blocks: output and counter equal aria_ctr's; abi_check "
              "accepts the emulated state");
    }
    /* Camellia ECB (encryption and decryption schedules) and CTR: emulated == native ==
     * reference, same register state */
    for (size_t k = 0; k < 3; k++)
        for (int ctr = 0; ctr < 2; ctr++) {
            int bad = 0;
            for (size_t ci = 0; ci < sizeof counts / sizeof counts[0] && !bad; ci++) {
                size_t nb = counts[ci];
                uint8_t key[32], ctr0[16], ctr_n[16], ctr_e[16], ctr_w[16];
                fill(key, 32);
                fill(in, sizeof in);
                fill(ctr0, 16);
                memset(ctr0 + 8, 0xff, 7); /* carries into the high half */
                struct camellia_key ck;
                if (!ctr && (ci & 1))
                    camellia_set_decrypt_key(&ck, key, 16 + 8 * (ci % 3));
                else
                    camellia_set_encrypt_key(&ck, key, 16 + 8 * (ci % 3));
                memcpy(ctr_w, ctr0, 16);
                memcpy(ctr_n, ctr0, 16);
                memcpy(ctr_e, ctr0, 16);
                if (ctr)
                    camellia_ctr(&ck, want, in, nb, ctr_w);
                else
                    camellia_ecb(&ck, want, in, nb);
                const void *fn = ctr ? (const void *)cams[k].ctr : (const void *)cams[k].ecb;
                uint64_t argv[6] = {(uintptr_t)ck.sk, ABI_ARG_U32(ck.rounds), (uintptr_t)out_n,
                                    (uintptr_t)in, nb, (uintptr_t)ctr_n};
                unsigned na = ctr ? 6 : 5;
                struct abi_state b = st_before(), sn = b, se;
                memset(out_n, 0, sizeof out_n);
                uint64_t rax_n = run_native(fn, &sn, argv, na), rax_e;
                argv[2] = (uintptr_t)out_e;
                argv[5] = (uintptr_t)ctr_e;
                memset(out_e, 0, sizeof out_e);
                if (emu_call(fn, argv, na, &b, &se, &rax_e, err, sizeof err)) {
                    snprintf(why, sizeof why, "%zu blocks: %.250s", nb, err);
                    bad = 1;
                    break;
                }
                const char *d = judge(&b, &sn, &se);
                const char *an = native ? abi_check(&b, &sn, 1) : NULL;
                const char *ae = abi_check(&b, &se, 1);
                int out_bad = memcmp(out_e, want, 16 * nb) || (ctr && memcmp(ctr_e, ctr_w, 16)) ||
                              (native && (memcmp(out_n, want, 16 * nb) ||
                                          (ctr && memcmp(ctr_n, ctr_w, 16))));
                /* rax is not compared: these void kernels leave the address of their key
                 * table on the stack there, and the emulated stack is elsewhere */
                (void)rax_n;
                if (out_bad || d || (!an) != (!ae)) {
                    snprintf(why, sizeof why, "%zu blocks: %s", nb, d ? d : out_bad ?
                             "output or counter differs from the reference's" :
                             "abi_check verdicts differ");
                    bad = 1;
                }
            }
            char label[100];
            snprintf(label, sizeof label, "camellia_%s_%s %s", ctr ? "ctr" : "ecb", cams[k].name,
                     native ? "equals native" : "equals the reference (emulated only)");
            check(!bad, label, bad ? why : native ? "1..129 blocks, CAMELLIA-128/192/256 (ECB: "
                  "encryption and decryption schedules): output, counter, zmm0-31, k0-7, "
                  "callee-saved, rsp, DF, MXCSR, x87 equal; abi_check agrees" : "1..129 blocks: "
                  "output and counter equal the reference's; abi_check accepts the emulated "
                  "state");
        }
    /* camellia_setkey_x86_64: scalar, run by the executor and Unicorn (shld, rep movsb) */
    {
        int bad = 0;
        for (int t = 0; t < 6 && !bad; t++) {
            uint8_t key[32];
            fill(key, 32);
            size_t kl = 16 + 8 * (size_t)(t % 3);
            int dec = t >= 3;
            struct camellia_key want_k;
            if (dec)
                camellia_set_decrypt_key(&want_k, key, kl);
            else
                camellia_set_encrypt_key(&want_k, key, kl);
            uint64_t sk_n[CAMELLIA_MAX_SUBKEYS] = {0}, sk_e[CAMELLIA_MAX_SUBKEYS] = {0};
            unsigned r_n = 0, r_e = 0;
            uint64_t argv[5] = {(uintptr_t)sk_n, (uintptr_t)&r_n, (uintptr_t)key, kl,
                                ABI_ARG_U32((unsigned)dec)};
            struct abi_state b = st_before(), sn = b, se;
            uint64_t rax_e;
            if (native)
                run_native((const void *)camellia_setkey_x86_64, &sn, argv, 5);
            else /* baseline x86-64: runs anywhere, only not under the AVX-512 snapshot */
                camellia_setkey_x86_64(sk_n, &r_n, key, kl, dec);
            argv[0] = (uintptr_t)sk_e;
            argv[1] = (uintptr_t)&r_e;
            if (emu_call((const void *)camellia_setkey_x86_64, argv, 5, &b, &se, &rax_e, err,
                         sizeof err)) {
                snprintf(why, sizeof why, "%zu-byte key: %.250s", kl, err);
                bad = 1;
                break;
            }
            const char *d = judge(&b, &sn, &se);
            size_t n = CAMELLIA_SUBKEYS(want_k.rounds);
            if (d || r_e != want_k.rounds || r_n != r_e || memcmp(sk_e, want_k.sk, 8 * n) ||
                memcmp(sk_n, sk_e, sizeof sk_e)) {
                snprintf(why, sizeof why, "%zu-byte key, %s: %s", kl, dec ? "decrypt" :
                         "encrypt", d ? d : "schedule differs");
                bad = 1;
            }
        }
        check(!bad, "camellia_setkey_x86_64 equals native", bad ? why : native ? "128/192/256-bit "
              "keys, encryption and decryption order: schedule and every register equal (and "
              "equal to reference/camellia.c's)" : "128/192/256-bit keys, both orders: schedule "
              "equal to the native call's and the reference's; abi_check accepts the emulated "
              "state");
    }
    /* NH: AVX2 in the executor; SSE2 through Unicorn */
    for (size_t k = 0; k < 2; k++) {
        int bad = 0;
        for (size_t len = 16; len <= 1024 && !bad; len += 16 * 7) {
            fill(nkey, sizeof nkey);
            fill(msg, sizeof msg);
            uint64_t argv[4] = {(uintptr_t)nkey, (uintptr_t)msg, len, (uintptr_t)hash_n};
            struct abi_state b = st_before(), sn = b, se;
            uint64_t rax_e;
            run_native((const void *)nhs[k].fn, &sn, argv, 4);
            argv[3] = (uintptr_t)hash_e;
            if (emu_call((const void *)nhs[k].fn, argv, 4, &b, &se, &rax_e, err, sizeof err)) {
                snprintf(why, sizeof why, "len %zu: %.250s", len, err);
                bad = 1;
                break;
            }
            const char *d = judge(&b, &sn, &se);
            if (d || memcmp(hash_n, hash_e, 32)) {
                snprintf(why, sizeof why, "len %zu: %s", len, d ? d : "hash differs");
                bad = 1;
            }
        }
        char label[100];
        snprintf(label, sizeof label, "%s %s", nhs[k].name, native ? "equals native" :
                 "equals nh_sse2_permload run natively (emulated only)");
        check(!bad, label, bad ? why : native ? "len 16..1024: hash and every register equal"
              : "len 16..1024: hash equal; abi_check accepts the emulated state");
    }
    /* the narrower register snapshots of the trampoline: SSE (xmm0-15) and AVX (ymm0-15) */
    {
        static const unsigned modes[2] = {ABI_VEC_SSE, ABI_VEC_AVX};
        int bad = 0;
        for (int m = 0; m < 2 && !bad; m++) {
            fill(nkey, sizeof nkey);
            fill(msg, sizeof msg);
            uint64_t argv[4] = {(uintptr_t)nkey, (uintptr_t)msg, 512, (uintptr_t)hash_n};
            struct abi_state b = st_before(), sn, se;
            b.vec_mode = modes[m];
            sn = b;
            run_native((const void *)nh_avx2, &sn, argv, 4);
            argv[3] = (uintptr_t)hash_e;
            uint64_t rax_e;
            if (emu_call((const void *)nh_avx2, argv, 4, &b, &se, &rax_e, err, sizeof err)) {
                snprintf(why, sizeof why, "mode %u: %.250s", modes[m], err);
                bad = 1;
                break;
            }
            const char *d = judge(&b, &sn, &se);
            const char *an = native ? abi_check(&b, &sn, 1) : NULL, *ae = abi_check(&b, &se, 1);
            if (d || (!an) != (!ae) || memcmp(hash_n, hash_e, 32)) {
                snprintf(why, sizeof why, "mode %u: %s", modes[m], d ? d : "abi_check verdicts "
                         "or hashes differ");
                bad = 1;
            }
        }
        check(!bad, "nh_avx2 with the SSE and AVX register snapshots", bad ? why :
              "xmm0-15 (SSE mode) and ymm0-15 (AVX mode) as the trampoline fills them");
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
    /* host pages at identical addresses: a guard page after the buffer */
    uint8_t *pg = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    mprotect(pg + 2 * 4096, 4096, PROT_NONE);
    {
        uint8_t *gin = pg + 2 * 4096 - 16 * 33, *gout = pg + 4096 - 16 * 33;
        struct aria_key ak;
        uint8_t key[16];
        fill(key, 16);
        fill(gin, 16 * 33);
        aria_set_encrypt_key(&ak, key, 16);
        aria_ecb(&ak, want, gin, 33);
        uint64_t argv[5] = {(uintptr_t)ak.rk, 12, (uintptr_t)gout, (uintptr_t)gin, 33};
        struct abi_state b = st_before(), se;
        uint64_t rax;
        int r = emu_call((const void *)aria_ecb_avx512_gfni_ternlog, argv, 5, &b, &se, &rax, err,
                         sizeof err);
        check(r == 0 && !memcmp(gout, want, 16 * 33), "masked tail next to a guard page",
              r ? err : "33 blocks ending at a PROT_NONE page: masked loads never touch it");
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
    /* throughput */
    for (size_t k = 0; k < 3; k++) {
        struct aria_key ak;
        uint8_t key[16];
        fill(key, 16);
        aria_set_encrypt_key(&ak, key, 16);
        uint64_t argv[5] = {(uintptr_t)ak.rk, 12, (uintptr_t)out_e, (uintptr_t)in, 64};
        struct abi_state b = st_before(), se;
        uint64_t rax;
        double t0 = now(), best = 1e9;
        int calls = 0;
        while (now() - t0 < 0.6) {
            double t1 = now();
            emu_call((const void *)arias[k].fn, argv, 5, &b, &se, &rax, err, sizeof err);
            double dt = now() - t1;
            if (dt < best) best = dt;
            calls++;
        }
        uint64_t vi, ut;
        emu_last_stats(&vi, &ut);
        printf("perf     %s ARIA-128 ECB, 64-block calls: %.2f MiB/s emulated (%.0f us/call "
               "best of %d, %llu executor instructions, %llu Unicorn turns)\n", arias[k].name,
               1024.0 / best / 1048576.0, best * 1e6, calls, (unsigned long long)vi,
               (unsigned long long)ut);
    }
    for (size_t k = 0; k < 3; k++) {
        struct camellia_key ck;
        uint8_t key[16];
        fill(key, 16);
        camellia_set_encrypt_key(&ck, key, 16);
        uint64_t argv[5] = {(uintptr_t)ck.sk, 18, (uintptr_t)out_e, (uintptr_t)in, 64};
        struct abi_state b = st_before(), se;
        uint64_t rax;
        double t0 = now(), best = 1e9;
        int calls = 0;
        while (now() - t0 < 0.6) {
            double t1 = now();
            emu_call((const void *)cams[k].ecb, argv, 5, &b, &se, &rax, err, sizeof err);
            double dt = now() - t1;
            if (dt < best) best = dt;
            calls++;
        }
        uint64_t vi, ut;
        emu_last_stats(&vi, &ut);
        printf("perf     camellia_ecb_%s CAMELLIA-128 ECB, 64-block calls: %.2f MiB/s emulated "
               "(%.0f us/call best of %d, %llu executor instructions, %llu Unicorn turns)\n",
               cams[k].name, 1024.0 / best / 1048576.0, best * 1e6, calls,
               (unsigned long long)vi, (unsigned long long)ut);
    }
    for (size_t k = 0; k < 2; k++) {
        uint64_t argv[4] = {(uintptr_t)nkey, (uintptr_t)msg, 1024, (uintptr_t)hash_e};
        struct abi_state b = st_before(), se;
        uint64_t rax;
        double t0 = now(), best = 1e9;
        while (now() - t0 < 0.3) {
            double t1 = now();
            emu_call((const void *)nhs[k].fn, argv, 4, &b, &se, &rax, err, sizeof err);
            double dt = now() - t1;
            if (dt < best) best = dt;
        }
        uint64_t vi, ut;
        emu_last_stats(&vi, &ut);
        printf("perf     %s 1024-byte messages: %.2f MiB/s emulated (%.0f us/call, %llu executor "
               "instructions, %llu Unicorn turns)\n", nhs[k].name, 1024.0 / best / 1048576.0,
               best * 1e6, (unsigned long long)vi, (unsigned long long)ut);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
