"""soak.py — `./asmdiff soak`: each family fuzzed for a long budget (60 minutes by default)
from its seed corpus into a fresh corpus folder, and what the run did, measured: execs, exec/s
in the first and the last minute, execs per CPU second, peak RSS, findings, corpus growth.

The fuzz command line is fuzzing.libfuzzer_cmd's, the one `./asmdiff fuzz` runs.  Families run
side by side (one libFuzzer process each) or, with --serial, one after another.  Speeds come
from libFuzzer's status lines (`#N INITED|NEW|REDUCE|pulse|DONE cov: ft: corp: ...`), each
stamped with the wall time and the process's CPU time (/proc/PID/stat) when it arrived; the
whole run's CPU time and peak RSS from wait4's resource usage, since the machine may be shared
and wall-clock exec/s alone says more about the neighbours than about the fuzzer.  Verdicts
come from the result stream (findings) and libFuzzer's exit status; a family that ran zero
execs is a failure, never a pass.  Everything lands under the soak's folder (--out): per family
its corpus, its findings, its log and its result stream; the seeds are only read."""
import json
import os
import platform
import re
import subprocess
import sys
import threading
import time

from . import builds, fuzzing, results
from .builds import die
from .table import Table

# libFuzzer's status line: "#4096\tpulse  cov: 83 ft: 241 corp: 100/2783b lim: 1232 exec/s: ..."
STATUS = re.compile(r"^#(\d+)\s+(INITED|NEW|REDUCE|pulse|DONE|RELOAD)\s+(.*)$")
FIELDS = re.compile(r"(cov|ft|corp|exec/s|rss): (\d+)")
CLK_TCK = os.sysconf("SC_CLK_TCK")
WINDOW = 60.0  # the "first minute" and "last minute" of a speed
GRACE = 120.0  # at least this long past its budget, a fuzzer that has not ended is stopped


def parse_status(line):
    """{execs, kind, cov, ft, corp, rss} of one libFuzzer status line, or None."""
    m = STATUS.match(line)
    if not m:
        return None
    st = {"execs": int(m.group(1)), "kind": m.group(2)}
    for k, v in FIELDS.findall(m.group(3)):
        st[k.replace("/", "_")] = int(v)
    return st


