#!/usr/bin/env python3
"""mutate.py — build a mutant: a copy of a kernel with one deliberate bug, from a spec file.

A spec file (verify/mutants/<family>.mutants) holds blocks:
    mutant: <name>
    file: <kernel path relative to the source root>
    impls: <the implementations built from that file that the bug reaches, space-separated>
    expect: <the check that must catch it: a name of fuzz/harness/checks.def (mismatch, abi,
             residue, stack, guard-page, canary, input-modified, ...)>
    bounds: <optional: the check `asmdiff-<family> bounds` must also report (bounds, residue..)>
    ct-trace: <optional: the check `asmdiff-<family> ct-trace` must also report (ct-trace)>
    isa: <optional: the check `asmdiff-<family> isa` must report (isa: an instruction beyond
          the features the implementation declares)>
    find: <the text of exactly one line of that file, compared without surrounding blanks>
    replace: <replacement line(s); a literal \\n starts a new line>
    why: <the bug it models>

  mutate.py --list SPEC                       print "name file checks" for every mutant (checks:
                                              native when it has expect, then its Unicorn
                                              modes; comma-separated)
  mutate.py --get SPEC NAME FIELD             print one field of one mutant
  mutate.py SPEC NAME INPUT OUTPUT STATUS     write INPUT with the mutation applied to OUTPUT,
                                              and "ok" to STATUS
  mutate.py SPEC NAME INPUT OUTPUT STATUS KERNEL
                                              a mutant of a header its kernels #include: write
                                              KERNEL to OUTPUT with its #include of INPUT (the
                                              header) replaced by the mutated header's text, so
                                              each kernel built from it is its own mutant

A find that matches no line, or more than one, is a stale spec (the kernel was edited): OUTPUT
is then the unmutated kernel, so the build and every other suite still work, and STATUS says
what to update; the mutant's own test fails with that message.
"""
import importlib.util
import os
import sys

FIELDS = ("mutant", "file", "impls", "expect", "bounds", "ct-trace", "isa", "find", "replace",
          "why")
# impls and expect are for the mutants of family kernels (verify/run_mutant.sh reads them);
# the executor's own mutants (verify/unicorn/vexec.mutants) are judged by their tests' patterns.
# bounds, ct-trace and isa: the check the family's emulated mode of that name must also report
# (a bug only an emulated run sees; each becomes one more test, mutant-<family>-<name>-<mode>).
OPTIONAL = ("impls", "expect", "bounds", "ct-trace", "isa")
MODES = ("bounds", "ct-trace", "isa")
# the fields that name a check: their values come from the one table of checks
CHECK_FIELDS = ("expect",) + MODES
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def check_names():
    """The check names of fuzz/harness/checks.def, through tools/asmdiff/results.py (loaded by
    path: verify/ is not a package, and the build runs this file from anywhere)."""
    where = os.path.join(TOP, "tools", "asmdiff", "results.py")
    spec = importlib.util.spec_from_file_location("asmdiff_results", where)
    if spec is None:
        sys.exit(f"mutate.py: cannot load {where}")
    results = importlib.util.module_from_spec(spec)
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    try:
        spec.loader.exec_module(results)
        return [k["name"] for k in results.check_kinds(TOP)]
    except (OSError, results.StreamError) as e:
        sys.exit(f"mutate.py: the table of checks: {e}")


def parse(path):
    mutants, cur = [], {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            s = line.rstrip("\n")
            if s.startswith("#"):
                continue
            if not s.strip():
                if cur:
                    mutants.append(cur)
                    cur = {}
                continue
            key, sep, val = s.partition(":")
            if not sep or key.strip() not in FIELDS:
                sys.exit(f"{path}:{lineno}: expected '{'|'.join(FIELDS)}: value'")
            cur[key.strip()] = val.strip()
    if cur:
        mutants.append(cur)
    for m in mutants:
        for k in FIELDS:
            if k not in m and k not in OPTIONAL:
                sys.exit(f"{path}: mutant {m.get('mutant', '?')} lacks '{k}'")
    if any(k in m for m in mutants for k in CHECK_FIELDS):
        valid = check_names()
        for m in mutants:
            for k in CHECK_FIELDS:
                if k in m and m[k] not in valid:
                    sys.exit(f"{path}: mutant {m['mutant']}: {k}: unknown check '{m[k]}'; the "
                             f"checks are {', '.join(valid)} (fuzz/harness/checks.def)")
    return mutants


def main(argv):
    if len(argv) == 3 and argv[1] == "--list":
        for m in parse(argv[2]):
            if not any(k in m for k in CHECK_FIELDS):
                sys.exit(f"{argv[2]}: mutant {m['mutant']}: no check to catch it (expect, or a mode's)")
            checks = (["native"] if "expect" in m else []) + [k for k in MODES if k in m]
            print(m["mutant"], m["file"], ",".join(checks))
        return 0
    if len(argv) == 5 and argv[1] == "--get":
        ms = [m for m in parse(argv[2]) if m["mutant"] == argv[3]]
        if len(ms) != 1 or argv[4] not in ms[0]:
            sys.exit(f"{argv[2]}: no single mutant {argv[3]} with field {argv[4]}")
        print(ms[0][argv[4]])
        return 0
    if len(argv) not in (6, 7):
        sys.exit(__doc__)
    spec, name, src, dst, status = argv[1:6]
    kernel = argv[6] if len(argv) == 7 else None
    ms = [m for m in parse(spec) if m["mutant"] == name]
    if len(ms) != 1:
        sys.exit(f"{spec}: no single mutant named {name}")
    m = ms[0]
    if not src.replace("\\", "/").endswith(m["file"]):
        sys.exit(f"mutant {name} is for {m['file']}, not {src}")
    with open(src) as f:
        lines = f.readlines()
    hits = [i for i, l in enumerate(lines) if l.strip() == m["find"].strip()]
    stale = None
    if len(hits) != 1:
        stale = (f"stale: the spec {spec}, mutant {name}: its 'find' line matches {len(hits)} "
                 f"lines of {m['file']} (want exactly 1); update the spec to the kernel as it is "
                 f"now\n")
        out = lines
    else:
        i = hits[0]
        indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
        new = [indent + part + "\n" for part in m["replace"].split("\\n")]
        out = lines[:i] + [f"/* MUTANT {name}: {m['why']} */\n"] + new + lines[i + 1 :]
    if kernel:  # the header's text in place of the kernel's #include of it
        with open(kernel) as f:
            klines = f.readlines()
        include = f'#include "{os.path.basename(src)}"'
        at = [i for i, l in enumerate(klines) if l.strip() == include]
        if len(at) != 1:
            sys.exit(f"mutant {name}: {kernel} has {len(at)} lines '{include}' (want exactly 1)")
        out = klines[: at[0]] + out + klines[at[0] + 1 :]
    with open(dst, "w") as f:
        f.writelines(out)
    with open(status, "w") as f:
        f.write(stale or "ok\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
