/* zmm_op_bench: latency and throughput of the zmm operations the byte-sliced Camellia and ARIA
 * kernels are made of (GFNI, ternary logic, XOR, byte shuffles and interleaves), and those of
 * the ChaCha20 and Poly1305 kernels (dword add, XOR, rotate, lane shuffles; IFMA), alone, mixed
 * and (ChaCha's quarter round) in dependent chains, on the machine it runs on.  The kernels' header comments quote its table when they reason about
 * ports (kernels/camellia/camellia-x86_64-avx512-gfni.S, "What bounds the field form").
 *   latency:     16 dependent operations on zmm0 per step
 *   throughput:  24 independent operations (12 destinations, twice) per step
 *   mixes:       throughput of interleaved kinds, in zmm operations per cycle
 * Each figure is the fastest of 15 runs of 200,000 steps.  Cycles come from a dependent vpxorq
 * chain timed just before each row, taken as 1 cycle an operation (true on Zen 3/4/5 and Intel
 * since Skylake-X), so that clock changes on a shared machine mostly cancel; the clock that
 * implies is printed once, beside the one from a dependent chain of scalar adds.  Not part of the build (it needs AVX-512 + GFNI); from the
 * source root:  clang-19 -O2 -o /tmp/zmm_op_bench tools/zmm_op_bench.c && /tmp/zmm_op_bench */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static uint64_t matrix[8] __attribute__((aligned(64))) = { 0x0102040810204080ull };

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

#define STEPS 200000L
#define X4(x) x x x x
#define X16(x) X4(x) X4(x) X4(x) X4(x)
#define CLOBBERS "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", \
                 "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", \
                 "xmm17", "xmm30", "xmm31"

/* One instruction per kind: D(d) writes zmm d from the sources zmm30, zmm31 (or the matrix in
 * memory); L is the same instruction on a chain through zmm0. */
#define GFA(d)   "vgf2p8affineqb $0, %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define GFI(d)   "vgf2p8affineinvqb $0, %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define GFAM(d)  "vgf2p8affineqb $0, (%0)%{1to8%}, %%zmm31, %%zmm" #d "\n\t"
#define GFIM(d)  "vgf2p8affineinvqb $0, (%0)%{1to8%}, %%zmm31, %%zmm" #d "\n\t"
#define TERN(d)  "vpternlogq $0x96, %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define TERNM(d) "vpternlogd $0x96, (%0)%{1to16%}, %%zmm31, %%zmm" #d "\n\t"
#define XOR(d)   "vpxorq %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define XORM(d)  "vpxord (%0)%{1to16%}, %%zmm31, %%zmm" #d "\n\t"
#define SHUFB(d) "vpshufb %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define UNPCK(d) "vpunpcklbw %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define ADDB(d)  "vpaddb %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define PERMB(d) "vpermb %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define SRLW(d)  "vpsrlw $4, %%zmm31, %%zmm" #d "\n\t"
/* ChaCha20's quarter round (kernels/chacha): dword add, XOR, rotate; its transposes */
#define ADDD(d)  "vpaddd %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define XORD(d)  "vpxord %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define PROLD(d) "vprold $7, %%zmm31, %%zmm" #d "\n\t"
#define UNPDQ(d) "vpunpckldq %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define SHUFI(d) "vshufi32x4 $0x44, %%zmm30, %%zmm31, %%zmm" #d "\n\t"
/* the same on ymm (the AVX-512VL forms): ymm1..12, sources ymm30, ymm31 */
#define YADDD(d)  "vpaddd %%ymm30, %%ymm31, %%ymm" #d "\n\t"
#define YXORD(d)  "vpxord %%ymm30, %%ymm31, %%ymm" #d "\n\t"
#define YPROLD(d) "vprold $7, %%ymm31, %%ymm" #d "\n\t"
/* Poly1305's IFMA multiplies (kernels/poly1305): accumulating, so each destination is also a
 * source; the throughput form's twelve destinations are independent chains */
