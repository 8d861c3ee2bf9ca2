/* harness_selftest.c — the harness's own checks can fail, and here is the proof.
 *
 *   guard: a read one byte past a buffer placed against the trailing guard page, and one byte
 *          before a buffer placed after the leading guard page, each kill a child process with
 *          SIGSEGV; a stray write next to a buffer inside the mapping is found by the canary;
 *          legitimate use of every byte is not flagged.
 *   input: the decoder is total (the empty input decodes), control bytes come from the tail and
 *          payload from the head, lengths land on kernel-width edges.
 *   cpu:   ASMDIFF_CPU_MASK parsing accepts "-avx512f,-gfni" and rejects bad entries.
 * Ends with "N passed, M failed"; exit 0 only when all pass.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu.h"
#include "guard.h"
#include "input.h"
#include "sha1.h"
#include "verify/selftest.h"

/* Run fn in a child; return the signal that ended it, or 0 when it exited normally.  What the
 * child wrote to stderr (the guard-page report) goes to msg. */
static int child_signal(void (*fn)(struct gbuf *), struct gbuf *b, char *msg, size_t msglen)
{
    int fd[2];
    fflush(stdout);
    if (pipe(fd)) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        fn(b);
        _exit(0);
    }
    close(fd[1]);
    size_t used = 0;
    ssize_t n;
    while (used + 1 < msglen && (n = read(fd[0], msg + used, msglen - 1 - used)) > 0)
        used += (size_t)n;
    msg[used] = 0;
    close(fd[0]);
    int st;
    waitpid(pid, &st, 0);
    return WIFSIGNALED(st) ? WTERMSIG(st) : 0;
}

/* A guard-page fault is reported by the harness's handler (which names the byte) and ends the
 * process with SIGABRT, so libFuzzer keeps the input. */
static int reported(int sig, const char *msg, const char *want)
{
    return sig == SIGABRT && strstr(msg, "GUARD PAGE") && strstr(msg, want);
}

static volatile uint8_t sink;
static void read_after_end(struct gbuf *b) { sink = b->p[b->len]; }
static void read_before_start(struct gbuf *b) { sink = b->p[-1]; }
static void read_all(struct gbuf *b)
{
    for (size_t i = 0; i < b->len; i++) sink = b->p[i];
}

static void test_guard(void)
{
    struct gbuf b = {0};
    for (size_t len = 1; len <= 8193; len = len * 3 + 1) {
        char msg[512], want[64];
        gbuf_place(&b, len, GUARD_TAIL, 0);
        snprintf(want, sizeof want, "touched byte %zu of the %zu-byte buffer", len, len);
        ST_CHECK(reported(child_signal(read_after_end, &b, msg, sizeof msg), msg, want),
                 "len %zu guard-after: reading byte len faults and is reported", len);
        ST_CHECK(child_signal(read_all, &b, msg, sizeof msg) == 0,
                 "len %zu guard-after: reading bytes 0..len-1 does not", len);
        gbuf_place(&b, len, GUARD_HEAD, 0);
        snprintf(want, sizeof want, "touched byte -1 of the %zu-byte buffer", len);
        ST_CHECK(reported(child_signal(read_before_start, &b, msg, sizeof msg), msg, want),
                 "len %zu guard-before: reading byte -1 faults and is reported", len);
        ST_CHECK(child_signal(read_all, &b, msg, sizeof msg) == 0,
                 "len %zu guard-before: reading bytes 0..len-1 does not", len);
    }
    long where = 0;
    gbuf_place(&b, 100, GUARD_HEAD, 0);
    memset(b.p, 0, 100);
    ST_CHECK(gbuf_check_canary(&b, &where) == 0, "writing all 100 bytes leaves the canary intact");
    b.p[100] = 0;
    ST_CHECK(gbuf_check_canary(&b, &where) == -1 && where == 100,
             "a write at byte 100 of a 100-byte buffer is found at offset 100");
    gbuf_place(&b, 100, GUARD_TAIL, 16);
    b.p[-3] ^= 1;
    ST_CHECK(gbuf_check_canary(&b, &where) == -1 && where == -3,
             "a write 3 bytes before the buffer is found at offset -3");
    gbuf_place(&b, 0, GUARD_TAIL, 0);
    ST_CHECK(gbuf_check_canary(&b, &where) == 0 && b.p == b.data + b.cap,
             "a zero-length buffer sits exactly at the guard page");
    gbuf_free(&b);
}

