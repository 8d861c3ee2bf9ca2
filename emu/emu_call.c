/* emu_call.c — see emu_call.h. */
#define _GNU_SOURCE
#include "emu/emu_call.h"
#include "emu/uc_front.h"
#include "emu/ucheck_elf.h"
#include "emu/vexec.h"
#include "emu/vx_disasm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <asm/prctl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PAGE UCF_PAGE
#define CHUNK (64 * 1024ull)   /* data mapped per fault: fewer Unicorn map calls */
#define SENTINEL 0x7ffffffff000ull /* top user page, never mapped by Linux x86-64 */
#define INSN_LIMIT 200000000ull
#define JUNK_UNUSED_ARG 0xbadc0ffee0ddf00dull /* as abi_x86_64.S */
#define JUNK_SCRATCH 0xdeadbeefcafe5a5aull
#define MAX_MAPS 256

struct range {
    uint64_t lo, hi;
    uint32_t prot; /* UC_PROT_* */
    int keep;      /* the program image: kept between calls */
};

static struct emu {
    int ready; /* 1 ok, -1 failed */
    char why[200];
    struct ucf f; /* the engine, the executor, the image (every segment), the sentinel */
    struct range maps[MAX_MAPS];
    size_t nmaps;
    uint8_t *stack;
    uint64_t entry_rsp;
    uint64_t stack_dirty; /* the stack below this address holds only the poison (the
                           * executor's writes and Unicorn's are both seen) */
    char fault[200];  /* the first failed access of this call, in words */
    uint64_t fault_insn;
} E;

/* ---- host mappings ------------------------------------------------------------------------ */

static size_t last_range; /* accesses come in runs on one buffer: try the last hit first */

static struct range *find_range(uint64_t a)
{
    if (last_range < E.nmaps && a >= E.maps[last_range].lo && a < E.maps[last_range].hi)
        return &E.maps[last_range];
    for (size_t i = 0; i < E.nmaps; i++)
        if (a >= E.maps[i].lo && a < E.maps[i].hi) return &E.maps[last_range = i];
    return NULL;
}

/* The host's mappings, from /proc/self/maps, read at most once per call: a read costs tens of
 * microseconds, as much as the emulation of a short kernel call. */
struct vma {
    uint64_t lo, hi;
    uint32_t prot; /* UC_PROT_*; 0 for PROT_NONE */
};
static struct vma *vmas;
static size_t nvmas, vmas_cap;
static int vmas_fresh;

static uint64_t hexnum(const char **p)
{
    uint64_t v = 0;
    for (;; (*p)++) {
        char c = **p;
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') : c >= 'a' && c <= 'f'
                     ? (unsigned)(c - 'a' + 10) : 16;
        if (d == 16) return v;
        v = v << 4 | d;
    }
}

static int read_vmas(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return -1;
    char line[512];
    nvmas = 0;
    while (fgets(line, sizeof line, f)) {
        const char *p = line;
        uint64_t l = hexnum(&p);
        if (*p++ != '-') continue;
        uint64_t h = hexnum(&p);
        if (*p++ != ' ' || strlen(p) < 3) continue;
        if (nvmas == vmas_cap) {
            size_t cap = vmas_cap ? 2 * vmas_cap : 256;
            struct vma *v = realloc(vmas, cap * sizeof *v);
            if (!v) break;
            vmas = v;
            vmas_cap = cap;
        }
        vmas[nvmas++] = (struct vma){l, h, (p[0] == 'r' ? UC_PROT_READ : 0) |
                                               (p[1] == 'w' ? UC_PROT_WRITE : 0) |
                                               (p[2] == 'x' ? UC_PROT_EXEC : 0)};
    }
    fclose(f);
    vmas_fresh = 1;
    return 0;
}

/* Linux 6.11's PROCMAP_QUERY ioctl on /proc/self/maps: the one VMA holding an address, without
 * the kernel formatting every mapping's path as text (a read of the whole file was two thirds of
 * an emulated call of 1 KiB).  The layout and numbers are the kernel's ABI (include/uapi/linux/
 * fs.h, Linux 6.11+), written out here because older headers lack them; on an older kernel, or
 * under qemu-user (whose /proc/self/maps is a file of its own), the ioctl fails and the text is
 * read as before. */
