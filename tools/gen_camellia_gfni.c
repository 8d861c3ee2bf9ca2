/* gen_camellia_gfni: derives the GFNI bit-matrices and immediates that compute
 * Camellia's four S-boxes and the per-byte right shift by 7 of its FL layer,
 * checks them over all 256 inputs, and writes them as
 * kernels/camellia/camellia-gfni-constants.h.
 *
 *   gen_camellia_gfni [OUTPUT]          derive, check, write OUTPUT (default the
 *                                       path above, relative to the source root)
 *   gen_camellia_gfni --check [OUTPUT]  derive, check, and fail unless OUTPUT
 *                                       is exactly what would be written
 * Exits 0 on success, 1 if a derivation or check fails or OUTPUT differs,
 * 2 on a usage or I/O error.
 *
 * Camellia's SBOX1 is affine(inverse(affine(x))), but its inversion is in a
 * different representation of GF(2^8) than the one GFNI inverts in (AES's,
 * modulo x^8 + x^4 + x^3 + x + 1). Any two representations differ by a linear
 * map of GF(2)^8, which folds into the affine maps on either side, so
 *     SBOX1(x) = L2 inv(L1 (x ^ a)) ^ b
 * for some GF(2)-linear L1, L2, the AES-field inv, and bytes a, b: one
 * vgf2p8affineqb (L1, imm L1 a) and one vgf2p8affineinvqb (L2, imm b).
 * Nothing here is a hard-coded matrix: a, L1 and L2 are solved for from the
 * table in reference/camellia.c, as follows.
 *   a: inv(0) = 0 makes x = a the one input where the inversion sees 0. For
 *      the right a, T(y) = SBOX1(y ^ a) ^ SBOX1(a) = L2 inv(L1 y) is linearly
 *      equivalent to inv, and so has exactly 85 two-dimensional linear
 *      subspaces {0, y, z, y^z} on which its values XOR to 0 (the images
 *      under L1 of the 85 lines GF(4) w: inv(u) ^ inv(v) = inv(u ^ v) iff
 *      u / v is a primitive cube root of 1). Every a is counted; exactly one
 *      must give 85.
 *   L1, L2: L1 is fixed by its images of the bits 0..7, chosen one by one
 *      (bit 0 -> 1 loses nothing: inv(c z) = c^-1 inv(z) moves any constant
 *      into L2); each choice extends the partial linear map L2 by the pairs
 *      (inv(L1 y), T(y)) of the new points y, and is dropped as soon as those
 *      pairs are not linear. Depth-first; the first complete L1 is taken.
 * SBOX2 = SBOX1 <<< 1 and SBOX3 = SBOX1 <<< 7 rotate L2 and b; SBOX4(x) =
 * SBOX1(x <<< 1) rotates L1's input. Each of the four S-boxes is then checked
 * over all 256 inputs, through an emulation of the two instructions written
 * from the Intel SDM's pseudo-code, against reference/camellia.c; and where
 * this host has GFNI, the emulation is itself checked against the hardware.
 *
 * The two instructions (their SDM definitions, the emulation, the affine
 * solver and the hardware check are in tools/gfni_gen.h), per byte x:
 * GF2P8AFFINEQB is A x ^ b and GF2P8AFFINEINVQB is A inv(x) ^ b. */
#define _POSIX_C_SOURCE 200809L     /* open_memstream */

#include "reference/camellia.h"

#include "tools/gfni_gen.h"

#define DEFAULT_OUTPUT "kernels/camellia/camellia-gfni-constants.h"

#define NSBOX 4

static uint8_t rotl8(uint8_t x, unsigned n) { return (uint8_t)((x << n) | (x >> ((8 - n) & 7))); }

/* ---- Solving SBOX1 = L2 inv(L1 (x ^ a)) ^ b ---- */

static uint8_t T[256];                  /* SBOX1(y ^ a) ^ SBOX1(a) for the chosen a */

static int zero_sum_planes(uint8_t a)
{
    uint8_t t[256];
    for (int y = 0; y < 256; y++)
        t[y] = camellia_sbox1[y ^ a] ^ camellia_sbox1[a];
    int n = 0;
    for (int y = 1; y < 256; y++)
        for (int z = y + 1; z < 256; z++)
            if ((y ^ z) > z && !(t[y] ^ t[z] ^ t[y ^ z]))   /* each plane once: y < z < y^z */
                n++;
    return n;
}

/* The partial linear map L2 as an echelon basis: v[i] has leading bit lead[i]
 * and maps to w[i]. */
