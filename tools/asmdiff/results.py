#!/usr/bin/env python3
"""results.py — read asmdiff's result stream (JSON lines, docs/results.md).

As a module: read(path) -> records; findings(), summary(), impls() pick them by type;
check_kinds() is the one table of checks (fuzz/harness/checks.def).

As a program, one query for shell scripts (exit 0 with the answer on stdout; 1 when the record
asked for is not there; 2 on a malformed stream or bad usage):

    results.py FILE finding FIELD      FIELD of the first finding
    results.py FILE findings           how many finding records
    results.py FILE summary FIELD      FIELD of the last summary
    results.py FILE impl NAME FIELD    FIELD of the last impl record of NAME
    results.py FILE impls              one line per implementation (its last impl record):
                                       name, kind, available, emulated, reason, describe,
                                       hwf, needs, tab-separated (true/false; lists
                                       space-separated; tabs and newlines in text become
                                       spaces)
    results.py FILE start FIELD        FIELD of the last start record
    results.py FILE set-aside          ASMDIFF_SET_ASIDE's value for a library's levels
                                       (emulated_set_aside)
"""
import json
import os
import re
import sys

VERSION = 1
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class StreamError(Exception):
    pass


def parse(text, where="stream"):
    """Records of a stream's text, in order; StreamError on a malformed line or another
    schema version."""
    recs = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
        except ValueError as e:
            raise StreamError(f"{where}:{n}: not JSON: {e}") from None
        if not isinstance(r, dict) or r.get("v") != VERSION or "type" not in r:
            raise StreamError(f"{where}:{n}: not a version-{VERSION} asmdiff record")
        recs.append(r)
    return recs


def read(path):
    """Records of the stream in the file at path ([] when the file does not exist)."""
    try:
        with open(path, errors="replace") as f:
            return parse(f.read(), path)
    except FileNotFoundError:
        return []


def of_type(recs, type_):
    return [r for r in recs if r["type"] == type_]


def findings(recs):
    return of_type(recs, "finding")


def summary(recs):
    """The last summary record, or None."""
    s = of_type(recs, "summary")
    return s[-1] if s else None


def impls(recs):
    """The last impl record of each implementation, by name, in first-seen order."""
    out = {}
    for r in of_type(recs, "impl"):
        out[r["name"]] = r
    return out


def check_kinds(top=TOP):
    """[{name, enum, heading, row, describe}] from fuzz/harness/checks.def, in its order."""
    kinds = []
    pat = re.compile(r'^CHECK\((\w+), "([^"]*)", "([^"]*)", "([^"]*)", "([^"]*)"\)\s*$')
    with open(os.path.join(top, "fuzz", "harness", "checks.def")) as f:
        for line in f:
            m = pat.match(line)
            if m:
                kinds.append(dict(zip(("enum", "name", "heading", "row", "describe"), m.groups())))
    if not kinds:
        raise StreamError("fuzz/harness/checks.def holds no CHECK line")
    return kinds


def _field(rec, field):
    v = rec.get(field)
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (dict, list)):
        return json.dumps(v)
    return str(v)


def emulated_set_aside(recs):
    """ASMDIFF_SET_ASIDE's value for a library's levels (`check --libgcrypt`, gcrypt_levels.sh):
    our kernels that run emulated on this CPU (their impl record's emulated field), which each
    level would re-run at minutes a level while the library is what the levels vary; where every
    kernel of ours is emulated, the first stays in, so a level still runs one of ours beside the
    library.  Natively run kernels stay: cross-checks at every level."""
    kernels = [r for r in impls(recs).values() if r.get("kind") == "kernel"]
    emulated = [r["name"] for r in kernels if r.get("emulated")]
    if emulated and len(emulated) == len(kernels):
        emulated = emulated[1:]
    return ";".join(emulated)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        recs = read(argv[0])
    except StreamError as e:
        print(f"results.py: {e}", file=sys.stderr)
        return 2
    q = argv[1:]
    if q[0] == "findings" and len(q) == 1:
        print(len(findings(recs)))
        return 0
    if q[0] == "finding" and len(q) == 2:
        f = findings(recs)
        if not f:
            return 1
        print(_field(f[0], q[1]))
        return 0
    if q[0] == "summary" and len(q) == 2:
        s = summary(recs)
        if s is None:
            return 1
        print(_field(s, q[1]))
        return 0
    if q[0] == "impls" and len(q) == 1:
        for r in impls(recs).values():
            cols = [" ".join(r.get(f) or []) if f == "hwf" else _field(r, f)
                    for f in ("name", "kind", "available", "emulated", "reason", "describe",
                              "hwf", "needs")]
            print("\t".join(c.replace("\t", " ").replace("\n", " ") for c in cols))
        return 0
    if q[0] == "set-aside" and len(q) == 1:
        print(emulated_set_aside(recs))
        return 0
    if q[0] == "start" and len(q) == 2:
        s = of_type(recs, "start")
        if not s:
            return 1
        print(_field(s[-1], q[1]))
        return 0
    if q[0] == "impl" and len(q) == 3:
        r = impls(recs).get(q[1])
        if r is None:
            return 1
        print(_field(r, q[2]))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