#define MADLO(d) "vpmadd52luq %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define MADHI(d) "vpmadd52huq %%zmm30, %%zmm31, %%zmm" #d "\n\t"

#define LATENCY(name, insn) \
    static void lat_##name(long n) \
    { \
        for (long i = 0; i < n; i++) \
            __asm__ volatile(X16(insn) : : "r"(matrix) : CLOBBERS); \
    }
/* The chained forms read and write zmm0. */
LATENCY(gfa, "vgf2p8affineqb $0, %%zmm30, %%zmm0, %%zmm0\n\t")
LATENCY(gfi, "vgf2p8affineinvqb $0, %%zmm30, %%zmm0, %%zmm0\n\t")
LATENCY(gfam, "vgf2p8affineqb $0, (%0)%{1to8%}, %%zmm0, %%zmm0\n\t")
LATENCY(gfim, "vgf2p8affineinvqb $0, (%0)%{1to8%}, %%zmm0, %%zmm0\n\t")
LATENCY(tern, "vpternlogq $0x96, %%zmm30, %%zmm31, %%zmm0\n\t")
LATENCY(ternm, "vpternlogd $0x96, (%0)%{1to16%}, %%zmm31, %%zmm0\n\t")
LATENCY(xor, "vpxorq %%zmm30, %%zmm0, %%zmm0\n\t")
LATENCY(xorm, "vpxord (%0)%{1to16%}, %%zmm0, %%zmm0\n\t")
LATENCY(shufb, "vpshufb %%zmm30, %%zmm0, %%zmm0\n\t")
LATENCY(unpck, "vpunpcklbw %%zmm30, %%zmm0, %%zmm0\n\t")
LATENCY(addb, "vpaddb %%zmm30, %%zmm0, %%zmm0\n\t")
LATENCY(permb, "vpermb %%zmm0, %%zmm30, %%zmm0\n\t")
LATENCY(srlw, "vpsrlw $4, %%zmm0, %%zmm0\n\t")
LATENCY(addd, "vpaddd %%zmm30, %%zmm0, %%zmm0\n\t")
LATENCY(xord, "vpxord %%zmm30, %%zmm0, %%zmm0\n\t")
LATENCY(prold, "vprold $7, %%zmm0, %%zmm0\n\t")
LATENCY(unpdq, "vpunpckldq %%zmm30, %%zmm0, %%zmm0\n\t")
LATENCY(shufi, "vshufi32x4 $0x44, %%zmm30, %%zmm0, %%zmm0\n\t")
LATENCY(yaddd, "vpaddd %%ymm30, %%ymm0, %%ymm0\n\t")
LATENCY(yxord, "vpxord %%ymm30, %%ymm0, %%ymm0\n\t")
LATENCY(yprold, "vprold $7, %%ymm0, %%ymm0\n\t")
LATENCY(madlo, "vpmadd52luq %%zmm30, %%zmm31, %%zmm0\n\t")
LATENCY(madhi, "vpmadd52huq %%zmm30, %%zmm31, %%zmm0\n\t")
LATENCY(clmul, "vpclmulqdq $0x01, %%zmm30, %%zmm0, %%zmm0\n\t")
LATENCY(yclmul, "vpclmulqdq $0x01, %%ymm30, %%ymm0, %%ymm0\n\t")
LATENCY(xclmul, "vpclmulqdq $0x01, %%xmm15, %%xmm0, %%xmm0\n\t")

#define TWELVE(I) I(0) I(1) I(2) I(3) I(4) I(5) I(6) I(7) I(8) I(9) I(10) I(11)
#define THROUGHPUT(name, I) \
    static void tp_##name(long n) \
    { \
        for (long i = 0; i < n; i++) \
            __asm__ volatile(TWELVE(I) TWELVE(I) : : "r"(matrix) : CLOBBERS); \
    }
