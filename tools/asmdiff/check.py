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
import shutil
import subprocess
import sys

from . import builds, coverage, fuzzing, results, sarif, stage
from .builds import TOP, die

# The properties every call of every stage is checked for: their rows, always printed.
PROPERTIES = (
    ("checked call", "callee-saved registers, rsp, DF, MXCSR, x87 state, junk in narrow "
                     "arguments: on every call"),
    ("vector leftovers", "xmm/ymm/zmm and k registers after return ({conv}: {rule})"),
    ("stack leftovers", "the 8 KiB below the caller's frame ({conv}: {rule})"),
    ("guard pages", "every buffer flush against the unmapped page after it and the one before "
                    "it, canaries when misaligned, inputs unchanged"),
)
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
            print("check: SKIP: nothing could run here (see the rows)")
            return 77
        if self.unestablished:
            print(f"check: NOT CLEAN: {len(self.unestablished)} rows not established (no call "
                  f"of the kernel: {', '.join(self.unestablished)}); see their rows")
            return 1
        print("check: clean")
        return 0


def guess_convention(path, depth=0):
    """The convention a source is written in, from the headers it (or a neighbour it includes
    by a quoted name) includes."""
    text = open(path, errors="replace").read()
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


def compiler_errors(text):
    """The compiler's or linker's own words first (file:line: error, undefined reference)."""
    lines = text.splitlines()
    return [l for l in lines if any(s in l for s in ("undefined reference", ": error:", "Error:"))
            and not l.startswith(("clang", "gcc", "cc:", "FAILED"))] or \
        [l for l in lines if "error" in l or "Error" in l]


def outside_counts(recs):
    """(cases, calls, skipped) of the outside kernel in a stage's records: the last impl record
    with counts of each process (a fuzzer writes its own at its end), summed; None when no
    record counted it."""
    last = {}
    for r in results.of_type(recs, "impl"):
        if r.get("kind") == "outside" and r.get("calls") is not None:
            last[r.get("pid")] = r
    if not last:
        return None
    return tuple(sum(r.get(k) or 0 for r in last.values())
                 for k in ("cases", "calls", "skipped_cases"))


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

    def reproduce(self, st, f, unit=None):
        """The one-line command for a finding: with a saved input, the check itself on that
        file; a case a mode built (kat, exhaustive) reproduces with the tool's own line."""
        saved = f.get("input") or unit
        if not saved:
            return f.get("reproduce") or ""
        return f"{st.start.get('env', '')}{self.again} {saved}"

    def stage(self, st, name, detail, libfuzzer=False, checked=True):
        """One stage's row from its records.  checked: its calls go through the checked call
        (the property rows count them)."""
        for i in results.of_type(st.recs, "info"):
            if i.get("kind") == "allowed-leftover":
                self.infos.setdefault((i.get("kind"), i.get("check")), i)
        counts = outside_counts(st.recs)
        cases, calls, _ = counts or (0, 0, 0)
        of = f"{calls} calls of {self.symbol}"
        fs = distinct(st.findings)
        self.by_stage[name] = fs
        s = st.summary
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
        elif st.rc == 77:
            self.v.not_established(name, f"0 calls of {self.symbol}: {st.reason()}")
        elif st.rc:
            self.v.add(name, "FAIL", st.reason())
        elif not libfuzzer and s is None:
            self.v.add(name, "FAIL", "exit 0 without a summary record (docs/results.md)")
        elif not calls:
            self.v.not_established(name, f"0 calls of {self.symbol} "
                                   f"({detail(st) or 'no count of its calls in the records'})")
        elif libfuzzer:
            self.v.add(name, "pass", f"{of} in {detail(st)}")
        else:
            # the kernel's own calls; the stage's total when oracles (libraries) ran too
            d = f"{cases} cases, {of}"
            if s.get("calls", calls) != calls:
                d += f" ({s.get('calls')} checked calls with the oracles)"
            self.v.add(name, "pass", d)
        if checked:
            self.checked_calls += calls
        self.total_calls += calls
        if not libfuzzer and s and s.get("verdict") in ("pass", "finding"):
            self.complete += 1
        return "finding" if fs else "ran"

    def properties(self, conv):
        """The property rows, each with the calls it judged; then any other row a finding
        belongs to (output, emulated run, bounds, constant time)."""
        if not self.total_calls:
            # no stage called the kernel: a convention whose precondition no case met
            for i in self.precondition_rows:
                c, _, d = self.v.rows[i]
                self.v.rows[i] = (c, "FAIL", f"{d}: {self.symbol} was never called")
                self.v.bad = True
        by_row = {}
        for f in distinct(self.findings):
            by_row.setdefault(self.row_of.get(f.get("check"), f.get("check")), []).append(f)
        allowed = {self.row_of.get(c) for (_, c) in self.infos}
        n = self.checked_calls
        for row, detail in PROPERTIES:
            if row in by_row:
                for f in by_row.pop(row):
                    self.v.add(row, "FINDING", f"{stage.heading(f)}; reproduce: {f['reproduce']}")
            elif not self.complete:
                self.v.not_established(row, "no stage ran every case to its end (see the rows "
                                            "above)")
            elif not n:
                self.v.not_established(row, f"0 calls of {self.symbol} were checked")
            elif row in allowed:
                self.v.add(row, "pass", f"{n} calls checked: data left, which the {conv} "
                                        "convention allows (info below)")
            else:
                rule = LEFTOVER_RULES.get(conv, "?")
                self.v.add(row, "pass", f"{n} calls checked: " +
                           detail.format(conv=conv, rule=rule))
        for row, fs in by_row.items():
            for f in fs:
                self.v.add(row, "FINDING", f"{stage.heading(f)}; reproduce: {f['reproduce']}")
        for i in self.infos.values():
            self.v.add("  info", "info", i.get("message", ""))


