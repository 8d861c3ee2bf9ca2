#!/usr/bin/env python3
"""asmdiff_cmd.py — the commands behind ./asmdiff, run after it has set up and built.

./asmdiff checks the command name, runs tools/bootstrap, configures and builds; then it hands
its arguments here.  Everything this program knows of the families comes from the builds
(BUILD/families.json, written by meson from the registrations in fuzz/meson.build): it never
reads meson.build or globs kernel file names.

Exit status: 0 clean; 1 a finding or a failed check; 2 bad usage; 77 nothing could run here.
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.sax.saxutils as sx

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("ASMDIFF_BUILD", os.path.join(TOP, "build"))
BUILD_RV = os.environ.get("ASMDIFF_BUILD_RISCV64", os.path.join(BUILD, "riscv64"))
FINDINGS = os.environ.get("ASMDIFF_FINDINGS", os.path.join(TOP, "findings"))
VLENS = ("128", "256", "512", "1024")


def die(msg):
    print(f"asmdiff: {msg}", file=sys.stderr)
    sys.exit(2)


def load_families(build):
    try:
        with open(os.path.join(build, "families.json")) as f:
            return {fam["name"]: dict(fam, build=build) for fam in json.load(f)}
    except OSError:
        return {}


def families():
    """Every family of this host's builds: riscv64 families from the riscv64 build."""
    fams = {n: f for n, f in load_families(BUILD).items() if not f["riscv64"]}
    for n, f in load_families(BUILD_RV).items():
        if f["riscv64"]:
            fams[n] = f
    return fams


def check_family(name, fams):
    if name not in fams:
        die(f"unknown family '{name}' (families: {' '.join(sorted(fams))})")


def qemu_cpu(vlen):
    return f"rv64,v=true,vlen={vlen},zvkg=true"


def runner(fam, vlen=None):
    """How this family's programs start: directly, or under qemu-riscv64 at VLEN vlen."""
    if fam["riscv64"]:
        return ["qemu-riscv64", "-cpu", qemu_cpu(vlen or "256")]
    return []


# ---- test ----

# The slow set: tests also in this meson suite (the integration proofs that build libraries
# or builds of their own; meson.build says which).  `test` runs the rest, `test --slow` these.
SLOW = "slow"
TEST_USAGE = "usage: ./asmdiff test [--slow | --all | SUITE...]"


def introspect_tests(build):
    out = subprocess.run(["meson", "introspect", build, "--tests"], capture_output=True, text=True)
    if out.returncode:
        return []
    return [{"name": t["name"], "suites": {s.split(":")[-1] for s in t["suite"]}}
            for t in json.loads(out.stdout)]


def known_suites(build):
    return {s for t in introspect_tests(build) for s in t["suites"]}


def run_tests(suites, quiet=False, exclude=()):
    """meson test in each build (the riscv64 one when it exists): the tests of `suites` (all
    when empty) that are in none of `exclude`; returns (rc, counts, results), counts including
    how many tests, suites and builds were chosen."""
    builds = [b for b in (BUILD, BUILD_RV) if os.path.exists(os.path.join(b, "build.ninja"))]
    tests = {b: introspect_tests(b) for b in builds}
    known = {b: {s for t in tests[b] for s in t["suites"]} for b in builds}
    for s in suites:
        if not any(s in k for k in known.values()):
            die(f"unknown suite '{s}' (suites: {' '.join(sorted(set().union(*known.values())))})")
    rc, results, ran_builds, ran_suites, chosen = 0, [], 0, set(), 0
    for b in builds:
        picked = [t for t in tests[b] if (not suites or t["suites"] & set(suites))
                  and not t["suites"] & set(exclude)]
        if not picked:
            continue
        ran_builds += 1
        chosen += len(picked)
        ran_suites |= {s for t in picked for s in t["suites"] if s not in (SLOW, "asmdiff")}
        args = [a for s in suites if s in known[b] for a in ("--suite", s)]
        args += [a for s in exclude if s in known[b] for a in ("--no-suite", s)]
        if b == BUILD_RV:
            print(f"== riscv64 build (qemu-riscv64): {b}", flush=True)
        cmd = ["meson", "test", "-C", b, "--print-errorlogs", "--num-processes",
               str(os.cpu_count() or 1)] + args
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL if quiet else None)
        rc |= p.returncode != 0
        try:
            with open(os.path.join(b, "meson-logs", "testlog.json")) as f:
                for line in f:
                    t = json.loads(line)
                    results.append((b, t["name"], t["result"], t.get("duration", 0),
                                    t.get("stdout", "")))
        except OSError:
            rc = 1
    counts = {"passed": 0, "failed": 0, "skipped": 0, "tests": chosen,
              "suites": len(ran_suites), "builds": ran_builds}
    for _, _, r, _, _ in results:
        if r in ("OK", "EXPECTEDFAIL"):
            counts["passed"] += 1
        elif r == "SKIP":
            counts["skipped"] += 1
        else:
            counts["failed"] += 1
    if not results:
        rc = 1
    return rc, counts, results


def test_sets(args):
    """[(label, suites, exclude)] for test's arguments: the fast set by default, --slow, --all
    (fast, then slow), or the named suites."""
    fast = ("fast", [], [SLOW])
    slow = ("slow", [SLOW], [])
    if not args:
        return [fast]
    opts = [a for a in args if a.startswith("-")]
    for a in opts:
        if a not in ("--slow", "--all"):
            die(f"test: unknown option '{a}'\n{TEST_USAGE}")
    if opts and (len(args) > 1):
        die(f"test: {' '.join(args)}: --slow and --all stand alone (no suite names, not both)\n"
            f"{TEST_USAGE}")
    if opts == ["--slow"]:
        return [slow]
    if opts == ["--all"]:
        return [fast, slow]
    return [("named", args, [])]


def minsec(seconds):
    m, s = divmod(int(round(seconds)), 60)
    return f"{m}m{s:02d}s" if m else f"{s}s"


