/* ucheck.c — see ucheck.h.
 *
 * Emulator address space (fixed, far from where Linux puts a program, its libraries and its
 * stack, so the image can sit at its own addresses; checked at start-up):
 *   the program's read-only PT_LOAD segments   at their addresses in this process
 *   REGION_BASE + i * SLOT_STRIDE               slot i holds region i: a mapping that ends
 *                                               one unmapped page below the next slot, and
 *                                               whose last page is a red page; the region
 *                                               ends flush against it
 *   STACK_TOP - STACK_SIZE .. STACK_TOP         the stack, a red page on each side; rsp at entry
 *                                               is STACK_TOP - 24, where the return address is,
 *                                               the 7th and 8th arguments above it
 *   SENTINEL                                    the return address: one page of hlt; emulation
 *                                               ends when the function returns there
 */
#define _GNU_SOURCE
#include "emu/ucheck.h"
#include "emu/uc_front.h"
#include "emu/ucheck_elf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unicorn/unicorn.h>

#define PAGE UCF_PAGE
#define REGION_BASE 0x100000000000ull
#define SLOT_STRIDE (1ull << 32) /* room for any region; address space is free */
#define STACK_TOP 0x200000000000ull
#define STACK_SIZE (64 * 1024ull)
#define SENTINEL 0x300000000000ull
#define POISON 0xa5
#define UC_VEC_MARKER 0x5ca1ab1e0ddba11ull
/* A kernel call here runs thousands of instructions; this many means a loop that never ends
 * (a length taken from the wrong register, say). */
#define INSN_LIMIT 50000000ull

/* A contiguous range the function may (or, for the image, might) access. */
struct span {
    const char *name;
    uint64_t start, end; /* the allowed bytes */
    uint64_t map_lo, map_hi; /* the mapping around it (red zones included); 0 when none */
    int writable;
    int in_image;
    int per_table; /* reads judged per sized object (uc_call.per_table) */
};

/* The sized objects of the per_table region, read from the symbol table once per region. */
static struct tables {
    uint64_t lo, hi;
    const struct elfsym_object *obj;
    size_t n, unsized;
} tables;

/* Memory accesses of one instruction, merged while they are contiguous: Unicorn reports a
 * 16-byte SSE access as two 8-byte ones, and the check and the trace want the real access. */
struct pending {
    int valid;
    int kind;       /* UC_EV_READ or UC_EV_WRITE */
    uint64_t addr;
    uint64_t size;
};

/* Unicorn 2 re-enters its load helper for an unaligned read in two aligned halves (when the
 * read crosses a page, and on some slow paths), and the read hook fires for those too: after
 * the real (addr, size) come (addr & -size, size) and (addr & -size) + size.  They are the
 * emulator's, not the function's, and must not be reported. */
struct echo {
    int left;
    uint64_t addr;
    uint64_t size;
};

/* Filled once: red zones, fresh region pages and the stack start with it. */
static uint8_t poison[STACK_SIZE + 2 * PAGE];

static struct engine {
    struct ucf f; /* the engine, the executor, the image (its read-only segments, mapped as
                   * copies), the sentinel */
    uc_engine *uc; /* f.vx.uc */
    int ready; /* 1: set up, -1: failed */
    char why[200];
    uint64_t stack_dirty; /* bytes below STACK_TOP the last call may have written */
    /* Data pages mapped in each slot, 0 when none.  Slots are kept between calls and only
     * grow: a map and unmap per region and call cost about 80 us in Unicorn 2.0.1 (it
     * rebuilds its address space each time), three times the emulation of a whole
     * 1024-byte NH call. */
    uint64_t slot_pages[UC_MAX_REGIONS];
    /* pages mapped at their own addresses for UC_REGION_FIXED regions, unmapped when
     * the next call places its regions */
    uint64_t fixed_page[4 * UC_MAX_REGIONS];
    size_t nfixed;
    uint64_t rng;
} eng;

/* State of the call being run; the hooks read and fill it. */
static struct run {
    const struct uc_call *call;
    struct uc_result *res;
    struct span spans[UC_MAX_REGIONS + 1]; /* the regions, then the stack */
    size_t nspans;
    uint64_t fn;
    uint64_t entry_rsp;
    uint64_t insn_addr; /* the instruction executing now */
    struct pending pend;
    struct echo echo;
    int stop_unmapped; /* an access hit unmapped memory: emulation stopped there */
} run;

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int in_image(uint64_t a)
{
    return ucf_in_image(&eng.f, a);
}

/* ---- messages ---------------------------------------------------------------------------- */

static const char *plural(uint64_t n) { return n == 1 ? "" : "s"; }

/* "message+1016", "key-1", "rsp-16", "uc_ctl_table+0x10", "0x1234". */
static void format_location(const struct span *s, int is_stack, uint64_t addr, char *buf,
                            size_t len)
{
    if (!s) {
        elfsym_format(addr, buf, len);
        return;
    }
    uint64_t base = is_stack ? run.entry_rsp : s->start;
    const char *name = is_stack ? "rsp" : s->name;
    if (addr >= base)
        snprintf(buf, len, "%s+%llu", name, (unsigned long long)(addr - base));
    else
        snprintf(buf, len, "%s-%llu", name, (unsigned long long)(base - addr));
}

/* The span an out-of-bounds address belongs to: the one whose mapping holds it, else, for the
 * image, the nearest in-image region within a page. */