def configure(bdir, family, kernel, symbol, conv, needs, op, includes):
    opts = [f"-Doutside_family={family}", f"-Doutside_source={kernel}",
            f"-Doutside_symbol={symbol}", f"-Doutside_convention={conv}",
            f"-Doutside_needs={needs}", f"-Doutside_op={op}",
            "-Doutside_include=" + ",".join(includes)]
    env = dict(os.environ, CC=os.environ.get("CC", "clang-19"))
    p = subprocess.run(["meson", "setup", "-Dfuzzing=auto"] + opts + [bdir, TOP], env=env,
                       capture_output=True, text=True)
    if p.returncode:
        print(p.stdout[-3000:] + p.stderr[-2000:])
    return p.returncode == 0


def check_outside(a):
    family, kernel, symbol, needs, conv, op, budget = (a.family, a.kernel, a.symbol, a.needs,
                                                        a.convention, a.op, a.budget)
    fams = builds.families()
    builds.check_family(family, fams)
    if not os.path.isfile(kernel):
        die(f"--kernel: no file {kernel}")
    kernel = os.path.abspath(kernel)
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
    why = "--convention"
    if not conv:
        conv, why = guess_convention(kernel)
    scanned = ""
    if not needs and scan_needs(kernel):
        # run it where the CPU has them, emulated elsewhere (and the emulated set): never a
        # SIGILL on a CPU without them
        needs = ",".join(scan_needs(kernel))
        scanned = f"; needs {needs} (its instructions: give --needs to say otherwise)"
    key = hashlib.sha1(json.dumps([family, kernel, symbol, includes, needs, conv, op])
                       .encode()).hexdigest()[:10]
    bdir = os.path.join(builds.BUILD, "check", f"{family}-{symbol}-{key}")
    # the one-line command that redoes this check (and, with a file, reproduces a finding)
    again = " ".join(["./asmdiff", "check", family, "--kernel", kernel, "--symbol", symbol] +
                     [x for d in includes for x in ("--include", d)] +
                     (["--needs", needs] if needs else []) + ["--convention", conv] +
                     (["--op", op] if op else []))
    v = Verdict()
    judge = Judge(v, {k["name"]: k["row"] for k in results.check_kinds()}, again)
    title = f"check {family} {symbol}"
    print(f"== check {family}: {symbol} from {kernel}\n   convention {conv} ({why}); "
          f"build folder {bdir}{scanned}", flush=True)
    if not os.path.exists(os.path.join(bdir, "build.ninja")) and \
            not configure(bdir, family, kernel, symbol, conv, needs, op, includes):
        v.add("build", "FAIL", f"meson setup failed in {bdir}")
        return v.print(title)
    targets = [f"asmdiff-{family}-outside"]
    fuzzer = os.path.join(bdir, f"fuzz_{family}-outside")
    p = subprocess.run(["meson", "introspect", bdir, "--targets"], capture_output=True, text=True)
    has_fuzzer = f'"fuzz_{family}-outside"' in p.stdout
    if has_fuzzer:
        targets.append(f"fuzz_{family}-outside")
    p = subprocess.run(["nice", "-n", "10", "meson", "compile", "-C", bdir] + targets,
                       capture_output=True, text=True)
    if p.returncode:
        errs = compiler_errors(p.stdout + p.stderr)
        print("\n".join(errs[:30]))
        v.add("build", "FAIL", (errs[0] if errs else "meson compile failed") +
              f" (full log: meson compile -C {bdir})")
        return v.print(title)
    shim = "--include " + " ".join(includes) if includes else \
        "our compatibility headers (verify/outside/include)"
    v.add("build", "pass", f"{os.path.basename(kernel)} with {shim}")
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

    if not judge_kernel(judge, tool, fuzzer if has_fuzzer else None, family, symbol,
                        fams[family].get("exhaustive"), budget, env,
                        engines=fams[family].get("engines") or (), needs=needs, conv=conv,
                        kernel=kernel):
        return v.print(title)
    # what the stages reached of the kernel, and the lines none reached (docs/coverage.md)
    coverage.check_outside_coverage(tool, kernel, family, [os.path.join(bdir, "corpus")], env)
    judge.properties(conv)
    if a.baseline:
        baseline(a, judge, family, conv, needs, includes, tool, env)
    if a.sarif:
        sarif.write(a.sarif, judge.findings, kernel=kernel)
    return v.print(f"check {family}: {symbol} ({conv} convention)")