THROUGHPUT(gfa, GFA) THROUGHPUT(gfi, GFI) THROUGHPUT(gfam, GFAM) THROUGHPUT(gfim, GFIM)
THROUGHPUT(tern, TERN) THROUGHPUT(ternm, TERNM) THROUGHPUT(xor, XOR) THROUGHPUT(xorm, XORM)
THROUGHPUT(shufb, SHUFB) THROUGHPUT(unpck, UNPCK) THROUGHPUT(addb, ADDB)
THROUGHPUT(permb, PERMB) THROUGHPUT(srlw, SRLW)
THROUGHPUT(addd, ADDD) THROUGHPUT(xord, XORD) THROUGHPUT(prold, PROLD)
THROUGHPUT(unpdq, UNPDQ) THROUGHPUT(shufi, SHUFI)
THROUGHPUT(yaddd, YADDD) THROUGHPUT(yxord, YXORD) THROUGHPUT(yprold, YPROLD)
THROUGHPUT(madlo, MADLO) THROUGHPUT(madhi, MADHI)
/* GHASH and POLYVAL (kernels/polyval, kernels/ghash): the carry-less multiply on zmm, ymm and
 * (VEX, PCLMULQDQ's form) xmm, four 64x64 products of a 128-bit lane pair per block */
#define CLMUL(d)  "vpclmulqdq $0x01, %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define YCLMUL(d) "vpclmulqdq $0x01, %%ymm30, %%ymm31, %%ymm" #d "\n\t"
#define XCLMUL(d) "vpclmulqdq $0x01, %%xmm14, %%xmm15, %%xmm" #d "\n\t"
THROUGHPUT(clmul, CLMUL) THROUGHPUT(yclmul, YCLMUL) THROUGHPUT(xclmul, XCLMUL)

/* Mixes, each step a fixed sequence of independent operations (count given in the table). */
#define MIX(name, seq) \
    static void mix_##name(long n) \
    { \
        for (long i = 0; i < n; i++) \
            __asm__ volatile(seq : : "r"(matrix) : CLOBBERS); \
    }
MIX(gf_tern_1_1, GFI(0) TERN(1) GFI(2) TERN(3) GFI(4) TERN(5) GFI(6) TERN(7)
                 GFI(8) TERN(9) GFI(10) TERN(11) GFI(12) TERN(13) GFI(14) TERN(15))
MIX(gf_tern_1_2, GFI(0) TERN(1) TERN(2) GFI(3) TERN(4) TERN(5) GFI(6) TERN(7) TERN(8)
                 GFI(9) TERN(10) TERN(11) GFI(12) TERN(13) TERN(14) GFI(15) TERN(16) TERN(17))
MIX(gf_tern_1_3, GFI(0) TERN(1) TERN(2) TERN(3) GFI(4) TERN(5) TERN(6) TERN(7)
                 GFI(8) TERN(9) TERN(10) TERN(11) GFI(12) TERN(13) TERN(14) TERN(15))
MIX(gf_xor_1_2, GFI(0) XOR(1) XOR(2) GFI(3) XOR(4) XOR(5) GFI(6) XOR(7) XOR(8)
                GFI(9) XOR(10) XOR(11) GFI(12) XOR(13) XOR(14) GFI(15) XOR(16) XOR(17))
MIX(gf_shufb_1_1, GFI(0) SHUFB(1) GFI(2) SHUFB(3) GFI(4) SHUFB(5) GFI(6) SHUFB(7)
                  GFI(8) SHUFB(9) GFI(10) SHUFB(11) GFI(12) SHUFB(13) GFI(14) SHUFB(15))
MIX(tern_shufb_1_1, TERN(0) SHUFB(1) TERN(2) SHUFB(3) TERN(4) SHUFB(5) TERN(6) SHUFB(7)
                    TERN(8) SHUFB(9) TERN(10) SHUFB(11) TERN(12) SHUFB(13) TERN(14) SHUFB(15))
MIX(gf_unpck_1_1, GFI(0) UNPCK(1) GFI(2) UNPCK(3) GFI(4) UNPCK(5) GFI(6) UNPCK(7)
                  GFI(8) UNPCK(9) GFI(10) UNPCK(11) GFI(12) UNPCK(13) GFI(14) UNPCK(15))