static const struct span *nearest_span(uint64_t addr)
{
    for (size_t i = 0; i < run.nspans; i++) {
        const struct span *s = &run.spans[i];
        if (s->map_hi && addr >= s->map_lo && addr < s->map_hi) return s;
    }
    for (size_t i = 0; i < run.nspans; i++) {
        const struct span *s = &run.spans[i];
        if (s->in_image && addr + PAGE >= s->start && addr < s->end + PAGE) return s;
    }
    return NULL;
}

static void bounds_violation(int kind, uint64_t addr, uint64_t size, const char *why_fmt)
{
    struct uc_result *res = run.res;
    if (res->bounds_violation++) return;
    const struct span *s = nearest_span(addr);
    int is_stack = s == &run.spans[run.call->nregions];
    char where[96], insn[96], why[128];
    format_location(s, is_stack, addr, where, sizeof where);
    elfsym_format(run.insn_addr, insn, sizeof insn);
    if (why_fmt) {
        snprintf(why, sizeof why, why_fmt, s ? s->name : "");
    } else if (!s) {
        snprintf(why, sizeof why, in_image(addr) ? "program image, outside every declared region"
                                                 : "no region near it");
    } else if (is_stack) {
        if (addr + size > s->end)
            snprintf(why, sizeof why, "above the return address: the caller's frame");
        else
            snprintf(why, sizeof why, "below the %llu KiB stack", STACK_SIZE / 1024);
    } else if (addr + size > s->end) {
        snprintf(why, sizeof why, "%llu byte%s past its end",
                 (unsigned long long)(addr + size - s->end), plural(addr + size - s->end));
    } else {
        snprintf(why, sizeof why, "%llu byte%s before its start",
                 (unsigned long long)(s->start - addr), plural(s->start - addr));
    }
    res->bounds_pc = run.insn_addr;
    res->bounds_region = s ? (is_stack ? "stack" : s->name) : NULL;
    res->bounds_offset = s ? (int64_t)(addr - s->start) : 0;
    snprintf(res->bounds_msg, sizeof res->bounds_msg, "%s of %llu byte%s at %s (%s) by "
             "instruction at %s", kind == UC_EV_WRITE ? "write" : "read",
             (unsigned long long)size, plural(size), where, why, insn);
}

/* ---- trace --------------------------------------------------------------------------------- */

static void emit(int kind, int region, uint64_t size, int64_t offset)
{
    struct uc_result *res = run.res;
    if (res->trace_len == res->trace_cap) {
        size_t cap = res->trace_cap ? 2 * res->trace_cap : 4096;
        struct uc_event *t = realloc(res->trace, cap * sizeof *t);
        if (!t) {
            /* Out of memory: stop, and say so rather than compare a truncated trace. */
            snprintf(res->error, sizeof res->error, "out of memory for the trace");
            eng.f.vx.caller_stop = 1;
            uc_emu_stop(eng.uc);
            return;
        }
        res->trace = t;
        res->trace_cap = cap;
    }
    res->trace[res->trace_len++] = (struct uc_event){
        .kind = (uint8_t)kind, .region = (uint8_t)region, .size = (uint32_t)size,
        .insn = (int64_t)(run.insn_addr - run.fn), .offset = offset};
}

/* A read of a per_table region that leaves the sized object it starts in, or runs from outside
 * every object into one: "read of 16 bytes at st_small+1 (1 byte past its end, into st_next)
 * by instruction at f+0x4". */
static void table_violation(uint64_t addr, uint64_t size, const struct elfsym_object *o,
                            const struct elfsym_object *into)
{
    struct uc_result *res = run.res;
    if (res->bounds_violation++) return;
    char insn[96], why[160];
    elfsym_format(run.insn_addr, insn, sizeof insn);
    uint64_t past = addr + size - (o->addr + o->size);
    if (addr >= o->addr) {
        int n = snprintf(why, sizeof why, "%llu byte%s past the end of the table",
                         (unsigned long long)past, plural(past));
        if (into && n > 0 && (size_t)n < sizeof why)
            snprintf(why + n, sizeof why - (size_t)n, ", into %s", into->name);
    } else {
        snprintf(why, sizeof why, "%llu byte%s before the start of the table, outside every "
                 "sized object", (unsigned long long)(o->addr - addr), plural(o->addr - addr));
    }
    res->bounds_pc = run.insn_addr;
    res->bounds_region = o->name;
    res->bounds_offset = (int64_t)(addr - o->addr);
    snprintf(res->bounds_msg, sizeof res->bounds_msg, "read of %llu byte%s at %s%c%llu (%s) by "
             "instruction at %s", (unsigned long long)size, plural(size), o->name,
             addr >= o->addr ? '+' : '-', (unsigned long long)(addr >= o->addr ? addr - o->addr
                                                               : o->addr - addr),
             why, insn);
}

/* Bounds per table: a read of a per_table region must stay in the sized object it starts in.
 * A read that touches no sized object (a table without .size) is counted, not judged. */
static void table_check(uint64_t addr, uint64_t size)
{
    size_t lo = 0, hi = tables.n; /* first object starting above addr */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (tables.obj[mid].addr <= addr) lo = mid + 1;
        else hi = mid;
    }
    const struct elfsym_object *next = lo < tables.n ? &tables.obj[lo] : NULL;
    const struct elfsym_object *holder = NULL;
    /* the innermost object holding addr: the nearest below it, or one of the few before */
    for (size_t k = lo; k > 0 && k + 8 > lo; k--)
        if (addr < tables.obj[k - 1].addr + tables.obj[k - 1].size) {
            holder = &tables.obj[k - 1];
            break;
        }
    if (holder) {
        if (addr + size > holder->addr + holder->size)
            table_violation(addr, size, holder,
                            next && next->addr < addr + size ? next : NULL);
        return;
    }
    if (next && next->addr < addr + size) {
        table_violation(addr, size, next, NULL);
        return;
    }
    struct uc_result *res = run.res;
    if (!res->untabled_reads++) {
        char insn[96], where[96];
        elfsym_format(run.insn_addr, insn, sizeof insn);
        elfsym_format(addr, where, sizeof where); /* the label before it, if any */
        snprintf(res->untabled_msg, sizeof res->untabled_msg, "read of %llu byte%s at %s "
                 "(in no sized table of .rodata) by instruction at %s", (unsigned long long)size,
                 plural(size), where, insn);
        res->untabled_pc = run.insn_addr;
    }
}

