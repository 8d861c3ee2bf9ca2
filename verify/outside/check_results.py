#!/usr/bin/env python3
"""check_results.py — a planted check's results for machines, and every reproduce line it
printed, each run and judged (issue 36, items 2 and 3).

    check_results.py --uri PATH --line-of TEXT -- CHECK-ARGS...

Runs `./asmdiff check CHECK-ARGS --json --junit --markdown --sarif` (files in a fresh folder)
from a folder that is not this checkout, with ASMDIFF_RESULTS naming a file of its own, and
asserts:

- the check found something (exit 1, verdict `findings`);
- JSON: the check-rows then the check-verdict (its `rows` their count); every FINDING row's
  finding has a reproduce line, the folder it runs in (`cwd`) and a location: URI PATH
  (relative to the repository root: the git top level of the kernel's folder) at the line that
  holds TEXT (the entry point: a mismatch names no instruction);
- JUnit: a testcase per row, a failure for each FINDING, FAIL or not-established row, the
  counts in <testsuites> those of the cases;
- Markdown: the heading says FINDINGS, a table line per row;
- SARIF: `originalUriBaseIds` %SRCROOT% is that root, a result per distinct finding with
  the relative URI PATH, uriBaseId %SRCROOT% and region startLine the line of TEXT;
- ASMDIFF_RESULTS (given to the CLI) holds the stages' own streams: start records of several
  processes, and finding records;
- every distinct reproduce line of the rows, run as printed from the folder it names (the
  leading `./asmdiff` as the program it execs, `python3 tools/asmdiff_cmd.py`: the wrapper's
  own set-up, bootstrap and build, is the test run's already) with ASMDIFF_RESULTS of its own,
  exits non-zero with a finding of the same kind on the same implementation, and builds no new
  check build folder (the same options make the same folder);
- control: the line the issue found (`./asmdiff fuzz FAMILY SAVED-INPUT`: the default build,
  our kernels) on one of the saved inputs exits 0 with no finding, so the judgement above tells
  a line that reproduces from one that does not.
Exit 0 when all hold, 1 otherwise (what failed printed), 77 when the check could not run here.
"""
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CMD = [sys.executable, "-B", os.path.join(TOP, "tools", "asmdiff_cmd.py")]
failures = []


def expect(ok, what):
    if not ok:
        failures.append(what)
        print(f"FAIL: {what}", flush=True)
    return ok


