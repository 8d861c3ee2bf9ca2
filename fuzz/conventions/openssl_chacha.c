/* openssl_chacha.c — OpenSSL's x86-64 ChaCha20 (crypto/chacha/asm/chacha-x86_64.pl of OpenSSL
 * 3.0, as perlasm writes it) as two conventions of the chacha family:
 *
 *   openssl  perlasm's ELF output (flavour elf), System V: ./asmdiff check chacha
 *            --convention openssl
 *   win64    perlasm's Win64 output (flavour mingw64) as it is, Microsoft's x64 calling
 *            convention: ./asmdiff check chacha --convention win64.  The check assembles its
 *            body as ELF (tools/asmdiff/check/build.py: win64_body) and every call goes through
 *            the Win64 checked call (DRV_CALL_WIN64: arguments in rcx, rdx, r8, r9 and above the
 *            shadow space; rdi, rsi and xmm6-15 must come back as they were).
 *
 * Both take the one entry point as OpenSSL's C code declares and calls it (crypto/chacha/
 * chacha_enc.c's prototype, providers' chacha20 cipher):
 *
 *   void ChaCha20_ctr32(unsigned char *out, const unsigned char *inp, size_t len,
 *                       const unsigned int key[8], const unsigned int counter[4]);
 *
 * len bytes of inp XORed with the ChaCha20 keystream (20 rounds only) from counter[0], a 32-bit
 * block counter that wraps (counter[1..3] the nonce), the same ctr32 contract as the family's;
 * key and counter are read, never written: the caller advances counter[0] (by the blocks each
 * call used), as the family's state word 12.  One call takes any length.
 *
 * Which path runs is chosen inside ChaCha20_ctr32 from OPENSSL_ia32cap_P (OpenSSL's CPU
 * capability vector; its bits: crypto/x86_64cpuid.pl and OPENSSL_ia32cap(3)): the operations
 * here are those paths, each run with exactly the bits that choose it set, whatever this CPU
 * has (the kernel then runs in the emulator where the CPU lacks the path's features, as any
 * kernel does).  The check build defines OPENSSL_ia32cap_P (verify/outside/openssl_ia32cap.c,
 * added for these conventions); elsewhere its weak reference (openssl_perlasm.h) is NULL.
 *
 * Leftovers: OpenSSL's assembly promises nothing about vector registers or its stack after a
 * call (it clears neither), so they are information, not findings.  Only the prototype, the
 * capability bits and how the C code calls the function are facts used here. */
#include <stdint.h>
#include <string.h>

#include "driver.h"
#include "openssl_perlasm.h"
#include "stream_upstream.h"

#define CAP1_SSSE3 OPENSSL_CAP1_SSSE3
#define CAP2_AVX2 OPENSSL_CAP2_AVX2
#define CAP2_AVX512F OPENSSL_CAP2_AVX512F
#define CAP2_AVX512VL OPENSSL_CAP2_AVX512VL

struct oc_row {
    const char *name;   /* the operation (--op): the path */
    unsigned cap1, cap2; /* OPENSSL_ia32cap_P[1], [2] for it */
};

/* ChaCha20_ctr32 takes the AVX-512F path (16 blocks a pass) when that bit is set, else the
 * AVX-512VL one (8 blocks, ymm) when VL is, else SSSE3's (with AVX2's 8-block path above 4
 * blocks when AVX2 is set), else the integer one. */
static const struct oc_row rows[] = {
    {"avx512", CAP1_SSSE3, CAP2_AVX2 | CAP2_AVX512F},
    {"avx512vl", CAP1_SSSE3, CAP2_AVX2 | CAP2_AVX512VL},
    {"avx2", CAP1_SSSE3, CAP2_AVX2},
    {"ssse3", CAP1_SSSE3, 0},
    {"x86_64", 0, 0},
};
#define NROWS (sizeof rows / sizeof rows[0])