/* Classifies one whole access of the current instruction: a trace event, and a violation when
 * it leaves every region. */
static void flush_pending(void)
{
    struct pending *p = &run.pend;
    if (!p->valid) return;
    p->valid = 0;
    size_t nregions = run.call->nregions;
    for (size_t i = 0; i < run.nspans; i++) {
        const struct span *s = &run.spans[i];
        if (p->addr < s->start || p->addr + p->size > s->end) continue;
        int is_stack = i == nregions;
        if (p->kind == UC_EV_WRITE && !s->writable)
            bounds_violation(p->kind, p->addr, p->size, "%s is read-only");
        if (s->per_table && p->kind == UC_EV_READ) table_check(p->addr, p->size);
        if (is_stack) {
            uint64_t depth = run.entry_rsp - p->addr;
            if (p->addr < run.entry_rsp && depth > run.res->stack_bytes)
                run.res->stack_bytes = depth;
        }
        emit(p->kind, is_stack ? UC_EV_STACK : (int)i, p->size,
             (int64_t)(p->addr - (is_stack ? run.entry_rsp : s->start)));
        return;
    }
    bounds_violation(p->kind, p->addr, p->size, NULL);
    emit(p->kind, UC_EV_OUTSIDE, p->size, (int64_t)p->addr);
}

/* rsp as it stands now: the executor's, or Unicorn's during its turn (vx_uc.h: ownership) */
static uint64_t current_rsp(void)
{
    uint64_t v = eng.f.vx.cpu.gpr[VX_RSP];
    if (eng.f.vx.in_unicorn) uc_reg_read(eng.uc, UC_X86_REG_RSP, &v);
    return v;
}

/* The red-zone check, at an instruction boundary: the pending accesses are the previous
 * instruction's, and rsp is as it left it, so a push or a call (which write at their new rsp)
 * pass, and a store below rsp, or below System V's 128-byte red zone, is caught whatever
 * engine ran it.  Below the stack's mapping is bounds' business (the stack span). */
static void red_zone_check(void)
{
    const struct pending *p = &run.pend;
    if (!p->valid || p->kind != UC_EV_WRITE) return;
    const struct span *st = &run.spans[run.call->nregions];
    if (p->addr < st->start || p->addr >= st->end) return;
    uint64_t rsp = current_rsp(), zone = run.call->no_red_zone ? 0 : 128;
    if (p->addr >= rsp - zone) return;
    struct uc_result *res = run.res;
    if (res->abi_violation++) return;
    char insn[96];
    elfsym_format(run.insn_addr, insn, sizeof insn);
    uint64_t below = rsp - p->addr;
    if (run.call->no_red_zone)
        snprintf(res->abi_msg, sizeof res->abi_msg, "write of %llu byte%s at rsp-%llu by "
                 "instruction at %s: below the stack pointer, and the Windows x64 convention "
                 "has no red zone (Windows may overwrite anything below rsp at any time: "
                 "exception dispatch, debuggers)", (unsigned long long)p->size, plural(p->size),
                 (unsigned long long)below, insn);
    else
        snprintf(res->abi_msg, sizeof res->abi_msg, "write of %llu byte%s at rsp-%llu by "
                 "instruction at %s: below the 128-byte red zone System V allows under rsp (a "
                 "signal handler may overwrite it)", (unsigned long long)p->size,
                 plural(p->size), (unsigned long long)below, insn);
    res->abi_kind = UC_ABI_RED_ZONE;
}

static void note_access(int kind, uint64_t addr, uint64_t size)
{
    struct echo *e = &run.echo;
    if (e->left && kind == UC_EV_READ && addr == e->addr && size == e->size) {
        e->left--;
        e->addr += size;
        return;
    }
    e->left = 0;
    struct pending *p = &run.pend;
    if (p->valid && p->kind == kind && addr == p->addr + p->size) {
        p->size += size;
    } else {
        flush_pending();
        *p = (struct pending){1, kind, addr, size};
    }
    if (kind == UC_EV_READ && size > 1 && (addr & (size - 1)))
        *e = (struct echo){2, addr & ~(size - 1), size};
}

/* ---- hooks -------------------------------------------------------------------------------- */

/* An instruction Unicorn runs (the front-end has offered it to the executor first). */
static void hook_insn(uc_engine *uc, uint64_t addr)
{
    red_zone_check();
    flush_pending();
    run.echo.left = 0;
    if (addr == SENTINEL) return;
    run.insn_addr = addr;
    if (++run.res->insn_count > INSN_LIMIT) {
        snprintf(run.res->error, sizeof run.res->error,
                 "runaway: more than %llu instructions", (unsigned long long)INSN_LIMIT);
        eng.f.vx.caller_stop = 1;
        uc_emu_stop(uc);
        return;
    }
    emit(UC_EV_INSN, 0, 0, 0);
}

/* ---- the vector executor's view of the same memory -------------------------------------- */

/* Its accesses are whole (one per contiguous run of active elements), so they skip the echo
 * filter and go straight to the merge of one instruction's accesses. */
