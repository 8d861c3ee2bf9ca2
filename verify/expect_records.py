#!/usr/bin/env python3
"""expect_records.py — a test that judges records, never the human text.

    expect_records.py [--stream] [--exit N] EXPECT... -- CMD...
    expect_records.py [--stream] --records FILE EXPECT...     (judge a file; the self-test's)

Runs CMD with ASMDIFF_CHECK_JSON naming a fresh file (./asmdiff check's verdict: check-row and
check-verdict records, docs/results.md "The check's verdict"), or with --stream, ASMDIFF_RESULTS
(a family program's result stream: start, impl, finding, info, summary), then asserts every
EXPECT on those records.  Passes (0) when all hold; fails (1) printing what the records said.
CMD's exit 77 (it could not run here) is passed on as a skip; an exit other than 0 and 1 (a
crash, a usage error) fails; a check's exit must be its check-verdict record's "exit" (and N,
with --exit N).  `--exit 2` expects a usage error instead: exit 2 and no check-verdict
record (./asmdiff check writes none then), judged by its `output` lines.

An EXPECT is one argument, split like a shell line (quote a stage or a value with spaces):

    EXPECT := [no | every] RECORD [TERM...] [where TERM...]
    RECORD := row[:STAGE] | verdict | ratio | finding | summary | impl | info | start | output
    TERM   := FIELD OP VALUE

  - RECORD names the records looked at: `row:STAGE` the check-rows whose `stage` is STAGE
    (`row` or `row:*`: every row), `verdict` the check-verdict, `ratio` the check's bench-ratio
    records (--baseline's old/new with its interval), the others the stream's records
    of that type (`summary`: the last one).  `verdict=V` alone is short for `verdict verdict=V`.
    `output` is the one exception to records: each line CMD printed, as {"text": LINE}, for
    what no record carries yet (the bench table of `check --baseline`); every use of it is a
    test that still reads the human text.
  - some (the default): at least one of them satisfies every TERM; `no`: none does; `every`:
    each of them that satisfies the TERMs after `where` satisfies the TERMs before it, and at
    least one does.
  - FIELD is a record's field, dotted into an object (`finding.check`); OP is `=` `!=`
    (compared as text: null, true, false, numbers as JSON writes them), `>` `>=` `<` `<=`
    (numbers; a null is never greater or smaller), or `~` (a regular expression searched in the
    field's text: for what a record carries only as text, such as a row's `detail`).

Examples:

    verdict=clean
    'row:kat kernel=nh_sse2 result=pass calls>0'
    'row:kat result=FINDING finding.kind=MISMATCH finding.implementation=nh_sse2'
    'every row:* calls>0 where result=pass stage!=build stage!=operations'
    'no row:* result=FINDING'
    --stream 'summary exit=0 compared_calls>0' 'no finding'
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPS = ("!=", ">=", "<=", "=", ">", "<", "~")
TERM = re.compile(r"^([A-Za-z_][A-Za-z0-9_.]*)(!=|>=|<=|=|>|<|~)(.*)$", re.S)
TYPES = {"row": "check-row", "verdict": "check-verdict", "ratio": "bench-ratio"}


class Bad(Exception):
    pass


def parse(spec):
    """An EXPECT as (quantifier, record type, stage or None, terms, where-terms)."""
    try:
        words = shlex.split(spec)
    except ValueError as e:
        raise Bad(f"EXPECT '{spec}': {e}") from None
    if len(words) == 1 and words[0].startswith("verdict="):
        words = ["verdict", words[0]]
    quant = "some"
    if words and words[0] in ("no", "every"):
        quant = words.pop(0)
    if not words:
        raise Bad(f"EXPECT '{spec}': no record named")
    rec, _, stage = words.pop(0).partition(":")
    if rec not in ("row", "verdict", "ratio", "finding", "summary", "impl", "info", "start",
                   "output"):
        raise Bad(f"EXPECT '{spec}': no record kind '{rec}'")
    terms, where, into = [], [], None
    into = terms
    for w in words:
        if w == "where":
            into = where
            continue
        m = TERM.match(w)
        if not m:
            raise Bad(f"EXPECT '{spec}': '{w}' is not FIELD OP VALUE")
        into.append(m.groups())
    if quant == "every" and not where:
        where = []
    return quant, TYPES.get(rec, rec), (stage if stage not in ("", "*") else None), terms, where


def field(r, name):
    for part in name.split("."):
        if not isinstance(r, dict):
            return None
        r = r.get(part)
    return r


def text(v):
    return v if isinstance(v, str) else json.dumps(v)


def holds(r, term):
    name, op, want = term
    v = field(r, name)
    if op == "=":
        return text(v) == want
    if op == "!=":
        return text(v) != want
    if op == "~":
        return v is not None and re.search(want, text(v)) is not None
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        return False
    w = float(want)
    return {">": v > w, ">=": v >= w, "<": v < w, "<=": v <= w}[op]


def judge(spec, recs):
    """None when the EXPECT holds, else why not."""
    quant, type_, stage, terms, where = parse(spec)
    pool = [r for r in recs if r.get("type") == type_ and
            (stage is None or r.get("stage") == stage)]
    if type_ == "summary":
        pool = pool[-1:]
    if quant == "every":
        scope = [r for r in pool if all(holds(r, t) for t in where)]
        if not scope:
            return "no record in its scope"
        bad = [r for r in scope if not all(holds(r, t) for t in terms)]
        return f"{len(bad)} of {len(scope)} do not: {show(bad[0])}" if bad else None
    hits = [r for r in pool if all(holds(r, t) for t in terms)]
    if quant == "no":
        return f"one does: {show(hits[0])}" if hits else None
    if hits:
        return None
    return f"none of {len(pool)} such records does" if pool else "no such record"


def show(r):
    if r.get("type") == "check-row":
        f = r.get("finding") or {}
        return (f"{r['check']!r} {r.get('result')} kernel={r.get('kernel')} cases={r.get('cases')} "
                f"calls={r.get('calls')}" + (f" finding={f.get('check')}/{f.get('kind')}/"
                                            f"{f.get('implementation')}" if f else "") +
                f" | {str(r.get('detail'))[:120]}")
    keep = {k: v for k, v in r.items() if k not in ("v", "argv", "env", "buffers", "params",
                                                      "details", "cpu", "detected")}
    return json.dumps(keep)[:300]


def runner(cmd):
    """An x86-64 program of ours starts under a host profile's qemu (ASMDIFF_RUNNER,
    verify/host_profile.sh), a script or a system program natively (as expect_finding.sh)."""
    run = os.environ.get("ASMDIFF_RUNNER", "").split()
    if not run or not os.path.isfile(cmd[0]):
        return cmd
    with open(cmd[0], "rb") as f:
        if f.read(4) != b"\x7fELF":
            return cmd
    path = os.path.realpath(cmd[0])
    build = os.path.realpath(os.environ.get("ASMDIFF_BUILD", os.path.join(TOP, "build")))
    return run + cmd if path.startswith((TOP + "/", build + "/")) else cmd


def main(argv):
    stream, want_exit, records = False, None, None
    while argv and argv[0].startswith("--") and argv[0] != "--":
        opt = argv.pop(0)
        if opt == "--stream":
            stream = True
        elif opt == "--exit":
            want_exit = int(argv.pop(0))
        elif opt == "--records":
            records = argv.pop(0)
        else:
            print(f"expect_records.py: no option {opt}", file=sys.stderr)
            return 2
    if records is None and "--" not in argv:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    specs = argv[:argv.index("--")] if "--" in argv else argv
    cmd = argv[argv.index("--") + 1:] if "--" in argv else []
    try:
        for s in specs:
            parse(s)
    except (Bad, ValueError) as e:
        print(f"expect_records.py: {e}", file=sys.stderr)
        return 2
    rc, lines = None, []
    with tempfile.TemporaryDirectory(prefix="asmdiff-expect.") as tmp:
        path = records or os.path.join(tmp, "records.jsonl")
        if records is None:
            var = "ASMDIFF_RESULTS" if stream else "ASMDIFF_CHECK_JSON"
            # CMD's text goes on to the log as it comes, and is kept for `output`
            p = subprocess.Popen(runner(cmd), env=dict(os.environ, **{var: path}),
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                 errors="replace")
            for line in p.stdout:
                sys.stdout.write(line)
                sys.stdout.flush()
                lines.append(line.rstrip("\n"))
            rc = p.wait()
            if rc == 77:
                print("SKIP: the command could not run here (exit 77; its reason above)")
                return 77
        try:
            with open(path, errors="replace") as f:
                recs = [json.loads(l) for l in f if l.strip()]
        except FileNotFoundError:
            recs = []
        except ValueError as e:
            recs, rc = [], f"{rc} (a malformed record: {e})"
    nrecs = len(recs)
    recs += [{"type": "output", "text": l} for l in lines]
    problems = []
    # --exit 2: a usage error is what is expected (judged by its `output`): no verdict written
    usage = want_exit == 2
    if rc is not None and rc not in (0, 1) and not (usage and rc == 2):
        problems.append(f"the command exited {rc}: a crash or a usage error, not a verdict")
    verdicts = [r for r in recs if r.get("type") == "check-verdict"]
    summaries = [r for r in recs if r.get("type") == "summary"]
    if usage and verdicts:
        problems.append("a usage error was expected, and the check wrote a verdict")
    elif not stream and not verdicts and not usage:
        problems.append("no check-verdict record: the check wrote no verdict")
    elif rc in (0, 1):
        said = verdicts[-1]["exit"] if verdicts else (summaries[-1].get("exit") if summaries
                                                      else None)
        if said is not None and said != rc:
            problems.append(f"the command exited {rc}, its records say exit {said}")
    if rc is not None and want_exit is not None and rc != want_exit:
        problems.append(f"the command exited {rc}, not {want_exit}")
    for s in specs:
        why = judge(s, recs)
        print(f"{'ok' if why is None else 'NOT'}: {s}" + ("" if why is None else f": {why}"))
        if why is not None:
            problems.append(f"'{s}': {why}")
    if not problems:
        print(f"{len(specs)} expectations hold on {nrecs} records")
        return 0
    print(f"-- the records ({nrecs}):")
    for r in recs:
        if r.get("type") in ("check-row", "check-verdict", "finding", "summary") or \
                (stream and r.get("type") != "output"):
            print("  " + show(r))
    for p in problems:
        print(f"FAILED: {p}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
