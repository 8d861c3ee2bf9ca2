/* gfni_gen.h: what the GFNI constant generators (tools/gen_aria_gfni.c,
 * tools/gen_camellia_gfni.c) share; each keeps its own cipher's derivation.
 *
 *   - GF(2^8) with the AES polynomial x^8 + x^4 + x^3 + x + 1 (0x11b), the
 *     field GFNI inverts in, and the two instructions GF2P8AFFINEQB and
 *     GF2P8AFFINEINVQB byte by byte: emu/gf256.h's, the arithmetic the vector
 *     executor runs them with (written once, from the Intel SDM); here the
 *     inverse kept in a table, and checked before anything relies on it.
 *   - Solving for the qword and imm8 of an affine map over GF(2) given as a
 *     256-byte table.
 *   - The emulation checked against the hardware's GFNI, where the compiler
 *     and this host have it.
 *   - The command line, and writing the generated header or (--check)
 *     comparing it with the file there.
 *
 * Static functions for one generator's translation unit; define
 * _POSIX_C_SOURCE >= 200809L (open_memstream) before including anything. */
#ifndef ASMDIFF_TOOLS_GFNI_GEN_H
#define ASMDIFF_TOOLS_GFNI_GEN_H

#ifndef _POSIX_C_SOURCE
#error "define _POSIX_C_SOURCE 200809L before any include: gfni_gen.h needs open_memstream"
#endif

#include "emu/gf256.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define GFNI_GEN_HW_CHECK 1
#include <immintrin.h>
#else
#define GFNI_GEN_HW_CHECK 0
#endif

/* ---- GF(2^8) with the AES polynomial: emu/gf256.h ---- */

/* x^254 = x^-1 for x != 0, and 0 for 0, as the SDM's inverse table; built
 * from gf256_inv on the first call. */
static inline uint8_t gf_inv(uint8_t x)
{
    static uint8_t table[256];
    static int ready;
    if (!ready) {
        for (int v = 0; v < 256; v++)
            table[v] = gf256_inv((uint8_t)v);
        ready = 1;
    }
    return table[x];
}

/* The emulated field, before anything relies on it: a wrong inversion would
 * make every later check agree with itself and prove nothing. Returns 1 if
 * x * inv(x) = 1 for every x != 0; else prints the first failure, as prog. */
static inline int gf_field_ok(const char *prog)
{
    for (int x = 1; x < 256; x++)
        if (gf256_mul((uint8_t)x, gf_inv((uint8_t)x)) != 1) {
            fprintf(stderr, "%s: inversion in GF(2^8) wrong at 0x%02x\n", prog, x);
            return 0;
        }
    return 1;
}

/* ---- The two instructions, byte by byte: emu/gf256.h's, the inverse from the table ---- */

static inline uint8_t gfni_affine_inv(uint64_t matrix, uint8_t x, uint8_t imm)
{
    return gf256_affine(matrix, gf_inv(x), imm);
}

/* ---- Solving for an affine map over GF(2) ---- */

/* If f is affine, f(x) = M x + c, find the qword and imm8 with
 * gf256_affine(qword, x, imm) == f(x) for all x and return 1; else 0.
 * c = f(0), and column j of M is f(1 << j) ^ c; bit i of column j is row i
 * bit j, and row i sits in byte 7 - i of the qword. Whether f is affine at
 * all is then settled by checking every input. */
static inline int solve_affine(const uint8_t f[256], uint64_t *matrix, uint8_t *imm)
{
    uint8_t c = f[0];
    uint64_t m = 0;
    for (int j = 0; j < 8; j++) {
        uint8_t column = f[1u << j] ^ c;
        for (int i = 0; i < 8; i++)
            if (column & (1u << i))
                m |= UINT64_C(1) << (8 * (7 - i) + j);
    }
    for (int x = 0; x < 256; x++)
        if (gf256_affine(m, (uint8_t)x, c) != f[x])
            return 0;
    *matrix = m;
    *imm = c;
    return 1;
}

/* ---- The emulation against the hardware, where there is GFNI ---- */

#if GFNI_GEN_HW_CHECK
/* The intrinsics take the imm8 only as a constant, so the hardware is run
 * with a fixed imm8 that has bits set and clear in both halves. */
#define GFNI_GEN_HW_IMM 0x5a

/* Both instructions with this matrix, on all 256 inputs, against the
 * emulation; 1 if they all agree. */
