/* results.h — the result stream: JSON lines for programs (docs/results.md), beside the human
 * text for people.
 *
 * Records go to the file ASMDIFF_RESULTS names (appended, one write(2) per line, so processes
 * can share it) and, after results_to_stdout(), to standard output.  When neither is set every
 * function here does nothing (results_on() is 0), so the human-only path costs nothing.
 *
 * A record is built with the jr_* calls between jr_begin and jr_end; the common fields (v,
 * type, tool, family, mode, pid) are added by jr_begin.  A record may be begun while another
 * is being built (a finding reported from a signal handler): it is built apart and the first
 * goes on after it.  A record over 64 KiB keeps the members that fit, is closed properly and
 * carries "truncated": true.  Strings are escaped as JSON requires (well-formed UTF-8 kept,
 * other bytes >= 0x80 as \u00XX); NULL strings become null. */
#ifndef ASMDIFF_RESULTS_H
#define ASMDIFF_RESULTS_H

#include <stdint.h>

/* Once, before any record: the program's name (argv[0]'s base name), the family and the mode
 * ("replay", "libfuzzer", ...).  Opens ASMDIFF_RESULTS when set. */
void results_init(const char *tool, const char *family, const char *mode);
/* The mode, when it is known only later (tool_main sets it after parsing its arguments). */
void results_set_mode(const char *mode);
/* Records also on standard output (asmdiff-F --json). */
void results_to_stdout(void);
/* 1 when records go anywhere. */
int results_on(void);

void jr_begin(const char *type);
void jr_str(const char *key, const char *value); /* NULL: null */
void jr_strf(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void jr_int(const char *key, long long value);
void jr_uint(const char *key, unsigned long long value);
void jr_num(const char *key, double value);
void jr_bool(const char *key, int value);
void jr_null(const char *key);
/* Nested values: jr_obj_begin("params") ... jr_obj_end(); jr_list_begin("argv") ... with
 * key NULL for the list's elements ... jr_list_end(). */
void jr_obj_begin(const char *key);
void jr_obj_end(void);
void jr_list_begin(const char *key);
void jr_list_end(void);
/* Writes the record as one line. */
void jr_end(void);

#endif
