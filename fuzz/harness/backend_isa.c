/* backend_isa.c — the ISA-subset check (mode `isa`): every kernel runs in the emulator with
 * exactly the CPU features its implementation declares (struct impl's needs: our registration,
 * an outside kernel's --needs), widened only by the implications every shipped x86-64 CPU
 * honours (vx_feat_closure: AVX brings SSE4.2, AVX2 brings AVX, ...), whatever this CPU has.
 * The first instruction that needs another feature stops the call: a finding (FINDING_ISA)
 * that names the instruction, where it is and the feature ("beyond the declared features:
 * vpbroadcastb %xmm0, %xmm1 at aria_aesni_avx_crypt_16way+0x1a4 needs AVX2; declared
 * AVX+AES").  Natively such a kernel passes on every machine its authors own and faults with
 * #UD on a CPU its guard admits (Linux's AVX ARIA kernel, fixed in 8b844753).
 *
 * What is judged: the executor's instructions by their form's feature column (emu/vexec.c), the
 * legacy ones Unicorn runs by prefixes and opcode (vx_legacy_features).  The kernels are
 * judged against the reference, which runs natively; the libraries do not run (the mode is
 * about the kernels' instructions, as bounds is), so a family or a build with no kernel is "no
 * implementation ran", never a pass.  x86-64 builds with Unicorn only. */
#include <stdint.h>

#include "asmdiff-config.h"
#include "backend.h"
#include "cpu.h"
#include "stats.h"

#if ARCH_X86_64
#include "emu/vexec.h"

/* cpu.h's features as the SDM's (emu/vexec.h) */
static uint32_t declared_of(uint64_t needs)
{
    static const struct { uint64_t cpu; uint32_t vx; } map[] = {
        {CPU_SSE2, VXF(SSE) | VXF(SSE2)}, {CPU_SSSE3, VXF(SSSE3)}, {CPU_SSE41, VXF(SSE4_1)},
        {CPU_PCLMUL, VXF(PCLMULQDQ)}, {CPU_AESNI, VXF(AES)}, {CPU_AVX, VXF(AVX)},
        {CPU_AVX2, VXF(AVX2)}, {CPU_BMI2, VXF(BMI2)}, {CPU_ADX, VXF(ADX)},
        {CPU_AVX512F, VXF(AVX512F)}, {CPU_AVX512BW, VXF(AVX512BW)}, {CPU_AVX512DQ, VXF(AVX512DQ)},
        {CPU_AVX512VL, VXF(AVX512VL)}, {CPU_AVX512VBMI, VXF(AVX512_VBMI)},
        {CPU_AVX512BITALG, VXF(AVX512_BITALG)}, {CPU_AVX512IFMA, VXF(AVX512_IFMA)},
        {CPU_GFNI, VXF(GFNI)}, {CPU_VAES, VXF(VAES)}, {CPU_VPCLMULQDQ, VXF(VPCLMULQDQ)},
    };
    uint32_t d = 0;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (needs & map[i].cpu) d |= map[i].vx;
    return d;
}

static uint64_t isa_call(struct drv_pass *p, const void *fn, const uint64_t *argv, size_t argc)
{
    const struct impl *im = p->impl;
    if (!(im->flags & IMPL_KERNEL)) return backend_native.call(p, fn, argv, argc); /* reference */
    uint64_t r = emulated_call_isa(impl_name(im), (im->flags & IMPL_CLEAN) != 0,
                                   declared_of(im->needs), fn, argv, argc);
    if (abi_call_abandoned()) p->abandoned = 1;
    drv_stats.calls++;
    drv_stats.emulated_calls++;
    drv_stats.impl_calls[p->index]++;
    if (!p->abandoned) drv_after_call(p);
    return r;
}

static int isa_emulated(const struct impl *im)
{
    return (im->flags & IMPL_KERNEL) != 0;
}
#endif

static int isa_setup(const char **why)
{
#if ARCH_X86_64
    if (drv_emulator_linked(why)) return -1;
    if (!emulated_available()) {
        *why = "the emulator is off (ASMDIFF_EMULATE=0): the ISA-subset check runs every "
               "kernel in it";
        return -1;
    }
    return 0;
#else
    *why = "the ISA-subset check is x86-64's (a riscv64 kernel runs under qemu-riscv64 with "
           "the -cpu extensions it declares)";
    return -1;
#endif
}

const struct backend backend_isa = {
    .name = "isa",
    .setup = isa_setup,
    .unavailable = drv_kernels_only,
#if ARCH_X86_64
    .emulated = isa_emulated,
    .call = isa_call,
#endif
    .check_case = drv_check_placements,
};
