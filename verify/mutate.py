#!/usr/bin/env python3
"""mutate.py — build a mutant: a copy of a kernel with one deliberate bug, from a spec file.

A spec file (verify/mutants/<family>.mutants) holds blocks:
    mutant: <name>
    file: <kernel path relative to the source root>
    find: <the text of exactly one line of that file, compared without surrounding blanks>
    replace: <replacement line(s); a literal \\n starts a new line>
    why: <the bug it models>

  mutate.py --list SPEC                 print "name file" for every mutant
  mutate.py SPEC NAME INPUT OUTPUT      write INPUT with the mutation applied to OUTPUT

A find that matches no line, or more than one, is an error: a kernel edit that moves the
mutated line breaks the build loudly instead of silently testing an unmutated copy.
"""
import sys


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
            if not sep or key.strip() not in ("mutant", "file", "find", "replace", "why"):
                sys.exit(f"{path}:{lineno}: expected 'mutant|file|find|replace|why: value'")
            cur[key.strip()] = val.strip()
    if cur:
        mutants.append(cur)
    for m in mutants:
        for k in ("mutant", "file", "find", "replace", "why"):
            if k not in m:
                sys.exit(f"{path}: mutant {m.get('mutant', '?')} lacks '{k}'")
    return mutants


def main(argv):
    if len(argv) == 3 and argv[1] == "--list":
        for m in parse(argv[2]):
            print(m["mutant"], m["file"])
        return 0
    if len(argv) != 5:
        sys.exit(__doc__)
    spec, name, src, dst = argv[1:]
    ms = [m for m in parse(spec) if m["mutant"] == name]
    if len(ms) != 1:
        sys.exit(f"{spec}: no single mutant named {name}")
    m = ms[0]
    if not src.replace("\\", "/").endswith(m["file"]):
        sys.exit(f"mutant {name} is for {m['file']}, not {src}")
    with open(src) as f:
        lines = f.readlines()
    hits = [i for i, l in enumerate(lines) if l.strip() == m["find"].strip()]
    if len(hits) != 1:
        sys.exit(f"mutant {name}: 'find' matches {len(hits)} lines of {src}, want exactly 1")
    i = hits[0]
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    new = [indent + part + "\n" for part in m["replace"].split("\\n")]
    out = lines[:i] + [f"/* MUTANT {name}: {m['why']} */\n"] + new + lines[i + 1 :]
    with open(dst, "w") as f:
        f.writelines(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
