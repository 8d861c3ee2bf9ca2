/* gen_aria_gfni: derives the GFNI bit-matrices and immediates that compute
 * ARIA's four S-boxes, checks them over all 256 inputs, and writes them as
 * kernels/aria/aria-gfni-constants.h.
 *
 *   gen_aria_gfni [OUTPUT]          derive, check, write OUTPUT (default the
 *                                   path above, relative to the source root)
 *   gen_aria_gfni --check [OUTPUT]  derive, check, and fail unless OUTPUT is
 *                                   exactly what would be written
 * Exits 0 on success, 1 if a derivation or check fails or OUTPUT differs,
 * 2 on a usage or I/O error.
 *
 * Nothing here is a hard-coded matrix: every constant is solved for from the
 * reference tables in reference/aria.c, then checked through an emulation of
 * the two instructions written from the Intel SDM's pseudo-code, and, when
 * this host has GFNI, that emulation is itself checked against the hardware.
 *
 * The two instructions, per byte x, with A a qword and b the imm8 (SDM):
 *   GF2P8AFFINEQB     bit i of result = parity(A.byte[7-i] AND x)      ^ b.bit[i]
 *   GF2P8AFFINEINVQB  bit i of result = parity(A.byte[7-i] AND inv(x)) ^ b.bit[i]
 * where inv is inversion in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (0x11b),
 * with inv(0) = 0. Inversion comes first in AFFINEINV, so one AFFINEINV
 * computes any S-box of the form affine(inv(x)); an S-box of the form
 * inv(affine(x)) needs an AFFINE first, then an AFFINEINV whose affine part
 * is the identity. */
#define _POSIX_C_SOURCE 200809L     /* open_memstream */

#include "reference/aria.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define HAVE_X86_GFNI_CHECK 1
#include <immintrin.h>
#else
#define HAVE_X86_GFNI_CHECK 0
#endif

#define DEFAULT_OUTPUT "kernels/aria/aria-gfni-constants.h"

/* The matrix whose row i (byte 7-i) selects input bit i: y = x. */
#define IDENTITY_MATRIX UINT64_C(0x0102040810204080)

/* ---- GF(2^8) with the AES polynomial, independent of any table ---- */

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
    unsigned r = 0, x = a;
    for (int i = 0; i < 8; i++) {
        if (b & (1u << i))
            r ^= x;
        x <<= 1;
        if (x & 0x100)
            x ^= 0x11b;
    }
    return (uint8_t)r;
}

/* x^254 = x^-1 for x != 0, and 0 for 0, as the SDM's inverse table. */
static uint8_t gf_inv(uint8_t x)
{
    uint8_t r = 1;
    for (int i = 0; i < 254; i++)
        r = gf_mul(r, x);
    return r;
}

/* ---- The two instructions, byte by byte, as the SDM writes them ---- */

static unsigned parity8(unsigned v)
{
    v ^= v >> 4;
    v ^= v >> 2;
    v ^= v >> 1;
    return v & 1;
}

static uint8_t gfni_affine(uint64_t matrix, uint8_t x, uint8_t imm)
{
    uint8_t r = 0;
    for (int i = 0; i < 8; i++) {
        uint8_t row = (uint8_t)(matrix >> (8 * (7 - i)));
        r |= (uint8_t)((parity8(row & x) ^ ((imm >> i) & 1)) << i);
    }
    return r;
}

static uint8_t gfni_affine_inv(uint64_t matrix, uint8_t x, uint8_t imm)
{
    return gfni_affine(matrix, gf_inv(x), imm);
}

/* ---- Solving for an affine map over GF(2) ---- */

/* If f is affine, f(x) = M x + c, find the qword and imm8 with
 * gfni_affine(qword, x, imm) == f(x) for all x and return 1; else 0.
 * c = f(0), and column j of M is f(1 << j) ^ c; bit i of column j is row i
 * bit j, and row i sits in byte 7 - i of the qword. Whether f is affine at
 * all is then settled by checking every input. */