struct partial_linear { int n; uint8_t v[8], w[8], lead[8]; };

/* Add the pair v -> w; returns 0 if it contradicts the pairs already there. */
static int pl_add(struct partial_linear *p, uint8_t v, uint8_t w)
{
    for (int i = 0; i < p->n; i++)
        if (v & (1u << p->lead[i]))
            v ^= p->v[i], w ^= p->w[i];
    if (!v)
        return w == 0;
    int lead = 7;
    while (!(v & (1u << lead)))
        lead--;
    p->v[p->n] = v, p->w[p->n] = w, p->lead[p->n] = (uint8_t)lead, p->n++;
    return 1;
}

static uint8_t l1_cols[8];              /* L1: image of bit j */
static struct partial_linear l2_found;

static uint8_t apply(const uint8_t cols[8], uint8_t y)
{
    uint8_t r = 0;
    for (int j = 0; j < 8; j++)
        if (y & (1u << j))
            r ^= cols[j];
    return r;
}

/* Choose L1's image of bit k, given bits 0..k-1; p holds the L2 pairs so far. */
static int search(int k, const struct partial_linear *p)
{
    if (k == 8) {
        l2_found = *p;
        return 1;
    }
    for (int u = 1; u < 256; u++) {
        /* u must be outside the span of the earlier images */
        int in_span = 0;
        for (int y = 0; y < (1 << k) && !in_span; y++)
            in_span = apply(l1_cols, (uint8_t)y) == u;
        if (in_span)
            continue;
        l1_cols[k] = (uint8_t)u;
        struct partial_linear q = *p;
        int ok = 1;
        for (int y = 1 << k; y < (2 << k) && ok; y++)
            ok = pl_add(&q, gf_inv(apply(l1_cols, (uint8_t)y)), T[y]);
        if (ok && search(k + 1, &q))
            return 1;
        if (k == 0)
            break;                      /* bit 0 -> 1 only, see the top comment */
    }
    return 0;
}

/* L2 as a table, from the basis pairs. */
static uint8_t l2_apply(uint8_t v)
{
    uint8_t w = 0;
    for (int i = 0; i < l2_found.n; i++)
        if (v & (1u << l2_found.lead[i]))
            v ^= l2_found.v[i], w ^= l2_found.w[i];
    return w;
}

/* ---- The constants ---- */

struct sbox_gfni {
    const char *name;           /* macro infix: S1 .. S4 */
    uint64_t pre_matrix;        /* vgf2p8affineqb */
    uint8_t pre_imm;
    uint64_t matrix;            /* vgf2p8affineinvqb */
    uint8_t imm;
    uint8_t table[256];         /* reference/camellia.c's SBOXn */
};

static uint64_t shr7_matrix;
static uint8_t shr7_imm;

static int derive(struct sbox_gfni s[NSBOX])
{
    int found = -1, count = 0;
    for (int a = 0; a < 256; a++)
        if (zero_sum_planes((uint8_t)a) == 85)
            found = a, count++;
    if (count != 1) {
        fprintf(stderr, "gen_camellia_gfni: %d candidates for the inversion's zero input\n", count);
        return 0;
    }
    uint8_t a = (uint8_t)found, b = camellia_sbox1[a];
    for (int y = 0; y < 256; y++)
        T[y] = camellia_sbox1[y ^ a] ^ b;
    struct partial_linear empty = { 0 };
    if (!search(0, &empty) || l2_found.n != 8) {
        fprintf(stderr, "gen_camellia_gfni: SBOX1 is not affine(inv(affine(x)))\n");
        return 0;
    }
    printf("SBOX1(x) = L2 inv(L1 (x ^ 0x%02x)) ^ 0x%02x\n", a, b);

    /* Each step as a function table, then solved for its qword and imm8. */
    uint8_t pre[256], pre4[256], post[NSBOX][256], shr[256];
    for (int x = 0; x < 256; x++) {
        pre[x] = apply(l1_cols, (uint8_t)(x ^ a));
        pre4[x] = apply(l1_cols, (uint8_t)(rotl8((uint8_t)x, 1) ^ a));
        uint8_t v = (uint8_t)(l2_apply((uint8_t)x) ^ b);     /* x stands for inv(...) */
        post[0][x] = v;
        post[1][x] = rotl8(v, 1);
        post[2][x] = rotl8(v, 7);
        post[3][x] = v;
        shr[x] = (uint8_t)(x >> 7);
    }
    /* affineinv applies its affine map to inv(x): that map is post itself */
    for (int i = 0; i < NSBOX; i++) {
        if (!solve_affine(i == 3 ? pre4 : pre, &s[i].pre_matrix, &s[i].pre_imm) ||
            !solve_affine(post[i], &s[i].matrix, &s[i].imm)) {
            fprintf(stderr, "gen_camellia_gfni: %s: a step is not affine\n", s[i].name);
            return 0;
        }
    }
    if (!solve_affine(shr, &shr7_matrix, &shr7_imm) || shr7_imm != 0) {
        fprintf(stderr, "gen_camellia_gfni: x >> 7 is not linear?\n");
        return 0;
    }
    return 1;
}

