/* report.h — the one printer of findings.
 *
 * Every finding — a mismatch, an ABI violation, data left in a register or on the stack, a
 * guard-page fault, a changed canary, a modified input — is printed here in one format:
 *
 *   ==== asmdiff: MISMATCH in aria: x86_64-avx2-gfni ecb-encrypt: output differs from ...
 *     check          = mismatch
 *     implementation = x86_64-avx2-gfni
 *     operation      = ecb-encrypt
 *     <the family's parameters, the buffers and their placement>
 *     <what differs: first differing byte, hex dumps>
 *     location       = message, byte 240 relative to its start            (when known)
 *     instruction    = nh_sse2_permload+0x2d (kernels/nh/nh-x86_64-sse2-permload.S:87)
 *     cpu features   = ...
 *     reproduce      : ./asmdiff fuzz aria findings/aria/crash-<sha1>
 *
 * Under report_go_on (tool mode) the run goes on: the first report of each
 * (implementation, check) pair is printed in full, its input saved (findings/<family>/
 * crash-<sha1>) and recorded as a `finding` (docs/results.md); a later report of the same pair
 * is only counted.  Under report_stop_at_first (a fuzzing build) the first report ends the
 * process with abort(), and libFuzzer keeps the input.  A fault while a report is being made
 * ends the process in both.  The `check` line names the check that fired, so a mutant can say
 * which check must catch it.
 */
#ifndef ASMDIFF_REPORT_H
#define ASMDIFF_REPORT_H

#include <stddef.h>
#include <stdint.h>

/* The kinds of finding: one table, checks.def (names, headings, verdict rows). */
enum finding {
#define CHECK(e, name, heading, row, describe) FINDING_##e,
#include "checks.def"
#undef CHECK
    FINDING_COUNT
};

/* "mismatch", "abi", ... and "MISMATCH", "ABI VIOLATION", ... (checks.def) */
const char *finding_name(enum finding kind);
const char *finding_heading(enum finding kind);

/* The family being checked and a function printing the current case's context (implementation,
 * operation, parameters, buffers); set once by the driver. */
void report_set_context(const char *family, void (*context)(void));
/* The input being checked (for libFuzzer's crash file name in the reproduce line). */
void report_set_input(const uint8_t *data, size_t size);
/* The file being replayed, or NULL. */
extern const char *report_current_file;
/* What a report does once it is printed, chosen by the program's entry point (not a flag the
 * core tests): report_stop_at_first (fuzz_main.c, the default) ends the process with abort()
 * at the first report, and libFuzzer keeps the input; report_go_on (tool_main.c) returns, each
 * distinct finding's input saved to findings/<family>/crash-<sha1>, and the process's status
 * after a finding, or a fault while reporting, is its exit_status (1). */
struct report_policy {
    const char *name;
    int go_on;       /* 1: reports return and the run goes on */
    int exit_status; /* go_on: the status a finding leaves the process with */
};
extern const struct report_policy report_stop_at_first, report_go_on;
void report_set_policy(const struct report_policy *policy);
const struct report_policy *report_policy(void);
/* For cases built by a mode rather than decoded from an input (kat, exhaustive): the command
 * that runs the mode again. */
extern const char *report_rerun;
/* The command that checks one input file the way this run checked it, when that is not
 * `./asmdiff fuzz <family> FILE` (the Unicorn modes: "build/asmdiff-nh bounds"); else NULL. */
extern const char *report_replay_cmd;

/* Start a report: the heading, the check line, then the context.  The context's
 * "implementation" (less a " (library)" suffix), "operation" and "placement" parameters become
 * the record's fields of those names; its other parameters the record's `params`; parameters
 * given after it, the record's `details`. */
void report_begin(enum finding kind, const char *title);
/* One parameter line: "  <name> = <value>". */
void report_param(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Inside a report: one buffer placed for the call (a context line, and the finding record's
 * `buffers` list). */
void report_buffer(const char *name, size_t len, const void *p, const char *place,
                   size_t offset);
/* Inside a report: the buffer the finding is about and the byte offset in it (negative:
 * before its start). */
void report_location(const char *buffer, long offset);
/* Inside a report: the instruction the finding is about, by its run-time address: printed as
 * symbol+offset with its source line where the build has line information. */
void report_instruction(uintptr_t pc);
/* The part of the environment that chose what ran, as a reproduce line spells it
 * ("ASMDIFF_CPU_MASK=-gfni "; "" when nothing). */
const char *report_env(void);
/* Distinct findings reported in this run, and every finding (repeats included). */
unsigned long long report_findings(void);
unsigned long long report_finding_events(void);

/* Inside a report: the finding's own message, without implementation and operation (the
 * record's `what`).  Optional: without it `what` is the title less its "<implementation>
 * <operation>: " prefix. */
void report_what(const char *what);

/* Hex dump with a label. */
void report_hex(const char *label, const void *p, size_t n);
/* First differing byte and dumps of both buffers (the whole buffer when short, else a window). */
void report_diff(const char *exp_name, const void *exp, const char *act_name, const void *act,
                 size_t n);
/* CPU features and the reproduce command; the record written.  Returns in tool mode: 1 when
 * this report was printed (the first of its implementation and check), 0 for a repeat (only
 * counted).  Aborts in libFuzzer mode. */
int report_end(void);

/* A whole report of one line of detail, for findings raised outside the driver's own code
 * (ABI check, guard-page fault); returns as report_end does. */
int report_simple(enum finding kind, const char *who, const char *what);
/* report_simple with where it happened: the buffer and byte offset (buffer NULL: none) and the
 * faulting instruction (pc 0: none), e.g. a guard-page fault from its signal context. */
int report_fault(enum finding kind, const char *who, const char *what, const char *buffer,
                 long offset, uintptr_t pc);

#endif