static int solve_affine(const uint8_t f[256], uint64_t *matrix, uint8_t *imm)
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
        if (gfni_affine(m, (uint8_t)x, c) != f[x])
            return 0;
    *matrix = m;
    *imm = c;
    return 1;
}

/* ---- One S-box: its derivation and its check ---- */

struct sbox_gfni {
    const char *name;           /* macro infix: S1, S2, S1_INV, S2_INV */
    const char *rfc_name;       /* the RFC's name: SB1 .. SB4 */
    const uint8_t *table;       /* reference/aria.c's table */
    int steps;                  /* 1: AFFINEINV alone; 2: AFFINE then AFFINEINV */
    uint64_t pre_matrix;        /* the AFFINE step, when steps == 2 */
    uint8_t pre_imm;
    uint64_t matrix;            /* the AFFINEINV step */
    uint8_t imm;
};

/* First try S(x) = M inv(x) + c: since inv is its own inverse, that holds
 * exactly when g(y) = S(inv(y)) is affine. Failing that, try
 * S(x) = inv(P x + p), which holds exactly when h(x) = inv(S(x)) is affine;
 * the AFFINEINV step is then the identity with imm 0, a bare inversion. */
static int derive(struct sbox_gfni *s)
{
    uint8_t g[256], h[256];
    for (int x = 0; x < 256; x++) {
        g[x] = s->table[gf_inv((uint8_t)x)];
        h[x] = gf_inv(s->table[x]);
    }
    if (solve_affine(g, &s->matrix, &s->imm)) {
        s->steps = 1;
        return 1;
    }
    if (solve_affine(h, &s->pre_matrix, &s->pre_imm)) {
        s->steps = 2;
        s->matrix = IDENTITY_MATRIX;
        s->imm = 0;
        return 1;
    }
    return 0;
}

static uint8_t sbox_via_gfni(const struct sbox_gfni *s, uint8_t x)
{
    if (s->steps == 2)
        x = gfni_affine(s->pre_matrix, x, s->pre_imm);
    return gfni_affine_inv(s->matrix, x, s->imm);
}

/* Every input, against the reference table. Returns the number of wrong
 * outputs, printing the first. */
static int check_sbox(const struct sbox_gfni *s)
{
    int wrong = 0;
    for (int x = 0; x < 256; x++) {
        uint8_t got = sbox_via_gfni(s, (uint8_t)x);
        if (got != s->table[x] && wrong++ == 0)
            fprintf(stderr, "gen_aria_gfni: %s(0x%02x): GFNI gives 0x%02x, table 0x%02x\n",
                    s->rfc_name, x, got, s->table[x]);
    }
    return wrong;
}

/* ---- The emulation against the hardware, where there is GFNI ---- */

#if HAVE_X86_GFNI_CHECK
/* The intrinsics take the imm8 only as a constant, so the hardware is run
 * with a fixed imm8 that has bits set and clear in both halves. */
#define HW_IMM 0x5a

__attribute__((target("gfni,sse2")))
static int hw_matches_emulation(uint64_t matrix)
{
    int wrong = 0;
    for (int base = 0; base < 256; base += 16) {
        uint8_t in[16], aff[16], inv[16];
        for (int k = 0; k < 16; k++)
            in[k] = (uint8_t)(base + k);
        __m128i x = _mm_loadu_si128((const __m128i *)in);
        __m128i a = _mm_set1_epi64x((long long)matrix);
        _mm_storeu_si128((__m128i *)aff, _mm_gf2p8affine_epi64_epi8(x, a, HW_IMM));
        _mm_storeu_si128((__m128i *)inv, _mm_gf2p8affineinv_epi64_epi8(x, a, HW_IMM));
        for (int k = 0; k < 16; k++) {
            wrong += aff[k] != gfni_affine(matrix, in[k], HW_IMM);
            wrong += inv[k] != gfni_affine_inv(matrix, in[k], HW_IMM);
        }
    }
    return wrong == 0;
}

