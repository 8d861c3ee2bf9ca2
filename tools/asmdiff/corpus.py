"""corpus.py — `./asmdiff corpus merge FAMILY DIR...`: the inputs of DIR... that add coverage
to the family's seed corpus, copied into it (corpus/FAMILY/seeds; ASMDIFF_CORPUS names
another corpus root)."""
import os
import subprocess
import sys
import tempfile

from . import builds, fuzzing
from .builds import die

MERGE_TIMEOUT = 60  # one input of a merge may be slow (sanitized, emulated); none hangs


def cmd_corpus(args):
    """x86-64: libFuzzer's -merge=1 into a temporary copy of the seeds, then the new files are
    copied.  riscv64 (under qemu-riscv64, where -merge's child processes cannot start): one
    in-process run over the seeds and DIR... with a temporary output corpus, where libFuzzer
    keeps each input that adds features as it loads them.  Files are named by their SHA-1; a
    file already in the seeds is never overwritten (a finding is never replaced)."""
    fams = builds.families()
    name, dirs = args.family, args.dirs
    builds.check_family(name, fams)
    for d in dirs:
        if not os.path.isdir(d):
            die(f"corpus merge: '{d}' is not a directory")
    fam = fams[name]
    fuzzer = os.path.join(fam["build"], "fuzz_" + name)
    if not os.access(fuzzer, os.X_OK):
        die(f"no libFuzzer build of {name}: corpus merge needs its coverage")
    root = os.environ.get("ASMDIFF_CORPUS", os.path.join(builds.TOP, "corpus"))
    seeds = os.path.join(root, name, "seeds")
    os.makedirs(seeds, exist_ok=True)
    before = set(os.listdir(seeds))
    with tempfile.TemporaryDirectory(prefix="asmdiff-merge.") as tmp:
        merged = os.path.join(tmp, "merged")
        os.makedirs(merged)
        env = dict(os.environ)
        if fam["riscv64"]:
            env["ASMDIFF_VLEN"] = "256"
            cmd = fuzzing.libfuzzer_cmd(fuzzer, [merged, seeds] + dirs, run=builds.runner(fam),
                                        timeout=MERGE_TIMEOUT, extra=["-runs=0"], family=name)
        else:
            for f in before:
                src = os.path.join(seeds, f)
                if os.path.isfile(src):
                    with open(src, "rb") as a, open(os.path.join(merged, f), "wb") as b:
                        b.write(a.read())
            cmd = fuzzing.libfuzzer_cmd(
                fuzzer, [merged] + dirs, timeout=MERGE_TIMEOUT, family=name,
                extra=["-merge=1", f"-merge_control_file={os.path.join(tmp, 'control')}"])
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, errors="replace")
        log = p.stdout + p.stderr
        if p.returncode:
            print(log[-4000:], file=sys.stderr)
            print(f"asmdiff: corpus merge: the fuzzer exited {p.returncode}; nothing was copied "
                  f"(an input that crashes is a finding: ./asmdiff fuzz {name} FILE)",
                  file=sys.stderr)
            return 1
        added = []
        for f in sorted(os.listdir(merged)):
            dst = os.path.join(seeds, f)
            if f in before or os.path.exists(dst):
                continue  # same SHA-1 name: the same input, or a file that stays as it is
            with open(os.path.join(merged, f), "rb") as a, open(dst, "xb") as b:
                b.write(a.read())
            added.append(f)
    # libFuzzer's own summary lines of the merge
    progress = [l for l in log.splitlines() if l.startswith("MERGE-OUTER: ") or
                (l.startswith("#") and "INITED" in l.split()[1:2])]
    for line in progress[-3:]:
        print(line)
    print(f"corpus merge {name}: {len(added)} new input(s) into {seeds} "
          f"({len(before)} before, {len(before) + len(added)} now)")
    for f in added:
        print(f"  + {f}")
    return 0