static void note_exec_access(int kind, uint64_t addr, uint64_t size)
{
    run.echo.left = 0;
    note_access(kind, addr, size);
}

static int vx_read(void *ctx, uint64_t addr, void *dst, size_t n)
{
    (void)ctx;
    note_exec_access(UC_EV_READ, addr, n);
    if (uc_mem_read(eng.uc, addr, dst, n)) {
        flush_pending();
        run.stop_unmapped = 1;
        return -1;
    }
    return 0;
}

static int vx_write(void *ctx, uint64_t addr, const void *src, size_t n)
{
    (void)ctx;
    note_exec_access(UC_EV_WRITE, addr, n);
    /* the image is mapped read-only for Unicorn; uc_mem_write would not care */
    if (in_image(addr) || in_image(addr + n - 1) || uc_mem_write(eng.uc, addr, src, n)) {
        flush_pending();
        run.stop_unmapped = 1;
        return -1;
    }
    return 0;
}

static size_t vx_fetch(void *ctx, uint64_t addr, uint8_t *dst, size_t n)
{
    (void)ctx;
    while (n && uc_mem_read(eng.uc, addr, dst, n)) n--;
    return n;
}

static int vx_insn(void *ctx, uint64_t addr)
{
    (void)ctx;
    red_zone_check();
    flush_pending();
    run.echo.left = 0;
    run.insn_addr = addr;
    if (++run.res->insn_count > INSN_LIMIT) {
        snprintf(run.res->error, sizeof run.res->error,
                 "runaway: more than %llu instructions", (unsigned long long)INSN_LIMIT);
        return 1;
    }
    emit(UC_EV_INSN, 0, 0, 0);
    return run.res->error[0] != 0;
}

static void hook_mem(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value,
                     void *user)
{
    (void)uc;
    (void)value;
    (void)user;
    note_access(type == UC_MEM_WRITE ? UC_EV_WRITE : UC_EV_READ, addr, (uint64_t)size);
}

static bool hook_unmapped(uc_engine *uc, uc_mem_type type, uint64_t addr, int size,
                          int64_t value, void *user)
{
    (void)uc;
    (void)value;
    (void)user;
    if (type == UC_MEM_FETCH_UNMAPPED) {
        char to[96], from[96];
        snprintf(run.res->error, sizeof run.res->error, "jumped to unmapped %s from %s",
                 elfsym_format(addr, to, sizeof to), elfsym_format(run.insn_addr, from,
                 sizeof from));
        return false;
    }
    note_access(type == UC_MEM_WRITE_UNMAPPED ? UC_EV_WRITE : UC_EV_READ, addr, (uint64_t)size);
    flush_pending();
    run.stop_unmapped = 1;
    return false;
}

/* A write to the program image (its code or constants), or a jump into data.  The write hook
 * has already seen the write; it becomes a violation here, and emulation stops. */
static bool hook_prot(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value,
                      void *user)
{
    (void)uc;
    (void)value;
    (void)user;
    (void)size;
    if (type == UC_MEM_FETCH_PROT) {
        char to[96], from[96];
        snprintf(run.res->error, sizeof run.res->error, "jumped to non-executable %s from %s",
                 elfsym_format(addr, to, sizeof to), elfsym_format(run.insn_addr, from,
                 sizeof from));
        return false;
    }
    flush_pending();
    run.stop_unmapped = 1;
    return false;
}

/* ---- engine set-up, once ------------------------------------------------------------------- */

/* Copies whole pages of the program image.  They include the gaps between globals that ASan
 * poisons, so in a sanitized build this read must not be checked; volatile keeps the loop
 * from becoming a (checked) memcpy call. */
__attribute__((no_sanitize_address)) static void copy_image(uint64_t *dst, uint64_t lo,
                                                            uint64_t hi)
{
    const volatile uint64_t *src = (const volatile uint64_t *)(uintptr_t)lo;
    for (size_t i = 0; i < (hi - lo) / 8; i++) dst[i] = src[i];
}

static int setup_fail(const char *what, uc_err e)
{
    snprintf(eng.why, sizeof eng.why, "Unicorn set-up: %s: %s", what,
             e == UC_ERR_OK ? "failed" : uc_strerror(e));
    eng.ready = -1;
    return -1;
}

