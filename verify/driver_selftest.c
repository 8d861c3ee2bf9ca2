/* driver_selftest.c — the family driver's own checks can fail, and here is the proof: a toy
 * family (out = in XOR a 16-byte key) whose implementations are one correct kernel and one
 * kernel per finding the driver must report (verify/driver_selftest_x86_64.S).
 * ASMDIFF_SELFTEST=<name> selects the one implementation that runs; verify/driver_selftest.sh
 * runs each and checks the report: its check line, its implementation, its reproduce line.
 * It is a family like any other (the same driver, tool_main and report), so what it proves
 * holds for every family. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "cpu.h"
#include "driver.h"
#include "report.h"
#include "rng.h"
#include "splits.h"

#define MAX_LEN 300

typedef void (*xor_fn)(uint8_t *out, const uint8_t *in, size_t len, const uint8_t key[16]);
void st_good(uint8_t *, const uint8_t *, size_t, const uint8_t *);
void st_wrong(uint8_t *, const uint8_t *, size_t, const uint8_t *);
void st_clobber_rbx(uint8_t *, const uint8_t *, size_t, const uint8_t *);
void st_leave_xmm(uint8_t *, const uint8_t *, size_t, const uint8_t *);
void st_stack_leftover(uint8_t *, const uint8_t *, size_t, const uint8_t *);
void st_overread(uint8_t *, const uint8_t *, size_t, const uint8_t *);
void st_write_past(uint8_t *, const uint8_t *, size_t, const uint8_t *);
void st_modify_input(uint8_t *, const uint8_t *, size_t, const uint8_t *);
void st_read_global(uint8_t *, const uint8_t *, size_t, const uint8_t *);
void st_secret_branch(uint8_t *, const uint8_t *, size_t, const uint8_t *);
void st_secret_index(uint8_t *, const uint8_t *, size_t, const uint8_t *);
void st_rdtsc_xmm(uint8_t *, const uint8_t *, size_t, const uint8_t *);
void st_rdtsc_rax(uint8_t *, const uint8_t *, size_t, const uint8_t *);
void st_table_overread(uint8_t *, const uint8_t *, size_t, const uint8_t *);
void st_unsized_table(uint8_t *, const uint8_t *, size_t, const uint8_t *);
void st_wrong_guard(uint8_t *, const uint8_t *, size_t, const uint8_t *);

static void c_reference(uint8_t *out, const uint8_t *in, size_t len, const uint8_t key[16])
{
    for (size_t i = 0; i < len; i++) out[i] = in[i] ^ key[i % 16];
}

/* Only the implementations ASMDIFF_SELFTEST names run ("wrong" or "wrong,overread": a run
 * with two planted bugs must report both). */
static const char *chosen(const char *name)
{
    const char *want = getenv("ASMDIFF_SELFTEST");
    size_t n = strlen(name);
    for (const char *p = want; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] != 0))
        if (strcspn(p, ",") == n && !strncmp(p, name, n)) return NULL;
    return "not selected (ASMDIFF_SELFTEST)";
}
#define CONTROL(name)                                                                        \
    static const char *sel_##name(void) { return chosen(#name); }
CONTROL(good)
CONTROL(wrong)
CONTROL(clobber_rbx)
CONTROL(leave_xmm)
CONTROL(stack_leftover)
CONTROL(overread)
CONTROL(write_past)
CONTROL(modify_input)
CONTROL(read_global)
CONTROL(secret_branch)
CONTROL(secret_index)
CONTROL(rdtsc_xmm)
CONTROL(rdtsc_rax)
CONTROL(table_overread)
CONTROL(unsized_table)
CONTROL(wrong_guard)

static const struct impl impls[] = {
    IMPL("c-reference", 0, IMPL_REFERENCE, c_reference),
    IMPL("good", CPU_X86_64, IMPL_KERNEL | IMPL_CLEAN, st_good, .unavailable = sel_good),
    IMPL("wrong", CPU_X86_64, IMPL_KERNEL | IMPL_CLEAN, st_wrong, .unavailable = sel_wrong),
    IMPL("clobber_rbx", CPU_X86_64, IMPL_KERNEL | IMPL_CLEAN, st_clobber_rbx,
         .unavailable = sel_clobber_rbx),
    IMPL("leave_xmm", CPU_X86_64, IMPL_KERNEL | IMPL_CLEAN, st_leave_xmm,
         .unavailable = sel_leave_xmm),
    IMPL("stack_leftover", CPU_X86_64, IMPL_KERNEL | IMPL_CLEAN, st_stack_leftover,
         .unavailable = sel_stack_leftover),
    IMPL("overread", CPU_X86_64, IMPL_KERNEL | IMPL_CLEAN, st_overread,
         .unavailable = sel_overread),
    IMPL("write_past", CPU_X86_64, IMPL_KERNEL | IMPL_CLEAN, st_write_past,
         .unavailable = sel_write_past),
    IMPL("modify_input", CPU_X86_64, IMPL_KERNEL | IMPL_CLEAN, st_modify_input,
         .unavailable = sel_modify_input),
    /* for the Unicorn modes (bounds, ct-trace): the native checks pass them */
    IMPL("read_global", CPU_X86_64, IMPL_KERNEL | IMPL_CLEAN, st_read_global,
         .unavailable = sel_read_global),
    IMPL("secret_branch", CPU_X86_64, IMPL_KERNEL | IMPL_CLEAN, st_secret_branch,
         .unavailable = sel_secret_branch),
    IMPL("secret_index", CPU_X86_64, IMPL_KERNEL | IMPL_CLEAN, st_secret_index,
         .unavailable = sel_secret_index),
    IMPL("table_overread", CPU_X86_64, IMPL_KERNEL | IMPL_CLEAN, st_table_overread,
         .unavailable = sel_table_overread),
    IMPL("unsized_table", CPU_X86_64, IMPL_KERNEL | IMPL_CLEAN, st_unsized_table,
         .unavailable = sel_unsized_table),
    /* for emu-diff: not clean, so only the comparison with the emulator sees xmm3 */
    IMPL("rdtsc_xmm", CPU_X86_64, IMPL_KERNEL, st_rdtsc_xmm, .unavailable = sel_rdtsc_xmm),
    IMPL("rdtsc_rax", CPU_X86_64, IMPL_KERNEL, st_rdtsc_rax, .unavailable = sel_rdtsc_rax),
    /* a library with its own CPU dispatch, whose guard admits an AVX-only CPU to an AVX2 path:
     * the ILLEGAL INSTRUCTION finding on such a CPU (dispatch mode, qemu -cpu SandyBridge) */
    IMPL("wrong_guard", CPU_X86_64, IMPL_LIBRARY, st_wrong_guard, .unavailable = sel_wrong_guard),
};

