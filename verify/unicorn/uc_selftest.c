/* uc_selftest.c — the Unicorn checks (ucheck.h) fire on broken code: the engine's own
 * controls (uc_controls_x86_64.S, uc_vcontrols_x86_64.S).
 *
 * The families' kernels are checked by the family driver's Unicorn modes (asmdiff-F bounds,
 * asmdiff-F ct-trace: fuzz/harness/driver.c), which run every kernel call through this same
 * engine; verify/driver_selftest.sh proves those modes fire.  This program proves the engine
 * itself does, check by check, on functions written to break exactly one property:
 *   bounds: an access outside the declared regions is seen byte-exact (over- and underreads,
 *           a write past the end, a masked vector access that touches only active elements);
 *   ct:     a secret-indexed look-up and a secret-dependent branch change the trace;
 *   abi:    a clobbered callee-saved register, a left DF, a changed MXCSR are seen, and data
 *           left in vector and opmask registers.
 *
 *   uc_selftest controls|bounds|ct|abi
 * One line per check, then "N passed, M failed"; exit 0 only when all pass, 99 on a usage
 * error.
 */
#include "emu/ucheck.h"
#include "emu/ucheck_elf.h"
#include "verify/selftest.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const uint8_t uc_ctl_table[256];
uint32_t uc_ctl_table_lookup(const uint8_t *secret);
uint32_t uc_ctl_secret_branch(const uint8_t *secret);
void uc_ctl_overread16(const uint8_t *in, size_t len, uint8_t out[16]);
uint32_t uc_ctl_underread1(const uint8_t *in, size_t len);
uint64_t uc_ctl_clobber_rbx(uint64_t x);
uint64_t uc_ctl_leave_df(uint64_t x);
uint64_t uc_ctl_mxcsr_round_zero(uint64_t x);
void uc_ctl_overwrite1(uint8_t *out, size_t len);
uint64_t uc_ctl_red_zone_spill(uint64_t x);
uint64_t uc_ctl_below_red_zone(uint64_t x);
uint64_t uc_ctl_framed(uint64_t x);
void uc_ctl_xor(uint8_t *dst, const uint8_t *a, const uint8_t *b, size_t len);

static void check(int ok, const char *mode, const char *what, const char *detail)
{
    ST_CHECK(ok, "%-8s %s: %s", mode, what, detail);
}

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Secret fills, as checkasm's: random hunts everything, all-ones hunts carry chains and
 * overflow, zero hunts underflow and early exits. */
enum fill { FILL_RANDOM, FILL_RANDOM2, FILL_ONES, FILL_ZERO, NFILLS };

static void fill(void *p, size_t len, enum fill f)
{
    uint8_t *b = p;
    rng_state = f == FILL_RANDOM2 ? 0x2222 + len : 0x1111 + len;
    for (size_t i = 0; i < len; i++)
        b[i] = f == FILL_ONES ? 0xff : f == FILL_ZERO ? 0 : (uint8_t)rnd();
}

/* Runs one call; a run that did not complete is a failure of every check. */
static int run(const struct uc_call *c, struct uc_result *r, char *why, size_t len)
{
    if (ucheck_run(c, r) == 0) return 0;
    snprintf(why, len, "%s", r->error);
    return -1;
}

enum { DO_BOUNDS = 1, DO_CT = 2, DO_ABI = 4 };

static int have_symbols;

/* Does msg say want, and, when this program has its symbol table, also name the instruction
 * (named)?  A stripped build prints instruction addresses in hex instead. */
static int says(const char *msg, const char *want, const char *named)
{
    return strstr(msg, want) && (!named || !have_symbols || strstr(msg, named));
}

