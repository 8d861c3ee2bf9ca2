#!/usr/bin/env python3
"""check_workflows.py SRCDIR — the CI files parse and name only what exists.

Property: every .github/workflows/*.yml is valid YAML with triggers and jobs whose steps each
`run` or `use` something; every repository path a `run` line or a `paths` filter names exists;
every `./asmdiff COMMAND --flag` is a command and flag ./asmdiff accepts; local actions and
uploaded files exist or are made by an earlier step; oss-fuzz/ and .clusterfuzzlite/ hold a
project.yaml that parses (language c, x86_64) and Dockerfiles whose COPY sources exist in
their build context (oss-fuzz/: its own folder, cloning main_repo; .clusterfuzzlite/: the
repository root).  What google/oss-fuzz and google/clusterfuzzlite define (docs/oss-fuzz.md):
every ClusterFuzzLite build_fuzzers/run_fuzzers step says `language: c` (their default is c++);
a code-change run also fuzzes the families whose kernels changed (changed_families.py,
fuzz_changed.sh; coverage never sees a .S) with build_fuzzers told to keep their fuzzers; its
pull-request path filter holds the meson files; builder_env.sh's undefined CFLAGS are OSS-Fuzz's
(no float-divide-by-zero, a final -fno-sanitize=function); changed_families.py's self-test.
Before checking the real files it checks planted broken ones (an unknown command, a missing
script, a missing path filter, each rule above): each must be reported, or the checker fails.
Exit 0 pass, 1 fail, 77 when PyYAML is missing (Debian: python3-yaml).
"""
import glob
import os
import re
import sys

try:
    import yaml
except ImportError:
    print("SKIP: PyYAML is not installed (Debian: python3-yaml)")
    sys.exit(77)

REPO_DIRS = ("tools", "verify", "oss-fuzz", "corpus", "fuzz", "kernels", "reference", "docs",
             "cross", ".clusterfuzzlite", ".github")


def asmdiff_cli(root):
    """The commands ./asmdiff accepts (its case line) and the flags its usage text names."""
    text = open(os.path.join(root, "asmdiff")).read()
    m = re.search(r"^\s*([a-z|]+)\) ;;$", text, re.M)
    cmds = set(m.group(1).split("|")) if m else set()
    flags = set(re.findall(r"(--[a-z][a-z-]*)", text))
    return cmds, flags


def check_run(root, where, script, cmds, flags, errors, made):
    for line in script.splitlines():
        for m in re.finditer(r"\./asmdiff\s+(\S+)((?:\s+[^|;&]*)?)", line):
            cmd, rest = m.group(1), m.group(2)
            if cmd not in cmds:
                errors.append(f"{where}: ./asmdiff has no command '{cmd}'")
            for fl in re.findall(r"(?<!\S)(--[a-z][a-z-]*)", rest):
                if fl not in flags:
                    errors.append(f"{where}: ./asmdiff has no option '{fl}'")
        for m in re.finditer(r"(?<![\w$/.-])(\./[\w.-][\w./-]*|(?:%s)/[\w./-]*)" %
                             "|".join(re.escape(d) for d in REPO_DIRS), line):
            p = m.group(1).rstrip("/.")
            if not os.path.exists(os.path.join(root, p)):
                errors.append(f"{where}: '{p}' does not exist in the repository")
        for m in re.finditer(r"--(?:junit|markdown)[ =](\S+)", line):
            made.add(m.group(1).strip("\"'"))
        for m in re.finditer(r"verify/ossfuzz/fuzz_changed\.sh\s+(\S+)", line):
            made.add(m.group(1).rstrip("/") + "/changed-artifacts")
        # premerge runs ./asmdiff coverage for every family: its listings and pages
        if re.search(r"\./asmdiff\s+(premerge|coverage)\b", line):
            made.add("findings/coverage/")


_FILES = {}


def repo_files(root):
    """The repository's files (git's list; else a walk that skips build folders), once."""
    if root not in _FILES:
        import subprocess
        r = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard"],
                           capture_output=True, text=True)
        if r.returncode == 0 and r.stdout:
            files = r.stdout.splitlines()
        else:
            files = []
            for d, subdirs, names in os.walk(root):
                subdirs[:] = [x for x in subdirs if x != ".git" and not x.startswith("build")]
                files += [os.path.relpath(os.path.join(d, n), root) for n in names]
        _FILES[root] = files
    return _FILES[root]


def rx_path(pattern):
    """A GitHub path filter as a regular expression: ** any path, * within one name."""
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return re.compile(out)