static int engine_setup(void)
{
    if (eng.ready) return eng.ready > 0 ? 0 : -1;
    uc_err e;
    eng.rng = 0x5eed0f0cafe5ull;
    if ((e = ucf_open(&eng.f, UCF_IMAGE_READONLY, SENTINEL))) return setup_fail("uc_open", e);
    eng.uc = eng.f.vx.uc;

    const struct ucf_image sc = eng.f.image; /* the main program's read-only segments */
    if (!sc.n) return setup_fail("no read-only segment found in the program", UC_ERR_OK);
    for (size_t i = 0; i < sc.n; i++) {
        /* Fixed areas must be clear of the program: they are at 16..48 TiB, a program sits
         * near 0x400000 (non-PIE) or 0x55xxxxxxxxxx (PIE). */
        if (sc.hi[i] > REGION_BASE && sc.lo[i] < SENTINEL + PAGE)
            return setup_fail("the program overlaps the emulator's fixed areas", UC_ERR_OK);
        if ((e = uc_mem_map(eng.uc, sc.lo[i], sc.hi[i] - sc.lo[i], sc.prot[i])))
            return setup_fail("mapping the program image", e);
        /* A copy, not uc_mem_map_ptr: the emulator can then never write to our code. */
        uint64_t *copy = malloc(sc.hi[i] - sc.lo[i]);
        if (!copy) return setup_fail("no memory for the program image", UC_ERR_NOMEM);
        copy_image(copy, sc.lo[i], sc.hi[i]);
        e = uc_mem_write(eng.uc, sc.lo[i], copy, sc.hi[i] - sc.lo[i]);
        free(copy);
        if (e) return setup_fail("copying the program image", e);
    }

    memset(poison, POISON, sizeof poison);
    if ((e = uc_mem_map(eng.uc, STACK_TOP - STACK_SIZE - PAGE, STACK_SIZE + 2 * PAGE,
                        UC_PROT_READ | UC_PROT_WRITE)) ||
        (e = uc_mem_write(eng.uc, STACK_TOP - STACK_SIZE - PAGE, poison, sizeof poison)))
        return setup_fail("mapping the stack", e);
    if ((e = ucf_map_sentinel(&eng.f))) return setup_fail("mapping the return sentinel", e);

    uc_hook h;
    const struct ucf_hooks hooks = {hook_insn, hook_unmapped, hook_prot};
    if ((e = ucf_add_hooks(&eng.f, &hooks)) ||
        (e = uc_hook_add(eng.uc, &h, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, (void *)hook_mem,
                         NULL, 1, 0)))
        return setup_fail("adding hooks", e);
    eng.f.vx.env = (struct vx_env){.read = vx_read, .write = vx_write, .fetch = vx_fetch,
                                   .insn = vx_insn};
    eng.f.vx.limit = INSN_LIMIT + 1;
    eng.ready = 1;
    return 0;
}

/* ---- one call ------------------------------------------------------------------------------ */

static int fail(struct uc_result *res, const char *fmt, const char *a, const char *b)
{
    snprintf(res->error, sizeof res->error, fmt, a, b);
    return -1;
}

/* Places the regions (run.spans) and maps them.  0, or -1 with res->error. */
static int map_regions(const struct uc_call *call, struct uc_result *res)
{
    for (size_t i = 0; i < eng.nfixed; i++) uc_mem_unmap(eng.uc, eng.fixed_page[i], PAGE);
    eng.nfixed = 0;
    for (size_t i = 0; i < call->nregions; i++) {
        const struct uc_region *r = &call->regions[i];
        struct span *s = &run.spans[i];
        uintptr_t h = (uintptr_t)r->host;
        *s = (struct span){.name = r->name ? r->name : "region", .writable = r->writable};
        if (!r->host && r->len) return fail(res, "region %s has no host buffer", s->name, "");
        for (size_t j = 0; j < i; j++) {
            uintptr_t o = (uintptr_t)call->regions[j].host;
            if (r->len && call->regions[j].len && h < o + call->regions[j].len &&
                o < h + r->len)
                return fail(res, "regions %s and %s overlap: declare one region for an in-place "
                            "call", call->regions[j].name, s->name);
        }
        if (r->len && (r->kind & UC_REGION_FIXED)) {
            /* a global the function reaches RIP-relative, outside the read-only image: its
             * pages at their own addresses, holding what the host's hold now */
            uint64_t lo = h & ~(uint64_t)(PAGE - 1), hi = (h + r->len + PAGE - 1) & ~(uint64_t)(PAGE - 1);
            if (in_image(lo) || in_image(hi - 1))
                return fail(res, "fixed region %s lies in the program's read-only image: declare "
                            "it as a plain region", s->name, "");
            for (uint64_t pg = lo; pg < hi; pg += PAGE) {
                int have = 0;
                for (size_t k = 0; k < eng.nfixed; k++) have |= eng.fixed_page[k] == pg;
                if (have) continue;
                if (eng.nfixed == sizeof eng.fixed_page / sizeof eng.fixed_page[0] ||
                    uc_mem_map(eng.uc, pg, PAGE, UC_PROT_READ | UC_PROT_WRITE))
                    return fail(res, "mapping fixed region %s at its own address%s", s->name, "");
                eng.fixed_page[eng.nfixed++] = pg;
                uc_mem_write(eng.uc, pg, (const void *)(uintptr_t)pg, PAGE);
            }
            s->start = h;
            s->end = h + r->len;
            s->map_lo = lo;
            s->map_hi = hi;
            res->region_addr[i] = h;
            continue;
        }
        if (r->len && in_image(h)) {
            if (r->writable) return fail(res, "region %s lies in the program image and is "
                                         "writable", s->name, "");
            s->start = h;
            s->end = h + r->len;
            s->in_image = 1;
            s->per_table = call->per_table && !(r->kind & UC_REGION_WHOLE);
            if (s->per_table) {
                if (tables.lo != s->start || tables.hi != s->end) {
                    tables.n = elfsym_objects_in(s->start, s->end, &tables.obj, &tables.unsized);
                    tables.lo = s->start;
                    tables.hi = s->end;
                }
                res->unsized_objects = tables.unsized;
            }
            res->region_addr[i] = h;
            continue;
        }
        uint64_t pages = r->len ? (r->len + PAGE - 1) / PAGE : 1;
        if ((pages + 3) * PAGE > SLOT_STRIDE / 2)
            return fail(res, "region %s is larger than a slot (2 GiB)%s", s->name, "");
        uint64_t top = REGION_BASE + (i + 1) * SLOT_STRIDE - PAGE; /* unmapped page above */
        if (eng.slot_pages[i] < pages) {
            uint64_t want = 4; /* a power of two: few regrowths */
            while (want < pages) want *= 2;
            if (eng.slot_pages[i])
                uc_mem_unmap(eng.uc, top - (eng.slot_pages[i] + 2) * PAGE,
                             (eng.slot_pages[i] + 2) * PAGE);
            eng.slot_pages[i] = 0;
            uc_err e = uc_mem_map(eng.uc, top - (want + 2) * PAGE, (want + 2) * PAGE,
                                  UC_PROT_READ | UC_PROT_WRITE);
            if (e) return fail(res, "mapping region %s: %s", s->name, uc_strerror(e));
            eng.slot_pages[i] = want;
        }
        s->map_lo = top - (eng.slot_pages[i] + 2) * PAGE;
        s->map_hi = top;
        s->end = top - PAGE; /* flush against the red page */
        s->start = s->end - r->len;
        /* Poison a page on each side, so every call sees the same bytes around its region
         * (further out, stale bytes of longer earlier regions may remain: any access there
         * is a violation anyway). */
        uint64_t lo = s->start - PAGE;
        uc_mem_write(eng.uc, lo, poison, PAGE);
        uc_mem_write(eng.uc, s->end, poison, PAGE);
        uc_err e;
        if (r->len && (e = uc_mem_write(eng.uc, s->start, r->host, r->len)))
            return fail(res, "copying region %s: %s", s->name, uc_strerror(e));
        res->region_addr[i] = s->start;
    }
    struct span *st = &run.spans[call->nregions];
    *st = (struct span){.name = "stack", .start = STACK_TOP - STACK_SIZE, .end = STACK_TOP,
                        .map_lo = STACK_TOP - STACK_SIZE - PAGE, .map_hi = STACK_TOP + PAGE,
                        .writable = 1};
    run.nspans = call->nregions + 1;
    return 0;
}