def cmd_test(args):
    sets = test_sets(args)
    if sets[0][0] == "named":
        known = set().union(*(known_suites(b) for b in (BUILD, BUILD_RV)
                              if os.path.exists(os.path.join(b, "build.ninja"))))
        for s in sets[0][1]:
            if s not in known:
                die(f"unknown suite '{s}' (suites: {' '.join(sorted(known))})\n{TEST_USAGE}")
    bad, empty, total = False, False, {"passed": 0, "failed": 0, "skipped": 0, "tests": 0}
    t_all = time.time()
    for label, suites, exclude in sets:
        what = {"fast": "the fast set (every suite but the slow tests)",
                "slow": "the slow set (./asmdiff test --slow: libraries and builds from source)",
                "named": "suites " + " ".join(suites)}[label]
        print(f"== test: {what}", flush=True)
        t0 = time.time()
        rc, c, results = run_tests(suites, exclude=exclude)
        skipped = [n for _, n, r, _, _ in results if r == "SKIP"]
        if not c["tests"]:
            # nothing of this set is registered here (the slow set is x86-64 only): not a pass
            print(f"test: {label}: nothing ran: no test of {what} is registered in this build")
            empty = True
            continue
        print(f"test: {label}: {c['tests']} tests of {c['suites']} suites in {c['builds']} "
              f"build{'s' if c['builds'] > 1 else ''}: {c['passed']} passed, {c['failed']} failed, "
              f"{c['skipped']} skipped{' (' + ', '.join(skipped) + ')' if skipped else ''} "
              f"in {minsec(time.time() - t0)}")
        bad |= bool(rc or c["failed"] or not c["passed"])
        for k in total:
            total[k] += c[k]
    if len(sets) > 1:
        print(f"test: all: {total['tests']} tests: {total['passed']} passed, {total['failed']} "
              f"failed, {total['skipped']} skipped in {minsec(time.time() - t_all)}")
    if [x[0] for x in sets] == ["fast"]:
        print("test: the slow integration suites (check, libgcrypt-1.12, the OSS-Fuzz builds) "
              "are ./asmdiff test --slow")
    return 1 if bad else 77 if empty else 0


# ---- list ----

def cmd_list(args):
    if args:
        die("list takes no arguments")
    fams = families()
    if not fams:
        die("no family is built (see the build log)")
    for name, fam in sorted(fams.items(), key=lambda kv: kv[1]["riscv64"]):
        if fam["riscv64"]:
            print(f"\nriscv64 build, under qemu-riscv64 -cpu {qemu_cpu('256')} "
                  f"(./asmdiff fuzz {name} --vlen N picks another VLEN):", flush=True)
        p = subprocess.run(runner(fam) + [os.path.join(fam["build"], "asmdiff-" + name), "list"])
        if p.returncode:
            return p.returncode
        if fam["fuzzer"]:
            print(f"  fuzzing: libFuzzer, coverage-guided: {os.path.join(fam['build'], 'fuzz_' + name)}")
        else:
            print("  fuzzing: no libFuzzer build here; replay and structure-aware random inputs only")
    return 0


# ---- fuzz ----

def parse_fuzz_args(args, fams):
    if not args:
        die("fuzz needs a family: ./asmdiff fuzz FAMILY [--vlen N] [libFuzzer args | FILE...]")
    name, rest, vlen = args[0], [], None
    check_family(name, fams)
    it = iter(args[1:])
    for a in it:
        if a == "--vlen":
            vlen = next(it, None)
            if vlen is None:
                die("--vlen needs a number")
        elif a.startswith("--vlen="):
            vlen = a.split("=", 1)[1]
        else:
            rest.append(a)
    fam = fams[name]
    if vlen is not None and not fam["riscv64"]:
        rv = [n for n, f in fams.items() if f["riscv64"]]
        die(f"--vlen applies to riscv64 families only ({' '.join(rv)})")
    if vlen is not None and vlen not in VLENS:
        die("--vlen must be 128, 256, 512 or 1024")
    return name, fam, vlen, rest


def cmd_fuzz(args, capture=None):
    fams = families()
    name, fam, vlen, rest = parse_fuzz_args(args, fams)
    run = runner(fam, vlen)
    fuzzer = os.path.join(fam["build"], "fuzz_" + name)
    files = bool(rest) and all(os.path.isfile(a) for a in rest)
    if files:
        # reproduce: each file once, in the sanitized build when there is one
        if os.access(fuzzer, os.X_OK):
            cmd = run + [fuzzer, "-runs=1", "-error_exitcode=1"] + rest
        else:
            cmd = run + [os.path.join(fam["build"], "asmdiff-" + name), "replay"] + rest
        return subprocess.run(cmd).returncode
    for a in rest:
        if not a.startswith("-") and not os.path.exists(a):
            die(f"'{a}' is neither a libFuzzer flag (-name=value) nor a file")
    if not os.access(fuzzer, os.X_OK):
        die(f"no libFuzzer build of {name} (needs clang with libFuzzer; riscv64: a runtime from "
            "tools/fetch_riscv_fuzzer_runtime); try ./asmdiff test replay")
    corpus = os.path.join(fam["build"], "corpus", name)
    out = os.path.join(FINDINGS, name)
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(out, exist_ok=True)
    if run:
        print(f"asmdiff: {name} under {' '.join(run)}", file=sys.stderr)
    cmd = run + [fuzzer, f"-artifact_prefix={out}/", "-timeout=20", "-rss_limit_mb=4096",
                 "-error_exitcode=1", "-timeout_exitcode=1", "-print_final_stats=1"] + rest + \
        [corpus, os.path.join(TOP, "corpus", name, "seeds")]
    env = dict(os.environ)
    if vlen:
        env["ASMDIFF_VLEN"] = vlen
    if capture is None:
        return subprocess.run(cmd, env=env).returncode
    with open(capture, "w") as log:
        return subprocess.run(cmd, env=env, stdout=log, stderr=subprocess.STDOUT).returncode


