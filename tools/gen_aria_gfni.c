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
 * The two instructions (their SDM definitions, the emulation, the affine
 * solver and the hardware check are in tools/gfni_gen.h), per byte x:
 * GF2P8AFFINEQB is A x ^ b and GF2P8AFFINEINVQB is A inv(x) ^ b, where inv is
 * inversion in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (0x11b), with
 * inv(0) = 0. Inversion comes first in AFFINEINV, so one AFFINEINV computes
 * any S-box of the form affine(inv(x)); an S-box of the form inv(affine(x))
 * needs an AFFINE first, then an AFFINEINV whose affine part is the
 * identity. */
#define _POSIX_C_SOURCE 200809L     /* open_memstream */

#include "reference/aria.h"

#include "tools/gfni_gen.h"

#define DEFAULT_OUTPUT "kernels/aria/aria-gfni-constants.h"

#define NSBOX 4

/* The matrix whose row i (byte 7-i) selects input bit i: y = x. */
#define IDENTITY_MATRIX UINT64_C(0x0102040810204080)

/* Arbitrary matrices the hardware check runs besides the constants. */
#define HW_ARBITRARY 64

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
        x = gf256_affine(s->pre_matrix, x, s->pre_imm);
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

/* ---- The hardware check (tools/gfni_gen.h) ---- */

/* The matrices to run on the hardware: the derived ones, the identity, and
 * a spread of arbitrary ones. Returns how many it put in m. */
static int hw_matrices(const struct sbox_gfni *sboxes, int n, uint64_t m[])
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        m[k++] = sboxes[i].matrix;
        if (sboxes[i].steps == 2)
            m[k++] = sboxes[i].pre_matrix;
    }
    m[k++] = IDENTITY_MATRIX;
    uint64_t x = UINT64_C(0x243f6a8885a308d3);     /* pi, an arbitrary start */
    for (int i = 0; i < HW_ARBITRARY; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        m[k++] = x;
    }
    return k;
}

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

static void emit_header(FILE *f, const void *arg)
{
    const struct sbox_gfni *sboxes = arg;
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
    for (int i = 0; i < NSBOX; i++)
        emit_sbox(f, &sboxes[i]);
    fputs("\n#endif\n", f);
}

int main(int argc, char **argv)
{
    int check_only;
    const char *output;
    int usage = gfni_gen_args("gen_aria_gfni", argc, argv, DEFAULT_OUTPUT, &check_only, &output);
    if (usage)
        return usage;

    struct sbox_gfni sboxes[NSBOX] = {
        { .name = "S1", .rfc_name = "SB1", .table = aria_sb1 },
        { .name = "S2", .rfc_name = "SB2", .table = aria_sb2 },
        { .name = "S1_INV", .rfc_name = "SB3", .table = aria_sb1_inv },
        { .name = "S2_INV", .rfc_name = "SB4", .table = aria_sb2_inv },
    };
    int failed = 0;

    if (!gf_field_ok("gen_aria_gfni"))
        return 1;

    for (int i = 0; i < NSBOX; i++) {
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

    uint64_t m[2 * NSBOX + 1 + HW_ARBITRARY];
    int nm = hw_matrices(sboxes, NSBOX, m);
    if (gfni_hw_report(m, nm))
        return 1;

    return gfni_gen_output("gen_aria_gfni", output, check_only, emit_header, sboxes);
}
