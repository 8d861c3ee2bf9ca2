#!/usr/bin/env python3
"""coverage_properties.py — the families' case properties (fuzz/harness/properties.h, the
guided fuzz mode's features) checked against the emulator: the family's tool replays the seeds
and N random cases in mode coverage with ASMDIFF_COVERAGE_PROPERTIES=1, which reports, for each
instruction and branch direction of a kernel that some case running the kernel did not reach,
the property values whose every case reached it (backend_coverage.c).  Here each basic block and
branch direction the emulator saw is then:
  - always: reached by every case that ran its kernel (no property needed);
  - tracked: implied by a property value (named, with its cases);
  - one case: reached by a single case (no value is implied by one case alone: counted apart);
  - not distinguished: reached by some cases, implied by no value (listed).
The check passes when every reached block and direction is always, tracked or of one case.

    coverage_properties.py SRCDIR FAMILY [--random N] [--seed S] [--drop "NAME;NAME"]
                           [--expect-untracked KERNEL...]

--drop leaves properties out (the control): with --expect-untracked the run must find blocks
or directions no property distinguishes in each KERNEL named, and exits 0 only then.
ASMDIFF_BUILD names the build, as for the CLI."""
import argparse
import os
import sys


def main(argv):
    ap = argparse.ArgumentParser(prog="coverage_properties.py")
    ap.add_argument("srcdir")
    ap.add_argument("family")
    ap.add_argument("--random", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--drop", default="")
    ap.add_argument("--expect-untracked", nargs="*", default=None, metavar="KERNEL")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args(argv)
    sys.path.insert(0, os.path.join(a.srcdir, "tools"))
    from asmdiff import builds, coverage, results, stage  # noqa: E402

    fams = builds.families()
    builds.check_family(a.family, fams)
    fam = builds.load_families(builds.BUILD).get(a.family) or fams[a.family]
    if fam["riscv64"]:
        print(f"coverage properties {a.family}: SKIP: riscv64 kernels: the observer is x86-64")
        return 77
    tool = os.path.join(fam["build"], "asmdiff-" + a.family)
    if not os.path.exists(tool):
        print(f"coverage properties {a.family}: FAIL: no tool {tool}")
        return 1
    env = dict(os.environ, ASMDIFF_COVERAGE_PROPERTIES="1",
               ASMDIFF_COVERAGE_PROPERTIES_DROP=a.drop)
    seeds = os.path.join(a.srcdir, "corpus", a.family, "seeds")
    recs, cases = [], 0
    # one run: the property values' intersections are over every case of the run
    st = stage.run([tool, "coverage", "random", str(a.random), str(a.seed)], env)
    st2 = stage.run([tool, "coverage", seeds], env)
    for s in (st, st2):
        if s.rc == 77:
            print(f"coverage properties {a.family}: SKIP: {s.reason()}")
            return 77
        if s.rc or s.summary is None:
            print(s.text[-3000:])
            print(f"coverage properties {a.family}: FAIL: the tool exited {s.rc}")
            return 1
        cases += s.summary.get("cases", 0)
    runs = []
    for name, s in (("random", st), ("seeds", st2)):
        props = results.of_type(s.recs, "coverage-property")
        hits = coverage.merge_records(s.recs)
        if not hits:
            print(f"coverage properties {a.family}: FAIL: the {name} run reached no instruction")
            return 1
        runs.append((name, hits, {(int(r["pc"], 16), int(r["next"], 16) if r["next"] else None):
                                  r for r in props}))
    kernels = coverage.kernel_functions(tool, coverage.family_wanted(a.family))
    coverage.disassemble(tool, kernels)

    untracked = {}  # kernel -> ["block +0x..", "branch +0x.. taken"]
    print(f"coverage properties {a.family}: {cases} cases ({a.random} random, seed {a.seed}; "
          f"the seeds apart)" + (f"; left out: {a.drop}" if a.drop else ""))
    print(f"{'kernel':40} {'run':7} {'blocks':>7} {'always':>7} {'tracked':>8} {'1 case':>7}"
          f" {'untracked':>9} {'dirs':>5} {'always':>7} {'tracked':>8} {'1 case':>7}"
          f" {'untracked':>9}")
    examples, single = [], []
    for k in kernels:
        body = [i for i in k.insns if not i.nop]
        if not body:
            continue
        leaders = coverage.block_leaders(k)
        # a block's first instruction that is not padding
        firsts, started = [], False
        for i in k.insns:
            if i.addr in leaders:
                started = True
            if started and not i.nop:
                firsts.append(i)
                started = False
        dirs = [(i, t) for i in k.insns if i.cond and i.target is not None
                for t in (i.target, i.addr + i.size)]
        for name, hits, props in runs:
            counts = [0] * 8
            for group, items in ((0, [(i.addr, None, i) for i in firsts]),
                                 (4, [(i.addr, t, i) for i, t in dirs])):
                for pc, nxt, i in items:
                    h = hits.get(pc)
                    if not h or (nxt is not None and not h["next"].get(nxt)):
                        continue  # not reached: the coverage table's business
                    r = props.get((pc, nxt))
                    if r is None:
                        counts[group] += 1
                    elif r["values"]:
                        counts[group + 1] += 1
                        if len(examples) < 8 and nxt is not None and name == "random":
                            examples.append(f"  {k.name}+{pc - k.start:#x} -> "
                                            f"{'+%#x' % (nxt - k.start)} ({r['cases']} of "
                                            f"{r['of']} cases): {', '.join(r['by'][:2])}")
                    elif r["cases"] < 2:
                        counts[group + 2] += 1  # one case: nothing to compare it with
                        single.append(f"{k.name}+{pc - k.start:#x} ({name})")
                    else:
                        counts[group + 3] += 1
                        what = (f"block +{pc - k.start:#x}" if nxt is None else
                                f"branch +{pc - k.start:#x} -> +{nxt - k.start:#x}")
                        untracked.setdefault(k.name, []).append(
                            f"{what} ({name}: {r['cases']} of {r['of']} cases; {i.file}:{i.line})")
            nb = sum(counts[:4])
            nd = sum(counts[4:])
            if nb or nd:
                print(f"{k.name:40} {name:7} {nb:7} {counts[0]:7} {counts[1]:8} {counts[2]:7}"
                      f" {counts[3]:9} {nd:5} {counts[4]:7} {counts[5]:8} {counts[6]:7}"
                      f" {counts[7]:9}")
    if examples:
        print("branch directions and the property values that imply them (examples):")
        print("\n".join(examples))
    if single:
        print(f"reached by one case only (a value of one case implies nothing): "
              f"{len(single)}, e.g. {', '.join(single[:4])}")
    if untracked:
        print("not distinguished by any property value (reached by some cases of the kernel):")
        for k, items in untracked.items():
            for x in items[:20 if a.verbose else 4]:
                print(f"  {k}: {x}")
            if len(items) > (20 if a.verbose else 4):
                print(f"  {k}: ... {len(items)} in all")
    if a.expect_untracked is not None:
        missing = [k for k in a.expect_untracked if k not in untracked]
        if missing or not a.expect_untracked:
            print(f"coverage properties {a.family}: control FAIL: with {a.drop or 'nothing'} "
                  f"left out, every path of {', '.join(missing)} is still distinguished")
            return 1
        print(f"coverage properties {a.family}: control pass: with {a.drop} left out, "
              f"{sum(len(untracked[k]) for k in a.expect_untracked)} blocks and directions of "
              f"{', '.join(a.expect_untracked)} are distinguished by nothing")
        return 0
    if untracked:
        print(f"coverage properties {a.family}: FAIL: "
              f"{sum(len(v) for v in untracked.values())} blocks and branch directions in "
              f"{len(untracked)} kernels that no property value distinguishes")
        return 1
    print(f"coverage properties {a.family}: pass: every block and branch direction reached in "
          f"{cases} cases is reached always or by a property value")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