def proc_cpu(pid):
    """User + system seconds the process has used so far (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, IndexError, ValueError):
        return None


def closest(points, t):
    return min(points, key=lambda p: abs(p["t"] - t))


def speeds(points, window=WINDOW):
    """exec/s and execs per CPU second over the first and the last `window` seconds, from the
    stamped status lines (points: {t, cpu, execs, ...} in order).  libFuzzer prints a line at
    each power of two of execs and on each new unit, so a window runs to the line closest to
    its end: each speed says the window it was measured over.  A run shorter than two windows
    measures over half its length."""
    out = {"start": None, "end": None}
    if len(points) < 2:
        return out
    last = points[-1]
    window = min(window, last["t"] / 2)
    first = closest(points[:-1], window)
    if first["t"] > 0:
        out["start"] = rate(first["execs"], first["t"], first["cpu"], 0.0, first["t"])
    before = closest(points[:-1], last["t"] - window)
    if last["t"] > before["t"] and last["execs"] > before["execs"]:
        dcpu = (last["cpu"] - before["cpu"]) if None not in (last["cpu"], before["cpu"]) else None
        out["end"] = rate(last["execs"] - before["execs"], last["t"] - before["t"], dcpu,
                          before["t"], last["t"])
    return out


def rate(execs, secs, cpu, t0, t1):
    return {"exec_per_s": round(execs / secs), "exec_per_cpu_s":
            round(execs / cpu) if cpu else None, "from_s": round(t0, 1), "to_s": round(t1, 1)}


class Run:
    """One family's libFuzzer process: its command, folders, stamped status lines, usage."""

    def __init__(self, label, name, fam, vlen, budget, out, fuzzer=None):
        self.label, self.name, self.fam, self.vlen, self.budget = label, name, fam, vlen, budget
        self.dir = os.path.join(out, label.replace(" ", "-").replace("=", ""))
        self.corpus = os.path.join(self.dir, "corpus")
        self.artifacts = os.path.join(self.dir, "findings")
        self.log = os.path.join(self.dir, "fuzz.log")
        self.stream = os.path.join(self.dir, "results.jsonl")
        self.seeds = os.path.join(builds.TOP, "corpus", name, "seeds")
        self.fuzzer = fuzzer or os.path.join(fam["build"], "fuzz_" + name)
        self.own_fuzzer = fuzzer is not None
        # riscv64: qemu-riscv64 at the VLEN; x86-64: the host profile's runner, put in front by
        # command() only when the fuzzer is an x86-64 program of ours (--fuzzer may be a script)
        self.run = builds.runner(fam, vlen) if fam["riscv64"] else []
        self.points, self.rc, self.usage, self.error = [], None, None, None
        self.t0 = self.wall = None
        self.overran = 0

    def command(self):
        return builds.with_runner(fuzzing.libfuzzer_cmd(
            self.fuzzer, [self.corpus, self.seeds], run=self.run, budget=self.budget,
            artifacts=self.artifacts, family=self.name))

    def start(self):
        if not self.fam["fuzzer"]:
            self.error = "no libFuzzer build: nothing was fuzzed"
            return
        if not os.access(self.fuzzer, os.X_OK):
            self.error = (f"no fuzzer {self.fuzzer} (build it: meson compile -C BUILD "
                          f"fuzz_{self.name})")
            return
        for d in (self.corpus, self.artifacts):
            os.makedirs(d, exist_ok=True)
        env = dict(os.environ, ASMDIFF_RESULTS=self.stream)
        if self.fam["riscv64"]:
            env["ASMDIFF_VLEN"] = self.vlen
        self.logf = open(self.log, "w", buffering=1)  # line by line: a soak is watched
        self.logf.write("$ " + " ".join(self.command()) + "\n")
        self.t0 = time.monotonic()
        self.proc = subprocess.Popen(self.command(), env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, errors="replace")
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self):
        """The process's output into its log, each status line stamped as it arrives."""
        for line in self.proc.stdout:
            self.logf.write(line)
            st = parse_status(line)
            if st:
                st["t"], st["cpu"] = time.monotonic() - self.t0, proc_cpu(self.proc.pid)
                self.points.append(st)
        self.logf.flush()

    def poll(self, block=False):
        """True once the process has ended (its exit status and resource usage taken)."""
        if self.rc is not None or self.error:
            return True
        pid, status, usage = os.wait4(self.proc.pid, 0 if block else os.WNOHANG)
        if pid == 0:
            return False
        self.wall = time.monotonic() - self.t0
        self.rc, self.usage = os.waitstatus_to_exitcode(status), usage
        self.proc.returncode = self.rc  # Popen must not wait for it again
        self.reader.join()
        self.logf.close()
        return True

    def last(self):
        return self.points[-1] if self.points else {}

    def stop(self):
        if self.t0 is not None and self.rc is None:
            self.proc.terminate()

    def record(self):
        """The family's result: every number counts what ran."""
        rec = {"family": self.name, "label": self.label, "vlen": self.vlen if self.fam["riscv64"]
               else None, "budget_s": self.budget, "fuzzer": self.fuzzer,
               "command": " ".join(self.command()), "folder": self.dir,
               "seed_files": count_files(self.seeds)}
        if self.error:
            return dict(rec, verdict="FAIL", reason=self.error, execs=0, findings=[])
        with open(self.log, errors="replace") as f:
            text = f.read()
        final = fuzzing.stats(text)
        try:
            recs = results.read(self.stream)
            stream_error = None
        except results.StreamError as e:
            recs, stream_error = [], str(e)
        execs = int(final.get("number_of_executed_units", self.last().get("execs", 0)))
        cpu = self.usage.ru_utime + self.usage.ru_stime
        inited = next((p for p in self.points if p["kind"] == "INITED"), self.points[0]
                      if self.points else {})
        end = self.last()
        rec.update(
            exit=self.rc, wall_s=round(self.wall, 1), cpu_s=round(cpu, 1), execs=execs,
            exec_per_s=round(execs / self.wall) if self.wall else 0,
            exec_per_cpu_s=round(execs / cpu) if cpu else None,
            peak_rss_mb=round(self.usage.ru_maxrss / 1024),
            libfuzzer_peak_rss_mb=int(final["peak_rss_mb"]) if "peak_rss_mb" in final else None,
            speeds=speeds(self.points),
            units={"start": inited.get("corp"), "end": end.get("corp")},
            cov={"start": inited.get("cov"), "end": end.get("cov")},
            ft={"start": inited.get("ft"), "end": end.get("ft")},
            new_files=count_files(self.corpus),
            implementations=fuzzing.impl_coverage(recs),
            findings=self.findings(recs, text))
        if rec["findings"]:
            rec["verdict"] = "FINDING"
        elif self.overran:
            rec.update(verdict="FAIL", reason=f"still running {self.overran:.0f} s past its "
                                              f"budget: stopped (see {self.log})")
        elif stream_error:
            rec.update(verdict="FAIL", reason=f"the result stream: {stream_error}")
        elif self.rc != 0:
            rec.update(verdict="FAIL", reason=f"libFuzzer exited {self.rc} without a finding "
                                              f"(see {self.log})")
        elif execs <= 0:
            rec.update(verdict="FAIL", reason="zero execs: nothing was fuzzed")
        else:
            rec["verdict"] = "clean"
        return rec

    def findings(self, recs, text):
        """Each finding: what it is, its file, the one command that reproduces it.  The result
        stream's records first; a file libFuzzer wrote without one (a crash the harness did
        not report, a timeout, running out of memory) is a finding too."""
        out = []
        for f in results.findings(recs):
            out.append({"what": f"{f.get('heading', '?')}: {f.get('title', '')}",
                        "check": f.get("check"), "file": f.get("input"),
                        "reproduce": f.get("reproduce")})
        unit = fuzzing.unit_written(text)
        if unit and not any(f["file"] and os.path.basename(f["file"]) == os.path.basename(unit)
                            for f in out):
            if out and not out[-1]["file"]:
                out[-1]["file"] = unit
            else:
                kind = os.path.basename(unit).split("-")[0]
                out.append({"what": f"libFuzzer: {kind}", "check": kind, "file": unit,
                            "reproduce": None})
        for f in out:
            if f["file"]:
                f["file"] = os.path.abspath(f["file"])
                f["reproduce"] = self.reproduce(f["file"], f["reproduce"])
        return out

    def reproduce(self, unit, given):
        """The one line that reproduces a finding: the fuzzer's own (./asmdiff fuzz NAME FILE),
        or the binary that ran when --fuzzer replaced the family's."""
        if self.own_fuzzer:
            return " ".join(self.run + [self.fuzzer, "-runs=1", "-error_exitcode=1", unit])
        vlen = f" --vlen {self.vlen}" if self.fam["riscv64"] and self.vlen != "256" else ""
        if given:  # the fuzzer's line knows its family, not the VLEN qemu gave it
            return given.replace(f"./asmdiff fuzz {self.name} ",
                                 f"./asmdiff fuzz {self.name}{vlen} ", 1)
        return f"./asmdiff fuzz {self.name}{vlen} {unit}"


