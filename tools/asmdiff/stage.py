"""stage.py — run one program of a command as a stage: its result stream in a file of its own
(ASMDIFF_RESULTS), its records read back; the human text kept to pass on to people."""
import os
import subprocess
import sys
import tempfile

from . import builds, results


class Stage:
    """What one program run left: exit status, its text (for people), its records."""

    def __init__(self, rc, text, recs):
        self.rc, self.text, self.recs = rc, text, recs

    @property
    def findings(self):
        return results.findings(self.recs)

    @property
    def summary(self):
        return results.summary(self.recs)

    @property
    def start(self):
        s = results.of_type(self.recs, "start")
        return s[0] if s else {}

    def reason(self):
        """Why the stage skipped or failed: its summary's reason, else its last line of text."""
        s = self.summary
        if s and s.get("reason"):
            return s["reason"]
        lines = self.text.strip().splitlines()
        return lines[-1] if lines else f"exit {self.rc}"

    def counts(self):
        """'N cases, N checked calls' from the summary, or '' without one."""
        s = self.summary
        if not s:
            return ""
        return f"{s.get('cases', 0)} cases, {s.get('calls', 0)} checked calls"


def run(cmd, env=None):
    """Run cmd with ASMDIFF_RESULTS naming a fresh file; a malformed stream is a failure of the
    stage (its text says so), never a silent pass.  When the caller's environment names an
    ASMDIFF_RESULTS of its own (the user's, of a command of the CLI), the stage's records are
    appended to it too, as the stage ends: that file collects every stage of the command."""
    with tempfile.TemporaryDirectory(prefix="asmdiff-stage.") as tmp:
        path = os.path.join(tmp, "results.jsonl")
        env = dict(env if env is not None else os.environ)
        outer = env.get("ASMDIFF_RESULTS")
        env["ASMDIFF_RESULTS"] = path
        # an x86-64 program of ours under a host profile's qemu (builds.with_runner)
        try:
            p = subprocess.run(builds.with_runner(cmd), env=env, capture_output=True,
                               text=True, errors="replace")
        except OSError as e:
            # the program could not start (gone, not executable, no memory to fork): the
            # stage fails saying so, and the command goes on to its other stages and verdict
            return Stage(1, f"asmdiff: could not run {' '.join(cmd[:2])}: {e}\n", [])
        text = p.stdout + p.stderr
        if outer and os.path.exists(path):
            collect(path, outer)
        try:
            recs = results.read(path)
        except results.StreamError as e:
            return Stage(p.returncode or 1, text + f"\nasmdiff: the result stream: {e}\n", [])
    return Stage(p.returncode, text, recs)


def collect(path, outer):
    """Append the stream at path to the file outer (one write per record, O_APPEND: several
    processes may share it, as the programs do)."""
    try:
        fd = os.open(outer, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    except OSError as e:
        warn(f"ASMDIFF_RESULTS={outer}: {e}")
        return
    try:
        with open(path, "rb") as f:
            for line in f:
                os.write(fd, line if line.endswith(b"\n") else line + b"\n")
    finally:
        os.close(fd)


_reports_printed = False


def print_reports(stage):
    """The reports of a stage's findings as the program printed them (lines starting with
    "====" or two spaces), once per command: the rows then point at them."""
    global _reports_printed
    if _reports_printed or not stage.findings:
        return
    _reports_printed = True
    print("\n".join(l for l in stage.text.splitlines() if l.startswith(("====", "  "))),
          flush=True)


def heading(finding, family=None):
    """The report's heading line, from the record: 'MISMATCH in nh: nh_sse2 ...'."""
    fam = family or finding.get("family", "?")
    return f"{finding.get('heading', '?')} in {fam}: {finding.get('title', '')}"


def warn(msg):
    print(f"asmdiff: {msg}", file=sys.stderr)
