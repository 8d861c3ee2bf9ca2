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
 *     cpu features   = ...
 *     reproduce      : ./asmdiff fuzz aria findings/aria/crash-<sha1>
 *
 * then the process ends: abort() in a fuzzing build (libFuzzer keeps the input), exit status 1
 * elsewhere (report_exit_status).  The `check` line names the check that fired, so a mutant
 * can say which check must catch it.
 */
#ifndef ASMDIFF_REPORT_H
#define ASMDIFF_REPORT_H

#include <stddef.h>
#include <stdint.h>

enum finding {
    FINDING_MISMATCH,       /* an output differs from the reference's */
    FINDING_ABI,            /* callee-saved register, rsp, flags, MXCSR, x87 state */
    FINDING_RESIDUE,        /* data left in a vector or opmask register */
    FINDING_STACK,          /* data left on the stack below the caller's frame */
    FINDING_GUARD_PAGE,     /* an access to the unmapped page next to a buffer */
    FINDING_CANARY,         /* a write next to a buffer, inside its page */
    FINDING_INPUT_MODIFIED, /* an input the call must not write was written */
    FINDING_EMULATOR,       /* the emulator met an instruction it cannot run: no verdict */
    FINDING_BOUNDS,         /* (Unicorn) an access outside every buffer of the call, byte-exact */
    FINDING_TRACE,          /* (Unicorn) the trace depends on a secret: branch or address */
    FINDING_EMU_DIFF,       /* (emu-diff) the emulator and the CPU disagree on a kernel call */
    FINDING_COUNT
};

/* "mismatch", "abi", "residue", "stack", "guard-page", "canary", "input-modified", "emulator",
 * "bounds", "ct-trace", "emu-diff" */
const char *finding_name(enum finding kind);

/* The family being checked and a function printing the current case's context (implementation,
 * operation, parameters, buffers); set once by the driver. */
void report_set_context(const char *family, void (*context)(void));
/* The input being checked (for libFuzzer's crash file name in the reproduce line). */
void report_set_input(const uint8_t *data, size_t size);
/* The file being replayed, or NULL. */
extern const char *report_current_file;
/* 0 (default): abort at the end of a report; else exit with this status, after saving the
 * input to findings/<family>/crash-<sha1>. */
extern int report_exit_status;
/* For cases built by a mode rather than decoded from an input (kat, exhaustive): the command
 * that runs the mode again. */
extern const char *report_rerun;
/* The command that checks one input file the way this run checked it, when that is not
 * `./asmdiff fuzz <family> FILE` (the Unicorn modes: "build/asmdiff-nh bounds"); else NULL. */
extern const char *report_replay_cmd;

/* Start a report: the heading, the check line, then the context. */
void report_begin(enum finding kind, const char *title);
/* One parameter line: "  <name> = <value>". */
void report_param(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hex dump with a label. */
void report_hex(const char *label, const void *p, size_t n);
/* First differing byte and dumps of both buffers (the whole buffer when short, else a window). */
void report_diff(const char *exp_name, const void *exp, const char *act_name, const void *act,
                 size_t n);
/* CPU features, the reproduce command, then the end of the process. */
__attribute__((noreturn)) void report_end(void);

/* A whole report of one line of detail, for findings raised outside the driver's own code
 * (ABI check, guard-page fault). */
__attribute__((noreturn)) void report_simple(enum finding kind, const char *who,
                                             const char *what);

#endif
