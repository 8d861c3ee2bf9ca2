"""changes.py — `./asmdiff check --changes BASE..HEAD [--tree DIR]`: every changed kernel source
of a commit range in a Linux, libgcrypt or OpenSSL git tree, each checked at HEAD with the file
at BASE as its --baseline (docs/check-your-patch.md, "Check every changed kernel of a commit
range").

What a changed file is checked as comes from the homes table (homes.py): family, convention,
entry points and their CPU needs, include folders, our compatibility folders, --with and
--beside files.  Each file is taken from git at each commit (`git archive`: the file's folder
and its row's folders, as they are at that commit, into build/changes/<key>/{base,head}), so
the work tree's state does not matter and the old file is built with the old headers.  Each
file's entry points are checked in as few `./asmdiff check` runs as the check build allows (four
outside kernels: two new ones and their old twins with a baseline), each run as a command of
its own whose table is shown as it runs and whose records are kept
(build/changes/<key>/<n>.jsonl, its output beside it).

Every changed file gets a line: covered (family, convention, entry points, the verdict, the
baseline's old/new ratios) or why not (not a kernel source; a kernel source with no row yet;
deleted; a file added since BASE is checked without a baseline, and says so).  Exit status: 1
on any finding or a covered file that is not clean, and when no changed file was covered at
all (zero checked is not a pass); 2 for a usage error (not a git tree, a bad range, an unknown
commit, not a tree of a known kind) or a covered file the check refused (it does not build);
0 when every covered file is clean.  JSON records (--json FILE or ASMDIFF_CHECK_JSON): each
check's records with the file they are about ("file"), a changes-file record per changed file,
and a last check-verdict record for the whole range."""
import hashlib
import json
import os
import re
import subprocess
import sys

from .. import builds
from ..builds import TOP, die
from ..table import Table
from . import homes
from .build import OUTSIDE_MAX

# Entry points per check of --changes: 4 (2 with their old twins), half what a check build
# holds (OUTSIDE_MAX): the kernels of one check build share its fuzz budget, so a larger group
# would give each kernel less of it.
PER_CHECK = min(4, OUTSIDE_MAX)
from .verdict import json_path

OURS = os.path.join(TOP, "verify", "outside")
# a convention's own stand-ins (a homes row's "conv:NAME/FILE" beside files)
CONV = os.path.join(TOP, "fuzz", "conventions")
CHECK = [sys.executable, "-B", os.path.join(TOP, "tools", "asmdiff_cmd.py"), "check"]
CHANGE_NAMES = {"A": "added", "M": "modified", "D": "deleted", "R": "renamed", "C": "copied",
                "T": "type changed", "I": "unchanged"}


def git(top, *args, check=True, binary=False):
    """git's stdout in the tree at top; a failure exits 2 with git's words when check."""
    p = subprocess.run(["git", "-C", top] + list(args), capture_output=True,
                       text=not binary)
    if check and p.returncode:
        err = p.stderr if not binary else p.stderr.decode(errors="replace")
        die(f"check --changes: git {' '.join(args[:3])} failed: {err.strip()}")
    return p


def parse_range(text):
    """(BASE, HEAD, merge_base) of BASE..HEAD or BASE...HEAD (an empty side is HEAD, as in
    git); anything else exits 2."""
    m = re.fullmatch(r"(.*?)(\.\.\.?)(.*)", text or "")
    if not m or (not m[1] and not m[3]):
        die(f"check --changes: '{text}' is not a range: give BASE..HEAD (two commits, e.g. "
            "HEAD~1..HEAD or origin/master..my-branch; BASE...HEAD from their merge base)")
    return m[1] or "HEAD", m[3] or "HEAD", m[2] == "..."


def work_tree(d):
    """The top of the git work tree holding d; exits 2 when d is not in one."""
    if not os.path.isdir(d):
        die(f"check --changes: --tree: no folder {d}")
    p = subprocess.run(["git", "-C", d, "rev-parse", "--show-toplevel"], capture_output=True,
                       text=True)
    if p.returncode or not p.stdout.strip():
        die(f"check --changes: {os.path.abspath(d)} is not in a git work tree (--tree DIR names "
            "the tree of Linux, libgcrypt or OpenSSL whose commits to compare; default: here)")
    return p.stdout.strip()


