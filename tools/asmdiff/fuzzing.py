"""fuzzing.py — the one way asmdiff runs libFuzzer (run_libfuzzer), and `./asmdiff fuzz`.

fuzz, premerge, check and check --libgcrypt all build their command line here, so a flag is
changed in one place.  libFuzzer's own output (stat::..., "Test unit written to") is libFuzzer's
interface and read here; asmdiff's findings come from the result stream."""
import os
import subprocess
import sys

from . import builds, fuzz_options, stage
from .builds import die

RSS_LIMIT_MB = 4096
TIMEOUT = 20


def alarm_after(budget):
    """libFuzzer's -timeout for a checked run of budget seconds.  Its timeout alarm (SIGALRM
    every timeout/2 + 1 s) is delivered on whatever stack is current; inside a checked call that
    is the separate stack whose leftovers are scanned, and the signal frame then reads as a stack
    leftover.  A timeout of twice the budget and more puts the first alarm after the run; a
    hanging kernel is still stopped by it."""
    return 2 * budget + 20


def family_flags(family):
    """The family's own libFuzzer flags (corpus/F/fuzz_F.options, as OSS-Fuzz passes them):
    max_len, dict, len_control.  A malformed file stops the run."""
    if not family:
        return []
    try:
        return fuzz_options.flags(os.path.join(builds.TOP, "corpus"), family)
    except fuzz_options.OptionsError as e:
        die(str(e))


def libfuzzer_cmd(fuzzer, dirs, *, run=(), budget=None, artifacts=None, timeout=TIMEOUT,
                  extra=(), family=None):
    """The command line: runner, fuzzer, the one set of flags, the family's options file, the
    caller's extra flags (a later flag wins in libFuzzer: the user's own override the file's),
    then the corpus folders (the first one is written)."""
    cmd = list(run) + [fuzzer]
    if budget is not None:
        cmd.append(f"-max_total_time={budget}")
    if artifacts:
        cmd.append(f"-artifact_prefix={artifacts}/")
    cmd += [f"-timeout={timeout}", f"-rss_limit_mb={RSS_LIMIT_MB}", "-error_exitcode=1",
            "-timeout_exitcode=1", "-print_final_stats=1"]
    return cmd + family_flags(family) + list(extra) + list(dirs)


def run_libfuzzer(fuzzer, dirs, *, env=None, run=(), budget=None, artifacts=None,
                  checked_stack=False, extra=(), family=None):
    """Run libFuzzer once as a stage (its records in a file of its own).  checked_stack: the run
    scans the checked call's stack for leftovers, so its timeout alarm must not fire within the
    budget (alarm_after)."""
    if artifacts:
        os.makedirs(artifacts, exist_ok=True)
    if dirs:
        os.makedirs(dirs[0], exist_ok=True)
    timeout = alarm_after(budget) if checked_stack and budget else TIMEOUT
    cmd = libfuzzer_cmd(fuzzer, dirs, run=run, budget=budget, artifacts=artifacts,
                        timeout=timeout, extra=extra, family=family)
    return stage.run(cmd, env)


def stats(text):
    """libFuzzer's final stats (-print_final_stats=1): {name: value}, the last of each."""
    out = {}
    for line in text.splitlines():
        if line.startswith("stat::"):
            name, _, value = line[len("stat::"):].partition(":")
            out[name.strip()] = value.strip()
    return out


def unit_written(text):
    """The file libFuzzer saved the crashing input to, or None."""
    for line in text.splitlines():
        _, sep, rest = line.partition("Test unit written to ")
        if sep and rest.split():
            return rest.split()[0]
    return None


def impl_coverage(recs):
    """'runs K of N implementations' from a fuzzer's impl records (the reference not counted),
    or None without any."""
    impls = [r for r in recs if r["type"] == "impl" and r.get("kind") != "reference"]
    if not impls:
        return None
    names = {}
    for r in impls:
        names[r["name"]] = r
    ran = sum(1 for r in names.values() if r.get("available"))
    return f"runs {ran} of {len(names)} implementations"


def fuzz_target(args, fams):
    """(name, fam, vlen) of fuzz's arguments, checked."""
    if not args.family:
        die("fuzz needs a family: ./asmdiff fuzz FAMILY [--vlen N] [libFuzzer args | FILE...]")
    builds.check_family(args.family, fams)
    fam = fams[args.family]
    if args.vlen is not None and not fam["riscv64"]:
        rv = [n for n, f in fams.items() if f["riscv64"]]
        die(f"--vlen applies to riscv64 families only ({' '.join(rv)})")
    return args.family, fam, args.vlen


def fuzz_family(name, fam, vlen=None, budget=None, rest=(), capture=True):
    """Fuzz one family into build/corpus/NAME from the seeds, findings into FINDINGS/NAME: as a
    stage (its records read back), or with capture False as the user's own run (the output
    on the terminal, ASMDIFF_RESULTS as the user set it; the exit status returned)."""
    run = builds.runner(fam, vlen)
    fuzzer = os.path.join(fam["build"], "fuzz_" + name)
    env = dict(os.environ)
    if vlen:
        env["ASMDIFF_VLEN"] = vlen
    if run:
        print(f"asmdiff: {name} under {' '.join(run)}", file=sys.stderr)
    corpus = os.path.join(fam["build"], "corpus", name)
    dirs = [corpus, os.path.join(builds.TOP, "corpus", name, "seeds")]
    artifacts = os.path.join(builds.FINDINGS, name)
    if capture:
        return run_libfuzzer(fuzzer, dirs, env=env, run=run, budget=budget, artifacts=artifacts,
                             extra=rest, family=name)
    os.makedirs(artifacts, exist_ok=True)
    os.makedirs(corpus, exist_ok=True)
    cmd = libfuzzer_cmd(fuzzer, dirs, run=run, budget=budget, artifacts=artifacts, extra=rest,
                        family=name)
    return subprocess.run(cmd, env=env).returncode


def cmd_fuzz(args):
    fams = builds.families()
    name, fam, vlen = fuzz_target(args, fams)
    rest = args.rest
    run = builds.runner(fam, vlen)
    fuzzer = os.path.join(fam["build"], "fuzz_" + name)
    if rest and all(os.path.isfile(a) for a in rest):
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
    return fuzz_family(name, fam, vlen, rest=rest, capture=False)