def scan_needs(path):
    """The AVX-512 and GFNI features a source's instructions use (zmm or opmask registers,
    EVEX-only instructions, gf2p8*), as --needs spells them; [] for none."""
    text = re.sub(r"(/\*.*?\*/|//[^\n]*)", " ", open(path, errors="replace").read(),
                  flags=re.S)
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
    # what the kernel covers, as the driver made it (its impl record)
    st = stage.run([tool, "list"], env)
    mine = [r for r in results.impls(st.recs).values() if r.get("kind") == "outside"]
    if st.rc or not mine:
        print(st.text)
        v.add("operations", "FAIL", st.reason() if st.rc else
              f"{symbol}: no outside implementation in the list's records")
        return False
    impl = mine[0]
    if not impl.get("available"):
        v.add("operations", "skip", impl.get("reason") or "not available here")
        return False
    for c in results.of_type(st.recs, "convention"):
        if c.get("name") == (conv or impl.get("convention")):
            judge.precondition = c.get("prototype", "")
    covers, missing = impl.get("covers") or [], impl.get("not_covered") or []
    judge.covers = covers
    emulated = bool(impl.get("emulated"))
    v.add("operations", "pass", f"covers {', '.join(covers) or 'nothing'}" +
          (" (identified in the emulator: this CPU cannot run it; every stage below runs "
           "there)" if emulated else ""))
    if missing:
        v.add("  not covered", "n/a", f"{', '.join(missing)} (another symbol, or another file: "
              "check it with its own --symbol; not counted as passed)")

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
        st = fuzzing.run_libfuzzer(fuzzer, [corpus, seeds], env=env,
                                   budget=budget, checked_stack=True,
                                   artifacts=os.path.join(env["ASMDIFF_FINDINGS"], family))
        judge.stage(st, name, fuzz_detail, libfuzzer=True)

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
    st = stage.run(cmd, env)
    if st.rc == MEMCHECK_ERROR and "uninitialised value" in st.text:
        lines = [l.split("== ", 1)[-1] for l in st.text.splitlines() if l.startswith("==")]
        first = next((l for l in lines if "uninitialised value" in l or "Conditional jump" in l),
                     lines[0] if lines else "")
        at = next((l.strip() for l in lines if l.strip().startswith("at ")), "")
        f = {"check": "valgrind-ct", "heading": "SECRET-DEPENDENT (memcheck)",
             "family": st.start.get("family", "?"), "implementation": judge.symbol,
             "title": f"{judge.symbol}: {first.strip()} {at}".strip(),
             "reproduce": " ".join(cmd)}
        print("\n".join(lines[:12]), flush=True)
        judge.findings.append(f)
        judge.v.add(name, "FINDING", f"{stage.heading(f)}; reproduce: {f['reproduce']}")
        return
    if st.rc == MEMCHECK_ERROR:
        # an invalid read or write (the rows above name it), not a secret-dependent one
        errs = [l.split("== ", 1)[-1].strip() for l in st.text.splitlines()
                if l.startswith("==") and "== " in l]
        judge.v.add(name, "FAIL", "memcheck error that is not about secrets: " +
                    (errs[0] if errs else st.reason()))
        return
    judge.stage(st, name, stage.Stage.counts, checked=False)


