"""check.py — `./asmdiff check FAMILY --kernel FILE.S --symbol NAME`: an outside kernel (a Linux
or libgcrypt patch) built as one more implementation of a family and put through every stage
our kernels get (kat, exhaustive, seeds, random, libFuzzer; the Unicorn bounds and ct-trace
modes; emu-diff; the whole set again emulated when it has AVX-512 or GFNI instructions;
Valgrind memcheck's constant time where the family registers it), then a verdict table: one
row per stage and one per property, every finding in its property's row with the command
that reproduces it.

The verdicts come from each stage's result stream (stage.py): findings from `finding`
records, the row of a check from checks.def's `row` column, counts from `summary` records,
what the kernel covers from its `impl` record, and how many calls of the outside kernel a
stage made from the `calls` of its impl records.  A row whose stage made no call of the
kernel establishes nothing ("not established"), and the verdict is then not clean.  The
reports are passed through as printed."""
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

from . import bench, builds, coverage, encoding, fuzzing, results, sarif, stage
from .builds import TOP, die

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
                  "asmdiff": "must be cleared"}
# Memcheck's exit status for its own errors (verify/valgrind_ct.sh uses the same).
MEMCHECK_ERROR = 42
VALGRIND_CT_CASES = "200"
# Instructions that mean the kernel needs AVX-512 or GFNI (when --needs does not say), and the
# features the emulated set masks.
EMULATED_FEATURES = ("avx512f", "avx512bw", "avx512vl", "avx512vbmi", "gfni", "vaes",
                     "vpclmulqdq")


class Verdict:
    """The verdict table: rows of (check, result, detail); the exit status from them."""

    def __init__(self):
        self.rows, self.bad, self.ran = [], False, False
        self.unestablished = []  # rows that made no call of the outside kernel

    def add(self, check, result, detail):
        self.rows.append((check, result, detail))
        self.bad |= result in ("FINDING", "FAIL")
        # building and naming what is covered is not testing it
        self.ran |= result in ("pass", "FINDING") and check not in ("build", "operations")

    def not_established(self, check, why):
        """A row that made no call of the outside kernel: nothing is known of it."""
        self.rows.append((check, "-", f"not established: {why}"))
        self.unestablished.append(check)

    def print(self, title):
        print(f"\n== {title}")
        w = max(len(r[0]) for r in self.rows) + 2
        print(f"{'check':<{w}} {'result':<8} detail")
        for c, r, d in self.rows:
            print(f"{c:<{w}} {r:<8} {d}")
        if self.bad:
            print("check: FINDINGS or failures (each finding reproduces with the command in its "
                  "row)")
            return 1
        if not self.ran:
            # nothing of the kernel ran: no verdict on it is possible, which is not a pass and
            # not a skip (docs/check-your-patch.md: NOT CLEAN, exit 1)
            print("check: NOT CLEAN: no stage could call the kernel here (see the rows)")
            return 1
        if self.unestablished:
            print(f"check: NOT CLEAN: {len(self.unestablished)} rows not established (no call "
                  f"of the kernel: {', '.join(self.unestablished)}); see their rows")
            return 1
        print("check: clean")
        return 0


def guess_convention(path, depth=0):
    """The convention a source is written in, from the headers it (or a neighbour it includes
    by a quoted name) includes."""
    with open(path, errors="replace") as f:
        text = f.read()
    if depth < 3:
        for inc in re.findall(r'#\s*include\s*"([^"]+)"', text):
            near = os.path.join(os.path.dirname(path), inc)
            if os.path.isfile(near):
                conv, why = guess_convention(near, depth + 1)
                if conv != "asmdiff":
                    return conv, why
    if re.search(r"#\s*include\s*<linux/", text):
        return "linux", "it includes <linux/...>"
    if re.search(r'#\s*include\s*[<"](asm-common-amd64\.h|sysdep\.h)', text):
        return "libgcrypt", "it includes libgcrypt's assembly headers"
    return "asmdiff", "no Linux or libgcrypt header is included"


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


def compile_check_build(v, bdir, targets):
    """Compile the check build's targets (niced: a check runs beside the user's work); on failure
    the compiler's errors are printed and the build row fails.  True when it built."""
    p = subprocess.run(["nice", "-n", "10", "meson", "compile", "-C", bdir] + targets,
                       capture_output=True, text=True)
    if not p.returncode:
        return True
    errs = compiler_errors(p.stdout + p.stderr)
    print("\n".join(errs[:30]))
    v.add("build", "FAIL", (errs[0] if errs else "meson compile failed") +
          f" (full log: meson compile -C {bdir} {' '.join(targets)})")
    return False


def compiler_errors(text):
    """The compiler's or linker's own words first (file:line: error, undefined reference)."""
    lines = text.splitlines()
    return [l for l in lines if any(s in l for s in ("undefined reference", ": error:", "Error:"))
            and not l.startswith(("clang", "gcc", "cc:", "FAILED"))] or \
        [l for l in lines if "error" in l or "Error" in l]


