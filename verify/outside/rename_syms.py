#!/usr/bin/env python3
"""rename_syms.py PREFIX OUT.a SYMBOL SOURCE LIB.a [EARLIER.a...] — an outside kernel's library
for a check build (meson.build, ./asmdiff check): LIB.a copied to OUT.a with SYMBOL, the entry
point under test, renamed PREFIX<SYMBOL>, and every other global symbol it defines that an
EARLIER library (the family's own kernels, an earlier outside kernel) defines too renamed the
same way, so a patch's file, the file before it and our own kernels link into one program.
Every code section of LIB.a starts on a 4 KiB boundary in OUT.a (CODE_ALIGN below).

The slot (outside_slot.c) refers to PREFIX<SYMBOL> alone, strongly: the function a check calls
is, by construction, the one that LIB.a (the file given with --kernel or --baseline) defines.
When LIB.a does not define SYMBOL as a global symbol, nothing is written: the error names the
symbols it does define, nearest first (a misspelt --symbol must not test some other object's
function of that name).

Only definitions are renamed, and references to them inside LIB.a with them; what LIB.a uses from
elsewhere (libc, the other objects) is left alone.  llvm-objcopy, as it reads every target's
objects (the riscv64 check build's too)."""
import difflib
import os
import shutil
import subprocess
import sys


def tool(name):
    for t in (f"llvm-{name}-19", f"llvm-{name}", name):
        if shutil.which(t):
            return t
    sys.exit(f"rename_syms: no {name} (llvm-{name}-19, llvm-{name} or {name}) on PATH")


def symbols(lib, extern_only=True):
    """The symbols lib's objects define (global and weak ones; with extern_only False, local
    ones too)."""
    p = subprocess.run([tool("nm"), "--defined-only", "--format=posix"] +
                       (["--extern-only"] if extern_only else []) + [lib],
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


# Every code section of an outside kernel starts on a page boundary: the same code (the file
# given as both --kernel and --baseline, the functions a patch leaves alone) then sits at the
# same address modulo 4 KiB in each slot, so their loops cross the same 64-byte lines and the
# bench's old/new compares the files, not where the linker happened to put them (the same
# 1-limb add_n loop, once across a line and once not, measured 0.68x against itself).
CODE_ALIGN = 4096


def code_sections(lib):
    """The names of the code sections of lib's objects."""
    p = subprocess.run([tool("objdump"), "-h", lib], capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"rename_syms: objdump -h {lib}: {p.stderr.strip()}")
    names = []
    for line in p.stdout.splitlines():
        parts = line.split()
        # "Idx Name Size VMA Type": a code section's type is TEXT
        if len(parts) >= 5 and parts[0].isdigit() and parts[-1] == "TEXT" and \
                parts[1] not in names:
            names.append(parts[1])
    return names


def nearest(name, candidates, n=8):
    """candidates, the most similar to name first (difflib's ratio, then the name)."""
    return sorted(candidates, key=lambda c: (-difflib.SequenceMatcher(None, name, c).ratio(),
                                             c))[:n]


def missing_symbol(symbol, source, lib):
    """The error for a SYMBOL that LIB does not define globally: what it does define."""
    defined = symbols(lib)
    local = symbols(lib, extern_only=False) - defined
    src = os.path.basename(source)
    msg = f"asmdiff: error: {src} defines no global symbol '{symbol}'"
    if symbol in local:
        msg += " (it is a local symbol there: the file must make it global, .globl or " \
               "SYM_FUNC_START)"
    elif defined:
        near = nearest(symbol, defined)
        msg += f"; it defines (nearest first): {', '.join(near)}" + \
            (f" and {len(defined) - len(near)} more" if len(defined) > len(near) else "")
    else:
        msg += "; it defines no global symbol at all"
    return msg + " (--symbol / --baseline-symbol)"


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    prefix, out, symbol, source, lib, earlier = argv[0], argv[1], argv[2], argv[3], argv[4], \
        argv[5:]
    defined = symbols(lib)
    if symbol not in defined:
        print(missing_symbol(symbol, source, lib), file=sys.stderr)
        if os.path.exists(out):
            os.unlink(out)
        return 1
    taken = set()
    for e in earlier:
        taken |= symbols(e)
    rename = sorted((defined & taken) | {symbol})
    mapfile = out + ".syms"
    with open(mapfile, "w") as f:
        for name in rename:
            f.write(f"{name} {prefix}{name}\n")
    if os.path.exists(out):
        os.unlink(out)
    args = [tool("objcopy"), f"--redefine-syms={mapfile}"] + \
        [f"--set-section-alignment={name}={CODE_ALIGN}" for name in code_sections(lib)] + \
        [lib, out]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"rename_syms: {' '.join(args)}: {p.stderr.strip()}")
    # the proof the slot relies on: the renamed entry point is defined in OUT.a, and only there
    if f"{prefix}{symbol}" not in symbols(out):
        sys.exit(f"rename_syms: {prefix}{symbol} is not defined in {out} after renaming")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