MIX(tern_unpck_1_1, TERN(0) UNPCK(1) TERN(2) UNPCK(3) TERN(4) UNPCK(5) TERN(6) UNPCK(7)
                    TERN(8) UNPCK(9) TERN(10) UNPCK(11) TERN(12) UNPCK(13) TERN(14) UNPCK(15))
/* A Camellia round's proportions: 10 GFNI to 26 ternary XORs, the GFNI grouped as in a round. */
MIX(round_10_26, GFI(0) GFI(1) GFI(2) GFI(3) GFI(4) X4(TERN(5)) X4(TERN(6)) X4(TERN(7))
                 X4(TERN(8)) X4(TERN(9)) X4(TERN(10)) TERN(11) TERN(12)
                 GFI(13) GFI(14) GFI(15) GFI(16) GFI(17))

/* ChaCha20's quarter-round proportions, add : xor : rotate 1:1:1, four chains' worth of
 * independent operations (the kernels interleave four quarter rounds), zmm and ymm */
MIX(qr_zmm, X4(ADDD(0) XORD(1) PROLD(2) ADDD(3) XORD(4) PROLD(5)))
MIX(qr_ymm, X4(YADDD(0) YXORD(1) YPROLD(2) YADDD(3) YXORD(4) YPROLD(5)))
/* IFMA with other operations: twelve multiplies into twelve accumulators (zmm0-11, so their
 * 4-cycle latency never binds), beside writes of zmm12-15 */
#define ADDQ(d)  "vpaddq %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define SLLQ(d)  "vpsllq $8, %%zmm31, %%zmm" #d "\n\t"
#define MAD12(I) I(0) I(1) I(2) I(3) I(4) I(5) I(6) I(7) I(8) I(9) I(10) I(11)
#define M1A1(d) MADLO(d) ADDQ(12)
#define M1S1(d) MADLO(d) SLLQ(13)
#define M1A1S1(d) MADHI(d) ADDQ(14) SLLQ(15)
MIX(mad_lo_hi, MAD12(MADLO) MAD12(MADHI))
MIX(mad_add_1_1, MAD12(M1A1))
MIX(mad_sll_1_1, MAD12(M1S1))
MIX(mad_add_sll_1_1_1, MAD12(M1A1S1))
/* which ports vprold shares: with adds, with lane shuffles */
MIX(prold_add_1_1, X4(PROLD(0) ADDD(6) PROLD(1) ADDD(7) PROLD(2) ADDD(8)))
MIX(prold_shufi_1_1, X4(PROLD(0) SHUFI(6) PROLD(1) SHUFI(7) PROLD(2) SHUFI(8)))
/* the aggregated GHASH/POLYVAL loop's proportions per 4 message vectors: 16 carry-less
 * multiplies, 12 ternary XORs folding them (and the loads' XOR of the state), whether the
 * XORs share the multiplier's ports */
MIX(clmul_tern_4_3, X4(CLMUL(0) CLMUL(1) CLMUL(2) CLMUL(3) TERN(4) TERN(5) TERN(6)))
/* Karatsuba's price: the halves' sums of each operand are a lane shuffle and an XOR; whether
 * the shuffle (vpshufd) waits for the multiplier's ports */
#define PSHUFD(d) "vpshufd $0x4e, %%zmm31, %%zmm" #d "\n\t"
MIX(clmul_pshufd_1_1, X4(CLMUL(0) PSHUFD(6) CLMUL(1) PSHUFD(7) CLMUL(2) PSHUFD(8)))
MIX(clmul_pshufd_xor_3_2_2, X4(CLMUL(0) CLMUL(1) CLMUL(2) PSHUFD(6) PSHUFD(7) XOR(8) XOR(9)))

/* ChaCha's quarter round as the kernels run it: n independent chains, each add -> xor ->
 * rotate -> add ..., every operation reading the previous one's result (the 16 lanes of a
 * zmm, or 8 of a ymm, are the blocks; a round's four quarter rounds are four chains) */