def outside_counts(recs, name=None):
    """(cases, calls, skipped) of the outside kernel named name (None: the only one) in a
    stage's records: the last impl record with counts of each process (a fuzzer writes its own
    at its end), summed; None when no record counted it."""
    last = {}
    for r in results.of_type(recs, "impl"):
        if r.get("kind") == "outside" and r.get("calls") is not None and \
                (name is None or r.get("name") == name):
            last[r.get("pid")] = r
    if not last:
        return None
    return tuple(sum(r.get(k) or 0 for r in last.values())
                 for k in ("cases", "calls", "skipped_cases"))


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
        """The one-line command for a finding: with a saved input, the check itself on that
        file; a case a mode built (kat, exhaustive) reproduces with the tool's own line."""
        saved = f.get("input") or unit
        if not saved:
            return f.get("reproduce") or ""
        return f"{st.start.get('env', '')}{self.again} {saved}"

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
        cases, calls, _ = counts or (0, 0, 0)
        of = f"{calls} calls of {symbol}"
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
                f = dict(f, reproduce=self.reproduce(st, f, unit) if checked
                         else f.get("reproduce") or "")
                self.findings.append(f)
                self.v.add(name, "FINDING", f"{stage.heading(f)}; reproduce: {f['reproduce']}")
        elif counts is not None and not cases and s and s.get("cases"):
            # it could run, and none of the cases was one its convention admits: nothing this
            # stage says; a failure if no stage of the check called it (properties)
            self.v.add(name, "n/a", f"none of the {s['cases']} cases met the convention's "
                       f"precondition ({self.precondition})")
            self.precondition_rows.append(len(self.v.rows) - 1)
            return "precondition"
        elif rc == 77:
            self.v.not_established(name, f"0 calls of {symbol}: {st.reason()}")
        elif rc:
            self.v.add(name, "FAIL", st.reason())
        elif not libfuzzer and s is None:
            self.v.add(name, "FAIL", "exit 0 without a summary record (docs/results.md)")
        elif not calls and others:
            self.v.not_established(name, f"0 calls of {symbol}: the stage stopped at another "
                                   f"kernel's finding first ({stage.heading(st.findings[0])})")
        elif not calls:
            self.v.not_established(name, f"0 calls of {symbol} "
                                   f"({detail(st) or 'no count of its calls in the records'})")
        elif libfuzzer:
            self.v.add(name, "pass", f"{of} in {detail(st)}" +
                       (" (stopped at another kernel's finding)" if others else "") + note)
        else:
            # the kernel's own calls; the stage's total when oracles (libraries) ran too
            d = f"{cases} cases, {of}"
            if s.get("calls", calls) != calls:
                d += f" ({s.get('calls')} checked calls with the oracles)"
            self.v.add(name, "pass", d + note)
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
                    self.v.add(row, "FINDING", f"{stage.heading(f)}; reproduce: {f['reproduce']}")
            elif not self.complete:
                self.v.not_established(row, "no stage ran every case to its end (see the rows "
                                            "above)")
            elif not n:
                self.v.not_established(row, f"0 calls of {self.symbol} were checked")
            elif idle:
                self.v.not_established(row, f"0 calls of {', '.join(idle)} were checked{per}")
            elif row in allowed:
                self.v.add(row, "pass", f"{n} calls checked{per}: data left, which the {conv} "
                                        "convention allows (info below)")
            else:
                rule = LEFTOVER_RULES.get(conv, "?")
                self.v.add(row, "pass", f"{n} calls checked{per}: " +
                           detail.format(conv=conv, rule=rule))
        for row, fs in by_row.items():
            for f in fs:
                self.v.add(row, "FINDING", f"{stage.heading(f)}; reproduce: {f['reproduce']}")
        for i in self.infos.values():
            self.v.add("  info", "info", i.get("message", ""))


def configure(bdir, family, slots, cross=None):
    """meson setup of a check build of these kernels: the outside_* options, one element each
    (meson.build); with cross, a cross build (riscv64) without fuzzers."""
    def arr(key):
        # meson reads a [...] value as a literal; "i|VALUE": equal values made distinct
        return repr([f"{i}|{sl[key]}" for i, sl in enumerate(slots)])
    incs = [f"{i}|{d}" for i, sl in enumerate(slots) for d in sl["includes"]]
    opts = [f"-Doutside_family={family}", "-Doutside_source=" + arr("kernel"),
            "-Doutside_symbol=" + arr("symbol"), "-Doutside_convention=" + arr("conv"),
            "-Doutside_needs=" + arr("needs"), "-Doutside_op=" + arr("op"),
            "-Doutside_name=" + arr("name"),
            "-Doutside_include=" + repr(incs)]
    env = dict(os.environ, CC=os.environ.get("CC", "clang-19"))
    kind = ["--cross-file", cross, "-Dfuzzing=disabled"] if cross else ["-Dfuzzing=auto"]
    p = subprocess.run(["meson", "setup"] + kind + opts + [bdir, TOP], env=env,
                       capture_output=True, text=True)
    if p.returncode:
        print(p.stdout[-3000:] + p.stderr[-2000:])
    return p.returncode == 0


def per_kernel(values, n, what):
    """An option given once (for every kernel) or once per kernel, as a list of n."""
    if len(values) <= 1:
        return (values or [""]) * n
    if len(values) != n:
        die(f"check: {len(values)} {what} for {n} kernels: give one for all, or one per "
            "--symbol, in the same order")
    return values