# ---- --baseline OLD.S: the file before the patch, one more oracle and a bench row ----

# The stages both files go through, on the same cases (kat's vectors, the seeds, random seed 1).
BASELINE_STAGES = (("kat", ["kat", TOP]), ("replay (seeds)", ["replay", None]),
                   ("random", ["random", "3000", "1"]))


def build_baseline(a, family, conv, needs, op, includes):
    """The check build of the old file (the tool only), as the operation the new one was
    checked as.  (tool, None) or (None, why)."""
    old = os.path.abspath(a.baseline)
    if not os.path.isfile(old):
        return None, f"--baseline: no file {a.baseline}"
    sym = a.baseline_symbol or a.symbol
    incs = [os.path.abspath(d) for d in a.baseline_include] or includes
    key = hashlib.sha1(json.dumps([family, old, sym, incs, needs, conv, op, "baseline"])
                       .encode()).hexdigest()[:10]
    bdir = os.path.join(builds.BUILD, "check", f"{family}-{sym}-{key}-baseline")
    if not os.path.exists(os.path.join(bdir, "build.ninja")) and \
            not configure(bdir, family, old, sym, conv, needs, op, incs):
        return None, f"meson setup failed in {bdir}"
    p = subprocess.run(["nice", "-n", "10", "meson", "compile", "-C", bdir,
                        f"asmdiff-{family}-outside"], capture_output=True, text=True)
    if p.returncode:
        errs = compiler_errors(p.stdout + p.stderr)
        return None, (errs[0] if errs else "meson compile failed") + f" (meson compile -C {bdir})"
    return os.path.join(bdir, f"asmdiff-{family}-outside"), None


def mismatches(fs):
    return [f for f in fs if f.get("check") == "mismatch"]


