/* aes_op_bench: the AES instructions' limits on the machine it runs on, the bound the VAES
 * kernels' speed is quoted against (docs/aes.md, "The limit"; the kernels' "where the cycles
 * go" comments).
 *   latency:     24 dependent vaesenc on one register per step, at each width
 *   chains:      the cycles a vaesenc takes with N independent chains (N registers, each
 *                round applied to all N in turn, as the kernels do), N = 1 .. 12: where the
 *                chains stop being latency bound is the interleave depth full throughput needs
 *   c/B bound:   the best chains' cycles a vaesenc, times the rounds of AES-128 and AES-256
 *                (10 and 14, vaesenclast costing as vaesenc, measured), over the bytes a
 *                register holds: what a kernel that did nothing but its rounds would take
 *   beside:      8 zmm chains of vaesenc with k other operations (independent of them) per 8
 *                vaesenc: how much the tweak and counter arithmetic and the loads and stores
 *                of a kernel take from the AES units
 * Each figure is the fastest of 15 runs of 100,000 steps.  Cycles come from a dependent chain
 * of scalar adds timed just before each row, taken as 1 cycle an add (true on every x86-64
 * core since the Pentium 4), so that clock changes on a shared machine mostly cancel.  Not part
 * of the build (it needs VAES and AVX-512); from the source root:
 *   clang-19 -O2 -o /tmp/aes_op_bench tools/aes_op_bench.c && /tmp/aes_op_bench */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static uint8_t buf[4096] __attribute__((aligned(64)));

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

#define STEPS 10000L
#define CLOBBERS "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", \
                 "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", \
                 "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm30", \
                 "xmm31", "memory"

/* E(V, op, r): op on register r of width V ("x", "y", "z"), its own source, key in V30. */
#define E(V, op, r) #op " %%" V "mm30, %%" V "mm" #r ", %%" V "mm" #r "\n\t"
#define C1(V, op) E(V, op, 0)
#define C2(V, op) C1(V, op) E(V, op, 1)
#define C3(V, op) C2(V, op) E(V, op, 2)
#define C4(V, op) C3(V, op) E(V, op, 3)
#define C5(V, op) C4(V, op) E(V, op, 4)
#define C6(V, op) C5(V, op) E(V, op, 5)
#define C7(V, op) C6(V, op) E(V, op, 6)
#define C8(V, op) C7(V, op) E(V, op, 7)
#define C10(V, op) C8(V, op) E(V, op, 8) E(V, op, 9)
#define C12(V, op) C10(V, op) E(V, op, 10) E(V, op, 11)
#define X4(x) x x x x
#define X24(x) X4(x) X4(x) X4(x) X4(x) X4(x) X4(x)

