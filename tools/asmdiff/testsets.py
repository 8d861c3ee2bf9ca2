"""testsets.py — `./asmdiff test`: the project's meson tests in each build, by set (the fast
set, the slow set, both) or by suite.  Results come from meson's testlog.json."""
import fnmatch
import json
import os
import re
import shlex
import subprocess
import tempfile
import time

from . import builds, results
from .builds import die

# The slow set: tests also in this meson suite (the integration proofs that build libraries
# or builds of their own; meson.build says which).  `test` runs the rest, `test --slow` these.
SLOW = "slow"
TEST_USAGE = "usage: ./asmdiff test [--host-cpu MODEL] [--slow | --all | SUITE...]"
HOST_PROFILE = os.path.join(builds.TOP, "verify", "host_profile.sh")
# Tests a host profile does not run (docs/host-profiles.md), each group with its reason: the
# profile runs every other x86-64 test's programs under qemu-x86_64 -cpu MODEL.
PROFILE_EXCLUDED = (
    (("emu-x86-*",), "they run the family under qemu-x86_64's CPU models themselves"),
    (("*-on-haswell",), "they run under qemu-x86_64 -cpu Haswell themselves"),
    (("dispatch-*",), "they run the libraries under qemu-x86_64's CPU models themselves"),
    (("ct-valgrind-*", "valgrind-controls", "valgrind-driver-controls"),
     "Valgrind's own synthetic CPU runs the program there (it has no AVX-512 on any host), "
     "not qemu's"),
    (("ossfuzz-corpus-merge",), "libFuzzer's -merge=1 restarts the fuzzer by its own path, "
     "natively; merged coverage does not depend on the CPU"),
    (("ossfuzz-address", "ossfuzz-undefined", "ossfuzz-coverage", "ossfuzz-afl-address"),
     "they run the OSS-Fuzz runner's own steps (afl-fuzz, its environment) on the fuzzers "
     "natively; docs/oss-fuzz.md measures the fuzzers under qemu Haswell"),
    (("random-aria", "random-camellia"),
     "3000 random cases through three emulated kernels take 5 to 8 CPU-minutes under qemu; "
     "kat, exhaustive, replay and the Unicorn modes check the same kernels on the profile"),
)


# The skips a run may have, per host profile, each with its reason (verify/expected-skips.json):
# any other skip, or a listed one whose reason changed, fails ./asmdiff test.
EXPECTED_SKIPS = os.path.join(builds.TOP, "verify", "expected-skips.json")


def load_expected_skips(path=EXPECTED_SKIPS):
    """{profile: {"cpu": [features the list assumes], "skips": [{"test", "build", "reason",
    "why"}]}}; a malformed file is a usage error of the project itself (exit 2)."""
    try:
        with open(path) as f:
            data = json.load(f)
        profiles = data["profiles"]
        for name, prof in profiles.items():
            for e in prof["skips"]:
                if not (e.get("test") and e.get("reason") and e.get("why")):
                    raise ValueError(f"profile {name}: an entry without test, reason and why: {e}")
                re.compile(e["reason"])
        return profiles
    except (OSError, ValueError, KeyError, TypeError, re.error) as e:
        die(f"test: {os.path.relpath(path, builds.TOP)}: {e}")


def judge_skips(results, profile_name, expected, features):
    """The skips of a run against the profile's list: (problems, notes).  A problem is a skip
    the list does not name, or one whose reason no longer matches the listed one (the reason
    is part of what is expected: a test that now skips for another cause is a change to look
    at).  With features (the CPU features our programs detect) lacking one the list assumes,
    the list does not apply (a developer's machine of another kind): the skips are notes."""
    prof = expected.get(profile_name)
    problems, notes = [], []
    if prof is None:
        notes.append(f"no expected-skip list for host profile {profile_name} "
                     f"(verify/expected-skips.json): skips not judged")
        return problems, notes
    lacking = sorted(set(prof.get("cpu", [])) - features) if features is not None else []
    if features is None and prof.get("cpu"):
        lacking = ["(the CPU's features could not be read)"]
    for b, name, r, _, out in results:
        if r != "SKIP":
            continue
        arch = "riscv64" if b == builds.BUILD_RV else "x86_64"
        why = skip_reason(out)
        short = name.split(" / ", 1)[-1]  # meson's log says "project:suite / name"
        listed = [e for e in prof["skips"] if fnmatch.fnmatchcase(short, e["test"])
                  and e.get("build", "x86_64") == arch]
        where = f"{name}{' (riscv64 build)' if arch == 'riscv64' else ''}"
        if not listed:
            problems.append(f"unexpected skip: {where}: {why}")
        elif not any(re.search(e["reason"], why) for e in listed):
            problems.append(f"expected skip with another reason: {where}: said '{why}', the "
                            f"list expects /{listed[0]['reason']}/ ({listed[0]['why']})")
    if lacking and problems:
        notes += [p + " (not judged)" for p in problems]
        notes.append(f"this host lacks {', '.join(lacking)}, which the {profile_name} list "
                     f"assumes: its skips are not judged (verify/expected-skips.json)")
        problems = []
    return problems, notes


