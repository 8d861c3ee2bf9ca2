"""kernel.py — every stage of one built check build into the verdict (judge_kernel), and
Valgrind memcheck's constant time (valgrind_ct)."""
import os
import re
import shlex
import shutil

from .. import fuzzing, results, stage
from ..builds import TOP, die
from .judge import set_aside

# Memcheck's exit status for its own errors (verify/valgrind_ct.sh uses the same).
MEMCHECK_ERROR = 42
VALGRIND_CT_CASES = "200"
# Instructions that mean the kernel needs AVX-512 or GFNI (when --needs does not say), and the
# features the emulated set masks (pclmul: Linux's POLYVAL file, whose carry-less multiplies
# the emulator runs too; a kernel needing only AVX or AES-NI gets no emulated set).
EMULATED_FEATURES = ("avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512vbmi",
                     "avx512bitalg", "avx512ifma", "gfni", "vaes", "vpclmulqdq", "pclmul")


def emulated_cases():
    """The random cases of a stage that runs in the emulator: 3000, or
    ASMDIFF_CHECK_EMULATED_CASES (a positive integer; anything else is a usage error)."""
    v = os.environ.get("ASMDIFF_CHECK_EMULATED_CASES", "3000")
    if not v.isdigit() or int(v) < 1:
        die(f"ASMDIFF_CHECK_EMULATED_CASES={v!r}: a positive number of cases")
    return str(int(v))


def emulated_mask(needs):
    """ASMDIFF_CPU_MASK that sends a kernel with these needs to the emulator, or "" when it
    needs none of the features an emulated set is for."""
    masked = [n for n in re.split(r"[, ]+", needs or "") if n in EMULATED_FEATURES]
    return ",".join("-" + n for n in masked)


