/* results.c — see results.h.  A record is built in a static buffer and written with one
 * write(2) per destination: no allocation, so a report from a signal handler can still write
 * its finding, and processes appending to one file never interleave inside a line.
 *
 * Two builders: a record begun while another is being built (a signal handler's finding
 * arriving in the middle of the main code's record) gets the second one, so neither is
 * clobbered.  A record that outgrows its buffer keeps what fitted, is closed properly and
 * says `"truncated": true`: every line written parses. */
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
/* room kept free for what closes a record: a bracket per open level, the truncation mark,
 * "}\n" */
#define REC_RESERVE (DEPTH_MAX + 32)

struct builder {
    char rec[REC_MAX];
    size_t len;
    int building;
    int full;              /* a value did not fit: nothing more is added */
    int depth;             /* containers open in rec */
    int skipped;           /* containers opened after the record filled (not in rec) */
    int first[DEPTH_MAX];  /* per open level: no element written yet */
    char closer[DEPTH_MAX]; /* per open level: '}' or ']' */
};

static int file_fd = -1, to_stdout;
static const char *r_tool = "?", *r_family = "?", *r_mode = "?";
static struct builder builders[2];
static struct builder *b = &builders[0]; /* the record being built */

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

/* Appends n bytes unless that would eat into the reserve: then 0 and the record is full. */
static int put(const char *s, size_t n)
{
    if (b->len + n > sizeof b->rec - REC_RESERVE) {
        b->full = 1;
        return 0;
    }
    memcpy(b->rec + b->len, s, n);
    b->len += n;
    return 1;
}

static int puts_(const char *s)
{
    return put(s, strlen(s));
}

/* Length of the well-formed UTF-8 sequence at p (1..4), or 0 when p does not start one. */
static int utf8_len(const unsigned char *p)
{
    int n = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
    if (p[0] >= 0xf5) n = 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80) return 0;
    if (n == 3 && ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0))) return 0;
    if (n == 4 && ((p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))) return 0;
    return n;
}

/* A JSON string: quotes, backslashes and control characters escaped; well-formed UTF-8 kept
 * as it is; a byte that is not part of well-formed UTF-8 becomes \u00XX (its Latin-1 reading),
 * so every line stays valid JSON whatever a kernel name or a path holds. */
static int put_string(const char *s)
{
    static const char hex[] = "0123456789abcdef";
    int ok = put("\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p && ok; p++) {
        char esc[7] = "\\u00";
        int n;
        if (*p == '"' || *p == '\\') {
            esc[0] = '\\', esc[1] = (char)*p;
            ok = put(esc, 2);
        } else if (*p == '\n') {
            ok = put("\\n", 2);
        } else if (*p == '\t') {
            ok = put("\\t", 2);
        } else if (*p >= 0x80 && (n = utf8_len(p)) > 0) {
            ok = put((const char *)p, (size_t)n);
            p += n - 1;
        } else if (*p < 0x20 || *p >= 0x80) {
            esc[4] = hex[*p >> 4], esc[5] = hex[*p & 15];
            ok = put(esc, 6);
        } else {
            ok = put((const char *)p, 1);
        }
    }
    return ok && put("\"", 1);
}

/* One member: the key (NULL inside a list), then the value text or a JSON string.  All or
 * nothing: a member that does not fit is taken back whole, and the record is full. */
static void member(const char *k, const char *raw, const char *str)
{
    if (!b->building || b->full || b->skipped) return;
    size_t mark = b->len;
    int was_first = b->first[b->depth];
    int ok = 1;
    if (!was_first) ok = put(",", 1);
    if (ok && k) ok = put_string(k) && put(":", 1);
    if (ok) ok = raw ? puts_(raw) : put_string(str);
    if (!ok) {
        b->len = mark;
        b->full = 1;
        return;
    }
    b->first[b->depth] = 0;
}

void jr_begin(const char *type)
{
    if (!results_on()) return;
    /* a record begun inside another's building (a signal handler): the other builder */
    if (b->building) b = b == &builders[0] ? &builders[1] : &builders[0];
    b->building = 1;
    b->len = 0;
    b->full = 0;
    b->depth = 0;
    b->skipped = 0;
    b->first[0] = 1;
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
    if (value) member(k, NULL, value);
    else member(k, "null", NULL);
}

void jr_strf(const char *k, const char *fmt, ...)
{
    if (!b->building) return;
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    jr_str(k, buf);
}

void jr_int(const char *k, long long value)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", value);
    member(k, buf, NULL);
}

void jr_uint(const char *k, unsigned long long value)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", value);
    member(k, buf, NULL);
}

void jr_num(const char *k, double value)
{
    char buf[64];
    /* JSON has no NaN or infinity: a value that is not finite is null */
    if (value != value || value > 1e308 || value < -1e308) snprintf(buf, sizeof buf, "null");
    else snprintf(buf, sizeof buf, "%.6g", value);
    member(k, buf, NULL);
}

void jr_bool(const char *k, int value)
{
    member(k, value ? "true" : "false", NULL);
}

void jr_null(const char *k)
{
    member(k, "null", NULL);
}

static void open_(const char *k, const char *bracket, char closer)
{
    if (!b->building) return;
    /* past the nesting limit, or after the record filled: the container and everything in
     * it are left out (its close is matched by the count) */
    if (b->full || b->skipped || b->depth + 1 >= DEPTH_MAX) {
        b->skipped++;
        return;
    }
    size_t before = b->len;
    member(k, bracket, NULL);
    if (b->len == before) { /* it did not fit */
        b->skipped++;
        return;
    }
    b->first[++b->depth] = 1;
    b->closer[b->depth] = closer;
}

static void close_(void)
{
    if (!b->building) return;
    if (b->skipped) {
        b->skipped--;
        return;
    }
    if (!b->depth) return; /* a close without its open: the caller's bug, kept harmless */
    b->rec[b->len++] = b->closer[b->depth--]; /* the reserve holds it */
}

void jr_obj_begin(const char *k)
{
    open_(k, "{", '}');
}

void jr_obj_end(void)
{
    close_();
}

void jr_list_begin(const char *k)
{
    open_(k, "[", ']');
}

void jr_list_end(void)
{
    close_();
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
    if (!b->building) return;
    /* containers the caller left open are closed, innermost first */
    while (b->depth) b->rec[b->len++] = b->closer[b->depth--];
    if (b->full) {
        const char *mark = ",\"truncated\":true";
        memcpy(b->rec + b->len, mark, strlen(mark));
        b->len += strlen(mark);
    }
    memcpy(b->rec + b->len, "}\n", 2);
    b->len += 2;
    if (file_fd >= 0) write_all(file_fd, b->rec, b->len);
    if (to_stdout) {
        fflush(stdout);
        write_all(1, b->rec, b->len);
    }
    b->building = 0;
    /* back to the record this one interrupted, if any */
    struct builder *other = b == &builders[0] ? &builders[1] : &builders[0];
    if (other->building) b = other;
}
