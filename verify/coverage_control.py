#!/usr/bin/env python3
"""coverage_control.py — the coverage baseline test can fail: the camellia seeds without the
tail seeds tools/gen_coverage_seeds.py adds (exactly 64 blocks, the counter's carry paths)
must come out below verify/coverage_baseline.json, naming the CTR kernels whose paths they
alone reach; the full seeds must not (the coverage-camellia test).

    coverage_control.py SRCDIR      (ASMDIFF_BUILD names the build, as for the CLI)"""
import os
import shutil
import subprocess
import sys
import tempfile


def main(argv):
    if len(argv) != 1:
        print("usage: coverage_control.py SRCDIR", file=sys.stderr)
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