static void test_input(void)
{
    struct input in;
    uint8_t buf[64];
    input_init(&in, NULL, 0);
    ST_CHECK(input_range(&in, 5, 100) == 5 && input_length(&in, 300, NULL, 0) == 0,
             "an empty input decodes: control values at their minimum");
    input_bytes(&in, buf, sizeof buf);
    ST_CHECK(buf[0] == 0 && buf[63] == 0, "an empty input decodes: payload zero");

    const uint8_t data[] = {0x11, 0x22, 0x33, 0x44, 0x07};
    input_init(&in, data, sizeof data);
    ST_CHECK(input_range(&in, 0, 255) == 0x07, "control values come from the tail");
    input_bytes(&in, buf, 2);
    ST_CHECK(buf[0] == 0x11 && buf[1] == 0x22, "payload comes from the head");
    ST_CHECK(input_remaining(&in) == 2, "each byte is used once");

    /* Over many random inputs, lengths must hit 4k-1, 4k, 4k+1 and the maximum. */
    int hit[301] = {0};
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < 20000; i++) {
        uint8_t r[8];
        for (int j = 0; j < 8; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            r[j] = (uint8_t)x;
        }
        static const size_t widths[] = {4};
        input_init(&in, r, sizeof r);
        size_t n = input_length(&in, 300, widths, 1);
        if (n > 300) {
            ST_CHECK(0, "input_length stays within its maximum");
            return;
        }
        hit[n]++;
    }
    int edges = 1;
    for (int k = 1; k < 74; k++) edges &= hit[4 * k - 1] > 0 && hit[4 * k] > 0 && hit[4 * k + 1] > 0;
    ST_CHECK(edges && hit[0] > 100 && hit[300] > 100,
             "lengths cover 0, every 4k-1/4k/4k+1, and the maximum with weight");
}

static void test_cpu(void)
{
    uint64_t m;
    char err[160];
    ST_CHECK(cpu_parse_mask("-avx512f,-gfni", &m, err, sizeof err) == 0 &&
                 m == (CPU_AVX512F | CPU_GFNI),
             "mask '-avx512f,-gfni' parses");
    ST_CHECK(cpu_parse_mask("avx2", &m, err, sizeof err) == -1 &&
                 strstr(err, "must start with '-'"),
             "mask 'avx2' is refused: entries remove features");
    ST_CHECK(cpu_parse_mask("-avx9000", &m, err, sizeof err) == -1 && strstr(err, "unknown"),
             "mask '-avx9000' is refused as unknown");
    ST_CHECK(cpu_unavailable_reason(0) == NULL, "an implementation needing nothing is available");
}

/* FIPS 180-4 examples (the NIST "abc" and two-block messages) and the empty message. */
static void test_sha1(void)
{
    static const struct {
        const char *msg, *hex;
    } v[] = {
        {"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
        {"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint8_t d[20];
        char hex[41];
        sha1((const uint8_t *)v[i].msg, strlen(v[i].msg), d);
        for (int j = 0; j < 20; j++) snprintf(hex + 2 * j, 3, "%02x", d[j]);
        ST_CHECK(!strcmp(hex, v[i].hex),
                 "sha1 of a %zu-byte message (names libFuzzer's crash file)", strlen(v[i].msg));
    }
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "all";
    int any = 0;
    if (!strcmp(what, "guard") || !strcmp(what, "all")) test_guard(), any = 1;
    if (!strcmp(what, "input") || !strcmp(what, "all")) test_input(), any = 1;
    if (!strcmp(what, "cpu") || !strcmp(what, "all")) test_cpu(), any = 1;
    if (!strcmp(what, "sha1") || !strcmp(what, "all")) test_sha1(), any = 1;
    if (!any) {
        fprintf(stderr, "usage: %s [guard|input|cpu|sha1|all]\n", argv[0]);
        return 2;
    }
    return st_finish();
}
