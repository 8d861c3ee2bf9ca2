"""riscv.py — an outside kernel for riscv64 (RVV intrinsics in C, or RVV assembly: Linux's
arch/riscv/crypto), under qemu-riscv64: the same check build made as a riscv64 cross build, each
stage a row per VLEN."""
import hashlib
import json
import os
import shutil
import sys

from .. import builds, fuzzing, results, stage
from ..builds import TOP, die
from .baseline import compare_with_old
from .build import build_lock, compile_check_build, configure, place_beside
from .judge import FailFast, Judge, command_line
from .usage import precheck
from .verdict import Verdict, output_paths

RISCV_VLENS = (128, 256, 512, 1024)
# what the riscv64 check does not run, and why (each an n/a row)
RISCV_NOT_RUN = (
    ("unicorn bounds", "the Unicorn modes emulate x86-64 only"),
    ("unicorn ct-trace", "the Unicorn modes emulate x86-64 only"),
    ("emu-diff", "the Unicorn modes emulate x86-64 only"),
    ("emulated set", "AVX-512/GFNI masking is x86-64's; the VLEN sweep is this kernel's"),
    ("valgrind ct", "Valgrind does not run under qemu-riscv64"),
)


def fuzzer_runtime():
    """The riscv64 libFuzzer archive the default riscv64 build was configured with (its
    riscv_fuzzer_runtime option: tools/fetch_riscv_fuzzer_runtime), or "" without one."""
    try:
        with open(os.path.join(builds.BUILD_RV, "meson-info", "intro-buildoptions.json")) as f:
            opts = json.load(f)
    except (OSError, ValueError):
        return ""
    rt = next((o.get("value") for o in opts if o.get("name") == "riscv_fuzzer_runtime"), "")
    return rt if rt and os.path.isfile(rt) else ""