# ---- bench ----

def cmd_bench(args):
    fams, csv, chosen = families(), False, []
    for a in args:
        if a == "--csv":
            csv = True
        elif a.startswith("-"):
            die(f"bench: unknown option '{a}'")
        else:
            check_family(a, fams)
            chosen.append(a)
    chosen = chosen or sorted(fams, key=lambda n: (fams[n]["riscv64"], n))
    first = True
    for name in chosen:
        fam = fams[name]
        if fam["riscv64"] and csv:
            continue  # emulated timings: not data for a spreadsheet
        if fam["riscv64"]:
            print(f"riscv64 under qemu-riscv64 -cpu {qemu_cpu('256')} (emulation speed, not hardware):",
                  flush=True)
        cmd = runner(fam) + [os.path.join(fam["build"], "asmdiff-" + name), "bench"] + \
            (["--csv"] if csv else [])
        p = subprocess.run(cmd, capture_output=True, text=True)
        sys.stderr.write(p.stderr)
        lines = p.stdout.splitlines(True)
        if csv and not first:
            lines = lines[1:]  # one CSV header in all
        sys.stdout.write("".join(lines))
        sys.stdout.flush()
        first = False
        if p.returncode:
            return 1
    return 0


# ---- premerge ----

def premerge(args):
    budget, markdown, junit, chosen = 60, None, None, []
    it = iter(args)
    fams = families()
    for a in it:
        if a in ("--budget", "--markdown", "--junit") or a.startswith(("--budget=", "--markdown=", "--junit=")):
            key, _, val = a.partition("=")
            if not _:
                val = next(it, None)
            if key == "--budget":
                if val is None or not re.fullmatch(r"[0-9]+", val) or int(val) <= 0:
                    die("--budget needs a number of seconds")
                budget = int(val)
            elif val is None:
                die(f"{key} needs a file name")
            elif key == "--markdown":
                markdown = val
            else:
                junit = val
        elif a.startswith("-"):
            die(f"premerge: unknown option '{a}'")
        else:
            check_family(a, fams)
            chosen.append(a)
    chosen = chosen or sorted(fams)
    rows, bad = [], False

    # every test suite: the fast set (./asmdiff test), then the slow one (./asmdiff test --slow)
    results = []
    for label, suites, exclude in test_sets(["--all"]):
        print(f"== premerge: test suites, the {label} set", flush=True)
        t0 = time.time()
        rc, counts, res = run_tests(suites, exclude=exclude)
        results += res
        ok = not rc and not counts["failed"] and counts["passed"] > 0
        bad |= not ok
        rows.append(("all", f"test suites ({label})",
                     "pass" if ok else "FAIL",
                     f"{counts['tests']} tests: {counts['passed']} passed, {counts['failed']} failed, "
                     f"{counts['skipped']} skipped in {time.time() - t0:.0f}s"))
        for b, t, r, _, _ in res:
            if r == "SKIP":
                rows.append(("", t, "skip", "(see the test log for why)"))

    for name in chosen:
        fam = fams[name]
        if not fam["fuzzer"]:
            bad = True
            rows.append((name, f"fuzz {budget}s", "FAIL", "no libFuzzer build: nothing was fuzzed"))
            continue
        print(f"== premerge: fuzz {name} for {budget}s", flush=True)
        with tempfile.NamedTemporaryFile("r", suffix=".log") as log:
            rc = cmd_fuzz([name, f"-max_total_time={budget}"], capture=log.name)
            text = open(log.name, errors="replace").read()
        execs = re.findall(r"^stat::number_of_executed_units:\s*(\d+)", text, re.M)
        speed = re.findall(r"^stat::average_exec_per_sec:\s*(\d+)", text, re.M)
        runs = re.findall(r"^asmdiff: fuzz_\S+: .*; (runs \d+ of \d+ implementations)", text, re.M)
        if rc == 0 and execs and int(execs[-1]) > 0:
            rows.append((name, f"fuzz {budget}s", "pass",
                         f"{execs[-1]} execs, {speed[-1] if speed else '?'} exec/s, "
                         f"{runs[-1] if runs else '?'}"))
        else:
            bad = True
            head = re.findall(r"^==== asmdiff: .*$", text, re.M)
            repro = re.findall(r"^  reproduce\s*: (.*)$", text, re.M)
            print("\n".join(text.splitlines()[-60:]))
            rows.append((name, f"fuzz {budget}s", "FINDING" if head else "FAIL",
                         (head[0][len('==== asmdiff: '):] if head else f"exit {rc}") +
                         (f"; reproduce: {repro[0]}" if repro else "")))

    print("\n== premerge: bench", flush=True)
    cmd_bench([n for n in chosen])

    print("\n== premerge summary")
    print(f"{'family':<10} {'check':<34} {'result':<8} detail")
    for r in rows:
        print(f"{r[0]:<10} {r[1]:<34} {r[2]:<8} {r[3]}")
    print("premerge: clean" if not bad else "premerge: FINDINGS (see above)")
    if markdown:
        with open(markdown, "w") as f:
            f.write(f"## asmdiff premerge: {'clean' if not bad else 'FINDINGS'}\n\n")
            f.write("| family | check | result | detail |\n|---|---|---|---|\n")
            for r in rows:
                f.write("| " + " | ".join(x.replace("|", "\\|") for x in r) + " |\n")
    if junit:
        with open(junit, "w") as f:
            tests = [(b, t, r, d, o) for b, t, r, d, o in results]
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
            f.write(f'<testsuites name="asmdiff premerge" tests="{len(tests) + len(chosen)}">\n')
            f.write('<testsuite name="suites">\n')
            for b, t, r, d, o in tests:
                f.write(f'  <testcase classname="{sx.escape(os.path.basename(b))}" '
                        f'name={sx.quoteattr(t)} time="{d:.2f}">')
                if r == "SKIP":
                    f.write("<skipped/>")
                elif r not in ("OK", "EXPECTEDFAIL"):
                    f.write(f"<failure message={sx.quoteattr(r)}>{sx.escape(o[-4000:])}</failure>")
                f.write("</testcase>\n")
            f.write('</testsuite>\n<testsuite name="fuzz">\n')
            for r in rows:
                if not r[1].startswith("fuzz"):
                    continue
                f.write(f'  <testcase classname="fuzz" name={sx.quoteattr(r[0])}>')
                if r[2] != "pass":
                    f.write(f"<failure message={sx.quoteattr(r[3])}/>")
                f.write("</testcase>\n")
            f.write("</testsuite>\n</testsuites>\n")
    return 1 if bad else 0


