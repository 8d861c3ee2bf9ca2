#!/usr/bin/env python3
"""inputs_to_finding.py — how many inputs each family's libFuzzer mutant takes to its first
finding, from an empty corpus, with libFuzzer's length control on and off (the table of
docs/coverage.md, "Length control").

    python3 tools/inputs_to_finding.py [--build DIR] [--seeds 1,2,3] [--budget SECONDS]
                                       [--arms on,off] [FAMILY...]

For every mutant of verify/mutants/F.mutants that is caught natively (its fuzz target
build/fuzz_F_mutant_NAME), every seed and every arm: the target runs as verify/run_mutant.sh
runs it (empty corpus, -seed=S, the family's options file corpus/F/fuzz_F.options), with
-len_control=0 (arm "off": what the options file says) or libFuzzer's default -len_control=100
(arm "on"), until its first finding or BUDGET seconds.  The count is libFuzzer's own
stat::number_of_executed_units at the finding (-print_final_stats=1), not the number of the
last "#N" status line before it: that line is printed only on a new unit or a power of two, so
it is the last input that added coverage, an undercount.  A run counts only when the result
stream (ASMDIFF_RESULTS) names the check the spec expects; otherwise the cell says what
happened.  Input counts do not depend on the machine's load; native runs only (no host
profile).  Families default to aria camellia mpi nh.  Prints a Markdown table, one row a
mutant, and exits 1 when a run did not end in the expected finding.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tools", "asmdiff"))
import fuzz_options  # noqa: E402  (standalone module of tools/asmdiff)

FAMILIES = ["aria", "camellia", "mpi", "nh"]
ARM_FLAGS = {"off": [], "on": ["-len_control=100"]}  # a later flag wins in libFuzzer


def mutants(family):
    """[(name, expected check)] of the family's spec caught natively, in the spec's order."""
    spec = os.path.join(TOP, "verify", "mutants", family + ".mutants")
    rows = subprocess.run([sys.executable, os.path.join(TOP, "verify", "mutate.py"), "--list",
                           spec], check=True, capture_output=True, text=True).stdout.split("\n")
    out = []
    for row in filter(None, rows):
        name, _, checks = row.split(" ")
        if "native" not in checks.split(","):
            continue
        expect = subprocess.run([sys.executable, os.path.join(TOP, "verify", "mutate.py"),
                                 "--get", spec, name, "expect"], check=True,
                                capture_output=True, text=True).stdout.strip()
        out.append((name, expect))
    return out


def final_stats(text):
    stats = {}
    for line in text.splitlines():
        if line.startswith("stat::"):
            key, _, value = line[len("stat::"):].partition(":")
            stats[key.strip()] = value.strip()
    return stats


def first_finding(path):
    """The check of the first finding record of a result stream, or None."""
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                rec = json.loads(line)
                if rec.get("type") == "finding":
                    return rec.get("check")
    except FileNotFoundError:
        pass
    return None


def run_one(exe, family, expect, seed, arm, budget):
    """(inputs or None, note): inputs at the expected finding, else why not."""
    with tempfile.TemporaryDirectory(prefix="asmdiff-itf.") as work:
        corpus = os.path.join(work, "corpus")
        os.mkdir(corpus)
        results = os.path.join(work, "results.jsonl")
        cmd = [exe, f"-seed={seed}", f"-max_total_time={budget}", "-timeout=20",
               "-rss_limit_mb=4096", "-error_exitcode=1", "-print_final_stats=1"]
        cmd += fuzz_options.flags(os.path.join(TOP, "corpus"), family) + ARM_FLAGS[arm]
        cmd += [f"-artifact_prefix={work}/", corpus]
        env = dict(os.environ, ASMDIFF_RESULTS=results)
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace")
        units = final_stats(p.stdout).get("number_of_executed_units")
        check = first_finding(results)
        if p.returncode == 1 and check == expect and units is not None:
            return int(units), ""
        if p.returncode == 0 and check is None:
            return None, f"none in {budget} s ({units or '?'} inputs)"
        return None, f"exit {p.returncode}, check {check!r} (want {expect!r})"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.environ.get("ASMDIFF_BUILD",
                                                      os.path.join(TOP, "build")))
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--budget", type=int, default=120, help="seconds per run (default 120)")
    ap.add_argument("--arms", default="on,off", help="length control: on,off (default both)")
    ap.add_argument("family", nargs="*")
    args = ap.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")]
    arms = args.arms.split(",")
    if any(a not in ARM_FLAGS for a in arms):
        ap.error("--arms takes on and/or off")
    families = args.family or FAMILIES
    failed = 0
    print("| mutant | " + " | ".join(f"length control {a}: seeds {', '.join(map(str, seeds))}"
                                     for a in arms) + " |")
    print("|---|" + "---|" * len(arms))
    for family in families:
        for name, expect in mutants(family):
            exe = os.path.join(args.build, f"fuzz_{family}_mutant_{name}")
            if not os.access(exe, os.X_OK):
                print(f"inputs_to_finding: {exe} is not built (meson compile -C {args.build})",
                      file=sys.stderr)
                return 2
            cells = []
            for arm in arms:
                got = []
                for seed in seeds:
                    n, note = run_one(exe, family, expect, seed, arm, args.budget)
                    got.append(str(n) if n is not None else note)
                    failed += n is None
                cells.append(", ".join(got))
            print(f"| {family}: {name} | " + " | ".join(cells) + " |", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
