"""judge.py — what a stage's records say of each outside kernel: a stage's rows as they run,
then the property rows, every finding in the row its check establishes (checks.def)."""
import os
import re
import shlex

from .. import builds, fuzzing, results, stage

# the line a program of ours writes when no mode line fits (report.c: `./asmdiff fuzz FAMILY
# FILE`): the default build's fuzzer, which holds our kernels, not the check build's
DEFAULT_LINE = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*=\S* )*\./asmdiff fuzz ")

# The properties every call of every stage is checked for, per architecture (what the checked
# call of fuzz/harness/abi.c checks there): their rows, always printed; a property the
# architecture's checked call does not check is an n/a row saying so (detail None, the reason).
GUARD_PAGES = ("guard pages", "every buffer flush against the unmapped page after it and the "
                              "one before it, canaries when misaligned, inputs unchanged")
PROPERTIES = {
    "x86_64": (
        ("checked call", "callee-saved registers, rsp, DF, MXCSR, x87 state, junk in narrow "
                         "arguments: on every call"),
        ("vector leftovers", "xmm/ymm/zmm and k registers after return ({conv}: {rule})"),
        ("stack leftovers", "the 8 KiB below the caller's frame ({conv}: {rule})"),
        GUARD_PAGES,
    ),
    "riscv64": (
        ("checked call", "callee-saved s0-s11 and fs0-fs11, sp, gp, tp, frm, vstart zero on "
                         "return: on every call"),
        ("vector leftovers", "v0-v31 after return ({conv}: {rule})"),
        ("stack leftovers", None, "not checked on riscv64: the checked call scans the stack "
                                  "below the caller's frame on x86-64 only"),
        GUARD_PAGES,
    ),
}
LEFTOVER_RULES = {"linux": "leftovers allowed", "libgcrypt": "checked",
                  "asmdiff": "must be cleared", "openssl": "leftovers allowed",
                  "win64": "leftovers allowed"}


def distinct(findings):
    """One per (check, implementation): every stage reports the same bug again."""
    seen, out = set(), []
    for f in findings:
        key = (f.get("check"), f.get("implementation"))
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def set_aside(env, aside):
    """(the environment, the row note) of a stage run again without the kernels in aside
    (ASMDIFF_SET_ASIDE, driver.c): a fuzzer or memcheck stops at its first finding, so the
    other kernels get a run of their own."""
    if not aside:
        return env, ""
    return (dict(env, ASMDIFF_SET_ASIDE=";".join(aside)),
            f" (run again without {', '.join(aside)}, whose finding stopped the first run)")


def outside_counts(recs, name=None):
    """(cases, calls, skipped, refused) of the outside kernel named name (None: the only one)
    in a stage's records: the last impl record with counts of each process (a fuzzer writes its
    own at its end), summed; None when no record counted it.  refused: the cases outside its
    convention's contract, not run on it (the convention's accepts)."""
    last = {}
    for r in results.of_type(recs, "impl"):
        if r.get("kind") == "outside" and r.get("calls") is not None and \
                (name is None or r.get("name") == name):
            last[r.get("pid")] = r
    if not last:
        return None
    return tuple(sum(r.get(k) or 0 for r in last.values())
                 for k in ("cases", "calls", "skipped_cases", "refused_cases"))


def command_line(words):
    """A command line of ./asmdiff (run in this checkout), its words quoted for the shell, with
    ASMDIFF_BUILD in front when the command ran on another build folder than the default."""
    env = "" if os.path.realpath(builds.BUILD) == os.path.realpath(
        os.path.join(builds.TOP, "build")) else f"ASMDIFF_BUILD={shlex.quote(builds.BUILD)} "
    return env + " ".join(shlex.quote(w) for w in words)


class FailFast(Exception):
    """--fail-fast: a stage found something; the stages after it are not run."""

    def __init__(self, stage_name):
        super().__init__(stage_name)
        self.stage_name = stage_name


FAIL_FAST_NOT_RUN = "the stages after it, coverage and the bench did not run"