/* Returns -1 if the host has no GFNI, else the number of matrices on which
 * the hardware and the emulation differ: the derived ones, the identity,
 * and a spread of arbitrary ones. */
static int hw_check(const struct sbox_gfni *sboxes, int n)
{
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("gfni"))
        return -1;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        bad += !hw_matches_emulation(sboxes[i].matrix);
        if (sboxes[i].steps == 2)
            bad += !hw_matches_emulation(sboxes[i].pre_matrix);
    }
    bad += !hw_matches_emulation(IDENTITY_MATRIX);
    uint64_t m = UINT64_C(0x243f6a8885a308d3);     /* pi, an arbitrary start */
    for (int i = 0; i < 64; i++) {
        m ^= m << 13;
        m ^= m >> 7;
        m ^= m << 17;
        bad += !hw_matches_emulation(m);
    }
    return bad;
}
#else
static int hw_check(const struct sbox_gfni *sboxes, int n)
{
    (void)sboxes;
    (void)n;
    return -1;
}
#endif

/* ---- The header ---- */

static void emit_sbox(FILE *f, const struct sbox_gfni *s)
{
    fprintf(f, "\n/* %s = %s:", s->name, s->rfc_name);
    if (s->steps == 1) {
        fprintf(f, " one instruction, affine after inversion,\n"
                   " *   vgf2p8affineinvqb $ARIA_GFNI_%s_IMM, {ARIA_GFNI_%s_MATRIX}, x, x */\n",
                s->name, s->name);
    } else {
        fprintf(f, " two instructions, inversion after an affine map,\n"
                   " *   vgf2p8affineqb    $ARIA_GFNI_%s_PRE_IMM, {ARIA_GFNI_%s_PRE_MATRIX}, x, x\n"
                   " *   vgf2p8affineinvqb $ARIA_GFNI_%s_IMM, {ARIA_GFNI_%s_MATRIX}, x, x\n"
                   " * (the second is a bare inversion: identity matrix, imm8 0). */\n",
                s->name, s->name, s->name, s->name);
    }
    fprintf(f, "#define ARIA_GFNI_%s_STEPS %d\n", s->name, s->steps);
    if (s->steps == 2) {
        fprintf(f, "#define ARIA_GFNI_%s_PRE_MATRIX 0x%016" PRIx64 "\n", s->name, s->pre_matrix);
        fprintf(f, "#define ARIA_GFNI_%s_PRE_IMM 0x%02x\n", s->name, s->pre_imm);
    }
    fprintf(f, "#define ARIA_GFNI_%s_MATRIX 0x%016" PRIx64 "\n", s->name, s->matrix);
    fprintf(f, "#define ARIA_GFNI_%s_IMM 0x%02x\n", s->name, s->imm);
}

static void emit_header(FILE *f, const struct sbox_gfni *sboxes, int n)
{
    fputs("/* Generated by tools/gen_aria_gfni.c; do not edit. Regenerate from the source root\n"
          " * with a built gen_aria_gfni: `gen_aria_gfni kernels/aria/aria-gfni-constants.h`\n"
          " * (`--check` instead verifies this file is current).\n"
          " *\n"
          " * GFNI constants for ARIA's S-boxes (RFC 5794 section 2.4.2), each checked\n"
          " * over all 256 inputs against the tables of reference/aria.c.\n"
          " *\n"
          " * A MATRIX is the qword operand of vgf2p8affineqb / vgf2p8affineinvqb, to be\n"
          " * broadcast to every qword lane: byte 7-i holds row i, the input bits whose\n"
          " * parity gives output bit i. An IMM is the imm8, the constant XORed in last.\n"
          " * AT&T operand order: vgf2p8affine[inv]qb $imm8, matrix, x, result.\n"
          " *\n"
          " * Plain integer literals only, so this header serves C and, through the C\n"
          " * preprocessor, GNU as (`.quad ARIA_GFNI_S1_MATRIX`, `$ARIA_GFNI_S1_IMM`). */\n"
          "#ifndef ASMDIFF_ARIA_GFNI_CONSTANTS_H\n"
          "#define ASMDIFF_ARIA_GFNI_CONSTANTS_H\n",
          f);
    fprintf(f, "\n/* The identity matrix: with imm8 0, vgf2p8affineinvqb is inversion alone. */\n"
               "#define ARIA_GFNI_IDENTITY_MATRIX 0x%016" PRIx64 "\n", IDENTITY_MATRIX);
    for (int i = 0; i < n; i++)
        emit_sbox(f, &sboxes[i]);
    fputs("\n#endif\n", f);
}