def outside_slots(a):
    """The outside kernels of the command, in order: each --kernel with its --symbol (or one
    --kernel with every --symbol), then with --baseline the old file's same entry points.
    Each a dict: kernel, symbol, includes, conv (and why), needs (and whether scanned), op,
    name (in rows and findings), role ("new", or "old": the --baseline file's), pair (the new
    kernel an old one is compared with)."""
    kernels, symbols = a.kernel, a.symbol
    if len(kernels) == 1 and len(symbols) > 1:
        kernels = kernels * len(symbols)
    if len(kernels) != len(symbols):
        die(f"check: {len(a.kernel)} --kernel and {len(symbols)} --symbol: give one --symbol "
            "per --kernel (paired in order), or one --kernel with several --symbol")
    for k in dict.fromkeys(kernels):
        if not os.path.isfile(k):
            die(f"--kernel: no file {k}")
    includes = [os.path.abspath(d) for d in a.include]
    for d in includes:
        if not os.path.isdir(d):
            die(f"--include: no folder {d}")
    if a.baseline and not os.path.isfile(a.baseline):
        die(f"--baseline: no file {a.baseline}")
    for d in a.baseline_include:
        if not os.path.isdir(d):
            die(f"--baseline-include: no folder {d}")
    if (a.baseline_symbol or a.baseline_include) and not a.baseline:
        die("--baseline-symbol and --baseline-include name the old file's parts: give --baseline")
    n = len(symbols)
    convs = per_kernel(a.convention, n, "--convention")
    needs = per_kernel(a.needs, n, "--needs")
    ops = per_kernel(a.op, n, "--op")
    slots = []
    for k, sym, conv, need, op in zip(kernels, symbols, convs, needs, ops):
        slots.append({"kernel": os.path.abspath(k), "symbol": sym, "includes": includes,
                      "conv": conv, "needs": need, "op": op, "role": "new", "pair": None})
    if a.baseline:
        olds = per_kernel(a.baseline_symbol, n, "--baseline-symbol")
        oinc = [os.path.abspath(d) for d in a.baseline_include] or includes
        for new, osym in zip(list(slots), olds):
            # its convention and needs its own (guessed and scanned), its operation the new one's
            slots.append(dict(new, kernel=os.path.abspath(a.baseline), symbol=osym or
                              new["symbol"], includes=oinc, role="old", pair=None, conv="",
                              needs=""))
    if len(slots) > OUTSIDE_MAX:
        die(f"check: {len(slots)} kernels (with the old file's): at most {OUTSIDE_MAX} in one "
            "check build")
    for sl in slots:
        sl["why"] = "--convention"
        if not sl["conv"]:
            sl["conv"], sl["why"] = guess_convention(sl["kernel"])
            if sl["role"] == "old" and sl["conv"] == "asmdiff":
                # no upstream header seen: the old file is taken to be written as the new one
                new_sl = slots[slots.index(sl) - n]
                sl["conv"], sl["why"] = new_sl["conv"], "the new file's: " + sl["why"]
        sl["scanned"] = ""
        if not sl["needs"] and scan_needs(sl["kernel"]):
            # run it where the CPU has them, emulated elsewhere (and the emulated set): never a
            # SIGILL on a CPU without them
            sl["needs"] = ",".join(scan_needs(sl["kernel"]))
            sl["scanned"] = f"; needs {sl['needs']} (its instructions: give --needs to say " \
                            "otherwise)"
    # names: the symbol; a symbol two new kernels share, with its file; the old file's "old:"
    new_syms = [sl["symbol"] for sl in slots if sl["role"] == "new"]
    for i, sl in enumerate(slots):
        sl["name"] = sl["symbol"]
        if sl["role"] == "new" and new_syms.count(sl["symbol"]) > 1:
            sl["name"] = f"{sl['symbol']}@{os.path.basename(sl['kernel'])}"
        if sl["role"] == "old":
            sl["name"] = f"old:{sl['symbol']}"
            sl["pair"] = slots[i - len(new_syms)]["name"]
    if len(slots) == 1:
        slots[0]["name"] = ""  # the symbol, as before
    return slots


OUTSIDE_MAX = 4  # driver.h: a check build's outside kernels


def renamed_symbols(bdir, i, symbol):
    """The symbols rename_syms.py renamed in kernel i's object because the family's own kernels or
    an earlier outside kernel define them too, as "old -> new" (the entry point itself, renamed
    in every check build so the slot can only call this file's, is left out)."""
    try:
        with open(os.path.join(bdir, f"liboutside-kernel-{i}-renamed.a.syms")) as f:
            return [" -> ".join(line.split()) for line in f
                    if line.strip() and line.split()[0] != symbol]
    except OSError:
        return []


