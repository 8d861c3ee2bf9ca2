#!/usr/bin/env python3
"""results_selftest.py PROGRAM [ARGS] — every line verify/results_selftest writes is JSON that
parses (python3's json module) to exactly the values it gave: escaping, nesting, a record over
64 KiB, a record written from a signal handler in the middle of another.  Ends with
"N passed, M failed"; exit 0 only when all pass (verify/results_selftest.c lists the records)."""
import json
import os
import shlex
import subprocess
import sys

passed = failed = 0


def check(ok, what):
    global passed, failed
    print(("ok   " if ok else "FAIL ") + what)
    if ok:
        passed += 1
    else:
        failed += 1


def main(argv):
    # a cross build's program runs under the wrapper meson names (qemu-riscv64), a native one
    # under a host profile's qemu-x86_64 (ASMDIFF_RUNNER, verify/host_profile.sh)
    wrapper = shlex.split(os.environ.get("MESON_EXE_WRAPPER", "") or
                          os.environ.get("ASMDIFF_RUNNER", ""))
    out = subprocess.run(wrapper + argv, stdout=subprocess.PIPE, check=True).stdout
    lines = out.split(b"\n")
    check(lines[-1] == b"", "the output ends with a newline")
    recs = []
    for n, raw in enumerate(lines[:-1], 1):
        try:
            recs.append(json.loads(raw.decode("utf-8")))
            check(True, f"line {n} parses ({len(raw)} bytes)")
        except ValueError as e:
            check(False, f"line {n} does not parse: {e}: {raw[:120]!r}")
    by = {r.get("type"): r for r in recs}
    for r in recs:
        check(r.get("v") == 1 and r.get("tool") == "results_selftest" and
              r.get("family") == "selftest" and isinstance(r.get("pid"), int),
              f"{r.get('type')}: the common fields")

    e = by.get("escaping", {})
    expect = {
        "quotes": 'say "hi" \\ back\\slash \\"',
        "controls": "".join(chr(i) for i in range(1, 32)),
        "high": "\u0080\u00ff\u00c3(\u00e2\u0082 end",
        "utf8": "caf\u00e9 \u2713 \U0001f511",
        "overlong": "\u00c0\u00af \u00e0\u0080\u00af \u00ed\u00a0\u0080",
        "empty": "",
        "key \"with\" \n": "v",
        "null_str": None,
        "int_min": -2**63, "int_max": 2**63 - 1, "uint_max": 2**64 - 1,
        "pi": 3.25, "nan": None, "inf": None,
        "yes": True, "no": False, "nothing": None,
        "formatted": "n=42",
    }
    for k, v in expect.items():
        check(k in e and e[k] == v and type(e[k]) is type(v),
              f"escaping: {k!r} is {v!r} (got {e.get(k, '(missing)')!r})")

    n = by.get("nesting", {})
    check(n.get("list") == [{"name": "a", "inner": [1, "two"]}, {}],
          f"nesting: a list of objects holding a list (got {n.get('list')!r})")
    check(n.get("empty_obj") == {} and n.get("empty_list") == [], "nesting: empty containers")
    check(n.get("left_open") == {"also_open": [7]},
          f"nesting: containers left open are closed (got {n.get('left_open')!r})")

    d = by.get("deep", {})
    depth, x = 0, d
    while isinstance(x, dict) and "d" in x:
        x, depth = x["d"], depth + 1
    check(d.get("after") == "kept" and 1 <= depth < 12,
          f"deep: nesting past the limit left out ({depth} levels kept), the rest kept")

    b = by.get("big", {})
    big_len = len(lines[[r.get("type") for r in recs].index("big")]) if "big" in by else 0
    check(b.get("truncated") is True, "big: marked truncated")
    check(b.get("before") == "kept" and "after" not in b,
          "big: the members that fit kept, the rest left out")
    check(0 < len(b.get("chunks", [])) < 8 and
          all(c == '"' + "x" * 9999 for c in b.get("chunks", [])),
          f"big: whole list elements only ({len(b.get('chunks', []))} of 8)")
    check(big_len <= 64 * 1024, f"big: the line is at most 64 KiB ({big_len} bytes)")

    i = by.get("interrupted", {})
    h = by.get("from-handler", {})
    check(h.get("where") == "signal handler", "nested: the handler's record whole")
    check(i.get("first") == "before the signal" and
          i.get("obj") == {"second": "after the signal"},
          f"nested: the interrupted record whole (got {i!r})")
    types = [r.get("type") for r in recs]
    check(types.index("from-handler") < types.index("interrupted") if
          "from-handler" in types and "interrupted" in types else False,
          "nested: the handler's record written first, the interrupted one after")

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