def stream(path):
    """The records of a result stream (every line, any type)."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def git_top(path):
    p = subprocess.run(["git", "-C", os.path.dirname(path), "rev-parse", "--show-toplevel"],
                       capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 and p.stdout.strip() else os.path.dirname(path)


def check_builds(family):
    """The configured check builds of family (build/check/FAMILY-*): the other suites' tests,
    running beside this one in the same build folder, configure theirs for other families."""
    build = os.environ.get("ASMDIFF_BUILD", os.path.join(TOP, "build"))
    return set(glob.glob(os.path.join(build, "check", f"{family}-*", "build.ninja")))


def as_run(line):
    """The line as its words for bash: `./asmdiff` (after the environment assignments) is the
    program the wrapper execs after its set-up."""
    m = re.match(r"^((?:[A-Za-z_][A-Za-z0-9_]*=\S* )*)\./asmdiff (.*)$", line)
    return f"{m.group(1)}{' '.join(map(shlex.quote, CMD))} {m.group(2)}" if m else line


def main(argv):
    if "--" not in argv:
        print(__doc__, file=sys.stderr)
        return 2
    opts, args = argv[:argv.index("--")], argv[argv.index("--") + 1:]
    o = dict(zip(opts[::2], opts[1::2]))
    uri, text = o.get("--uri"), o.get("--line-of")
    if not uri or not text:
        print("check_results.py: --uri PATH and --line-of TEXT are needed", file=sys.stderr)
        return 2
    kernel = args[args.index("--kernel") + 1]
    root = git_top(os.path.abspath(kernel))
    with open(os.path.join(root, uri)) as f:
        line = next((n for n, ln in enumerate(f, 1) if text in ln), None)
    if not line:
        print(f"check_results.py: no line of {uri} holds '{text}'", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="asmdiff-check-results.") as tmp:
        out = {k: os.path.join(tmp, f"check.{k}") for k in ("json", "junit", "markdown",
                                                             "sarif")}
        collected = os.path.join(tmp, "stages.jsonl")
        elsewhere = os.path.join(tmp, "elsewhere")
        os.mkdir(elsewhere)
        cmd = CMD + ["check"] + args + [x for k, p in out.items() for x in (f"--{k}", p)]
        print("$ " + " ".join(cmd), flush=True)
        env = dict(os.environ, ASMDIFF_RESULTS=collected)
        env.pop("ASMDIFF_CHECK_JSON", None)
        p = subprocess.run(cmd, cwd=elsewhere, env=env, capture_output=True, text=True)
        print("\n".join(p.stdout.splitlines()[-30:]), flush=True)
        if p.returncode == 77:
            print(p.stderr[-2000:])
            return 77
        expect(p.returncode == 1, f"the planted check exits {p.returncode}, not 1: "
                                  f"{p.stderr[-1500:]}")

        # JSON
        recs = stream(out["json"])
        rows = [r for r in recs if r.get("type") == "check-row"]
        verdict = recs[-1] if recs else {}
        expect(verdict.get("type") == "check-verdict" and verdict.get("verdict") == "findings"
               and verdict.get("rows") == len(rows) and verdict.get("exit") == 1,
               f"JSON: the last record is not a check-verdict 'findings' of {len(rows)} rows, "
               f"exit 1: {verdict}")
        found = [r for r in rows if r["result"] == "FINDING"]
        expect(found, "JSON: no FINDING row")
        for r in found:
            f = r.get("finding") or {}
            loc = f.get("location") or {}
            expect(f.get("reproduce") and f.get("cwd") and f.get("kind"),
                   f"JSON: row {r['check']}: its finding lacks kind, reproduce or cwd: {f}")
            expect(loc.get("uri") == uri and loc.get("line") == line and
                   loc.get("root") == root,
                   f"JSON: row {r['check']}: location {loc}, not {uri}:{line} under {root}")

        # JUnit
        try:
            xml = ET.parse(out["junit"]).getroot()
        except (OSError, ET.ParseError) as e:
            xml = None
            expect(False, f"JUnit: {e}")
        if xml is not None:
            cases = xml.findall("./testsuite/testcase")
            bad = [c for c in cases if c.find("failure") is not None]
            want = sum(1 for r in rows if r["result"] in ("FINDING", "FAIL", "-"))
            expect(len(cases) == len(rows) and len(bad) == want and
                   xml.get("failures") == str(want) and xml.get("tests") == str(len(rows)),
                   f"JUnit: {len(cases)} testcases ({len(bad)} failing; testsuites says "
                   f"{xml.get('tests')}/{xml.get('failures')}) for {len(rows)} rows ({want} "
                   "failing)")
            names = {c.get("name") for c in bad}
            expect(all(r["check"].strip() in names for r in found),
                   "JUnit: a FINDING row without its failing testcase")

        # Markdown
        md = open(out["markdown"]).read() if os.path.exists(out["markdown"]) else ""
        expect(re.search(r"^## asmdiff check .*: FINDINGS \(exit 1\)$", md, re.M),
               "Markdown: no '## asmdiff check ...: FINDINGS (exit 1)' heading")
        for r in rows:
            expect(f"| {r['check'].strip()} | {r['result']} |" in md,
                   f"Markdown: no table line for row '{r['check']}'")

        # SARIF
        try:
            log = json.load(open(out["sarif"]))
        except (OSError, ValueError) as e:
            log = {}
            expect(False, f"SARIF: {e}")
        runs = log.get("runs") or [{}]
        base = runs[0].get("originalUriBaseIds", {}).get("%SRCROOT%", {}).get("uri")
        expect(log.get("version") == "2.1.0" and base == "file://" + root.rstrip("/") + "/",
               f"SARIF: version {log.get('version')}, %SRCROOT% {base}, not file://{root}/")
        locs = [loc["physicalLocation"] for r in runs[0].get("results", [])
                for loc in r.get("locations", [])]
        expect(locs and all(pl["artifactLocation"].get("uri") == uri and
                            pl["artifactLocation"].get("uriBaseId") == "%SRCROOT%" and
                            pl.get("region", {}).get("startLine") == line for pl in locs),
               f"SARIF: locations {locs}, not {uri} (%SRCROOT%) at line {line}")

        # ASMDIFF_RESULTS: the stages' own streams, collected
        st = stream(collected)
        pids = {r.get("pid") for r in st if r.get("type") == "start"}
        expect(len(pids) >= 5 and any(r.get("type") == "finding" for r in st),
               f"ASMDIFF_RESULTS: {len(st)} records, start records of {len(pids)} processes "
               "(not the stages' streams)")

        # every reproduce line, as printed, from the folder it names
        before = check_builds(args[0])
        lines = {}
        for r in found:
            lines.setdefault((r["finding"]["reproduce"], r["finding"]["cwd"]), r)
        ran = 0
        for (rline, cwd), r in lines.items():
            f = r["finding"]
            got = os.path.join(tmp, f"reproduce-{ran}.jsonl")
            q = subprocess.run(["bash", "-c", as_run(rline)], cwd=cwd,
                               env=dict(os.environ, ASMDIFF_RESULTS=got),
                               capture_output=True, text=True)
            kinds = {(x.get("heading"), x.get("implementation")) for x in stream(got)
                     if x.get("type") == "finding"}
            ok = expect(q.returncode not in (0, 77) and
                        (f["kind"], f["implementation"]) in kinds,
                        f"row {r['check']}: 'cd {cwd} && {rline}' exits {q.returncode} with "
                        f"findings {sorted(map(str, kinds))}, not {f['kind']} on "
                        f"{f['implementation']}:\n{(q.stdout + q.stderr)[-1500:]}")
            print(f"{'ok' if ok else 'FAILED'}: row {r['check']}: exit {q.returncode}, "
                  f"{f['kind']} on {f['implementation']}: {rline}", flush=True)
            ran += 1
        expect(check_builds(args[0]) == before,
               f"the reproduce lines configured new check builds: {check_builds(args[0]) - before}")

        # control: the line (the default build's fuzzer on a saved input) reproduces
        # nothing, and the judgement above says so
        saved = next((w for (rl, _) in lines for w in shlex.split(rl)
                      if os.path.basename(w).startswith("crash-") and os.path.isfile(w)), None)
        family = args[0]
        if expect(saved, "control: no reproduce line names a saved input"):
            got = os.path.join(tmp, "control.jsonl")
            q = subprocess.run(CMD + ["fuzz", family, saved], cwd=TOP,
                               env=dict(os.environ, ASMDIFF_RESULTS=got), capture_output=True,
                               text=True)
            none = not any(x.get("type") == "finding" for x in stream(got))
            expect(q.returncode == 0 and none,
                   f"control: './asmdiff fuzz {family} {saved}' exits {q.returncode} "
                   f"({'no finding' if none else 'a finding'}): the default build's line was "
                   "expected to reproduce nothing")
            print(f"control: the default build's line exits {q.returncode} with "
                  f"{'no finding' if none else 'a finding'}: a line that does not reproduce "
                  "is told apart", flush=True)

    if failures:
        print(f"check_results: {len(failures)} failed")
        return 1
    print(f"check_results: {len(rows)} rows in JSON, JUnit and Markdown; {len(locs)} SARIF "
          f"location(s) at {uri}:{line}; {ran} distinct reproduce lines of {len(found)} "
          f"FINDING rows each reproduced its finding, no rebuild; the control line did not")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
