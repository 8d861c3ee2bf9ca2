#!/usr/bin/env python3
"""check_workflows.py SRCDIR — the CI files parse and name only what exists.

Property: every .github/workflows/*.yml is valid YAML with triggers and jobs whose steps each
`run` or `use` something; every repository path a `run` line or a `paths` filter names exists;
every `./asmdiff COMMAND --flag` is a command and flag ./asmdiff accepts; local actions and
uploaded files exist or are made by an earlier step; oss-fuzz/ and .clusterfuzzlite/ hold a
project.yaml that parses (language c, x86_64) and Dockerfiles whose COPY sources exist.
Before checking the real files it checks planted broken ones (an unknown command, a missing
script, a missing path filter): each must be reported, or the checker itself fails.
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
                if base and not os.path.exists(os.path.join(root, base)):
                    errors.append(f"{name}: {trig} path filter '{p}': '{base}' does not exist")
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
        for m in re.finditer(r"^COPY\s+(.*)\s+\S+\s*$", open(df).read(), re.M):
            for src in m.group(1).split():
                if src != "." and not os.path.exists(os.path.join(root, src)):
                    errors.append(f"{d}/Dockerfile: COPY source '{src}' does not exist")
    if not os.access(os.path.join(root, "oss-fuzz", "build.sh"), os.X_OK):
        errors.append("oss-fuzz/build.sh is missing or not executable")


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


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    ok = True
    for name, text, want in PLANTED:
        errs = [e for e in check(root, [(name, text)]) if e.startswith(name)]
        if not any(want in e for e in errs):
            print(f"FAIL: the checker missed a planted error in {name} (wanted: {want}; got: {errs})")
            ok = False
    print(f"checker controls: {len(PLANTED)} planted errors, "
          f"{'all reported' if ok else 'NOT all reported'}")
    errors = check(root)
    for e in errors:
        print(f"FAIL: {e}")
    files = sorted(glob.glob(os.path.join(root, ".github", "workflows", "*.yml")))
    print(f"workflows: {' '.join(os.path.basename(f) for f in files)}: "
          f"{'clean' if not errors else f'{len(errors)} problem(s)'}")
    return 0 if ok and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
