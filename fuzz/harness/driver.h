/* driver.h — the family driver: a family states its contract, the driver does everything else.
 *
 * A family (fuzz/<family>.c) supplies only what is its own:
 *   - its implementations: one table of struct impl, the C reference first (IMPL_REFERENCE), then
 *     our kernels (IMPL_KERNEL) and the libraries (IMPL_LIBRARY: oracles, and targets when the
 *     bug may be theirs), each with the CPU features it needs and a pointer to its functions;
 *   - its buffers: names, element size (the placement granule) and whether they hold secrets;
 *   - decode: one fuzz input into the family's case (the only family code that reads input);
 *   - expect: the reference's answer for a case, computed once per case;
 *   - run: one implementation on one case, through drv_in/drv_out/DRV_CALL/drv_expect_equal;
 *   - params: the case's parameters for a report;
 *   - kat and exhaustive (each calls drv_check for every case it builds), bench operations.
 *
 * The driver owns the fuzz entry point, buffer placement, the loop over implementations, the
 * after-call checks, the one compare-and-report step and the counts of what ran (driver.c);
 * how a call runs and how a case is judged in each mode is a backend's (backend.h: the checked
 * call, the emulated call, Valgrind's ct, the Unicorn modes, emu-diff); the outside kernel of a
 * check build is outside.c's; the modes' command line is tool_main.c's table of modes.
 *
 * Placement: every implementation runs each case once with all its buffers flush against the
 * unmapped page after them, once flush against the page before them, and, when the input asks
 * for it, once more at the input's misalignment (canaries then guard both sides).
 */
#ifndef ASMDIFF_DRIVER_H
#define ASMDIFF_DRIVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "abi.h"
#include "input.h"
#include "report.h"

enum impl_flags {
    IMPL_REFERENCE = 1u << 0, /* the authoritative C reference: listed and benched, not compared */
    IMPL_KERNEL = 1u << 1,    /* ours: what the family exists to test */
    IMPL_LIBRARY = 1u << 2,   /* a library's implementation: oracle and target */
    IMPL_CLEAN = 1u << 3,     /* promises no data left in vector/opmask registers or on the stack
                               * below its caller's frame: checked on every call */
    IMPL_OUTSIDE = 1u << 4,   /* a kernel from an author's tree (./asmdiff check), built into a
                               * check build; made by the driver from the family's convention */
};

struct impl {
    const char *name;  /* one name everywhere: "x86_64-avx512-gfni-ternlog", "openssl" */
    uint64_t needs;    /* CPU features (cpu.h); 0 for portable code */
    unsigned flags;    /* enum impl_flags */
    const void *ops;   /* the family's functions for this implementation */
    /* Optional: why it cannot run although the CPU could (a library without the algorithm);
     * NULL when it can. */
    const char *(*unavailable)(void);
    /* Optional: what exactly it is ("libgcrypt 1.10.1, hwf: intel-avx2 ..."), for list. */
    const char *(*describe)(void);
    /* Optional: the name, when it depends on run-time state ("libgcrypt-no-intel-avx2"). */
    const char *(*label)(void);
    /* Optional, for a library: its version ("libgcrypt 1.10.1"), and the hardware features
     * its own dispatch uses here, space-separated ("intel-avx2 intel-aesni"): each is a level
     * a run can turn off (the result stream's `version` and `hwf`). */
    const char *(*version)(void);
    const char *(*hwf)(void);
};

/* One row of the table: IMPL("x86_64-avx2", CPU_AVX2, IMPL_KERNEL | IMPL_CLEAN, &ops) with the
 * optional fields after it (.describe = ..., .unavailable = ..., .label = ...). */
#define IMPL(name_, needs_, flags_, ops_, ...)                                               \
    {.name = (name_), .needs = (needs_), .flags = (flags_), .ops = (const void *)(ops_),      \
     __VA_ARGS__}

