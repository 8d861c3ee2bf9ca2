"""bench.py — `./asmdiff bench`: each family's bench-slope table (asmdiff-F bench), one CSV
header in all with --csv; riscv64 families only as text (emulated timings are not data)."""
import os
import subprocess
import sys

from . import builds


def cmd_bench(args):
    fams = builds.families()
    for a in args.families:
        builds.check_family(a, fams)
    return bench(args.families, args.csv, fams)


def bench(chosen, csv=False, fams=None):
    fams = fams or builds.families()
    chosen = chosen or sorted(fams, key=lambda n: (fams[n]["riscv64"], n))
    first = True
    for name in chosen:
        fam = fams[name]
        if fam["riscv64"] and csv:
            continue  # emulated timings: not data for a spreadsheet
        if fam["riscv64"]:
            print(f"riscv64 under qemu-riscv64 -cpu {builds.qemu_cpu('256')} (emulation speed, "
                  "not hardware):", flush=True)
        cmd = builds.runner(fam) + [os.path.join(fam["build"], "asmdiff-" + name), "bench"] + \
            (["--csv"] if csv else [])
        p = subprocess.run(cmd, capture_output=True, text=True)
        sys.stderr.write(p.stderr)
        lines = p.stdout.splitlines(True)
        if csv and not first:
            lines = lines[1:]  # one CSV header in all
        sys.stdout.write("".join(lines))
        sys.stdout.flush()
        first = False
        if p.returncode:
            return 1
    return 0