def count_files(d):
    try:
        return sum(1 for e in os.scandir(d) if e.is_file())
    except OSError:
        return 0


def machine():
    """CPU model, cores, kernel: the conditions a figure was measured under."""
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": model, "cores": os.cpu_count(), "kernel": platform.release(),
            "load_at_start": [round(x, 2) for x in os.getloadavg()], "nice": os.nice(0)}


def commit():
    p = subprocess.run(["git", "-C", builds.TOP, "describe", "--always", "--dirty",
                        "--abbrev=12"], capture_output=True, text=True)
    return p.stdout.strip() or "?"


def fmt(n):
    if n is None:
        return "n/a"
    return f"{n / 1e6:.1f}M" if n >= 10_000_000 else f"{n / 1e3:.1f}k" if n >= 10_000 else str(n)


def arrow(d):
    """start -> end; '?' where libFuzzer printed no status line (a finding among the seeds)."""
    return " -> ".join("?" if d.get(k) is None else str(d[k]) for k in ("start", "end"))


def speed(s, key="exec_per_s"):
    return fmt(s[key]) if s and s.get(key) is not None else "n/a"


COLUMNS = ("family", "verdict", "execs", "exec/s first min", "exec/s last min", "exec/s",
           "execs/CPU s", "CPU s", "peak RSS", "findings", "corpus units", "cov", "ft")


