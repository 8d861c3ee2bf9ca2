/* results.c — see results.h.  The record is built in a static buffer and written with one
 * write(2) per destination: no allocation, so a report from a signal handler can still write
 * its finding, and processes appending to one file never interleave inside a line. */
#include "results.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REC_MAX (64 * 1024)
#define DEPTH_MAX 8

static int file_fd = -1, to_stdout;
static const char *r_tool = "?", *r_family = "?", *r_mode = "?";
static char rec[REC_MAX];
static size_t len;
static int truncated, building;
static int first[DEPTH_MAX]; /* per nesting level: no element written yet */
static int depth;

void results_init(const char *tool, const char *family, const char *mode)
{
    const char *slash = tool ? strrchr(tool, '/') : NULL;
    r_tool = slash ? slash + 1 : tool ? tool : "?";
    r_family = family ? family : "?";
    r_mode = mode ? mode : "?";
    const char *path = getenv("ASMDIFF_RESULTS");
    if (path && *path && file_fd < 0) {
        file_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
        if (file_fd < 0) {
            fprintf(stderr, "asmdiff: ASMDIFF_RESULTS: cannot open %s: %s\n", path,
                    strerror(errno));
            exit(2);
        }
    }
}

void results_set_mode(const char *mode)
{
    r_mode = mode ? mode : "?";
}

void results_to_stdout(void)
{
    to_stdout = 1;
}

int results_on(void)
{
    return file_fd >= 0 || to_stdout;
}

static void put(const char *s, size_t n)
{
    if (len + n >= sizeof rec - 2) { /* room for "}\n" */
        truncated = 1;
        return;
    }
    memcpy(rec + len, s, n);
    len += n;
}

static void puts_(const char *s)
{
    put(s, strlen(s));
}

/* A JSON string: quotes, backslashes and control characters escaped; bytes that are not
 * UTF-8 text (>= 0x80) are kept as \u00XX so every line stays valid JSON whatever a kernel
 * name or a path holds. */
static void put_string(const char *s)
{
    static const char hex[] = "0123456789abcdef";
    put("\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[7] = "\\u00";
        if (*p == '"' || *p == '\\') {
            esc[0] = '\\', esc[1] = (char)*p;
            put(esc, 2);
        } else if (*p == '\n') {
            put("\\n", 2);
        } else if (*p == '\t') {
            put("\\t", 2);
        } else if (*p < 0x20 || *p >= 0x80) {
            esc[4] = hex[*p >> 4], esc[5] = hex[*p & 15];
            put(esc, 6);
        } else {
            put((const char *)p, 1);
        }
    }
    put("\"", 1);
}

static void key(const char *k)
{
    if (!building) return;
    if (!first[depth]) put(",", 1);
    first[depth] = 0;
    if (k) {
        put_string(k);
        put(":", 1);
    }
}

void jr_begin(const char *type)
{
    if (!results_on()) return;
    building = 1;
    len = 0;
    truncated = 0;
    depth = 0;
    first[0] = 1;
    put("{", 1);
    jr_int("v", 1);
    jr_str("type", type);
    jr_str("tool", r_tool);
    jr_str("family", r_family);
    jr_str("mode", r_mode);
    jr_int("pid", (long long)getpid());
}

void jr_str(const char *k, const char *value)
{
    if (!building) return;
    key(k);
    if (value) put_string(value);
    else puts_("null");
}

void jr_strf(const char *k, const char *fmt, ...)
{
    if (!building) return;
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    jr_str(k, buf);
}

void jr_int(const char *k, long long value)
{
    if (!building) return;
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", value);
    key(k);
    puts_(buf);
}

void jr_uint(const char *k, unsigned long long value)
{
    if (!building) return;
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", value);
    key(k);
    puts_(buf);
}

void jr_num(const char *k, double value)
{
    if (!building) return;
    char buf[64];
    /* JSON has no NaN or infinity: a value that is not finite is null */
    if (value != value || value > 1e308 || value < -1e308) snprintf(buf, sizeof buf, "null");
    else snprintf(buf, sizeof buf, "%.6g", value);
    key(k);
    puts_(buf);
}

void jr_bool(const char *k, int value)
{
    if (!building) return;
    key(k);
    puts_(value ? "true" : "false");
}

void jr_null(const char *k)
{
    if (!building) return;
    key(k);
    puts_("null");
}

static void open_(const char *k, const char *bracket)
{
    if (!building) return;
    key(k);
    puts_(bracket);
    if (depth + 1 < DEPTH_MAX) first[++depth] = 1;
}

static void close_(const char *bracket)
{
    if (!building) return;
    puts_(bracket);
    if (depth) depth--;
}

void jr_obj_begin(const char *k)
{
    open_(k, "{");
}

void jr_obj_end(void)
{
    close_("}");
}

void jr_list_begin(const char *k)
{
    open_(k, "[");
}

void jr_list_end(void)
{
    close_("]");
}

static void write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        p += w, n -= (size_t)w;
    }
}

void jr_end(void)
{
    if (!building) return;
    building = 0;
    if (truncated) {
        /* a record cut short would not parse: say so in a record that does */
        len = 0;
        depth = 0;
        first[0] = 1;
        building = 1;
        put("{", 1);
        jr_int("v", 1);
        jr_str("type", "error");
        jr_str("tool", r_tool);
        jr_str("message", "a record exceeded 64 KiB and was dropped");
        building = 0;
    }
    memcpy(rec + len, "}\n", 2);
    len += 2;
    if (file_fd >= 0) write_all(file_fd, rec, len);
    if (to_stdout) {
        fflush(stdout);
        write_all(1, rec, len);
    }
}