typedef void (*openssl_chacha_fn)(uint8_t *out, const uint8_t *inp, size_t len,
                                  const uint32_t key[8], const uint32_t counter[4]);

struct oc_kernel {
    struct stream_upstream k; /* first: the family's view (stream_upstream.h) */
    const struct oc_row *row;
    int win64;
};

/* One family call: one call of ChaCha20_ctr32 (none for an empty one: OpenSSL's cipher makes
 * none), the counter advanced after it as the C caller does. */
static void call(const struct oc_kernel *ok, uint32_t state[16], uint8_t *dst, const uint8_t *src,
                 size_t len, int checked)
{
    if (!len) return;
    openssl_caps_set(ok->row->cap1, ok->row->cap2);
    if (!checked)
        ((openssl_chacha_fn)ok->k.fn)(dst, src, len, state + 4, state + 12);
#if defined(__x86_64__)
    else if (ok->win64)
        DRV_CALL_WIN64(ok->k.fn, dst, src, len, state + 4, state + 12);
#endif
    else
        DRV_CALL((openssl_chacha_fn)ok->k.fn, dst, src, len, state + 4, state + 12);
    state[12] += (uint32_t)((len + 63) / 64);
}

static void ctr32(const struct stream_upstream *k, uint32_t state[16], uint8_t *dst,
                  const uint8_t *src, size_t len, unsigned int nrounds)
{
    (void)nrounds; /* 20: accepts() */
    call((const struct oc_kernel *)k, state, dst, src, len, 1);
}

static void bench32(const struct stream_upstream *k, uint32_t state[16], uint8_t *buf,
                    size_t len, unsigned int nrounds)
{
    (void)nrounds;
    const struct oc_kernel *ok = (const struct oc_kernel *)k;
    /* the bench calls the function directly: a Win64 function cannot be called so */
    if (ok->win64) return;
    call(ok, state, buf, buf, len, 0);
}

static struct oc_kernel kernels[OUTSIDE_MAX];
static size_t nkernels;

static const char *op_name(const struct convention *cv, size_t op)
{
    (void)cv;
    return op < NROWS ? rows[op].name : "?";
}

static const void *make_ops(const struct convention *cv, const void *fn, size_t op)
{
    if (nkernels == OUTSIDE_MAX || op >= NROWS) return NULL;
    openssl_caps_region();
    int win64 = !strcmp(cv->name, "win64");
    kernels[nkernels] = (struct oc_kernel){
        .k = {.fn = fn, .max_blocks = SIZE_MAX / 64, .ctr32 = ctr32, .ctr64 = NULL,
              .bench32 = win64 ? NULL : bench32, .rounds_only = 20},
        .row = &rows[op], .win64 = win64};
    return &kernels[nkernels++].k;
}

/* ChaCha20 only: a case at 8 or 12 rounds is not this function's (stream_upstream.h: the
 * family's case begins with its rounds). */
static int accepts(const struct convention *cv, const void *ops, const void *c)
{
    (void)cv, (void)ops;
    return ((const struct stream_case_head *)c)->rounds == 20;
}

#define OPENSSL_CHACHA_PROTOTYPE                                                              \
    "void ChaCha20_ctr32(unsigned char *out, const unsigned char *inp, size_t len, const "    \
    "unsigned int key[8], const unsigned int counter[4]): ChaCha20 (20 rounds), counter[0] a " \
    "32-bit block counter (wraps), key and counter not written; the path chosen from "        \
    "OPENSSL_ia32cap_P (--op: avx512, avx512vl, avx2, ssse3, x86_64)"

/* convention_openssl_chacha and convention_win64_chacha (no file win64_chacha.c: the
 * mingw64 output is this one's second row) */
OPENSSL_PERLASM_CONVENTIONS(chacha, OPENSSL_CHACHA_PROTOTYPE, .nops = NROWS, .op_name = op_name,
                            .make_ops = make_ops, .identify = openssl_identify_first,
                            .same_operation = openssl_same_operation, .accepts = accepts,
                            .rows = rows);