def check_cflite_job(name, jname, steps, errors):
    """ClusterFuzzLite's actions as google/clusterfuzzlite's actions/*/action.yml define them:
    `language` defaults to c++ in both, so each step says c; a code-change run must also fuzz
    the families whose kernels changed (coverage, which picks its fuzzers, never sees a .S)."""
    runs = " ".join(str(st.get("run", "")) for st in steps)
    code_change = False
    build = None
    for i, st in enumerate(steps):
        uses = str(st.get("uses", ""))
        w = st.get("with") or {}
        for action in ("build_fuzzers", "run_fuzzers"):
            if f"clusterfuzzlite/actions/{action}@" in uses and w.get("language") != "c":
                errors.append(f"{name}: job {jname} step {i + 1}: {action} without 'language: c' "
                              f"(the action's default is c++)")
        if "clusterfuzzlite/actions/build_fuzzers@" in uses:
            build = w
        if "clusterfuzzlite/actions/run_fuzzers@" in uses and w.get("mode", "code-change") == "code-change":
            code_change = True
    if code_change:
        if "verify/ossfuzz/changed_families.py" not in runs or "verify/ossfuzz/fuzz_changed.sh" not in runs:
            errors.append(f"{name}: job {jname}: code-change mode without fuzzing the families whose "
                          f"kernels changed (changed_families.py, fuzz_changed.sh)")
        if build is not None and "keep-unaffected-fuzz-targets" not in build:
            errors.append(f"{name}: job {jname}: build_fuzzers may drop a changed kernel's fuzzer "
                          f"(set keep-unaffected-fuzz-targets when kernels changed)")


def check_workflow(root, name, text, cmds, flags, errors):
    try:
        wf = yaml.safe_load(text)
    except yaml.YAMLError as e:
        errors.append(f"{name}: not valid YAML: {e}")
        return
    if not isinstance(wf, dict):
        errors.append(f"{name}: not a mapping")
        return
    on = wf.get("on", wf.get(True))  # YAML 1.1 reads a bare `on` as true
    if not on:
        errors.append(f"{name}: no triggers ('on')")
    if isinstance(on, dict):
        for trig, spec in on.items():
            for p in (spec or {}).get("paths", []) if isinstance(spec, dict) else []:
                base = p.split("*")[0].rstrip("/")
                if any(rx_path(p).fullmatch(f) for f in repo_files(root)):
                    continue
                if base and not os.path.exists(os.path.join(root, base)):
                    errors.append(f"{name}: {trig} path filter '{p}': '{base}' does not exist")
                else:
                    errors.append(f"{name}: {trig} path filter '{p}': matches no file")
        # a pull request that changes only the build still changes what is fuzzed
        pr = on.get("pull_request")
        paths = pr.get("paths", []) if isinstance(pr, dict) else []
        if paths and "code-change" in text:
            for need in ("meson.build", "meson.options", "**/meson.build"):
                if need not in paths:
                    errors.append(f"{name}: pull_request path filter lacks '{need}' (a build change must be fuzzed)")
    jobs = wf.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        errors.append(f"{name}: no jobs")
        return
    for jname, job in jobs.items():
        if "runs-on" not in job:
            errors.append(f"{name}: job {jname} has no runs-on")
        made = set()
        for i, step in enumerate(job.get("steps") or []):
            where = f"{name}: job {jname} step {i + 1}"
            if "run" in step:
                check_run(root, where, str(step["run"]), cmds, flags, errors, made)
            elif "uses" in step:
                uses = step["uses"]
                if uses.startswith("./") and not os.path.exists(os.path.join(root, uses)):
                    errors.append(f"{where}: local action '{uses}' does not exist")
                elif not uses.startswith("./") and not re.fullmatch(r"[\w.-]+/[\w./-]+@[\w.-]+", uses):
                    errors.append(f"{where}: '{uses}' is not owner/repo[/path]@ref")
                path = (step.get("with") or {}).get("path")
                if "upload-artifact" in uses and path and path not in made and \
                        not os.path.exists(os.path.join(root, path)):
                    errors.append(f"{where}: uploads '{path}', which no earlier step makes")
            else:
                errors.append(f"{where}: neither run nor uses")
        if not job.get("steps"):
            errors.append(f"{name}: job {jname} has no steps")
        check_cflite_job(name, jname, job.get("steps") or [], errors)