struct vma_query {
    uint64_t size, query_flags, query_addr;
    uint64_t vma_start, vma_end, vma_flags, vma_page_size, vma_offset, inode;
    uint32_t dev_major, dev_minor, vma_name_size, build_id_size;
    uint64_t vma_name_addr, build_id_addr;
};
#define VMA_QUERY_IOCTL _IOWR('f', 17, struct vma_query)
#define VMA_QUERY_READ 1u
#define VMA_QUERY_WRITE 2u
#define VMA_QUERY_EXEC 4u

static int maps_fd = -1;    /* open on /proc/self/maps of maps_pid; -2: the ioctl is missing */
static pid_t maps_pid;
static int pid_checked;     /* maps_pid compared with getpid() since the call began */

/* 1 and *out when the ioctl answered (out->prot 0 with lo == hi: nothing mapped at a), 0 when
 * this kernel cannot answer it. */
static int query_vma(uint64_t a, struct vma *out)
{
    if (maps_fd == -2) return 0;
    /* getpid is a system call: once per emulated call (a fork happens between calls), not per
     * mapping asked about */
    pid_t pid = pid_checked ? maps_pid : getpid();
    pid_checked = 1;
    if (maps_fd >= 0 && maps_pid != pid) { /* a forked child: its own address space */
        close(maps_fd);
        maps_fd = -1;
    }
    if (maps_fd < 0) {
        maps_fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
        if (maps_fd < 0) { maps_fd = -2; return 0; }
        maps_pid = pid;
    }
    struct vma_query q;
    memset(&q, 0, sizeof q);
    q.size = sizeof q;
    q.query_addr = a;
    if (ioctl(maps_fd, VMA_QUERY_IOCTL, &q) == 0) {
        *out = (struct vma){q.vma_start, q.vma_end,
                            (q.vma_flags & VMA_QUERY_READ ? UC_PROT_READ : 0) |
                            (q.vma_flags & VMA_QUERY_WRITE ? UC_PROT_WRITE : 0) |
                            (q.vma_flags & VMA_QUERY_EXEC ? UC_PROT_EXEC : 0)};
        return 1;
    }
    if (errno == ENOENT) { /* no mapping holds a */
        *out = (struct vma){a, a, 0};
        return 1;
    }
    close(maps_fd); /* ENOTTY (no such ioctl), EINVAL (an older layout): the text from now on */
    maps_fd = -2;
    return 0;
}

static const struct vma *find_vma(uint64_t a)
{
    static struct vma answer;
    if (query_vma(a, &answer)) return answer.hi > answer.lo ? &answer : NULL;
    if (!vmas_fresh && read_vmas()) return NULL;
    for (size_t i = 0; i < nvmas; i++)
        if (a >= vmas[i].lo && a < vmas[i].hi) return &vmas[i];
    return NULL;
}

/* The host mapping holding a: [lo, hi) and protection.  0 when found readable (a PROT_NONE
 * guard page, or no mapping, is not). */
static int host_vma(uint64_t a, uint64_t *lo, uint64_t *hi, uint32_t *prot)
{
    const struct vma *v = find_vma(a);
    if (!v || !(v->prot & UC_PROT_READ)) return -1;
    *lo = v->lo;
    *hi = v->hi;
    *prot = v->prot;
    return 0;
}

/* Maps the host memory around a (a CHUNK-aligned block, clipped to its host mapping and to what
 * is already mapped) into Unicorn at the same address.  0 on success. */
static int map_host(uint64_t a)
{
    if (find_range(a)) return 0;
    uint64_t vlo, vhi;
    uint32_t prot;
    if (host_vma(a, &vlo, &vhi, &prot)) return -1;
    uint64_t lo = a & ~(CHUNK - 1), hi = lo + CHUNK;
    if (lo < vlo) lo = vlo;
    if (hi > vhi) hi = vhi;
    for (size_t i = 0; i < E.nmaps; i++) { /* clip to the unmapped gap around a */
        if (E.maps[i].hi <= a && E.maps[i].hi > lo) lo = E.maps[i].hi;
        if (E.maps[i].lo > a && E.maps[i].lo < hi) hi = E.maps[i].lo;
    }
    if (E.nmaps == MAX_MAPS) return -1;
    if (uc_mem_map_ptr(E.f.vx.uc, lo, hi - lo, prot, (void *)(uintptr_t)lo)) return -1;
    E.maps[E.nmaps++] = (struct range){lo, hi, prot, ucf_in_image(&E.f, lo) &&
                                                       ucf_in_image(&E.f, hi - 1)};
    return 0;
}

