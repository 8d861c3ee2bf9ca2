"""check.py — `./asmdiff check FAMILY --kernel FILE.S --symbol NAME`: an outside kernel (a Linux
or libgcrypt patch) built as one more implementation of a family and put through every stage
(kat, exhaustive, seeds, random, libFuzzer), then a verdict table: one row per stage and one
per property, every finding in its property's row with the command that reproduces it.

The verdicts come from each stage's result stream (stage.py): findings from `finding`
records, the row of a check from checks.def's `row` column, counts from `summary` records,
what the kernel covers from its `impl` record.  The reports are passed through as printed."""
import hashlib
import json
import os
import re
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


class Verdict:
    """The verdict table: rows of (check, result, detail); the exit status from them."""

    def __init__(self):
        self.rows, self.bad, self.ran = [], False, False

    def add(self, check, result, detail):
        self.rows.append((check, result, detail))
        self.bad |= result in ("FINDING", "FAIL")
        # building and naming what is covered is not testing it
        self.ran |= result in ("pass", "FINDING") and check not in ("build", "operations")

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


class Judge:
    """Collects what the stages' records say: the stage rows as they run, then the property
    rows, every finding in the row its check establishes (checks.def)."""

    def __init__(self, v, row_of, again):
        self.v, self.row_of, self.again = v, row_of, again
        self.findings = []      # finding records, reproduce made to name this check
        self.infos = {}         # (kind, check) -> message: one per kind of leftover
        self.complete = 0       # stages that ran every case to their end

    def reproduce(self, st, f, unit=None):
        """The one-line command for a finding: with a saved input, the check itself on that
        file; a case a mode built (kat, exhaustive) reproduces with the tool's own line."""
        saved = f.get("input") or unit
        if not saved:
            return f.get("reproduce") or ""
        return f"{st.start.get('env', '')}{self.again} {saved}"

    def stage(self, st, name, detail, libfuzzer=False):
        for i in results.of_type(st.recs, "info"):
            if i.get("kind") == "allowed-leftover":
                self.infos.setdefault((i.get("kind"), i.get("check")), i)
        fs = distinct(st.findings)
        if fs:
            stage.print_reports(st)
            unit = fuzzing.unit_written(st.text) if libfuzzer else None
            for f in fs:
                f = dict(f, reproduce=self.reproduce(st, f, unit))
                self.findings.append(f)
                self.v.add(name, "FINDING", f"{stage.heading(f)}; reproduce: {f['reproduce']}")
        elif st.rc == 77:
            self.v.add(name, "skip", st.reason())
        elif st.rc:
            self.v.add(name, "FAIL", st.reason())
        elif not libfuzzer and st.summary is None:
            self.v.add(name, "FAIL", "exit 0 without a summary record (docs/results.md)")
        else:
            self.v.add(name, "pass", detail(st))
        s = st.summary
        if not libfuzzer and s and s.get("verdict") in ("pass", "finding"):
            self.complete += 1

    def properties(self, conv):
        """The property rows; then any other row a finding belongs to (output, emulated run)."""
        by_row = {}
        for f in distinct(self.findings):
            by_row.setdefault(self.row_of.get(f.get("check"), f.get("check")), []).append(f)
        allowed = {self.row_of.get(c) for (_, c) in self.infos}
        for row, detail in PROPERTIES:
            if row in by_row:
                for f in by_row.pop(row):
                    self.v.add(row, "FINDING", f"{stage.heading(f)}; reproduce: {f['reproduce']}")
            elif not self.complete:
                self.v.add(row, "-", "not established: no stage ran every case to its end "
                                     "(see the rows above)")
            elif row in allowed:
                self.v.add(row, "pass", f"data left, which the {conv} convention allows (info "
                                        "below)")
            else:
                rule = LEFTOVER_RULES.get(conv, "?")
                self.v.add(row, "pass", detail.format(conv=conv, rule=rule))
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
    why = "--convention"
    if not conv:
        conv, why = guess_convention(kernel)
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
          f"build folder {bdir}", flush=True)
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
                        fams[family].get("exhaustive"), budget, env):
        return v.print(title)
    # what the stages reached of the kernel, and the lines none reached (docs/coverage.md)
    coverage.check_outside_coverage(tool, kernel, family, [os.path.join(bdir, "corpus")], env)
    judge.properties(conv)
    if a.sarif:
        sarif.write(a.sarif, judge.findings, kernel=kernel)
    return v.print(f"check {family}: {symbol} ({conv} convention)")


def judge_kernel(judge, tool, fuzzer, family, symbol, exhaustive, budget, env):
    """Every stage of a built outside kernel into the verdict: what it covers (its impl
    record), kat, exhaustive, seeds, random, libFuzzer when there is a fuzzer.  False when the
    kernel could not be put through them (the row says why)."""
    v = judge.v
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
    covers, missing = impl.get("covers") or [], impl.get("not_covered") or []
    v.add("operations", "pass", f"covers {', '.join(covers) or 'nothing'}")
    if missing:
        v.add("  not covered", "n/a", f"{', '.join(missing)} (another symbol, or another file: "
              "check it with its own --symbol; not counted as passed)")

    def run(name, cmd, detail=stage.Stage.counts):
        print(f"-- {name}", flush=True)
        judge.stage(stage.run(cmd, env), name, detail)

    run("kat", [tool, "kat", TOP])
    if exhaustive:
        run("exhaustive", [tool, "exhaustive"])
    seeds = os.path.join(TOP, "corpus", family, "seeds")
    run("replay (seeds)", [tool, "replay", seeds])
    run("random", [tool, "random", "3000", "1"])
    if fuzzer:
        name = f"fuzz {budget}s"
        print(f"-- {name}", flush=True)
        corpus = os.path.join(os.path.dirname(fuzzer), "corpus")
        st = fuzzing.run_libfuzzer(fuzzer, [corpus, seeds], env=env,
                                   budget=budget, checked_stack=True,
                                   artifacts=os.path.join(env["ASMDIFF_FINDINGS"], family))

        def fuzz_detail(s):
            n = fuzzing.stats(s.text)
            return (f"{n.get('number_of_executed_units', '?')} execs, "
                    f"{n.get('average_exec_per_sec', '?')} exec/s")
        judge.stage(st, name, fuzz_detail, libfuzzer=True)
    else:
        v.add(f"fuzz {budget}s", "skip", "no libFuzzer build here (clang with libFuzzer)")
    return True