def check_dockerfile(root, name, text, errors, main_repo=None):
    """COPY sources exist in the image's build context: for oss-fuzz/Dockerfile its own folder
    (it is google/oss-fuzz's projects/asmdiff, built with that folder as the context, so the
    project is cloned from main_repo), for .clusterfuzzlite/Dockerfile the repository root."""
    ossfuzz = name.startswith("oss-fuzz/")
    context = os.path.join(root, "oss-fuzz") if ossfuzz else root
    for m in re.finditer(r"^COPY\s+(.*)\s+\S+\s*$", text, re.M):
        for src in m.group(1).split():
            if src == "." and ossfuzz:
                errors.append(f"{name}: COPY . in a context that is only oss-fuzz/ (clone the project)")
            elif src != "." and not os.path.exists(os.path.join(context, src)):
                errors.append(f"{name}: COPY source '{src}' does not exist in its build context "
                              f"({'oss-fuzz/' if ossfuzz else 'the repository root'})")
    if ossfuzz:
        m = re.search(r'^ARG\s+main_repo="?([^"\s]*)"?\s*$', text, re.M)
        if not m or "git clone" not in text:
            errors.append(f"{name}: does not clone the project (ARG main_repo and git clone)")
        elif main_repo is not None and m.group(1) != (main_repo or ""):
            errors.append(f"{name}: clones '{m.group(1)}', project.yaml's main_repo is '{main_repo}'")


def check_builder_env(root, errors):
    """builder_env.sh's undefined build as OSS-Fuzz's `compile` makes it."""
    import subprocess
    cmd = f'. "{root}/verify/ossfuzz/builder_env.sh" && ossfuzz_builder_env undefined libfuzzer && ' \
          'printf "%s\\n%s\\n" "$CFLAGS" "$CXXFLAGS"'
    r = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True)
    lines = r.stdout.splitlines()
    if r.returncode != 0 or len(lines) != 2:
        errors.append(f"builder_env.sh undefined: failed ({r.stderr.strip()})")
        return
    check_undefined_cflags("builder_env.sh undefined", lines[0], errors)


def check_undefined_cflags(name, cflags, errors):
    if not cflags.endswith("-fno-sanitize=function"):
        errors.append(f"{name}: CFLAGS lack a final -fno-sanitize=function (OSS-Fuzz's compile adds it)")
    if "float-divide-by-zero" in cflags:
        errors.append(f"{name}: float-divide-by-zero is not in SANITIZER_FLAGS_undefined")


def check_project(root, errors):
    for d in ("oss-fuzz", ".clusterfuzzlite"):
        py = os.path.join(root, d, "project.yaml")
        try:
            proj = yaml.safe_load(open(py))
        except (OSError, yaml.YAMLError) as e:
            errors.append(f"{d}/project.yaml: {e}")
            continue
        if proj.get("language") != "c":
            errors.append(f"{d}/project.yaml: language is not c")
        if "architectures" in proj and proj["architectures"] != ["x86_64"]:
            errors.append(f"{d}/project.yaml: architectures other than x86_64 are not proven")
        df = os.path.join(root, d, "Dockerfile")
        if not os.path.exists(df):
            errors.append(f"{d}/Dockerfile is missing")
            continue
        check_dockerfile(root, f"{d}/Dockerfile", open(df).read(), errors,
                         main_repo=proj.get("main_repo") if d == "oss-fuzz" else None)
    if not os.access(os.path.join(root, "oss-fuzz", "build.sh"), os.X_OK):
        errors.append("oss-fuzz/build.sh is missing or not executable")
    check_builder_env(root, errors)
    import subprocess
    r = subprocess.run([sys.executable, os.path.join(root, "verify", "ossfuzz", "changed_families.py"),
                        root, "--self-test"], capture_output=True, text=True)
    if r.returncode != 0:
        errors.append("changed_families.py --self-test failed: " + r.stdout.strip().replace("\n", "; "))


def check(root, planted=None):
    cmds, flags = asmdiff_cli(root)
    if not cmds:
        return ["cannot read ./asmdiff's command list"]
    errors = []
    files = sorted(glob.glob(os.path.join(root, ".github", "workflows", "*.yml")))
    if not files and planted is None:
        errors.append("no .github/workflows/*.yml")
    for f in files:
        check_workflow(root, os.path.relpath(f, root), open(f).read(), cmds, flags, errors)
    for name, text in (planted or []):
        check_workflow(root, name, text, cmds, flags, errors)
    if planted is None:
        check_project(root, errors)
    return errors


