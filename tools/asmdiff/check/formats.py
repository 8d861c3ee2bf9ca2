"""formats.py — a check's verdict records (check-row, bench-ratio, check-verdict:
docs/results.md) in the formats a CI and a code review read: JSON lines, JUnit XML, Markdown and
SARIF 2.1.0, each written from the records alone, so one check or several (`check --changes`:
each check's records end with its check-verdict) go into one file of each.

    write(records, json=FILE, junit=FILE, markdown=FILE, sarif=FILE)

A finding's place in the author's tree is its row's `finding.location` (location() below): the
file, the line (the instruction's source line when the finding names one, else the line that
defines the entry point), and the repository root its URI is relative to (--source-root, else
the git top level of the kernel file's folder)."""
import json as jsonlib
import os
import re
import subprocess

from .. import outputs, results
from ..table import Table

# a row's result -> its JUnit status: a row not established makes the verdict not clean (exit
# 1), so it fails the case too; n/a and skip say why nothing ran
JUNIT_STATUS = {"pass": "pass", "info": "pass", "FINDING": "failure", "FAIL": "failure",
                "-": "failure", "n/a": "skipped", "skip": "skipped"}
VERDICT_WORDS = {"clean": "clean", "findings": "FINDINGS", "not-clean": "NOT CLEAN"}
# checks a check row can carry that are not in checks.def (the CLI's own)
EXTRA_RULES = {"valgrind-ct": "Valgrind memcheck: a branch or an address that depends on the "
                              "secret inputs"}


def source_root(path, given=None):
    """The repository root a kernel file's URI is relative to: given (--source-root), else the
    git top level of the file's folder, else that folder."""
    if given:
        return os.path.abspath(given)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        p = subprocess.run(["git", "-C", folder, "rev-parse", "--show-toplevel"],
                           capture_output=True, text=True)
    except OSError:
        return folder
    top = p.stdout.strip()
    return top if p.returncode == 0 and top else folder


def entry_line(path, symbol, depth=0):
    """(file, line) of the line that defines symbol, in path or a file it includes by a quoted
    name (a planted copy that includes the original): its label (`sym:`, also inside
    C_SYMBOL_NAME(sym:)), a START macro (`SYM_FUNC_START(sym)`, `ENTRY(sym)`), its `.globl`, or a
    C definition (`... sym(` not ending in `;`); (path, None) when none is found."""
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return path, None
    s = re.escape(symbol)
    for pat in (rf"(?<![\w.$]){s}\s*:(?!:)", rf"\b\w*(START|ENTRY)\w*\(\s*{s}\s*[,)]",
                rf"^\s*\.glob(a)?l\s+{s}\b", rf"(?<![\w.$]){s}\s*\([^;]*$"):
        for n, line in enumerate(lines, 1):
            if re.search(pat, line.split("//")[0]):
                return path, n
    for line in lines if depth < 3 else ():
        m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
        near = os.path.join(os.path.dirname(path), m.group(1)) if m else None
        if near and os.path.isfile(near):
            found = entry_line(near, symbol, depth + 1)
            if found[1]:
                return found
    return path, None


def location(finding, file=None, symbol=None, root=None):
    """Where a finding is in the author's tree, for its row record and SARIF: {"file" (absolute),
    "line" (or None), "from" ("instruction": the finding's source line; "entry point": the line
    defining the symbol), "root", "uri" (file relative to root, "/" separated; absolute
    "file://" when the file is outside root)}; None when neither the finding nor the kernel
    names a file."""
    where, line, how = file, None, None
    src = finding.get("source") or ""
    path, _, num = src.rpartition(":")
    if path and num.isdigit() and int(num) > 0:
        if not os.path.isabs(path):
            # our own files are relative to the source root; an outside one as given
            path = path if os.path.exists(path) else os.path.join(results.TOP, path)
        where, line, how = os.path.abspath(path), int(num), "instruction"
    elif file and symbol:
        where, line = entry_line(file, symbol)
        where = os.path.abspath(where)
        how = "entry point" if line else None
    if not where:
        return None
    base = source_root(file or where, root)
    rel = os.path.relpath(where, base)
    uri = ("file://" + where) if rel.startswith("..") else rel.replace(os.sep, "/")
    return {"file": where, "line": line, "from": how, "root": base, "uri": uri}


def checks(records):
    """The records as checks: [(rows, bench-ratio records, check-verdict or None)], each check
    ending at its check-verdict."""
    out, rows, ratios = [], [], []
    for r in records:
        if r.get("type") == "check-row":
            rows.append(r)
        elif r.get("type") == "bench-ratio":
            ratios.append(r)
        elif r.get("type") == "check-verdict":
            out.append((rows, ratios, r))
            rows, ratios = [], []
    if rows or ratios:
        out.append((rows, ratios, None))
    return out


