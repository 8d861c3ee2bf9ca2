#!/usr/bin/env python3
"""soak_test.py SRCDIR PLANTED_FUZZER — `./asmdiff soak` reads what a run did, and a finding
fails it.

1. A short soak of nh (--minutes 0.2: 12 s) must pass with every number read from the run:
   execs, exec/s overall, in the first and the last window, execs per CPU second, CPU time,
   peak RSS all above zero, the corpus counted at the start and the end, no finding, the
   Markdown written; and the seed corpus must be left as it was (the soak grows a fresh one).
2. The control: the same soak with PLANTED_FUZZER (nh built with a broken kernel,
   verify/mutants/nh.mutants wrong-pshufd-imm) in place of the family's fuzzer must exit 1 with
   a MISMATCH finding whose file exists and whose reproduce line, run alone, reproduces it.
A soak that cannot see a finding, or that reports numbers it did not read, fails here.
ASMDIFF_BUILD names the build (meson sets it)."""
import json
import os
import shlex
import subprocess
import sys
import tempfile

srcdir, planted = sys.argv[1], os.path.abspath(sys.argv[2])
cli = [sys.executable, "-B", os.path.join(srcdir, "tools", "asmdiff_cmd.py"), "soak", "nh",
       "--minutes", "0.2"]
seeds = os.path.join(srcdir, "corpus", "nh", "seeds")
bad = []


def expect(cond, what):
    if not cond:
        bad.append(what)
    return cond


def soak(work, name, extra=()):
    out, js, md = (os.path.join(work, name + x) for x in ("", ".json", ".md"))
    cmd = cli + ["--out", out, "--json", js, "--markdown", md] + list(extra)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    print(f"$ {' '.join(cmd)}\n{p.stdout}{p.stderr}", flush=True)
    report = json.load(open(js)) if os.path.exists(js) else None
    return p, report, md


def listing(d):
    return sorted((e.name, e.stat().st_mtime_ns, e.stat().st_size) for e in os.scandir(d))


with tempfile.TemporaryDirectory(prefix="asmdiff-soak-test.") as work:
    before = listing(seeds)
    p, report, md = soak(work, "clean")
    r = report["families"][0] if expect(report and len(report["families"]) == 1,
                                        "the clean soak wrote no JSON report of one family") else {}
    clean = r
    if r:
        expect(p.returncode == 0 and r["verdict"] == "clean",
               f"the clean soak: exit {p.returncode}, verdict {r['verdict']} (want 0, clean)")
        for key in ("execs", "exec_per_s", "exec_per_cpu_s", "cpu_s", "peak_rss_mb"):
            expect((r.get(key) or 0) > 0, f"the clean soak read no {key} ({r.get(key)})")
        for k in ("start", "end"):
            s = r["speeds"][k]
            expect(s and s["exec_per_s"] > 0 and s["exec_per_cpu_s"] and s["to_s"] > s["from_s"],
                   f"no exec/s over the {k} window ({s})")
        for k in ("units", "cov", "ft"):
            expect(all(isinstance(r[k][x], int) and r[k][x] > 0 for x in ("start", "end")),
                   f"the corpus's {k} at the start and end not read ({r[k]})")
        expect(r["findings"] == [], f"the clean soak found something: {r['findings']}")
        expect(os.path.exists(md) and "| nh | clean |" in open(md).read(),
               "the Markdown table has no clean nh row")
        expect(os.path.realpath(r["folder"]).startswith(os.path.realpath(work)),
               f"the soak's corpus is not in the folder it was given ({r['folder']})")
    expect(listing(seeds) == before, f"the soak changed the seed corpus {seeds}")

    p, report, md = soak(work, "planted", ["--fuzzer", planted])
    f = {}
    if expect(report and report["families"], "the planted soak wrote no JSON report"):
        r = planted_r = report["families"][0]
        expect(p.returncode == 1 and r["verdict"] == "FINDING" and report["verdict"] == "FINDINGS",
               f"the planted soak: exit {p.returncode}, verdict {r['verdict']} (want 1, FINDING)")
        if expect(len(r["findings"]) == 1, f"the planted soak: {len(r['findings'])} findings, "
                                           "want 1 (libFuzzer stops at the first)"):
            f = r["findings"][0]
            expect(f["check"] == "mismatch", f"caught by '{f['check']}', want mismatch")
            expect(f["file"] and os.path.isfile(f["file"]), f"no finding file ({f['file']})")
            expect(f["file"] and f["file"] in p.stdout and f["reproduce"] in p.stdout,
                   "the table does not show the finding's file and reproduce line")
    if f.get("file") and os.path.isfile(f["file"]):
        rp = subprocess.run(shlex.split(f["reproduce"]), capture_output=True, text=True,
                            timeout=120)
        expect(rp.returncode == 1 and "MISMATCH" in rp.stdout + rp.stderr,
               f"the reproduce line '{f['reproduce']}' exits {rp.returncode} without the MISMATCH")

if bad:
    print("soak test: FAILED:\n  " + "\n  ".join(bad))
    sys.exit(1)
print(f"soak test: the clean nh soak read {clean['execs']} execs in {clean['wall_s']} s "
      f"({clean['exec_per_cpu_s']} per CPU second, peak RSS {clean['peak_rss_mb']} MB, corpus "
      f"{clean['units']['start']} -> {clean['units']['end']} units); the planted kernel's "
      f"MISMATCH failed the soak after {planted_r['execs']} execs and its file reproduced it")
