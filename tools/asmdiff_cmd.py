#!/usr/bin/env python3
"""asmdiff_cmd.py — the commands behind ./asmdiff, run after it has set up and built.

./asmdiff checks the command name, runs tools/bootstrap, configures and builds; then it hands
its arguments here.  Everything this program knows of the families comes from the builds
(BUILD/families.json, written by meson from the registrations in fuzz/meson.build): it never
reads meson.build or globs kernel file names.

Exit status: 0 clean; 1 a finding or a failed check; 2 bad usage; 77 nothing could run here.
"""
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

def known_suites(build):
    out = subprocess.run(["meson", "introspect", build, "--tests"], capture_output=True, text=True)
    if out.returncode:
        return set()
    return {s.split(":")[-1] for t in json.loads(out.stdout) for s in t["suite"]}


def run_tests(suites, quiet=False):
    """meson test in each build (the riscv64 one when it exists); returns (rc, counts, results)."""
    builds = [b for b in (BUILD, BUILD_RV) if os.path.exists(os.path.join(b, "build.ninja"))]
    known = {b: known_suites(b) for b in builds}
    for s in suites:
        if not any(s in k for k in known.values()):
            die(f"unknown suite '{s}' (suites: {' '.join(sorted(set().union(*known.values())))})")
    rc, results = 0, []
    for b in builds:
        args = [a for s in suites if s in known[b] for a in ("--suite", s)]
        if suites and not args:
            continue
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
    counts = {"passed": 0, "failed": 0, "skipped": 0}
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


def cmd_test(args):
    rc, c, _ = run_tests(args)
    print(f"test: {c['passed']} passed, {c['failed']} failed, {c['skipped']} skipped")
    return 1 if rc or c["failed"] or not c["passed"] else 0


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

    print("== premerge: test suites", flush=True)
    t0 = time.time()
    rc, counts, results = run_tests([])
    ok = not rc and not counts["failed"] and counts["passed"] > 0
    bad |= not ok
    rows.append(("all", "test suites",
                 "pass" if ok else "FAIL",
                 f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped "
                 f"in {time.time() - t0:.0f}s"))
    for b, t, r, _, _ in results:
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
    table = {"test": cmd_test, "list": cmd_list, "fuzz": cmd_fuzz, "bench": cmd_bench,
             "premerge": premerge, "corpus": cmd_corpus}
    if cmd not in table:
        die(f"unknown command '{cmd}'")
    return table[cmd](args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