def check_outside(a):
    family, budget = a.family, a.budget
    fams = builds.families()
    builds.check_family(family, fams)
    slots = outside_slots(a)
    if check_arch(a, slots) == "riscv64":
        return check_riscv(a, family, slots)
    new = [sl for sl in slots if sl["role"] == "new"]
    first = slots[0]
    kernel, symbol, conv = first["kernel"], first["symbol"], first["conv"]
    needs = ",".join(dict.fromkeys(n for sl in slots for n in sl["needs"].split(",") if n))
    # (the version: check builds of an earlier form of the outside_* options are not reused)
    key = hashlib.sha1(json.dumps([2, family, slots]).encode()).hexdigest()[:10]
    label = "+".join(dict.fromkeys(sl["symbol"] for sl in new))
    bdir = os.path.join(builds.BUILD, "check", f"{family}-{label[:80]}-{key}")
    # the one-line command that redoes this check (and, with a file, reproduces a finding)
    words = ["./asmdiff", "check", family]
    for sl in new:
        words += ["--kernel", sl["kernel"], "--symbol", sl["symbol"]]
    words += [x for d in new[0]["includes"] for x in ("--include", d)]
    for key_, opt in (("needs", "--needs"), ("conv", "--convention"), ("op", "--op")):
        vals = [sl[key_] for sl in new]
        vals = vals[:1] if len(set(vals)) == 1 else vals
        words += [x for v_ in vals if v_ for x in (opt, v_)]
    if a.baseline:
        words += ["--baseline", os.path.abspath(a.baseline)]
        words += [x for sl in slots if sl["role"] == "old" and sl["symbol"] != sl.get("pair")
                  for x in ("--baseline-symbol", sl["symbol"])]
        words += [x for d in a.baseline_include for x in ("--baseline-include",
                                                          os.path.abspath(d))]
    again = " ".join(words)
    v = Verdict()
    judge = Judge(v, {k["name"]: k["row"] for k in results.check_kinds()}, again)
    if len(slots) > 1:
        judge.slots = [{"name": sl["name"], "role": sl["role"], "pair": sl["pair"]}
                       for sl in slots]
    title = f"check {family} {label}"
    for sl in slots:
        print(f"== check {family}: {sl['symbol']} from {sl['kernel']}" +
              (f" (as {sl['name']})" if sl["name"] and sl["name"] != sl["symbol"] else "") +
              f"\n   convention {sl['conv']} ({sl['why']}){sl['scanned']}", flush=True)
    print(f"   build folder {bdir}", flush=True)
    if not os.path.exists(os.path.join(bdir, "build.ninja")) and \
            not configure(bdir, family, slots):
        v.add("build", "FAIL", f"meson setup failed in {bdir}")
        return v.print(title)
    targets = [f"asmdiff-{family}-outside"]
    fuzzer = os.path.join(bdir, f"fuzz_{family}-outside")
    p = subprocess.run(["meson", "introspect", bdir, "--targets"], capture_output=True, text=True)
    has_fuzzer = f'"fuzz_{family}-outside"' in p.stdout
    if has_fuzzer:
        targets.append(f"fuzz_{family}-outside")
    if not compile_check_build(v, bdir, targets):
        return v.print(title)
    miscoded = False
    for sl in slots:
        # the object must hold what the file says (encoding.py: clang's own encoder bugs)
        i = slots.index(sl)
        unchecked = ""
        try:
            _, bad = encoding.disagreements(os.path.join(bdir, f"liboutside-kernel-{i}.a"))
        except RuntimeError as e:
            bad, unchecked = [], f"; its encoding NOT compared with the CPU's reading ({e})"
        if bad:
            for where, g, other in bad[:10]:
                print(f"   {where}: the CPU reads {g}; the source says {other}")
            v.add("build" + (f": {sl['name']}" if len(slots) > 1 else ""), "FAIL",
                  f"{os.path.basename(sl['kernel'])}: {encoding.describe(bad)}")
            miscoded = True
            continue
        incs = sl["includes"]
        shim = "--include " + " ".join(incs) if incs else \
            "our compatibility headers (verify/outside/include)"
        renamed = renamed_symbols(bdir, i, sl["symbol"])
        renamed = f"; renamed in its object (defined twice): {', '.join(renamed[:2])}" + \
            (f" and {len(renamed) - 2} more" if len(renamed) > 2 else "") if renamed else ""
        v.add("build" + (f": {sl['name']}" if len(slots) > 1 else ""), "pass",
              f"{os.path.basename(sl['kernel'])} with {shim}{renamed}{unchecked}")
    if miscoded:
        return v.print(title)
    tool = os.path.join(bdir, f"asmdiff-{family}-outside")
    env = dict(os.environ, ASMDIFF_FINDINGS=os.path.join(builds.FINDINGS, "check",
                                                         os.path.basename(bdir)))
    if a.files:
        # reproduce: each file once through the check build's tool, the report as it prints
        st = stage.run([tool, "replay"] + a.files, env)
        text = st.text
        for f in st.findings:
            if f.get("reproduce"):
                text = text.replace(f["reproduce"], judge.reproduce(st, f))
        sys.stdout.write(text)
        return st.rc

    judge.fail_fast = a.fail_fast
    stopped = None
    try:
        judged = judge_kernel(judge, tool, fuzzer if has_fuzzer else None, family,
                              symbol if len(slots) == 1 else f"the {len(slots)} kernels",
                              fams[family].get("exhaustive"), budget, env,
                              engines=fams[family].get("engines") or (), needs=needs,
                              conv=conv if len({sl["conv"] for sl in slots}) == 1 else None,
                              kernel=next((sl["kernel"] for sl in slots
                                           if sl["kernel"].endswith(".c")), kernel))
    except FailFast as e:
        judged, stopped = True, e.stage_name
    if not judged:
        return v.print(title)
    if stopped:
        v.add("stopped", "n/a", f"--fail-fast: at '{stopped}', the first stage with a finding; "
                                f"{FAIL_FAST_NOT_RUN}")
    else:
        # what the stages reached of each kernel, and the lines none reached (docs/coverage.md)
        for k in dict.fromkeys(sl["kernel"] for sl in slots):
            coverage.check_outside_coverage(tool, k, family, [os.path.join(bdir, "corpus")],
                                            env)
    judge.properties(conv)
    if a.baseline:
        compare_with_old(judge)
        if stopped:
            v.add("bench", "n/a", f"--fail-fast stopped the check at '{stopped}'")
        else:
            bench_table(family, slots, tool, env)
    if a.sarif:
        sarif.write(a.sarif, judge.findings, kernel=kernel)
    return v.print(f"check {family}: {label} ({conv} convention)")


# ---- riscv64: an outside kernel for riscv64 (RVV intrinsics in C), under qemu-riscv64 ----

RISCV_VLENS = (128, 256, 512, 1024)
# what the riscv64 check does not run, and why (each an n/a row)
RISCV_NOT_RUN = (
    ("fuzz", "no libFuzzer riscv64 build in a check build (the fuzzing runtime for riscv64 is "
             "the default build's, tools/fetch_riscv_fuzzer_runtime)"),
    ("unicorn bounds", "the Unicorn modes emulate x86-64 only"),
    ("unicorn ct-trace", "the Unicorn modes emulate x86-64 only"),
    ("emu-diff", "the Unicorn modes emulate x86-64 only"),
    ("emulated set", "AVX-512/GFNI masking is x86-64's; the VLEN sweep is this kernel's"),
    ("valgrind ct", "Valgrind does not run under qemu-riscv64"),
)


def check_arch(a, slots):
    """riscv64 when asked (--arch) or when a kernel is C with RVV intrinsics; else the host."""
    if a.arch:
        return a.arch
    for sl in slots:
        if sl["kernel"].endswith(".c"):
            with open(sl["kernel"], errors="replace") as f:
                # the intrinsics' header, or a call of one (not a test of __riscv_vector)
                if re.search(r"<riscv_vector\.h>|\b__riscv_v\w+\s*\(", f.read()):
                    return "riscv64"
    return "x86_64"


