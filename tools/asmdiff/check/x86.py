"""x86.py — `./asmdiff check FAMILY --kernel FILE.S --symbol NAME` on x86-64: the check build
made, each kernel's encoding compared with the CPU's reading, every stage judged, the property
rows, --baseline's comparison and bench, the verdict."""
import hashlib
import json
import os
import subprocess
import sys

from .. import builds, coverage, encoding, results, stage
from .baseline import compare_with_old
from .bench_table import bench_table
from .build import (build_lock, check_arch, compile_check_build, configure, outside_slots,
                    place_beside, renamed_symbols, undefined_symbols)
from .judge import FAIL_FAST_NOT_RUN, FailFast, Judge, command_line
from .kernel import judge_kernel
from .riscv import check_riscv
from .usage import precheck
from .verdict import Verdict, output_paths


def check_outside(a):
    family, budget = a.family, a.budget
    fams = builds.families()
    builds.check_family(family, fams)
    slots = outside_slots(a)
    if check_arch(a, slots) == "riscv64":
        return check_riscv(a, family, slots)
    new = [sl for sl in slots if sl["role"] == "new"]
    # (the version: check builds of an earlier form of the outside_* options are not reused;
    # the --beside files, when given, are part of what the kernels are built from)
    beside = [os.path.abspath(f) for f in a.beside]
    key = hashlib.sha1(json.dumps([2, family, slots] + ([beside] if beside else []))
                       .encode()).hexdigest()[:10]
    label = "+".join(dict.fromkeys(sl["symbol"] for sl in new))
    bdir = os.path.join(builds.BUILD, "check", f"{family}-{label[:80]}-{key}")
    # each kernel beside the --beside files (the headers it includes with quotes)
    place_beside(beside, slots, bdir)
    # usage errors before the check build: each file built alone, each symbol defined
    precheck(slots, "x86_64")
    first = slots[0]
    kernel, symbol, conv = first["kernel"], first["symbol"], first["conv"]
    needs = ",".join(dict.fromkeys(n for sl in slots for n in sl["needs"].split(",") if n))
    # the one-line command that redoes this check (and, with a file, reproduces a finding):
    # the options as given (a convention guessed or needs scanned are found again the same
    # way, and the same options make the same build folder: no rebuild)
    words = ["./asmdiff", "check", family]
    for sl in new:
        words += ["--kernel", sl.get("source") or sl["kernel"], "--symbol", sl["symbol"]]
    words += [x for d in new[0]["includes"] for x in ("--include", d)]
    words += [x for f in new[0].get("with", []) for x in ("--with", f)]
    words += [x for f in beside for x in ("--beside", f)]
    for key_, opt, given in (("needs", "--needs", a.needs), ("conv", "--convention",
                                                               a.convention), ("op", "--op", a.op)):
        vals = [sl[key_] for sl in new] if given else []
        vals = vals[:1] if len(set(vals)) == 1 else vals
        words += [x for v_ in vals if v_ for x in (opt, v_)]
    if a.baseline:
        words += ["--baseline", os.path.abspath(a.baseline)]
        words += [x for sl in slots if sl["role"] == "old" and sl["symbol"] != sl.get("pair")
                  for x in ("--baseline-symbol", sl["symbol"])]
        words += [x for d in a.baseline_include for x in ("--baseline-include",
                                                          os.path.abspath(d))]
    again = command_line(words)
    v = Verdict(outputs=output_paths(a), source_root=getattr(a, "source_root", None))
    v.kernels = {sl["name"] or sl["symbol"]: (sl.get("source") or sl["kernel"], sl["symbol"])
                 for sl in slots}
    judge = Judge(v, {k["name"]: k["row"] for k in results.check_kinds()}, again)
    if len(slots) > 1:
        judge.slots = [{"name": sl["name"], "role": sl["role"], "pair": sl["pair"]}
                       for sl in slots]
    title = f"check {family} {label}"
    for sl in slots:
        body = (f"\n   its body assembled as ELF: {sl['kernel']} (perlasm's Win64 output: the "
                "COFF records, SEH directives and unwind tables left out, line for line)"
                if sl.get("source") and sl["source"] != sl["kernel"] and not sl.get("beside")
                else f"\n   built beside {', '.join(os.path.basename(f) for f in beside)}: "
                     f"{sl['kernel']}" if sl.get("beside") else "")
        print(f"== check {family}: {sl['symbol']} from {sl.get('source') or sl['kernel']}" + body +
              (f" (as {sl['name']})" if sl["name"] and sl["name"] != sl["symbol"] else "") +
              f"\n   convention {sl['conv']} ({sl['why']}){sl['scanned']}", flush=True)
    print(f"   build folder {bdir}", flush=True)
    with build_lock(bdir):
        if not os.path.exists(os.path.join(bdir, "build.ninja")) and \
                not configure(bdir, family, slots):
            v.add("build", "FAIL", f"meson setup failed in {bdir}")
            return v.print(title)
        targets = [f"asmdiff-{family}-outside"]
        fuzzer = os.path.join(bdir, f"fuzz_{family}-outside")
        p = subprocess.run(["meson", "introspect", bdir, "--targets"], capture_output=True,
                           text=True)
        has_fuzzer = f'"fuzz_{family}-outside"' in p.stdout
        if has_fuzzer:
            targets.append(f"fuzz_{family}-outside")
        if not compile_check_build(v, bdir, targets):
            return v.print(title)
    miscoded = False
    for sl in slots:
        # the object must hold what the file says (encoding.py: clang's own encoder bugs)
        i = slots.index(sl)
        unchecked = ""
        try:
            _, bad = encoding.disagreements(os.path.join(bdir, f"liboutside-kernel-{i}.a"))
        except RuntimeError as e:
            bad, unchecked = [], f"; its encoding NOT compared with the CPU's reading ({e})"
        if bad:
            for where, g, other in bad[:10]:
                print(f"   {where}: the CPU reads {g}; the source says {other}")
            v.add("build" + (f": {sl['name']}" if len(slots) > 1 else ""), "FAIL",
                  f"{os.path.basename(sl['kernel'])}: {encoding.describe(bad)}",
                  kernel=sl["name"] or sl["symbol"])
            miscoded = True
            continue
        incs = sl["includes"]
        shim = "--include " + " ".join(incs) if incs else \
            "our compatibility headers (verify/outside/include)"
        renamed = renamed_symbols(bdir, i, sl["symbol"])
        renamed = f"; renamed in its object (defined twice): {', '.join(renamed[:2])}" + \
            (f" and {len(renamed) - 2} more" if len(renamed) > 2 else "") if renamed else ""
        v.add("build" + (f": {sl['name']}" if len(slots) > 1 else ""), "pass",
              f"{os.path.basename(sl['kernel'])} with {shim}{renamed}{unchecked}",
              kernel=sl["name"] or sl["symbol"])
    if miscoded:
        return v.print(title)
    tool = os.path.join(bdir, f"asmdiff-{family}-outside")
    env = dict(os.environ, ASMDIFF_FINDINGS=os.path.join(builds.FINDINGS, "check",
                                                         os.path.basename(bdir)))
    if a.files:
        # reproduce: each file once through the check build's tool, the report as it prints
        st = stage.run([tool, "replay"] + a.files, env)
        text = st.text
        for f in st.findings:
            if f.get("reproduce"):
                text = text.replace(f["reproduce"], judge.reproduce(st, f))
        sys.stdout.write(text)
        return st.rc

    judge.fail_fast = a.fail_fast
    stopped = None
    try:
        judged = judge_kernel(judge, tool, fuzzer if has_fuzzer else None, family,
                              symbol if len(slots) == 1 else f"the {len(slots)} kernels",
                              fams[family].get("exhaustive"), budget, env,
                              engines=fams[family].get("engines") or (), needs=needs,
                              conv=conv if len({sl["conv"] for sl in slots}) == 1 else None,
                              kernel=next((sl["kernel"] for i, sl in enumerate(slots)
                                           if sl["kernel"].endswith(".c") and
                                           undefined_symbols(bdir, i)), ""),
                              declared=bool(needs) and not any(sl["scanned"] for sl in slots))
    except FailFast as e:
        judged, stopped = True, e.stage_name
    if not judged:
        return v.print(title)
    if stopped:
        v.add("stopped", "n/a", f"--fail-fast: at '{stopped}', the first stage with a finding; "
                                f"{FAIL_FAST_NOT_RUN}")
    else:
        # what the stages reached of each kernel, and the lines none reached (docs/coverage.md)
        for k in dict.fromkeys(sl["kernel"] for sl in slots):
            coverage.check_outside_coverage(tool, k, family, [os.path.join(bdir, "corpus")],
                                            env)
    judge.properties(conv)
    if a.baseline:
        compare_with_old(judge)
    if a.baseline or a.bench:
        if stopped:
            v.add("bench", "n/a", f"--fail-fast stopped the check at '{stopped}'")
        else:
            v.extra += bench_table(family, slots, tool, env) or []
    return v.print(f"check {family}: {label} ({conv} convention)")
