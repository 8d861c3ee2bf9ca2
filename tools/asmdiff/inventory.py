"""inventory.py — `./asmdiff inventory FILE... [--csv] [--unsupported] [--require-all]`: the
VEX/EVEX instruction forms of objects, archives and shared objects, and which of them the
vector executor runs (emu/vx_inventory.c does the work; this finds it in the build).

It is how a user learns, before fuzzing, whether their kernel can run emulated on a host that
lacks its ISA (ASMDIFF_CPU_MASK, or a CPU without AVX-512): every form unsupported there is one
instruction the emulated run would stop at."""
import os
import subprocess
import sys

from . import builds
from .builds import die


def cmd_inventory(a):
    prog = os.path.join(builds.BUILD, "emu", "vx_inventory")
    if not os.path.exists(prog):
        print("inventory: SKIP: this build has no vector executor (emu/vx_inventory: Unicorn "
              "and an x86-64 host are needed)", file=sys.stderr)
        return 77
    for f in a.files:
        if not os.path.isfile(f):
            die(f"inventory: {f}: no such file")
    cmd = [prog] + (["--csv"] if a.csv else []) + (["--unsupported"] if a.unsupported else []) \
        + (["--require-all"] if a.require_all else []) + a.files
    return subprocess.run(cmd).returncode
