#!/usr/bin/env python3
"""riscv_check.py — ./asmdiff check's stages for an outside kernel of a riscv64 family, under
qemu-riscv64 at every VLEN our kernels run at (128, 256, 512, 1024, with Zvkg).

    riscv_check.py FAMILY --kernel FILE --symbol NAME --convention CONV [--needs v,zvkg]
                   [--include DIR]... [--beside FILE]... [--vlen N]...

The check build is the same mechanism as ./asmdiff check's (the outside_* meson options, which
compile FILE into asmdiff-FAMILY-outside beside the family's own implementations), configured
as a riscv64 cross build (cross/riscv64-linux.ini) in BUILD/check-riscv64/; the kernel's C file
is compiled with V enabled (meson.build).  --beside copies FILE and the given headers into a
folder of their own first, so a header the file includes with quotes is found there, as the
project's tree would give it (for libgcrypt's C files: with our stand-in cipher-internal.h
taking the place of the real one, verify/outside/libgcrypt-riscv/).

For each VLEN: kat, exhaustive, replay of the seed corpus and 3000 random cases, each row with
its cases and checked calls from the program's summary record (docs/results.md), every finding
a row of its own.  A row with zero calls of the outside kernel is not established and fails the
verdict.  Exit 0 clean, 1 on any finding or failure, 77 when the cross compiler or
qemu-riscv64 is missing (the reason printed).
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, "tools"))
from asmdiff import results, stage  # noqa: E402  (the same stage runner as ./asmdiff check)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("family")
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--symbol", required=True)
    ap.add_argument("--convention", required=True)
    ap.add_argument("--needs", default="v,zvkg")
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--beside", action="append", default=[])
    ap.add_argument("--vlen", action="append", type=int, default=[])
    a = ap.parse_args()
    vlens = a.vlen or [128, 256, 512, 1024]
    for tool in ("qemu-riscv64", "clang-19", "meson"):
        if not shutil.which(tool):
            print(f"riscv_check: {tool} not found: a riscv64 check needs it")
            return 77
    for f in [a.kernel] + a.beside:
        if not os.path.isfile(f):
            print(f"riscv_check: no file {f}")
            return 2
    build = os.environ.get("ASMDIFF_BUILD", os.path.join(TOP, "build"))
    key = hashlib.sha1(json.dumps([a.family, os.path.abspath(a.kernel), a.symbol, a.convention,
                                   a.needs, a.include, a.beside]).encode()).hexdigest()[:10]
    bdir = os.path.join(build, "check-riscv64", f"{a.family}-{a.symbol}-{key}")
    kernel = os.path.abspath(a.kernel)
    if a.beside:
        src = os.path.join(bdir + ".src")
        os.makedirs(src, exist_ok=True)
        for f in [a.kernel] + a.beside:
            shutil.copyfile(f, os.path.join(src, os.path.basename(f)))
        kernel = os.path.join(src, os.path.basename(a.kernel))
    print(f"== riscv64 check {a.family}: {a.symbol} from {a.kernel}\n   convention "
          f"{a.convention}; build folder {bdir}", flush=True)
    if not os.path.exists(os.path.join(bdir, "build.ninja")):
        # one outside kernel: each outside_* array of one element (meson.build)
        opts = [f"-Doutside_family={a.family}", f"-Doutside_source={[kernel]!r}",
                f"-Doutside_symbol={[a.symbol]!r}", f"-Doutside_convention={[a.convention]!r}",
                f"-Doutside_needs={[a.needs]!r}", "-Doutside_op=['']", "-Doutside_name=['']",
                f"-Doutside_include={[os.path.abspath(d) for d in a.include]!r}"]
        p = subprocess.run(["meson", "setup", "--cross-file",
                            os.path.join(TOP, "cross", "riscv64-linux.ini"), "-Dfuzzing=disabled"]
                           + opts + [bdir, TOP], env=dict(os.environ, CC="clang-19"),
                           capture_output=True, text=True)
        if p.returncode:
            print(p.stdout[-3000:] + p.stderr[-2000:])
            print("riscv_check: meson setup of the riscv64 check build failed (above)")
            return 77 if "riscv64" in p.stdout + p.stderr and "not found" in p.stdout else 1
    target = f"asmdiff-{a.family}-outside"
    p = subprocess.run(["nice", "-n", "10", "meson", "compile", "-C", bdir, target],
                       capture_output=True, text=True)
    if p.returncode:
        print((p.stdout + p.stderr)[-4000:])
        print(f"build        FAIL     meson compile -C {bdir} {target}")
        return 1
    tool = os.path.join(bdir, target)
    env = dict(os.environ, ASMDIFF_FINDINGS=os.path.join(build, "findings", "check-riscv64",
                                                         os.path.basename(bdir)))
    rows, bad = [("build", "pass", f"{os.path.basename(a.kernel)} for riscv64 (rv64gcv)")], 0
    seeds = os.path.join(TOP, "corpus", a.family, "seeds")
    for vlen in vlens:
        qemu = ["qemu-riscv64", "-cpu", f"rv64,v=true,vlen={vlen},zvkg=true"]
        stages = [("kat", ["kat", TOP]), ("exhaustive", ["exhaustive"]),
                  ("replay (seeds)", ["replay", seeds]), ("random", ["random", "3000", "1"])]
        # the outside kernel must be in the list and runnable at this VLEN
        st = stage.run(qemu + [tool, "list"], env)
        mine = [r for r in results.impls(st.recs).values() if r.get("kind") == "outside"]
        if st.rc or not mine or not mine[0].get("available"):
            rows.append((f"vlen{vlen} operations", "FAIL",
                         st.reason() if st.rc or not mine else mine[0].get("reason", "?")))
            bad += 1
            continue
        if vlen == vlens[0]:
            rows.append(("operations", "pass", "covers " + ", ".join(mine[0].get("covers") or [])))
        for name, args in stages:
            if name == "replay (seeds)" and not os.path.isdir(seeds):
                continue
            st = stage.run(qemu + [tool] + args, env)
            s = st.summary or {}
            label = f"vlen{vlen} {name}"
            if st.findings:
                for f in st.findings:
                    rows.append((label, "FINDING", stage.heading(f)))
                bad += 1
            elif st.rc == 77 and name == "exhaustive" and not s.get("calls"):
                rows.append((label, "n/a", st.reason()))
            elif st.rc or not s:
                rows.append((label, "FAIL", st.reason()))
                bad += 1
            elif not s.get("calls"):
                rows.append((label, "FAIL", "not established: no checked call of the kernel"))
                bad += 1
            else:
                rows.append((label, "pass", st.counts()))
    print(f"\n== riscv64 check {a.family}: {a.symbol} ({a.convention} convention)")
    w = max(len(r[0]) for r in rows)
    print(f"{'check':<{w}}  {'result':<8} detail")
    for r in rows:
        print(f"{r[0]:<{w}}  {r[1]:<8} {r[2]}")
    print("check: clean" if not bad else
          "check: FINDINGS or failures (each finding reproduces with the command in its row)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