# ---- check: an outside kernel, or a library build of the author's own ----

CHECK_USAGE = ("usage: ./asmdiff check FAMILY --kernel FILE.S --symbol NAME [--include DIR]... "
               "[--needs FEATURES] [--convention linux|libgcrypt|asmdiff] [--op OP] "
               "[--budget SECONDS] [FILE...]\n"
               "       ./asmdiff check [--libgcrypt PREFIX] [--openssl PREFIX] [FAMILY...] "
               "[--budget SECONDS]")
KINDS = {"mismatch": "output", "abi": "checked call", "residue": "vector leftovers",
         "stack": "stack leftovers", "guard-page": "guard pages", "canary": "guard pages",
         "input-modified": "guard pages"}


def guess_convention(path, depth=0):
    """The convention a source is written in, from the headers it (or a neighbour it includes
    by a quoted name) includes."""
    text = open(path, errors="replace").read()
    if depth < 3:
        for inc in re.findall(r'#\s*include\s*"([^"]+)"', text):
            near = os.path.join(os.path.dirname(path), inc)
            if os.path.isfile(near):
                conv, why = guess_convention(near, depth + 1)
                if conv != "asmdiff":
                    return conv, why
    if re.search(r"#\s*include\s*<linux/", text):
        return "linux", "it includes <linux/...>"
    if re.search(r'#\s*include\s*[<"](asm-common-amd64\.h|sysdep\.h)', text):
        return "libgcrypt", "it includes libgcrypt's assembly headers"
    return "asmdiff", "no Linux or libgcrypt header is included"


def summary_counts(text):
    m = re.findall(r"— (\d+) cases, (\d+) checked calls", text)
    return f"{m[-1][0]} cases, {m[-1][1]} checked calls" if m else ""


def finding_of(text):
    """(kind, heading, reproduce) of the first report in text, or None."""
    head = re.search(r"^==== asmdiff: (.*)$", text, re.M)
    if not head:
        return None
    kind = re.search(r"^  check\s+= (\S+)", text, re.M)
    repro = re.search(r"^  reproduce\s+: (.*)$", text, re.M)
    return (kind.group(1) if kind else "?", head.group(1), repro.group(1) if repro else "")


class Verdict:
    def __init__(self):
        self.rows, self.bad, self.ran = [], False, False

    def add(self, check, result, detail):
        self.rows.append((check, result, detail))
        self.bad |= result in ("FINDING", "FAIL")
        # building and naming what is covered is not testing it
        self.ran |= result in ("pass", "FINDING") and check not in ("build", "operations")

    def print(self, title):
        print(f"\n== {title}")
        w = max(len(r[0]) for r in self.rows) + 2
        print(f"{'check':<{w}} {'result':<8} detail")
        for c, r, d in self.rows:
            print(f"{c:<{w}} {r:<8} {d}")
        if self.bad:
            print("check: FINDINGS or failures (each finding reproduces with the command in its "
                  "row)")
            return 1
        if not self.ran:
            print("check: SKIP: nothing could run here (see the rows)")
            return 77
        print("check: clean")
        return 0


def run_stage(cmd, env, rewrite):
    """Run one stage; returns (rc, text, finding) with the reproduce line made to name the check."""
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    text = p.stdout + p.stderr
    f = finding_of(text)
    if f:
        unit = re.search(r"Test unit written to (\S+)", text)
        repro = rewrite(f[2], unit.group(1) if unit else None)
        text = text.replace(f[2], repro) if f[2] else text
        f = (f[0], f[1], repro)
        # the report itself (its lines start with "====" and two spaces), once per command
        if not run_stage.printed:
            run_stage.printed = True
            print("\n".join(l for l in text.splitlines() if l.startswith(("====", "  "))), flush=True)
    return p.returncode, text, f


run_stage.printed = False


def fuzz_timeout(budget):
    """libFuzzer's -timeout for a run of budget seconds.  Its timeout alarm (SIGALRM every
    timeout/2 + 1 s) is delivered on whatever stack is current; inside a checked call that is the
    separate stack whose leftovers are scanned, and the signal frame then reads as a stack
    leftover.  A timeout of twice the budget and more puts the first alarm after the run; a
    hanging kernel is still stopped by it."""
    return f"-timeout={2 * budget + 20}"