# Under a profile every program runs in qemu's TCG (our AVX-512 kernels in the executor under
# it, 30 to 200 times slower than natively; measured on a loaded 2-core machine, random-aria
# needed more than ten times its 30 s): thirty times each test's own limit.
PROFILE_TIMEOUT_MULTIPLIER = 30


def profile_excluded(name):
    """The reason a host profile does not run this test, or None."""
    for patterns, why in PROFILE_EXCLUDED:
        if any(fnmatch.fnmatchcase(name, p) for p in patterns):
            return why
    return None


def profile_features(build, profile):
    """The CPU features our programs detect on the profile's model (a family tool's start
    record under qemu; profile None: on this CPU, natively), or None when none could be
    asked."""
    try:
        fams = [n for n, f in builds.load_families(build).items() if not f["riscv64"]]
    except (OSError, ValueError, KeyError):
        return None
    if not fams:
        return None
    with tempfile.TemporaryDirectory(prefix="asmdiff-profile.") as tmp:
        stream = os.path.join(tmp, "list.jsonl")
        p = subprocess.run((["qemu-x86_64", "-cpu", profile] if profile else []) +
                           [os.path.join(build, "asmdiff-" + sorted(fams)[0]), "list"],
                           env=dict(os.environ, ASMDIFF_RESULTS=stream),
                           capture_output=True, text=True)
        try:
            start = results.of_type(results.read(stream), "start")
        except results.StreamError:
            start = []
    if p.returncode or not start or not start[0].get("cpu"):
        return None
    return set(start[0]["cpu"].split())


def mask_changes_nothing(mask, features):
    """A test's ASMDIFF_CPU_MASK removes only features the model lacks anyway: on the profile
    it is the unmasked test again."""
    if not mask or features is None:
        return False
    return all(m.lstrip("-") not in features for m in mask.split(","))


def resolve_profile(model):
    """MODEL as qemu-x86_64's -cpu string (verify/host_profile.sh --resolve): an unknown model
    is bad usage (exit 2), a missing qemu a skip (77; a failure under ASMDIFF_STRICT=1)."""
    p = subprocess.run([HOST_PROFILE, "--resolve", model], capture_output=True, text=True)
    if p.returncode == 2:
        die(f"test: {p.stderr.strip().removeprefix('host profile: ')}\n{TEST_USAGE}")
    if p.returncode:
        print(p.stderr.strip() or f"host profile {model}: exit {p.returncode}", flush=True)
        raise SystemExit(p.returncode)
    return p.stdout.strip()


def introspect_tests(build):
    out = subprocess.run(["meson", "introspect", build, "--tests"], capture_output=True, text=True)
    if out.returncode:
        return []
    return [{"name": t["name"], "suites": {s.split(":")[-1] for s in t["suite"]},
             "mask": (t.get("env") or {}).get("ASMDIFF_CPU_MASK", "")}
            for t in json.loads(out.stdout)]


def configured_builds():
    return [b for b in (builds.BUILD, builds.BUILD_RV)
            if os.path.exists(os.path.join(b, "build.ninja"))]