def judge_kernel(judge, tool, fuzzer, family, symbol, exhaustive, budget, env, engines=(),
                 needs="", conv=None, kernel="", declared=False):
    """Every stage of a built outside kernel into the verdict: what it covers (its impl
    record); kat, exhaustive, seeds, random and libFuzzer (natively, or emulated when this CPU
    cannot run it); the family's engines: Unicorn's bounds and ct-trace modes, emu-diff where
    the CPU runs the kernel, Valgrind's constant time; the ISA-subset check when the needs were
    declared (not scanned from the file); and the native set again emulated when the kernel
    needs AVX-512 or GFNI.  False when the kernel could not be put through them (the row says
    why)."""
    v = judge.v
    judge.symbol = symbol
    # what each kernel covers, as the driver made it (its impl record)
    st = stage.run([tool, "list"], env)
    mine = [r for r in results.impls(st.recs).values() if r.get("kind") == "outside"]
    several = len(judge.slots) > 1
    if st.rc or not mine:
        print(st.text)
        v.add("operations", "FAIL", st.reason() if st.rc else
              f"{symbol}: no outside implementation in the list's records")
        return False
    emulated = False
    for sl in judge.slots:
        impl = next((r for r in mine if sl["name"] is None or r.get("name") == sl["name"]), None)
        row = f"operations: {sl['name']}" if several else "operations"
        who = sl["name"] or symbol
        if impl is None:
            v.add(row, "FAIL", f"{sl['name']}: no outside implementation of that name in the "
                               "list's records", kernel=who)
            return False
        if not impl.get("available"):
            v.add(row, "skip", impl.get("reason") or "not available here", kernel=who)
            return False
        for c in results.of_type(st.recs, "convention"):
            if c.get("name") == (conv or impl.get("convention")):
                judge.precondition = c.get("prototype", "")
        covers, missing = impl.get("covers") or [], impl.get("not_covered") or []
        if sl["role"] == "new":
            judge.covers = list(dict.fromkeys(judge.covers + covers))
        sl["covers"] = covers
        emulated |= bool(impl.get("emulated"))
        # the needs the kernel runs with: --needs, or those its convention declares (the impl
        # record has either), so a row's own needs also choose the emulated set below; a
        # convention's are its glue's CPU guard, declared as --needs would be (cpu features)
        if not needs and (impl.get("needs") or "").split():
            declared = True
        needs = ",".join(dict.fromkeys([n for n in re.split(r"[, ]+", needs or "") if n] +
                                       (impl.get("needs") or "").split()))
        role = (f" (the file before the patch, compared with {sl['pair']})"
                if sl["role"] == "old" else "")
        v.add(row, "pass", f"covers {', '.join(covers) or 'nothing'}{role}" +
              (" (identified in the emulator: this CPU cannot run it; every stage below runs "
               "there)" if impl.get("emulated") else ""), kernel=who)
        if missing and sl["role"] == "new" and not several:
            v.add("  not covered", "n/a", f"{', '.join(missing)} (another symbol, or another "
                  "file: check it with its own --symbol; not counted as passed)")
    if several:
        left = [op for op in (mine[0].get("covers") or []) + (mine[0].get("not_covered") or [])
                if op not in judge.covers]
        if left:
            v.add("  not covered", "n/a", f"{', '.join(left)} (no --symbol here computes it; "
                  "not counted as passed)")

    def run(name, cmd, detail=stage.Stage.counts, env=env, checked=True):
        print(f"-- {name}", flush=True)
        return judge.stage(stage.run(cmd, env), name, detail, checked=checked)

    def over_seeds(name, mode):
        """An engine's mode over the seeds; when none of them is in the convention's domain
        (ARIA's 64-block calls), over random cases instead."""
        if run(f"{name} (seeds)", [tool, mode, seeds], checked=False) == "precondition":
            run(f"{name} (random)", [tool, mode, "random", "3000", "1"], checked=False)

    def fuzz_detail(s):
        n = fuzzing.stats(s.text)
        return (f"{n.get('number_of_executed_units', '?')} execs, "
                f"{n.get('average_exec_per_sec', '?')} exec/s")

    def fuzz(name, env):
        if not fuzzer:
            v.not_established(name, "no libFuzzer build here (clang with libFuzzer)")
            return
        print(f"-- {name}", flush=True)
        corpus = os.path.join(os.path.dirname(fuzzer), "corpus")
        # a fuzzer stops at its first finding: when that is one kernel's and others had none,
        # the stage runs again with the kernels that have one set aside (ASMDIFF_SET_ASIDE,
        # driver.c), so each kernel's row is its own fuzzing, never "stopped at another's"
        names = [sl["name"] for sl in judge.slots if sl["name"]]
        aside = []
        while True:
            e, note = set_aside(env, aside)
            st = fuzzing.run_libfuzzer(fuzzer, [corpus, seeds], env=e, family=family,
                                       budget=budget, checked_stack=True,
                                       artifacts=os.path.join(env["ASMDIFF_FINDINGS"], family))
            left = [n for n in names if n not in aside]
            hit = [n for n in left if any(f.get("implementation") == n for f in st.findings)]
            if hit and len(hit) < len(left) and st.rc not in (0, 77):
                judge.stage(st, name, fuzz_detail, libfuzzer=True, only=hit, note=note)
                aside += hit
                print(f"-- {name}, again without {', '.join(aside)}", flush=True)
                continue
            judge.stage(st, name, fuzz_detail, libfuzzer=True,
                        only=left if aside else None, note=note)
            break

    seeds = os.path.join(TOP, "corpus", family, "seeds")

    def native_set(suffix, env, randoms):
        run("kat" + suffix, [tool, "kat", TOP], env=env)
        if exhaustive:
            run("exhaustive" + suffix, [tool, "exhaustive"], env=env)
        run("replay (seeds)" + suffix, [tool, "replay", seeds], env=env)
        run("random" + suffix, [tool, "random", randoms, "1"], env=env)
        fuzz(f"fuzz {budget}s" + suffix, env)

    # random cases run in the emulator (a kernel this CPU cannot run, the emulated set, the
    # ct-trace): 3000, or ASMDIFF_CHECK_EMULATED_CASES (the slow suites' CI scale, set in
    # verify/outside/meson.build: emulated calls cost 30 to 100 times native ones)
    emu_cases = emulated_cases()
    native_set("", env, emu_cases if emulated else "3000")  # (emulated: said above)
    engines = [e for e in engines if e]
    if "unicorn" in engines and kernel.endswith(".c"):
        # compiled C calls libc (memcpy, memset) through the PLT, and the Unicorn modes map the
        # kernel's code, data and buffers only: they would stop at the first such call (the
        # caller names a C kernel here only when its object leaves symbols undefined: a C file
        # that calls nothing outside itself, libgcrypt's cipher-gcm-intel-pclmul.c, runs them)
        for name in ("unicorn bounds", "unicorn ct-trace", "emu-diff"):
            v.add(name, "n/a", "a kernel written in C calls libc through the PLT, which the "
                               "Unicorn modes do not map (the native guard pages check its "
                               "buffers)")
    elif "unicorn" in engines:
        # Unicorn maps each buffer alone: byte-exact bounds over the seeds; the trace of
        # random cases against the same cases with other secrets
        over_seeds("unicorn bounds", "bounds")
        # 3000 cases (seconds): a narrow convention (ARIA's 64-block CTR) meets few of them
        run("unicorn ct-trace", [tool, "ct-trace", "random", emu_cases, "1"], checked=False)
        # each kernel emulated with exactly the features it declares (backend_isa.c): an
        # instruction its CPU guard does not admit faults on a CPU the guard lets in
        if declared:
            over_seeds("cpu features", "isa")
        else:
            v.add("cpu features", "n/a", "no --needs given: nothing declared to hold the kernel "
                  "to (give --needs as its CPU guard says, e.g. --needs avx,aesni)")
        if not emulated:
            over_seeds("emu-diff", "emu-diff")
        else:
            v.add("emu-diff", "n/a", "the CPU cannot run the kernel: nothing to compare the "
                                     "emulator with")
    mask = emulated_mask(needs)
    if mask and not emulated:
        # the whole set again as on a CPU without these features: in the emulator
        menv = dict(env, ASMDIFF_CPU_MASK=",".join(filter(None, [env.get("ASMDIFF_CPU_MASK"),
                                                                 mask])))
        native_set(f" (emulated, {mask})", menv, emu_cases)
    if "valgrind" in engines and emulated:
        # Valgrind runs what this CPU runs: a kernel that needs what it lacks would fault there
        # before any case (its ct-trace row above judges constant time in the emulator)
        v.add("valgrind ct", "n/a", "this CPU cannot run the kernel, and Valgrind runs only "
                                    "what the CPU runs (the unicorn ct-trace row judges "
                                    "constant time in the emulator)")
    elif "valgrind" in engines:
        valgrind_ct(judge, tool, env)
    return True