enum buf_flags {
    BUF_SECRET = 1u << 0, /* key or data: undefined under Valgrind's constant-time check */
};

struct buf_spec {
    const char *name;
    size_t granule; /* element size: offsets are multiples of it (1: any byte) */
    unsigned flags;
};

struct bench_op {
    const char *name; /* "ECB enc", "add_n-short" */
    size_t unit;      /* bytes per element: sizes are multiples of it */
    size_t max_bytes; /* the slope's largest size */
};

struct family {
    const char *name;
    const char *spec;  /* "RFC 5794": where the reference comes from */
    const struct impl *impls;
    size_t nimpls;
    const struct buf_spec *bufs;
    size_t nbufs;

    void *(*decode)(struct input *in);         /* returns the family's (static) case */
    const void *(*expect)(const void *c);       /* returns the family's (static) expected */
    void (*run)(const struct impl *im, const void *c, const void *want);
    void (*params)(const void *c);              /* report_param lines */
    /* Secrets replaced by others of the same shape (constant-time checks); may be NULL. */
    void (*vary_secrets)(void *c, uint64_t seed);

    /* Published vectors, each through drv_check; returns how many were read (-1: the file
     * could not be opened).  May be NULL. */
    int (*kat)(const char *srcdir);
    /* Small domains completely, through drv_check; returns failures of checks of its own
     * (0 when every check went through drv_check).  May be NULL. */
    int (*exhaustive)(void);
    const struct bench_op *bench_ops;
    size_t nbench_ops;
    /* Prepare what bench_run needs for op (keys, buffers); called once per op. */
    void (*bench_setup)(size_t op);
    /* One operation of bytes bytes on buf (in place); 0, or -1 when the implementation has no
     * such operation (the row is left out). */
    int (*bench_run)(const struct impl *im, size_t op, uint8_t *buf, size_t bytes);
    void (*list_extra)(FILE *out); /* family-specific list lines (vector length); may be NULL */
    /* The upstream calling conventions an outside kernel may follow (./asmdiff check) are not
     * the family's: each is registered on its own (struct convention below). */
};

/* ---- outside kernels (./asmdiff check) ----
 *
 * A kernel from an author's own tree (Linux, libgcrypt) is one more implementation of the
 * family's contract.  A check build (meson option outside_source) compiles that file and
 * verify/outside/outside_slot.c, which defines asmdiff_outside; the driver then adds one
 * implementation made from it and the family's convention of that name, and leaves out the
 * family's own kernels (the default build tests those).  In every other build asmdiff_outside
 * is an undefined weak symbol: its address is NULL and nothing changes. */
enum convention_clean {
    CONV_CLEAN_VECTORS = 1u << 0, /* data left in vector/opmask registers is a finding */
    CONV_CLEAN_STACK = 1u << 1,   /* data left on the stack below the caller's frame is one */
};

/* Why Linux's convention allows leftovers in vector registers and on the stack (every family's
 * "linux" row). */
#define CONV_LINUX_LEFTOVERS                                                                  \
    "kernel-mode SIMD runs between kernel_fpu_begin() and kernel_fpu_end(), user space gets " \
    "its own vector state back, and the stack is the kernel's own"

/* An upstream home's calling convention (docs/adding-a-family.md, "Adding a convention"): how
 * a kernel of that home takes its arguments and context, as a small interface.  Each one is a
 * file of its own, fuzz/conventions/<name>_<family>.c (or, for a few, rows of the family file),
 * registered by its name in the family's 'conventions' list in fuzz/meson.build, which
 * generates the program's table (asmdiff_conventions[] below); the driver knows none by name.
 * Every function gets the convention itself, so one piece of code serves many rows (a block
 * cipher's entry-point tables: fuzz/harness/bc_upstream.h). */