/* Each control is asserted by the check it is for; (f) by all of them. */
static void controls(int modes)
{
    struct uc_result a = {0}, b = {0};
    char msg[700], why[256] = "";

    /* (a) secret-indexed table lookup: ct must name the two table offsets. */
    if (modes & DO_CT) {
        uint8_t s1 = 0x12, s2 = 0x40;
        struct uc_call c = {.fn = (const void *)uc_ctl_table_lookup, .nargs = 1, .nregions = 2,
                            .regions = {{"secret", &s1, 1, 0, 0},
                                        {"uc_ctl_table", uc_ctl_table, 256, 0, 0}},
                            .args = {(uintptr_t)&s1}};
        /* The same region from the symbol table, where there is one (the .size directive). */
        struct uc_region sym = {0};
        int ok = !have_symbols || (!ucheck_symbol_region("uc_ctl_table", &sym) &&
                                   sym.host == uc_ctl_table && sym.len == 256);
        if (!ok) snprintf(why, sizeof why, "ucheck_symbol_region(uc_ctl_table) is wrong");
        ok = ok && !run(&c, &a, why, sizeof why);
        c.regions[0].host = &s2;
        c.args[0] = (uintptr_t)&s2;
        ok = ok && !run(&c, &b, why, sizeof why);
        long at = ok ? ucheck_trace_diff(&c, &a, &b, msg, sizeof msg) : -1;
        ok = ok && at >= 0 && says(msg, "read uc_ctl_table+18 (1 byte) vs uc_ctl_table+64",
                                   "instruction uc_ctl_table_lookup+0x") &&
             !a.bounds_violation && !b.bounds_violation && a.rax == (0x12 ^ 0x5c);
        check(ok, "controls", "(a) secret-indexed table lookup flagged by ct",
              at >= 0 ? msg : why[0] ? why : "traces equal");
    }
    /* (b) secret-dependent branch: the instruction sequences differ. */
    if (modes & DO_CT) {
        uint8_t s1 = 0x02, s2 = 0x03;
        struct uc_call c = {.fn = (const void *)uc_ctl_secret_branch, .nargs = 1, .nregions = 1,
                            .regions = {{"secret", &s1, 1, 0, 0}}, .args = {(uintptr_t)&s1}};
        int ok = !run(&c, &a, why, sizeof why);
        c.regions[0].host = &s2;
        c.args[0] = (uintptr_t)&s2;
        ok = ok && !run(&c, &b, why, sizeof why);
        long at = ok ? ucheck_trace_diff(&c, &a, &b, msg, sizeof msg) : -1;
        ok = ok && at >= 0 && says(msg, "control flow after ", "uc_ctl_secret_branch+0x") &&
             a.rax == 2 && b.rax == 9;
        check(ok, "controls", "(b) secret-dependent branch flagged by ct",
              at >= 0 ? msg : why[0] ? why : "traces equal");
    }
    /* (c) 16 bytes past the end: one movdqu, reported as one 16-byte read at input+64 although
     * Unicorn delivers it as two 8-byte reads. */
    if (modes & DO_BOUNDS) {
        uint8_t in[64], out[16];
        fill(in, sizeof in, FILL_RANDOM);
        struct uc_call c = {.fn = (const void *)uc_ctl_overread16, .nargs = 3, .nregions = 2,
                            .regions = {{"input", in, sizeof in, 0, 0}, {"out", out, 16, 1, 0}},
                            .args = {(uintptr_t)in, sizeof in, (uintptr_t)out}};
        int ok = !run(&c, &a, why, sizeof why);
        ok = ok && a.bounds_violation == 1 && says(a.bounds_msg, "read of 16 bytes at "
             "input+64 (16 bytes past its end) by instruction at ", "uc_ctl_overread16+0x");
        check(ok, "controls", "(c) overread of 16 bytes past the input flagged by bounds",
              a.bounds_violation ? a.bounds_msg : why[0] ? why : "not flagged");
    }
    /* (d) one byte before the start: same page, invisible to a guard page after the buffer. */
    if (modes & DO_BOUNDS) {
        uint8_t in[32];
        fill(in, sizeof in, FILL_RANDOM);
        struct uc_call c = {.fn = (const void *)uc_ctl_underread1, .nargs = 2, .nregions = 1,
                            .regions = {{"input", in, sizeof in, 0, 0}},
                            .args = {(uintptr_t)in, sizeof in}};
        int ok = !run(&c, &a, why, sizeof why);
        ok = ok && a.bounds_violation == 1 && says(a.bounds_msg, "read of 1 byte at input-1 "
             "(1 byte before its start) by instruction at ", "uc_ctl_underread1+0x");
        check(ok, "controls", "(d) read of 1 byte before the input flagged by bounds",
              a.bounds_violation ? a.bounds_msg : why[0] ? why : "not flagged");
    }
    /* (d2) one byte written past the end of the output. */
    if (modes & DO_BOUNDS) {
        uint8_t out[32];
        struct uc_call c = {.fn = (const void *)uc_ctl_overwrite1, .nargs = 2, .nregions = 1,
                            .regions = {{"out", out, sizeof out, 1, 0}},
                            .args = {(uintptr_t)out, sizeof out}};
        int ok = !run(&c, &a, why, sizeof why);
        ok = ok && a.bounds_violation == 1 && strstr(a.bounds_msg, "write of 1 byte at out+32 "
             "(1 byte past its end)");
        check(ok, "controls", "(d2) write of 1 byte past the output flagged by bounds",
              a.bounds_violation ? a.bounds_msg : why[0] ? why : "not flagged");
    }
    /* (d3) a write to a region declared read-only (33 bytes: only the read-only rule is
     * broken, 33 times). */
    if (modes & DO_BOUNDS) {
        uint8_t out[33];
        struct uc_call c = {.fn = (const void *)uc_ctl_overwrite1, .nargs = 2, .nregions = 1,
                            .regions = {{"out", out, sizeof out, 0, 0}},
                            .args = {(uintptr_t)out, sizeof out - 1}};
        int ok = !run(&c, &a, why, sizeof why);
        ok = ok && a.bounds_violation == 33 && strstr(a.bounds_msg, "write of 1 byte at out+0 "
             "(out is read-only)");
        check(ok, "controls", "(d3) write to a read-only input flagged by bounds",
              a.bounds_violation ? a.bounds_msg : why[0] ? why : "not flagged");
    }
    /* (d4) no false alarm from the emulator itself: Unicorn re-reads an unaligned load that
     * crosses a page as two aligned loads, and its hook reports those too.  With the region
     * "a" 4099 bytes long, it starts 3 bytes below a page boundary, so the first 8-byte load
     * crosses it and the emulator's first re-read lies 5 bytes before the region. */
    if (modes & (DO_BOUNDS | DO_CT)) {
        static uint8_t x[4099], y[4096], d[4096];
        fill(x, sizeof x, FILL_RANDOM);
        fill(y, sizeof y, FILL_RANDOM2);
        struct uc_call c = {.fn = (const void *)uc_ctl_xor, .nargs = 4, .nregions = 3,
                            .regions = {{"dst", d, sizeof d, 1, 0}, {"a", x, sizeof x, 0, 0},
                                        {"b", y, sizeof y, 0, 0}},
                            .args = {(uintptr_t)d, (uintptr_t)x, (uintptr_t)y, sizeof d}};
        int ok = !run(&c, &a, why, sizeof why), reads = 0, right = 1;
        for (size_t i = 0; ok && i < a.trace_len; i++) {
            const struct uc_event *ev = &a.trace[i];
            if (ev->kind != UC_EV_READ || ev->region != 1) continue;
            right &= ev->size == 8 && ev->offset == 8 * reads;
            reads++;
        }
        ok = ok && (a.region_addr[1] & 4095) == 4093 && !a.bounds_violation && right &&
             reads == 512;
        snprintf(msg, sizeof msg, "%d reads of a, %s; %s", reads, right ? "each 8 bytes at "
                 "8i" : "some not at 8i", a.bounds_violation ? a.bounds_msg : "no violation");
        check(ok, "controls", "(d4) unaligned reads across a page: no false alarm from the "
              "emulator's re-reads", why[0] ? why : msg);
    }
    /* (e) callee-saved rbx clobbered; (e2) DF left set. */
    if (modes & DO_ABI) {
        struct uc_call c = {.fn = (const void *)uc_ctl_clobber_rbx, .nargs = 1, .args = {42}};
        int ok = !run(&c, &a, why, sizeof why);
        ok = ok && a.abi_violation == 1 && strstr(a.abi_msg, "callee-saved register rbx "
             "modified") && a.rax == 42;
        check(ok, "controls", "(e) clobbered rbx flagged by abi",
              a.abi_violation ? a.abi_msg : why[0] ? why : "not flagged");
        c.fn = (const void *)uc_ctl_leave_df;
        ok = !run(&c, &a, why, sizeof why);
        ok = ok && a.abi_violation == 1 && strstr(a.abi_msg, "direction flag");
        check(ok, "controls", "(e2) direction flag left set flagged by abi",
              a.abi_violation ? a.abi_msg : why[0] ? why : "not flagged");
        c.fn = (const void *)uc_ctl_mxcsr_round_zero;
        ok = !run(&c, &a, why, sizeof why);
        ok = ok && a.abi_violation == 1 && strstr(a.abi_msg, "MXCSR control bits modified "
             "(before 0x1f80, after 0x7f80)") && a.stack_bytes == 4 && !a.bounds_violation;
        check(ok, "controls", "(e3) MXCSR rounding mode left changed flagged by abi",
              a.abi_violation ? a.abi_msg : why[0] ? why : "not flagged");
        /* the red zone: System V's 128 bytes are the function's, Win64 has none */
        c.fn = (const void *)uc_ctl_red_zone_spill;
        ok = !run(&c, &a, why, sizeof why) && !a.abi_violation && a.rax == 42;
        check(ok, "controls", "(e4) a spill into System V's red zone passes",
              a.abi_violation ? a.abi_msg : why[0] ? why : "clean");
        c.no_red_zone = 1;
        ok = !run(&c, &a, why, sizeof why) && a.abi_violation == 1 &&
             a.abi_kind == UC_ABI_RED_ZONE && says(a.abi_msg, "write of 8 bytes at rsp-8 by "
             "instruction at", "uc_ctl_red_zone_spill+0x0") && strstr(a.abi_msg, "no red zone");
        check(ok, "controls", "(e4w) the same spill under Win64 (no red zone) flagged by abi",
              a.abi_violation ? a.abi_msg : why[0] ? why : "not flagged");
        c.no_red_zone = 0;
        c.fn = (const void *)uc_ctl_below_red_zone;
        ok = !run(&c, &a, why, sizeof why) && a.abi_violation == 1 &&
             a.abi_kind == UC_ABI_RED_ZONE && says(a.abi_msg, "write of 8 bytes at rsp-136",
             "uc_ctl_below_red_zone+0x0") && strstr(a.abi_msg, "below the 128-byte red zone");
        check(ok, "controls", "(e5) a write 136 bytes below rsp flagged by abi (System V)",
              a.abi_violation ? a.abi_msg : why[0] ? why : "not flagged");
        c.fn = (const void *)uc_ctl_framed;
        for (int w = 0; w < 2; w++) {
            c.no_red_zone = w;
            ok = !run(&c, &a, why, sizeof why) && !a.abi_violation && a.rax == 42 &&
                 a.stack_bytes >= 48;
            check(ok, "controls", w ? "(e6w) push, frame and call pass under Win64"
                  : "(e6) push, frame and call pass under System V",
                  a.abi_violation ? a.abi_msg : why[0] ? why : "clean");
        }
    }
    /* (f) correct, constant-time XOR: no check may fire, and the result is right. */
    {
        uint8_t x[64], y[64], d[64], want[64];
        struct uc_call c = {.fn = (const void *)uc_ctl_xor, .nargs = 4, .nregions = 3,
                            .regions = {{"dst", d, 64, 1, 0}, {"a", x, 64, 0, 0}, {"b", y, 64, 0, 0}},
                            .args = {(uintptr_t)d, (uintptr_t)x, (uintptr_t)y, 64}};
        int ok = 1;
        struct uc_result *r[2] = {&a, &b};
        for (int k = 0; k < 2 && ok; k++) {
            fill(x, 64, k ? FILL_RANDOM2 : FILL_RANDOM);
            fill(y, 64, k ? FILL_ONES : FILL_RANDOM2);
            for (int i = 0; i < 64; i++) want[i] = x[i] ^ y[i];
            ok = !run(&c, r[k], why, sizeof why) && !memcmp(d, want, 64) &&
                 !r[k]->bounds_violation && !r[k]->abi_violation;
        }
        long at = ok ? ucheck_trace_diff(&c, &a, &b, msg, sizeof msg) : 0;
        snprintf(msg, sizeof msg, "%s", !ok ? (why[0] ? why : a.bounds_violation ? a.bounds_msg
                 : a.abi_violation ? a.abi_msg : "wrong result") : at >= 0 ? msg :
                 "no violation, result right, traces equal for two secrets");
        check(ok && at < 0, "controls", "(f) constant-time XOR passes every check", msg);
    }
    ucheck_result_free(&a);
    ucheck_result_free(&b);
}