/* Every input, against the reference table. Returns the number of wrong outputs. */
static int check_sbox(const struct sbox_gfni *s)
{
    int wrong = 0;
    for (int x = 0; x < 256; x++) {
        uint8_t pre = gf256_affine(s->pre_matrix, (uint8_t)x, s->pre_imm);
        uint8_t got = gfni_affine_inv(s->matrix, pre, s->imm);
        if (got != s->table[x] && wrong++ == 0)
            fprintf(stderr, "gen_camellia_gfni: %s(0x%02x): GFNI gives 0x%02x, table 0x%02x\n",
                    s->name, x, got, s->table[x]);
    }
    return wrong;
}

static int check_shr7(void)
{
    int wrong = 0;
    for (int x = 0; x < 256; x++)
        wrong += gf256_affine(shr7_matrix, (uint8_t)x, 0) != (x >> 7);
    return wrong;
}


/* ---- The field form: the state kept as A x, A the linear part of PRE ---- */

/* camellia_*_avx512_gfni_field keeps every state byte x as A x (A = L1, PRE's linear part,
 * PRE = A x ^ c). P, the XOR into the other half and the key XORs are XORs of whole bytes, so
 * they commute with A; the round keys are kept as A k ^ c (c folded in), so an S-box input is
 * exactly PRE(x ^ k) and each S-box is one vgf2p8affineinvqb with A POSTn (FIELD_Sn), the
 * SBOX4 bytes first A R A^-1 (R the rotate by one) through FIELD_S4_PRE. FL's x & k is
 * diag(k) x, linear in x: in the field it is the key-dependent matrix A S diag(k) A^-1 (S the
 * shift left by 1, the shift right by 7, or nothing), whose every byte is a linear function of
 * k: the kernel builds those matrices per call with one vgf2p8affineqb per type from the GEN
 * tables below (qword p of GEN_t maps k to byte p of the type-t matrix for k). */
static uint8_t field_a[256], field_ainv[256];   /* A x, A^-1 x */
static uint64_t field_matrix, unfield_matrix, field_s_matrix[3], field_s4_pre_matrix;
static uint8_t field_c, field_s_imm[3], field_s4_pre_imm;
static uint64_t fl_gen[3][8];                   /* SHL, SHR, AND: qword p -> byte p */
static const char *const fl_gen_name[3] = { "SHL", "SHR", "AND" };

static uint8_t fl_shift(int type, uint8_t v)
{
    return type == 0 ? (uint8_t)(v << 1) : type == 1 ? (uint8_t)(v >> 7) : v;
}

/* The type-t FL matrix for key byte k: A S diag(k) A^-1 as a GFNI qword. */
static int fl_matrix(int type, uint8_t k, uint64_t *m)
{
    uint8_t f[256], imm;
    for (int y = 0; y < 256; y++)
        f[y] = field_a[fl_shift(type, (uint8_t)(k & field_ainv[y]))];
    return solve_affine(f, m, &imm) && imm == 0;
}

