"""bench.py — `./asmdiff bench`: each family's bench-slope table (asmdiff-F bench), one CSV
header in all with --csv; riscv64 families only as text (emulated timings are not data).

One clock for the whole run: each asmdiff-F would estimate the clock itself, and two estimates
on one machine differ by a few percent (turbo, neighbours), which would show as a difference of
cycles/byte between families that ns/byte does not have.  So the run estimates the clock once
(`asmdiff-F bench --mhz-only`) and gives it to every x86-64 table (`--cpu-mhz`, as libgcrypt's
bench-slope takes it); `./asmdiff bench --cpu-mhz N` gives it outright."""
import os
import subprocess
import sys

from . import builds

MHZ_MIN, MHZ_MAX = 400, 8000  # as fuzz/harness/bench.c's


def parse_mhz(text):
    """A --cpu-mhz value (MHz, 400 to 8000) as the string passed on, or None."""
    try:
        value = float(text)
    except ValueError:
        return None
    return text if MHZ_MIN <= value <= MHZ_MAX else None


def estimate_mhz(cmd, env=None):
    """The clock estimate of one asmdiff-F (cmd: how it starts), as a string of MHz, or None
    with the reason on stderr."""
    p = subprocess.run(builds.with_runner(cmd + ["bench", "--mhz-only"]), env=env,
                       capture_output=True, text=True, errors="replace")
    mhz = p.stdout.strip()
    if p.returncode == 0 and parse_mhz(mhz):
        return mhz
    sys.stderr.write(p.stderr)
    sys.stderr.write("asmdiff: bench: the one clock estimate of this run failed; each table "
                     "estimates its own (cycles/byte may differ between tables by a few "
                     "percent)\n")
    return None


def cmd_bench(args):
    fams = builds.families()
    for a in args.families:
        builds.check_family(a, fams)
    return bench(args.families, args.csv, fams, mhz=args.cpu_mhz,
                 host_fams=builds.load_families(builds.BUILD))


def bench(chosen, csv=False, fams=None, mhz=None, host_fams=None):
    """mhz: the clock for every x86-64 table (a string of MHz), or None to estimate it once.
    host_fams: the host build's families (builds.load_families): a family that the riscv64 build
    also has (polyval: Zvkg kernels there, x86-64 kernels here) gets this host's table too,
    before the emulated one."""
    fams = fams or builds.families()
    host_fams = host_fams or {}
    chosen = chosen or sorted(fams, key=lambda n: (fams[n]["riscv64"], n))
    tables = []  # (name, fam): the host's tables first, then the emulated ones
    for name in chosen:
        own = host_fams.get(name)
        if fams[name]["riscv64"] and own and not own["riscv64"]:
            tables.append((name, own))
    tables += [(name, fams[name]) for name in chosen]
    tables.sort(key=lambda t: t[1]["riscv64"])
    x86 = [(n, f) for n, f in tables if not f["riscv64"]]
    how = "given"
    if x86 and mhz is None:
        name0, first = x86[0]
        mhz = estimate_mhz(builds.runner(first) +
                           [os.path.join(first["build"], "asmdiff-" + name0)])
        how = "estimated once; --cpu-mhz N gives it"
    if x86 and mhz:
        print(f"bench: one clock for every table of this run: {mhz} MHz ({how})",
              file=sys.stderr if csv else sys.stdout, flush=True)
    first = True
    for name, fam in tables:
        if fam["riscv64"] and csv:
            continue  # emulated timings: not data for a spreadsheet
        if fam["riscv64"]:
            print(f"riscv64 under qemu-riscv64 -cpu {builds.qemu_cpu('256')} (emulation speed, "
                  "not hardware):", flush=True)
        cmd = builds.runner(fam) + [os.path.join(fam["build"], "asmdiff-" + name), "bench"] + \
            (["--csv"] if csv else []) + (["--cpu-mhz", mhz] if mhz and not fam["riscv64"]
                                          else [])
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