#define CADD(r, d) "vpaddd %%" r "30, %%" r #d ", %%" r #d "\n\t"
#define CXOR(r, d) "vpxord %%" r "31, %%" r #d ", %%" r #d "\n\t"
#define CROT(r, d) "vprold $7, %%" r #d ", %%" r #d "\n\t"
#define STEP4(r) CADD(r, 0) CADD(r, 1) CADD(r, 2) CADD(r, 3) CXOR(r, 0) CXOR(r, 1) CXOR(r, 2) \
                 CXOR(r, 3) CROT(r, 0) CROT(r, 1) CROT(r, 2) CROT(r, 3)
#define STEP8(r) CADD(r, 0) CADD(r, 1) CADD(r, 2) CADD(r, 3) CADD(r, 4) CADD(r, 5) CADD(r, 6) \
                 CADD(r, 7) CXOR(r, 0) CXOR(r, 1) CXOR(r, 2) CXOR(r, 3) CXOR(r, 4) CXOR(r, 5) \
                 CXOR(r, 6) CXOR(r, 7) CROT(r, 0) CROT(r, 1) CROT(r, 2) CROT(r, 3) CROT(r, 4) \
                 CROT(r, 5) CROT(r, 6) CROT(r, 7)
MIX(chain4_zmm, X4(STEP4("zmm")))
MIX(chain8_zmm, X4(STEP8("zmm")))
MIX(chain4_ymm, X4(STEP4("ymm")))

/* Nanoseconds per operation, fastest of 15 runs. */
static double ns_per_op(void (*run)(long), double ops_per_step)
{
    double best = 1e30;
    for (int r = 0; r < 15; r++) {
        double t0 = now_ns();
        run(STEPS);
        double t = now_ns() - t0;
        if (t < best)
            best = t;
    }
    return best / (STEPS * ops_per_step);
}

