"""sarif.py — findings as SARIF 2.1.0, so a pull request shows each on its source line.

One result per finding record: ruleId the check's name, level error, the message the report's
heading and title, the location the finding's `source` ("path:line") relative to the
repository root (uriBaseId %SRCROOT%), or the kernel's file without a region when the finding
names no line.  The rules are the table of checks (checks.def)."""
import json
import os

from . import results

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def artifact(path, top):
    """An artifactLocation: relative to the source root when the file is in it."""
    if os.path.isabs(path):
        rel = os.path.relpath(path, top)
        if rel.startswith(".."):
            return {"uri": "file://" + path}
        path = rel
    return {"uri": path.replace(os.sep, "/"), "uriBaseId": "%SRCROOT%"}


def location(finding, kernel, top):
    src = finding.get("source")
    if src:
        path, _, line = src.rpartition(":")
        if path and line.isdigit() and int(line) > 0:
            return {"physicalLocation": {"artifactLocation": artifact(path, top),
                                         "region": {"startLine": int(line)}}}
        return {"physicalLocation": {"artifactLocation": artifact(src, top)}}
    if kernel:
        return {"physicalLocation": {"artifactLocation": artifact(kernel, top)}}
    return None


def result(finding, kernel=None, top=results.TOP):
    fam = finding.get("family", "?")
    text = f"{finding.get('heading', '?')} in {fam}: {finding.get('title', '')}"
    if finding.get("reproduce"):
        text += f"\nreproduce: {finding['reproduce']}"
    r = {"ruleId": finding.get("check", "?"), "level": "error", "message": {"text": text}}
    loc = location(finding, kernel, top)
    if loc:
        r["locations"] = [loc]
    return r


def distinct(findings):
    """One per (check, implementation, source): the stages of a command may each report the
    same finding."""
    seen, out = set(), []
    for f in findings:
        key = (f.get("check"), f.get("implementation"), f.get("source"))
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def log(findings, kinds, kernel=None, top=results.TOP):
    """The SARIF log (a dict) of these finding records; kernel: the file a finding without a
    source line is about (check --kernel), or None."""
    rules = [{"id": k["name"], "name": k["enum"].title().replace("_", ""),
              "shortDescription": {"text": k["describe"]}} for k in kinds]
    return {"version": "2.1.0", "$schema": SCHEMA,
            "runs": [{"tool": {"driver": {"name": "asmdiff", "rules": rules}},
                      "originalUriBaseIds": {
                          "%SRCROOT%": {"uri": "file://" + top.rstrip("/") + "/"}},
                      "results": [result(f, kernel, top) for f in distinct(findings)]}]}


def write(path, findings, kernel=None, top=results.TOP):
    with open(path, "w") as f:
        json.dump(log(findings, results.check_kinds(top), kernel, top), f, indent=1)
        f.write("\n")
