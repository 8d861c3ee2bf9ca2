#!/usr/bin/env python3
"""coverage_control.py — the coverage baseline test can fail: the camellia seeds without the
tail seeds tools/gen_coverage_seeds.py adds (exactly 64 blocks, the counter's carry paths)
must come out below verify/coverage_baseline.json, naming the CTR kernels whose paths they
alone reach; the full seeds must not (the coverage-camellia test).

    coverage_control.py SRCDIR           (ASMDIFF_BUILD names the build, as for the CLI)
    coverage_control.py SRCDIR stale     the baseline's "why" entries, keyed by source text:
        a line moved by an edit above it is still found; a changed line's entry, a changed
        branch's entry and an entry keyed by a line number are each reported stale (exit 1)"""
import os
import shutil
import subprocess
import sys
import tempfile


def stale_control(top):
    sys.path.insert(0, os.path.join(top, "tools"))
    import json
    from asmdiff import coverage  # noqa: E402
    fails = 0
    # the keys themselves: an edit above a line leaves its key pointing at it
    with tempfile.TemporaryDirectory(prefix="asmdiff-coverage-why.") as tmp:
        path = os.path.join(tmp, "k.S")
        body = ["f:", "    cmp $16, %edx   /* 128 bits */", "    je 1f", "    ret", "1:  ret"]
        with open(path, "w") as f:
            f.write("\n".join(body) + "\n")
        key = coverage.line_key(path, 5)
        with open(path, "w") as f:
            f.write("\n".join(["/* a new comment */", "    .size g, 0"] + body) + "\n")
        moved = coverage.find_line(path, *key)
        if key != ("1: ret", 1) or moved != 7:
            print(f"coverage why control: FAIL: the key {key} of line 5 found line {moved} after "
                  "two lines were added above it (want 7)")
            fails += 1
    base_path = os.path.join(top, "verify", "coverage_baseline.json")
    with open(base_path) as f:
        base = json.load(f)
    why = base["camellia"]["why"]
    branch_i = next(i for i, w in enumerate(why) if "kernel" in w)
    # a line-keyed entry: the baseline has none left (every line of Camellia's kernels is
    # reached), so one is made for a line the seeds reach, keyed as coverage.py keys lines
    src = "kernels/camellia/camellia-x86_64-setkey.S"
    with open(os.path.join(top, src)) as f:
        lineno = next(n for n, l in enumerate(f, 1) if l.strip().startswith("movl $0, (%rsi)"))
    text, occurrence = coverage.line_key(os.path.join(top, src), lineno)
    line_entry = {"file": src, "text": text, "occurrence": occurrence, "reason": "control"}
    line_i = len(why)
    why.append(line_entry)
    variants = [
        ("a reached line", line_i, line_entry, "no unreached instruction"),
        ("a changed line", line_i, dict(line_entry, text=line_entry["text"] + " # edited"),
         "the line changed"),
        ("a changed branch", branch_i, dict(why[branch_i], insn="jbe"), "the code changed"),
        ("an entry keyed by a line number", line_i,
         {"file": src, "line": 1, "reason": "x"}, "keyed by a line number"),
    ]
    with tempfile.TemporaryDirectory(prefix="asmdiff-coverage-why.") as tmp:
        for what, i, entry, want in variants:
            b = json.loads(json.dumps(base))
            b["camellia"]["why"][i] = entry
            bp = os.path.join(tmp, "baseline.json")
            with open(bp, "w") as f:
                json.dump(b, f)
            p = subprocess.run([sys.executable, os.path.join(top, "tools", "asmdiff_cmd.py"),
                                "coverage", "camellia", "--check-baseline", "--baseline", bp,
                                "--out", os.path.join(tmp, "out")],
                               capture_output=True, text=True)
            if p.returncode == 77:
                print(p.stdout[-2000:])
                return 77
            if p.returncode != 1 or 'stale "why" entry' not in p.stdout or want not in p.stdout:
                print(p.stdout[-3000:] + p.stderr[-1000:])
                print(f"coverage why control: FAIL: with {what}, the check exited "
                      f"{p.returncode} without a stale entry saying \"{want}\"")
                fails += 1
            else:
                print(f"coverage why control: {what}: reported stale (\"{want}\")")
    if fails:
        return 1
    print(f"coverage why control: pass: a key survives two lines added above it; "
          f"{len(variants)} changed entries reported stale")
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == "stale":
        return stale_control(argv[0])
    if len(argv) != 1:
        print("usage: coverage_control.py SRCDIR [stale]", file=sys.stderr)
        return 2
    top = argv[0]
    sys.path.insert(0, os.path.join(top, "tools"))
    import gen_coverage_seeds  # noqa: E402  (the generator's list: the seeds to leave out)
    import hashlib
    tail = {hashlib.sha1(d).hexdigest() for fam, _, d in gen_coverage_seeds.SEEDS
            if fam == "camellia"}
    seeds = os.path.join(top, "corpus", "camellia", "seeds")
    with tempfile.TemporaryDirectory(prefix="asmdiff-coverage-control.") as tmp:
        kept = os.path.join(tmp, "seeds")
        os.makedirs(kept)
        left_out = 0
        for name in os.listdir(seeds):
            if name in tail:
                left_out += 1
            else:
                shutil.copy(os.path.join(seeds, name), kept)
        if left_out != len(tail):
            print(f"coverage control: FAIL: {len(tail) - left_out} of the generator's seeds are "
                  f"not in {seeds}")
            return 1
        p = subprocess.run([sys.executable, os.path.join(top, "tools", "asmdiff_cmd.py"),
                            "coverage", "camellia", "--seeds", kept, "--check-baseline",
                            "--out", os.path.join(tmp, "out")],
                           capture_output=True, text=True)
    print(p.stdout[-4000:] + p.stderr[-2000:])
    if p.returncode == 77:
        return 77
    want = ["below the baseline", "camellia_ctr_avx512_gfni_cmpmask:",
            "camellia_ctr_avx512_gfni_gfnishift:"]
    missing = [w for w in want if w not in p.stdout]
    if p.returncode != 1 or missing:
        print(f"coverage control: FAIL: without the {left_out} tail seeds the check exited "
              f"{p.returncode}" + (f", its output lacks {missing}" if missing else "") +
              " (it must report the drop and exit 1)")
        return 1
    print(f"coverage control: pass: without the {left_out} tail seeds the drop is reported")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