def check_outside(family, kernel, symbol, includes, needs, conv, op, budget, files):
    fams = families()
    check_family(family, fams)
    if not os.path.isfile(kernel):
        die(f"--kernel: no file {kernel}")
    kernel = os.path.abspath(kernel)
    includes = [os.path.abspath(d) for d in includes]
    for d in includes:
        if not os.path.isdir(d):
            die(f"--include: no folder {d}")
    why = "--convention"
    if not conv:
        conv, why = guess_convention(kernel)
    key = hashlib.sha1(json.dumps([family, kernel, symbol, includes, needs, conv, op])
                       .encode()).hexdigest()[:10]
    bdir = os.path.join(BUILD, "check", f"{family}-{symbol}-{key}")
    # the one-line command that redoes this check (and, with a file, reproduces a finding)
    again = ["./asmdiff", "check", family, "--kernel", kernel, "--symbol", symbol] + \
        [a for d in includes for a in ("--include", d)] + \
        (["--needs", needs] if needs else []) + ["--convention", conv] + \
        (["--op", op] if op else [])
    again_s = " ".join(again)

    def rewrite(repro, unit):
        m = re.match(r"^((?:\S+=\S+ )*)\./asmdiff fuzz \S+ (.*)$", repro)
        if m:
            f = unit if unit and m.group(2).startswith("<") else m.group(2)
            return f"{m.group(1)}{again_s} {f}"
        return repro  # kat/exhaustive: the check build's own tool and mode

    v = Verdict()
    print(f"== check {family}: {symbol} from {kernel}\n   convention {conv} ({why}); "
          f"build folder {bdir}", flush=True)
    if not os.path.exists(os.path.join(bdir, "build.ninja")):
        opts = [f"-Doutside_family={family}", f"-Doutside_source={kernel}",
                f"-Doutside_symbol={symbol}", f"-Doutside_convention={conv}",
                f"-Doutside_needs={needs}", f"-Doutside_op={op}",
                "-Doutside_include=" + ",".join(includes)]
        env = dict(os.environ, CC=os.environ.get("CC", "clang-19"))
        p = subprocess.run(["meson", "setup", "-Dfuzzing=auto"] + opts + [bdir, TOP], env=env,
                           capture_output=True, text=True)
        if p.returncode:
            print(p.stdout[-3000:] + p.stderr[-2000:])
            v.add("build", "FAIL", f"meson setup failed in {bdir}")
            return v.print(f"check {family} {symbol}")
    targets = [f"asmdiff-{family}-outside"]
    fuzzer = os.path.join(bdir, f"fuzz_{family}-outside")
    p = subprocess.run(["meson", "introspect", bdir, "--targets"], capture_output=True, text=True)
    has_fuzzer = f'"fuzz_{family}-outside"' in p.stdout
    if has_fuzzer:
        targets.append(f"fuzz_{family}-outside")
    p = subprocess.run(["nice", "-n", "10", "meson", "compile", "-C", bdir] + targets,
                       capture_output=True, text=True)
    if p.returncode:
        lines = (p.stdout + p.stderr).splitlines()
        # the compiler's or linker's own words first (file:line: error, undefined reference)
        errs = [l for l in lines if re.search(r"undefined reference|: error:|Error:", l)
                and not l.startswith(("clang", "gcc", "cc:", "FAILED"))] or \
            [l for l in lines if re.search(r"error|Error", l)]
        print("\n".join(errs[:30]))
        v.add("build", "FAIL", (errs[0] if errs else "meson compile failed") +
              f" (full log: meson compile -C {bdir})")
        return v.print(f"check {family} {symbol}")
    shim = "--include " + " ".join(includes) if includes else \
        "our compatibility headers (verify/outside/include)"
    v.add("build", "pass", f"{os.path.basename(kernel)} with {shim}")
    tool = os.path.join(bdir, f"asmdiff-{family}-outside")
    env = dict(os.environ, ASMDIFF_FINDINGS=os.path.join(FINDINGS, "check",
                                                         os.path.basename(bdir)))
    if files:
        # reproduce: each file once through the check build's tool, the report as it prints
        p = subprocess.run([tool, "replay"] + files, env=env, capture_output=True, text=True)
        text = p.stdout + p.stderr
        for repro in set(re.findall(r"^  reproduce\s+: (.*)$", text, re.M)):
            text = text.replace(repro, rewrite(repro, None))
        sys.stdout.write(text)
        return p.returncode

    # what the kernel covers, as the driver made it
    p = subprocess.run([tool, "list"], env=env, capture_output=True, text=True)
    row = next((l for l in p.stdout.splitlines() if l.split()[:1] == [symbol]), "")
    if p.returncode or not row:
        print(p.stdout + p.stderr)
        v.add("operations", "FAIL", (p.stdout + p.stderr).strip().splitlines()[-1]
              if (p.stdout + p.stderr).strip() else f"{symbol} is not in the list")
        return v.print(f"check {family} {symbol}")
    if " n/a " in row:
        v.add("operations", "skip", row.split(" -- ", 1)[-1].strip())
        return v.print(f"check {family} {symbol}")
    cov = re.search(r"covers: ([^;]*); not covered: (.*)$", row)
    v.add("operations", "pass", f"covers {cov.group(1)}" if cov else row.strip())
    if cov and cov.group(2) != "none":
        v.add("  not covered", "n/a", f"{cov.group(2)} (another symbol, or another file: check "
              "it with its own --symbol; not counted as passed)")

    found = {}   # verdict row -> (heading, reproduce)
    infos, info_kinds = [], set()

    def stage(name, cmd, detail_of):
        print(f"-- {name}", flush=True)
        rc, text, f = run_stage(cmd, env, rewrite)
        for m in re.findall(r": info: (.*)$", text, re.M):
            # one line per kind of leftover, whatever the value left
            kind = re.sub(r"0x[0-9a-f]+|\b\d+\b", "N", m)
            if kind not in info_kinds:
                info_kinds.add(kind)
                infos.append(m)
        if f:
            found.setdefault(KINDS.get(f[0], f[0]), (f[1], f[2]))
            v.add(name, "FINDING", f"{f[1]}; reproduce: {f[2]}")
        elif rc == 77:
            v.add(name, "skip", text.strip().splitlines()[-1] if text.strip() else "skipped")
        elif rc:
            v.add(name, "FAIL", (text.strip().splitlines() or ["exit %d" % rc])[-1])
        else:
            v.add(name, "pass", detail_of(text))

    stage("kat", [tool, "kat", TOP], summary_counts)
    if fams[family].get("exhaustive"):
        stage("exhaustive", [tool, "exhaustive"], summary_counts)
    seeds = os.path.join(TOP, "corpus", family, "seeds")
    stage("replay (seeds)", [tool, "replay", seeds], summary_counts)
    stage("random", [tool, "random", "3000", "1"], summary_counts)
    if has_fuzzer:
        corpus = os.path.join(bdir, "corpus")
        art = os.path.join(env["ASMDIFF_FINDINGS"], family)
        os.makedirs(corpus, exist_ok=True)
        os.makedirs(art, exist_ok=True)

        def fuzz_detail(text):
            execs = re.findall(r"^stat::number_of_executed_units:\s*(\d+)", text, re.M)
            speed = re.findall(r"^stat::average_exec_per_sec:\s*(\d+)", text, re.M)
            return f"{execs[-1] if execs else '?'} execs, {speed[-1] if speed else '?'} exec/s"
        stage(f"fuzz {budget}s", [fuzzer, f"-max_total_time={budget}", f"-artifact_prefix={art}/",
                                  fuzz_timeout(budget), "-rss_limit_mb=4096", "-error_exitcode=1",
                                  "-print_final_stats=1", corpus, seeds], fuzz_detail)
    else:
        v.add(f"fuzz {budget}s", "skip", "no libFuzzer build here (clang with libFuzzer)")

    # the properties every call above was checked for, one row each
    rules = {"linux": "leftovers allowed", "libgcrypt": "checked",
             "asmdiff": "must be cleared"}
    for row_name, detail in (
            ("checked call", "callee-saved registers, rsp, DF, MXCSR, x87 state, junk in "
                             "narrow arguments: on every call"),
            ("vector leftovers", f"xmm/ymm/zmm and k registers after return ({conv}: "
                                 f"{rules.get(conv, '?')})"),
            ("stack leftovers", f"the 8 KiB below the caller's frame ({conv}: "
                                f"{rules.get(conv, '?')})"),
            ("guard pages", "every buffer flush against the unmapped page after it and the one "
                            "before it, canaries when misaligned, inputs unchanged")):
        if row_name in found:
            v.add(row_name, "FINDING", f"{found[row_name][0]}; reproduce: {found[row_name][1]}")
        elif found:
            v.add(row_name, "-", "not established: each run stops at its first finding (fix it "
                                 "and check again)")
        elif any(i.startswith(("stack", "wrote")) == (row_name == "stack leftovers") and
                 row_name in ("stack leftovers", "vector leftovers") for i in infos):
            v.add(row_name, "pass", f"data left, which the {conv} convention allows (info below)")
        else:
            v.add(row_name, "pass", detail)
    for i in infos:
        v.add("  info", "info", i)
    return v.print(f"check {family}: {symbol} ({conv} convention)")