/* The header as a string, so it can be written or compared. */
static char *render_header(const struct sbox_gfni *sboxes, int n, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    emit_header(f, sboxes, n);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

static char *read_file(const char *path, size_t *len)
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

int main(int argc, char **argv)
{
    int check_only = 0;
    const char *output = DEFAULT_OUTPUT;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--check") == 0)
            check_only = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: gen_aria_gfni [--check] [OUTPUT]\n");
            return 2;
        } else
            output = argv[i];
    }

    struct sbox_gfni sboxes[4] = {
        { .name = "S1", .rfc_name = "SB1", .table = aria_sb1 },
        { .name = "S2", .rfc_name = "SB2", .table = aria_sb2 },
        { .name = "S1_INV", .rfc_name = "SB3", .table = aria_sb1_inv },
        { .name = "S2_INV", .rfc_name = "SB4", .table = aria_sb2_inv },
    };
    int failed = 0;

    /* The emulated field first: a wrong inversion would make every later
     * check agree with itself and prove nothing. */
    for (int x = 1; x < 256; x++)
        if (gf_mul((uint8_t)x, gf_inv((uint8_t)x)) != 1) {
            fprintf(stderr, "gen_aria_gfni: inversion in GF(2^8) wrong at 0x%02x\n", x);
            return 1;
        }

    for (int i = 0; i < 4; i++) {
        struct sbox_gfni *s = &sboxes[i];
        if (!derive(s)) {
            fprintf(stderr, "gen_aria_gfni: %s is neither affine(inv(x)) nor inv(affine(x))\n",
                    s->rfc_name);
            failed = 1;
            continue;
        }
        int wrong = check_sbox(s);
        printf("%-6s (%s): %3d/256 inputs match the table, %s", s->name, s->rfc_name,
               256 - wrong,
               s->steps == 1 ? "vgf2p8affineinvqb" : "vgf2p8affineqb + vgf2p8affineinvqb");
        if (s->steps == 2)
            printf("; pre 0x%016" PRIx64 "/0x%02x", s->pre_matrix, s->pre_imm);
        printf("; matrix 0x%016" PRIx64 "/0x%02x\n", s->matrix, s->imm);
        failed |= wrong != 0;
    }
    if (failed)
        return 1;

    int hw = hw_check(sboxes, 4);
    if (hw < 0)
        printf("hardware: no GFNI on this host; emulation not cross-checked\n");
    else
        printf("hardware: GFNI agrees with the emulation on %s\n",
               hw ? "NOT all matrices" : "all matrices tried");
    if (hw > 0)
        return 1;

    size_t len;
    char *text = render_header(sboxes, 4, &len);
    if (!text) {
        fprintf(stderr, "gen_aria_gfni: out of memory\n");
        return 2;
    }
    if (check_only) {
        size_t old_len;
        char *old = read_file(output, &old_len);
        int same = old && old_len == len && memcmp(old, text, len) == 0;
        if (!same)
            fprintf(stderr, "gen_aria_gfni: %s %s; regenerate it\n", output,
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
        fprintf(stderr, "gen_aria_gfni: cannot write %s\n", output);
        return 2;
    }
    printf("wrote %s\n", output);
    return 0;
}