enum { B_KEY, B_IN, B_OUT };
static const struct buf_spec bufs[] = {
    {"key", 1, BUF_SECRET}, {"input", 1, BUF_SECRET}, {"output", 1, 0}};

static struct st_case {
    size_t len;
    uint8_t key[16], in[MAX_LEN];
} the_case;

/* ASMDIFF_SELFTEST_SIGNALS=1: a timer signal every 100 us with a handler that uses its stack,
 * as libFuzzer's once-a-second timeout check does: signal frames must not count as leftovers. */
static volatile sig_atomic_t ticks;
static void on_tick(int sig)
{
    volatile char scratch[2048];
    for (size_t i = 0; i < sizeof scratch; i += 64) scratch[i] = (char)sig;
    ticks++;
}

static void *decode(struct input *in)
{
    static int timer;
    if (!timer++ && getenv("ASMDIFF_SELFTEST_SIGNALS")) {
        signal(SIGALRM, on_tick);
        struct itimerval it = {{0, 100}, {0, 100}};
        setitimer(ITIMER_REAL, &it, NULL);
    }
    static const size_t widths[] = {16};
    the_case.len = input_length(in, MAX_LEN, widths, 1);
    input_bytes(in, the_case.key, 16);
    input_bytes(in, the_case.in, the_case.len);
    return &the_case;
}

static const void *expect(const void *cv)
{
    static uint8_t want[MAX_LEN];
    const struct st_case *c = cv;
    c_reference(want, c->in, c->len, c->key);
    return want;
}

/* ASMDIFF_SELFTEST_PIECES=1: the input and the output cut into three pieces (at a third and
 * two thirds of the length), each piece in a guarded buffer of its own (drv_in_piece,
 * splits.h), one call per piece with the key stream realigned: the controls that read or write
 * past their buffer must be caught on a piece as on a whole buffer, in every mode. */
static void run_pieces(const struct impl *im, const struct st_case *c, const uint8_t *key,
                       const void *want)
{
    static uint8_t got[MAX_LEN];
    struct splits s = {2, {c->len / 3, 2 * c->len / 3}};
    const uint8_t *in[3];
    uint8_t *out[3], keys[3][16];
    size_t n[3], on[3];
    drv_in_pieces(B_IN, &s, c->in, c->len, in, n);
    drv_out_pieces(B_OUT, &s, c->len, out, on);
    for (size_t i = 0; i < 3; i++) {
        size_t from = splits_from(&s, i);
        for (size_t j = 0; j < 16; j++) keys[i][j] = c->key[(from + j) % 16];
        const uint8_t *k = i ? drv_in_piece(B_KEY, i, keys[i], 16) : key;
        DRV_CALL((xor_fn)im->ops, out[i], in[i], n[i], k);
    }
    splits_gather(&s, out, on, got);
    drv_expect_equal("output", want, got, c->len);
}

static void run(const struct impl *im, const void *cv, const void *want)
{
    const struct st_case *c = cv;
    const uint8_t *key = drv_in(B_KEY, c->key, 16);
    drv_op("xor");
    if (getenv("ASMDIFF_SELFTEST_PIECES")) {
        run_pieces(im, c, key, want);
        return;
    }
    const uint8_t *in = drv_in(B_IN, c->in, c->len);
    uint8_t *out = drv_out(B_OUT, c->len);
    DRV_CALL((xor_fn)im->ops, out, in, c->len, key);
    drv_expect_equal("output", want, out, c->len);
}

static void params(const void *cv)
{
    const struct st_case *c = cv;
    report_param("length", "%zu", c->len);
    report_hex("key", c->key, 16);
}

static void vary_secrets(void *cv, uint64_t seed)
{
    struct st_case *c = cv;
    rng_fill(&seed, c->key, sizeof c->key);
    rng_fill(&seed, c->in, c->len);
}

static const struct bench_op bench_ops[] = {{"xor", 1, MAX_LEN}};

static int bench_run(const struct impl *im, size_t op, uint8_t *buf, size_t bytes)
{
    static const uint8_t key[16] = {1};
    (void)op;
    ((xor_fn)im->ops)(buf, buf, bytes, key);
    return 0;
}

const struct family asmdiff_family = {
    .name = "selftest",
    .spec = "out = in XOR key",
    .impls = impls,
    .nimpls = sizeof impls / sizeof impls[0],
    .bufs = bufs,
    .nbufs = sizeof bufs / sizeof bufs[0],
    .decode = decode,
    .expect = expect,
    .run = run,
    .params = params,
    .vary_secrets = vary_secrets,
    .bench_ops = bench_ops,
    .nbench_ops = 1,
    .bench_run = bench_run,
};