# ---- check --libgcrypt PREFIX / --openssl PREFIX: a library build of the author's own ----

# OpenSSL's own levels: OPENSSL_ia32cap masks (word 0: CPUID.1 EDX, then ECX in the upper half;
# word 1: CPUID.7 EBX, then ECX), each clearing what the paths it selects depend on.
OPENSSL_LEVELS = [
    ("every feature", ""),
    ("without avx512f", "~0x0:~0x10000"),
    ("without gfni", "~0x0:~0x10000000000"),
    ("without vaes", "~0x0:~0x20000000000"),
    ("without avx2", "~0x0:~0x20"),
    ("without avx", "~0x1000000000000000:~0x0"),
    ("without aesni", "~0x200000000000000:~0x0"),
    ("without any of these", "~0x1200000000000000:~0x30000010020"),
]


def pc_dir(prefix, pcname):
    """The folder under prefix that holds pcname (lib, lib64 or a multiarch lib folder)."""
    for sub in ("lib/pkgconfig", "lib64/pkgconfig", "share/pkgconfig"):
        if os.path.isfile(os.path.join(prefix, sub, pcname)):
            return os.path.join(prefix, sub)
    libdir = os.path.join(prefix, "lib")
    for d in sorted(os.listdir(libdir)) if os.path.isdir(libdir) else []:
        if os.path.isfile(os.path.join(libdir, d, "pkgconfig", pcname)):
            return os.path.join(libdir, d, "pkgconfig")
    die(f"no {pcname} under {prefix} (the prefix of its `make install`)")


def lib_build(gcrypt=None, openssl=None):
    """The build folder configured against the libraries under these prefixes: build/lib-<hash>,
    PKG_CONFIG_PATH and an rpath pointing at them; the default build is not touched."""
    prefixes = {}
    if gcrypt:
        prefixes["libgcrypt"] = (os.path.abspath(gcrypt), "libgcrypt.pc")
    if openssl:
        prefixes["openssl"] = (os.path.abspath(openssl), "libcrypto.pc")
    pcs = [pc_dir(p, pc) for p, pc in prefixes.values()]
    key = json.dumps(sorted((k, v[0]) for k, v in prefixes.items()))
    bdir = os.path.join(BUILD, "lib-" + hashlib.sha1(key.encode()).hexdigest()[:10])
    if not os.path.exists(os.path.join(bdir, "build.ninja")):
        env = dict(os.environ, CC=os.environ.get("CC", "clang-19"),
                   PKG_CONFIG_PATH=os.pathsep.join(pcs + [os.environ.get("PKG_CONFIG_PATH", "")]))
        rpath = ",".join(f"-Wl,-rpath,{os.path.dirname(pc)}" for pc in pcs)
        opts = [f"-D{name}=enabled" for name in prefixes]
        p = subprocess.run(["meson", "setup", "-Dfuzzing=auto", f"-Dc_link_args={rpath}"] + opts +
                           [bdir, TOP], env=env, capture_output=True, text=True)
        if p.returncode:
            print(p.stdout[-3000:] + p.stderr[-2000:])
            die(f"meson setup against {', '.join(v[0] for v in prefixes.values())} failed")
    return bdir, {k: v[0] for k, v in prefixes.items()}


