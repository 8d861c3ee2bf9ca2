#!/usr/bin/env python3
"""changed_families.py SRCDIR [PATH...] — the families whose kernels a change touches.

Why: ClusterFuzzLite's code-change mode keeps only the fuzzers whose last coverage report
covers a changed file (google/oss-fuzz infra/cifuzz/affected_fuzz_targets.py), and coverage
never sees a .S file: a pull request that changes only kernels/aria/*.S would not have fuzz_aria
chosen for it.  The pull-request workflow asks this script instead, and fuzzes those families.

The changed paths come as arguments or, with none, one a line on standard input (`git diff
--name-only`).  A path maps to family F when F's registration in fuzz/meson.build names it
(a kernel, a generated-constants tool) or names a kernel in the same kernels/ folder (the
folder's headers and constants); a file of kernels/x86_64-common/ (shared macros) maps to the
families with a kernel that includes it.  Prints the families, one a line, sorted; nothing when none.
`--self-test` checks the mapping on known paths (each must map as stated, or exit 1).
"""
import os
import re
import sys


def registrations(root):
    """{family: set of repository paths its registration names} from fuzz/meson.build."""
    text = open(os.path.join(root, "fuzz", "meson.build")).read()
    regs = {}
    for m in re.finditer(r"^families \+= \{'(\w+)': \{(.*?)^\}\}", text, re.M | re.S):
        regs[m.group(1)] = set(re.findall(r"'((?:kernels|tools)/[^']+)'", m.group(2)))
    return regs


def includes(root, kernel, header):
    """Whether kernel's source names header (an #include of a shared file)."""
    try:
        return os.path.basename(header) in open(os.path.join(root, kernel), errors="replace").read()
    except OSError:
        return False


def families_for(root, regs, paths):
    out = set()
    for p in paths:
        p = p.strip()
        if not p:
            continue
        for fam, named in regs.items():
            kernels = [n for n in named if n.startswith("kernels/")]
            if p in named:
                out.add(fam)
            elif p.startswith("kernels/x86_64-common/"):
                if any(includes(root, k, p) for k in kernels):
                    out.add(fam)
            elif p.startswith("kernels/") and \
                    any(os.path.dirname(k) == os.path.dirname(p) for k in kernels):
                out.add(fam)
    return sorted(out)


SELF_TEST = [
    (["kernels/aria/aria-x86_64-avx2-gfni.S"], ["aria"]),
    (["kernels/camellia/camellia-gfni-constants.h"], ["camellia"]),
    (["kernels/x86_64-common/bytesliced-avx2.h"], ["aria", "camellia"]),
    (["tools/gen_aria_gfni.c"], ["aria"]),
    (["README.md", "docs/oss-fuzz.md", "reference/aria.c"], []),
]


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    root = args[0]
    regs = registrations(root)
    if not regs:
        print("changed_families.py: no family registration found in fuzz/meson.build", file=sys.stderr)
        return 1
    if args[1:] == ["--self-test"]:
        bad = 0
        for paths, want in SELF_TEST:
            got = families_for(root, regs, paths)
            if got != want:
                print(f"FAIL: {paths} mapped to {got}, not {want}")
                bad += 1
        print(f"changed_families self-test: {len(SELF_TEST) - bad} of {len(SELF_TEST)} mappings right")
        return 1 if bad else 0
    paths = args[1:] if len(args) > 1 else sys.stdin.read().splitlines()
    for fam in families_for(root, regs, paths):
        print(fam)
    return 0


if __name__ == "__main__":
    sys.exit(main())
