/* ucheck.h — run one x86-64 kernel call inside Unicorn Engine and check what it did.
 *
 * What a native run with guard pages cannot give, an emulated run can, because every
 * instruction and every memory access passes through a hook:
 *   - bounds, byte-exact: each buffer the caller declares (a region) is the only memory the
 *     function may touch, besides its stack; any access outside is reported with the region, the
 *     offset and the instruction ("read of 16 bytes at message+1016 (8 bytes past its end) by
 *     instruction at nh_sse2_permload+0x7c").  Guard pages see only accesses that leave the page.
 *   - constant time: the trace of the call is the sequence of executed instruction addresses
 *     (relative to the function, so branch outcomes are in it) and of accessed locations (region
 *     and offset, never data values).  Two calls with different secrets and the same public
 *     lengths must give identical traces; ucheck_trace_diff names the first difference.
 *   - ABI: callee-saved rbx, rbp, r12-r15 get random values before the call and must hold them
 *     after; rsp must be back; the direction flag must be clear; the control bits of MXCSR and
 *     the x87 control word must be unchanged; no write may land below rsp's red zone (128
 *     bytes under System V, none under Win64: uc_call.no_red_zone).
 *
 * The function runs at its own address: the program's read-only segments (code and constants)
 * are mapped into the emulator at the addresses they have in this process, so RIP-relative
 * references to constants work unchanged.  Each region is copied into a mapping of its own,
 * flush against the end of its pages; a poisoned red-zone page follows it, and unmapped memory
 * follows that; before it, the rest of its first page and at least one more poisoned page.
 * The red zones are mapped on purpose: an overread then completes and is seen whole (a 16-byte
 * SSE load arrives as two 8-byte accesses, which are merged back), instead of stopping at its
 * first unmapped half.  The byte-exact verdict comes from the hooks, not from the mapping.
 * A pointer argument is passed as the emulator address of the same byte of its region: any
 * argument equal to a region's host address, or inside it (one past the end included), is
 * translated.
 *
 * Vector code: VEX and EVEX instructions (AVX, AVX2, AVX-512, GFNI, VAES, VPCLMULQDQ) run in
 * the vector executor (vexec.h, vx_uc.h), which also runs the scalar code between them; its
 * memory accesses go through the same bounds check and trace as Unicorn's, element by element
 * under an opmask (a masked-off element is never accessed).  An instruction that neither the
 * executor nor Unicorn knows stops the call: "unsupported instruction: <text> at f+0x1a4".
 *
 * Limits: x86-64 SysV, up to 6 integer arguments.  One engine per process, kept between calls;
 * not thread-safe.  Alignment: a region's emulator address is
 * flush with its page end, so its alignment is that of -len, not that of the host buffer.
 */
#ifndef ASMDIFF_UCHECK_H
#define ASMDIFF_UCHECK_H

#include <stddef.h>
#include <stdint.h>

/* the first six in registers, the rest on the stack above the return address (System V) */
#define UC_MAX_ARGS 8
/* a call's placed buffers (a family's, and the pieces of a split stream: the driver's
 * DRV_MAX_SLOTS, 58) and the program's own regions (.rodata, .text, the Win64 bridge's, up to 4
 * globals) */
#define UC_MAX_REGIONS 72

/* A buffer the function may access, and nothing around it. */
struct uc_region {
    const char *name; /* in every message: "key", "message", "hash" */
    const void *host; /* the caller's bytes: copied in; copied back when writable (the
                       * memory must then be writable: const only spares read-only callers
                       * a cast) */
    size_t len;       /* exact length in bytes; 0 is allowed (no access at all) */
    int writable;     /* 0: any write is a violation */
    int kind;         /* 0, or the enum uc_region_kind flags below */
};
enum uc_region_kind {
    /* at its own address, not in a slot: a global (.data, .bss) the function reaches
     * RIP-relative; its pages are mapped with the host's bytes, the region's own bytes are the
     * bounds window */
    UC_REGION_FIXED = 1,
    /* in the program image, judged as a whole: never per sized object (uc_call.per_table) */
    UC_REGION_WHOLE = 2,
};
/* A region whose host address lies in the program's read-only image (a constant table the
 * function reads RIP-relative) is not copied: it is a bounds window at its own address.  It
 * must not be writable.  ucheck_symbol_region builds one from a symbol's .size. */

struct uc_call {
    const void *fn; /* the function, as linked into this program */
    uint64_t args[UC_MAX_ARGS];
    size_t nargs;
    struct uc_region regions[UC_MAX_REGIONS];
    size_t nregions; /* regions must not overlap: an in-place call declares one region */
    int check_vectors; /* 1: zmm0-31 and k0-7 start as a marker, and after the call each
                        * 128-bit lane of every zmm (each k) must hold the marker or zero:
                        * anything else is data left behind ("zmm5 lane 2 not cleared") */
    int per_table;     /* 1: a read of a region in the program image (.rodata) must also stay
                        * inside the sized object (ELF .size) its first byte falls in, and may
                        * not run from outside every sized object into one; a read that touches
                        * no sized object is allowed (bounds per table not established there)
                        * and counted in uc_result.untabled_reads */
    int no_red_zone;    /* 1: the Windows x64 convention (the Win64 checked call): no byte below
                         * rsp may be written, the red zone included (Windows may overwrite it
                         * at any time: exception dispatch, debuggers); 0: System V, whose 128
                         * bytes below rsp are the function's, and a write below them is the
                         * violation.  Judged after each writing instruction, against rsp as
                         * that instruction left it (a push or call writes at its new rsp) */
    uint64_t junk_seed; /* nonzero: the junk of the call (registers the function is not given,
                         * the random callee-saved values) comes from this seed, so two calls
                         * with the same seed start alike but for their arguments' bytes (the
                         * ct-trace's two runs: only the secrets may differ); 0: fresh junk */
};