static void unmap_range(size_t i)
{
    uc_mem_unmap(E.f.vx.uc, E.maps[i].lo, E.maps[i].hi - E.maps[i].lo);
    E.maps[i] = E.maps[--E.nmaps];
}

/* Mappings of the program's own segments (code, constants, .data, .bss) and of the stack stay
 * for good: the host never unmaps them.  Any other (heap, mmap'd buffers, guard-paged harness
 * buffers) is kept between calls only while the host still maps the same range with the same
 * protection: checked before each call that could touch it (one read of /proc/self/maps; a
 * Unicorn map and unmap cost tens of microseconds each, more than that read). */
static void revalidate(void)
{
    vmas_fresh = 0;
    pid_checked = 0;
    int have_data = 0;
    for (size_t i = 0; i < E.nmaps; i++) have_data |= !E.maps[i].keep;
    if (!have_data) return;
    if (E.nmaps > MAX_MAPS - 8) {
        for (size_t i = E.nmaps; i-- > 0;)
            if (!E.maps[i].keep) unmap_range(i);
        return;
    }
    struct vma last = {0, 0, 0}; /* one host mapping often holds several of ours: one query */
    for (size_t i = E.nmaps; i-- > 0;) {
        if (E.maps[i].keep) continue;
        const struct vma *v = &last;
        if (E.maps[i].lo < last.lo || E.maps[i].lo >= last.hi) {
            v = find_vma(E.maps[i].lo);
            if (v) last = *v;
        }
        if (!v || E.maps[i].hi > v->hi || v->prot != E.maps[i].prot) unmap_range(i);
    }
}

static void note_fault(const char *what, uint64_t a, size_t n, const char *why)
{
    if (E.fault[0]) return;
    snprintf(E.fault, sizeof E.fault, "%s of %zu byte%s at 0x%llx (%s)", what, n,
             n == 1 ? "" : "s", (unsigned long long)a, why);
}

static int access_ok_slow(uint64_t a, size_t n, int write) __attribute__((noinline));

/* Checks [a, a+n) for an access; maps what is missing.  0 when allowed. */
static int access_ok(uint64_t a, size_t n, int write)
{
    /* the usual case first: all of it inside one of the ranges of the last few accesses (a
     * kernel's accesses alternate between its stack, buffers, key and constants) */
    static size_t recent[4], next_recent, last_hit;
    const struct range *last = &E.maps[last_hit]; /* the range of the last access first */
    if (last_hit < E.nmaps && a >= last->lo && a + n <= last->hi && a + n >= a &&
        (!write || (last->prot & UC_PROT_WRITE)))
        return 0;
    for (int k = 0; k < 4; k++) {
        const struct range *r = &E.maps[recent[k]];
        if (recent[k] < E.nmaps && a >= r->lo && a + n <= r->hi && a + n >= a &&
            (!write || (r->prot & UC_PROT_WRITE))) {
            last_hit = recent[k];
            return 0;
        }
    }
    if (n && access_ok_slow(a, n, write) == 0) {
        struct range *r = find_range(a);
        if (r && a + n <= r->hi) recent[next_recent++ & 3] = (size_t)(r - E.maps);
        return 0;
    }
    return n ? -1 : 0;
}

/* access_ok without the recent ranges: page by page, mapping what is missing (out of line:
 * the fast path above then needs no saved registers). */
static int access_ok_slow(uint64_t a, size_t n, int write)
{
    uint64_t p = a;
    while (p < a + n) {
        struct range *r = find_range(p);
        if (!r) {
            if (map_host(p)) {
                note_fault(write ? "write" : "read", a, n, "no readable host page");
                return -1;
            }
            r = find_range(p);
        }
        if (write && !(r->prot & UC_PROT_WRITE)) {
            note_fault("write", a, n, "read-only host page");
            return -1;
        }
        p = r->hi;
    }
    return 0;
}