def check_riscv(a, family, slots):
    """The riscv64 check: the same check build (the outside_* options) made as a riscv64 cross
    build, run under qemu-riscv64 at every VLEN our kernels run at (--vlen to choose), each
    stage a row per VLEN with its calls of each kernel; the stages riscv64 cannot have are n/a
    rows that say why.  --beside copies files next to the kernel first (a header it includes
    with quotes, as its tree would give it)."""
    vlens = [int(x) for x in a.vlen] or list(RISCV_VLENS)
    for x in vlens:
        if x not in RISCV_VLENS:
            die(f"--vlen: {x} is not one of {', '.join(map(str, RISCV_VLENS))}")
    for f in a.beside:
        if not os.path.isfile(f):
            die(f"--beside: no file {f}")
    v = Verdict()
    for tool_ in ("qemu-riscv64", "clang-19"):
        if not shutil.which(tool_):
            v.not_established("build", f"{tool_} not found: a riscv64 check needs it")
            return v.print(f"check {family} (riscv64)")
    new = [sl for sl in slots if sl["role"] == "new"]
    label = "+".join(dict.fromkeys(sl["symbol"] for sl in new))
    key = hashlib.sha1(json.dumps([2, family, slots, [os.path.abspath(f) for f in a.beside]])
                       .encode()).hexdigest()[:10]
    bdir = os.path.join(builds.BUILD, "check-riscv64", f"{family}-{label[:80]}-{key}")
    if a.beside:
        # each kernel beside the files given, in a folder of its own
        src = bdir + ".src"
        for i, sl in enumerate(slots):
            d = os.path.join(src, str(i))
            os.makedirs(d, exist_ok=True)
            for f in a.beside:
                shutil.copyfile(f, os.path.join(d, os.path.basename(f)))
            copy = os.path.join(d, os.path.basename(sl["kernel"]))
            shutil.copyfile(sl["kernel"], copy)
            sl["kernel"] = copy
    words = ["./asmdiff", "check", family, "--arch", "riscv64"]
    for sl in new:
        words += ["--kernel", sl["kernel"], "--symbol", sl["symbol"]]
    words += [x for d in new[0]["includes"] for x in ("--include", d)]
    words += [x for sl in new[:1] for k, o in (("conv", "--convention"), ("needs", "--needs"))
              if sl[k] for x in (o, sl[k])]
    judge = Judge(v, {k["name"]: k["row"] for k in results.check_kinds()}, " ".join(words))
    if len(slots) > 1:
        judge.slots = [{"name": sl["name"], "role": sl["role"], "pair": sl["pair"]}
                       for sl in slots]
    title = f"check {family}: {label} ({slots[0]['conv']} convention, riscv64)"
    for sl in slots:
        print(f"== check {family} (riscv64, qemu-riscv64 at VLEN "
              f"{', '.join(map(str, vlens))}): {sl['symbol']} from {sl['kernel']}\n"
              f"   convention {sl['conv']} ({sl['why']})", flush=True)
    print(f"   build folder {bdir}", flush=True)
    target = f"asmdiff-{family}-outside"
    if not os.path.exists(os.path.join(bdir, "build.ninja")) and \
            not configure(bdir, family, slots, cross=os.path.join(TOP, "cross",
                                                               "riscv64-linux.ini")):
        v.add("build", "FAIL", f"meson setup of the riscv64 check build failed in {bdir}")
        return v.print(title)
    if not compile_check_build(v, bdir, [target]):
        return v.print(title)
    for sl in slots:
        v.add("build" + (f": {sl['name']}" if len(slots) > 1 else ""), "pass",
              f"{os.path.basename(sl['kernel'])} for riscv64 (rv64gcv)")
    tool = os.path.join(bdir, target)
    env = dict(os.environ, ASMDIFF_FINDINGS=os.path.join(builds.FINDINGS, "check-riscv64",
                                                         os.path.basename(bdir)))
    seeds = os.path.join(TOP, "corpus", family, "seeds")

    def qemu(vlen):
        return ["qemu-riscv64", "-cpu", f"rv64,v=true,vlen={vlen},zvkg=true"]

    if a.files:
        # reproduce: each file through the check build at each VLEN, the report as it prints
        rc = 0
        for vlen in vlens:
            st = stage.run(qemu(vlen) + [tool, "replay"] + a.files, env)
            print(f"-- VLEN {vlen}")
            sys.stdout.write(st.text)
            rc = max(rc, st.rc)
        return rc
    judge.symbol = slots[0]["symbol"] if len(slots) == 1 else f"the {len(slots)} kernels"
    st = stage.run(qemu(vlens[0]) + [tool, "list"], env)
    mine = {r.get("name"): r for r in results.impls(st.recs).values()
            if r.get("kind") == "outside"}
    for sl in slots:
        r = mine.get(sl["name"] or sl["symbol"])
        row = f"operations: {sl['name']}" if len(slots) > 1 else "operations"
        if st.rc or not r or not r.get("available"):
            v.add(row, "FAIL", st.reason() if st.rc or not r else r.get("reason") or "?")
            return v.print(title)
        role = (f" (the file before the patch, compared with {sl['pair']})"
                if sl["role"] == "old" else "")
        v.add(row, "pass", f"covers {', '.join(r.get('covers') or []) or 'nothing'}{role}")
        for c in results.of_type(st.recs, "convention"):
            if c.get("name") == sl["conv"]:
                judge.precondition = c.get("prototype", "")

    def fixed_reproduce(st, vlen):
        # a saved input reproduces through the check itself at that VLEN; a mode's own line
        # under qemu at that VLEN
        for f in st.findings:
            if not f.get("input") and f.get("reproduce"):
                f["reproduce"] = " ".join(qemu(vlen)) + " " + f["reproduce"]
            elif f.get("input"):
                f["reproduce"] = f"{judge.again} --vlen {vlen} {f['input']}"

    judge.fail_fast = a.fail_fast
    stopped = None
    try:
        for vlen in vlens:
            stages = [("kat", ["kat", TOP]), ("exhaustive", ["exhaustive"]),
                      ("replay (seeds)", ["replay", seeds]), ("random", ["random", "3000", "1"])]
            for name, args in stages:
                if name == "replay (seeds)" and not os.path.isdir(seeds):
                    continue
                print(f"-- vlen{vlen} {name}", flush=True)
                st = stage.run(qemu(vlen) + [tool] + args, env)
                fixed_reproduce(st, vlen)
                if name == "exhaustive" and st.rc == 77 and not (st.summary or {}).get("calls"):
                    v.add(f"vlen{vlen} {name}", "n/a", st.reason())
                    continue
                judge.stage(st, f"vlen{vlen} {name}", stage.Stage.counts, checked=True)
    except FailFast as e:
        stopped = e.stage_name
        v.add("stopped", "n/a", f"--fail-fast: at '{stopped}', the first stage with a finding; "
                                "the stages after it did not run")
    for name, why in RISCV_NOT_RUN:
        v.add(name, "n/a", why)
    judge.properties(slots[0]["conv"], "riscv64")
    if a.baseline:
        compare_with_old(judge)
        v.add("bench", "n/a", "under qemu-riscv64 a time is the emulator's, not the kernel's: "
                              "bench both on riscv64 hardware")
    if a.sarif:
        sarif.write(a.sarif, judge.findings, kernel=slots[0]["kernel"])
    return v.print(title)