def run_tests(suites, quiet=False, exclude=(), profile=None):
    """meson test in each build (the riscv64 one when it exists): the tests of `suites` (all
    when empty) that are in none of `exclude`; returns (rc, counts, results), counts including
    how many tests, suites and builds were chosen.  With profile (a qemu-x86_64 -cpu string),
    the x86-64 build's tests run under verify/host_profile.sh as meson's wrapper, less those
    PROFILE_EXCLUDED names (said here, with the reason); the riscv64 build is not run."""
    bs = configured_builds()
    if profile and builds.BUILD_RV in bs:
        bs.remove(builds.BUILD_RV)
        print(f"== riscv64 build: not run on a host profile (its tests are riscv64 programs "
              f"under qemu-riscv64, not x86-64 ones)", flush=True)
    tests = {b: introspect_tests(b) for b in bs}
    known = {b: {s for t in tests[b] for s in t["suites"]} for b in bs}
    for s in suites:
        if not any(s in k for k in known.values()):
            die(f"unknown suite '{s}' (suites: {' '.join(sorted(set().union(*known.values())))})")
    rc, results, ran_builds, ran_suites, chosen = 0, [], 0, set(), 0
    for b in bs:
        picked = [t for t in tests[b] if (not suites or t["suites"] & set(suites))
                  and not t["suites"] & set(exclude)]
        names = []
        if profile:
            for patterns, why in PROFILE_EXCLUDED:
                out = [t["name"] for t in picked
                       if any(fnmatch.fnmatchcase(t["name"], p) for p in patterns)]
                if out:
                    print(f"== not on the host profile ({len(out)}): {' '.join(out)}: {why}",
                          flush=True)
            picked = [t for t in picked if not profile_excluded(t["name"])]
            have = profile_features(b, profile)
            if have is None:
                print("== host profile: the model's CPU features could not be read (a family "
                      "tool's list under qemu-x86_64): every masked test runs", flush=True)
            same = [t for t in picked if mask_changes_nothing(t["mask"], have)]
            if same:
                print(f"== not on the host profile ({len(same)}): {' '.join(t['name'] for t in same)}: "
                      f"their ASMDIFF_CPU_MASK removes only features the model lacks: each is "
                      f"its unmasked test again", flush=True)
            picked = [t for t in picked if t not in same]
            names = [t["name"] for t in picked]
        if not picked:
            continue
        ran_builds += 1
        chosen += len(picked)
        ran_suites |= {s for t in picked for s in t["suites"] if s not in (SLOW, "asmdiff")}
        args = [a for s in suites if s in known[b] for a in ("--suite", s)]
        args += [a for s in exclude if s in known[b] for a in ("--no-suite", s)]
        # a log of this run's own: two runs at once in one build (two profiles, or a user's
        # run beside CI's) would otherwise append to one testlog.json and miscount each other
        logbase = f"testlog-{os.getpid()}" + (f"-{profile.split(',')[0]}" if profile else "")
        args += ["--logbase", logbase]
        if profile:
            # the tests by name (meson has no per-test exclusion), each under the wrapper
            args = ["--wrapper", shlex.join([HOST_PROFILE, profile]), "--logbase", logbase,
                    "--timeout-multiplier", str(PROFILE_TIMEOUT_MULTIPLIER)] + names
        if b == builds.BUILD_RV:
            print(f"== riscv64 build (qemu-riscv64): {b}", flush=True)
        # MESON_TESTTHREADS, as meson itself reads it, else every core
        jobs = os.environ.get("MESON_TESTTHREADS", "")
        cmd = ["meson", "test", "-C", b, "--print-errorlogs", "--num-processes",
               jobs if jobs.isdigit() and int(jobs) > 0 else str(os.cpu_count() or 1)] + args
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL if quiet else None)
        rc |= p.returncode != 0
        try:
            # meson adds the wrapper's name to the log's
            own = (f"{logbase}-{os.path.basename(HOST_PROFILE)}" if profile else logbase)
            logs = os.path.join(b, "meson-logs")
            log = own + ".json"
            with open(os.path.join(logs, log)) as f:
                for line in f:
                    try:
                        t = json.loads(line)
                    except ValueError:
                        print(f"test: {log}: a line that is not JSON (another meson test "
                              f"wrote the same log?)", flush=True)
                        rc = 1
                        continue
                    results.append((b, t["name"], t["result"], t.get("duration", 0),
                                    t.get("stdout", "")))
        except OSError:
            rc = 1
        prune_logs(os.path.join(b, "meson-logs"))
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