/* One trace event.  Instruction offsets are relative to call->fn, region offsets to the
 * region's first byte (the stack's to rsp at entry), so traces of calls with different
 * buffers compare equal when the function behaved the same. */
enum uc_event_kind { UC_EV_INSN = 0, UC_EV_READ = 1, UC_EV_WRITE = 2 };
#define UC_EV_STACK 0xfe   /* region id of the stack */
#define UC_EV_OUTSIDE 0xff /* region id of an access outside every region (offset = address) */

struct uc_event {
    uint8_t kind;   /* enum uc_event_kind */
    uint8_t region; /* accesses: region index, UC_EV_STACK or UC_EV_OUTSIDE */
    uint16_t pad;
    uint32_t size;  /* accesses: bytes, one instruction's contiguous access */
    int64_t insn;   /* offset of the instruction from call->fn */
    int64_t offset; /* accesses: byte offset in the region */
};

struct uc_result {
    uint64_t rax;
    int completed;   /* 1: the function returned to its caller */
    char error[256]; /* when not: why ("invalid instruction at ...", "runaway: ...") */

    uint64_t error_pc; /* when not: the instruction it stopped at (0: unknown) */

    int bounds_violation;  /* accesses outside every region (0: clean) */
    char bounds_msg[512];  /* the first of them */
    uint64_t bounds_pc;    /* its instruction's address */
    const char *bounds_region; /* the region nearest the access (the stack's name for the
                                * stack), or NULL when none is near */
    int64_t bounds_offset; /* the access's byte offset from that region's first byte */
    int abi_violation;     /* broken ABI properties (0: clean) */
    char abi_msg[512];     /* the first of them */
    enum uc_abi_kind {
        UC_ABI_REGISTERS = 0, /* callee-saved registers, rsp, DF, MXCSR, x87 control */
        UC_ABI_RESIDUE = 1,   /* data left in a vector or opmask register */
        UC_ABI_RED_ZONE = 2,  /* a write below rsp (and its red zone, under System V) */
    } abi_kind;            /* what the first of them broke */

    uint64_t trace_hash;     /* hash of trace[0, trace_len) */
    size_t trace_len;
    struct uc_event *trace;  /* owned by the result: kept between calls, ucheck_result_free */
    size_t trace_cap;

    uint64_t insn_count;
    uint64_t stack_bytes;    /* deepest stack byte touched below the return address */
    uint64_t nanoseconds;    /* wall time of the whole ucheck_run */
    uint64_t region_addr[UC_MAX_REGIONS]; /* where each region was in the emulator */
    uint64_t untabled_reads; /* reads of a per_table region outside every sized object */
    char untabled_msg[256];  /* the first of them: "read of 16 bytes at tab+0x10 (in no sized
                              * table of .rodata) by instruction at f+0x1c" */
    uint64_t untabled_pc;    /* its instruction */
    size_t unsized_objects;  /* symbols without a size in the per_table region */
    uint64_t vexec_insns;   /* instructions run by the vector executor */
    uint64_t unicorn_turns; /* times control went to Unicorn (legacy SSE and the like) */
};

/* Runs call in the emulator.  res must be zeroed before its first use; it may be reused (its
 * trace buffer is).  Returns 0 when the function ran and returned, -1 otherwise (res->error).
 * Bounds and ABI findings are in res either way; the writable regions are copied back in both
 * cases. */
int ucheck_run(const struct uc_call *call, struct uc_result *res);

void ucheck_result_free(struct uc_result *res);

/* Compares the traces of two runs of the same call shape (call gives the region names).
 * Returns -1 when identical; else the index of the first differing event, with msg saying
 * e.g. "first divergence at event 5: instruction f+0x7 read table+0x12 (1 byte) vs
 * table+0x40". */
long ucheck_trace_diff(const struct uc_call *call, const struct uc_result *a,
                       const struct uc_result *b, char *msg, size_t len);

/* The address of the instruction of event i of a trace (an instruction, or the one that made
 * an access); 0 when i is past its end.  With ucheck_trace_diff's index: where it diverged. */
uint64_t ucheck_event_pc(const struct uc_call *call, const struct uc_result *r, long i);

/* A read-only region covering the symbol `symbol` of this program (its ELF .size).  0 when the
 * symbol was found. */
int ucheck_symbol_region(const char *symbol, struct uc_region *r);

#endif