def scan_needs(path):
    """The AVX-512 and GFNI features a source's instructions use (zmm or opmask registers,
    EVEX-only instructions, gf2p8*), as --needs spells them; [] for none."""
    with open(path, errors="replace") as f:
        text = re.sub(r"(/\*.*?\*/|//[^\n]*)", " ", f.read(), flags=re.S)
    found = []
    if re.search(r"%?\bzmm\d|%k[1-7]\b|\{%?k[1-7]\}|vpternlog|\bkmov|vpermt2|vpermi2", text,
                 re.I):
        found += ["avx512f", "avx512bw", "avx512vl"]
    if re.search(r"gf2p8", text, re.I):
        found.append("gfni")
    return found


def emulated_mask(needs):
    """ASMDIFF_CPU_MASK that sends a kernel with these needs to the emulator, or "" when it
    needs none of the features an emulated set is for."""
    masked = [n for n in re.split(r"[, ]+", needs or "") if n in EMULATED_FEATURES]
    return ",".join("-" + n for n in masked)


def judge_kernel(judge, tool, fuzzer, family, symbol, exhaustive, budget, env, engines=(),
                 needs="", conv=None, kernel=""):
    """Every stage of a built outside kernel into the verdict: what it covers (its impl
    record); kat, exhaustive, seeds, random and libFuzzer (natively, or emulated when this CPU
    cannot run it); the family's engines: Unicorn's bounds and ct-trace modes, emu-diff where
    the CPU runs the kernel, Valgrind's constant time; and the native set again emulated when
    the kernel needs AVX-512 or GFNI.  False when the kernel could not be put through them (the
    row says why)."""
    v = judge.v
    judge.symbol = symbol
    # what each kernel covers, as the driver made it (its impl record)
    st = stage.run([tool, "list"], env)
    mine = [r for r in results.impls(st.recs).values() if r.get("kind") == "outside"]
    several = len(judge.slots) > 1
    if st.rc or not mine:
        print(st.text)
        v.add("operations", "FAIL", st.reason() if st.rc else
              f"{symbol}: no outside implementation in the list's records")
        return False
    emulated = False
    for sl in judge.slots:
        impl = next((r for r in mine if sl["name"] is None or r.get("name") == sl["name"]), None)
        row = f"operations: {sl['name']}" if several else "operations"
        if impl is None:
            v.add(row, "FAIL", f"{sl['name']}: no outside implementation of that name in the "
                               "list's records")
            return False
        if not impl.get("available"):
            v.add(row, "skip", impl.get("reason") or "not available here")
            return False
        for c in results.of_type(st.recs, "convention"):
            if c.get("name") == (conv or impl.get("convention")):
                judge.precondition = c.get("prototype", "")
        covers, missing = impl.get("covers") or [], impl.get("not_covered") or []
        if sl["role"] == "new":
            judge.covers = list(dict.fromkeys(judge.covers + covers))
        sl["covers"] = covers
        emulated |= bool(impl.get("emulated"))
        role = (f" (the file before the patch, compared with {sl['pair']})"
                if sl["role"] == "old" else "")
        v.add(row, "pass", f"covers {', '.join(covers) or 'nothing'}{role}" +
              (" (identified in the emulator: this CPU cannot run it; every stage below runs "
               "there)" if impl.get("emulated") else ""))
        if missing and sl["role"] == "new" and not several:
            v.add("  not covered", "n/a", f"{', '.join(missing)} (another symbol, or another "
                  "file: check it with its own --symbol; not counted as passed)")
    if several:
        left = [op for op in (mine[0].get("covers") or []) + (mine[0].get("not_covered") or [])
                if op not in judge.covers]
        if left:
            v.add("  not covered", "n/a", f"{', '.join(left)} (no --symbol here computes it; "
                  "not counted as passed)")

    def run(name, cmd, detail=stage.Stage.counts, env=env, checked=True):
        print(f"-- {name}", flush=True)
        return judge.stage(stage.run(cmd, env), name, detail, checked=checked)

    def over_seeds(name, mode):
        """An engine's mode over the seeds; when none of them is in the convention's domain
        (ARIA's 64-block calls), over random cases instead."""
        if run(f"{name} (seeds)", [tool, mode, seeds], checked=False) == "precondition":
            run(f"{name} (random)", [tool, mode, "random", "3000", "1"], checked=False)

    def fuzz_detail(s):
        n = fuzzing.stats(s.text)
        return (f"{n.get('number_of_executed_units', '?')} execs, "
                f"{n.get('average_exec_per_sec', '?')} exec/s")

    def fuzz(name, env):
        if not fuzzer:
            v.not_established(name, "no libFuzzer build here (clang with libFuzzer)")
            return
        print(f"-- {name}", flush=True)
        corpus = os.path.join(os.path.dirname(fuzzer), "corpus")
        # a fuzzer stops at its first finding: when that is one kernel's and others had none,
        # the stage runs again with the kernels that have one set aside (ASMDIFF_SET_ASIDE,
        # driver.c), so each kernel's row is its own fuzzing, never "stopped at another's"
        names = [sl["name"] for sl in judge.slots if sl["name"]]
        aside = []
        while True:
            e, note = set_aside(env, aside)
            st = fuzzing.run_libfuzzer(fuzzer, [corpus, seeds], env=e, family=family,
                                       budget=budget, checked_stack=True,
                                       artifacts=os.path.join(env["ASMDIFF_FINDINGS"], family))
            left = [n for n in names if n not in aside]
            hit = [n for n in left if any(f.get("implementation") == n for f in st.findings)]
            if hit and len(hit) < len(left) and st.rc not in (0, 77):
                judge.stage(st, name, fuzz_detail, libfuzzer=True, only=hit, note=note)
                aside += hit
                print(f"-- {name}, again without {', '.join(aside)}", flush=True)
                continue
            judge.stage(st, name, fuzz_detail, libfuzzer=True,
                        only=left if aside else None, note=note)
            break

    seeds = os.path.join(TOP, "corpus", family, "seeds")

    def native_set(suffix, env, randoms):
        run("kat" + suffix, [tool, "kat", TOP], env=env)
        if exhaustive:
            run("exhaustive" + suffix, [tool, "exhaustive"], env=env)
        run("replay (seeds)" + suffix, [tool, "replay", seeds], env=env)
        run("random" + suffix, [tool, "random", randoms, "1"], env=env)
        fuzz(f"fuzz {budget}s" + suffix, env)

    native_set("", env, "3000")  # (in the emulator when the CPU cannot run it: said above)
    engines = [e for e in engines if e]
    if "unicorn" in engines and kernel.endswith(".c"):
        # compiled C calls libc (memcpy, memset) through the PLT, and the Unicorn modes map the
        # kernel's code, data and buffers only: they would stop at the first such call
        for name in ("unicorn bounds", "unicorn ct-trace", "emu-diff"):
            v.add(name, "n/a", "a kernel written in C calls libc through the PLT, which the "
                               "Unicorn modes do not map (the native guard pages check its "
                               "buffers)")
    elif "unicorn" in engines:
        # Unicorn maps each buffer alone: byte-exact bounds over the seeds; the trace of
        # random cases against the same cases with other secrets
        over_seeds("unicorn bounds", "bounds")
        # 3000 cases (seconds): a narrow convention (ARIA's 64-block CTR) meets few of them
        run("unicorn ct-trace", [tool, "ct-trace", "random", "3000", "1"], checked=False)
        if not emulated:
            over_seeds("emu-diff", "emu-diff")
        else:
            v.add("emu-diff", "n/a", "the CPU cannot run the kernel: nothing to compare the "
                                     "emulator with")
    mask = emulated_mask(needs)
    if mask and not emulated:
        # the whole set again as on a CPU without these features: in the emulator
        menv = dict(env, ASMDIFF_CPU_MASK=",".join(filter(None, [env.get("ASMDIFF_CPU_MASK"),
                                                                 mask])))
        native_set(f" (emulated, {mask})", menv, "3000")
    if "valgrind" in engines:
        valgrind_ct(judge, tool, env)
    return True


