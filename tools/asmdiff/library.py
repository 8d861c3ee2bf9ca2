"""library.py — `./asmdiff check --libgcrypt PREFIX / --openssl PREFIX`: the families a library
build of the author's own implements, at each of its hardware-feature levels (known answers,
seeds and random inputs, the C reference the judge), then libFuzzer, in a build folder of its
own.  Whether the library ran, the counts and the findings come from the result stream."""
import os
import subprocess

from . import builds, fuzzing, results, stage
from .builds import TOP, die
from .check import Verdict, distinct, output_paths

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


def library_impls(recs, lib):
    """The impl records of this library's implementations (libgcrypt, libgcrypt-no-..., openssl)."""
    return [r for r in results.impls(recs).values()
            if r.get("kind") == "library" and r["name"].startswith(lib)]


def did_not_run(recs, lib):
    """Why none of the library's implementations ran in this stage, or None when one did."""
    mine = library_impls(recs, lib)
    if not mine or any(r.get("available") and (r.get("cases") or not r.get("skipped_cases"))
                       for r in mine):
        return None
    return "; ".join(f"{r['name']}: {r.get('reason') or 'no case ran'}" for r in mine)


def version_and_levels(rec, lib):
    """The library's version and its levels [(label, value)], from its impl record: libgcrypt's
    `version` and `hwf` (its hardware features, from its own hwflist: each a level); OpenSSL's
    levels are its ia32cap masks above, its version the first two words of `describe` (shown
    to people only, never a verdict)."""
    if lib == "libgcrypt":
        version = rec.get("version") or "libgcrypt ?"
        hwf = rec.get("hwf") or []
        levels = [("every feature", "")] + [(f"without {f}", f) for f in hwf] + \
            ([("without any", ",".join(hwf))] if hwf else [])
        return version, levels, "ASMDIFF_GCRYPT_DISABLE"
    describe = rec.get("describe") or ""
    version = rec.get("version") or " ".join(describe.split()[:2]) or "OpenSSL ?"
    return version, OPENSSL_LEVELS, "OPENSSL_ia32cap"


def path_taken(recs, lib, value):
    """(what the level's processes say of the path the library took, why the level did not
    take effect or None).  libgcrypt: its hwflist in effect in that process (the impl record's
    `hwf`, read after GCRYCTL_DISABLE_HWF): a feature the level disables must be gone from it.
    OpenSSL: the OPENSSL_ia32cap mask given; its API says nothing of the path it took."""
    if lib != "libgcrypt":
        return (f"OPENSSL_ia32cap={value}" if value else "OPENSSL_ia32cap unset") + \
            " (the path itself is not observable through OpenSSL's API)", None
    hwfs = [r.get("hwf") for r in library_impls(recs, lib) if r.get("hwf") is not None]
    if not hwfs:
        return "hwf in effect: not reported", None
    hwf = hwfs[-1]
    still = [f for f in (value or "").split(",") if f and f in hwf]
    why = (f"the level did not take effect: {', '.join(still)} still in libgcrypt's hwflist "
           f"({' '.join(hwf)})") if still else None
    return f"hwf in effect: {' '.join(hwf) or 'none'}", why


def walk_levels(v, tool, fam, lib, version, levels, env0, prefix_env, found):
    """One row per level (or per finding at it): known answers, seeds and random inputs; each
    row says which path the library took there, where it lets us observe it (path_taken)."""
    seeds = os.path.join(TOP, "corpus", fam, "seeds")
    for label, value in levels:
        env = dict(env0, **{prefix_env: value})
        name = f"{fam} {lib} {label}"
        cases, calls, findings, failed = 0, 0, [], None
        path = "hwf in effect: not reported"
        for cmd in ([tool, "kat", TOP], [tool, "replay", seeds], [tool, "random", "1500", "7"]):
            st = stage.run(cmd, env)
            path, wrong = path_taken(st.recs, lib, value)
            if wrong:
                failed = wrong
                break
            s = st.summary or {}
            cases += s.get("cases") or 0
            calls += s.get("calls") or 0
            if st.findings:
                stage.print_reports(st)
                for f in st.findings:
                    r = f.get("reproduce") or ""
                    # the level is part of the command (libgcrypt's is already in the line)
                    if value and prefix_env not in r:
                        r = f"{prefix_env}={value} {r}"
                    findings.append(dict(f, reproduce=r))
                continue
            why = did_not_run(st.recs, lib)
            if st.rc == 0 and why:
                failed = f"the library did not run: {why}"
                break
            if st.rc not in (0, 77):
                failed = st.reason()
                break
            if st.rc == 0 and not st.summary:
                failed = "exit 0 without a summary record (docs/results.md)"
                break
        for f in distinct(findings):
            found.append(f)
            v.add_finding(name, f, cases=cases, calls=calls)
        if findings:
            continue
        if failed:
            v.add(name, "FAIL", failed, cases=cases, calls=calls)
        else:
            v.add(name, "pass", f"{cases} cases, {calls} checked calls (kat, seeds, 1500 random) "
                                f"on {version}; {path}", cases=cases, calls=calls)