PLANTED = [
    ("planted-unknown-command.yml",
     "on: [push]\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: ./asmdiff premerge-all\n",
     "has no command 'premerge-all'"),
    ("planted-unknown-flag.yml",
     "on: [push]\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: ./asmdiff premerge --html x\n",
     "has no option '--html'"),
    ("planted-missing-script.yml",
     "on: [push]\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: verify/ossfuzz/no_such_test.sh\n",
     "'verify/ossfuzz/no_such_test.sh' does not exist"),
    ("planted-missing-path.yml",
     "on:\n  pull_request:\n    paths: ['kernel/**']\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: true\n",
     "'kernel' does not exist"),
    ("planted-bad-yaml.yml", "on: [push\njobs: {}\n", "not valid YAML"),
    ("planted-upload-nothing.yml",
     "on: [push]\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: actions/upload-artifact@v4\n"
     "        with:\n          path: report.xml\n", "uploads 'report.xml'"),
]


CFL_PR_STEPS = (
    "    steps:\n"
    "      - uses: google/clusterfuzzlite/actions/build_fuzzers@v1\n        with:\n          language: c\n"
    "      - uses: google/clusterfuzzlite/actions/run_fuzzers@v1\n        with:\n"
    "          language: c\n          mode: code-change\n")
PLANTED += [
    ("planted-run-fuzzers-cxx.yml",
     "on: [push]\njobs:\n  a:\n    runs-on: x\n    steps:\n"
     "      - uses: google/clusterfuzzlite/actions/run_fuzzers@v1\n        with:\n          mode: batch\n",
     "without 'language: c'"),
    ("planted-code-change-no-kernels.yml",
     "on: [pull_request]\njobs:\n  a:\n    runs-on: x\n" + CFL_PR_STEPS,
     "code-change mode without fuzzing the families"),
    ("planted-build-drops-kernels.yml",
     "on: [pull_request]\njobs:\n  a:\n    runs-on: x\n" + CFL_PR_STEPS +
     "      - run: git diff | verify/ossfuzz/changed_families.py . && verify/ossfuzz/fuzz_changed.sh o 1 aria\n",
     "may drop a changed kernel's fuzzer"),
    ("planted-pr-no-meson.yml",
     "on:\n  pull_request:\n    paths: ['kernels/**', 'meson.options', '**/meson.build']\n"
     "jobs:\n  a:\n    runs-on: x\n" + CFL_PR_STEPS,
     "lacks 'meson.build'"),
]
# (name, Dockerfile text, what must be reported)
PLANTED_DOCKER = [
    ("oss-fuzz/Dockerfile", "FROM x\nARG main_repo=\"\"\nRUN git clone \"$main_repo\" a\n"
     "COPY oss-fuzz/build.sh $SRC/\n", "COPY source 'oss-fuzz/build.sh' does not exist"),
    ("oss-fuzz/Dockerfile", "FROM x\nCOPY . $SRC/asmdiff\nCOPY build.sh $SRC/\n", "COPY . in a context"),
    (".clusterfuzzlite/Dockerfile", "FROM x\nCOPY build.sh $SRC/\n", "COPY source 'build.sh' does not exist"),
]
# (CFLAGS of an undefined build, what must be reported)
PLANTED_UBSAN = [
    ("-O1 -fsanitize=float-divide-by-zero,function -fno-sanitize=function", "float-divide-by-zero"),
    ("-O1 -fsanitize=function,null", "lack a final -fno-sanitize=function"),
]


def controls(root):
    """Each planted error must be reported; returns how many were missed."""
    missed = 0
    for name, text, want in PLANTED:
        errs = [e for e in check(root, [(name, text)]) if e.startswith(name)]
        if not any(want in e for e in errs):
            print(f"FAIL: the checker missed a planted error in {name} (wanted: {want}; got: {errs})")
            missed += 1
    for name, text, want in PLANTED_DOCKER:
        errs = []
        check_dockerfile(root, name, text, errs, main_repo="")
        if not any(want in e for e in errs):
            print(f"FAIL: the checker missed a planted error in {name} (wanted: {want}; got: {errs})")
            missed += 1
    for cflags, want in PLANTED_UBSAN:
        errs = []
        check_undefined_cflags("planted", cflags, errs)
        if not any(want in e for e in errs):
            print(f"FAIL: the checker missed planted undefined CFLAGS '{cflags}' (wanted: {want})")
            missed += 1
    return missed


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    n = len(PLANTED) + len(PLANTED_DOCKER) + len(PLANTED_UBSAN)
    missed = controls(root)
    ok = missed == 0
    print(f"checker controls: {n} planted errors, "
          f"{'all reported' if ok else f'{missed} NOT reported'}")
    errors = check(root)
    for e in errors:
        print(f"FAIL: {e}")
    files = sorted(glob.glob(os.path.join(root, ".github", "workflows", "*.yml")))
    print(f"workflows: {' '.join(os.path.basename(f) for f in files)}: "
          f"{'clean' if not errors else f'{len(errors)} problem(s)'}")
    return 0 if ok and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
