"""verdict.py — the verdict table of a check: its rows, the exit status from them, and the same
rows as JSON records (`check --json FILE`, or ASMDIFF_CHECK_JSON=FILE; docs/results.md), also
as JUnit XML, Markdown and SARIF (`--junit`, `--markdown`, `--sarif`: formats.py)."""
import os

from .. import stage
from ..builds import TOP
from ..table import Table
from . import formats

COLUMNS = ("check", "result", "detail")


def json_path(a=None):
    """Where a check writes its JSON records: --json FILE, else ASMDIFF_CHECK_JSON, else
    nowhere (None)."""
    return getattr(a, "json", None) or os.environ.get("ASMDIFF_CHECK_JSON") or None


def output_paths(a=None):
    """{format: path} of the files a check writes its verdict to (formats.write's arguments):
    --json (else ASMDIFF_CHECK_JSON), --junit, --markdown, --sarif; None for those not asked."""
    return {"json": json_path(a), "junit": getattr(a, "junit", None),
            "markdown": getattr(a, "markdown", None), "sarif": getattr(a, "sarif", None)}


def finding_record(f):
    """The part of a finding record the verdict's row record carries; `cwd` the folder its
    reproduce line runs in (this checkout: `./asmdiff`, or a program of its build)."""
    return {"kind": f.get("heading"), "check": f.get("check"),
            "implementation": f.get("implementation"), "reproduce": f.get("reproduce"),
            "cwd": TOP, "family": f.get("family"), "title": f.get("title"),
            "source": f.get("source")}


class Verdict:
    """The verdict table: rows of (check, result, detail); the exit status from them.  Each row
    may also say which kernel it is about and its counts (the JSON records carry them)."""

    def __init__(self, json_out=None, outputs=None, source_root=None):
        self.rows, self.bad, self.ran = [], False, False
        self.unestablished = []  # rows that made no call of the outside kernel
        self.meta = {}           # row index -> kernel, cases, calls, finding, not_established
        # the files for the records in each format (output_paths); json_out: the JSON's alone
        self.outputs = dict(outputs or {})
        if json_out:
            self.outputs["json"] = json_out
        self.extra = []  # records after the rows, before the verdict (bench-ratio)
        # the outside kernels: name in rows (symbol or slot name) -> (file, symbol), for a
        # finding's place in the author's tree (formats.location); --source-root or None
        self.kernels, self.source_root = {}, source_root

    @property
    def json_out(self):
        return self.outputs.get("json")

    @json_out.setter
    def json_out(self, path):
        self.outputs["json"] = path

    def locate(self, finding, kernel):
        """finding.location of a row's finding: its source line, else the entry point of the
        kernel the row is about (the only kernel when the row names none)."""
        k = self.kernels.get(kernel) or self.kernels.get(finding.get("implementation")) or \
            (next(iter(self.kernels.values())) if len(self.kernels) == 1 else (None, None))
        return formats.location(finding, k[0], k[1], self.source_root)

    def add(self, check, result, detail, kernel=None, cases=None, calls=None, finding=None):
        self.meta[len(self.rows)] = {"kernel": kernel, "cases": cases, "calls": calls,
                                     "finding": finding_record(finding) if finding else None,
                                     "not_established": False}
        self.rows.append((check, result, detail))
        self.bad |= result in ("FINDING", "FAIL")
        # building and naming what is covered is not testing it
        self.ran |= result in ("pass", "FINDING") and check not in ("build", "operations")

    def add_finding(self, check, f, **kw):
        """A FINDING row: the finding's heading and the command that reproduces it."""
        self.add(check, "FINDING", f"{stage.heading(f)}; reproduce: {f['reproduce']}",
                 finding=f, **kw)

    def not_established(self, check, why, kernel=None, cases=None, calls=None):
        """A row that made no call of the outside kernel: nothing is known of it."""
        self.add(check, "-", f"not established: {why}", kernel=kernel, cases=cases, calls=calls)
        self.meta[len(self.rows) - 1]["not_established"] = True
        self.unestablished.append(check)

    def table(self):
        return Table(COLUMNS, self.rows, widths=(None, 8, None), pad=2)

    def outcome(self):
        """(verdict, exit status, the verdict's line)."""
        if self.bad:
            return ("findings", 1, "check: FINDINGS or failures (each finding reproduces with "
                                   f"the command in its row, run in {TOP})")
        if not self.ran:
            # nothing of the kernel ran: no verdict on it is possible, which is not a pass and
            # not a skip (docs/check-your-patch.md: NOT CLEAN, exit 1)
            return ("not-clean", 1, "check: NOT CLEAN: no stage could call the kernel here "
                                    "(see the rows)")
        if self.unestablished:
            return ("not-clean", 1, f"check: NOT CLEAN: {len(self.unestablished)} rows not "
                                    f"established (no call of the kernel: "
                                    f"{', '.join(self.unestablished)}); see their rows")
        return "clean", 0, "check: clean"

    def records(self, title):
        """Every row as a check-row record, the bench-ratio records of --baseline's bench, then
        the check-verdict record (docs/results.md)."""
        out = []
        for i, r in enumerate(self.table().records()):
            m = self.meta.get(i) or {}
            kernel = m.get("kernel")
            name = r["check"].strip()
            if kernel is None and ": " in name:
                name, kernel = name.split(": ", 1)
            elif kernel and name.endswith(f": {kernel}"):
                name = name[:-len(f": {kernel}")]
            finding = m.get("finding") if r["result"] == "FINDING" else None
            if finding:
                finding = dict(finding, location=self.locate(finding, kernel))
            out.append({"type": "check-row", "check": r["check"], "stage": name,
                        "kernel": kernel or None, "result": r["result"], "detail": r["detail"],
                        "cases": m.get("cases"), "calls": m.get("calls"),
                        "finding": finding,
                        "not_established": bool(m.get("not_established"))})
        out += self.extra
        verdict, rc, _ = self.outcome()
        out.append({"type": "check-verdict", "verdict": verdict, "exit": rc,
                    "rows": len(self.rows), "unestablished": list(self.unestablished),
                    "title": title})
        return out

    def write_json(self, path, title):
        formats.write(self.records(title), json=path)

    def print(self, title):
        """The table and the verdict's line (and the records in each format asked for); the
        exit status."""
        print(f"\n== {title}")
        self.table().print()
        _, rc, line = self.outcome()
        print(line)
        if self.json_out:
            self.write_json(self.json_out, title)
        others = {k: p for k, p in self.outputs.items() if p and k != "json"}
        if others:
            formats.write(self.records(title), **others)
        return rc