int main(void)
{
    double add_ghz = 0;
    for (int r = 0; r < 20; r++) {
        unsigned long x = 0;
        double t0 = now_ns();
        for (long i = 0; i < 20000000; i++)
            __asm__ volatile("add $1, %0" : "+r"(x));
        double g = 20000000.0 / (now_ns() - t0);
        if (g > add_ghz)
            add_ghz = g;
    }
    double cycle_ns = ns_per_op(lat_xor, 16);  /* vpxorq's latency: 1 cycle */
    printf("clock: %.2f GHz from the vpxorq chain (the unit below), %.2f GHz from a scalar add chain\n",
           1 / cycle_ns, add_ghz);
    printf("%-28s %8s %12s %10s\n", "operation (zmm)", "latency", "recip. tput", "per cycle");
    static const struct {
        const char *name;
        void (*lat)(long), (*tp)(long);
    } ops[] = {
        { "vgf2p8affineqb reg", lat_gfa, tp_gfa },
        { "vgf2p8affineinvqb reg", lat_gfi, tp_gfi },
        { "vgf2p8affineqb {1to8} mem", lat_gfam, tp_gfam },
        { "vgf2p8affineinvqb {1to8}", lat_gfim, tp_gfim },
        { "vpternlogq reg", lat_tern, tp_tern },
        { "vpternlogd {1to16} mem", lat_ternm, tp_ternm },
        { "vpxorq reg", lat_xor, tp_xor },
        { "vpxord {1to16} mem", lat_xorm, tp_xorm },
        { "vpshufb", lat_shufb, tp_shufb },
        { "vpunpcklbw", lat_unpck, tp_unpck },
        { "vpaddb", lat_addb, tp_addb },
        { "vpermb", lat_permb, tp_permb },
        { "vpsrlw imm", lat_srlw, tp_srlw },
        { "vpaddd", lat_addd, tp_addd },
        { "vpxord", lat_xord, tp_xord },
        { "vprold imm", lat_prold, tp_prold },
        { "vpunpckldq", lat_unpdq, tp_unpdq },
        { "vshufi32x4", lat_shufi, tp_shufi },
        { "vpaddd ymm", lat_yaddd, tp_yaddd },
        { "vpxord ymm", lat_yxord, tp_yxord },
        { "vprold imm ymm", lat_yprold, tp_yprold },
        { "vpmadd52luq", lat_madlo, tp_madlo },
        { "vpmadd52huq", lat_madhi, tp_madhi },
        { "vpclmulqdq", lat_clmul, tp_clmul },
        { "vpclmulqdq ymm", lat_yclmul, tp_yclmul },
        { "vpclmulqdq xmm (VEX)", lat_xclmul, tp_xclmul },
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        cycle_ns = ns_per_op(lat_xor, 16);
        double tp = ns_per_op(ops[i].tp, 24) / cycle_ns;
        printf("%-28s %8.2f %12.2f %10.2f\n", ops[i].name, ns_per_op(ops[i].lat, 16) / cycle_ns,
               tp, 1 / tp);
    }
    static const struct {
        const char *name;
        void (*run)(long);
        int ops;
    } mixes[] = {
        { "GFNI : ternlog 1:1", mix_gf_tern_1_1, 16 },
        { "GFNI : ternlog 1:2", mix_gf_tern_1_2, 18 },
        { "GFNI : ternlog 1:3", mix_gf_tern_1_3, 16 },
        { "GFNI : vpxorq 1:2", mix_gf_xor_1_2, 18 },
        { "GFNI : vpshufb 1:1", mix_gf_shufb_1_1, 16 },
        { "ternlog : vpshufb 1:1", mix_tern_shufb_1_1, 16 },
        { "GFNI : vpunpcklbw 1:1", mix_gf_unpck_1_1, 16 },
        { "ternlog : vpunpcklbw 1:1", mix_tern_unpck_1_1, 16 },
        { "GFNI : ternlog 10:26 grouped", mix_round_10_26, 36 },
        { "add : xor : prold 1:1:1 zmm", mix_qr_zmm, 24 },
        { "add : xor : prold 1:1:1 ymm", mix_qr_ymm, 24 },
        { "madd52lo : madd52hi 1:1", mix_mad_lo_hi, 24 },
        { "madd52 : vpaddq 1:1", mix_mad_add_1_1, 24 },
        { "madd52 : vpsllq 1:1", mix_mad_sll_1_1, 24 },
        { "madd52 : vpaddq : vpsllq 1:1:1", mix_mad_add_sll_1_1_1, 36 },
        { "vprold : vpaddd 1:1", mix_prold_add_1_1, 24 },
        { "vprold : vshufi32x4 1:1", mix_prold_shufi_1_1, 24 },
        { "clmul : ternlog 4:3", mix_clmul_tern_4_3, 28 },
        { "clmul : vpshufd 1:1", mix_clmul_pshufd_1_1, 24 },
        { "clmul : vpshufd : xor 3:2:2", mix_clmul_pshufd_xor_3_2_2, 28 },
    };
    printf("%-28s %8s\n", "mix (independent)", "per cycle");
    static const struct {
        const char *name;
        void (*run)(long);
        int ops;
    } chains[] = {
        { "add-xor-prold, 4 chains zmm", mix_chain4_zmm, 48 },
        { "add-xor-prold, 8 chains zmm", mix_chain8_zmm, 96 },
        { "add-xor-prold, 4 chains ymm", mix_chain4_ymm, 48 },
    };
    for (size_t i = 0; i < sizeof mixes / sizeof mixes[0]; i++) {
        cycle_ns = ns_per_op(lat_xor, 16);
        printf("%-28s %8.2f\n", mixes[i].name,
               cycle_ns / ns_per_op(mixes[i].run, mixes[i].ops));
    }
    printf("%-28s %8s\n", "dependent chains", "per cycle");
    for (size_t i = 0; i < sizeof chains / sizeof chains[0]; i++) {
        cycle_ns = ns_per_op(lat_xor, 16);
        printf("%-28s %8.2f\n", chains[i].name, cycle_ns / ns_per_op(chains[i].run, chains[i].ops));
    }
    return 0;
}