__attribute__((target("gfni,sse2")))
static inline int gfni_hw_matches_emulation(uint64_t matrix)
{
    int wrong = 0;
    for (int base = 0; base < 256; base += 16) {
        uint8_t in[16], aff[16], inv[16];
        for (int k = 0; k < 16; k++)
            in[k] = (uint8_t)(base + k);
        __m128i x = _mm_loadu_si128((const __m128i *)in);
        __m128i a = _mm_set1_epi64x((long long)matrix);
        _mm_storeu_si128((__m128i *)aff, _mm_gf2p8affine_epi64_epi8(x, a, GFNI_GEN_HW_IMM));
        _mm_storeu_si128((__m128i *)inv, _mm_gf2p8affineinv_epi64_epi8(x, a, GFNI_GEN_HW_IMM));
        for (int k = 0; k < 16; k++) {
            wrong += aff[k] != gf256_affine(matrix, in[k], GFNI_GEN_HW_IMM);
            wrong += inv[k] != gfni_affine_inv(matrix, in[k], GFNI_GEN_HW_IMM);
        }
    }
    return wrong == 0;
}

/* Returns -1 if the host has no GFNI, else the number of the n matrices on
 * which the hardware and the emulation differ. */
static inline int gfni_hw_check(const uint64_t *matrices, int n)
{
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("gfni"))
        return -1;
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += !gfni_hw_matches_emulation(matrices[i]);
    return bad;
}
#else
static inline int gfni_hw_check(const uint64_t *matrices, int n)
{
    (void)matrices;
    (void)n;
    return -1;
}
#endif

/* gfni_hw_check with its report on stdout; returns 0 unless the hardware
 * disagrees (no GFNI here is not a failure, only said). */
static inline int gfni_hw_report(const uint64_t *matrices, int n)
{
    int hw = gfni_hw_check(matrices, n);
    if (hw < 0)
        printf("hardware: no GFNI on this host; emulation not cross-checked\n");
    else
        printf("hardware: GFNI agrees with the emulation on %s\n",
               hw ? "NOT all matrices" : "all matrices tried");
    return hw > 0;
}

/* ---- The command line and the header file ---- */

/* prog [--check] [OUTPUT]: sets *check_only and *output (default_output
 * unless given). Returns 0, or 2 after a usage message. */
static inline int gfni_gen_args(const char *prog, int argc, char **argv,
                                const char *default_output, int *check_only,
                                const char **output)
{
    *check_only = 0;
    *output = default_output;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--check") == 0)
            *check_only = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: %s [--check] [OUTPUT]\n", prog);
            return 2;
        } else
            *output = argv[i];
    }
    return 0;
}

/* Writes a generator's header to f; arg is the generator's own. */
typedef void gfni_gen_emit_fn(FILE *f, const void *arg);

/* The header as a string, so it can be written or compared. */
static inline char *gfni_gen_render(gfni_gen_emit_fn *emit, const void *arg, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    emit(f, arg);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

static inline char *gfni_gen_read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            char *grown = realloc(buf, cap = cap ? 2 * cap : 4096);
            if (!grown) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = grown;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return buf;
}

/* Renders the header and writes it to output, or with check_only fails
 * unless output already holds exactly that. Returns the exit status: 0, 1 if
 * output is out of date or unreadable (--check), 2 on an I/O error. */
static inline int gfni_gen_output(const char *prog, const char *output, int check_only,
                                  gfni_gen_emit_fn *emit, const void *arg)
{
    size_t len;
    char *text = gfni_gen_render(emit, arg, &len);
    if (!text) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return 2;
    }
    if (check_only) {
        size_t old_len;
        char *old = gfni_gen_read_whole(output, &old_len);
        int same = old && old_len == len && memcmp(old, text, len) == 0;
        if (!same)
            fprintf(stderr, "%s: %s %s; regenerate it\n", prog, output,
                    old ? "is out of date" : "cannot be read");
        free(old);
        free(text);
        return same ? 0 : 1;
    }
    FILE *f = fopen(output, "wb");
    int written = f && fwrite(text, 1, len, f) == len;
    if (f)
        written &= fclose(f) == 0;
    free(text);
    if (!written) {
        fprintf(stderr, "%s: cannot write %s\n", prog, output);
        return 2;
    }
    printf("wrote %s\n", output);
    return 0;
}

#endif
