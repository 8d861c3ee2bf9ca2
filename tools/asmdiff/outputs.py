"""outputs.py — the CLI's results for machines, in the formats a CI and a code review read:
JSON lines, JUnit XML and Markdown (SARIF is sarif.py).  One writer of each, shared by
premerge (its summary table and test results) and check (its verdict records:
check/formats.py turns check-row/check-verdict records into the cases and tables below)."""
import json
import xml.sax.saxutils as sx

# a JUnit testcase's status: what the case is (pass: no element; the others their element)
STATUSES = ("pass", "failure", "skipped", "error")


def write_jsonl(path, records):
    """records as JSON lines, the file written anew."""
    with open(path, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")


def case(classname, name, status="pass", message="", text="", time=None):
    """One JUnit testcase (a dict junit() writes)."""
    if status not in STATUSES:
        raise ValueError(f"JUnit status {status!r} is not one of {', '.join(STATUSES)}")
    return {"classname": classname, "name": name, "status": status, "message": message,
            "text": text, "time": time}


def junit_xml(name, suites):
    """JUnit XML of suites, a list of (suite name, [case(...)]): the <testsuites> counts, each
    <testsuite> with its tests, failures, errors and skipped, each failing case's message as an
    attribute and its text (the last 4000 characters) as the element's body."""
    def count(cases, status):
        return sum(1 for c in cases if c["status"] == status)

    every = [c for _, cases in suites for c in cases]
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name={sx.quoteattr(name)} tests="{len(every)}" '
           f'failures="{count(every, "failure")}" errors="{count(every, "error")}" '
           f'skipped="{count(every, "skipped")}">']
    for sname, cases in suites:
        out.append(f'<testsuite name={sx.quoteattr(sname)} tests="{len(cases)}" '
                   f'failures="{count(cases, "failure")}" errors="{count(cases, "error")}" '
                   f'skipped="{count(cases, "skipped")}">')
        for c in cases:
            time = f' time="{c["time"]:.2f}"' if c.get("time") is not None else ""
            head = (f'  <testcase classname={sx.quoteattr(c["classname"])} '
                    f'name={sx.quoteattr(c["name"])}{time}>')
            if c["status"] == "pass":
                out.append(head + "</testcase>")
                continue
            body = sx.escape((c.get("text") or "")[-4000:])
            msg = f" message={sx.quoteattr(c.get('message') or '')}"
            out.append(head + f"<{c['status']}{msg}>{body}</{c['status']}></testcase>")
        out.append("</testsuite>")
    out.append("</testsuites>")
    return "\n".join(out) + "\n"


def write_junit(path, name, suites):
    with open(path, "w") as f:
        f.write(junit_xml(name, suites))


def markdown(sections):
    """Markdown of sections, a list of (heading, level, [lines before the table], Table or
    None): each heading (## for level 2), its lines, its table."""
    out = []
    for heading, level, lines, table in sections:
        if out:
            out.append("")
        out.append(f"{'#' * level} {heading}")
        out.append("")
        out += list(lines)
        if lines and table is not None:
            out.append("")
        if table is not None:
            out += table.markdown()
    return "\n".join(out) + "\n"


def write_markdown(path, sections):
    with open(path, "w") as f:
        f.write(markdown(sections))