def valgrind_ct(judge, tool, env):
    """Valgrind memcheck's constant time: the family's secret buffers undefined during each
    call (the tool's ct mode); a branch or an address that depends on them is memcheck's
    error.  Only memcheck's own exit status with an uninitialised-value report is a finding."""
    name = "valgrind ct"
    if not shutil.which("valgrind"):
        judge.v.not_established(name, f"0 calls of {judge.symbol}: valgrind not installed "
                                      "(Debian package valgrind; tools/bootstrap installs it)")
        return
    cmd = ["valgrind", "-q", f"--error-exitcode={MEMCHECK_ERROR}", "--track-origins=yes",
           tool, "ct", VALGRIND_CT_CASES]
    print(f"-- {name}", flush=True)
    # several kernels: memcheck stops the process at the first error's exit, so the kernel the
    # error's stack names gets the finding, and the stage runs again with it set aside
    # (ASMDIFF_SET_ASIDE) until every kernel has a finding or a clean run of its own
    names = [sl["name"] for sl in judge.slots if sl["name"]]
    several = len(judge.new_slots()) > 1
    aside = []
    while True:
        e, note = set_aside(env, aside)
        st = stage.run(cmd, e)
        left = [n for n in names if n not in aside]
        if st.rc == MEMCHECK_ERROR and "uninitialised value" in st.text:
            lines = [l.split("== ", 1)[-1] for l in st.text.splitlines() if l.startswith("==")]
            first = next((l for l in lines if "uninitialised value" in l or
                          "Conditional jump" in l), lines[0] if lines else "")
            at = next((l.strip() for l in lines if l.strip().startswith("at ")), "")
            # the kernel the report's stack names (its first frame that is one of them)
            who = next((n for l in lines if l.strip().startswith(("at ", "by "))
                        for n in left if re.search(rf"\b{re.escape(n)}\b", l)), None)
            who = who or (left[0] if len(left) == 1 else judge.symbol)
            f = {"check": "valgrind-ct", "heading": "SECRET-DEPENDENT (memcheck)",
                 "family": st.start.get("family", "?"), "implementation": who,
                 "title": f"{who}: {first.strip()} {at}".strip(),
                 "reproduce": " ".join(([shlex.quote(f"ASMDIFF_SET_ASIDE={';'.join(aside)}")]
                                        if aside else []) + cmd)}
            print("\n".join(lines[:12]), flush=True)
            judge.findings.append(f)
            row = f"{name}: {who}" if several and who in names else name
            judge.v.add(row, "FINDING", f"{stage.heading(f)}; reproduce: {f['reproduce']}")
            if several and who in left and len(left) > 1:
                aside.append(who)
                print(f"-- {name}, again without {', '.join(aside)}", flush=True)
                continue
            return
        if st.rc == MEMCHECK_ERROR:
            # an invalid read or write (the rows above name it), not a secret-dependent one
            errs = [l.split("== ", 1)[-1].strip() for l in st.text.splitlines()
                    if l.startswith("==") and "== " in l]
            judge.v.add(name, "FAIL", "memcheck error that is not about secrets: " +
                        (errs[0] if errs else st.reason()))
            return
        judge.stage(st, name, stage.Stage.counts, checked=False,
                    only=left if aside else None, note=note)
        return


