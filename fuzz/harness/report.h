/* report.h — the mismatch report: the only code that prints a finding.
 *
 * A finding names the family, the implementations compared, every parameter, the first differing
 * offset with hex dumps of expected and actual, and the CPU features in use; then it aborts from
 * a non-inlined per-family function (ASMDIFF_DEFINE_CRASH), so each family has its own crash
 * signature in libFuzzer and ClusterFuzz.
 */
#ifndef ASMDIFF_REPORT_H
#define ASMDIFF_REPORT_H

#include <stddef.h>
#include <stdint.h>

/* Start a report: "asmdiff: MISMATCH in <family>: <what>". */
void report_begin(const char *family, const char *what);
/* One parameter line: "  <name> = <value>". */
void report_param(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hex dump with a label. */
void report_hex(const char *label, const void *p, size_t n);
/* First differing byte and dumps of both buffers (the whole buffer when short, else a window). */
void report_diff(const char *exp_name, const void *exp, const char *act_name, const void *act,
                 size_t n);
/* CPU features, the file being replayed, the command to reproduce; then crash(), which must be
 * the family's ASMDIFF_DEFINE_CRASH function. */
__attribute__((noreturn)) void report_end(const char *family, void (*crash)(void));

/* The input file being replayed (set by the replay driver), for the reproduce line. */
extern const char *report_current_file;

/* Defines asmdiff_mismatch_<family>(): a distinct non-inlined frame that aborts. */
#define ASMDIFF_DEFINE_CRASH(family)                                                         \
    __attribute__((noinline, noreturn)) static void asmdiff_mismatch_##family(void)          \
    {                                                                                        \
        static volatile const char *const tag = #family;                                     \
        (void)*tag;                                                                          \
        abort();                                                                             \
    }

#endif