def row(r):
    if r["verdict"] == "FAIL" and "wall_s" not in r:
        return (r["label"], "FAIL", "0", "", "", "", "", "", "", "", "", "", "")
    sp = r["speeds"]
    return (r["label"], r["verdict"], fmt(r["execs"]), speed(sp["start"]), speed(sp["end"]),
            fmt(r["exec_per_s"]), fmt(r["exec_per_cpu_s"]),
            f"{r['cpu_s']:.0f}" if r["cpu_s"] >= 100 else f"{r['cpu_s']:.1f}",
            f"{r['peak_rss_mb']} MB", str(len(r["findings"])), arrow(r["units"]),
            arrow(r["cov"]), arrow(r["ft"]))


def windows(r):
    """Where each speed was measured (libFuzzer prints at powers of two)."""
    sp = r.get("speeds") or {}
    parts = [f"{k} {s['from_s']:.0f}-{s['to_s']:.0f} s" for k, s in sp.items() if s]
    return ", ".join(parts)


def print_table(report):
    Table(COLUMNS, [row(r) for r in report["families"]], sep="  ", rstrip=True).print()
    for r in report["families"]:
        if r.get("reason"):
            print(f"{r['label']}: {r['reason']}")
        for f in r["findings"]:
            print(f"{r['label']}: {f['what']}\n  file: {f['file']}\n  reproduce: {f['reproduce']}")
    print(f"soak: {report['verdict']}: {report['summary']}")


def write_markdown(path, report):
    m = report["machine"]
    with open(path, "w") as f:
        f.write(f"## asmdiff soak: {report['verdict']}\n\n"
                f"{report['minutes']:g} min per family from its seeds, "
                f"{'one after another' if report['serial'] else 'side by side'}; "
                f"{report['date']}, commit {report['commit']}; {m['cpu']}, {m['cores']} cores, "
                f"nice {m['nice']}, load average at start {' '.join(map(str, m['load_at_start']))}"
                + (f", each minute {m['load_each_minute']['min']} to "
                   f"{m['load_each_minute']['max']} (mean {m['load_each_minute']['mean']})"
                   if m.get("load_each_minute") else "") + "."
                "\n\n")
        f.write("".join(line + "\n" for line in
                        Table(COLUMNS, [row(r) for r in report["families"]]).markdown()))
        f.write("\nexec/s is wall-clock, execs/CPU s per second of the process's own user+system "
                "time (wait4); peak RSS from wait4 (ru_maxrss).  The first/last-minute speeds "
                "run between libFuzzer's status lines closest to the minute's ends:\n\n")
        for r in report["families"]:
            if r.get("speeds"):
                f.write(f"- {r['label']}: {windows(r)}; execs/CPU s first min "
                        f"{speed(r['speeds']['start'], 'exec_per_cpu_s')}, last min "
                        f"{speed(r['speeds']['end'], 'exec_per_cpu_s')}; "
                        f"{r['seed_files']} seed files, {r['new_files']} new units written; "
                        f"{r.get('implementations') or '?'}\n")
            if r.get("reason"):
                f.write(f"- {r['label']}: {r['reason']}\n")
            for x in r["findings"]:
                f.write(f"- {r['label']}: **{x['what']}**: `{x['file']}`, reproduce: "
                        f"`{x['reproduce']}`\n")
        f.write(f"\nRepeat: `{report['repeat']}`\n")


def targets(args, fams):
    """(label, name, fam, vlen) of each process to run."""
    for n in args.families:
        builds.check_family(n, fams)
    names = args.families or sorted(n for n, f in fams.items() if f["fuzzer"])
    if not names:
        die("soak: no family has a libFuzzer build here (needs clang with libFuzzer)")
    vlens = args.vlen or ["256"]
    if args.vlen and not any(fams[n]["riscv64"] for n in names):
        die("soak: --vlen applies to riscv64 families only "
            f"({' '.join(n for n, f in fams.items() if f['riscv64'])})")
    out = []
    for n in dict.fromkeys(names):
        if fams[n]["riscv64"]:
            out += [(f"{n} vlen={v}" if args.vlen else n, n, fams[n], v) for v in
                    dict.fromkeys(vlens)]
        else:
            out.append((n, n, fams[n], None))
    if args.fuzzer and len(out) != 1:
        die("soak: --fuzzer replaces one family's fuzzer: name exactly one family")
    return out