def commit(top, rev, text):
    """rev's commit id; an unknown one exits 2."""
    p = git(top, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", check=False)
    if p.returncode or not p.stdout.strip():
        die(f"check --changes: '{rev}' (in {text}) is not a commit of {top}")
    return p.stdout.strip()


def kind_of(top, rev):
    """The tree kind (homes.TREES) at commit rev, or None."""
    names = set()
    for line in git(top, "ls-tree", rev).stdout.splitlines():
        meta, _, name = line.partition("\t")
        names.add(name + "/" if meta.split()[1] == "tree" else name)
    for _, marks in homes.TREES.values():
        for m in marks:
            if "/" in m.rstrip("/") and not git(top, "cat-file", "-e", f"{rev}:{m}",
                                                check=False).returncode:
                names.add(m)
    return homes.tree_kind(names)


def changed_files(top, base, head):
    """[(status letter, path at HEAD, path at BASE or None)] between the two commits, renames
    and copies followed."""
    out = git(top, "diff", "--name-status", "-z", "-M", "-C", base, head).stdout.split("\0")
    files, i = [], 0
    while i < len(out) and out[i]:
        st = out[i][0]
        if st in "RC":
            files.append((st, out[i + 2], out[i + 1]))
            i += 3
        else:
            files.append((st, out[i + 1], None if st == "A" else out[i + 1]))
            i += 2
    return files


def extract(top, rev, folders, dest):
    """The files directly in each folder (tree-relative) at commit rev, under dest (once: a
    commit's files do not change)."""
    want = []
    for d in dict.fromkeys(folders):
        mark = os.path.join(dest, ".extracted-" + hashlib.sha1(d.encode()).hexdigest()[:10])
        if os.path.exists(mark):
            continue
        ls = git(top, "ls-tree", "-z", rev, "--", (d.rstrip("/") + "/") if d else ".")
        blobs = [e.split("\t", 1)[1] for e in ls.stdout.split("\0")
                 if e and e.split()[1] == "blob"]
        want.append((mark, blobs))
    paths = [p for _, b in want for p in b]
    if paths:
        os.makedirs(dest, exist_ok=True)
        tar = git(top, "archive", "--format=tar", rev, "--", *paths, binary=True)
        p = subprocess.run(["tar", "-x", "-C", dest], input=tar.stdout, capture_output=True)
        if p.returncode:
            die(f"check --changes: cannot unpack {rev}'s files: {p.stderr.decode().strip()}")
    for mark, _ in want:
        os.makedirs(dest, exist_ok=True)
        open(mark, "w").close()


def side(top, rev, path, row, dest):
    """The file at rev as the check takes it: (kernel, include folders, with files, beside
    files), every path under dest (rev's files), ours from verify/outside."""
    tree_files = [path] + row["with"] + [b for b in row["beside"]
                                         if not b.startswith(("ours:", "conv:"))]
    folders = [os.path.dirname(f) for f in tree_files] + row["include"]
    extract(top, rev, folders, dest)
    incs = [os.path.join(dest, d) if d else dest for d in row["include"]] + \
        [os.path.join(OURS, d) for d in row["ours"]]
    beside = [os.path.join(OURS, b[5:]) if b.startswith("ours:") else
              os.path.join(CONV, b[5:]) if b.startswith("conv:") else os.path.join(dest, b)
              for b in row["beside"]]
    return (os.path.join(dest, path), incs, [os.path.join(dest, w) for w in row["with"]],
            beside)


def needs_args(kernels):
    """--needs once for all (or none) when the entry points agree, else once per --symbol."""
    needs = [n for _, n in kernels]
    if len(set(needs)) == 1:
        return ["--needs", needs[0]] if needs[0] else []
    return [x for n in needs for x in ("--needs", n)]


def check_command(family, row, kernels, new, old, budget, fail_fast, records):
    """The ./asmdiff check command of these entry points of one file (new: the HEAD side; old:
    the BASE side or None)."""
    kernel, incs, with_, beside = new
    cmd = CHECK + [family]
    for sym, _ in kernels:
        cmd += ["--kernel", kernel, "--symbol", sym]
    cmd += needs_args(kernels) + ["--convention", row["convention"]]
    cmd += [x for d in incs for x in ("--include", d)]
    cmd += [x for w in with_ for x in ("--with", w)]
    if row["arch"] != "x86_64":
        cmd += ["--arch", row["arch"]]
    cmd += [x for b in beside for x in ("--beside", b)]
    if old:
        cmd += ["--baseline", old[0]] + [x for d in old[1] for x in ("--baseline-include", d)]
    cmd += ["--budget", str(budget), "--json", records] + (["--fail-fast"] if fail_fast else [])
    return cmd


def run_check(cmd, log):
    """Run one check, its output shown as it comes and kept in log; its exit status and the
    lines it printed."""
    env = {k: v for k, v in os.environ.items() if k != "ASMDIFF_CHECK_JSON"}
    lines = []
    with open(log, "w") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             errors="replace", env=env, cwd=TOP)
        for line in p.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            f.write(line)
            lines.append(line.rstrip("\n"))
        rc = p.wait()
    return rc, lines