def baseline(a, judge, family, conv, needs, includes, new_tool, env):
    """The old file as one more oracle: the same cases through it, each judged by the C
    reference, so a difference between new and old is named with the side the reference says
    is wrong; then both benched beside our kernels, the libraries and the reference."""
    v = judge.v
    op = ",".join(judge.covers)
    sym = a.baseline_symbol or a.symbol
    print(f"-- baseline: {sym} from {a.baseline} (as {op or 'its operation'})", flush=True)
    tool, why = build_baseline(a, family, conv, needs, op if len(judge.covers) == 1 else "",
                               includes)
    if not tool:
        v.add("baseline build", "FAIL", why)
        return
    seeds = os.path.join(TOP, "corpus", family, "seeds")
    for name, args in BASELINE_STAGES:
        args = [seeds if x is None else x for x in args]
        st = stage.run([tool] + args, env)
        counts = outside_counts(st.recs)
        calls = counts[1] if counts else 0
        if st.rc not in (0, 1) and not st.findings:
            v.add(f"old {name}", "FAIL", st.reason())
            continue
        new_bad, old_bad = mismatches(judge.by_stage.get(name, [])), mismatches(st.findings)
        same = f"the same cases: {calls} calls of the old {sym}"
        if new_bad and not old_bad:
            v.add(f"new vs old {name}", "FINDING", f"new and old differ; the C reference says the "
                  f"new file is wrong ({stage.heading(new_bad[0])}), the old one agrees with it "
                  f"({same})")
        elif old_bad and not new_bad:
            v.add(f"new vs old {name}", "info", f"new and old differ; the C reference says the "
                  f"old file was wrong ({stage.heading(old_bad[0])}): the patch fixes it ({same})")
        elif old_bad:
            v.add(f"new vs old {name}", "info", f"both differ from the C reference ({same})")
        elif not calls:
            v.not_established(f"new vs old {name}", f"0 calls of the old {sym}: "
                              f"{st.reason() if st.rc else 'no case in its domain'}")
        else:
            v.add(f"new vs old {name}", "pass", f"the outputs of both equal the C reference's on "
                  f"{same}")
    bench_both(family, a.symbol, sym, new_tool, tool, env)


def bench_records(cmd, env):
    st = stage.run(cmd + ["bench"], env)
    return [r for r in results.of_type(st.recs, "bench")]


def bench_both(family, new_sym, old_sym, new_tool, old_tool, env):
    """libgcrypt's bench-slope layout: our kernels (the default build), the libraries and the
    reference (the check build), the new and the old file, and old/new per operation and size
    (each file's own process: the ratio is as noisy as two runs on this machine)."""
    print("-- bench: new and old", flush=True)
    new = bench_records([new_tool], env)
    old = {(r["op"]): r for r in bench_records([old_tool], env) if r.get("impl") == old_sym}
    ours_tool = os.path.join(builds.BUILD, f"asmdiff-{family}")
    ours = bench_records([ours_tool], env) if os.path.exists(ours_tool) else []
    ours = [r for r in ours if r.get("ns_per_byte") is not None and
            r.get("impl") != "c-reference" and "library" not in r.get("kind", "")]
    known = {r["impl"] for r in new}
    ours = [r for r in ours if r["impl"] not in known or
            any(n["impl"] == r["impl"] and n.get("ns_per_byte") is None for n in new)]
    rows = []
    for op in dict.fromkeys(r["op"] for r in new):
        for r in ours:
            if r["op"] == op:
                rows.append((f"{r['impl']} {op}", r, ""))
        for r in new:
            if r["op"] != op or r.get("ns_per_byte") is None:
                continue
            if r["impl"] == new_sym:
                o = old.get(op)
                ratio = ""
                if o and o.get("ns_per_byte") and r["ns_per_byte"]:
                    ratio = f"{o['ns_per_byte'] / r['ns_per_byte']:.2f}x"
                rows.append((f"new: {new_sym} {op}", r, ratio))
                if o and o.get("ns_per_byte") is not None:
                    rows.append((f"old: {old_sym} {op}", o, ""))
            else:
                rows.append((f"{r['impl']} {op}", r, ""))
    w = max([len(n) for n, _, _ in rows] + [20]) + 2
    print(f"\n {family:<{w}}|  nanosecs/byte   mebibytes/sec   cycles/byte  auto Mhz  "
          "old/new (ns/B)")
    for name, r, ratio in rows:
        print(f" {name:<{w}}|  {r['ns_per_byte']:10.4g} ns/B  {r['mib_per_s']:9.0f} MiB/s  "
              f"{r['cycles_per_byte']:8.3g} c/B  {r.get('mhz', 0):8.0f}  {ratio}")
    print("(old/new above 1: the new file is faster; our kernels from the default build's "
          "asmdiff-" + family + ", each table from its own process)")