def writable(path, what):
    d = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(d):
        die(f"soak: {what} {path}: no folder {d}")


def cmd_soak(args):
    fams = builds.families()
    todo = targets(args, fams)
    budget = max(1, round(args.minutes * 60))
    for path, what in ((args.markdown, "--markdown"), (args.json, "--json")):
        if path:
            writable(path, what)
    out = os.path.abspath(args.out or os.path.join(
        builds.BUILD, "soak", time.strftime("%Y%m%d-%H%M%S")))
    if os.path.isdir(out) and os.listdir(out):
        die(f"soak: {out} is not empty: a soak starts from the seeds alone, into fresh folders")
    os.makedirs(out, exist_ok=True)
    fuzzer = os.path.abspath(args.fuzzer) if args.fuzzer else None
    runs = [Run(label, n, fam, v, budget, out, fuzzer) for label, n, fam, v in todo]
    report = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": commit(),
              "machine": machine(), "minutes": args.minutes, "budget_s": budget,
              "serial": args.serial, "folder": out}
    print(f"soak: {len(runs)} fuzzer(s) for {budget} s each, "
          f"{'one after another' if args.serial else 'side by side'}, into {out}", flush=True)
    loads = []
    try:
        for group in ([[r] for r in runs] if args.serial else [runs]):
            wait_for(group, budget, loads)
    except KeyboardInterrupt:
        for r in runs:
            r.stop()
        for r in runs:
            if r.t0 is not None:
                r.poll(block=True)
        print("soak: interrupted; the numbers below count what ran", file=sys.stderr)
    report["families"] = [r.record() if r.error or r.rc is not None else
                          {"family": r.name, "label": r.label, "verdict": "FAIL",
                           "reason": "never ran (interrupted)", "execs": 0, "findings": []}
                          for r in runs]
    if loads:
        report["machine"]["load_each_minute"] = {"min": min(loads), "max": max(loads),
                                                 "mean": round(sum(loads) / len(loads), 2)}
    nfind = sum(len(r["findings"]) for r in report["families"])
    nfail = sum(r["verdict"] == "FAIL" for r in report["families"])
    execs = sum(r["execs"] for r in report["families"])
    report["verdict"] = "FINDINGS" if nfind else "FAIL" if nfail else "clean"
    report["summary"] = (f"{len(runs)} fuzzer(s), {execs} execs in all, {nfind} finding(s), "
                         f"{nfail} failed")
    report["repeat"] = repeat_command(args)
    print_table(report)
    if args.markdown:
        write_markdown(args.markdown, report)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
            f.write("\n")
    return 0 if report["verdict"] == "clean" else 1


def wait_for(group, budget, loads):
    """Start the group's processes and wait for all of them, with a progress line now and then
    (a soak is long, and silence looks like a hang); the load average each minute into loads
    (the machine may be shared: the neighbours' share is part of what a speed means)."""
    for r in group:
        r.start()
    every = max(60.0, budget / 6)
    t0 = next_note = next_load = time.monotonic()
    next_note += every
    # libFuzzer ends itself at its budget; one that does not (a hang outside its timeout's
    # reach) is stopped and reported, never waited for forever
    grace = max(GRACE, budget / 10)
    while not all(r.poll() for r in group):
        time.sleep(0.5)
        if time.monotonic() >= next_load:
            next_load += 60
            loads.append(round(os.getloadavg()[0], 2))
        late = time.monotonic() - t0 - budget
        if late > grace:
            for r in group:
                if r.t0 is not None and r.rc is None and not r.overran:
                    r.overran = late
                    r.stop()
                elif r.rc is None and r.overran and late > r.overran + 30:
                    r.proc.kill()  # SIGTERM was not enough
        if time.monotonic() >= next_note:
            next_note += every
            now = ", ".join(f"{r.label} {fmt(r.last().get('execs', 0))}" for r in group
                            if r.rc is None and not r.error)
            print(f"soak: {time.monotonic() - t0:.0f} of {budget} s: execs {now}", flush=True)


def repeat_command(args):
    parts = ["./asmdiff soak"] + list(args.families)
    if args.minutes != 60:
        parts.append(f"--minutes {args.minutes:g}")
    for v in args.vlen or []:
        parts.append(f"--vlen {v}")
    if args.serial:
        parts.append("--serial")
    return " ".join(parts)