/* A pointer argument becomes the emulator address of the same byte. */
static uint64_t translate(const struct uc_call *call, uint64_t arg)
{
    size_t hit = call->nregions;
    for (size_t i = 0; i < call->nregions; i++) {
        uintptr_t h = (uintptr_t)call->regions[i].host;
        if (!h || arg < h || arg > h + call->regions[i].len) continue;
        /* A pointer one past the end of one region may be the start of the next. */
        if (hit == call->nregions || arg < h + call->regions[i].len) hit = i;
    }
    if (hit == call->nregions) return arg;
    return run.spans[hit].start + (arg - (uintptr_t)call->regions[hit].host);
}

_Static_assert(UC_MAX_ARGS >= UCF_REG_ARGS, "the register arguments, then the stack ones");

static uint64_t hash_trace(const struct uc_result *res)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < res->trace_len; i++) {
        const struct uc_event *ev = &res->trace[i];
        uint64_t w[3] = {
            (uint64_t)ev->kind | (uint64_t)ev->region << 8 | (uint64_t)ev->size << 32,
            (uint64_t)ev->insn, (uint64_t)ev->offset};
        for (int k = 0; k < 3; k++) {
            h ^= w[k];
            h *= 0x100000001b3ull;
            h ^= h >> 29;
        }
    }
    return h;
}

