"""premerge.py — `./asmdiff premerge`: every test suite (fast, then slow), each family fuzzed
for a budget, the bench tables, a summary table; also as Markdown, JUnit XML and SARIF 2.1.0
when asked.  A fuzz row's verdict and findings come from the fuzzer's result stream; its
speed from libFuzzer's own final stats.  Then each family's kernel coverage from the seeds and
the corpus the fuzz run grew (./asmdiff coverage, checked against its baseline): one row per
family, and in the Markdown one row per kernel; the HTML listings are under
findings/coverage/."""
import argparse
import json
import os
import tempfile
import time

from . import bench, builds, coverage, fuzzing, outputs, sarif, stage, testsets
from .table import Table

COVERAGE_COLUMNS = ("family", "kernel", "coverage: instructions", "blocks",
                    "branches both ways", "one way by design")


def fuzz_row(name, budget, st):
    """(row, findings) of one family's fuzz run."""
    what = f"fuzz {budget}s"
    n = fuzzing.stats(st.text)
    execs = n.get("number_of_executed_units", "")
    if st.rc == 0 and execs.isdigit() and int(execs) > 0 and not st.findings:
        runs = fuzzing.impl_coverage(st.recs) or "?"
        return (name, what, "pass",
                f"{execs} execs, {n.get('average_exec_per_sec', '?')} exec/s, {runs}"), []
    print("\n".join(st.text.splitlines()[-60:]))
    if st.findings:
        f = st.findings[0]  # libFuzzer stops at its first finding
        unit = fuzzing.unit_written(st.text)
        if unit and not f.get("input"):
            # the fuzzer could not name the file libFuzzer saves: libFuzzer has named it since
            f = dict(f, input=unit, reproduce=f"{st.start.get('env', '')}./asmdiff fuzz {name} "
                                              f"{unit}")
        return (name, what, "FINDING", f"{stage.heading(f, name)}; reproduce: "
                                       f"{f['reproduce']}"), [f] + st.findings[1:]
    return (name, what, "FAIL", f"exit {st.rc}"), []


def summary_table(rows):
    """The summary: (family, check, result, detail) per row."""
    return Table(("family", "check", "result", "detail"), rows, widths=(10, 34, 8, None))


def write_markdown(path, rows, bad, cov=()):
    sections = [(f"asmdiff premerge: {'clean' if not bad else 'FINDINGS'}", 2, [],
                 summary_table(rows))]
    if cov:
        sections.append(("Kernel coverage (seeds and this run's fuzz corpus, observed in the "
                         "emulator; listings: findings/coverage/)", 3, [],
                         Table(COVERAGE_COLUMNS, cov)))
    outputs.write_markdown(path, sections)


def coverage_rows(name, fam):
    """(summary row, [Markdown rows per kernel]) of one family's kernel coverage."""
    if fam["riscv64"]:
        why = "riscv64 kernels: the observer is the x86-64 emulator"
        return (name, "coverage", "n/a", why), [(name, "(riscv64 kernels)", "n/a", "", "", "")]
    corpus = os.path.join(fam["build"], "corpus", name)
    with tempfile.TemporaryDirectory(prefix="asmdiff-premerge-cov.") as tmp:
        out = os.path.join(tmp, "coverage.json")
        ns = argparse.Namespace(family=name, corpus=[corpus] if os.path.isdir(corpus) else [],
                                seeds=None, kat=False, html=None, out=None, json=out,
                                baseline=None, check_baseline=True, write_baseline=False)
        rc = coverage.cmd_coverage(ns)
        kernels = json.load(open(out))["kernels"] if os.path.exists(out) else []
    md = [(name, k["kernel"], f"{k['insns_hit']}/{k['insns']} ({coverage.pct(k['insns_hit'], k['insns'])})",
           f"{k['blocks_hit']}/{k['blocks']}", f"{k['branches_both']}/{k['branches']}",
           str(k.get("branches_explained", 0))) for k in kernels]
    full = sum(1 for k in kernels if k["insns_hit"] == k["insns"] and k["blocks_hit"] == k["blocks"])
    detail = f"{full} of {len(kernels)} kernels reach every instruction and block"
    result = "pass" if rc == 0 else "skip" if rc == 77 else "FAIL"
    if rc not in (0, 77):
        detail += "; below the baseline (verify/coverage_baseline.json), see above"
    return (name, "coverage (seeds + fuzz corpus)", result, detail), md


def write_junit(path, results, rows, chosen):
    """The meson tests (each with its time and, failing, the end of its output) and each
    family's fuzz row."""
    tests = [outputs.case(os.path.basename(b), t,
                          "skipped" if r == "SKIP" else
                          "pass" if r in ("OK", "EXPECTEDFAIL") else "failure",
                          message=r, text=o, time=d)
             for b, t, r, d, o in results]
    fuzz = [outputs.case("fuzz", r[0], "pass" if r[2] == "pass" else "failure", message=r[3])
            for r in rows if r[1].startswith("fuzz")]
    outputs.write_junit(path, "asmdiff premerge", [("suites", tests), ("fuzz", fuzz)])


def premerge(args):
    fams = builds.families()
    for a in args.families:
        builds.check_family(a, fams)
    budget, chosen = args.budget, args.families or sorted(fams)
    rows, bad, results, findings = [], False, [], []

    # every test suite: the fast set (./asmdiff test), then the slow one (./asmdiff test --slow)
    for label, suites, exclude in testsets.test_sets(all_=True):
        print(f"== premerge: test suites, the {label} set", flush=True)
        t0 = time.time()
        rc, counts, res = testsets.run_tests(suites, exclude=exclude)
        results += res
        ok = not rc and not counts["failed"] and counts["passed"] > 0
        bad |= not ok
        rows.append(("all", f"test suites ({label})", "pass" if ok else "FAIL",
                     f"{counts['tests']} tests: {counts['passed']} passed, {counts['failed']} "
                     f"failed, {counts['skipped']} skipped in {time.time() - t0:.0f}s"))
        for b, t, r, _, _ in res:
            if r == "SKIP":
                rows.append(("", t, "skip", "(see the test log for why)"))

    for name in chosen:
        fam = fams[name]
        if not fam["fuzzer"]:
            bad = True
            rows.append((name, f"fuzz {budget}s", "FAIL", "no libFuzzer build: nothing was fuzzed"))
            continue
        print(f"== premerge: fuzz {name} for {budget}s", flush=True)
        row, fs = fuzz_row(name, budget, fuzzing.fuzz_family(name, fam, budget=budget))
        rows.append(row)
        findings += fs
        bad |= row[2] != "pass"

    cov = []
    for name in chosen:
        print(f"\n== premerge: coverage {name}", flush=True)
        row, md = coverage_rows(name, fams[name])
        rows.append(row)
        cov += md
        bad |= row[2] == "FAIL"

    print("\n== premerge: bench", flush=True)
    bench.bench(list(chosen), fams=fams)

    print("\n== premerge summary")
    summary_table(rows).print()
    print("premerge: clean" if not bad else "premerge: FINDINGS (see above)")
    if args.markdown:
        write_markdown(args.markdown, rows, bad, cov)
    if args.junit:
        write_junit(args.junit, results, rows, chosen)
    if args.sarif:
        sarif.write(args.sarif, findings)
    return 1 if bad else 0