# ---- --baseline OLD.S: the file before the patch, one more oracle and a bench row ----

def mismatches(fs):
    return [f for f in fs if f.get("check") == "mismatch"]


def compare_with_old(judge):
    """The old file ran beside the new one in every stage, on the same cases, each judged by
    the C reference: a difference between new and old is named with the side the reference
    says is wrong."""
    v = judge.v
    several = len(judge.new_slots()) > 1
    for name, old, calls, old_fs in judge.compared:
        new_fs = judge.by_stage.get((name, old["pair"]), [])
        row = f"new vs old {name}" + (f": {old['pair']}" if several else "")
        new_bad, old_bad = mismatches(new_fs), mismatches(old_fs)
        same = f"the same cases: {calls} calls of {old['name']}"
        other = [f for f in old_fs if f.get("check") != "mismatch"]
        also = (f"; the old file also has: {stage.heading(other[0])}" if other else "")
        if new_bad and not old_bad:
            v.add(row, "FINDING", f"new and old differ; the C reference says the new file is "
                  f"wrong ({stage.heading(new_bad[0])}), the old one agrees with it ({same})"
                  + also)
        elif old_bad and not new_bad:
            v.add(row, "info", f"new and old differ; the C reference says the old file was "
                  f"wrong ({stage.heading(old_bad[0])}): the patch fixes it ({same})" + also)
        elif old_bad:
            v.add(row, "info", f"both differ from the C reference ({same})" + also)
        elif not calls:
            why = ("the stage stopped at the new file's finding first" if new_fs else
                   "no case of this stage reached it")
            # the old file was not run here: the comparison this row promises is not made
            v.not_established(row, f"0 calls of {old['name']} here ({why})")
        elif other:
            v.add(row, "info", f"the outputs of both equal the C reference's on {same}" + also)
        else:
            v.add(row, "pass", f"the outputs of both equal the C reference's on {same}")


def bench_records(cmd, env, kinds=None, mhz=None):
    """The bench records of one bench run; with kinds, only those of implementations of these
    kinds (their impl records); with mhz, every row's cycles/byte at that clock."""
    st = stage.run(cmd + ["bench"] + (["--cpu-mhz", mhz] if mhz else []), env)
    if kinds is None:
        return list(results.of_type(st.recs, "bench"))
    with_kind = {n: r.get("kind") for n, r in results.impls(st.recs).items()}
    if not with_kind:  # a bench run without impl records: the kinds from its list
        lst = stage.run(cmd + ["list"], env)
        with_kind = {n: r.get("kind") for n, r in results.impls(lst.recs).items()}
    return [r for r in results.of_type(st.recs, "bench") if with_kind.get(r.get("impl")) in kinds]


def bench_table(family, slots, tool, env):
    """libgcrypt's bench-slope layout: our kernels (the default build's asmdiff-FAMILY, its own
    process), then in one process of the check build the libraries, the reference, each new
    kernel and its old one, with old/new per operation and size (the same process, so the
    ratio is not two runs' noise)."""
    print("-- bench: new and old, one process", flush=True)
    # one clock for both processes (bench.py: two estimates differ by a few percent)
    mhz = bench.estimate_mhz([tool], env)
    recs = [r for r in bench_records([tool], env, mhz=mhz) if r.get("ns_per_byte") is not None]
    by = {(r["impl"], r["op"]): r for r in recs}
    names = {sl["name"] or sl["symbol"] for sl in slots}
    ours_tool = os.path.join(builds.BUILD, f"asmdiff-{family}")
    ours = bench_records([ours_tool], env, kinds=("kernel",), mhz=mhz) \
        if os.path.exists(ours_tool) else []
    ours = [r for r in ours if r.get("ns_per_byte") is not None]
    rows = []
    for op in dict.fromkeys(r["op"] for r in recs):
        for r in ours:
            if r["op"] == op:
                rows.append((f"ours: {r['impl']} {op}", r, ""))
        for r in recs:
            if r["op"] == op and r["impl"] not in names:
                rows.append((f"{r['impl']} {op}", r, ""))
        for sl in slots:
            if sl["role"] != "new" or (sl["name"], op) not in by:
                continue
            r = by[(sl["name"], op)]
            old = next((o for o in slots if o["role"] == "old" and o["pair"] == sl["name"]),
                       None)
            o = by.get((old["name"], op)) if old else None
            ratio = f"{o['ns_per_byte'] / r['ns_per_byte']:.2f}x" \
                if o and o["ns_per_byte"] and r["ns_per_byte"] else ""
            rows.append((f"new: {sl['name']} {op}", r, ratio))
            if o:
                rows.append((f"{old['name']} {op}", o, ""))
    if not rows:
        print("bench: no bench records from the check build")
        return
    w = max([len(n) for n, _, _ in rows] + [20]) + 2
    print(f"\n {family:<{w}}|  nanosecs/byte   mebibytes/sec   cycles/byte  "
          f"{'     Mhz' if mhz else 'auto Mhz'}  old/new (ns/B)")
    for name, r, ratio in rows:
        print(f" {name:<{w}}|  {r['ns_per_byte']:10.4g} ns/B  {r['mib_per_s']:9.0f} MiB/s  "
              f"{r['cycles_per_byte']:8.3g} c/B  {r.get('mhz', 0):8.0f}  {ratio}")
    print("(old/new above 1: the new file is faster; new, old, the libraries and the "
          "reference from one process of the check build, ours from the default build's "
          f"asmdiff-{family}; " + (f"both at one clock, {mhz} MHz, estimated once)" if mhz
                                     else "each process estimated its own clock)"))
