#!/usr/bin/env python3
"""layers.py SRCDIR — the dependency direction of docs/architecture.md, checked on every
quoted #include of the C, header and assembly sources: no arrow runs up.

    kernels/    include only kernels/ (a kernel must be usable, and judged, outside the suite)
    reference/  only reference/ (the judge is independent of the judged and of the oracles)
    oracles     (reference/oracles/) oracles, reference/ headers and the build's config
    emu/        only emu/ (the engines sit below the harness and know nothing of it)
    harness     (fuzz/harness/) the harness, emu/ and the build's config: no family, kernel,
                reference or test
    conventions (fuzz/conventions/) upstream homes' conventions: the harness, emu/, reference/
                headers and each other; no kernel of ours, no family file, no oracle
    families    (fuzz/<family>.c) everything above but verify/
    verify/, tools/  tests, controls, runners and generators: anything

Each quoted include is resolved as the compiler would (the including file's folder first, then
the source root, then fuzz/harness, the build's two -I folders); one that resolves to no file of
the tree must be the build's generated asmdiff-config.h.  Prints every edge that breaks a rule
and exits 1; else prints how many includes of how many files it checked, and exits 0.
"""
import os
import re
import sys

ALLOWED = {
    "kernels": {"kernels"},
    "reference": {"reference"},
    "oracles": {"oracles", "reference", "config"},
    "emu": {"emu"},
    "harness": {"harness", "emu", "config"},
    "conventions": {"conventions", "harness", "emu", "reference", "config"},
    "families": {"families", "harness", "emu", "kernels", "reference", "oracles", "config"},
    "verify": None,  # anything
    "tools": None,
}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def layer(rel):
    parts = rel.split("/")
    if parts[0] == "kernels":
        return "kernels"
    if parts[:2] == ["reference", "oracles"]:
        return "oracles"
    if parts[0] == "reference":
        return "reference"
    if parts[0] == "emu":
        return "emu"
    if parts[:2] == ["fuzz", "harness"]:
        return "harness"
    if parts[:2] == ["fuzz", "conventions"]:
        return "conventions"
    if parts[0] == "fuzz":
        return "families"
    if parts[0] in ("verify", "tools"):
        return parts[0]
    return None


def resolve(top, src, name):
    bases = [os.path.dirname(src), top, os.path.join(top, "fuzz", "harness")]
    if os.path.relpath(src, top).startswith("verify/outside/"):
        # outside kernels are compiled with our compatibility headers on -I
        bases.append(os.path.join(top, "verify", "outside", "include"))
    for base in bases:
        p = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(p):
            return os.path.relpath(p, top)
    return None


# The control: a small tree with one upward include for each rule that matters, each of which
# must be reported, and one allowed include, which must not.
CONTROL = {
    "emu/engine.c": '#include "fuzz/harness/abi.h"\n',           # engine -> harness: up
    "fuzz/harness/abi.h": '#include "fuzz/nh.h"\n',              # harness -> family: up
    "fuzz/nh.h": '#include "verify/selftest.h"\n',               # family -> verify: up
    "kernels/nh/nh.S": '#include "reference/nh.h"\n',            # kernel -> reference
    "reference/nh.h": '#include "reference/oracles/o.h"\n',      # reference -> oracle
    "reference/oracles/o.h": '#include "reference/ok.h"\n',      # allowed
    "reference/ok.h": "",
    "verify/selftest.h": '#include "emu/engine.c"\n',            # allowed
}


def control():
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        for rel, text in CONTROL.items():
            os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
            with open(os.path.join(d, rel), "w") as f:
                f.write(text)
        bad, _, _ = scan(d)
    want = {"emu/engine.c", "fuzz/harness/abi.h", "fuzz/nh.h", "kernels/nh/nh.S",
            "reference/nh.h"}
    got = {b.split(" ")[0].rstrip(":") for b in bad}
    if got == want:
        print(f"layers: control: each of the {len(want)} upward includes was reported, the "
              "allowed ones were not")
        return 0
    print(f"layers: control FAILED: reported {sorted(got)}, expected {sorted(want)}")
    return 1


def main(argv):
    if argv == ["--control"]:
        return control()
    if len(argv) != 1 or not os.path.isdir(argv[0]):
        print("usage: layers.py SRCDIR | --control", file=sys.stderr)
        return 2
    bad, edges, files = scan(os.path.abspath(argv[0]))
    for b in bad:
        print(f"layers: {b}")
    if bad:
        print(f"layers: FAIL: {len(bad)} of {edges} includes run against the layering")
        return 1
    if not edges:
        print("layers: FAIL: no include was found to check")
        return 1
    print(f"layers: {edges} includes of {files} files checked: every arrow points down")
    return 0


def scan(top):
    bad, edges, files = [], 0, 0
    for d in ("kernels", "reference", "emu", "fuzz", "verify", "tools"):
        for root, _, names in os.walk(os.path.join(top, d)):
            for n in sorted(names):
                if not n.endswith((".c", ".h", ".S", ".def")):
                    continue
                path = os.path.join(root, n)
                rel = os.path.relpath(path, top)
                src_layer = layer(rel)
                with open(path, errors="replace") as f:
                    incs = INCLUDE.findall(f.read())
                files += 1
                for inc in incs:
                    edges += 1
                    target = resolve(top, path, inc)
                    if target is None:
                        if os.path.basename(inc) == "asmdiff-config.h":
                            dst_layer = "config"
                        else:
                            bad.append(f"{rel}: #include \"{inc}\" is no file of the tree")
                            continue
                    else:
                        dst_layer = layer(target)
                    ok = ALLOWED[src_layer]
                    if ok is not None and dst_layer not in ok:
                        bad.append(f"{rel} ({src_layer}) includes {target or inc} ({dst_layer}): "
                                   f"{src_layer} may include only {', '.join(sorted(ok))}")
    return bad, edges, files


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