int ucheck_run(const struct uc_call *call, struct uc_result *res)
{
    uint64_t t0 = now_ns();
    struct uc_event *keep = res->trace;
    size_t keep_cap = res->trace_cap;
    memset(res, 0, sizeof *res);
    res->trace = keep;
    res->trace_cap = keep_cap;

    if (engine_setup()) return fail(res, "%s%s", eng.why, "");
    if (call->nargs > UC_MAX_ARGS || call->nregions > UC_MAX_REGIONS)
        return fail(res, "too many %s%s", call->nargs > UC_MAX_ARGS ? "arguments" : "regions", "");

    memset(&run, 0, sizeof run);
    run.call = call;
    run.res = res;
    run.fn = (uint64_t)(uintptr_t)call->fn;
    run.entry_rsp = STACK_TOP - 8 - 8 * (UC_MAX_ARGS - UCF_REG_ARGS);
    run.insn_addr = run.fn;

    if (map_regions(call, res)) return -1;

    /* Registers: arguments, random callee-saved values (the ABI check), random junk elsewhere
     * (a kernel that reads a register it never set then misbehaves visibly). */
    uint64_t args[UCF_REG_ARGS], saved[UCF_NSAVED], scratch[UCF_SCRATCH], v;
    uint64_t rng_kept = eng.rng;
    if (call->junk_seed) eng.rng = call->junk_seed;
    for (size_t i = 0; i < UCF_REG_ARGS; i++)
        args[i] = i < call->nargs ? translate(call, call->args[i]) : splitmix(&eng.rng);
    for (size_t i = 0; i < UCF_NSAVED; i++) saved[i] = splitmix(&eng.rng);
    for (size_t i = 0; i < UCF_SCRATCH; i++) scratch[i] = splitmix(&eng.rng);
    for (int i = 0; i < 16; i++) {
        uint64_t x[2] = {splitmix(&eng.rng), splitmix(&eng.rng)};
        uc_reg_write(eng.uc, UC_X86_REG_XMM0 + i, x);
    }
    /* The control bits of MXCSR and the x87 control word are callee-saved too: start from the
     * ABI's initial values, so a changed rounding mode or exception mask shows. */
    const uint64_t mxcsr = 0x1f80, fpcw = 0x37f;
    ucf_load_entry(&eng.f, run.fn, args, saved, scratch, run.entry_rsp, mxcsr, fpcw);
    /* Re-poison the part of the stack the previous call dirtied: every call starts alike. */
    if (eng.stack_dirty) {
        uc_mem_write(eng.uc, STACK_TOP - eng.stack_dirty, poison, eng.stack_dirty);
    }
    uint64_t ret = SENTINEL;
    uc_mem_write(eng.uc, run.entry_rsp, &ret, 8);
    /* arguments 7 and 8 above the return address, as a System V caller leaves them */
    for (size_t i = UCF_REG_ARGS; i < UC_MAX_ARGS; i++) {
        uint64_t a = i < call->nargs ? translate(call, call->args[i]) : splitmix(&eng.rng);
        uc_mem_write(eng.uc, run.entry_rsp + 8 * (i - UCF_REG_ARGS + 1), &a, 8);
    }

    /* The vector registers: the xmm junk above, plus zmm upper lanes, zmm16-31 and k0-7
     * (random junk, or the marker of the leftover check). */
    struct vxu *vx = &eng.f.vx;
    {
        for (int i = 0; i < 32; i++)
            for (int j = 0; j < 8; j++)
                vx->cpu.z[i].q[j] = call->check_vectors ? UC_VEC_MARKER : splitmix(&eng.rng);
        for (int i = 0; i < 16 && !call->check_vectors; i++)
            uc_reg_read(eng.uc, UC_X86_REG_XMM0 + i, vx->cpu.z[i].b);
        for (int i = 0; i < 8; i++)
            vx->cpu.k[i] = call->check_vectors ? UC_VEC_MARKER : splitmix(&eng.rng);
    }
    if (call->junk_seed) eng.rng = rng_kept; /* the other calls' junk stays their own */
    char vmsg[256]; /* the decode cache is kept: the program's code cannot change */
    enum vxu_status vs = vxu_run(vx, SENTINEL, vmsg, sizeof vmsg);
    uc_err e = vs == VXU_UC_ERROR ? vx->uc_error : UC_ERR_OK;
    res->vexec_insns = vx->vexec_insns;
    res->unicorn_turns = vx->unicorn_turns;
    red_zone_check();
    flush_pending();
    uint64_t rip = vx->cpu.rip;
    if (vs == VXU_ERROR && !res->error[0]) snprintf(res->error, sizeof res->error, "%s", vmsg);
    res->completed = vs == VXU_DONE && e == UC_ERR_OK && rip == SENTINEL && !res->error[0];
    if (!res->completed) res->error_pc = rip != SENTINEL ? rip : 0;
    if (!res->completed && !res->error[0]) {
        char where[96];
        elfsym_format(rip, where, sizeof where);
        if (e == UC_ERR_INSN_INVALID)
            snprintf(res->error, sizeof res->error, "invalid instruction at %s", where);
        else if (run.stop_unmapped)
            snprintf(res->error, sizeof res->error, "stopped at %s: %s, the access outside "
                     "every region that bounds reports", where, uc_strerror(e));
        else
            snprintf(res->error, sizeof res->error, "stopped at %s: %s", where,
                     e ? uc_strerror(e) : "did not return to its caller");
    }

    res->rax = vx->cpu.gpr[VX_RAX]; /* Unicorn holds the same (vx_uc.h) */
    if (res->completed && call->check_vectors) {
        static const char *const lane_name[4] = {"xmm", "ymm upper", "zmm lane 2", "zmm lane 3"};
        for (int i = 0; i < 32 && !res->abi_violation; i++)
            for (int l = 0; l < 4; l++) {
                const uint64_t *q = &vx->cpu.z[i].q[2 * l];
                if ((q[0] == UC_VEC_MARKER && q[1] == UC_VEC_MARKER) || (!q[0] && !q[1]))
                    continue;
                res->abi_violation++;
                res->abi_kind = UC_ABI_RESIDUE;
                snprintf(res->abi_msg, sizeof res->abi_msg, "zmm%d not cleared: its %s "
                         "(bytes %d-%d) holds data 0x%016llx%016llx", i, lane_name[l],
                         16 * l, 16 * l + 15, (unsigned long long)q[1],
                         (unsigned long long)q[0]);
                break;
            }
        for (int i = 0; i < 8 && !res->abi_violation; i++)
            if (vx->cpu.k[i] != UC_VEC_MARKER && vx->cpu.k[i]) {
                res->abi_violation++;
                res->abi_kind = UC_ABI_RESIDUE;
                snprintf(res->abi_msg, sizeof res->abi_msg, "k%d not cleared: holds data "
                         "0x%llx", i, (unsigned long long)vx->cpu.k[i]);
            }
    }
    if (res->completed) {
        uint64_t after[UCF_NSAVED];
        ucf_read_saved(&eng.f, after);
        for (size_t i = 0; i < UCF_NSAVED; i++)
            if (after[i] != saved[i] && !res->abi_violation++)
                snprintf(res->abi_msg, sizeof res->abi_msg, "callee-saved register %s modified "
                         "(before 0x%llx, after 0x%llx)", ucf_saved_names[i],
                         (unsigned long long)saved[i], (unsigned long long)after[i]);
        v = vx->cpu.gpr[VX_RSP];
        if (v != run.entry_rsp + 8 && !res->abi_violation++)
            snprintf(res->abi_msg, sizeof res->abi_msg, "rsp not restored (returned with rsp "
                     "%+lld from the caller's)", (long long)(v - (run.entry_rsp + 8)));
        if ((vx->cpu.rflags & 0x400) && !res->abi_violation++)
            snprintf(res->abi_msg, sizeof res->abi_msg, "direction flag set on return");
        uint32_t mx;
        uint16_t cw;
        ucf_read_fp(&eng.f, &mx, &cw);
        if ((mx & 0xffc0) != (mxcsr & 0xffc0) && !res->abi_violation++) /* bits 0-5: flags */
            snprintf(res->abi_msg, sizeof res->abi_msg, "MXCSR control bits modified (before "
                     "0x%llx, after 0x%llx)", (unsigned long long)mxcsr, (unsigned long long)mx);
        if (cw != fpcw && !res->abi_violation++)
            snprintf(res->abi_msg, sizeof res->abi_msg, "x87 control word modified (before "
                     "0x%llx, after 0x%llx)", (unsigned long long)fpcw, (unsigned long long)cw);
    }

    for (size_t i = 0; i < call->nregions; i++) {
        const struct uc_region *r = &call->regions[i];
        if (r->writable && r->len && !run.spans[i].in_image)
            uc_mem_read(eng.uc, run.spans[i].start, (void *)(uintptr_t)r->host, r->len);
    }
    /* The return address slot and the deepest byte touched, for the next call's re-poison. */
    eng.stack_dirty = res->stack_bytes + 8 > STACK_SIZE ? STACK_SIZE : res->stack_bytes + 8;
    if (res->bounds_violation && eng.stack_dirty < STACK_SIZE) eng.stack_dirty = STACK_SIZE;

    res->trace_hash = hash_trace(res);
    res->nanoseconds = now_ns() - t0;
    return res->completed ? 0 : -1;
}