static int derive_field(const struct sbox_gfni s[NSBOX])
{
    uint8_t f[256], imm;
    field_matrix = s[0].pre_matrix;
    field_c = s[0].pre_imm;
    for (int x = 0; x < 256; x++)
        field_a[x] = gf256_affine(field_matrix, (uint8_t)x, 0);
    for (int x = 0; x < 256; x++)
        field_ainv[field_a[x]] = (uint8_t)x;
    for (int x = 0; x < 256; x++)
        if (field_a[field_ainv[x]] != x) {
            fprintf(stderr, "gen_camellia_gfni: PRE's linear part is not invertible\n");
            return 0;
        }
    if (!solve_affine(field_ainv, &unfield_matrix, &imm) || imm != 0)
        return 0;
    /* POSTn followed by A: A (L2n v ^ bn) */
    for (int i = 0; i < 3; i++) {
        for (int v = 0; v < 256; v++)
            f[v] = field_a[gf256_affine(s[i].matrix, (uint8_t)v, s[i].imm)];
        if (!solve_affine(f, &field_s_matrix[i], &field_s_imm[i]))
            return 0;
    }
    /* SBOX4's input step: u = A x' ^ c (x' = x ^ k) -> A R x' ^ c */
    for (int u = 0; u < 256; u++)
        f[u] = (uint8_t)(field_a[rotl8(field_ainv[u ^ field_c], 1)] ^ field_c);
    if (!solve_affine(f, &field_s4_pre_matrix, &field_s4_pre_imm))
        return 0;
    /* FL's generators: byte p of the type-t matrix, as a linear function of k */
    for (int t = 0; t < 3; t++)
        for (int p = 0; p < 8; p++) {
            for (int k = 0; k < 256; k++) {
                uint64_t m;
                if (!fl_matrix(t, (uint8_t)k, &m))
                    return 0;
                f[k] = (uint8_t)(m >> (8 * p));
            }
            if (!solve_affine(f, &fl_gen[t][p], &imm) || imm != 0) {
                fprintf(stderr, "gen_camellia_gfni: FL %s matrix byte %d is not linear in k\n",
                        fl_gen_name[t], p);
                return 0;
            }
        }
    return 1;
}

/* The field S-boxes on every input, the FL matrices the GEN tables build on every key byte and
 * every input, and FL / FL^-1 on 32-bit words through the field against the plain ones.
 * Returns the number of wrong results. */
static int check_field(const struct sbox_gfni s[NSBOX])
{
    int wrong = 0;
    for (int n = 0; n < NSBOX; n++)
        for (int x = 0; x < 256; x++) {
            uint8_t u = (uint8_t)(field_a[x] ^ field_c), got;
            if (n == 3)
                got = gfni_affine_inv(field_s_matrix[0],
                                      gf256_affine(field_s4_pre_matrix, u, field_s4_pre_imm),
                                      field_s_imm[0]);
            else
                got = gfni_affine_inv(field_s_matrix[n], u, field_s_imm[n]);
            if (got != field_a[s[n].table[x]] && wrong++ == 0)
                fprintf(stderr, "gen_camellia_gfni: field SBOX%d(A 0x%02x ^ c) wrong\n", n + 1, x);
        }
    for (int t = 0; t < 3; t++)
        for (int k = 0; k < 256; k++) {
            uint64_t m = 0;
            for (int p = 0; p < 8; p++)
                m |= (uint64_t)gf256_affine(fl_gen[t][p], (uint8_t)k, 0) << (8 * p);
            for (int x = 0; x < 256; x++)
                if (gf256_affine(m, field_a[x], 0) != field_a[fl_shift(t, (uint8_t)(x & k))] &&
                    wrong++ == 0)
                    fprintf(stderr, "gen_camellia_gfni: FL %s matrix wrong\n", fl_gen_name[t]);
        }
    /* FL on words, byte j most significant, as the kernel computes it: x2_j ^= SHL(k1_j) x1_j ^
     * SHR(k1_{j+1}) x1_{j+1}; x1_j ^= AND(~k2_j) x2_j ^ A k2_j. */
    uint32_t seed = 0x2468ace1;
    for (int trial = 0; trial < 20000; trial++) {
        uint32_t w[4];
        for (int i = 0; i < 4; i++)
            seed = seed * 1664525 + 1013904223, w[i] = seed;
        uint32_t x1 = w[0], x2 = w[1], k1 = w[2], k2 = w[3];
        uint32_t u = x1 & k1;
        uint32_t e2 = x2 ^ ((u << 1) | (u >> 31)), e1 = x1 ^ (e2 | k2);   /* FL */
        uint8_t y1[4], y2[4];
        for (int j = 0; j < 4; j++)
            y1[j] = field_a[(uint8_t)(x1 >> (24 - 8 * j))], y2[j] = field_a[(uint8_t)(x2 >> (24 - 8 * j))];
        uint8_t z2[4], z1[4];
        for (int j = 0; j < 4; j++) {
            uint8_t kj = (uint8_t)(k1 >> (24 - 8 * j)), kn = (uint8_t)(k1 >> (24 - 8 * ((j + 1) & 3)));
            uint64_t ms, mr;
            fl_matrix(0, kj, &ms);
            fl_matrix(1, kn, &mr);
            z2[j] = (uint8_t)(y2[j] ^ gf256_affine(ms, y1[j], 0) ^ gf256_affine(mr, y1[(j + 1) & 3], 0));
        }
        for (int j = 0; j < 4; j++) {
            uint8_t kj = (uint8_t)(k2 >> (24 - 8 * j));
            uint64_t ma;
            fl_matrix(2, (uint8_t)~kj, &ma);
            z1[j] = (uint8_t)(y1[j] ^ gf256_affine(ma, z2[j], 0) ^ field_a[kj]);
        }
        for (int j = 0; j < 4; j++)
            if ((z1[j] != field_a[(uint8_t)(e1 >> (24 - 8 * j))] ||
                 z2[j] != field_a[(uint8_t)(e2 >> (24 - 8 * j))]) && wrong++ == 0)
                fprintf(stderr, "gen_camellia_gfni: FL through the field wrong\n");
    }
    return wrong;
}