def check_library(a):
    bdir, prefixes = builds.lib_build(a.libgcrypt, a.openssl)
    fams = builds.load_families(bdir)
    chosen, budget = a.files, a.budget
    v, found = Verdict(outputs=output_paths(a)), []
    candidates = chosen or [n for n in fams if not fams[n]["riscv64"]]
    for n in candidates:
        builds.check_family(n, fams)
    p = subprocess.run(["nice", "-n", "10", "meson", "compile", "-C", bdir] +
                       [f"asmdiff-{n}" for n in candidates] +
                       [f"fuzz_{n}" for n in candidates if fams[n]["fuzzer"]],
                       capture_output=True, text=True)
    if p.returncode:
        print("\n".join(l for l in (p.stdout + p.stderr).splitlines() if "rror" in l)[:3000])
        die(f"build against {', '.join(prefixes.values())} failed (meson compile -C {bdir})")
    title = f"check {' '.join(f'--{k} {p}' for k, p in prefixes.items())}"
    print(f"== {title}: build folder {bdir}", flush=True)
    env0 = dict(os.environ, ASMDIFF_FINDINGS=os.path.join(builds.FINDINGS, "check",
                                                          os.path.basename(bdir)))
    for n in candidates:
        tool = os.path.join(bdir, f"asmdiff-{n}")
        listed = stage.run([tool, "list"], env0)
        aside = results.emulated_set_aside(listed.recs)
        env_levels = dict(env0, ASMDIFF_SET_ASIDE=aside) if aside else env0
        if aside:
            print(f"-- {n}: set aside at every level, emulated on this CPU: "
                  f"{aside.replace(';', ', ')}", flush=True)
        walked = False  # whether a level of a library ran on this family
        for lib, prefix in prefixes.items():
            mine = library_impls(listed.recs, lib)
            if not mine:
                if chosen:
                    # named by the author: a family the library does not implement is not
                    # clean (nothing of the library would run: the fuzz stage would fuzz our
                    # own kernels and say pass)
                    v.add(f"{n} {lib}", "FAIL", f"{n} has no {lib} implementation: nothing of "
                          f"{lib} runs in this family (./asmdiff list {n} shows its "
                          f"implementations)")
                continue
            if not mine[0].get("available"):
                v.add(f"{n} {lib}", "skip", mine[0].get("reason") or "not available here")
                continue
            version, levels, var = version_and_levels(mine[0], lib)
            print(f"-- {n}: {version} from {prefix}; levels: "
                  f"{', '.join(l for l, _ in levels)}", flush=True)
            walk_levels(v, tool, n, lib, version, levels, env_levels, var, found)
            walked = True
        if fams[n]["fuzzer"] and budget and walked:
            fuzzer = os.path.join(bdir, f"fuzz_{n}")
            name = f"{n} fuzz {budget}s"
            st = fuzzing.run_libfuzzer(fuzzer, [os.path.join(bdir, "corpus", n),
                                                os.path.join(TOP, "corpus", n, "seeds")],
                                       env=env0, budget=budget, checked_stack=True, family=n,
                                       artifacts=os.path.join(env0["ASMDIFF_FINDINGS"], n))
            unit = fuzzing.unit_written(st.text)
            if st.findings:
                stage.print_reports(st)
                for f in distinct(st.findings):
                    r = f"{fuzzer} {unit}" if unit else f.get("reproduce") or ""
                    found.append(dict(f, reproduce=r))
                    v.add_finding(name, dict(f, reproduce=r))
            elif st.rc:
                v.add(name, "FAIL", f"exit {st.rc}")
            else:
                execs = fuzzing.stats(st.text).get("number_of_executed_units", "?")
                v.add(name, "pass", f"{execs} execs, every feature")
    if not v.rows:
        v.add("families", "skip", "no family here is implemented by the given libraries")
    return v.print(title)