struct convention {
    const char *name;      /* "linux", "libgcrypt", "asmdiff" */
    const char *prototype; /* the upstream signature, as its authors write it */
    unsigned clean;        /* enum convention_clean: which leftovers are findings */
    const char *leftovers; /* why the others are allowed ("FPU state is restored ...") */
    const char *const *ops; /* the operations a symbol of this convention may be (or op_name) */
    size_t nops;
    /* The name of operation op, where ops is NULL (a table convention's row names it). */
    const char *(*op_name)(const struct convention *cv, size_t op);
    /* The family's ops (what struct impl.ops points to) for fn as operation op. */
    const void *(*make_ops)(const struct convention *cv, const void *fn, size_t op);
    /* Which operation fn (its symbol: names help choose a probe) computes on a known answer:
     * its index, or -1.  NULL when nops == 1. */
    int (*identify)(const struct convention *cv, const void *fn, const char *symbol);
    /* Whether a case meets the precondition of the kernel whose ops (make_ops's) these are
     * (message_len % 16 == 0); NULL: all. */
    int (*accepts)(const struct convention *cv, const void *ops, const void *c);
    /* Whether operations a and b are one computation called two ways (an argument passed as
     * the prototype says, or as the glue's compiled caller leaves it), so --op may name either
     * for a symbol identify() gives the other; NULL: never. */
    int (*same_operation)(const struct convention *cv, size_t a, size_t b);
    const void *rows; /* the convention's own data (an entry-point table), for its functions */
    /* The CPU features every entry point of this convention needs, as cpu.h spells them
     * ("pclmul,avx": what its glue checks before it registers them), taken when the command
     * names none (--needs); NULL or "": none said. */
    const char *needs;
    /* Why a symbol of this home is not one of the family's operations at all (a function that
     * computes two families' operations in one call), or NULL; the check refuses it before
     * anything runs.  NULL: none refused. */
    const char *(*refuse)(const struct convention *cv, const char *symbol);
};

/* The name of a convention's operation op. */
const char *conv_op_name(const struct convention *cv, size_t op);

/* The program's conventions, NULL-terminated: generated by fuzz/meson.build from the family's
 * 'conventions' list (each <name> is the object `const struct convention
 * convention_<name>_<family>`); weak, as a program without a family (a self-test) has none.
 * drv_convention_at(i): the i-th, or NULL past the last. */
extern const struct convention *const asmdiff_conventions[] __attribute__((weak));
const struct convention *drv_convention_at(size_t i);

/* A global function of an outside kernel's file, by its name there (rename_syms.py --entries). */
struct outside_entry {
    const char *name;
    const void *fn;
};

struct outside_kernel {
    const char *symbol;     /* "nh_sse2" */
    const char *source;     /* the file as given */
    const char *convention; /* a name in the family's conventions */
    const char *needs;      /* CPU features, comma-separated names as cpu.h spells them; "" none */
    const char *op;         /* the operation, or "" to find it out */
    const void *fn;         /* the symbol as defined in the file given (renamed there) */
    const char *name;       /* its name in rows and findings ("" or NULL: the symbol) */
    const struct outside_entry *entries; /* the file's global functions ({NULL, NULL} ends) */
};
extern const struct outside_kernel asmdiff_outside __attribute__((weak));
/* A check build of several outside kernels (./asmdiff check with more than one --symbol, or
 * --baseline): the second to the tenth, each defined by a slot of its own.  Ten (the check
 * build's options index them with one digit), so that one bench process can hold every
 * upstream kernel a family's comparison needs (AES: Linux's XTS at four widths and its CTR,
 * libgcrypt's VAES XTS and CTR at two: docs/aes.md). */
#define OUTSIDE_MAX 10
extern const struct outside_kernel asmdiff_outside1 __attribute__((weak));
extern const struct outside_kernel asmdiff_outside2 __attribute__((weak));
extern const struct outside_kernel asmdiff_outside3 __attribute__((weak));
extern const struct outside_kernel asmdiff_outside4 __attribute__((weak));
extern const struct outside_kernel asmdiff_outside5 __attribute__((weak));
extern const struct outside_kernel asmdiff_outside6 __attribute__((weak));
extern const struct outside_kernel asmdiff_outside7 __attribute__((weak));
extern const struct outside_kernel asmdiff_outside8 __attribute__((weak));
extern const struct outside_kernel asmdiff_outside9 __attribute__((weak));