def read_records(path):
    try:
        with open(path, errors="replace") as f:
            return [json.loads(l) for l in f if l.strip()]
    except (OSError, ValueError):
        return []


def defines(path, symbol):
    """Whether the file's text names symbol."""
    try:
        with open(path, errors="replace") as f:
            return re.search(rf"\b{re.escape(symbol)}\b", f.read()) is not None
    except OSError:
        return False


def rel(path):
    r = os.path.relpath(path, TOP)
    return path if r.startswith("..") else r


# a file's result from its checks' (worst first), and how the summary counts each
ORDER = ("findings", "not clean", "refused", "clean")
COUNTED = {"findings": "with findings", "not clean": "not clean", "refused": "refused by the check",
           "clean": "clean"}


def check_file(top, kind, ws, base, head, st, path, old_path, row, a, n, out, via=None):
    """Check one covered file (every entry point, in as few checks as the build allows); its
    changes-file record.  out collects the checks' records.  via: the changed files an
    unchanged one is checked for (it includes or links them)."""
    os.makedirs(ws, exist_ok=True)
    new = side(top, head, path, row, os.path.join(ws, "head"))
    old = side(top, base, old_path, row, os.path.join(ws, "base")) if old_path else None
    syms = [s for s, _ in row["kernels"]]
    print(f"\n=== {path} ({CHANGE_NAMES.get(st, st)}" +
          (f"; it includes {', '.join(via)}" if via else "") +
          f"): {row['family']}, {row['convention']} "
          f"convention, {len(syms)} entry point{'s' if len(syms) > 1 else ''}: {', '.join(syms)}"
          + ("" if old else " — no file at BASE: checked without a baseline"), flush=True)
    # an entry point the HEAD file names and the BASE file does not is new: no baseline for
    # it (names a macro builds are in neither text: the old file is taken to define them, and
    # the check refuses it, naming what it defines, if not)
    with_base = [k for k in row["kernels"]
                 if old and (defines(old[0], k[0]) or not defines(new[0], k[0]))]
    without = [k for k in row["kernels"] if k not in with_base]
    runs = [(g, old) for g in homes.groups({"kernels": with_base}, PER_CHECK // 2)] + \
        [(g, None) for g in homes.groups({"kernels": without}, PER_CHECK)]
    checks, ratios, results_ = [], [], []
    for group, o in runs:
        n[0] += 1
        records = os.path.join(ws, f"{n[0]}.jsonl")
        if os.path.exists(records):
            os.remove(records)
        cmd = check_command(row["family"], row, group, new, o, a.budget, a.fail_fast, records)
        rc, lines = run_check(cmd, os.path.join(ws, f"{n[0]}.log"))
        recs = read_records(records)
        verdict = next((r for r in reversed(recs) if r.get("type") == "check-verdict"), None)
        if verdict and rc in (0, 1):
            result = {"clean": "clean", "findings": "findings"}.get(verdict["verdict"],
                                                                     "not clean")
        elif rc == 2:
            result = "refused"
        else:
            result = "not clean"
        why = ""
        if result == "refused":
            why = next((l for l in lines if l.startswith("asmdiff:")), f"exit {rc}")
        elif rc == 77:
            why = "nothing could run here (exit 77)"
        elif result == "not clean":
            why = "not clean: " + (f"rows not established: {', '.join(verdict['unestablished'])}"
                                   if verdict and verdict.get("unestablished") else
                                   f"exit {rc}" + ("" if verdict else ", no verdict written"))
        for r in recs:
            r["file"] = path
            if r.get("type") == "check-row" and r.get("result") in ("FINDING", "FAIL") and \
                    not why:
                f = r.get("finding") or {}
                why = f"{r.get('check')}: {r['result']} " + (
                    f"{f.get('kind')} ({f.get('implementation')})" if f else
                    str(r.get("detail"))[:100])
            if r.get("type") == "bench-ratio":
                ratios.append(f"{r.get('kernel')} {r.get('op')} old/new {r.get('text')}")
        out.extend(recs)
        results_.append(result)
        checks.append({"symbols": [s for s, _ in group], "baseline": bool(o), "exit": rc,
                       "result": result, "why": why or None, "records": records,
                       "log": os.path.join(ws, f"{n[0]}.log"), "command": cmd[2:]})
    result = min(results_, key=ORDER.index)
    return {"type": "changes-file", "file": path, "change": CHANGE_NAMES.get(st, st),
            "old_path": old_path, "covered": True, "reason": None, "result": result,
            "family": row["family"], "convention": row["convention"], "symbols": syms,
            "baseline": bool(old), "ratios": ratios, "checks": checks, "via": via or []}


def check_changes(a):
    """The command: every changed file of the range, each covered one checked; exit status in
    the module's docstring."""
    top = work_tree(a.tree or ".")
    b, h, merge_base = parse_range(a.changes)
    base, head = commit(top, b, a.changes), commit(top, h, a.changes)
    if merge_base:
        base = git(top, "merge-base", base, head).stdout.strip()
    kind = kind_of(top, head)
    if not kind:
        die(f"check --changes: {top} at {h} is not a tree asmdiff knows: a Linux tree (Kbuild "
            "and arch/ at its top), libgcrypt (cipher/ and src/gcrypt.h.in) or OpenSSL (crypto/ "
            "and Configure)")
    files = changed_files(top, base, head)
    key = hashlib.sha1(json.dumps([1, kind, base, head]).encode()).hexdigest()[:10]
    ws = os.path.join(builds.BUILD, "changes", f"{kind}-{key}")
    name = homes.TREES[kind][0]
    print(f"== check --changes {a.changes}: {base[:12]}..{head[:12]} in {top} ({name} tree): "
          f"{len(files)} changed file{'s' if len(files) != 1 else ''}; each check's output "
          f"and records in {rel(ws)}", flush=True)
    recs, lines, n = [], [], [0]
    changed = {p for _, p, _ in files}
    via = {}  # an unchanged homed file -> the changed files it includes (or links: --with)
    for st, path, old_path in files:
        row, why = homes.classify(kind, path)
        if st == "D":
            why, row = "deleted: no file at HEAD to check", None
        if row is None:
            users = [] if st == "D" else includers(top, kind, head, path, changed)
            for u in users:
                via.setdefault(u, []).append(path)
            lines.append({"type": "changes-file", "file": path,
                          "change": CHANGE_NAMES.get(st, st), "old_path": old_path,
                          "covered": False, "reason": why, "result": "not covered",
                          "included_by": users})
            continue
        lines.append(check_file(top, kind, ws, base, head, st, path, old_path, row, a, n, recs))
    for path, what in via.items():
        # unchanged, but built from a changed file: checked as it builds at each commit
        at_base = not git(top, "cat-file", "-e", f"{base}:{path}", check=False).returncode
        f = check_file(top, kind, ws, base, head, "I", path, path if at_base else None,
                       homes.HOMES[kind][path], a, n, recs, via=what)
        lines.append(f)
    return report(a, kind, base, head, lines, recs)


def includers(top, kind, head, path, changed):
    """The homed files, unchanged in the range, that include path (a file of their own folder
    or of their row's include folders, by its name, with quotes or angle brackets) or link it
    (--with), or have it copied beside them (--beside), at HEAD."""
    folder, name = os.path.dirname(path), os.path.basename(path)
    users = []
    for rpath, row in homes.HOMES[kind].items():
        if rpath in changed:
            continue
        if path in row["with"] or path in row["beside"]:
            users.append(rpath)
            continue
        if folder != os.path.dirname(rpath) and folder not in row["include"]:
            continue
        p = git(top, "show", f"{head}:{rpath}", check=False)
        if not p.returncode and re.search(rf'#\s*include\s*["<]{re.escape(name)}[">]', p.stdout):
            users.append(rpath)
    return users


def report(a, kind, base, head, lines, recs):
    """The table of every changed file, the summary line, the records; the exit status."""
    t = Table(("file", "change", "result", "detail"), pad=2)
    for f in lines:
        if not f["covered"]:
            by = f.get("included_by") or []
            t.add(f["file"], f["change"], "not covered", f["reason"] + (
                f"; {', '.join(by)} include{'s' if len(by) == 1 else ''} it: checked below"
                if by else ""))
            continue
        d = f"{f['family']}, {f['convention']} convention: {', '.join(f['symbols'])}"
        if f["via"]:
            d += f"; checked for {', '.join(f['via'])}, which it includes (or links)"
        if not f["baseline"]:
            d += "; added since BASE: checked without a baseline"
        elif f["old_path"] != f["file"]:
            d += f"; baseline {f['old_path']} (BASE)"
        for c in f["checks"]:
            if f["baseline"] and not c["baseline"]:
                d += (f"; {'+'.join(c['symbols'])}: not named in the BASE file, checked "
                      "without a baseline")
            if c["why"]:
                d += f"; {'+'.join(c['symbols'])}: {c['why']}"
        t.add(f["file"], f["change"], f["result"], d)
        for r in f["ratios"]:
            t.add("", "", "", f"  bench {r}")
        if f["baseline"] and not f["ratios"] and not a.fail_fast:
            t.add("", "", "", "  bench: no old/new ratio from the check's bench (its table says "
                              "why: a stage that stopped it, or no bench row for this convention)")
        for c in f["checks"]:
            t.add("", "", "", f"  table: {rel(c['log'])} (records {rel(c['records'])})")
    covered = [f for f in lines if f["covered"]]
    count = {r: sum(f["result"] == r for f in covered) for r in ORDER}
    nchanged = sum(not f.get("via") for f in lines)
    uncovered = len(lines) - len(covered)
    nvia = len(covered) - sum(not f.get("via") for f in covered)
    parts = [f"{count[r]} {COUNTED[r]}" for r in ORDER if count[r]] + \
        ([f"{uncovered} not covered"] if uncovered else [])
    summary = (f"checked {len(covered) - nvia} of {nchanged} changed file"
               f"{'s' if nchanged != 1 else ''}" +
               (f" and {nvia} unchanged file{'s' if nvia != 1 else ''} that "
                f"include{'' if nvia != 1 else 's'} one" if nvia else "") +
               ": " + ("; ".join(parts) or "none"))
    if count["findings"] or count["not clean"]:
        verdict, rc = ("findings" if count["findings"] else "not-clean"), 1
        last = "changes: FINDINGS or failures (each in its file's table above)"
    elif count["refused"]:
        verdict, rc = "refused", 2
        last = "changes: a changed file could not be checked as it is (the check refused it)"
    elif not covered:
        verdict, rc = "none-covered", 1
        last = ("changes: NOT CLEAN: no changed kernel source covered (nothing was checked, "
                "which is not a pass)")
    else:
        verdict, rc = "clean", 0
        last = "changes: clean"
    print(f"\n== check --changes {a.changes} ({homes.TREES[kind][0]} tree, "
          f"{base[:12]}..{head[:12]})")
    t.print()
    print(summary)
    print(last)
    out = json_path(a)
    if out:
        with open(out, "w") as f:
            for r in recs + lines:
                f.write(json.dumps(r) + "\n")
            f.write(json.dumps({"type": "check-verdict", "verdict": verdict, "exit": rc,
                                "title": f"changes {a.changes}", "base": base, "head": head,
                                "tree": kind, "changed": nchanged, "checked": len(covered),
                                "counts": count, "not_covered": uncovered, "summary": summary,
                                "rows": 0, "unestablished": []}) + "\n")
    return rc
