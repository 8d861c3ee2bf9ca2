#!/usr/bin/env python3
"""ci_workflow_test.py — the outside repository's workflow template (docs/ci/asmdiff-check.yml)
works as written: its `run:` steps, run in order by bash as GitHub's runner runs them
(`bash --noprofile --norc -eo pipefail`, the job's `env`, GITHUB_ENV carried between steps, a
step without `if: always()` skipped after a failure), on a fixture tree, with no network.

    ci_workflow_test.py WORKFLOW

The fixture tree is a git repository of two commits, as a pull request makes them: Linux-style
NH (verify/outside/fixtures/nh-sse2-linux.S beside arch/x86/crypto/nh-sse2-x86_64.S, which
includes it), then the same file with the wrong shuffle planted.  The job's `env` is the
template's, with BASE_SHA the first commit (the runner's ${{ }} expression), ASMDIFF_DIR this
checkout (so `Set up asmdiff` clones nothing), ASMDIFF_BUDGET 3 and ASMDIFF_OPTIONS --fail-fast
(the test is of the workflow, not of the check's stages).  Asserted:

- the check step fails (exit 1: the planted finding) and the `if: always()` steps still run;
- each file the `uses:` steps upload (sarif_file, path) exists; the SARIF has the finding at
  arch/x86/crypto/nh-sse2-linux.S (relative to the tree's root, %SRCROOT% the tree) at the
  entry point's line; the JSON's verdict is `findings`, its `new vs old` rows there (the base
  commit's file as --baseline); the JUnit has failing cases; the job summary has the table;
- control: the check step with BASE_SHA the head commit (the file unchanged) runs no check and
  exits 0.
Each `run:` must be a `|` block without a ${{ }} expression (what a shell cannot run as
written); with PyYAML installed, the steps found here are compared with its reading.
Exit 0 when all hold, 1 otherwise.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(TOP, "verify", "outside", "fixtures")
KERNEL = "arch/x86/crypto/nh-sse2-x86_64.S"
failures = []


def expect(ok, what):
    if not ok:
        failures.append(what)
        print(f"FAIL: {what}", flush=True)
    return ok


def scalar(text):
    text = re.sub(r"\s+#.*$", "", text).strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def parse(path):
    """(job env {name: value}, steps [{name, run, uses, if, with}]) of the template's one job:
    the subset of YAML it is written in (block mappings, `- ` step items, `|` blocks)."""
    lines = open(path).read().splitlines()
    env, steps = {}, []
    i, n = 0, len(lines)
    while i < n:
        m = re.match(r"^(\s*)env:\s*$", lines[i])
        if m and not steps:
            ind = len(m.group(1))
            i += 1
            while i < n and (not lines[i].strip() or
                             len(lines[i]) - len(lines[i].lstrip()) > ind):
                kv = re.match(r"^\s*([A-Za-z_][A-Za-z0-9_]*):\s*(.*)$", lines[i])
                if kv:
                    env[kv.group(1)] = scalar(kv.group(2))
                i += 1
            continue
        m = re.match(r"^(\s*)- (\w[\w-]*):\s*(.*)$", lines[i])
        if m and any(re.match(r"^\s*steps:\s*$", ln) for ln in lines[:i]):
            ind = len(m.group(1)) + 2
            step, key = {}, None
            first = lines[i][:len(m.group(1))] + "  " + lines[i][len(m.group(1)) + 2:]
            block = [first]
            i += 1
            while i < n and (not lines[i].strip() or
                             len(lines[i]) - len(lines[i].lstrip()) >= ind):
                block.append(lines[i])
                i += 1
            j = 0
            while j < len(block):
                kv = re.match(rf"^\s{{{ind}}}([\w-]+):\s*(.*)$", block[j])
                if not kv:
                    j += 1
                    continue
                key, val = kv.group(1), kv.group(2)
                j += 1
                if val.strip() == "|":
                    body = []
                    while j < len(block) and (not block[j].strip() or
                                              len(block[j]) - len(block[j].lstrip()) > ind):
                        body.append(block[j])
                        j += 1
                    cut = min((len(b) - len(b.lstrip()) for b in body if b.strip()), default=0)
                    step[key] = "\n".join(b[cut:] for b in body).rstrip("\n") + "\n"
                elif val.strip() == "":
                    sub = {}
                    while j < len(block) and (not block[j].strip() or
                                              len(block[j]) - len(block[j].lstrip()) > ind):
                        s = re.match(r"^\s*([\w-]+):\s*(.*)$", block[j])
                        if s and s.group(2).strip() == "|":
                            k2, body = s.group(1), []
                            j += 1
                            while j < len(block) and (len(block[j]) - len(block[j].lstrip()) >
                                                      ind + 2 or not block[j].strip()):
                                body.append(block[j].strip())
                                j += 1
                            sub[k2] = "\n".join(b for b in body if b) + "\n"
                            continue
                        if s:
                            sub[s.group(1)] = scalar(s.group(2))
                        j += 1
                    step[key] = sub
                else:
                    step[key] = scalar(val)
            steps.append(step)
            continue
        i += 1
    return env, steps


def git(tree, *args):
    return subprocess.run(["git", "-C", tree] + list(args), capture_output=True, text=True,
                          check=True, env=dict(os.environ, GIT_AUTHOR_NAME="t",
                                               GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
                                               GIT_COMMITTER_EMAIL="t@t")).stdout.strip()


def fixture(tree):
    """The two commits; (base, head)."""
    os.makedirs(os.path.join(tree, os.path.dirname(KERNEL)))
    git(tree, "init", "-q")
    shutil.copyfile(os.path.join(FIX, "nh-sse2-linux.S"),
                    os.path.join(tree, os.path.dirname(KERNEL), "nh-sse2-linux.S"))
    with open(os.path.join(tree, KERNEL), "w") as f:
        f.write('/* Linux-style NH, as the tree had it */\n#include "nh-sse2-linux.S"\n')
    git(tree, "add", "-A")
    git(tree, "commit", "-qm", "nh: as it was")
    base = git(tree, "rev-parse", "HEAD")
    shutil.copyfile(os.path.join(FIX, "nh-sse2-linux-wrong-shuffle.S"), os.path.join(tree, KERNEL))
    git(tree, "commit", "-qam", "nh: the patch (a wrong shuffle planted)")
    return base, git(tree, "rev-parse", "HEAD")


def run_steps(steps, env, tmp, only=None):
    """Run the `run:` steps in order (or the one named only); {step name: exit}."""
    exits, failed = {}, False
    for k, st in enumerate(steps):
        name = st.get("name") or st.get("uses") or f"step {k}"
        if only and name != only:
            continue
        if "run" not in st:
            continue
        if failed and "always()" not in st.get("if", ""):
            exits[name] = "skipped"
            continue
        script = os.path.join(tmp, f"step{k}.sh")
        with open(script, "w") as f:
            f.write(st["run"])
        open(env["GITHUB_ENV"], "w").close()
        p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script],
                           cwd=env["GITHUB_WORKSPACE"], env=env, capture_output=True, text=True)
        print(f"-- step '{name}': exit {p.returncode}", flush=True)
        print("\n".join((p.stdout + p.stderr).splitlines()[-12:]), flush=True)
        exits[name] = p.returncode
        failed |= p.returncode != 0
        for line in open(env["GITHUB_ENV"]).read().splitlines():
            key, sep, value = line.partition("=")
            if sep:
                env[key] = value
    return exits


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    wf = argv[0]
    env0, steps = parse(wf)
    runs = [s for s in steps if "run" in s]
    expect(len(runs) >= 3 and all("${{" not in s["run"] for s in runs),
           f"{wf}: {len(runs)} run steps, or a ${{{{ }}}} expression in one")
    try:
        import yaml
    except ImportError:
        yaml = None
    if yaml:
        doc = yaml.safe_load(open(wf))
        job = next(iter(doc["jobs"].values()))
        theirs = [s.get("run") for s in job["steps"]]
        expect(theirs == [s.get("run") for s in steps] and
               {k: str(v) for k, v in job.get("env", {}).items()} == env0,
               "the steps or env read here differ from PyYAML's reading")
        print(f"PyYAML reads the same {len(theirs)} steps", flush=True)
    check_step = next((s.get("name") for s in runs if "--sarif" in s["run"]), None)
    expect(check_step, "no run step writes --sarif")

    with tempfile.TemporaryDirectory(prefix="asmdiff-ci-workflow.") as tmp:
        tree = os.path.join(tmp, "tree")
        base, head = fixture(tree)
        env = dict(os.environ, **env0)
        # (--fail-fast through the template's own ASMDIFF_OPTIONS: the check stops at its first
        # stage with a finding, new-vs-old rows kept; the workflow's steps are what is tested)
        env.update(BASE_SHA=base, ASMDIFF_DIR=TOP, ASMDIFF_BUDGET="3", ASMDIFF_OPTIONS="--fail-fast",
                   ASMDIFF_GIT="file:///nonexistent/no-network", GITHUB_WORKSPACE=tree,
                   GITHUB_ENV=os.path.join(tmp, "github_env"), RUNNER_TEMP=tmp,
                   GITHUB_STEP_SUMMARY=os.path.join(tmp, "summary.md"), CI="true")
        env.pop("ASMDIFF_CHECK_JSON", None)
        env.pop("ASMDIFF_RESULTS", None)
        exits = run_steps(steps, env, tmp)
        expect(exits.get(check_step) == 1,
               f"step '{check_step}' exits {exits.get(check_step)}, not 1 (the planted finding)")
        expect(all(e == 0 for n, e in exits.items() if n != check_step),
               f"the other run steps: {exits} (the `if: always()` ones must run and pass)")
        # what the uses: steps upload
        up = []
        for s in steps:
            w = s.get("with") or {}
            up += [w["sarif_file"]] if "sarif_file" in w else []
            up += [p for p in w.get("path", "").split("\n") if p.strip()]
        for p in up:
            expect(os.path.isfile(os.path.join(tree, p)), f"the upload's {p} was not written")
        sarif_path = next((os.path.join(tree, p) for p in up if p.endswith(".sarif")), "")
        with open(os.path.join(tree, os.path.dirname(KERNEL), "nh-sse2-linux.S")) as f:
            line = next(n for n, ln in enumerate(f, 1) if "SYM_TYPED_FUNC_START(nh_sse2)" in ln)
        try:
            run = json.load(open(sarif_path))["runs"][0]
        except (OSError, ValueError, KeyError, IndexError) as e:
            run = {}
            expect(False, f"SARIF: {e}")
        locs = [loc["physicalLocation"] for r in run.get("results", [])
                for loc in r.get("locations", [])]
        want = os.path.join(os.path.dirname(KERNEL), "nh-sse2-linux.S")
        expect(run.get("originalUriBaseIds", {}).get("%SRCROOT%", {}).get("uri") ==
               "file://" + tree + "/" and locs and
               all(pl["artifactLocation"].get("uri") == want and
                   pl.get("region", {}).get("startLine") == line for pl in locs),
               f"SARIF: %SRCROOT% {run.get('originalUriBaseIds')}, locations {locs}; wanted "
               f"{want}:{line} under {tree}")
        jpath = next((os.path.join(tree, p) for p in up if p.endswith(".jsonl")), "")
        recs = [json.loads(x) for x in open(jpath)] if os.path.isfile(jpath) else []
        expect(recs and recs[-1].get("verdict") == "findings" and
               any(r.get("stage", "").startswith("new vs old") for r in recs),
               "JSON: no 'findings' verdict with new-vs-old rows (the base commit's file as "
               "--baseline)")
        xpath = next((os.path.join(tree, p) for p in up if p.endswith(".xml")), "")
        try:
            fails = ET.parse(xpath).getroot().get("failures")
        except (OSError, ET.ParseError) as e:
            fails = f"unreadable ({e})"
        expect(fails not in (None, "0") and str(fails).isdigit(),
               f"JUnit: failures={fails}")
        summary = open(env["GITHUB_STEP_SUMMARY"]).read() \
            if os.path.exists(env["GITHUB_STEP_SUMMARY"]) else ""
        expect("| kat | FINDING |" in summary, "the job summary has no verdict table")
        expect(not os.path.exists(os.path.join(tmp, "asmdiff")),
               "the set-up step cloned although ASMDIFF_DIR names a checkout")
        # control: the file unchanged since the base: no check, exit 0
        env2 = dict(env, BASE_SHA=head)
        again = run_steps(steps, env2, tmp, only=check_step)
        expect(again.get(check_step) == 0, f"with the file unchanged, the check step exits "
                                           f"{again.get(check_step)}, not 0")

    if failures:
        print(f"ci_workflow_test: {len(failures)} failed")
        return 1
    print(f"ci_workflow_test: {len(runs)} run steps of {os.path.basename(wf)} ran on a fixture "
          f"tree: the check step caught the planted bug (exit 1), {len(up)} uploaded files "
          f"written, the SARIF finding at {want}:{line}; unchanged file: no check, exit 0")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