/* A call for a convention's identify(): through the checked call's trampoline, so a broken
 * kernel cannot corrupt the caller's registers, but reporting nothing (the checks that follow
 * find what is wrong). */
uint64_t drv_probe_call(const void *fn, const uint64_t *argv, size_t argc);
#define DRV_PROBE(fn, ...)                                                                   \
    drv_probe_call((const void *)(fn), (const uint64_t[]){ABI_MAP_(__VA_ARGS__)},             \
                   ABI_NARGS_(__VA_ARGS__))

/* Another global function of the file that defines the outside kernel fn (an entry point
 * make_ops was given), by its name in that file: the one this file defines, whatever the check
 * build renamed; NULL when it defines none.  For a convention whose upstream API is several
 * functions of one file (Linux's Poly1305: init, blocks, emit). */
const void *drv_outside_entry(const void *fn, const char *name);

/* Every implementation the driver runs: the family's table, then the outside kernels (if any). */
size_t drv_nimpls(void);
const struct impl *drv_impl_at(size_t i);
/* Leftovers the outside kernel's convention allows, seen on some call ("" when none), and the
 * check that would have reported them (residue or stack) in *check when check is not NULL. */
const char *drv_outside_info(enum finding *check);

extern const struct family asmdiff_family;

/* ---- inside run() ---- */

/* Place buffer `idx` (an index into family.bufs) for this pass and copy src into it; the buffer
 * must hold the same bytes after every call (an input the call does not write). */
void *drv_in(size_t idx, const void *src, size_t len);
/* Place buffer idx and copy src into it; the call may write it (in place, counters). */
void *drv_inout(size_t idx, const void *src, size_t len);
/* Place buffer idx, filled with a poison byte; the call writes it. */
void *drv_out(size_t idx, size_t len);
/* Piece k of buffer idx in a guarded mapping of its own, placed as buffer idx is in this pass
 * (its side, its offset): an API fed in update calls gets each piece of a stream apart, so a
 * read or write past a piece's end faults or hits a canary instead of landing in the next
 * piece.  Placing the same (idx, k) again in the pass reuses its mapping; at most
 * DRV_MAX_PIECES (drv_core.h) pieces a pass.  Reports name it "<buffer> piece <k>".  See
 * splits.h for the cuts and the pieces an API accepts. */
void *drv_in_piece(size_t idx, size_t k, const void *src, size_t len);
void *drv_out_piece(size_t idx, size_t k, size_t len);

/* The operation being checked, for reports ("ecb-encrypt"); reset for each implementation. */
void drv_op(const char *name);
/* The calls of the current operation make no constant-time claim (a key schedule that indexes
 * a table by key bytes, documented so in its kernel): the constant-time modes (ct-trace, and ct
 * under Valgrind) do not judge them, and their summaries say so, naming the operation and why.
 * Every other check still applies.  Lasts until the next drv_op. */
void drv_no_ct_claim(const char *why);
/* What the constant-time modes left unjudged, "" when nothing ("setkey: why; ..."). */
const char *drv_ct_unjudged(void);

/* The checked call of the current implementation: callee-saved registers, flags, MXCSR, the x87
 * state, and for IMPL_CLEAN implementations the vector and opmask registers and the stack; then
 * the canaries around every placed buffer and the inputs that must not change. */
uint64_t drv_call(const void *fn, const uint64_t *argv, size_t argc);
#define DRV_CALL(fn, ...)                                                                    \
    drv_call((const void *)(fn), (const uint64_t[]){ABI_MAP_(__VA_ARGS__)},                   \
             ABI_NARGS_(__VA_ARGS__))