def walk_levels(v, tool, fam, lib, version, levels, env0, prefix_env):
    """One row per level: known answers, seeds and random inputs, the reference the judge."""
    seeds = os.path.join(TOP, "corpus", fam, "seeds")
    for label, value in levels:
        env = dict(env0, **{prefix_env: value})
        name = f"{fam} {lib} {label}"
        cases, calls, finding, failed = 0, 0, None, None

        def repro(r, u, value=value):
            # the level is part of the command (libgcrypt's is already in the line)
            return f"{prefix_env}={value} {r}" if value and prefix_env not in r else r
        for cmd in ([tool, "kat", TOP], [tool, "replay", seeds], [tool, "random", "1500", "7"]):
            rc, text, f = run_stage(cmd, env, repro)
            c = re.findall(r"— (\d+) cases", text)
            cases += int(c[-1]) if c else 0
            calls += sum(int(x) for x in re.findall(r"(\d+) checked calls", text)[-1:])
            skipped = re.findall(r"\(skipped: (.*)\) —", text)
            if not f and rc == 0 and skipped and re.search(rf"\b{lib}\S* because", skipped[-1]):
                failed = f"the library did not run: {skipped[-1]}"
                break
            if f:
                finding = f
                break
            if rc not in (0, 77):
                failed = (text.strip().splitlines() or [f"exit {rc}"])[-1]
                break
        if finding:
            v.add(name, "FINDING", f"{finding[1]}; reproduce: {finding[2]}")
        elif failed:
            v.add(name, "FAIL", failed)
        else:
            v.add(name, "pass", f"{cases} cases, {calls} checked calls (kat, seeds, 1500 random) "
                                f"on {version}")


def check_library(gcrypt, openssl, chosen, budget):
    bdir, prefixes = lib_build(gcrypt, openssl)
    fams = load_families(bdir)
    v = Verdict()
    candidates = chosen or [n for n in fams if not fams[n]["riscv64"]]
    for n in candidates:
        check_family(n, fams)
    p = subprocess.run(["nice", "-n", "10", "meson", "compile", "-C", bdir] +
                       [f"asmdiff-{n}" for n in candidates] +
                       [f"fuzz_{n}" for n in candidates if fams[n]["fuzzer"]],
                       capture_output=True, text=True)
    if p.returncode:
        print("\n".join(l for l in (p.stdout + p.stderr).splitlines() if "rror" in l)[:3000])
        die(f"build against {', '.join(prefixes.values())} failed (meson compile -C {bdir})")
    print(f"== check {' '.join(f'--{k} {p}' for k, p in prefixes.items())}: build folder {bdir}",
          flush=True)
    env0 = dict(os.environ, ASMDIFF_FINDINGS=os.path.join(FINDINGS, "check",
                                                          os.path.basename(bdir)))
    for n in candidates:
        tool = os.path.join(bdir, f"asmdiff-{n}")
        p = subprocess.run([tool, "list"], env=env0, capture_output=True, text=True)
        for lib, prefix in prefixes.items():
            row = next((l for l in p.stdout.splitlines() if l.strip().startswith(lib)), "")
            if not row:
                if chosen:
                    v.add(f"{n} {lib}", "skip", f"{n} has no {lib} implementation")
                continue
            if " n/a " in row:
                v.add(f"{n} {lib}", "skip", row.split(" -- ", 1)[-1].strip())
                continue
            if lib == "libgcrypt":
                # the levels come from the library itself, as verify/gcrypt_levels.sh takes them
                m = re.search(r"(libgcrypt [^ ]+) \(hwf: ([^;)]*)", row)
                version, hwf = (m.group(1), m.group(2).split()) if m else ("libgcrypt ?", [])
                hwf = [] if hwf == ["none"] else hwf
                levels = [("every feature", "")] + [(f"without {f}", f) for f in hwf] + \
                    ([("without any", ",".join(hwf))] if hwf else [])
                var = "ASMDIFF_GCRYPT_DISABLE"
            else:
                m = re.search(r"needs: \S+\s+(OpenSSL \S+)", row)
                version, levels, var = (m.group(1) if m else "OpenSSL ?"), OPENSSL_LEVELS, \
                    "OPENSSL_ia32cap"
            print(f"-- {n}: {version} from {prefix}; levels: "
                  f"{', '.join(l for l, _ in levels)}", flush=True)
            walk_levels(v, tool, n, lib, version, levels, env0, var)
        if fams[n]["fuzzer"] and budget and any(v.rows[i][0].startswith(f"{n} ")
                                                 for i in range(len(v.rows))):
            fuzzer = os.path.join(bdir, f"fuzz_{n}")
            art = os.path.join(env0["ASMDIFF_FINDINGS"], n)
            corpus = os.path.join(bdir, "corpus", n)
            os.makedirs(art, exist_ok=True)
            os.makedirs(corpus, exist_ok=True)
            rc, text, f = run_stage([fuzzer, f"-max_total_time={budget}", f"-artifact_prefix={art}/",
                                     fuzz_timeout(budget), "-error_exitcode=1", "-print_final_stats=1",
                                     corpus, os.path.join(TOP, "corpus", n, "seeds")], env0,
                                    lambda r, u: f"{fuzzer} {u}" if u else r)
            execs = re.findall(r"^stat::number_of_executed_units:\s*(\d+)", text, re.M)
            if f:
                v.add(f"{n} fuzz {budget}s", "FINDING", f"{f[1]}; reproduce: {f[2]}")
            elif rc:
                v.add(f"{n} fuzz {budget}s", "FAIL", f"exit {rc}")
            else:
                v.add(f"{n} fuzz {budget}s", "pass",
                      f"{execs[-1] if execs else '?'} execs, every feature")
    if not v.rows:
        v.add("families", "skip", "no family here is implemented by the given libraries")
    return v.print(f"check {' '.join(f'--{k} {p}' for k, p in prefixes.items())}")


