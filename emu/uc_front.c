/* uc_front.c — see uc_front.h. */
#define _GNU_SOURCE
#include "emu/uc_front.h"
#include "emu/ucheck_elf.h"

#include <elf.h>
#include <link.h>
#include <string.h>

/* ---- the image ------------------------------------------------------------------------------ */

struct image_scan {
    struct ucf_image *im;
    enum ucf_image_kind kind;
};

static int scan_image(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct image_scan *sc = data;
    struct ucf_image *im = sc->im;
    for (size_t i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD) continue;
        uint64_t lo = (info->dlpi_addr + ph->p_vaddr) & ~(UCF_PAGE - 1);
        uint64_t hi = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + UCF_PAGE - 1) &
                      ~(UCF_PAGE - 1);
        if (sc->kind == UCF_IMAGE_ALL) { /* all segments: .data and .bss too */
            if (im->n == UCF_MAX_IMAGE) break;
            im->lo[im->n] = lo;
            im->hi[im->n] = hi;
            im->prot[im->n] = UC_PROT_READ | (ph->p_flags & PF_W ? UC_PROT_WRITE : 0) |
                              (ph->p_flags & PF_X ? UC_PROT_EXEC : 0);
            im->n++;
            continue;
        }
        if ((ph->p_flags & PF_W) || !(ph->p_flags & PF_R)) continue;
        uint32_t prot = UC_PROT_READ | ((ph->p_flags & PF_X) ? UC_PROT_EXEC : 0);
        if (im->n && lo < im->hi[im->n - 1]) { /* shares a page with the previous one */
            if (hi > im->hi[im->n - 1]) im->hi[im->n - 1] = hi;
            im->prot[im->n - 1] |= prot;
        } else if (im->n < UCF_MAX_IMAGE) {
            im->lo[im->n] = lo;
            im->hi[im->n] = hi;
            im->prot[im->n] = prot;
            im->n++;
        }
    }
    return 1; /* the main program only */
}

int ucf_in_image(const struct ucf *f, uint64_t a)
{
    for (size_t i = 0; i < f->image.n; i++)
        if (a >= f->image.lo[i] && a < f->image.hi[i]) return 1;
    return 0;
}

/* ---- the engine ----------------------------------------------------------------------------- */

uc_err ucf_open(struct ucf *f, enum ucf_image_kind image, uint64_t sentinel)
{
    elfsym_load();
    f->sentinel = sentinel;
    uc_err e = uc_open(UC_ARCH_X86, UC_MODE_64, &f->vx.uc);
    if (e) return e;
    struct image_scan sc = {&f->image, image};
    memset(&f->image, 0, sizeof f->image);
    dl_iterate_phdr(scan_image, &sc);
    return UC_ERR_OK;
}

uc_err ucf_map_sentinel(struct ucf *f)
{
    static uint8_t hlt[UCF_PAGE]; /* shared by the owners' engines; never written */
    memset(hlt, 0xf4, sizeof hlt);
    return uc_mem_map_ptr(f->vx.uc, f->sentinel, UCF_PAGE, UC_PROT_READ | UC_PROT_EXEC, hlt);
}

/* Unicorn must never run a VEX/EVEX instruction (vx_uc.h): each one it reaches goes to the
 * executor; the others to the owner.  The sentinel is the owner's to see. */
static void hook_code(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)size;
    struct ucf *f = user;
    if (addr != f->sentinel && vxu_unicorn_check(&f->vx, addr)) return; /* the executor's */
    if (f->insn) f->insn(uc, addr);
}

uc_err ucf_add_hooks(struct ucf *f, const struct ucf_hooks *h)
{
    uc_hook id;
    uc_err e;
    f->insn = h->insn;
    if ((e = uc_hook_add(f->vx.uc, &id, UC_HOOK_CODE, (void *)hook_code, f, 1, 0))) return e;
    if (h->unmapped &&
        (e = uc_hook_add(f->vx.uc, &id, UC_HOOK_MEM_UNMAPPED, (void *)h->unmapped, NULL, 1, 0)))
        return e;
    if (h->prot && (e = uc_hook_add(f->vx.uc, &id, UC_HOOK_MEM_PROT, (void *)h->prot, NULL, 1, 0)))
        return e;
    return UC_ERR_OK;
}

/* ---- registers ------------------------------------------------------------------------------ */

#define UCF_SAVED_NAME_(kind, r, R) #r,
const char *const ucf_saved_names[UCF_NSAVED] = {ABI_X86_64_SYSV_SAVED(UCF_SAVED_NAME_)};
#undef UCF_SAVED_NAME_

static const int arg_regs[UCF_REG_ARGS] = {VX_RDI, VX_RSI, VX_RDX, VX_RCX, VX_R8, VX_R9};
static const int scratch_regs[UCF_SCRATCH] = {VX_RAX, VX_R10, VX_R11};

void ucf_load_entry(struct ucf *f, uint64_t fn, const uint64_t args[UCF_REG_ARGS],
                    const uint64_t saved[UCF_NSAVED], const uint64_t scratch[UCF_SCRATCH],
                    uint64_t rsp, uint64_t mxcsr, uint64_t fpcw)
{
    struct vx_cpu *c = &f->vx.cpu;
    for (size_t i = 0; i < UCF_REG_ARGS; i++) c->gpr[arg_regs[i]] = args[i];
    size_t n = 0;
#define UCF_LOAD_SAVED_(kind, r, R) c->gpr[VX_##R] = saved[n++];
    ABI_X86_64_SYSV_SAVED(UCF_LOAD_SAVED_)
#undef UCF_LOAD_SAVED_
    for (size_t i = 0; i < UCF_SCRATCH; i++) c->gpr[scratch_regs[i]] = scratch[i];
    c->gpr[VX_RSP] = rsp;
    c->rip = fn;
    c->rflags = 0x202; /* IF, DF clear */
    uc_reg_write(f->vx.uc, UC_X86_REG_MXCSR, &mxcsr);
    uc_reg_write(f->vx.uc, UC_X86_REG_FPCW, &fpcw);
}

void ucf_read_saved(const struct ucf *f, uint64_t saved[UCF_NSAVED])
{
    const struct vx_cpu *c = &f->vx.cpu;
    size_t n = 0;
#define UCF_STORE_SAVED_(kind, r, R) saved[n++] = c->gpr[VX_##R];
    ABI_X86_64_SYSV_SAVED(UCF_STORE_SAVED_)
#undef UCF_STORE_SAVED_
}

void ucf_read_fp(struct ucf *f, uint32_t *mxcsr, uint16_t *fpcw)
{
    uint64_t v = 0; /* read as 32 and 16 bits */
    uc_reg_read(f->vx.uc, UC_X86_REG_MXCSR, &v);
    *mxcsr = (uint32_t)v;
    v = 0;
    uc_reg_read(f->vx.uc, UC_X86_REG_FPCW, &v);
    *fpcw = (uint16_t)v;
}