#if defined(__x86_64__)
/* The same for a function of the Windows x64 calling convention (a Win64 convention's calls:
 * perlasm's mingw64 output): through the Win64 checked call's bridge (abi.h), so every mode runs
 * it; then rdi, rsi and xmm6-15 (with the System V list) must have come back as loaded, else
 * an ABI finding.  At most ABI_WIN64_MAX_ARGS arguments. */
uint64_t drv_call_win64(const void *fn, const uint64_t *argv, size_t argc);
#define DRV_CALL_WIN64(fn, ...)                                                              \
    drv_call_win64((const void *)(fn), (const uint64_t[]){ABI_MAP_(__VA_ARGS__)},             \
                   ABI_NARGS_(__VA_ARGS__))
/* The Win64 call in progress, or NULL (the Unicorn modes map it: backend_unicorn.c). */
extern const struct abi_win64_call *drv_win64_now;
#endif

/* A global of the program an outside kernel reads (or writes) RIP-relative, outside the
 * read-only image: OpenSSL's OPENSSL_ia32cap_P.  The Unicorn modes map it at its own address as
 * a region of its own (named so in a bounds report); every other access beside it stays out
 * of bounds.  A convention declares it once (make_ops); at most 4. */
void drv_global_region(const char *name, const void *p, size_t len, int writable);

/* The one compare-and-report step: what (named) must equal the reference's. */
void drv_expect_equal(const char *what, const void *want, const void *got, size_t n);
/* A property that has no expected bytes (a refusal, a round trip): report when !ok. */
void drv_expect_true(int ok, const char *what);
/* A word-sized result (carry, return code). */
void drv_expect_word(const char *what, uint64_t want, uint64_t got);

/* A count of the family's own per case (the gcm family's split points per call sequence),
 * tallied over the run: every mode's summary, and a fuzzer at its exit, print its mean, its
 * maximum and how many cases had each value, and write it as a `tally` record
 * (docs/results.md).  name is a string literal; at most 4 names a program. */
void drv_tally(const char *name, unsigned long long value);

/* ---- kat and exhaustive ---- */

/* Check one case on every implementation this host runs (the fuzz path exactly). */
void drv_check(const void *c);
/* The reference itself against a published answer: counts a vector failure when it differs. */
int drv_reference_agrees(const char *where, const char *what, const void *want, const void *got,
                         size_t n);

/* Vector-file errors (missing or malformed attributes: vec_close's count) count as failures. */
void drv_vector_errors(int n);

/* An implementation's display name. */
const char *impl_name(const struct impl *im);
/* 1 when the implementation runs in the emulator here (the CPU lacks, or the mask hides, its
 * ISA; the executor (emu/) is linked in; ASMDIFF_EMULATE is not 0). */
int impl_emulated(const struct impl *im);
/* NULL when the implementation runs here (natively or emulated), else why not. */
const char *impl_unavailable(const struct impl *im);
/* 1 when ASMDIFF_SET_ASIDE names the implementation (it is not run in this process). */
int drv_set_aside(const struct impl *im);
/* Set by the bench command: a check build benches our kernels beside the outside ones (every
 * other mode of a check build runs the outside kernels alone). */
extern int drv_benching;

/* The mode: how every call runs and how a case is judged (backend.h: backend_native, the
 * default; backend_valgrind, ct; backend_bounds; backend_trace; backend_emu_diff).  Returns 0,
 * or -1 with *why when this build or host cannot run it. */
struct backend;
int drv_use_backend(const struct backend *b, const char **why);
/* The current backend's name ("native", "ct", ...). */
const char *drv_mode(void);
/* emu-diff: kernel calls compared with the CPU. */
unsigned long long drv_emu_compared(void);

/* The fuzz entry point: decode, expect, every implementation in every placement. */
int drv_one_input(const uint8_t *data, size_t size);

#endif