def junit_suites(records):
    """One testsuite per check (its title), one testcase per row: FINDING, FAIL and rows not
    established fail (their detail the message), n/a and skip are skipped with why."""
    suites = []
    for rows, ratios, verdict in checks(records):
        title = (verdict or {}).get("title") or "check"
        cases = []
        for r in rows:
            f = r.get("finding") or {}
            text = r["detail"]
            if f.get("reproduce"):
                text += f"\n(the reproduce line runs in {f.get('cwd') or results.TOP})"
            cases.append(outputs.case(title, r["check"].strip(),
                                      JUNIT_STATUS.get(r["result"], "failure"),
                                      message=r["detail"], text=text))
        for b in ratios:
            cases.append(outputs.case(title, f"bench {b.get('op')}: {b.get('kernel')} vs "
                                             f"{b.get('old')}", "pass", text=b.get("text", "")))
        suites.append((title, cases))
    return suites


def markdown_sections(records):
    """Per check: its title and verdict as the heading, the verdict table (check, result,
    detail, cases, calls), then --baseline's ratios."""
    sections = []
    for rows, ratios, verdict in checks(records):
        v = verdict or {}
        word = VERDICT_WORDS.get(v.get("verdict"), "no verdict")
        cwd = next((r["finding"].get("cwd") for r in rows if r.get("finding")), None)
        lines = [f"Each finding reproduces with the command in its row, run in `{cwd}`."] \
            if cwd else []
        table = Table(("check", "result", "detail", "cases", "calls"),
                      [(r["check"].strip() if r["check"].startswith("  ") else r["check"],
                        r["result"], r["detail"],
                        "" if r.get("cases") is None else r["cases"],
                        "" if r.get("calls") is None else r["calls"]) for r in rows])
        sections.append((f"asmdiff {v.get('title') or 'check'}: {word} (exit {v.get('exit', '?')})",
                         2, lines, table))
        if ratios:
            sections.append(("old/new (--baseline's bench)", 3, [],
                             Table(("kernel", "old", "operation", "old/new"),
                                   [(b.get("kernel"), b.get("old"), b.get("op"), b.get("text"))
                                    for b in ratios])))
    return sections


def sarif_log(records, top=results.TOP):
    """SARIF 2.1.0 of the FINDING rows: one result per distinct (check, kernel, place), ruleId
    the check, the location its row's finding.location (URI relative to the repository root,
    uriBaseId %SRCROOT%, originalUriBaseIds naming that root; a region where there is a line);
    one run per repository root."""
    kinds = results.check_kinds(top)
    rules = [{"id": k["name"], "name": k["enum"].title().replace("_", ""),
              "shortDescription": {"text": k["describe"]}} for k in kinds]
    known = {k["name"] for k in kinds}
    runs, seen = {}, set()
    for r in records:
        f = r.get("finding") if r.get("type") == "check-row" else None
        if not f:
            continue
        loc = f.get("location") or {}
        key = (f.get("check"), f.get("implementation"), loc.get("uri"), loc.get("line"))
        if key in seen:
            continue
        seen.add(key)
        if f.get("check") not in known:
            known.add(f.get("check"))
            rules.append({"id": f.get("check") or "?", "name": f.get("check") or "?",
                          "shortDescription": {"text": EXTRA_RULES.get(f.get("check"),
                                                                       f.get("kind") or "?")}})
        text = f"{f.get('kind', '?')} in {f.get('family') or '?'}: {f.get('title') or r['detail']}"
        if loc.get("from") == "entry point":
            text += " (no instruction named: placed at the entry point)"
        if f.get("reproduce"):
            text += f"\nreproduce (in {f.get('cwd') or top}): {f['reproduce']}"
        res = {"ruleId": f.get("check") or "?", "level": "error", "message": {"text": text}}
        if loc.get("uri"):
            phys = {"artifactLocation": {"uri": loc["uri"]}}
            if not loc["uri"].startswith("file://"):
                phys["artifactLocation"]["uriBaseId"] = "%SRCROOT%"
            if loc.get("line"):
                phys["region"] = {"startLine": loc["line"]}
            res["locations"] = [{"physicalLocation": phys}]
        runs.setdefault(loc.get("root"), []).append(res)
    if not runs:
        runs[None] = []
    out = []
    for root, res in runs.items():
        run = {"tool": {"driver": {"name": "asmdiff", "rules": rules}}, "results": res}
        if root:
            run["originalUriBaseIds"] = {"%SRCROOT%": {"uri": "file://" + root.rstrip("/") + "/"}}
        out.append(run)
    return {"version": "2.1.0", "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "runs": out}


def write(records, json=None, junit=None, markdown=None, sarif=None):
    """Each format asked for (a path, or None), from the records of one check or several."""
    records = list(records)
    if json:
        outputs.write_jsonl(json, records)
    if junit:
        outputs.write_junit(junit, "asmdiff check", junit_suites(records))
    if markdown:
        outputs.write_markdown(markdown, markdown_sections(records))
    if sarif:
        with open(sarif, "w") as f:
            jsonlib.dump(sarif_log(records), f, indent=1)
            f.write("\n")
