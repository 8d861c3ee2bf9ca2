"""testsets.py — `./asmdiff test`: the project's meson tests in each build, by set (the fast
set, the slow set, both) or by suite.  Results come from meson's testlog.json."""
import json
import os
import subprocess
import time

from . import builds
from .builds import die

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


def configured_builds():
    return [b for b in (builds.BUILD, builds.BUILD_RV)
            if os.path.exists(os.path.join(b, "build.ninja"))]


def run_tests(suites, quiet=False, exclude=()):
    """meson test in each build (the riscv64 one when it exists): the tests of `suites` (all
    when empty) that are in none of `exclude`; returns (rc, counts, results), counts including
    how many tests, suites and builds were chosen."""
    bs = configured_builds()
    tests = {b: introspect_tests(b) for b in bs}
    known = {b: {s for t in tests[b] for s in t["suites"]} for b in bs}
    for s in suites:
        if not any(s in k for k in known.values()):
            die(f"unknown suite '{s}' (suites: {' '.join(sorted(set().union(*known.values())))})")
    rc, results, ran_builds, ran_suites, chosen = 0, [], 0, set(), 0
    for b in bs:
        picked = [t for t in tests[b] if (not suites or t["suites"] & set(suites))
                  and not t["suites"] & set(exclude)]
        if not picked:
            continue
        ran_builds += 1
        chosen += len(picked)
        ran_suites |= {s for t in picked for s in t["suites"] if s not in (SLOW, "asmdiff")}
        args = [a for s in suites if s in known[b] for a in ("--suite", s)]
        args += [a for s in exclude if s in known[b] for a in ("--no-suite", s)]
        if b == builds.BUILD_RV:
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


FAST = ("fast", [], [SLOW])
SLOW_SET = ("slow", [SLOW], [])


def test_sets(slow=False, all_=False, suites=()):
    """[(label, suites, exclude)]: the fast set by default, --slow, --all (fast, then slow), or
    the named suites."""
    if (slow or all_) and (suites or (slow and all_)):
        args = (["--slow"] if slow else []) + (["--all"] if all_ else []) + list(suites)
        die(f"test: {' '.join(args)}: --slow and --all stand alone (no suite names, not both)\n"
            f"{TEST_USAGE}")
    if slow:
        return [SLOW_SET]
    if all_:
        return [FAST, SLOW_SET]
    if suites:
        return [("named", list(suites), [])]
    return [FAST]


def minsec(seconds):
    m, s = divmod(int(round(seconds)), 60)
    return f"{m}m{s:02d}s" if m else f"{s}s"


def linux_sources(sets):
    """The slow set reads Linux's crypto sources (tests never download): its setup unpacks them
    from Debian's package into the lib cache, unless ASMDIFF_LINUX_SRC names a tree.  A failure
    is said here; the tests that need the files then skip (fail under ASMDIFF_STRICT=1)."""
    readers = {SLOW, "check", "libgcrypt-1.12"}
    if os.environ.get("ASMDIFF_LINUX_SRC") or not any(readers & set(s) for _, s, _ in sets):
        return
    cache = os.path.join(builds.BUILD, "lib-cache")
    p = subprocess.run([os.path.join(builds.TOP, "tools", "get_linux_source"), cache],
                       stdout=subprocess.DEVNULL)
    if p.returncode:
        print("test: Linux's sources could not be unpacked (tools/get_linux_source, above): "
              "the tests that check Linux's kernels will skip", flush=True)


def cmd_test(args):
    sets = test_sets(args.slow, args.all, args.suites)
    linux_sources(sets)
    if sets[0][0] == "named":
        known = {s for b in configured_builds() for t in introspect_tests(b) for s in t["suites"]}
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