def cmd_check(args):
    kernel = symbol = conv = prefix = ossl = None
    needs, op, budget, includes, rest = "", "", 60, [], []
    it = iter(args)
    for a in it:
        key, eq, val = a.partition("=")
        if key in ("--kernel", "--symbol", "--include", "--needs", "--convention", "--op",
                   "--budget", "--libgcrypt", "--openssl"):
            if not eq:
                val = next(it, None)
            if val is None:
                die(f"{key} needs a value\n{CHECK_USAGE}")
            if key == "--kernel":
                kernel = val
            elif key == "--symbol":
                symbol = val
            elif key == "--include":
                includes.append(val)
            elif key == "--needs":
                needs = val
            elif key == "--convention":
                if val not in ("linux", "libgcrypt", "asmdiff"):
                    die("--convention must be linux, libgcrypt or asmdiff")
                conv = val
            elif key == "--op":
                op = val
            elif key == "--libgcrypt":
                prefix = val
            elif key == "--openssl":
                ossl = val
            else:
                if not re.fullmatch(r"[0-9]+", val) or int(val) <= 0:
                    die("--budget needs a number of seconds")
                budget = int(val)
        elif a.startswith("-"):
            die(f"check: unknown option '{a}'\n{CHECK_USAGE}")
        else:
            rest.append(a)
    if prefix or ossl:
        if kernel or symbol:
            die("check: --libgcrypt/--openssl test a library; --kernel tests one file: one at a "
                "time")
        return check_library(prefix, ossl, rest, budget)
    if not rest or not kernel or not symbol:
        die(CHECK_USAGE)
    return check_outside(rest[0], kernel, symbol, includes, needs, conv, op, budget, rest[1:])
# ---- corpus ----

def cmd_corpus(args):
    """corpus merge FAMILY DIR...: the inputs of DIR... that add coverage to the family's seed
    corpus, copied into it (corpus/FAMILY/seeds; ASMDIFF_CORPUS names another corpus root).
    x86-64: libFuzzer's -merge=1 into a temporary copy of the seeds, then the new files are
    copied.  riscv64 (under qemu-riscv64, where -merge's child processes cannot start): one
    in-process run over the seeds and DIR... with a temporary output corpus, where libFuzzer
    keeps each input that adds features as it loads them.  Files are named by their SHA-1; a
    file already in the seeds is never overwritten (a finding is never replaced)."""
    if len(args) < 3 or args[0] != "merge":
        die("usage: ./asmdiff corpus merge FAMILY DIR...")
    fams = families()
    name, dirs = args[1], args[2:]
    check_family(name, fams)
    for d in dirs:
        if not os.path.isdir(d):
            die(f"corpus merge: '{d}' is not a directory")
    fam = fams[name]
    fuzzer = os.path.join(fam["build"], "fuzz_" + name)
    if not os.access(fuzzer, os.X_OK):
        die(f"no libFuzzer build of {name}: corpus merge needs its coverage")
    root = os.environ.get("ASMDIFF_CORPUS", os.path.join(TOP, "corpus"))
    seeds = os.path.join(root, name, "seeds")
    os.makedirs(seeds, exist_ok=True)
    before = set(os.listdir(seeds))
    with tempfile.TemporaryDirectory(prefix="asmdiff-merge.") as tmp:
        merged = os.path.join(tmp, "merged")
        os.makedirs(merged)
        env = dict(os.environ)
        if fam["riscv64"]:
            env["ASMDIFF_VLEN"] = "256"
            cmd = runner(fam) + [fuzzer, "-runs=0", "-timeout=60", "-rss_limit_mb=4096",
                                 merged, seeds] + dirs
        else:
            for f in before:
                src = os.path.join(seeds, f)
                if os.path.isfile(src):
                    with open(src, "rb") as a, open(os.path.join(merged, f), "wb") as b:
                        b.write(a.read())
            cmd = [fuzzer, "-merge=1", "-timeout=60", "-rss_limit_mb=4096",
                   f"-merge_control_file={os.path.join(tmp, 'control')}", merged] + dirs
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, errors="replace")
        log = p.stdout + p.stderr
        if p.returncode:
            print(log[-4000:], file=sys.stderr)
            print(f"asmdiff: corpus merge: the fuzzer exited {p.returncode}; nothing was copied "
                  f"(an input that crashes is a finding: ./asmdiff fuzz {name} FILE)", file=sys.stderr)
            return 1
        added = []
        for f in sorted(os.listdir(merged)):
            dst = os.path.join(seeds, f)
            if f in before or os.path.exists(dst):
                continue  # same SHA-1 name: the same input, or a file that stays as it is
            with open(os.path.join(merged, f), "rb") as a, open(dst, "xb") as b:
                b.write(a.read())
            added.append(f)
    for line in re.findall(r"^(?:MERGE-OUTER: .*|#\d+\s+INITED.*)$", log, re.M)[-3:]:
        print(line)
    print(f"corpus merge {name}: {len(added)} new input(s) into {seeds} "
          f"({len(before)} before, {len(before) + len(added)} now)")
    for f in added:
        print(f"  + {f}")
    return 0


def main(argv):
    if not argv:
        die("usage: asmdiff_cmd.py COMMAND [ARGS]")
    cmd, args = argv[0], argv[1:]
    lib, ossl = os.environ.get("ASMDIFF_LIBGCRYPT_PREFIX"), os.environ.get("ASMDIFF_OPENSSL_PREFIX")
    if (lib or ossl) and cmd in ("list", "fuzz", "bench"):
        # the same commands on a build against the author's own libraries (build/lib-<hash>)
        global BUILD
        BUILD, prefixes = lib_build(lib, ossl)
        fams = load_families(BUILD)
        subprocess.run(["nice", "-n", "10", "meson", "compile", "-C", BUILD] +
                       [f"asmdiff-{n}" for n in fams] +
                       [f"fuzz_{n}" for n in fams if fams[n]["fuzzer"] and cmd == "fuzz"],
                       stdout=subprocess.DEVNULL, check=False)
        for k, p in prefixes.items():
            print(f"asmdiff: {k} from {p}, build {BUILD}", file=sys.stderr)
    table = {"test": cmd_test, "list": cmd_list, "fuzz": cmd_fuzz, "bench": cmd_bench,
             "premerge": premerge, "check": cmd_check, "corpus": cmd_corpus}
    if cmd not in table:
        die(f"unknown command '{cmd}'")
    return table[cmd](args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