void ucheck_result_free(struct uc_result *res)
{
    free(res->trace);
    res->trace = NULL;
    res->trace_cap = res->trace_len = 0;
}

int ucheck_symbol_region(const char *symbol, struct uc_region *r)
{
    uint64_t addr, size;
    if (elfsym_lookup(symbol, &addr, &size)) return -1;
    *r = (struct uc_region){.name = symbol, .host = (const void *)(uintptr_t)addr, .len = size};
    return 0;
}

/* ---- trace comparison ---------------------------------------------------------------------- */

static void describe_event(const struct uc_call *call, const struct uc_event *ev, char *buf,
                           size_t len, int with_insn)
{
    char insn[96] = "";
    if (with_insn || ev->kind == UC_EV_INSN)
        elfsym_format((uint64_t)(uintptr_t)call->fn + (uint64_t)ev->insn, insn, sizeof insn);
    if (ev->kind == UC_EV_INSN) {
        snprintf(buf, len, "instruction %s", insn);
        return;
    }
    char where[96];
    const char *name = ev->region == UC_EV_STACK ? "rsp"
                     : ev->region == UC_EV_OUTSIDE ? NULL
                     : ev->region < call->nregions && call->regions[ev->region].name
                     ? call->regions[ev->region].name : "region";
    if (!name)
        snprintf(where, sizeof where, "0x%llx (outside every region)",
                 (unsigned long long)ev->offset);
    else
        snprintf(where, sizeof where, "%s%+lld", name, (long long)ev->offset);
    snprintf(buf, len, "%s%s%s %s (%u byte%s)", with_insn ? "instruction " : "", insn,
             with_insn ? (ev->kind == UC_EV_WRITE ? " wrote" : " read")
                       : (ev->kind == UC_EV_WRITE ? "write of" : "read of"),
             where, ev->size, plural(ev->size));
}

uint64_t ucheck_event_pc(const struct uc_call *call, const struct uc_result *r, long i)
{
    if (i < 0 || (size_t)i >= r->trace_len) return 0;
    return (uint64_t)(uintptr_t)call->fn + (uint64_t)r->trace[i].insn;
}

long ucheck_trace_diff(const struct uc_call *call, const struct uc_result *a,
                       const struct uc_result *b, char *msg, size_t len)
{
    size_t n = a->trace_len < b->trace_len ? a->trace_len : b->trace_len;
    size_t i = 0;
    while (i < n && memcmp(&a->trace[i], &b->trace[i], sizeof a->trace[i]) == 0) i++;
    if (i == n && a->trace_len == b->trace_len) {
        if (len) msg[0] = 0;
        return -1;
    }
    char x[200], y[200];
    if (i == n) {
        const struct uc_result *longer = a->trace_len > b->trace_len ? a : b;
        describe_event(call, &longer->trace[i], x, sizeof x, 1);
        snprintf(msg, len, "first divergence at event %zu: run %c ended, run %c went on with "
                 "%s", i, longer == a ? 'B' : 'A', longer == a ? 'A' : 'B', x);
        return (long)i;
    }
    const struct uc_event *ea = &a->trace[i], *eb = &b->trace[i];
    if (ea->kind == UC_EV_INSN && eb->kind == UC_EV_INSN) {
        /* The previous instruction chose differently: a secret-dependent branch. */
        char prev[96] = "the entry";
        for (size_t j = i; j-- > 0;)
            if (a->trace[j].kind == UC_EV_INSN) {
                elfsym_format((uint64_t)(uintptr_t)call->fn + (uint64_t)a->trace[j].insn, prev,
                              sizeof prev);
                break;
            }
        describe_event(call, ea, x, sizeof x, 0);
        describe_event(call, eb, y, sizeof y, 0);
        snprintf(msg, len, "first divergence at event %zu: %s vs %s (control flow after %s "
                 "differs)", i, x, y + strlen("instruction "), prev);
    } else if (ea->kind != UC_EV_INSN && eb->kind != UC_EV_INSN && ea->insn == eb->insn) {
        describe_event(call, ea, x, sizeof x, 1);
        describe_event(call, eb, y, sizeof y, 0);
        /* y is "read of key+40 (8 bytes)": keep only the location. */
        const char *loc = strchr(y, ' ');
        loc = loc ? strchr(loc + 1, ' ') : NULL;
        snprintf(msg, len, "first divergence at event %zu: %s vs %s", i, x, loc ? loc + 1 : y);
    } else {
        describe_event(call, ea, x, sizeof x, 1);
        describe_event(call, eb, y, sizeof y, 1);
        snprintf(msg, len, "first divergence at event %zu: %s vs %s", i, x, y);
    }
    return (long)i;
}