/* ---- vector controls (the executor's accesses through the same checks) --------------------- */

void uc_vctl_overread1(uint8_t out[64], const uint8_t in[63]);
void uc_vctl_xor64_masked(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t len);
uint32_t uc_vctl_key_branch(const uint8_t key[64]);
uint32_t uc_vctl_key_index(const uint8_t key[16], const uint8_t table[256]);
void uc_vctl_leave_key(const uint8_t key[64]);
void uc_vctl_leave_mask(const uint8_t key[64]);
void uc_vctl_unsupported(void);
uint64_t uc_vctl_spill_below(const uint8_t key[64]);
void uc_vctl_store_table(uint8_t *table);

static void vector_controls(int modes)
{
    struct uc_result a = {0}, b = {0};
    static uint8_t in[64], out[64], x[64], y[64], key[64], key2[64];
    char why[512], msg[512];
    fill(in, sizeof in, FILL_RANDOM);
    if (modes & DO_BOUNDS) {
        struct uc_call c = {.fn = (const void *)uc_vctl_overread1, .nargs = 2, .nregions = 2,
                            .regions = {{"out", out, 64, 1, 0}, {"in", in, 63, 0, 0}},
                            .args = {(uintptr_t)out, (uintptr_t)in}};
        int ok = run(&c, &a, why, sizeof why) == 0 && a.bounds_violation &&
                 says(a.bounds_msg, "read of 64 bytes at in+0 (1 byte past its end)",
                      "uc_vctl_overread1+");
        check(ok, "controls", "(v1) unmasked 64-byte load one byte past a 63-byte buffer "
              "flagged by bounds", a.bounds_violation ? a.bounds_msg : why);
        int all = 1;
        for (size_t len = 0; len <= 64 && all; len += 1) {
            fill(x, 64, FILL_RANDOM);
            fill(y, 64, FILL_RANDOM2);
            struct uc_call m = {.fn = (const void *)uc_vctl_xor64_masked, .nargs = 4,
                                .nregions = 3, .check_vectors = 1,
                                .regions = {{"out", out, len, 1, 0}, {"a", x, len, 0, 0},
                                            {"b", y, len, 0, 0}},
                                .args = {(uintptr_t)out, (uintptr_t)x, (uintptr_t)y, len}};
            int r = run(&m, &a, why, sizeof why);
            for (size_t i = 0; i < len && !r; i++) all &= out[i] == (x[i] ^ y[i]);
            if (r || a.bounds_violation || a.abi_violation) {
                all = 0;
                snprintf(why, sizeof why, "len %zu: %.400s", len, r ? a.error : a.bounds_violation
                         ? a.bounds_msg : a.abi_msg);
            }
        }
        check(all, "controls", "(v2) masked 64-byte loads and stores of len 0..64 bytes: no "
              "violation (masked-off bytes are never accessed), right result, registers "
              "cleared", all ? "clean, as it must be" : why);
        struct uc_region ro;
        if (ucheck_symbol_region("uc_ctl_table", &ro) == 0) {
            struct uc_call w = {.fn = (const void *)uc_vctl_store_table, .nargs = 1,
                                .nregions = 1, .regions = {ro},
                                .args = {(uintptr_t)ro.host}};
            int stopped = ucheck_run(&w, &a) != 0;
            int fired = stopped && a.bounds_violation &&
                        says(a.bounds_msg, "write of 8 bytes at uc_ctl_table+16 (uc_ctl_table "
                             "is read-only)", "uc_vctl_store_table+") &&
                        uc_ctl_table[16] == (16 ^ 0x5c);
            check(fired, "controls", "(v8) masked vector store into a read-only table flagged by "
                  "bounds, and not done", a.bounds_violation ? a.bounds_msg : a.error);
        } else {
            check(0, "controls", "(v8) masked vector store into a read-only table",
                  "uc_ctl_table not found in the symbol table");
        }
    }
    if (modes & DO_CT) {
        fill(key, 64, FILL_RANDOM);
        for (int i = 0; i < 64; i++) key[i] |= 1; /* no zero byte */
        memcpy(key2, key, 64);
        key2[40] = 0;
        struct uc_call c = {.fn = (const void *)uc_vctl_key_branch, .nargs = 1, .nregions = 1,
                            .regions = {{"key", key, 64, 0, 0}}, .args = {(uintptr_t)key}};
        struct uc_call c2 = c;
        c2.regions[0].host = key2;
        c2.args[0] = (uintptr_t)key2;
        int ok = run(&c, &a, why, sizeof why) == 0 && run(&c2, &b, why, sizeof why) == 0 &&
                 ucheck_trace_diff(&c, &a, &b, msg, sizeof msg) >= 0 &&
                 says(msg, "control flow after", "uc_vctl_key_branch+");
        check(ok, "controls", "(v3) branch on an opmask test of the key flagged by ct",
              ok ? msg : why);
        struct uc_region tab;
        if (ucheck_symbol_region("uc_ctl_table", &tab)) {
            check(0, "controls", "(v4) key-indexed load flagged by ct", "uc_ctl_table not "
                  "found in the symbol table");
        } else {
            key2[3] = (uint8_t)(key[3] + 1);
            struct uc_call d = {.fn = (const void *)uc_vctl_key_index, .nargs = 2, .nregions = 2,
                                .regions = {{"key", key, 16, 0, 0}, tab},
                                .args = {(uintptr_t)key, (uintptr_t)tab.host}};
            struct uc_call d2 = d;
            d2.regions[0].host = key2;
            d2.args[0] = (uintptr_t)key2;
            ok = run(&d, &a, why, sizeof why) == 0 && run(&d2, &b, why, sizeof why) == 0 &&
                 ucheck_trace_diff(&d, &a, &b, msg, sizeof msg) >= 0 &&
                 says(msg, "uc_ctl_table+", "uc_vctl_key_index+");
            check(ok, "controls", "(v4) table index taken from the key with vpextrb flagged "
                  "by ct", ok ? msg : why);
        }
    }
    if (modes & DO_ABI) {
        fill(key, 64, FILL_RANDOM);
        struct uc_call c = {.fn = (const void *)uc_vctl_leave_key, .nargs = 1, .nregions = 1,
                            .check_vectors = 1, .regions = {{"key", key, 64, 0, 0}},
                            .args = {(uintptr_t)key}};
        int ok = run(&c, &a, why, sizeof why) == 0 && a.abi_violation &&
                 says(a.abi_msg, "zmm17 not cleared", NULL);
        check(ok, "controls", "(v5) key left in zmm17 flagged by abi", ok ? a.abi_msg : why);
        c.fn = (const void *)uc_vctl_leave_mask;
        ok = run(&c, &a, why, sizeof why) == 0 && a.abi_violation &&
             says(a.abi_msg, "k3 not cleared", NULL);
        check(ok, "controls", "(v6) key-derived mask left in k3 flagged by abi",
              ok ? a.abi_msg : why);
        /* the red zone, through the executor's stores */
        why[0] = 0;
        uint64_t first;
        memcpy(&first, key, 8);
        struct uc_call z = {.fn = (const void *)uc_vctl_spill_below, .nargs = 1, .nregions = 1,
                            .regions = {{"key", key, 64, 0, 0}}, .args = {(uintptr_t)key}};
        ok = run(&z, &a, why, sizeof why) == 0 && !a.abi_violation && a.rax == first;
        check(ok, "controls", "(v9) a ymm spill into System V's red zone passes",
              a.abi_violation ? a.abi_msg : why[0] ? why : "clean");
        z.no_red_zone = 1;
        ok = run(&z, &a, why, sizeof why) == 0 && a.abi_kind == UC_ABI_RED_ZONE &&
             says(a.abi_msg, "write of 32 bytes at rsp-32", "uc_vctl_spill_below+0x");
        check(ok, "controls", "(v9w) the same spill under Win64 flagged by abi",
              a.abi_violation ? a.abi_msg : why[0] ? why : "not flagged");
    }
    {
        struct uc_call c = {.fn = (const void *)uc_vctl_unsupported};
        int r = ucheck_run(&c, &a);
        int ok = r != 0 && says(a.error, "unsupported instruction: ", "uc_vctl_unsupported+0x0");
        check(ok, "controls", "(v7) an instruction outside the executor's table stops the run "
              "by name", a.error);
    }
    ucheck_result_free(&a);
    ucheck_result_free(&b);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int modes;
    } modes[] = {
        {"controls", DO_BOUNDS | DO_CT | DO_ABI},
        {"bounds", DO_BOUNDS},
        {"ct", DO_CT},
        {"abi", DO_ABI},
    };
    size_t m = 0;
    while (m < sizeof modes / sizeof modes[0] && (argc != 2 || strcmp(argv[1], modes[m].name)))
        m++;
    if (m == sizeof modes / sizeof modes[0]) {
        fprintf(stderr, "usage: %s controls|bounds|ct|abi\n", argv[0]);
        return 99;
    }
    have_symbols = elfsym_load() == 0;
    controls(modes[m].modes);
    vector_controls(modes[m].modes);
    return st_finish();
}