def prune_logs(logs, keep=8):
    """Each run's meson logs are its own (testlog-PID*, the files meson names at the end of
    its output); the newest `keep` runs' are kept."""
    try:
        names = [n for n in os.listdir(logs) if n.startswith("testlog-") and
                 n.split("-")[1].split(".")[0].isdigit()]
    except OSError:
        return
    runs = {}
    for n in names:
        pid = n.split("-")[1].split(".")[0]
        runs.setdefault(pid, []).append(n)
    def newest(pid):
        return max(os.path.getmtime(os.path.join(logs, n)) for n in runs[pid])
    for pid in sorted(runs, key=newest)[:-keep]:
        for n in runs[pid]:
            try:
                os.remove(os.path.join(logs, n))
            except OSError:
                pass


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


def skip_reason(out):
    """A skipped test's reason: its line saying SKIP, else its last line."""
    lines = [l.strip() for l in out.strip().splitlines() if l.strip()]
    said = [l for l in lines if "SKIP" in l]
    return (said or lines or ["(no output)"])[-1][:300]


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
    profile = resolve_profile(args.host_cpu) if args.host_cpu else None
    model = profile.split(",")[0] if profile else None
    on = f" on host profile {model} (qemu-x86_64)" if profile else ""
    linux_sources(sets)
    if sets[0][0] == "named":
        known = {s for b in configured_builds() for t in introspect_tests(b) for s in t["suites"]}
        for s in sets[0][1]:
            if s not in known:
                die(f"unknown suite '{s}' (suites: {' '.join(sorted(known))})\n{TEST_USAGE}")
    bad, empty, total = False, False, {"passed": 0, "failed": 0, "skipped": 0, "tests": 0}
    expected = load_expected_skips()
    profile_name = model or "native"
    features = profile_features(builds.BUILD, profile)
    t_all = time.time()
    for label, suites, exclude in sets:
        what = {"fast": "the fast set (every suite but the slow tests)",
                "slow": "the slow set (./asmdiff test --slow: libraries and builds from source)",
                "named": "suites " + " ".join(suites)}[label]
        print(f"== test: {what}{on}", flush=True)
        if profile:
            print(f"== host profile {model}: every x86-64 test program under qemu-x86_64 -cpu "
                  f"{profile}; scripts natively, with ASMDIFF_RUNNER set "
                  f"(verify/host_profile.sh)", flush=True)
        t0 = time.time()
        rc, c, results = run_tests(suites, exclude=exclude, profile=profile)
        skipped = [n for _, n, r, _, _ in results if r == "SKIP"]
        if not c["tests"]:
            # nothing of this set is registered here (the slow set is x86-64 only): not a pass
            print(f"test: {label}: nothing ran: no test of {what} is registered in this build")
            empty = True
            continue
        print(f"test: {label}: {c['tests']} tests of {c['suites']} suites in {c['builds']} "
              f"build{'s' if c['builds'] > 1 else ''}: {c['passed']} passed, {c['failed']} failed, "
              f"{c['skipped']} skipped{' (' + ', '.join(skipped) + ')' if skipped else ''} "
              f"in {minsec(time.time() - t0)}{on}")
        if profile:
            # a skip under a profile says why (the host lacks what the test compares against)
            for _, n, r, _, out in results:
                if r == "SKIP":
                    print(f"  skipped {n}: {skip_reason(out)}")
        problems, notes = judge_skips(results, profile_name, expected, features)
        for n in notes:
            print(f"  note: {n}")
        for pr in problems:
            print(f"  FAIL {pr}")
        if problems:
            print(f"test: {label}: {len(problems)} skip{'s' if len(problems) > 1 else ''} not in "
                  f"verify/expected-skips.json for {profile_name} (or with another reason): a "
                  f"skip hides what did not run, so only the listed ones pass")
        elif c["skipped"] and not notes:
            print(f"test: {label}: every skip is one verify/expected-skips.json lists for "
                  f"{profile_name}, with its reason")
        bad |= bool(rc or c["failed"] or not c["passed"] or problems)
        for k in total:
            total[k] += c[k]
    if len(sets) > 1:
        print(f"test: all: {total['tests']} tests: {total['passed']} passed, {total['failed']} "
              f"failed, {total['skipped']} skipped in {minsec(time.time() - t_all)}{on}")
    if [x[0] for x in sets] == ["fast"] and not profile:
        print("test: the slow integration suites (check, libgcrypt-1.12, the OSS-Fuzz builds) "
              "are ./asmdiff test --slow")
    return 1 if bad else 77 if empty else 0