def check_riscv(a, family, slots):
    """The riscv64 check: the same check build (the outside_* options) made as a riscv64 cross
    build, run under qemu-riscv64 at every VLEN our kernels run at (--vlen to choose), each
    stage a row per VLEN with its calls of each kernel; the stages riscv64 cannot have are n/a
    rows that say why.  --beside copies files next to the kernel first (a header it includes
    with quotes, as its tree would give it)."""
    vlens = [int(x) for x in a.vlen] or list(RISCV_VLENS)
    for x in vlens:
        if x not in RISCV_VLENS:
            die(f"--vlen: {x} is not one of {', '.join(map(str, RISCV_VLENS))}")
    for f in a.beside:
        if not os.path.isfile(f):
            die(f"--beside: no file {f}")
    v = Verdict(outputs=output_paths(a), source_root=getattr(a, "source_root", None))
    v.kernels = {sl["name"] or sl["symbol"]: (sl["kernel"], sl["symbol"]) for sl in slots}
    for tool_ in ("qemu-riscv64", "clang-19"):
        if not shutil.which(tool_):
            v.not_established("build", f"{tool_} not found: a riscv64 check needs it")
            return v.print(f"check {family} (riscv64)")
    new = [sl for sl in slots if sl["role"] == "new"]
    label = "+".join(dict.fromkeys(sl["symbol"] for sl in new))
    rt = fuzzer_runtime()
    key = hashlib.sha1(json.dumps([3, family, slots, [os.path.abspath(f) for f in a.beside], rt])
                       .encode()).hexdigest()[:10]
    bdir = os.path.join(builds.BUILD, "check-riscv64", f"{family}-{label[:80]}-{key}")
    as_given = {id(sl): sl["kernel"] for sl in slots}  # (the reproduce line names these)
    place_beside(a.beside, slots, bdir)
    # usage errors before the check build (each file built alone, each symbol defined)
    precheck(slots, "riscv64")
    words = ["./asmdiff", "check", family, "--arch", "riscv64"]
    for sl in new:
        words += ["--kernel", as_given[id(sl)], "--symbol", sl["symbol"]]
    words += [x for d in new[0]["includes"] for x in ("--include", d)]
    words += [x for f in new[0].get("with", []) for x in ("--with", f)]
    # (the options as given: the same options make the same build folder)
    words += [x for sl in new[:1] for k, o, given in (("conv", "--convention", a.convention),
                                                      ("needs", "--needs", a.needs))
              if sl[k] and given for x in (o, sl[k])]
    words += [x for f in a.beside for x in ("--beside", os.path.abspath(f))]
    judge = Judge(v, {k["name"]: k["row"] for k in results.check_kinds()}, command_line(words))
    if len(slots) > 1:
        judge.slots = [{"name": sl["name"], "role": sl["role"], "pair": sl["pair"]}
                       for sl in slots]
    title = f"check {family}: {label} ({slots[0]['conv']} convention, riscv64)"
    for sl in slots:
        print(f"== check {family} (riscv64, qemu-riscv64 at VLEN "
              f"{', '.join(map(str, vlens))}): {sl['symbol']} from {sl['kernel']}\n"
              f"   convention {sl['conv']} ({sl['why']})", flush=True)
    print(f"   build folder {bdir}", flush=True)
    target = f"asmdiff-{family}-outside"
    # the fuzzer: coverage-guided libFuzzer for riscv64 (the default riscv64 build's runtime),
    # run under qemu-riscv64 at each VLEN
    fuzzer = os.path.join(bdir, f"fuzz_{family}-outside") if rt else None
    with build_lock(bdir):
        if not os.path.exists(os.path.join(bdir, "build.ninja")) and \
                not configure(bdir, family, slots, cross=os.path.join(TOP, "cross",
                                                                   "riscv64-linux.ini"),
                              cross_fuzzer_runtime=rt):
            v.add("build", "FAIL", f"meson setup of the riscv64 check build failed in {bdir}")
            return v.print(title)
        if not compile_check_build(v, bdir, [target] + ([f"fuzz_{family}-outside"] if rt
                                                        else [])):
            return v.print(title)
    for sl in slots:
        v.add("build" + (f": {sl['name']}" if len(slots) > 1 else ""), "pass",
              f"{os.path.basename(sl['kernel'])} for riscv64 (rv64gcv)",
              kernel=sl["name"] or sl["symbol"])
    tool = os.path.join(bdir, target)
    env = dict(os.environ, ASMDIFF_FINDINGS=os.path.join(builds.FINDINGS, "check-riscv64",
                                                         os.path.basename(bdir)))
    seeds = os.path.join(TOP, "corpus", family, "seeds")

    def qemu(vlen):
        return ["qemu-riscv64", "-cpu", builds.qemu_cpu(vlen)]

    if a.files:
        # reproduce: each file through the check build at each VLEN, the report as it prints
        rc = 0
        for vlen in vlens:
            st = stage.run(qemu(vlen) + [tool, "replay"] + a.files, env)
            print(f"-- VLEN {vlen}")
            sys.stdout.write(st.text)
            rc = max(rc, st.rc)
        return rc
    judge.symbol = slots[0]["symbol"] if len(slots) == 1 else f"the {len(slots)} kernels"
    st = stage.run(qemu(vlens[0]) + [tool, "list"], env)
    mine = {r.get("name"): r for r in results.impls(st.recs).values()
            if r.get("kind") == "outside"}
    for sl in slots:
        r = mine.get(sl["name"] or sl["symbol"])
        row = f"operations: {sl['name']}" if len(slots) > 1 else "operations"
        if st.rc or not r or not r.get("available"):
            v.add(row, "FAIL", st.reason() if st.rc or not r else r.get("reason") or "?",
                  kernel=sl["name"] or sl["symbol"])
            return v.print(title)
        role = (f" (the file before the patch, compared with {sl['pair']})"
                if sl["role"] == "old" else "")
        v.add(row, "pass", f"covers {', '.join(r.get('covers') or []) or 'nothing'}{role}",
              kernel=sl["name"] or sl["symbol"])
        for c in results.of_type(st.recs, "convention"):
            if c.get("name") == sl["conv"]:
                judge.precondition = c.get("prototype", "")

    def fixed_reproduce(st, vlen):
        # a saved input reproduces through the check itself at that VLEN; a mode's own line
        # under qemu at that VLEN
        for f in st.findings:
            if not f.get("input") and f.get("reproduce"):
                f["reproduce"] = " ".join(qemu(vlen)) + " " + f["reproduce"]
            elif f.get("input"):
                f["reproduce"] = f["reproduce_final"] = \
                    f"{judge.again} --vlen {vlen} {os.path.abspath(f['input'])}"

    def fuzz_stage(vlen):
        # libFuzzer for the budget at each VLEN, its corpus that VLEN's own (what a VLEN's code
        # reaches differs); a finding's input reproduces through the check at that VLEN
        name = f"vlen{vlen} fuzz {a.budget}s"
        if not fuzzer:
            v.not_established(name, "no riscv64 libFuzzer runtime: the default riscv64 build was "
                                    "configured without one (tools/fetch_riscv_fuzzer_runtime)")
            return
        print(f"-- {name}", flush=True)
        st = fuzzing.run_libfuzzer(fuzzer, [os.path.join(bdir, f"corpus-vlen{vlen}"), seeds],
                                   run=qemu(vlen), env=env, family=family, budget=a.budget,
                                   checked_stack=True,
                                   artifacts=os.path.join(env["ASMDIFF_FINDINGS"], family))
        fixed_reproduce(st, vlen)
        n = fuzzing.stats(st.text)
        judge.stage(st, name, lambda s: f"{n.get('number_of_executed_units', '?')} execs, "
                                        f"{n.get('average_exec_per_sec', '?')} exec/s",
                    libfuzzer=True)

    judge.fail_fast = a.fail_fast
    stopped = None
    try:
        for vlen in vlens:
            stages = [("kat", ["kat", TOP]), ("exhaustive", ["exhaustive"]),
                      ("replay (seeds)", ["replay", seeds]), ("random", ["random", "3000", "1"])]
            for name, args in stages:
                if name == "replay (seeds)" and not os.path.isdir(seeds):
                    continue
                print(f"-- vlen{vlen} {name}", flush=True)
                st = stage.run(qemu(vlen) + [tool] + args, env)
                fixed_reproduce(st, vlen)
                if name == "exhaustive" and st.rc == 77 and not (st.summary or {}).get("calls"):
                    v.add(f"vlen{vlen} {name}", "n/a", st.reason())
                    continue
                judge.stage(st, f"vlen{vlen} {name}", stage.Stage.counts, checked=True)
            fuzz_stage(vlen)
    except FailFast as e:
        stopped = e.stage_name
        v.add("stopped", "n/a", f"--fail-fast: at '{stopped}', the first stage with a finding; "
                                "the stages after it did not run")
    for name, why in RISCV_NOT_RUN:
        v.add(name, "n/a", why)
    judge.properties(slots[0]["conv"], "riscv64")
    if a.baseline:
        compare_with_old(judge)
    if a.baseline or a.bench:
        v.add("bench", "n/a", "under qemu-riscv64 a time is the emulator's, not the kernel's: "
                              "bench both on riscv64 hardware")
    return v.print(title)
