#!/usr/bin/env python3
"""rename_syms.py PREFIX OUT.a LIB.a [EARLIER.a...] — a later outside kernel's library for a check
build of several (meson.build, ./asmdiff check): LIB.a copied to OUT.a with every global symbol
it defines that an EARLIER kernel's library defines too renamed PREFIX<name>, so a patch's file
and the file before it (the same entry points, the same helpers) link into one program.  Only
definitions are renamed, and references to them inside LIB.a with them; what LIB.a uses from
elsewhere (libc, the other objects) is left alone.  llvm-objcopy, as it reads every target's
objects (the riscv64 check build's too)."""
import os
import shutil
import subprocess
import sys


def tool(name):
    for t in (f"llvm-{name}-19", f"llvm-{name}", name):
        if shutil.which(t):
            return t
    sys.exit(f"rename_syms: no {name} (llvm-{name}-19, llvm-{name} or {name}) on PATH")


def defined_globals(lib):
    """The global (and weak) symbols lib's objects define."""
    p = subprocess.run([tool("nm"), "--defined-only", "--extern-only", "--format=posix", lib],
                       capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"rename_syms: nm {lib}: {p.stderr.strip()}")
    names = set()
    for line in p.stdout.splitlines():
        parts = line.split()
        # "name type value size"; archive member headers end with ':' or ']:'
        if len(parts) >= 2 and not line.rstrip().endswith(":") and parts[1] not in ("U", "w"):
            names.add(parts[0])
    return names


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    prefix, out, lib, earlier = argv[0], argv[1], argv[2], argv[3:]
    taken = set()
    for e in earlier:
        taken |= defined_globals(e)
    clash = sorted(defined_globals(lib) & taken)
    mapfile = out + ".syms"
    with open(mapfile, "w") as f:
        for name in clash:
            f.write(f"{name} {prefix}{name}\n")
    if os.path.exists(out):
        os.unlink(out)
    args = [tool("objcopy")] + ([f"--redefine-syms={mapfile}"] if clash else []) + [lib, out]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"rename_syms: {' '.join(args)}: {p.stderr.strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