def valgrind_ct(judge, tool, env):
    """Valgrind memcheck's constant time: the family's secret buffers undefined during each
    call (the tool's ct mode); a branch or an address that depends on them is memcheck's
    error.  Only memcheck's own exit status with an uninitialised-value report is a finding."""
    name = "valgrind ct"
    if not shutil.which("valgrind"):
        judge.v.not_established(name, f"0 calls of {judge.symbol}: valgrind not installed "
                                      "(Debian package valgrind; tools/bootstrap installs it)")
        return
    cmd = ["valgrind", "-q", f"--error-exitcode={MEMCHECK_ERROR}", "--track-origins=yes",
           tool, "ct", VALGRIND_CT_CASES]
    print(f"-- {name}", flush=True)
    # several kernels: memcheck stops the process at the first error's exit, so the kernel the
    # error's stack names gets the finding, and the stage runs again with it set aside
    # (ASMDIFF_SET_ASIDE) until every kernel has a finding or a clean run of its own
    names = [sl["name"] for sl in judge.slots if sl["name"]]
    several = len(judge.new_slots()) > 1
    aside = []
    old_error = None
    while True:
        e, note = set_aside(env, aside)
        st = stage.run(cmd, e)
        left = [n for n in names if n not in aside]
        if st.rc == MEMCHECK_ERROR and "uninitialised value" in st.text:
            lines = [l.split("== ", 1)[-1] for l in st.text.splitlines() if l.startswith("==")]
            first = next((l for l in lines if "uninitialised value" in l or
                          "Conditional jump" in l), lines[0] if lines else "")
            at = next((l.strip() for l in lines if l.strip().startswith("at ")), "")
            # the kernel the report's stack names (its first frame that is one of them; in the
            # check build each entry point is renamed asmdiff_slot<i>_<name> in its own object:
            # verify/outside/rename_syms.py)
            who = next((n for l in lines if l.strip().startswith(("at ", "by "))
                        for n in left
                        if re.search(rf"(?<!\w)(?:asmdiff_slot\d+_)?{re.escape(n)}\b", l)), None)
            who = who or (left[0] if len(left) == 1 else judge.symbol)
            f = {"check": "valgrind-ct", "heading": "SECRET-DEPENDENT (memcheck)",
                 "family": st.start.get("family", "?"), "implementation": who,
                 "title": f"{who}: {first.strip()} {at}".strip(),
                 "reproduce": " ".join(([shlex.quote(f"ASMDIFF_SET_ASIDE={';'.join(aside)}")]
                                        if aside else []) + cmd)}
            print("\n".join(lines[:12]), flush=True)
            judge.findings.append(f)
            row = f"{name}: {who}" if several and who in names else name
            judge.v.add_finding(row, f, kernel=who if who in names or not several else None)
            if several and who in left and len(left) > 1:
                aside.append(who)
                print(f"-- {name}, again without {', '.join(aside)}", flush=True)
                continue
            return
        if st.rc == MEMCHECK_ERROR:
            # an invalid read or write (the rows above name it), not a secret-dependent one
            errs = [l.split("== ", 1)[-1].strip() for l in st.text.splitlines()
                    if l.startswith("==") and "== " in l]
            # with a --baseline, the old file's own bug (a read past a buffer) is information,
            # as its other findings are (baseline.py): memcheck's stack does not say whose code
            # it is (the two files' names and lines alike), so the stage runs again without the
            # old file; an error then is the new file's
            olds = [sl["name"] for sl in judge.slots if sl["role"] == "old" and sl["name"]
                    not in aside]
            if olds and len(left) > len(olds) and errs:
                old_error = (errs[0], ", ".join(olds))
                aside += olds
                print(f"-- {name}, again without {', '.join(aside)}", flush=True)
                continue
            judge.v.add(name, "FAIL", "memcheck error that is not about secrets: " +
                        (errs[0] if errs else st.reason()))
            return
        if old_error:
            judge.v.add(f"{name}: {old_error[1]}", "info", "the old file (--baseline) has a "
                        f"memcheck error that is not about secrets: {old_error[0]} (none "
                        "without it)", kernel=old_error[1])
        # Valgrind's virtual CPU has no AVX-512 (and tells the program so through CPUID): a
        # kernel that needs it is unavailable there, which is not a convention's precondition
        ims = results.impls(st.recs)
        mine = left or [judge.symbol]
        off = [ims[n] for n in mine if n in ims and ims[n].get("available") is False]
        if off and len(off) == len(mine) and st.rc in (0, 77):
            judge.v.add(name, "n/a", "Valgrind's virtual CPU cannot run it (" +
                        "; ".join(f"{r['name']}: {r.get('reason') or 'not available'}"
                                  for r in off) +
                        "): the unicorn ct-trace row judges constant time in the emulator")
            return
        judge.stage(st, name, stage.Stage.counts, checked=False,
                    only=left if aside else None, note=note)
        return
