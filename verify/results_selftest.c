/* results_selftest.c — the records results.c writes are JSON that parses to exactly what was
 * given; verify/results_selftest.py runs this program and checks every line with python3's json
 * module.  The records, in order, on standard output:
 *
 *   escaping:  strings with quotes and backslashes, every control byte 0x01..0x1f, bytes >= 0x80
 *              that are not UTF-8 (\u00XX), well-formed UTF-8 (kept), an empty string; keys
 *              that need escaping; numbers at their limits; NaN (null), booleans, null.
 *   nesting:   objects in lists in objects, empty ones, and containers the caller left open.
 *   deep:      nesting past the limit (8): what is deeper is left out, the record still parses.
 *   big:       a record over 64 KiB: the members that fit, "truncated": true, still one line.
 *   nested:    a record begun inside another's building (as from a signal handler): both whole.
 *
 * `--control-broken` adds one line that is not JSON: the checker must reject it (a test that
 * must fail, the proof that the checker can). */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "results.h"

static void escaping(void)
{
    char controls[32];
    for (int i = 1; i < 32; i++) controls[i - 1] = (char)i;
    controls[31] = 0;
    jr_begin("escaping");
    jr_str("quotes", "say \"hi\" \\ back\\slash \\\"");
    jr_str("controls", controls);
    jr_str("high", "\x80\xff\xc3(\xe2\x82 end"); /* not UTF-8: a lone continuation, 0xff,
                                                      a cut 2-byte and a cut 3-byte sequence */
    jr_str("utf8", "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x94\x91");
    jr_str("overlong", "\xc0\xaf \xe0\x80\xaf \xed\xa0\x80"); /* not well-formed: escaped */
    jr_str("empty", "");
    jr_str("key \"with\" \n", "v");
    jr_str("null_str", NULL);
    jr_int("int_min", LLONG_MIN);
    jr_int("int_max", LLONG_MAX);
    jr_uint("uint_max", ULLONG_MAX);
    jr_num("pi", 3.25);
    jr_num("nan", 0.0 / 0.0);
    jr_num("inf", 1.0 / 0.0);
    jr_bool("yes", 1);
    jr_bool("no", 0);
    jr_null("nothing");
    jr_strf("formatted", "%s=%d", "n", 42);
    jr_end();
}

static void nesting(void)
{
    jr_begin("nesting");
    jr_list_begin("list");
    jr_obj_begin(NULL);
    jr_str("name", "a");
    jr_list_begin("inner");
    jr_int(NULL, 1);
    jr_str(NULL, "two");
    jr_list_end();
    jr_obj_end();
    jr_obj_begin(NULL);
    jr_obj_end();
    jr_list_end();
    jr_obj_begin("empty_obj");
    jr_obj_end();
    jr_list_begin("empty_list");
    jr_list_end();
    jr_obj_begin("left_open");
    jr_list_begin("also_open");
    jr_int(NULL, 7);
    jr_end(); /* the caller forgot two closes: they are added */
}

static void deep(void)
{
    jr_begin("deep");
    for (int i = 0; i < 12; i++) jr_obj_begin("d");
    jr_str("leaf", "x");
    for (int i = 0; i < 12; i++) jr_obj_end();
    jr_str("after", "kept");
    jr_end();
}

static void big(void)
{
    static char chunk[10001];
    memset(chunk, 'x', sizeof chunk - 1);
    chunk[0] = '"'; /* escaped: 2 bytes */
    jr_begin("big");
    jr_str("before", "kept");
    jr_list_begin("chunks");
    for (int i = 0; i < 8; i++) jr_str(NULL, chunk);
    jr_list_end();
    jr_str("after", "dropped");
    jr_end();
}

static void on_signal(int sig)
{
    (void)sig;
    jr_begin("from-handler");
    jr_str("where", "signal handler");
    jr_end();
}

static void nested(void)
{
    signal(SIGUSR1, on_signal);
    jr_begin("interrupted");
    jr_str("first", "before the signal");
    jr_obj_begin("obj");
    raise(SIGUSR1);
    jr_str("second", "after the signal");
    jr_obj_end();
    jr_end();
}

int main(int argc, char **argv)
{
    int control = argc > 1 && !strcmp(argv[1], "--control-broken");
    if (argc > 1 && !control) {
        fprintf(stderr, "usage: results_selftest [--control-broken]\n");
        return 2;
    }
    results_init(argv[0], "selftest", "selftest");
    results_to_stdout();
    escaping();
    nesting();
    deep();
    big();
    nested();
    if (control) {
        static const char broken[] = "{\"v\":1,\"type\":\"broken\",\"s\":\"a\"b\"}\n";
        fflush(stdout);
        if (write(1, broken, sizeof broken - 1) < 0) return 2;
    }
    return 0;
}