/* ---- The header ---- */

static void emit_header(FILE *f, const void *arg)
{
    const struct sbox_gfni *s = arg;
    fputs("/* Generated by tools/gen_camellia_gfni.c; do not edit. Regenerate from the source\n"
          " * root with a built gen_camellia_gfni:\n"
          " * `gen_camellia_gfni kernels/camellia/camellia-gfni-constants.h` (`--check` instead\n"
          " * verifies this file is current).\n"
          " *\n"
          " * GFNI constants for Camellia's S-boxes SBOX1..SBOX4 (RFC 3713 section 2.4.4), each\n"
          " * checked over all 256 inputs against reference/camellia.c, and for the per-byte\n"
          " * x >> 7 of the byte-sliced FL layer. Every S-box is two instructions,\n"
          " *   vgf2p8affineqb    $CAMELLIA_GFNI_Sn_PRE_IMM, {CAMELLIA_GFNI_Sn_PRE_MATRIX}, x, x\n"
          " *   vgf2p8affineinvqb $CAMELLIA_GFNI_Sn_IMM, {CAMELLIA_GFNI_Sn_MATRIX}, x, x\n"
          " * the first mapping Camellia's field into the AES field that GFNI inverts in.\n"
          " *\n"
          " * A MATRIX is the qword operand, broadcast to every qword lane: byte 7-i holds row i,\n"
          " * the input bits whose parity gives output bit i. An IMM is the imm8, XORed in last.\n"
          " * Plain integer literals only, so this header serves C and, through the C\n"
          " * preprocessor, GNU as. */\n"
          "#ifndef ASMDIFF_CAMELLIA_GFNI_CONSTANTS_H\n"
          "#define ASMDIFF_CAMELLIA_GFNI_CONSTANTS_H\n",
          f);
    for (int i = 0; i < NSBOX; i++) {
        fprintf(f, "\n/* %s = SBOX%d */\n", s[i].name, i + 1);
        fprintf(f, "#define CAMELLIA_GFNI_%s_PRE_MATRIX 0x%016" PRIx64 "\n", s[i].name, s[i].pre_matrix);
        fprintf(f, "#define CAMELLIA_GFNI_%s_PRE_IMM 0x%02x\n", s[i].name, s[i].pre_imm);
        fprintf(f, "#define CAMELLIA_GFNI_%s_MATRIX 0x%016" PRIx64 "\n", s[i].name, s[i].matrix);
        fprintf(f, "#define CAMELLIA_GFNI_%s_IMM 0x%02x\n", s[i].name, s[i].imm);
    }
    fprintf(f, "\n/* x >> 7 in every byte (vgf2p8affineqb, imm8 0): bit 7 moved to bit 0, the rest\n"
               " * cleared; the gfnishift form's half of FL's 32-bit rotate by one. */\n"
               "#define CAMELLIA_GFNI_SHR7_MATRIX 0x%016" PRIx64 "\n", shr7_matrix);
    fprintf(f, "\n/* The field form (camellia_*_avx512_gfni_field): the state kept as A x, A = FIELD\n"
               " * (PRE's linear part), round keys as A k ^ FIELD_C. UNFIELD = A^-1. An S-box is\n"
               " * vgf2p8affineinvqb $FIELD_Sn_IMM, FIELD_Sn; SBOX4 first vgf2p8affineqb\n"
               " * $FIELD_S4_PRE_IMM, FIELD_S4_PRE, then FIELD_S1. FL_GEN_t: qword p maps a key byte k\n"
               " * (vgf2p8affineqb, imm8 0) to byte p of FL's matrix of type t for k, A S diag(k) A^-1:\n"
               " * SHL (S = x << 1), SHR (x >> 7), AND (S = identity). */\n");
    fprintf(f, "#define CAMELLIA_GFNI_FIELD_MATRIX 0x%016" PRIx64 "\n", field_matrix);
    fprintf(f, "#define CAMELLIA_GFNI_FIELD_C 0x%02x\n", field_c);
    fprintf(f, "#define CAMELLIA_GFNI_UNFIELD_MATRIX 0x%016" PRIx64 "\n", unfield_matrix);
    for (int i = 0; i < 3; i++) {
        fprintf(f, "#define CAMELLIA_GFNI_FIELD_S%d_MATRIX 0x%016" PRIx64 "\n", i + 1, field_s_matrix[i]);
        fprintf(f, "#define CAMELLIA_GFNI_FIELD_S%d_IMM 0x%02x\n", i + 1, field_s_imm[i]);
    }
    fprintf(f, "#define CAMELLIA_GFNI_FIELD_S4_PRE_MATRIX 0x%016" PRIx64 "\n", field_s4_pre_matrix);
    fprintf(f, "#define CAMELLIA_GFNI_FIELD_S4_PRE_IMM 0x%02x\n", field_s4_pre_imm);
    for (int t = 0; t < 3; t++)
        for (int p = 0; p < 8; p++)
            fprintf(f, "#define CAMELLIA_GFNI_FL_GEN_%s_%d 0x%016" PRIx64 "\n", fl_gen_name[t], p,
                    fl_gen[t][p]);
    fputs("\n#endif\n", f);
}