/* ---- functions that need no emulation ------------------------------------------------------ */

/* 1 when [start, start + its symbol's size) is all legacy scalar forms of the executor's table;
 * the direct call targets found are added to calls[] (up to max, *ncalls counting them, more
 * than max being a failure). */
static int plain_scalar(uint64_t start, uint64_t *calls, size_t *ncalls, size_t max)
{
    uint64_t size;
    if (elfsym_function_at(start, &size)) return 0;
    for (uint64_t a = start; a < start + size;) {
        struct vx_insn in;
        uint8_t buf[15];
        size_t n = start + size - a < sizeof buf ? start + size - a : sizeof buf;
        memcpy(buf, (const void *)(uintptr_t)a, n); /* our own code: mapped and readable */
        if (vx_decode(buf, n, a, &in) || !in.f || in.f->enc != VX_ENC_LEG ||
            in.f->kind != VK_SCALAR || !in.len)
            return 0;
        const struct vx_form *f = in.f;
        if (f->flags & (VF_REL8 | VF_REL32)) {
            uint64_t to = a + in.len + (uint64_t)in.imm;
            if (f->flags & VF_STACK) { /* call rel32 */
                size_t k = 0;
                while (k < *ncalls && calls[k] != to) k++;
                if (k == *ncalls) {
                    if (*ncalls == max) return 0;
                    calls[(*ncalls)++] = to;
                }
            } else if (to < start || to >= start + size) {
                return 0; /* a jump out of the function: a tail call, not followed */
            }
        } else if ((f->flags & VF_BRANCH) && strcmp(f->name, "ret") != 0) {
            return 0; /* no other branch is in the table today; any new one is not judged */
        }
        a += in.len;
    }
    return 1;
}

int emu_needs_emulation(const void *fn)
{
    static struct answer { const void *fn; int needs; } known[64];
    static size_t nknown;
    for (size_t i = 0; i < nknown; i++)
        if (known[i].fn == fn) return known[i].needs;
    uint64_t calls[16] = {(uint64_t)(uintptr_t)fn};
    size_t ncalls = 1;
    int needs = 0;
    for (size_t i = 0; i < ncalls && !needs; i++)
        needs = !plain_scalar(calls[i], calls, &ncalls, sizeof calls / sizeof calls[0]);
    if (nknown < sizeof known / sizeof known[0]) known[nknown++] = (struct answer){fn, needs};
    return needs;
}

/* ---- the executor's memory: host memory itself (it is what Unicorn maps) ------------------- */

/* The vector sizes as constant-size copies: inline moves instead of a library call (under the
 * fuzz build's ASan, its checked memcpy) per access. */
static inline void copy_n(void *dst, const void *src, size_t n)
{
    switch (n) {
    case 64: memcpy(dst, src, 64); break;
    case 32: memcpy(dst, src, 32); break;
    case 16: memcpy(dst, src, 16); break;
    case 8: memcpy(dst, src, 8); break;
    default: memcpy(dst, src, n); break;
    }
}

static int ex_read(void *ctx, uint64_t a, void *dst, size_t n)
{
    (void)ctx;
    if (access_ok(a, n, 0)) return -1;
    copy_n(dst, (const void *)(uintptr_t)a, n);
    return 0;
}

static int ex_write(void *ctx, uint64_t a, const void *src, size_t n)
{
    (void)ctx;
    if (access_ok(a, n, 1)) return -1;
    if (a < E.stack_dirty && a >= (uint64_t)(uintptr_t)E.stack) E.stack_dirty = a;
    copy_n((void *)(uintptr_t)a, src, n);
    return 0;
}

static size_t ex_fetch(void *ctx, uint64_t a, uint8_t *dst, size_t n)
{
    (void)ctx;
    size_t got = 0;
    while (got < n) {
        struct range *r = find_range(a + got);
        if (!r && map_host(a + got)) break;
        r = find_range(a + got);
        if (!(r->prot & UC_PROT_EXEC)) break;
        size_t k = n - got;
        if (a + got + k > r->hi) k = r->hi - (a + got);
        memcpy(dst + got, (const void *)(uintptr_t)(a + got), k);
        got += k;
    }
    return got;
}