/* chains: 24 rounds over N registers a step */
#define CHAINS(V, N, op) \
    static void ch_##op##_##V##_##N(long n) \
    { \
        for (long i = 0; i < n; i++) \
            __asm__ volatile(X24(C##N(#V, op)) : : "r"(buf) : CLOBBERS); \
    }
#define ALLCHAINS(V, op) CHAINS(V, 1, op) CHAINS(V, 2, op) CHAINS(V, 3, op) CHAINS(V, 4, op) \
    CHAINS(V, 5, op) CHAINS(V, 6, op) CHAINS(V, 7, op) CHAINS(V, 8, op) CHAINS(V, 10, op) \
    CHAINS(V, 12, op)
ALLCHAINS(x, vaesenc) ALLCHAINS(y, vaesenc) ALLCHAINS(z, vaesenc) ALLCHAINS(z, vaesenclast)
ALLCHAINS(y, vaesenclast)

/* beside: 8 zmm chains of vaesenc, and k operations of one kind between each 8 (on zmm16-23,
 * each its own destination, sources zmm30/zmm31 or memory: independent of everything). */
#define CLMUL(d)  "vpclmulqdq $0, %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define CLMULY(d) "vpclmulqdq $0, %%ymm30, %%ymm31, %%ymm" #d "\n\t"
#define CLMULX(d) "vpclmulqdq $0, %%xmm30, %%xmm31, %%xmm" #d "\n\t"
#define CMPK(d)   "vpcmpuq $1, %%zmm30, %%zmm31, %%k" #d "\n\t"
#define KSHIFT(d) "kshiftlw $1, %%k7, %%k" #d "\n\t"
#define MADD(d)   "vpaddq %%zmm30, %%zmm31, %%zmm" #d "%{%%k7%}\n\t"
#define BCAST(d)  "vbroadcasti32x4 " #d "*16(%0), %%zmm" #d "\n\t"
#define TERN(d)   "vpternlogq $0x96, %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define XOR(d)    "vpxorq %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define ADDQ(d)   "vpaddq %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define SLLDQ(d)  "vpslldq $2, %%zmm31, %%zmm" #d "\n\t"
#define SLLQ(d)   "vpsllq $7, %%zmm31, %%zmm" #d "\n\t"
#define SHUFB(d)  "vpshufb %%zmm30, %%zmm31, %%zmm" #d "\n\t"
#define LOADX(d)  "vpxorq " #d "*64(%0), %%zmm31, %%zmm" #d "\n\t"
#define STORE(d)  "vmovdqu64 %%zmm31, 2048+" #d "*64(%0)\n\t"
#define K0(I)
#define K1(I) I(16)
#define K2(I) K1(I) I(17)
#define K4(I) K2(I) I(18) I(19)
#define K8(I) K4(I) I(20) I(21) I(22) I(23)
#define KM4(I) I(1) I(2) I(3) I(4)
#define BESIDEK(name, K, I) \
    static void bs_##name(long n) \
    { \
        for (long i = 0; i < n; i++) \
            __asm__ volatile(X24(C8("z", vaesenc) K(I)) : : "r"(buf) \
                             : CLOBBERS, "k1", "k2", "k3", "k4"); \
    }
/* the same with 4 chains: as many as the latency needs, no slack */
#define BESIDE4(name, K, I) \
    static void b4_##name(long n) \
    { \
        for (long i = 0; i < n; i++) \
            __asm__ volatile(X24(C4("z", vaesenc) K(I)) : : "r"(buf) : CLOBBERS); \
    }
#define K3(I) K2(I) I(18)
#define K6(I) K4(I) I(20) I(21)
BESIDE4(none, K0, XOR) BESIDE4(tern1, K1, TERN) BESIDE4(tern2, K2, TERN) BESIDE4(tern3, K3, TERN)
BESIDE4(tern4, K4, TERN) BESIDE4(tern6, K6, TERN) BESIDE4(tern8, K8, TERN)
BESIDE4(shufb2, K2, SHUFB) BESIDE4(shufb4, K4, SHUFB) BESIDE4(load4, K4, LOADX)
/* ymm: 8 chains of vaesenc ymm (as many as latency 4 at two a cycle needs) and k others */
#define YCLMUL(d) "vpclmulqdq $0, %%ymm14, %%ymm15, %%ymm" #d "\n\t"
#define YXOR(d)   "vpxor %%ymm14, %%ymm15, %%ymm" #d "\n\t"
#define YSLLDQ(d) "vpslldq $1, %%ymm15, %%ymm" #d "\n\t"
#define YSLLQ(d)  "vpsllq $5, %%ymm15, %%ymm" #d "\n\t"
#define YADDQ(d)  "vpaddq %%ymm14, %%ymm15, %%ymm" #d "\n\t"
#define YSHUFD(d) "vpshufd $0x4e, %%ymm15, %%ymm" #d "\n\t"
#define YSHUFB(d) "vpshufb %%ymm14, %%ymm15, %%ymm" #d "\n\t"
#define YSHUFBM(d) "vpshufb (%0), %%ymm15, %%ymm" #d "\n\t"
#define YAND(d)   "vpand (%0), %%ymm15, %%ymm" #d "\n\t"
#define YCMPGT(d) "vpcmpgtq %%ymm14, %%ymm15, %%ymm" #d "\n\t"
#define YK2(I) I(8) I(9)
#define YK4(I) YK2(I) I(10) I(11)
#define YK8(I) YK4(I) I(12) I(13) I(8) I(9)
#define YBESIDE(name, K, I) \
    static void yb_##name(long n) \
    { \
        for (long i = 0; i < n; i++) \
            __asm__ volatile(X24(C8("y", vaesenc) K(I)) : : "r"(buf) : CLOBBERS); \
    }
YBESIDE(none, K0, YXOR) YBESIDE(clmul2, YK2, YCLMUL) YBESIDE(clmul4, YK4, YCLMUL)
YBESIDE(xor4, YK4, YXOR) YBESIDE(xor8, YK8, YXOR) YBESIDE(slldq2, YK2, YSLLDQ)
YBESIDE(slldq4, YK4, YSLLDQ) YBESIDE(slldq8, YK8, YSLLDQ) YBESIDE(sllq4, YK4, YSLLQ)
YBESIDE(sllq8, YK8, YSLLQ) YBESIDE(shufb4, YK4, YSHUFB) YBESIDE(shufb8, YK8, YSHUFB)
YBESIDE(shufbm8, YK8, YSHUFBM) YBESIDE(cmpgt4, YK4, YCMPGT) YBESIDE(cmpgt8, YK8, YCMPGT) YBESIDE(andm8, YK8, YAND) YBESIDE(shufd8, YK8, YSHUFD) YBESIDE(addq8, YK8, YADDQ) YBESIDE(shufd4, YK4, YSHUFD)
BESIDEK(cmpk4, KM4, CMPK) BESIDEK(kshift4, KM4, KSHIFT)
#define BESIDE(name, K, I) \
    static void bs_##name(long n) \
    { \
        for (long i = 0; i < n; i++) \
            __asm__ volatile(X24(C8("z", vaesenc) K(I)) : : "r"(buf) : CLOBBERS); \
    }
BESIDE(none, K0, XOR)
BESIDE(clmul1, K1, CLMUL) BESIDE(clmul2, K2, CLMUL) BESIDE(clmul4, K4, CLMUL)
BESIDE(tern2, K2, TERN) BESIDE(tern4, K4, TERN) BESIDE(tern8, K8, TERN)
BESIDE(xor4, K4, XOR) BESIDE(xor8, K8, XOR) BESIDE(addq4, K4, ADDQ)
BESIDE(slldq2, K2, SLLDQ) BESIDE(slldq4, K4, SLLDQ) BESIDE(sllq2, K2, SLLQ)
BESIDE(sllq4, K4, SLLQ) BESIDE(shufb2, K2, SHUFB) BESIDE(shufb4, K4, SHUFB)
BESIDE(clmuly2, K2, CLMULY) BESIDE(clmuly4, K4, CLMULY) BESIDE(clmulx4, K4, CLMULX)
BESIDE(load4, K4, LOADX) BESIDE(bcast4, K4, BCAST) BESIDE(madd4, K4, MADD) BESIDE(store4, K4, STORE)

static double cycle_ns(void)
{
    double best = 1e30;
    for (int r = 0; r < 60; r++) {
        unsigned long x = 0;
        double t0 = now_ns();
        for (long i = 0; i < 200000; i++)
            __asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                             "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0" : "+r"(x));
        double t = (now_ns() - t0) / 1600000.0;
        if (t < best)
            best = t;
    }
    return best;
}

/* Cycles per operation, fastest of 15 runs, against the add chain timed just before. */
static double cycles_per_op(void (*run)(long), double ops_per_step)
{
    double c = cycle_ns();
    double best = 1e30;
    for (int r = 0; r < 60; r++) {
        double t0 = now_ns();
        run(STEPS);
        double t = now_ns() - t0;
        if (t < best)
            best = t;
    }
    return best / (STEPS * ops_per_step) / c;
}

int main(void)
{
    printf("clock: %.3f GHz from a dependent chain of scalar adds (the cycle below)\n",
           1 / cycle_ns());
    static const int ns[] = { 1, 2, 3, 4, 5, 6, 7, 8, 10, 12 };
    static const struct {
        const char *name;
        int bytes;
        void (*run[10])(long);
    } widths[] = {
        { "vaesenc xmm", 16, { ch_vaesenc_x_1, ch_vaesenc_x_2, ch_vaesenc_x_3, ch_vaesenc_x_4,
          ch_vaesenc_x_5, ch_vaesenc_x_6, ch_vaesenc_x_7, ch_vaesenc_x_8, ch_vaesenc_x_10,
          ch_vaesenc_x_12 } },
        { "vaesenc ymm", 32, { ch_vaesenc_y_1, ch_vaesenc_y_2, ch_vaesenc_y_3, ch_vaesenc_y_4,
          ch_vaesenc_y_5, ch_vaesenc_y_6, ch_vaesenc_y_7, ch_vaesenc_y_8, ch_vaesenc_y_10,
          ch_vaesenc_y_12 } },
        { "vaesenclast ymm", 32, { ch_vaesenclast_y_1, ch_vaesenclast_y_2, ch_vaesenclast_y_3,
          ch_vaesenclast_y_4, ch_vaesenclast_y_5, ch_vaesenclast_y_6, ch_vaesenclast_y_7,
          ch_vaesenclast_y_8, ch_vaesenclast_y_10, ch_vaesenclast_y_12 } },
        { "vaesenc zmm", 64, { ch_vaesenc_z_1, ch_vaesenc_z_2, ch_vaesenc_z_3, ch_vaesenc_z_4,
          ch_vaesenc_z_5, ch_vaesenc_z_6, ch_vaesenc_z_7, ch_vaesenc_z_8, ch_vaesenc_z_10,
          ch_vaesenc_z_12 } },
        { "vaesenclast zmm", 64, { ch_vaesenclast_z_1, ch_vaesenclast_z_2, ch_vaesenclast_z_3,
          ch_vaesenclast_z_4, ch_vaesenclast_z_5, ch_vaesenclast_z_6, ch_vaesenclast_z_7,
          ch_vaesenclast_z_8, ch_vaesenclast_z_10, ch_vaesenclast_z_12 } },
    };
    printf("cycles per instruction with N independent chains (N = 1: the latency)\n%-16s",
           "N =");
    for (int j = 0; j < 10; j++)
        printf(" %6d", ns[j]);
    printf("   AES-128 c/B  AES-256 c/B (best N)\n");
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        double best = 1e30;
        printf("%-16s", widths[w].name);
        for (int j = 0; j < 10; j++) {
            double c = cycles_per_op(widths[w].run[j], 24.0 * ns[j]);
            if (c < best)
                best = c;
            printf(" %6.3f", c);
        }
        printf("   %11.3f  %11.3f\n", best * 10 / widths[w].bytes, best * 14 / widths[w].bytes);
    }
    static const struct {
        const char *name;
        void (*run)(long);
        int k;
    } beside[] = {
        { "nothing", bs_none, 0 },
        { "vpclmulqdq", bs_clmul1, 1 }, { "vpclmulqdq", bs_clmul2, 2 },
        { "vpclmulqdq", bs_clmul4, 4 },
        { "vpternlogq", bs_tern2, 2 }, { "vpternlogq", bs_tern4, 4 },
        { "vpternlogq", bs_tern8, 8 },
        { "vpxorq", bs_xor4, 4 }, { "vpxorq", bs_xor8, 8 }, { "vpaddq", bs_addq4, 4 },
        { "vpslldq", bs_slldq2, 2 }, { "vpslldq", bs_slldq4, 4 },
        { "vpsllq imm", bs_sllq2, 2 }, { "vpsllq imm", bs_sllq4, 4 },
        { "vpshufb", bs_shufb2, 2 }, { "vpshufb", bs_shufb4, 4 },
        { "vpclmulqdq ymm", bs_clmuly2, 2 }, { "vpclmulqdq ymm", bs_clmuly4, 4 },
        { "vpclmulqdq xmm", bs_clmulx4, 4 },
        { "vpcmpuq to k", bs_cmpk4, 4 }, { "kshiftlw", bs_kshift4, 4 },
        { "vpaddq masked", bs_madd4, 4 }, { "vbroadcasti32x4 mem", bs_bcast4, 4 },
        { "vpxorq mem (load)", bs_load4, 4 }, { "vmovdqu64 store", bs_store4, 4 },
    };
    printf("8 zmm chains of vaesenc and k other zmm operations per 8 vaesenc: cycles a vaesenc\n");
    for (size_t i = 0; i < sizeof beside / sizeof beside[0]; i++)
        printf("  %-20s k = %d   %6.3f\n", beside[i].name, beside[i].k,
               cycles_per_op(beside[i].run, 24.0 * 8));
    static const struct {
        const char *name;
        void (*run)(long);
        int k;
    } beside4[] = {
        { "nothing", b4_none, 0 }, { "vpternlogq", b4_tern1, 1 },
        { "vpternlogq", b4_tern2, 2 }, { "vpternlogq", b4_tern3, 3 },
        { "vpternlogq", b4_tern4, 4 }, { "vpternlogq", b4_tern6, 6 },
        { "vpternlogq", b4_tern8, 8 }, { "vpshufb", b4_shufb2, 2 },
        { "vpshufb", b4_shufb4, 4 }, { "vpxorq mem (load)", b4_load4, 4 },
    };
    static const struct {
        const char *name;
        void (*run)(long);
        int k;
    } ybeside[] = {
        { "nothing", yb_none, 0 }, { "vpclmulqdq ymm", yb_clmul2, 2 },
        { "vpclmulqdq ymm", yb_clmul4, 4 }, { "vpxor ymm", yb_xor4, 4 },
        { "vpxor ymm", yb_xor8, 8 }, { "vpslldq ymm", yb_slldq2, 2 },
        { "vpslldq ymm", yb_slldq4, 4 }, { "vpslldq ymm", yb_slldq8, 8 },
        { "vpsllq ymm", yb_sllq4, 4 }, { "vpsllq ymm", yb_sllq8, 8 },
        { "vpaddq ymm", yb_addq8, 8 }, { "vpshufd ymm", yb_shufd4, 4 }, { "vpshufd ymm", yb_shufd8, 8 },
        { "vpshufb ymm", yb_shufb4, 4 }, { "vpshufb ymm", yb_shufb8, 8 },
        { "vpshufb ymm, mem", yb_shufbm8, 8 }, { "vpand ymm, mem", yb_andm8, 8 },
        { "vpcmpgtq ymm", yb_cmpgt4, 4 }, { "vpcmpgtq ymm", yb_cmpgt8, 8 },
    };
    printf("8 ymm chains of vaesenc and k other ymm operations per 8 vaesenc: cycles a vaesenc\n");
    for (size_t i = 0; i < sizeof ybeside / sizeof ybeside[0]; i++)
        printf("  %-20s k = %d   %6.3f\n", ybeside[i].name, ybeside[i].k,
               cycles_per_op(ybeside[i].run, 24.0 * 8));
    printf("4 zmm chains (no slack) and k other zmm operations per 4 vaesenc: cycles a vaesenc\n");
    for (size_t i = 0; i < sizeof beside4 / sizeof beside4[0]; i++)
        printf("  %-20s k = %d   %6.3f\n", beside4[i].name, beside4[i].k,
               cycles_per_op(beside4[i].run, 24.0 * 4));
    return 0;
}