class Judge:
    """Collects what the stages' records say: the stage rows as they run, then the property
    rows, every finding in the row its check establishes (checks.def)."""

    def __init__(self, v, row_of, again):
        self.v, self.row_of, self.again = v, row_of, again
        self.findings = []      # finding records, reproduce made to name this check
        self.infos = {}         # (kind, check) -> message: one per kind of leftover
        self.complete = 0       # stages that ran every case to their end
        self.symbol = "the kernel"
        self.precondition = ""  # the convention's prototype and precondition, for a reason
        self.checked_calls = 0  # calls of the kernel through the checked call (property rows)
        self.total_calls = 0    # calls of the kernel in every stage
        self.precondition_rows = []  # rows whose cases none met the convention's precondition
        self.by_stage = {}      # stage row -> its distinct findings (--baseline compares them)
        self.covers = []        # the operations the kernel was checked as
        self.row_of.setdefault("valgrind-ct", "constant time (valgrind)")
        # the outside kernels of the check build: {"name", "role": "new" or "old", "pair": the
        # new one's name an old one is compared with}; one, unnamed, by default
        self.slots = [{"name": None, "role": "new"}]
        self.checked_by = {}    # calls through the checked call, per kernel (property rows)
        self.compared = []      # (stage row, old slot, its calls, its findings) for --baseline
        self.fail_fast = False  # --fail-fast: stage() raises FailFast after a stage's finding

    def new_slots(self):
        return [sl for sl in self.slots if sl["role"] == "new"]

    def reproduce(self, st, f, unit=None):
        """The one-line command for a finding, run in this checkout (./asmdiff): with a saved
        input, the check itself on that file (its absolute path: the line must not depend on
        the folder the check ran in); a case a mode built (kat, exhaustive) reproduces with the
        tool's own line (the check build's program, by its absolute path)."""
        if f.get("reproduce_final"):
            return f["reproduce_final"]  # a line the caller made (riscv64: at its VLEN)
        saved = f.get("input") or unit
        if not saved:
            return f.get("reproduce") or ""
        return f"{st.start.get('env', '')}{self.again} {shlex.quote(os.path.abspath(saved))}"

    def stage(self, st, name, detail, libfuzzer=False, checked=True, only=None, note=""):
        """One stage's rows from its records: one per outside kernel (the kernel's name after
        the stage's when there are several); an old file's (--baseline) is kept for the "new
        vs old" rows.  checked: its calls go through the checked call (the property rows count
        them).  only: the kernels (by name) this run of the stage judges (a fuzz stage run
        again without the kernels that had findings: fuzz() below); note: said after a pass."""
        for i in results.of_type(st.recs, "info"):
            if i.get("kind") == "allowed-leftover":
                self.infos.setdefault((i.get("kind"), i.get("check")), i)
        several = len(self.new_slots()) > 1
        outcome = "ran"
        for sl in self.slots:
            who = sl["name"]
            if only is not None and who not in only:
                continue
            fs = distinct([f for f in st.findings
                           if who is None or f.get("implementation") == who])
            counts = outside_counts(st.recs, who)
            if sl["role"] == "old":
                self.compared.append((name, sl, counts[1] if counts else 0, fs))
                continue
            row = f"{name}: {who}" if several else name
            got = self.stage_row(st, row, detail, libfuzzer, checked, who or self.symbol, fs,
                                 counts, note)
            self.by_stage[(name, who)] = fs
            if who is None:
                self.by_stage[name] = fs
            outcome = got if outcome == "ran" else outcome
        if not libfuzzer and st.summary and st.summary.get("verdict") in ("pass", "finding"):
            self.complete += 1
        if self.fail_fast and outcome == "finding":
            raise FailFast(name)
        return outcome

    def stage_row(self, st, name, detail, libfuzzer, checked, symbol, fs, counts, note=""):
        """The row of one kernel in one stage."""
        cases, calls, _, refused = counts or (0, 0, 0, 0)
        of = f"{calls} calls of {symbol}"
        # the row's kernel and counts, for its JSON record
        k = dict(kernel=symbol, cases=counts[0] if counts else None,
                 calls=counts[1] if counts else None)
        s = st.summary
        # another kernel's finding (the old file's, or another entry point's) ends the stage
        # with 1: this one's row is judged on its own records
        others = st.rc not in (0, 77) and st.findings and not fs
        rc = 0 if others else st.rc
        if fs:
            stage.print_reports(st)
            unit = fuzzing.unit_written(st.text) if libfuzzer else None
            for f in fs:
                # a native stage's saved input reproduces through the check itself; another
                # mode's (bounds, ct-trace, emu-diff, ct) with that mode's own line
                # (and any stage's line that names the default build, `./asmdiff fuzz`)
                own = f.get("reproduce") or ""
                f = dict(f, reproduce=self.reproduce(st, f, unit)
                         if checked or DEFAULT_LINE.match(own) else own)
                f.pop("reproduce_final", None)
                self.findings.append(f)
                self.v.add_finding(name, f, **k)
        elif counts is not None and not cases and s and s.get("cases"):
            # it could run, and none of the cases was one its convention admits: nothing this
            # stage says; a failure if no stage of the check called it (properties)
            self.v.add(name, "n/a", f"none of the {s['cases']} cases met the convention's "
                       f"precondition ({self.precondition})", **k)
            self.precondition_rows.append(len(self.v.rows) - 1)
            return "precondition"
        elif rc == 77:
            self.v.not_established(name, f"0 calls of {symbol}: {st.reason()}", **k)
        elif rc:
            self.v.add(name, "FAIL", st.reason(), **k)
        elif not libfuzzer and s is None:
            self.v.add(name, "FAIL", "exit 0 without a summary record (docs/results.md)", **k)
        elif not calls and others:
            self.v.not_established(name, f"0 calls of {symbol}: the stage stopped at another "
                                   f"kernel's finding first ({stage.heading(st.findings[0])})",
                                   **k)
        elif not calls:
            self.v.not_established(name, f"0 calls of {symbol} "
                                   f"({detail(st) or 'no count of its calls in the records'})",
                                   **k)
        elif libfuzzer:
            self.v.add(name, "pass", f"{of} in {detail(st)}" +
                       (" (stopped at another kernel's finding)" if others else "") + note, **k)
        else:
            # the kernel's own calls; the stage's total when oracles (libraries) ran too
            d = f"{cases} cases, {of}"
            if s.get("calls", calls) != calls:
                d += f" ({s.get('calls')} checked calls with the oracles)"
            if refused:
                d += (f"; {refused} cases outside its convention's contract, not run on it "
                      "(refused)")
            self.v.add(name, "pass", d + note, **k)
        if checked:
            self.checked_calls += calls
            self.checked_by[symbol] = self.checked_by.get(symbol, 0) + calls
        self.total_calls += calls
        return "finding" if fs else "ran"

    def properties(self, conv, arch="x86_64"):
        """The property rows of the architecture the kernel ran on, each with the calls it
        judged; then any other row a finding belongs to (output, emulated run, bounds,
        constant time)."""
        if not self.total_calls:
            # no stage called the kernel: a convention whose precondition no case met
            for i in self.precondition_rows:
                c, _, d = self.v.rows[i]
                self.v.rows[i] = (c, "FAIL", f"{d}: {self.symbol} was never called")
                self.v.bad = True
        by_row = {}
        for f in distinct(self.findings):
            by_row.setdefault(self.row_of.get(f.get("check"), f.get("check")), []).append(f)
        # leftovers a convention allowed; an old file's (--baseline) allow nothing of the new
        olds = tuple(f"{sl['name']}: " for sl in self.slots if sl["role"] == "old")
        allowed = {self.row_of.get(c) for (_, c), i in self.infos.items()
                   if not (olds and i.get("message", "").startswith(olds))}
        n = self.checked_calls
        # with several kernels, each one's share (a kernel with none is not established)
        per = (" (" + ", ".join(f"{k} {c}" for k, c in self.checked_by.items()) + ")"
               if len(self.checked_by) > 1 else "")
        idle = [k for k, c in self.checked_by.items() if not c]
        for row, detail, *why in PROPERTIES[arch]:
            if detail is None and row not in by_row:
                self.v.add(row, "n/a", why[0])
            elif row in by_row:
                for f in by_row.pop(row):
                    self.v.add_finding(row, f)
            elif not self.complete:
                self.v.not_established(row, "no stage ran every case to its end (see the rows "
                                            "above)")
            elif not n:
                self.v.not_established(row, f"0 calls of {self.symbol} were checked", calls=0)
            elif idle:
                self.v.not_established(row, f"0 calls of {', '.join(idle)} were checked{per}",
                                       calls=n)
            elif row in allowed:
                self.v.add(row, "pass", f"{n} calls checked{per}: data left, which the {conv} "
                                        "convention allows (info below)", calls=n)
            else:
                rule = LEFTOVER_RULES.get(conv, "?")
                self.v.add(row, "pass", f"{n} calls checked{per}: " +
                           detail.format(conv=conv, rule=rule), calls=n)
        for row, fs in by_row.items():
            for f in fs:
                self.v.add_finding(row, f)
        for i in self.infos.values():
            self.v.add("  info", "info", i.get("message", ""))