/* ---- Unicorn's hooks (the executor's handoff is the front-end's) -------------------------- */

static bool hook_unmapped(uc_engine *uc, uc_mem_type type, uint64_t addr, int size,
                          int64_t value, void *user)
{
    (void)uc;
    (void)value;
    (void)user;
    if (map_host(addr) == 0) {
        struct range *r = find_range(addr);
        if (type == UC_MEM_WRITE_UNMAPPED && !(r->prot & UC_PROT_WRITE)) {
            note_fault("write", addr, (size_t)size, "read-only host page");
            return false;
        }
        return true;
    }
    uc_reg_read(E.f.vx.uc, UC_X86_REG_RIP, &E.fault_insn);
    note_fault(type == UC_MEM_WRITE_UNMAPPED ? "write" : type == UC_MEM_FETCH_UNMAPPED ?
               "instruction fetch" : "read", addr, (size_t)size, "no readable host page");
    return false;
}

static bool hook_prot(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value,
                      void *user)
{
    (void)uc;
    (void)value;
    (void)user;
    uc_reg_read(E.f.vx.uc, UC_X86_REG_RIP, &E.fault_insn);
    note_fault(type == UC_MEM_WRITE_PROT ? "write" : type == UC_MEM_FETCH_PROT ?
               "instruction fetch" : "read", addr, (size_t)size,
               type == UC_MEM_WRITE_PROT ? "read-only host page" : "page not executable");
    return false;
}

/* Unicorn's writes to the emulated stack, as ex_write sees the executor's: only what a call
 * wrote is poisoned again (a turn of Unicorn, the bench function's `xorps`, dirtied all 64 KiB:
 * a seventh of an emulated 1 KiB call). */
static void hook_stack_write(uc_engine *uc, uc_mem_type type, uint64_t addr, int size,
                             int64_t value, void *user)
{
    (void)uc; (void)type; (void)size; (void)value; (void)user;
    if (addr < E.stack_dirty) E.stack_dirty = addr;
}