int main(int argc, char **argv)
{
    int check_only;
    const char *output;
    int usage = gfni_gen_args("gen_camellia_gfni", argc, argv, DEFAULT_OUTPUT, &check_only,
                              &output);
    if (usage)
        return usage;

    if (!gf_field_ok("gen_camellia_gfni"))
        return 1;

    static struct sbox_gfni s[NSBOX] = { { .name = "S1" }, { .name = "S2" }, { .name = "S3" },
                                         { .name = "S4" } };
    /* The reference S-boxes as RFC 3713 section 2.4.4 defines them from SBOX1. */
    for (int x = 0; x < 256; x++) {
        s[0].table[x] = camellia_sbox1[x];
        s[1].table[x] = rotl8(camellia_sbox1[x], 1);
        s[2].table[x] = rotl8(camellia_sbox1[x], 7);
        s[3].table[x] = camellia_sbox1[rotl8((uint8_t)x, 1)];
    }
    if (!derive(s))
        return 1;
    int failed = 0;
    for (int i = 0; i < NSBOX; i++) {
        int wrong = check_sbox(&s[i]);
        printf("%s (SBOX%d): %3d/256 inputs match; pre 0x%016" PRIx64 "/0x%02x, matrix 0x%016"
               PRIx64 "/0x%02x\n", s[i].name, i + 1, 256 - wrong, s[i].pre_matrix, s[i].pre_imm,
               s[i].matrix, s[i].imm);
        failed |= wrong != 0;
    }
    int wrong = check_shr7();
    printf("SHR7: %3d/256 inputs match; matrix 0x%016" PRIx64 "\n", 256 - wrong, shr7_matrix);
    if (failed || wrong)
        return 1;
    if (!derive_field(s)) {
        fprintf(stderr, "gen_camellia_gfni: the field form's maps are not affine\n");
        return 1;
    }
    wrong = check_field(s);
    printf("field form: S-boxes on 256 inputs each, FL matrices on 256 keys x 256 inputs, FL on "
           "20000 random words: %d wrong\n", wrong);
    if (wrong)
        return 1;

    /* On the hardware: every matrix the header gives. */
    uint64_t m[1 + 2 * NSBOX + 6] = { shr7_matrix, unfield_matrix, field_s_matrix[0],
                                      field_s_matrix[1], field_s_matrix[2], field_s4_pre_matrix,
                                      fl_gen[0][0] };
    for (int i = 0; i < NSBOX; i++) {
        m[7 + 2 * i] = s[i].pre_matrix;
        m[8 + 2 * i] = s[i].matrix;
    }
    if (gfni_hw_report(m, 1 + 2 * NSBOX + 6))
        return 1;

    return gfni_gen_output("gen_camellia_gfni", output, check_only, emit_header, s);
}
