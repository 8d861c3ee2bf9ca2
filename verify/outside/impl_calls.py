#!/usr/bin/env python3
"""impl_calls.py TOOL FUZZER SEEDS — the `calls` of the impl records (docs/results.md), which
./asmdiff check counts an outside kernel's calls from: in every mode of the tool (native,
Unicorn bounds, emu-diff, the ct mode) the calls of the implementations add up to the summary's
calls, every kernel that ran made some, and a fuzzer writes them at its end.  A backend that
calls a kernel without counting it for that kernel makes the sums differ: the test fails."""
import json
import os
import shlex
import subprocess
import sys
import tempfile


# Under a host profile (verify/host_profile.sh) our programs run under ASMDIFF_RUNNER
# (qemu-x86_64 -cpu MODEL): this script runs natively, its children must not.
RUNNER = shlex.split(os.environ.get("ASMDIFF_RUNNER", ""))


def records(cmd):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "r.jsonl")
        p = subprocess.run(RUNNER + cmd, env=dict(os.environ, ASMDIFF_RESULTS=path),
                           capture_output=True, text=True)
        recs = [json.loads(l) for l in open(path)] if os.path.exists(path) else []
    return p.returncode, recs, p.stdout + p.stderr


def main(tool, fuzzer, seeds):
    failed, checked = [], 0
    for mode in (["random", "40", "1"], ["bounds", seeds], ["emu-diff", seeds], ["ct", "20"]):
        rc, recs, text = records([tool] + mode)
        if rc == 77:
            print(f"skip {mode[0]}: {text.strip().splitlines()[-1]}")
            continue
        impls = [r for r in recs if r["type"] == "impl" and r.get("kind") != "reference"]
        summ = [r for r in recs if r["type"] == "summary"]
        if rc or not summ or not impls:
            failed.append(f"{mode[0]}: exit {rc}, {len(summ)} summaries, {len(impls)} impls")
            continue
        total = sum(r.get("calls") or 0 for r in impls)
        ran = [r for r in impls if r.get("kind") == "kernel" and r.get("cases")]
        idle = [r["name"] for r in ran if not r.get("calls")]
        if total != summ[-1]["calls"] or not ran or idle:
            failed.append(f"{mode[0]}: impl calls add up to {total}, the summary says "
                          f"{summ[-1]['calls']}; kernels that ran without a call: {idle}")
        else:
            print(f"ok   {mode[0]}: {total} calls = the summary's, "
                  + ", ".join(f"{r['name']} {r['calls']}" for r in ran))
            checked += 1
    with tempfile.TemporaryDirectory() as corpus:  # the first folder is written: not the seeds
        rc, recs, text = records([fuzzer, "-runs=200", corpus, seeds])
    end = [r for r in recs if r["type"] == "impl" and r.get("calls") is not None
           and r.get("kind") == "kernel"]
    if rc or not end or not all(r["calls"] for r in end if r.get("cases")):
        failed.append(f"fuzzer: exit {rc}, {len(end)} kernel impl records with calls at its end")
    else:
        print("ok   fuzzer: at its end " + ", ".join(f"{r['name']} {r['calls']}" for r in end))
        checked += 1
    for f in failed:
        print("FAIL " + f)
    print(f"{checked} passed, {len(failed)} failed")
    return 1 if failed or not checked else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: impl_calls.py TOOL FUZZER SEEDS")
    sys.exit(main(*sys.argv[1:]))