static int setup(void)
{
    if (E.ready) return E.ready > 0 ? 0 : -1;
    E.ready = -1;
    uc_err e;
    if ((e = ucf_open(&E.f, UCF_IMAGE_ALL, SENTINEL))) {
        snprintf(E.why, sizeof E.why, "uc_open: %s", uc_strerror(e));
        return -1;
    }
    /* the stack, with a PROT_NONE page below it: a deeper emulated stack faults there instead
     * of reaching whatever host memory lies below */
    uint8_t *st = mmap(NULL, EMU_STACK_SIZE + PAGE, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    E.stack = st == MAP_FAILED || mprotect(st, PAGE, PROT_NONE) ? MAP_FAILED : st + PAGE;
    E.stack_dirty = (uint64_t)(uintptr_t)E.stack; /* not yet poisoned */
    uc_hook h;
    const struct ucf_hooks hooks = {.unmapped = hook_unmapped, .prot = hook_prot};
    if (E.stack == MAP_FAILED ||
        uc_mem_map_ptr(E.f.vx.uc, (uint64_t)(uintptr_t)E.stack, EMU_STACK_SIZE,
                       UC_PROT_READ | UC_PROT_WRITE, E.stack) ||
        ucf_map_sentinel(&E.f) || ucf_add_hooks(&E.f, &hooks) ||
        uc_hook_add(E.f.vx.uc, &h, UC_HOOK_MEM_WRITE, (void *)hook_stack_write, NULL,
                    (uint64_t)(uintptr_t)E.stack,
                    (uint64_t)(uintptr_t)E.stack + EMU_STACK_SIZE - 1)) {
        snprintf(E.why, sizeof E.why, "setting up the emulator's stack and hooks failed");
        return -1;
    }
    E.maps[E.nmaps++] = (struct range){(uint64_t)(uintptr_t)E.stack,
                                       (uint64_t)(uintptr_t)E.stack + EMU_STACK_SIZE,
                                       UC_PROT_READ | UC_PROT_WRITE, 1};
    E.maps[E.nmaps++] = (struct range){SENTINEL, SENTINEL + PAGE, UC_PROT_READ | UC_PROT_EXEC, 1};
    /* %fs as the host's, so that TLS reads (a C callee's stack protector) work: host memory is
     * at identical addresses */
    uint64_t fs = 0;
    if (syscall(SYS_arch_prctl, ARCH_GET_FS, &fs) == 0)
        uc_reg_write(E.f.vx.uc, UC_X86_REG_FS_BASE, &fs);
    E.f.vx.env = (struct vx_env){.read = ex_read, .write = ex_write, .fetch = ex_fetch};
    E.f.vx.limit = INSN_LIMIT;
    E.f.vx.final_state_vexec_only = 1; /* the result is read from its cpu; MXCSR and the x87
                                      * control word, which only Unicorn runs, from Unicorn */
    E.ready = 1;
    return 0;
}

/* ---- the call ------------------------------------------------------------------------------- */

/* The instruction the last failed call stopped at (emu_last_pc). */
static uint64_t last_pc;

int emu_available(void) { return 1; }

void emu_stack(uint64_t *lo, size_t *size, uint64_t *entry_rsp)
{
    *lo = (uint64_t)(uintptr_t)E.stack;
    *size = E.stack ? EMU_STACK_SIZE : 0;
    *entry_rsp = E.entry_rsp;
}

uint64_t emu_last_pc(void)
{
    return last_pc;
}

void emu_last_stats(uint64_t *vexec_insns, uint64_t *unicorn_turns)
{
    *vexec_insns = E.f.vx.vexec_insns;
    *unicorn_turns = E.f.vx.unicorn_turns;
}

static int isa_on;
static uint32_t isa_declared;

void emu_set_isa(int on, uint32_t declared)
{
    isa_on = on;
    isa_declared = declared;
}

int emu_call(const void *fn, const uint64_t *argv, size_t argc, const struct abi_state *before,
             struct abi_state *after, uint64_t *rax, char *err, size_t errlen)
{
    if (errlen) err[0] = 0;
    last_pc = 0;
    if (setup()) {
        snprintf(err, errlen, "emulator set-up: %s", E.why);
        return -1;
    }
    E.f.vx.env.isa_check = isa_on;
    E.f.vx.env.isa = vx_feat_closure(isa_declared);
    E.f.vx.env.isa_declared = isa_declared;
    if (argc > EMU_MAX_ARGS) {
        snprintf(err, errlen, "%zu arguments: at most %d", argc, EMU_MAX_ARGS);
        return -1;
    }
    E.fault[0] = 0;
    E.fault_insn = 0;
    revalidate();
    /* The decode cache is keyed by address: code outside the program's image (a library, a
     * JIT page) may have changed since the last call. */
    if (!ucf_in_image(&E.f, (uint64_t)(uintptr_t)fn)) vx_flush_cache();
    struct vx_cpu *c = &E.f.vx.cpu;
    memset(c, 0, sizeof *c);

    /* stack: poisoned; the return address at entry_rsp (16-byte aligned + 8, as after a call),
     * stack arguments above it */
    uint64_t top = (uint64_t)(uintptr_t)E.stack + EMU_STACK_SIZE;
    /* Only what the last call wrote (the executor's writes, and Unicorn's: hook_stack_write)
     * is poisoned again: 64 KiB each time was a tenth of an emulated 1 KiB call. */
    if (E.stack_dirty < top) {
        const uint64_t poison = EMU_STACK_POISON; /* in every aligned word, as abi.c's stack */
        for (uint64_t a = E.stack_dirty & ~7ull; a < top; a += 8)
            memcpy((void *)(uintptr_t)a, &poison, 8);
    }
    E.entry_rsp = ((top - 256) & ~15ull) - 8;
    uint64_t ret = SENTINEL;
    memcpy((void *)(uintptr_t)E.entry_rsp, &ret, 8);
    for (size_t i = 6; i < EMU_MAX_ARGS; i++) {
        uint64_t v = i < argc ? argv[i] : JUNK_UNUSED_ARG;
        memcpy((void *)(uintptr_t)(E.entry_rsp + 8 * (i - 5)), &v, 8);
    }

    /* the trampoline's contract: the caller's callee-saved values, junk in what is unused */
    uint64_t args[UCF_REG_ARGS], saved[UCF_NSAVED];
    const uint64_t scratch[UCF_SCRATCH] = {JUNK_SCRATCH, JUNK_SCRATCH, JUNK_SCRATCH};
    size_t n = 0;
    for (size_t i = 0; i < UCF_REG_ARGS; i++) args[i] = i < argc ? argv[i] : JUNK_UNUSED_ARG;
#define LOAD_SAVED_(kind, r, R) saved[n++] = before->r;
    ABI_X86_64_SYSV_SAVED(LOAD_SAVED_)
#undef LOAD_SAVED_
    ucf_load_entry(&E.f, (uint64_t)(uintptr_t)fn, args, saved, scratch, E.entry_rsp,
                   before->mxcsr, before->x87cw);
    unsigned nvec = before->vec_mode == ABI_VEC_AVX512 ? 32 : before->vec_mode ? 16 : 0;
    unsigned width = before->vec_mode == ABI_VEC_AVX512 ? 64 : before->vec_mode == ABI_VEC_AVX
                     ? 32 : 16;
    for (unsigned r = 0; r < nvec; r++)
        for (unsigned j = 0; j < width / 8; j++) c->z[r].q[j] = before->vec_fill;
    if (before->vec_mode == ABI_VEC_AVX512)
        for (int k = 0; k < 8; k++) c->k[k] = before->vec_fill;

    char msg[300];
    E.stack_dirty = E.entry_rsp; /* the return address and the stack arguments */
    enum vxu_status s = vxu_run(&E.f.vx, SENTINEL, msg, sizeof msg);
    int rc = 0;
    if (s != VXU_DONE) {
        char where[128];
        uint64_t at = E.fault_insn ? E.fault_insn : c->rip;
        last_pc = at;
        elfsym_format(at, where, sizeof where);
        if (E.fault[0])
            snprintf(err, errlen, "fault: %s by instruction at %s", E.fault, where);
        else if (msg[0])
            snprintf(err, errlen, "%s", msg);
        else
            snprintf(err, errlen, "stopped at %s: %s", where, uc_strerror(E.f.vx.uc_error));
        rc = -1;
    }

    *after = *before;
    ucf_read_saved(&E.f, saved);
    n = 0;
#define STORE_SAVED_(kind, r, R) after->r = saved[n++];
    ABI_X86_64_SYSV_SAVED(STORE_SAVED_)
#undef STORE_SAVED_
    after->rsp_delta = c->gpr[VX_RSP] - (E.entry_rsp + 8);
    after->rflags = c->rflags;
    ucf_read_fp(&E.f, &after->mxcsr, &after->x87cw);
    /* The executor has no x87, and Unicorn 2.0.1 reports its tag word as 0x5555 even for an
     * empty register stack: the emulated path cannot see a missing emms (the native path
     * does); it reports the ABI's required value. */
    after->x87tw = 0xffff;
    for (unsigned r = 0; r < nvec; r++) memcpy(after->vec[r], c->z[r].b, width);
    if (before->vec_mode == ABI_VEC_AVX512) memcpy(after->k, c->k, sizeof after->k);
    if (rax) *rax = c->gpr[VX_RAX];
    return rc;
}

void emu_describe_insn(uint64_t pc, char *text, size_t tlen, char *needs, size_t nlen)
{
    uint8_t b[15];
    long ps = sysconf(_SC_PAGESIZE);
    size_t room = ps > 0 ? (size_t)ps - (size_t)(pc % (uint64_t)ps) : 1;
    size_t n = room < sizeof b ? room : sizeof b;
    memcpy(b, (const void *)(uintptr_t)pc, n);
    vx_disasm(b, n, pc, text, tlen);
    struct vx_insn in;
    uint32_t need = vx_decode(b, n, pc, &in) == 0
                        ? vx_insn_features(&in) |
                              (in.f->enc == VX_ENC_LEG ? vx_legacy_features(b, n) : 0)
                        : vx_legacy_features(b, n);
    if (!nlen) return;
    needs[0] = 0;
    if (need) vx_feat_format(need, needs, nlen);
}
