"""test_cli.py — unit tests of the CLI package on synthetic result streams (no build, no
network): the results reader on good and malformed streams, the SARIF writer, check's verdict
with two findings in one run (both reported, each in its row), argparse's bad input, soak's
reading of libFuzzer's status lines and its verdicts, the bench's old/new intervals.

    cd tools && python3 -m unittest -v asmdiff.test_cli
"""
import contextlib
import io
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest
import unittest.mock

from asmdiff import (bench, check, cli, fuzz_options, fuzzing, library, premerge, results, sarif,
                     soak, stage, table, testsets)
from asmdiff.check import usage


def rec(type_, **kw):
    return dict({"v": 1, "type": type_, "tool": "asmdiff-mpi-outside", "family": "mpi",
                 "mode": "kat", "pid": 1}, **kw)


def finding(check_, heading, title, **kw):
    fields = dict(check=check_, heading=heading, title=title,
                  implementation="_gcry_mpih_add_n", library=False, operation="add_n",
                  reproduce="asmdiff-mpi-outside kat /src", input=None, source=None)
    return rec("finding", **dict(fields, **kw))


FIXTURE = "verify/outside/fixtures/mpih-add1-gcrypt-two-bugs.S"
# the repository root a finding's URI is relative to: this checkout's git top level (the
# source folder itself in a tarball without .git)
GIT_TOP = check.formats.source_root(os.path.join(results.TOP, FIXTURE))
MISMATCH = finding("mismatch", "MISMATCH", "_gcry_mpih_add_n add_n: output differs",
                   source="verify/outside/fixtures/mpih-add1-gcrypt-two-bugs.S:61")
RESIDUE = finding("residue", "REGISTER RESIDUE", "_gcry_mpih_add_n add_n: xmm5 holds data")


def lines(*recs):
    return "".join(json.dumps(r) + "\n" for r in recs)


def validate_sarif(log):
    """The properties SARIF 2.1.0 requires of what we write; a list of what is wrong."""
    bad = []
    if log.get("version") != "2.1.0":
        bad.append("version is not 2.1.0")
    if "sarif-2.1.0" not in log.get("$schema", ""):
        bad.append("$schema does not name SARIF 2.1.0")
    runs = log.get("runs")
    if not isinstance(runs, list) or not runs:
        return bad + ["no runs"]
    for run in runs:
        driver = run.get("tool", {}).get("driver", {})
        if not driver.get("name"):
            bad.append("runs[].tool.driver.name missing")
        ids = set()
        for rule in driver.get("rules", []):
            if not rule.get("id") or not rule.get("shortDescription", {}).get("text"):
                bad.append(f"rule without id or shortDescription.text: {rule}")
            ids.add(rule.get("id"))
        if not isinstance(run.get("results"), list):
            bad.append("runs[].results is not a list")
            continue
        for r in run["results"]:
            if not r.get("message", {}).get("text"):
                bad.append("result without message.text")
            if r.get("ruleId") not in ids:
                bad.append(f"ruleId {r.get('ruleId')} is not a rule of the driver")
            if r.get("level") not in ("none", "note", "warning", "error"):
                bad.append(f"level {r.get('level')}")
            for loc in r.get("locations", []):
                art = loc.get("physicalLocation", {}).get("artifactLocation", {})
                if not art.get("uri"):
                    bad.append("location without artifactLocation.uri")
                region = loc.get("physicalLocation", {}).get("region")
                if region is not None and not (isinstance(region.get("startLine"), int)
                                               and region["startLine"] >= 1):
                    bad.append("region without a startLine >= 1")
    return bad


class ResultsReader(unittest.TestCase):
    """results.py reads a good stream by type and refuses a malformed one."""

    def test_good_stream(self):
        recs = results.parse(lines(rec("start", env=""), rec("impl", name="a", kind="kernel"),
                                   MISMATCH, RESIDUE, rec("impl", name="a", kind="kernel", cases=3),
                                   rec("summary", cases=3, calls=9, verdict="finding")))
        self.assertEqual([f["check"] for f in results.findings(recs)], ["mismatch", "residue"])
        self.assertEqual(results.summary(recs)["calls"], 9)
        self.assertEqual(results.impls(recs)["a"]["cases"], 3)

    def test_malformed(self):
        for text in ("{not json\n", json.dumps({"v": 2, "type": "summary"}) + "\n",
                     json.dumps({"v": 1}) + "\n", "[1, 2]\n"):
            with self.assertRaises(results.StreamError, msg=text):
                results.parse(text)

    def test_queries(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.jsonl")
            with open(path, "w") as f:
                f.write(lines(MISMATCH, RESIDUE, rec("summary", cases=3, calls=9)))
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(results.main([path, "findings"]), 0)
                self.assertEqual(results.main([path, "finding", "check"]), 0)
                self.assertEqual(results.main([path, "summary", "calls"]), 0)
            self.assertEqual(out.getvalue().split(), ["2", "mismatch", "9"])
            self.assertEqual(results.main([path, "impl", "nosuch", "name"]), 1)
            with open(path, "a") as f:
                f.write("garbage\n")
            with contextlib.redirect_stderr(io.StringIO()):
                self.assertEqual(results.main([path, "findings"]), 2)

    def test_check_kinds_from_checks_def(self):
        kinds = {k["name"]: k for k in results.check_kinds()}
        self.assertEqual(kinds["residue"]["row"], "vector leftovers")
        self.assertEqual(kinds["mismatch"]["heading"], "MISMATCH")


class Sarif(unittest.TestCase):
    """The SARIF writer: one result per distinct finding, the source line as its region."""

    def test_shape_and_locations(self):
        top = results.TOP
        kernel = os.path.join(top, "verify/outside/fixtures/mpih-add1-gcrypt-two-bugs.S")
        log = sarif.log([MISMATCH, RESIDUE, MISMATCH], results.check_kinds(), kernel=kernel,
                        top=top)
        self.assertEqual(validate_sarif(log), [])
        json.dumps(log)  # serialisable as it is
        res = log["runs"][0]["results"]
        self.assertEqual([r["ruleId"] for r in res], ["mismatch", "residue"])
        loc = res[0]["locations"][0]["physicalLocation"]
        self.assertEqual(loc["artifactLocation"],
                         {"uri": "verify/outside/fixtures/mpih-add1-gcrypt-two-bugs.S",
                          "uriBaseId": "%SRCROOT%"})
        self.assertEqual(loc["region"], {"startLine": 61})
        self.assertIn("MISMATCH in mpi: _gcry_mpih_add_n add_n", res[0]["message"]["text"])
        # no source line: the kernel's file, no region; nor a kernel: no location
        self.assertNotIn("region", res[1]["locations"][0]["physicalLocation"])
        plain = sarif.log([RESIDUE], results.check_kinds(), top=top)["runs"][0]["results"][0]
        self.assertNotIn("locations", plain)

    def test_validator_can_fail(self):
        # the control: the validator above rejects a log that lacks what 2.1.0 requires
        log = sarif.log([MISMATCH], results.check_kinds())
        del log["$schema"]
        log["runs"][0]["results"][0]["ruleId"] = "no-such-check"
        log["runs"][0]["results"][0]["message"] = {}
        self.assertEqual(len(validate_sarif(log)), 3)


FAKE_TOOL = textwrap.dedent("""\
    #!/usr/bin/env python3
    # a stand-in for a check build's asmdiff-mpi-outside (and fuzz_mpi-outside, whose
    # arguments are libFuzzer's flags): records from RECORDS_<MODE>
    import json, os, sys
    mode = "fuzz" if sys.argv[1].startswith("-") else sys.argv[1]
    recs = json.loads(os.environ.get("RECORDS_" + mode.upper(), "[]"))
    with open(os.environ["ASMDIFF_RESULTS"], "a") as f:
        for r in recs:
            f.write(json.dumps(r) + "\\n")
    print(f"fake {mode}: human text, not read")
    for r in recs:
        if r["type"] == "finding":
            print("==== asmdiff: " + r["heading"] + " in mpi: " + r["title"], file=sys.stderr)
            print("  reproduce      : " + r["reproduce"], file=sys.stderr)
    sys.exit(int(os.environ.get("EXIT_" + mode.upper(), "0")))
    """)


class LeftoverRules(unittest.TestCase):
    """Every convention the CLI takes says what it makes of leftovers (the clean row's words)."""

    def test_every_convention_has_a_rule(self):
        for conv in cli.CONVENTIONS:
            self.assertIn(conv, check.LEFTOVER_RULES, conv)


class CheckVerdict(unittest.TestCase):
    """check's verdict from the stages' records: two findings in one run, both reported, each in
    the row of its check (checks.def), and every other property established."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.tool = os.path.join(self.tmp.name, "asmdiff-mpi-outside")
        with open(self.tool, "w") as f:
            f.write(FAKE_TOOL)
        os.chmod(self.tool, os.stat(self.tool).st_mode | stat.S_IXUSR)

    def tearDown(self):
        self.tmp.cleanup()

    def verdict(self, stage_recs, exits=None, fuzzer=None, json_out=None):
        impl = rec("impl", name="_gcry_mpih_add_n", kind="outside", available=True,
                   covers=["add_n"], not_covered=["sub_n"])
        env = dict(os.environ, RECORDS_LIST=json.dumps([rec("start", env=""), impl]),
                   ASMDIFF_FINDINGS=os.path.join(self.tmp.name, "findings"))
        for mode in ("kat", "replay", "random", "fuzz"):
            recs = list(stage_recs.get(mode, []))
            # the kernel's calls (its impl record at the run's end), unless the test says
            if (mode in stage_recs or mode == "fuzz") and \
                    not any(r["type"] == "impl" for r in recs):
                s = results.summary(recs) or {}
                recs.insert(0, rec("impl", name="_gcry_mpih_add_n", kind="outside",
                                   available=True, cases=s.get("cases", 7), skipped_cases=0,
                                   calls=s.get("calls", 7)))
            env["RECORDS_" + mode.upper()] = json.dumps(recs)
            env["EXIT_" + mode.upper()] = str((exits or {}).get(mode, 0))
        v = check.Verdict(json_out)
        judge = check.Judge(v, {k["name"]: k["row"] for k in results.check_kinds()},
                            "./asmdiff check mpi --kernel K --symbol S")
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertTrue(check.judge_kernel(judge, self.tool, fuzzer or self.tool, "mpi",
                                               "_gcry_mpih_add_n", False, 5, env))
            judge.properties("libgcrypt")
            rc = v.print("check")
        return rc, {(r[0], r[1]) for r in v.rows}, v.rows, judge

    def test_two_findings_both_reported(self):
        summary = rec("summary", cases=40, calls=120, verdict="finding")
        saved = dict(RESIDUE, input="/tmp/findings/residue-1", reproduce="./asmdiff fuzz mpi x")
        rc, rows, table, judge = self.verdict(
            {"kat": [rec("start", env=""), MISMATCH, RESIDUE, summary],
             "replay": [rec("start", env="ASMDIFF_CPU_MASK=-avx512f "), saved, summary],
             "random": [rec("start", env=""), rec("summary", cases=3000, calls=9000,
                                                   verdict="pass")]},
            exits={"kat": 1, "replay": 1})
        self.assertEqual(rc, 1)
        for row in (("kat", "FINDING"), ("replay (seeds)", "FINDING"), ("random", "pass"),
                    ("output", "FINDING"), ("vector leftovers", "FINDING"),
                    ("checked call", "pass"), ("stack leftovers", "pass"),
                    ("guard pages", "pass"), ("operations", "pass"), ("  not covered", "n/a")):
            self.assertIn(row, rows, table)
        self.assertEqual(sum(1 for r in table if r[0] == "kat"), 2, table)
        self.assertFalse([r for r in table if "not established" in r[2]], table)
        details = " ".join(r[2] for r in table)
        self.assertIn("MISMATCH in mpi: _gcry_mpih_add_n add_n", details)
        self.assertIn("REGISTER RESIDUE in mpi:", details)
        # a saved input reproduces through the check itself, the environment kept
        self.assertIn("ASMDIFF_CPU_MASK=-avx512f ./asmdiff check mpi --kernel K --symbol S "
                      "/tmp/findings/residue-1", details)
        self.assertIn(("random", "pass", "3000 cases, 9000 calls of _gcry_mpih_add_n"), table)
        # the residue of two stages is one finding to a pull request
        self.assertEqual([f["check"] for f in sarif.distinct(judge.findings)],
                         ["mismatch", "residue"])

    def test_libfuzzer_stage(self):
        # the fuzzer (the same stand-in, in its mode "fuzz") reports one
        # finding and libFuzzer names the file it saved; the row reproduces through the check
        fuzzer = os.path.join(self.tmp.name, "fuzz_mpi-outside")
        with open(fuzzer, "w") as f:
            f.write(FAKE_TOOL.replace('print(f"fake {mode}: human text, not read")',
                                      'print("Test unit written to /tmp/f/crash-1")'))
        os.chmod(fuzzer, 0o755)
        summary = rec("summary", cases=40, calls=120, verdict="pass")
        rc, rows, table, _ = self.verdict({"kat": [summary], "replay": [summary],
                                           "random": [summary],
                                           "fuzz": [rec("start", env=""), RESIDUE]},
                                          exits={"fuzz": 1}, fuzzer=fuzzer)
        self.assertEqual(rc, 1)
        self.assertIn(("fuzz 5s", "FINDING"), rows, table)
        self.assertIn(("vector leftovers", "FINDING"), rows, table)
        self.assertIn(("checked call", "pass"), rows, table)
        self.assertTrue(dict((r[0], r[2]) for r in table)["fuzz 5s"].endswith(
            "reproduce: ./asmdiff check mpi --kernel K --symbol S /tmp/f/crash-1"), table)

    def test_one_finding_control(self):
        # the control: without the residue, its row passes (the test above can fail)
        summary = rec("summary", cases=40, calls=120, verdict="finding")
        rc, rows, table, _ = self.verdict({"kat": [MISMATCH, summary],
                                           "replay": [summary], "random": [summary]},
                                          exits={"kat": 1})
        self.assertEqual(rc, 1)
        self.assertIn(("vector leftovers", "pass"), rows, table)
        self.assertIn(("output", "FINDING"), rows, table)

    def test_fail_fast_stops_after_the_finding_stage(self):
        # --fail-fast: the kat stage's finding ends the stages there (replay and random are
        # never run: their records would be a pass); the control without it runs them all
        summary = rec("summary", cases=40, calls=120, verdict="finding")
        impl = rec("impl", name="_gcry_mpih_add_n", kind="outside", available=True,
                   covers=["add_n"])
        env = dict(os.environ, RECORDS_LIST=json.dumps([rec("start", env=""), impl]),
                   ASMDIFF_FINDINGS=os.path.join(self.tmp.name, "findings"))
        for mode in ("kat", "replay", "random", "fuzz"):
            env["RECORDS_" + mode.upper()] = json.dumps(
                ([MISMATCH] if mode == "kat" else []) + [dict(impl, cases=40, calls=120,
                                                               skipped_cases=0), summary])
            env["EXIT_" + mode.upper()] = "1" if mode == "kat" else "0"
        for fail_fast in (True, False):
            judge = check.Judge(check.Verdict(), {k["name"]: k["row"]
                                                  for k in results.check_kinds()}, "c")
            judge.fail_fast = fail_fast
            with contextlib.redirect_stdout(io.StringIO()):
                if fail_fast:
                    with self.assertRaises(check.FailFast) as stop:
                        check.judge_kernel(judge, self.tool, self.tool, "mpi",
                                           "_gcry_mpih_add_n", False, 5, env)
                    self.assertEqual(stop.exception.stage_name, "kat")
                else:
                    self.assertTrue(check.judge_kernel(judge, self.tool, self.tool, "mpi",
                                                       "_gcry_mpih_add_n", False, 5, env))
            names = [r[0] for r in judge.v.rows]
            self.assertIn("kat", names)
            self.assertEqual("random" in names, not fail_fast, names)

    def test_two_kernels_rows_per_kernel(self):
        # add_n and sub_n in one check build: each stage a row per kernel from its own impl
        # record and findings; sub_n's finding leaves add_n's rows passing; --baseline's old
        # kernel is compared, not judged
        judge = check.Judge(check.Verdict(), {k["name"]: k["row"] for k in results.check_kinds()},
                            "./asmdiff check mpi ...")
        judge.slots = [{"name": "_gcry_mpih_add_n", "role": "new", "pair": None},
                       {"name": "_gcry_mpih_sub_n", "role": "new", "pair": None},
                       {"name": "old:_gcry_mpih_sub_n", "role": "old",
                        "pair": "_gcry_mpih_sub_n"}]
        bad = finding("guard-page", "GUARD PAGE", "_gcry_mpih_sub_n: touched byte 32",
                      implementation="_gcry_mpih_sub_n", operation="sub_n")
        recs = [rec("impl", name=n, kind="outside", cases=40, calls=c, skipped_cases=0)
                for n, c in (("_gcry_mpih_add_n", 80), ("_gcry_mpih_sub_n", 70),
                             ("old:_gcry_mpih_sub_n", 70))]
        recs += [bad, rec("summary", cases=40, calls=300, verdict="finding")]
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            judge.stage(stage.Stage(1, "", recs), "kat", stage.Stage.counts)
            check.compare_with_old(judge)
        rows = {r[0]: (r[1], r[2]) for r in judge.v.rows}
        self.assertEqual(rows["kat: _gcry_mpih_add_n"][0], "pass", rows)
        self.assertIn("80 calls of _gcry_mpih_add_n", rows["kat: _gcry_mpih_add_n"][1])
        self.assertEqual(rows["kat: _gcry_mpih_sub_n"][0], "FINDING", rows)
        self.assertNotIn("kat: old:_gcry_mpih_sub_n", rows)
        # the new sub_n is wrong where the old one is right: named so (a guard page is not an
        # output difference: both outputs agreed with the reference where they ran)
        self.assertIn("70 calls of old:_gcry_mpih_sub_n", rows["new vs old kat: _gcry_mpih_sub_n"][1])
        self.assertEqual(judge.checked_by, {"_gcry_mpih_add_n": 80, "_gcry_mpih_sub_n": 70})

    def test_allowed_leftover_and_clean(self):
        summary = rec("summary", cases=40, calls=120, verdict="pass")
        info = rec("info", kind="allowed-leftover", check="residue", message="xmm5 left data")
        rc, rows, table, _ = self.verdict({"kat": [info, summary], "replay": [summary],
                                           "random": [summary]})
        self.assertEqual(rc, 0, table)
        self.assertIn(("  info", "info"), rows)
        self.assertIn(("vector leftovers", "pass"), rows)
        self.assertIn("allows", dict(((r[0], r[2]) for r in table))["vector leftovers"])
        self.assertIn("40 cases, 120 calls of _gcry_mpih_add_n",
                      dict((r[0], r[2]) for r in table)["kat"])

    def test_no_records_is_never_a_pass(self):
        # exit 1 without a finding record, exit 0 without a summary: failures, not passes
        rc, rows, table, _ = self.verdict({"replay": [rec("summary", cases=1, calls=1,
                                                          verdict="pass")]},
                                          exits={"kat": 1})
        self.assertEqual(rc, 1)
        self.assertIn(("kat", "FAIL"), rows)
        self.assertIn(("random", "FAIL"), rows)


    def test_calls_counted_in_the_property_rows(self):
        # the property rows count the kernel's checked calls of every stage: 120 + 30 + 9000 + 7
        # (the fuzzer's)
        rc, rows, table, _ = self.verdict(
            {"kat": [rec("summary", cases=40, calls=120, verdict="pass")],
             "replay": [rec("summary", cases=10, calls=30, verdict="pass")],
             "random": [rec("summary", cases=3000, calls=9000, verdict="pass")]})
        self.assertEqual(rc, 0, table)
        for row in ("checked call", "vector leftovers", "stack leftovers", "guard pages"):
            self.assertTrue(dict((r[0], r[2]) for r in table)[row].startswith(
                "9157 calls checked"), table)

    def test_zero_calls_is_not_established(self):
        # a stage that passed without calling the kernel (its impl record: 0 calls, and cases
        # of the oracles only), and one that skipped: not established, the verdict not clean
        summary = rec("summary", cases=40, calls=120, verdict="pass")
        idle = rec("impl", name="_gcry_mpih_add_n", kind="outside", available=True, cases=40,
                   skipped_cases=0, calls=0)
        rc, rows, table, _ = self.verdict({"kat": [summary], "replay": [idle, summary],
                                           "random": [rec("summary", verdict="skip",
                                                          reason="no kernel here")]},
                                          exits={"random": 77})
        self.assertEqual(rc, 1, table)
        self.assertIn(("replay (seeds)", "-"), rows, table)
        self.assertIn(("random", "-"), rows, table)
        self.assertIn("not established: 0 calls of _gcry_mpih_add_n",
                      dict((r[0], r[2]) for r in table)["replay (seeds)"])
        # the control: the same stages with calls are clean
        rc, rows, table, _ = self.verdict({"kat": [summary], "replay": [summary],
                                           "random": [summary]})
        self.assertEqual(rc, 0, table)

    def test_no_case_met_the_precondition(self):
        # every stage ran cases, none the convention admits (the kernel's impl record: 0
        # cases): a failure naming the precondition, never clean or a skip
        summary = rec("summary", cases=40, calls=0, verdict="skip", exit=77,
                      reason="none of the 40 cases was one the kernels here accept")
        none = rec("impl", name="_gcry_mpih_add_n", kind="outside", available=True, cases=0,
                   skipped_cases=0, calls=0)
        stages = {m: [none, summary] for m in ("kat", "replay", "random")}
        rc, rows, table, _ = self.verdict(dict(stages, fuzz=[none]),
                                          exits={m: 77 for m in ("kat", "replay", "random")})
        self.assertEqual(rc, 1, table)
        for m in ("kat", "replay (seeds)", "random"):
            self.assertIn((m, "FAIL"), rows, table)
            self.assertIn("none of the 40 cases met the convention's precondition",
                          dict((r[0], r[2]) for r in table)[m])
        self.assertIn(("checked call", "-"), rows, table)
        # one stage whose cases are all outside the domain (seeds of another shape) while the
        # others call the kernel: that row says so (n/a), the check is otherwise clean
        ran = rec("summary", cases=40, calls=120, verdict="pass")
        rc, rows, table, _ = self.verdict({"kat": [ran], "replay": [none, summary],
                                           "random": [ran]}, exits={"replay": 77})
        self.assertEqual(rc, 0, table)
        self.assertIn(("replay (seeds)", "n/a"), rows, table)


class Tables(unittest.TestCase):
    """table.py: one set of rows as aligned text, Markdown and JSON records; the three tables
    that print through it (check's verdict, premerge's summary, soak's) keep their lines."""

    ROWS = [("kat", "pass", "40 cases, 120 calls of f"),
            ("vector leftovers", "FINDING", "REGISTER RESIDUE in mpi: f | xmm5")]

    def test_same_rows_three_ways(self):
        t = table.Table(("check", "result", "detail"), self.ROWS, widths=(None, 8, None), pad=2)
        self.assertEqual(t.lines(), [
            "check              result   detail",
            "kat                pass     40 cases, 120 calls of f",
            "vector leftovers   FINDING  REGISTER RESIDUE in mpi: f | xmm5"])
        self.assertEqual(t.markdown(), [
            "| check | result | detail |", "|---|---|---|",
            "| kat | pass | 40 cases, 120 calls of f |",
            "| vector leftovers | FINDING | REGISTER RESIDUE in mpi: f \\| xmm5 |"])
        self.assertEqual(t.records(type="row")[1],
                         {"type": "row", "check": "vector leftovers", "result": "FINDING",
                          "detail": "REGISTER RESIDUE in mpi: f | xmm5"})
        self.assertEqual([json.loads(x) for x in t.json_lines(keys=("a", "b", "c"))][0],
                         {"a": "kat", "b": "pass", "c": "40 cases, 120 calls of f"})
        # auto widths, two spaces between, line ends stripped (soak's layout)
        s = table.Table(("family", "verdict", "execs"), [("nh", "pass", ""), ("aria", "x", "1")],
                        sep="  ", rstrip=True)
        self.assertEqual(s.lines(),
                         ["family  verdict  execs", "nh      pass", "aria    x        1"])

    def test_the_three_printers_keep_their_lines(self):
        # check's verdict: the check column as wide as its longest name plus two
        v = check.Verdict()
        for r in self.ROWS:
            v.add(*r)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(v.print("check mpi"), 1)
        self.assertEqual(out.getvalue().splitlines(), [
            "", "== check mpi",
            "check              result   detail",
            "kat                pass     40 cases, 120 calls of f",
            "vector leftovers   FINDING  REGISTER RESIDUE in mpi: f | xmm5",
            "check: FINDINGS or failures (each finding reproduces with the command in its row, "
            f"run in {results.TOP})"])
        # premerge's summary: fixed widths 10, 34, 8
        rows = [("nh", "fuzz 5s", "pass", "9 execs"), ("all", "test suites (fast)", "FAIL", "x")]
        self.assertEqual(premerge.summary_table(rows).lines(), [
            f"{'family':<10} {'check':<34} {'result':<8} detail"] +
            [f"{r[0]:<10} {r[1]:<34} {r[2]:<8} {r[3]}" for r in rows])
        with tempfile.NamedTemporaryFile("r", suffix=".md") as f:
            premerge.write_markdown(f.name, rows, True, [("nh", "nh_avx2", "9/9 (100%)", "2/2",
                                                          "1/1", "0")])
            md = f.read()
        self.assertIn("| family | check | result | detail |\n|---|---|---|---|\n"
                      "| nh | fuzz 5s | pass | 9 execs |\n", md)
        self.assertIn("| family | kernel | coverage: instructions | blocks | branches both ways "
                      "| one way by design |\n|---|---|---|---|---|---|\n"
                      "| nh | nh_avx2 | 9/9 (100%) | 2/2 | 1/1 | 0 |\n", md)
        # soak's: every column as wide as its longest cell, two spaces, ends stripped
        fail = {"label": "nh", "verdict": "FAIL", "findings": [], "reason": "no fuzzer"}
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            soak.print_table({"families": [fail], "verdict": "FAIL", "summary": "1 failed"})
        head = "  ".join(c.ljust(max(len(c), len(x))) for c, x in
                         zip(soak.COLUMNS, soak.row(fail))).rstrip()
        self.assertEqual(out.getvalue().splitlines()[0], head)
        self.assertEqual(out.getvalue().splitlines()[1], "nh      FAIL     0")


class CheckJson(unittest.TestCase):
    """check's verdict as JSON records (--json FILE, ASMDIFF_CHECK_JSON): a check-row per row
    with its kernel, counts and finding, then the check-verdict (docs/results.md)."""

    def records(self, v, title="check mpi"):
        with tempfile.NamedTemporaryFile("r", suffix=".jsonl") as f:
            v.json_out = f.name
            with contextlib.redirect_stdout(io.StringIO()):
                rc = v.print(title)
            recs = [json.loads(line) for line in f]
        self.assertEqual(recs[-1]["exit"], rc)
        return recs[:-1], recs[-1]

    def test_finding_na_and_not_established(self):
        v = check.Verdict()
        judge = check.Judge(v, {k["name"]: k["row"] for k in results.check_kinds()}, "c")
        judge.slots = [{"name": "_gcry_mpih_add_n", "role": "new", "pair": None},
                       {"name": "_gcry_mpih_sub_n", "role": "new", "pair": None}]
        recs = [rec("impl", name=n, kind="outside", cases=40, calls=c, skipped_cases=0)
                for n, c in (("_gcry_mpih_add_n", 80), ("_gcry_mpih_sub_n", 70))]
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            judge.stage(stage.Stage(1, "", recs + [
                MISMATCH, rec("summary", cases=40, calls=150, verdict="finding")]),
                "kat", stage.Stage.counts)
        v.add("emu-diff", "n/a", "the CPU cannot run the kernel")
        v.not_established("valgrind ct", "0 calls of f: valgrind not installed")
        rows, verdict = self.records(v)
        by = {r["check"]: r for r in rows}
        self.assertEqual(by["kat: _gcry_mpih_add_n"], {
            "type": "check-row", "check": "kat: _gcry_mpih_add_n", "stage": "kat",
            "kernel": "_gcry_mpih_add_n", "result": "FINDING",
            "detail": by["kat: _gcry_mpih_add_n"]["detail"], "cases": 40, "calls": 80,
            "finding": {"kind": "MISMATCH", "check": "mismatch",
                        "implementation": "_gcry_mpih_add_n",
                        "reproduce": "asmdiff-mpi-outside kat /src", "cwd": results.TOP,
                        "family": "mpi", "title": MISMATCH["title"],
                        "source": MISMATCH["source"],
                        # the instruction's line, the file relative to its repository's root
                        "location": {"file": os.path.join(results.TOP, FIXTURE), "line": 61,
                                     "from": "instruction", "root": GIT_TOP, "uri": FIXTURE}},
            "not_established": False})
        self.assertTrue(by["kat: _gcry_mpih_add_n"]["detail"].startswith("MISMATCH in mpi"))
        self.assertEqual((by["kat: _gcry_mpih_sub_n"]["result"],
                          by["kat: _gcry_mpih_sub_n"]["calls"],
                          by["kat: _gcry_mpih_sub_n"]["finding"]), ("pass", 70, None))
        self.assertEqual(by["emu-diff"], {
            "type": "check-row", "check": "emu-diff", "stage": "emu-diff", "kernel": None,
            "result": "n/a", "detail": "the CPU cannot run the kernel", "cases": None,
            "calls": None, "finding": None, "not_established": False})
        self.assertEqual((by["valgrind ct"]["result"], by["valgrind ct"]["not_established"]),
                         ("-", True))
        self.assertEqual(verdict, {"type": "check-verdict", "verdict": "findings", "exit": 1,
                                   "rows": 4, "unestablished": ["valgrind ct"],
                                   "title": "check mpi"})

    def test_verdicts(self):
        # clean; not established; nothing ran: the verdict and exit the table's line says
        v = check.Verdict()
        v.add("build", "pass", "f.S")
        v.add("kat", "pass", "1 cases, 1 calls of f", kernel="f", cases=1, calls=1)
        self.assertEqual(self.records(v)[1]["verdict"], "clean")
        self.assertEqual(self.records(v)[1]["exit"], 0)
        v.not_established("  not run", "why")
        _, verdict = self.records(v, "t")
        self.assertEqual((verdict["verdict"], verdict["exit"], verdict["unestablished"],
                          verdict["title"]), ("not-clean", 1, ["  not run"], "t"))
        rows, _ = self.records(v)
        self.assertEqual(rows[-1]["stage"], "not run")  # the indentation is the table's
        v = check.Verdict()
        v.add("build", "pass", "f.S")
        self.assertEqual(self.records(v)[1]["verdict"], "not-clean")

    def test_where_the_records_go(self):
        a = cli.parse(["check", "mpi", "--kernel", "k.S", "--symbol", "f", "--json", "x.jsonl"])[1]
        self.assertEqual(check.json_path(a), "x.jsonl")
        with mock_env(ASMDIFF_CHECK_JSON="env.jsonl"):
            self.assertEqual(check.json_path(a), "x.jsonl")
            a.json = None
            self.assertEqual(check.json_path(a), "env.jsonl")
        with mock_env(ASMDIFF_CHECK_JSON=""):
            self.assertIsNone(check.json_path(a))
        # no file asked: print writes none
        v = check.Verdict()
        v.add("kat", "pass", "x")
        with contextlib.redirect_stdout(io.StringIO()), \
                unittest.mock.patch.object(check.Verdict, "write_json") as w:
            v.print("t")
        w.assert_not_called()


class Stages(unittest.TestCase):
    """Library rows, premerge's fuzz row and the one libFuzzer command line, from records."""

    def test_library_did_not_run(self):
        ran = [rec("impl", name="libgcrypt", kind="library", available=True, cases=40,
                   skipped_cases=0)]
        not_run = [rec("impl", name="libgcrypt", kind="library", available=False,
                       reason="host lacks gfni", cases=0, skipped_cases=40)]
        self.assertIsNone(library.did_not_run(ran, "libgcrypt"))
        self.assertIn("host lacks gfni", library.did_not_run(not_run, "libgcrypt"))
        version, levels, var = library.version_and_levels(
            {"describe": "(text for people)", "version": "libgcrypt 1.12.0",
             "hwf": ["intel-avx2", "intel-gfni"]}, "libgcrypt")
        self.assertEqual(version, "libgcrypt 1.12.0")
        self.assertEqual([l for l, _ in levels], ["every feature", "without intel-avx2",
                                                  "without intel-gfni", "without any"])

    def test_level_says_the_path_it_took(self):
        # libgcrypt's hwflist in that level's process: the disabled feature must be gone
        lib = [rec("impl", name="libgcrypt-no-intel-gfni", kind="library", available=True,
                   hwf=["intel-avx2", "intel-avx512"])]
        self.assertEqual(library.path_taken(lib, "libgcrypt", "intel-gfni"),
                         ("hwf in effect: intel-avx2 intel-avx512", None))
        # the control: a level whose feature is still in effect did not take effect
        lib[0]["hwf"].append("intel-gfni")
        path, why = library.path_taken(lib, "libgcrypt", "intel-gfni")
        self.assertIn("did not take effect: intel-gfni still in libgcrypt's hwflist", why)
        self.assertIsNone(library.path_taken(lib, "libgcrypt", "")[1])
        self.assertIn("not observable", library.path_taken([], "openssl", "~0x0:~0x20")[0])

    def test_premerge_fuzz_row(self):
        recs = [rec("impl", name="ref", kind="reference", available=True),
                rec("impl", name="a", kind="kernel", available=True),
                rec("impl", name="b", kind="kernel", available=False)]
        st = stage.Stage(0, "stat::number_of_executed_units: 1234\n"
                            "stat::average_exec_per_sec:     41\n", recs)
        row, fs = premerge.fuzz_row("aria", 5, st)
        self.assertEqual(row, ("aria", "fuzz 5s", "pass", "1234 execs, 41 exec/s, runs 1 of 2 "
                                                          "implementations"))
        with contextlib.redirect_stdout(io.StringIO()):
            row, fs = premerge.fuzz_row("aria", 5, stage.Stage(1, "", recs + [MISMATCH]))
        self.assertEqual(row[2], "FINDING")
        self.assertEqual(fs, [MISMATCH])
        # libFuzzer names the saved input after the report: the reproduce line gets it
        with contextlib.redirect_stdout(io.StringIO()):
            row, fs = premerge.fuzz_row("aria", 5, stage.Stage(
                1, "Test unit written to findings/aria/crash-da39a3\n",
                recs + [rec("start", env="ASMDIFF_CPU_MASK=-gfni "), MISMATCH]))
        self.assertTrue(row[3].endswith("reproduce: ASMDIFF_CPU_MASK=-gfni ./asmdiff fuzz aria "
                                        "findings/aria/crash-da39a3"), row)
        self.assertEqual(fs[0]["input"], "findings/aria/crash-da39a3")

    def test_one_libfuzzer_command(self):
        cmd = fuzzing.libfuzzer_cmd("fz", ["c", "s"], budget=5, artifacts="art",
                                    timeout=fuzzing.alarm_after(5))
        self.assertEqual(cmd, ["fz", "-max_total_time=5", "-artifact_prefix=art/", "-timeout=30",
                               "-rss_limit_mb=4096", "-error_exitcode=1", "-timeout_exitcode=1",
                               "-print_final_stats=1", "c", "s"])

    def test_family_options_reach_libfuzzer(self):
        # the family's options file (corpus/F/fuzz_F.options) as OSS-Fuzz passes it, between
        # our flags and the caller's (a later flag wins: the caller's -len_control=100 stands)
        cmd = fuzzing.libfuzzer_cmd("fz", ["c"], family="aria", extra=["-len_control=100"])
        top = os.path.join(fuzzing.builds.TOP, "corpus", "aria")
        i = cmd.index("-max_len=5632")
        self.assertEqual(cmd[i:], ["-max_len=5632", "-dict=" + os.path.join(top, "fuzz_aria.dict"),
                                   "-len_control=0", "-len_control=100", "c"])
        self.assertEqual(fuzz_options.flags(os.path.join(fuzzing.builds.TOP, "corpus"), "none"),
                         [])
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "f"))
            path = os.path.join(d, "f", "fuzz_f.options")
            for text, why in (("[libfuzzer]\nmax_len 5\n", "not 'name = value'"),
                              ("[libfuzzer]\ndict = gone.dict\n", "does not exist")):
                with open(path, "w") as f:
                    f.write(text)
                with self.assertRaisesRegex(fuzz_options.OptionsError, why):
                    fuzz_options.flags(d, "f")
            with open(path, "w") as f:
                f.write("# c\n[afl]\nx = 1\n[libfuzzer]\nlen_control = 0\n")
            self.assertEqual(fuzz_options.flags(d, "f"), ["-len_control=0"])

    def test_stage_reads_its_own_stream(self):
        st = stage.run([sys.executable, "-c", "import os, json; open(os.environ["
                        "'ASMDIFF_RESULTS'], 'a').write(json.dumps({'v': 1, 'type': 'summary', "
                        "'cases': 7}) + '\\n')"])
        self.assertEqual((st.rc, st.summary["cases"]), (0, 7))
        bad = stage.run([sys.executable, "-c", "import os; open(os.environ['ASMDIFF_RESULTS'], "
                         "'a').write('{oops\\n')"])
        self.assertEqual(bad.rc, 1)
        self.assertIn("not JSON", bad.text)
        # a program that cannot start fails its stage with the reason, never a traceback
        gone = stage.run(["/nonexistent/asmdiff-program", "kat"])
        self.assertEqual((gone.rc, gone.recs), (1, []))
        self.assertIn("could not run /nonexistent/asmdiff-program kat", gone.reason())


class BadInput(unittest.TestCase):
    """Bad usage: a clear message on stderr and exit 2, never a traceback."""

    def bad(self, argv, message, call=None):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            with self.assertRaises(SystemExit) as e:
                (call or cli.parse)(argv)
        self.assertEqual(e.exception.code, 2, argv)
        self.assertIn(message, err.getvalue(), argv)

    def test_messages(self):
        self.bad([], "usage")
        self.bad(["bogus"], "unknown command 'bogus'")
        self.bad(["premerge", "--budget", "soon"], "needs a number of seconds")
        self.bad(["premerge", "--budget", "0"], "needs a number of seconds")
        self.bad(["premerge", "--fast"], "premerge: unknown option '--fast'")
        self.bad(["premerge", "--markdown"], "--markdown needs a file name")
        self.bad(["premerge", "--sarif"], "--sarif needs a file name")
        self.bad(["list", "extra"], "list takes no arguments")
        self.bad(["test", "--bogus"], "unknown option '--bogus'")
        self.bad(["bench", "--bogus"], "bench: unknown option '--bogus'")
        self.bad(["bench", "--cpu-mhz", "fast"], "needs the clock in MHz")
        self.bad(["bench", "--cpu-mhz", "12"], "needs the clock in MHz")
        self.bad(["fuzz", "polyval", "--vlen", "100"], "must be 128, 256, 512 or 1024")
        self.bad(["check", "mpi", "--convention", "windows"],
                 "must be linux, libgcrypt, asmdiff, openssl or win64")
        self.bad(["check", "mpi", "--kernel"], "--kernel needs a value")
        self.bad(["check", "mpi", "--frobnicate"], "check: unknown option '--frobnicate'")
        self.bad(["corpus", "split", "mpi", "d"], "invalid choice")
        self.bad(["corpus", "merge"], "required")

    def test_after_parsing(self):
        self.bad(None, "stand alone", lambda _: testsets.test_sets(slow=True, suites=["kat"]))
        self.bad(None, "stand alone", lambda _: testsets.test_sets(slow=True, all_=True))
        _, a = cli.parse(["check", "mpi", "--symbol", "s"])
        self.bad(a, "usage: ./asmdiff check", cli.cmd_check)
        _, a = cli.parse(["check", "--libgcrypt", "/p", "--kernel", "k.S"])
        self.bad(a, "one at a time", cli.cmd_check)
        _, a = cli.parse(["check", "--libgcrypt", "/p", "aria", "--fail-fast"])
        self.bad(a, "--fail-fast applies to a --kernel check", cli.cmd_check)

    def test_several_kernels(self):
        # --kernel and --symbol pair in order; counts that do not pair are refused
        fx = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__)))), "verify/outside/fixtures")
        add, sub = os.path.join(fx, "mpih-add1-gcrypt.S"), os.path.join(fx, "mpih-sub1-gcrypt.S")
        slots = lambda argv: check.outside_slots(cli.parse(argv)[1])  # noqa: E731
        self.bad(["check", "mpi", "--kernel", add, "--kernel", sub, "--symbol", "a"],
                 "2 --kernel and 1 --symbol", slots)
        self.bad(["check", "mpi", "--kernel", add, "--symbol", "a", "--kernel", sub, "--symbol",
                  "b", "--op", "add_n", "--op", "sub_n", "--op", "add_n"],
                 "3 --op for 2 kernels", slots)
        self.bad(["check", "mpi", "--kernel", add] + ["--symbol", "a", "--symbol", "b"] * 3 +
                 ["--baseline", sub], "at most 10", slots)
        self.bad(["check", "mpi", "--kernel", add, "--symbol", "a", "--kernel", "/nonexistent.S",
                  "--symbol", "b"], "--kernel: no file /nonexistent.S", slots)
        # --with goes into the kernels of its folder but the file itself (one check holds the
        # file a kernel jumps into as a kernel of its own too); a --with with no other kernel
        # of its folder is refused
        got = slots(["check", "mpi", "--kernel", add, "--symbol", "a", "--kernel", sub,
                     "--symbol", "b", "--with", sub])
        self.assertEqual([g["with"] for g in got], [[sub], []])
        self.bad(["check", "mpi", "--kernel", sub, "--symbol", "b", "--with", sub],
                 "no other --kernel in its folder", slots)
        # add_n and sub_n: two kernels, each named by its symbol
        got = slots(["check", "mpi", "--kernel", add, "--symbol", "_gcry_mpih_add_n",
                     "--kernel", sub, "--symbol", "_gcry_mpih_sub_n"])
        self.assertEqual([(g["name"], g["kernel"], g["role"]) for g in got],
                         [("_gcry_mpih_add_n", add, "new"), ("_gcry_mpih_sub_n", sub, "new")])
        # one file, two entry points
        got = slots(["check", "mpi", "--kernel", add, "--symbol", "x", "--symbol", "y"])
        self.assertEqual([(g["kernel"], g["symbol"]) for g in got], [(add, "x"), (add, "y")])
        # --baseline: the old file's same symbol, named old:, its convention its own
        got = slots(["check", "mpi", "--kernel", add, "--symbol", "_gcry_mpih_add_n",
                     "--convention", "asmdiff", "--baseline", sub])
        self.assertEqual([(g["name"], g["role"], g["pair"], g["conv"]) for g in got],
                         [("_gcry_mpih_add_n", "new", None, "asmdiff"),
                          ("old:_gcry_mpih_add_n", "old", "_gcry_mpih_add_n", "libgcrypt")])

    def test_one_entry_point_as_several_ops(self):
        # the same symbol of the same file as three kernels, one per --op (libgcrypt's GHASH
        # setup per hw_features row): each named SYMBOL@OP; the same symbol in two files keeps
        # the file's name
        fx = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__)))), "verify/outside/fixtures")
        add, sub = os.path.join(fx, "mpih-add1-gcrypt.S"), os.path.join(fx, "mpih-sub1-gcrypt.S")
        slots = lambda argv: check.outside_slots(cli.parse(argv)[1])  # noqa: E731
        got = slots(["check", "mpi"] + [x for op in ("add_n", "sub_n") for x in
                                        ("--kernel", add, "--symbol", "s", "--op", op)])
        self.assertEqual([g["name"] for g in got], ["s@add_n", "s@sub_n"])
        got = slots(["check", "mpi", "--kernel", add, "--symbol", "s", "--kernel", sub,
                     "--symbol", "s"])
        self.assertEqual([g["name"] for g in got], ["s@mpih-add1-gcrypt.S", "s@mpih-sub1-gcrypt.S"])

    def test_place_beside(self):
        # each kernel copied into a folder of its own next to the --beside files; the slot's
        # kernel becomes the copy, so a quoted include finds the file given, not the tree's
        from asmdiff.check.build import place_beside
        d = tempfile.mkdtemp(prefix="asmdiff-test.")
        self.addCleanup(shutil.rmtree, d)
        os.makedirs(os.path.join(d, "tree"))
        os.makedirs(os.path.join(d, "ours"))
        for path, text in (("tree/k.c", '#include "./h.h"\n'), ("tree/h.h", "tree\n"),
                           ("ours/h.h", "ours\n")):
            with open(os.path.join(d, path), "w") as f:
                f.write(text)
        slots = [{"kernel": os.path.join(d, "tree/k.c")} for _ in range(2)]
        place_beside([os.path.join(d, "ours/h.h")], slots, os.path.join(d, "b"))
        for i, sl in enumerate(slots):
            self.assertEqual(sl["kernel"], os.path.join(d, "b.src", str(i), "k.c"))
            with open(os.path.join(os.path.dirname(sl["kernel"]), "h.h")) as f:
                self.assertEqual(f.read(), "ours\n")
        place_beside([], slots, os.path.join(d, "c"))  # none given: nothing moves
        self.assertEqual(slots[0]["kernel"], os.path.join(d, "b.src", "0", "k.c"))
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            place_beside([os.path.join(d, "nonexistent.h")], slots, os.path.join(d, "e"))

    @unittest.skipUnless(shutil.which("clang-19"), "clang-19 not found")
    def test_undefined_symbols(self):
        # what a C kernel calls outside itself: memcpy is one, a self-contained function none
        from asmdiff.check.build import undefined_symbols
        d = tempfile.mkdtemp(prefix="asmdiff-test.")
        self.addCleanup(shutil.rmtree, d)
        for i, text in enumerate(("int f(int x) { return x + 1; }\n",
                                  "#include <string.h>\nvoid g(char *a, const char *b, "
                                  "unsigned long n) { memcpy(a, b, n); }\n")):
            src, obj = os.path.join(d, f"{i}.c"), os.path.join(d, f"{i}.o")
            with open(src, "w") as f:
                f.write(text)
            subprocess.run(["clang-19", "-O2", "-c", src, "-o", obj], check=True)
            ar = next(t for t in ("llvm-ar-19", "llvm-ar", "ar") if shutil.which(t))
            subprocess.run([ar, "rcs", os.path.join(d, f"liboutside-kernel-{i}.a"), obj],
                           check=True)
        self.assertEqual(undefined_symbols(d, 0), [])
        self.assertEqual(undefined_symbols(d, 1), ["memcpy"])

    def test_riscv64_found_from_intrinsics(self):
        # a C file calling RVV intrinsics is checked for riscv64; one that only tests
        # __riscv_vector (our POLYVAL fixture, for the host) is not
        top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        no_arch = cli.parse(["check", "polyval"])[1]
        fixture = os.path.join(top, "verify/outside/fixtures/polyval-gcrypt.c")
        self.assertEqual(check.check_arch(no_arch, [{"kernel": fixture}]), "x86_64")
        with tempfile.NamedTemporaryFile("w", suffix=".c") as f:
            f.write("#include <riscv_vector.h>\nvoid k(void) { __riscv_vsetvl_e8m1(16); }\n")
            f.flush()
            self.assertEqual(check.check_arch(no_arch, [{"kernel": f.name}]), "riscv64")
        forced = cli.parse(["check", "polyval", "--arch", "riscv64"])[1]
        self.assertEqual(check.check_arch(forced, [{"kernel": fixture}]), "riscv64")

    def test_good_usage(self):
        cmd, a = cli.parse(["fuzz", "mpi", "-max_total_time=5", "-help=1", "crash-1"])
        self.assertEqual((cmd, a.family, a.rest), ("fuzz", "mpi",
                                                   ["-max_total_time=5", "-help=1", "crash-1"]))
        cmd, a = cli.parse(["premerge", "aria", "--budget", "5", "nh", "--sarif", "f.sarif"])
        self.assertEqual((a.families, a.budget, a.sarif), (["aria", "nh"], 5, "f.sarif"))
        cmd, a = cli.parse(["check", "nh", "--kernel", "k.S", "--symbol", "s", "f1",
                            "--include", "d", "f2"])
        self.assertEqual((a.args, a.include), (["nh", "f1", "f2"], ["d"]))


class CheckUsage(unittest.TestCase):
    """check's usage errors before anything is built (check/usage.py): exit 2 with the fix."""

    TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    FX = os.path.join(TOP, "verify", "outside", "fixtures")
    HAVE_CC = bool(shutil.which("clang-19")) and bool(shutil.which("llvm-nm-19") or
                                                      shutil.which("llvm-nm"))

    def bad(self, call, *messages):
        err, out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            with self.assertRaises(SystemExit) as e:
                call()
        self.assertEqual(e.exception.code, 2, err.getvalue())
        for m in messages:
            self.assertIn(m, err.getvalue())
        return err.getvalue()

    def slot(self, kernel, symbol, conv="asmdiff", role="new", includes=()):
        return {"kernel": kernel, "symbol": symbol, "conv": conv, "role": role, "needs": "",
                "includes": list(includes), "with": []}

    def source(self, text, name="k.S"):
        d = tempfile.mkdtemp(prefix="asmdiff-test.")
        self.addCleanup(shutil.rmtree, d)
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        return path

    def test_feature_names_from_cpu_c(self):
        names = dict(usage.cpu_features())
        with open(usage.CPU_C) as f:
            table = f.read().split("feature_names[] = {", 1)[1].split("};", 1)[0]
        self.assertEqual(len(names), table.count("{CPU_"))
        self.assertEqual((names["avx2"], names["sse4.1"], names["zvkg"]),
                         ("x86_64", "x86_64", "riscv64"))
        for alias, name in usage.ALIASES.items():
            self.assertIn(name, names, alias)

    def test_needs_spellings(self):
        self.assertEqual(usage.normalize_needs("AVX2, sse4_1 pclmulqdq,aes,sse4.1"),
                         "avx2,sse4.1,pclmul,aesni")
        self.assertEqual(usage.normalize_needs("v,zvkg"), "v,zvkg")
        msg = self.bad(lambda: usage.normalize_needs("sse2,avx-2"),
                       "--needs: unknown CPU feature 'avx-2' (did you mean avx2?)",
                       "sse4.1 (sse4_1", "avx512vbmi", "riscv64: v, zvkg")
        self.assertNotIn("Traceback", msg)
        self.bad(lambda: usage.normalize_needs("frobnicate"), "unknown CPU feature 'frobnicate'")

    def test_needs_refused_before_anything_is_built(self):
        a = cli.parse(["check", "mpi", "--kernel", os.path.join(self.FX, "mpih-add1-gcrypt.S"),
                       "--symbol", "_gcry_mpih_add_n", "--needs", "avx-2"])[1]
        with unittest.mock.patch.object(usage, "precheck") as pre:
            self.bad(lambda: check.outside_slots(a), "unknown CPU feature 'avx-2'")
            pre.assert_not_called()
        a.needs = ["SSE4_1"]
        self.assertEqual(check.outside_slots(a)[0]["needs"], "sse4.1")

    def test_needs_of_the_other_architecture(self):
        sl = dict(self.slot("k.S", "k"), needs="avx2,sse2")
        self.bad(lambda: usage.check_needs_arch([sl], "riscv64"),
                 "avx2, sse2 are not riscv64 features", "riscv64: v, zvkg")
        usage.check_needs_arch([sl], "x86_64")  # no exit

    def test_diagnostics_at_the_source_line(self):
        text = textwrap.dedent("""\
            <instantiation>:1:1: error: invalid instruction mnemonic 'vpfoo'
            vpfoo %rdi, %rdi
            ^~~~~
            k.S:10:9: note: while in macro instantiation
            k.S:3:1: warning: something
            k.S:3:1: note: a warning's note
            <instantiation>:1:1: error: invalid instruction mnemonic 'vpfoo'
            vpfoo %rdx, %rdx
            <instantiation>:1:1: note: while in macro instantiation
            k.S:12:9: note: while in macro instantiation
            k.S:13:18: error: invalid register name
            k.S:13:18: error: invalid register name
            2 errors generated.
            """)
        self.assertEqual(usage.diagnostics(text), [
            "k.S:10:9: error: invalid instruction mnemonic 'vpfoo' (in a macro expanded at this "
            "line: line 1 of the expansion, `vpfoo %rdi, %rdi`); the same at 1 more line: "
            "k.S:12:9",
            "k.S:13:18: error: invalid register name"])
        many = "".join(f"k.S:{i}:1: error: bad {i}\n" for i in range(1, 15))
        got = usage.diagnostics(many, cap=10)
        self.assertEqual((len(got), got[-1]), (11, "... and 4 more distinct errors"))
        self.assertEqual(usage.diagnostics("k.S:1:1: warning: only this\n"), [])

    @unittest.skipUnless(HAVE_CC, "clang-19 and llvm-nm needed")
    def test_file_that_does_not_build(self):
        k = self.source("""\
            .macro twice reg
                    vpfoo \\reg, \\reg
            .endm
                    .globl k
            k:      twice %rdi
                    twice %rsi
                    ret
            """)
        msg = self.bad(lambda: usage.precheck([self.slot(k, "k")], "x86_64"),
                       f"--kernel {k} does not build", f"{k}:5:", "the same at 1 more line: "
                       f"{k}:6:", "the compiler's whole output: ")
        self.assertNotIn("Traceback", msg)

    @unittest.skipUnless(HAVE_CC, "clang-19 and llvm-nm needed")
    def test_missing_header(self):
        text = """\
            #include <asm/asm-offsets.h>
                    .globl k
            k:      ret
            """
        # the linux convention's stand-in: added by itself, said on stdout
        sl = self.slot(self.source(text), "k", conv="linux")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            usage.precheck([sl], "x86_64")
        compat = os.path.join(self.TOP, "verify", "outside", "linux-compat")
        self.assertEqual(sl["includes"], [compat])
        self.assertIn("added to its include folders (--include verify/outside/linux-compat)",
                      out.getvalue())
        # another convention: the --include to add
        self.bad(lambda: usage.precheck([self.slot(self.source(text), "k")], "x86_64"),
                 "'asm/asm-offsets.h' file not found",
                 "fix: add --include verify/outside/linux-compat")
        # a header none of ours has: which folder to give
        self.bad(lambda: usage.precheck([self.slot(self.source(text.replace(
            "asm/asm-offsets.h", "crypto/nosuch.h")), "k", conv="linux")], "x86_64"),
            "fix: add --include DIR, DIR the folder crypto/nosuch.h is found under")

    @unittest.skipUnless(HAVE_CC, "clang-19 and llvm-nm needed")
    def test_symbol_the_file_does_not_define(self):
        wrong = os.path.join(self.FX, "mpi-add-n-misspelt.S")
        want = ("mpi-add-n-misspelt.S defines no global symbol 'mpi_add_n_x86_64_simple'; it "
                "defines (nearest first): mpi_add_n_x86_64_simpl, mpi_misspelt_fixture_helper")
        self.bad(lambda: usage.precheck([self.slot(wrong, "mpi_add_n_x86_64_simple")],
                                        "x86_64"), want, "(--symbol)")
        good = self.slot(os.path.join(self.FX, "mpih-add1-gcrypt.S"), "_gcry_mpih_add_n",
                         conv="libgcrypt")
        self.bad(lambda: usage.precheck([good, dict(self.slot(wrong, "mpi_add_n_x86_64_simple"),
                                                    role="old")], "x86_64"),
                 want, "(--baseline-symbol)")
        usage.precheck([good], "x86_64")  # defined: no exit

    @unittest.skipUnless(HAVE_CC, "clang-19 and llvm-nm needed")
    def test_no_symbol_lists_the_functions(self):
        a = cli.parse(["check", "mpi", "--kernel", os.path.join(self.FX, "mpi-add-n-misspelt.S")])[1]
        self.bad(lambda: usage.no_symbol(a, "x86_64"), "--kernel needs --symbol NAME",
                 "mpi-add-n-misspelt.S: mpi_add_n_x86_64_simpl, mpi_misspelt_fixture_helper")

    def test_help_explains_every_option(self):
        _, p = cli.parsers()
        c = p["check"]
        for action in c._actions:
            if action.option_strings and action.option_strings[0] != "-h":
                with self.subTest(option=action.option_strings[0]):
                    self.assertIn("default", (action.help or "").lower())
        text = c.format_help()
        for word in ("sse4.1 (sse4_1", "zvkned", "linux (Linux", "libgcrypt (libgcrypt",
                     "asmdiff (our own", "usage errors exit 2"):
            self.assertIn(word, text)
        self.assertIn("Default: 60", c._option_string_actions["--budget"].help)


class HostProfile(unittest.TestCase):
    """What a host profile leaves out, and where our programs get qemu in front of them."""

    def test_left_out_with_a_reason(self):
        for name in ("emu-x86-aria", "unicorn-on-haswell", "ct-valgrind-nh",
                     "valgrind-driver-controls", "ossfuzz-corpus-merge"):
            self.assertTrue(testsets.profile_excluded(name), name)
        for name in ("kat-aria", "mutant-vexec-vpcmpu-signed", "vexec-fuzz-smoke",
                     "driver-selftest", "unicorn-emu-diff-aria", "valgrind"):
            self.assertIsNone(testsets.profile_excluded(name), name)

    def test_mask_that_changes_nothing(self):
        haswell = {"x86_64", "sse2", "avx", "avx2", "aesni"}
        self.assertTrue(testsets.mask_changes_nothing("-avx512f,-gfni", haswell))
        self.assertFalse(testsets.mask_changes_nothing("-avx2", haswell))
        self.assertFalse(testsets.mask_changes_nothing("-avx512f,-avx2", haswell))
        self.assertFalse(testsets.mask_changes_nothing("", haswell))
        self.assertFalse(testsets.mask_changes_nothing("-gfni", None))  # not known: it runs

    def test_runner_only_for_our_programs(self):
        from asmdiff import builds
        with mock_env(ASMDIFF_RUNNER="qemu-x86_64 -cpu Haswell"):
            self.assertEqual(builds.with_runner([sys.executable, "-c", "1"]),
                             [sys.executable, "-c", "1"])
            self.assertEqual(builds.runner({"riscv64": False}), ["qemu-x86_64", "-cpu", "Haswell"])
            self.assertEqual(builds.runner({"riscv64": True})[0], "qemu-riscv64")
            with tempfile.TemporaryDirectory(dir=builds.TOP) as d:
                elf = os.path.join(d, "prog")
                with open(elf, "wb") as f:  # an x86-64 ELF header (e_machine 62)
                    f.write(b"\x7fELF" + bytes(14) + (62).to_bytes(2, "little"))
                self.assertEqual(builds.with_runner([elf, "kat"])[:3],
                                 ["qemu-x86_64", "-cpu", "Haswell"])
            with tempfile.TemporaryDirectory() as d:  # outside the repository: not ours
                elf = os.path.join(d, "prog")
                with open(elf, "wb") as f:
                    f.write(b"\x7fELF" + bytes(14) + (62).to_bytes(2, "little"))
                self.assertEqual(builds.with_runner([elf]), [elf])
        with mock_env(ASMDIFF_RUNNER=""):
            self.assertEqual(builds.runner({"riscv64": False}), [])


class BenchClock(unittest.TestCase):
    """./asmdiff bench estimates the clock once and gives it to every x86-64 table of the run
    (two processes' own estimates differ by a few percent); riscv64 tables get none."""

    FAMS = {"nh": {"riscv64": False, "build": "/b"}, "mpi": {"riscv64": False, "build": "/b"},
            "polyval": {"riscv64": True, "build": "/r"}}

    def run_bench(self, estimate_rc, mhz=None):
        calls = []

        def fake(cmd, **kw):
            calls.append(cmd)
            if "--mhz-only" in cmd:
                return subprocess.CompletedProcess(cmd, estimate_rc, "3650\n" if estimate_rc == 0
                                                   else "", "" if estimate_rc == 0 else "failed\n")
            return subprocess.CompletedProcess(cmd, 0, "table\n", "")
        out, err = io.StringIO(), io.StringIO()
        with unittest.mock.patch.object(bench.subprocess, "run", fake), \
                unittest.mock.patch.object(bench.builds, "qemu_cpu", lambda v: "rv64"), \
                contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = bench.bench(["nh", "polyval", "mpi"], fams=self.FAMS, mhz=mhz)
        return rc, calls, out.getvalue(), err.getvalue()

    def tables(self, calls):
        return {os.path.basename(next(a for a in c if "asmdiff-" in a)): c for c in calls
                if "--mhz-only" not in c}

    def test_one_estimate_for_every_x86_table(self):
        rc, calls, out, _ = self.run_bench(0)
        self.assertEqual(rc, 0)
        self.assertEqual(sum("--mhz-only" in c for c in calls), 1)
        t = self.tables(calls)
        for name in ("asmdiff-nh", "asmdiff-mpi"):
            self.assertEqual(t[name][-2:], ["--cpu-mhz", "3650"], t[name])
        self.assertNotIn("--cpu-mhz", t["asmdiff-polyval"])  # emulated timings
        self.assertIn("3650 MHz (estimated once", out)

    def test_given_clock_is_not_estimated(self):
        rc, calls, out, _ = self.run_bench(0, mhz="2800")
        self.assertEqual(sum("--mhz-only" in c for c in calls), 0)
        self.assertEqual(self.tables(calls)["asmdiff-mpi"][-2:], ["--cpu-mhz", "2800"])
        self.assertIn("2800 MHz (given)", out)

    def test_family_of_both_builds_gets_both_tables(self):
        calls = []

        def fake(cmd, **kw):
            calls.append(cmd)
            return subprocess.CompletedProcess(cmd, 0, "table\n", "")
        host = {"polyval": {"riscv64": False, "build": "/b"}}
        with unittest.mock.patch.object(bench.subprocess, "run", fake), \
                unittest.mock.patch.object(bench.builds, "qemu_cpu", lambda v: "rv64"), \
                contextlib.redirect_stdout(io.StringIO()):
            rc = bench.bench(["polyval"], fams=self.FAMS, mhz="2800", host_fams=host)
        self.assertEqual(rc, 0)
        runs = [next(a for a in c if "asmdiff-" in a) for c in calls]
        self.assertEqual(runs, ["/b/asmdiff-polyval", "/r/asmdiff-polyval"])  # host first
        self.assertEqual(calls[0][-2:], ["--cpu-mhz", "2800"])
        self.assertNotIn("--cpu-mhz", calls[1])

    def test_failed_estimate_leaves_each_table_its_own(self):
        rc, calls, _, err = self.run_bench(1)
        self.assertEqual(rc, 0)
        self.assertFalse(any("--cpu-mhz" in c for c in self.tables(calls).values()))
        self.assertIn("each table estimates its own", err)


from asmdiff import spread  # noqa: E402 (the bench's old/new and its interval)
from asmdiff.check.bench_table import ratio_record  # noqa: E402


class BenchSpread(unittest.TestCase):
    """old/new with its spread (spread.py): the median of the per-pair ratios and the sign
    test's interval for it; "no measurable difference" exactly when the interval holds 1.  No
    timing: synthetic pairs."""

    @staticmethod
    def noisy(centre, n=32, width=0.03):
        """n ratios about centre, spread over +-width, in a scrambled order (deterministic)."""
        return [centre * (1 + width * (((i * 7919) % n) / (n - 1) * 2 - 1)) for i in range(n)]

    def test_ranks_and_confidence(self):
        # P(Binomial(16, 1/2) <= 3) = 697/65536: ranks 4 and 13 cover 97.9%; rank 5 only 92.3%
        k, cov = spread.order_interval(16)
        self.assertEqual(k, 4)
        self.assertAlmostEqual(cov, 1 - 2 * 697 / 65536)
        self.assertEqual(spread.order_interval(32)[0], 10)
        self.assertEqual(spread.order_interval(6), (1, 1 - 2 / 64))
        self.assertIsNone(spread.order_interval(5))  # 1 - 2/32 < 95%: no interval
        iv = spread.ratio_interval([float(x) for x in range(16, 0, -1)])
        self.assertEqual((iv["low"], iv["high"], iv["median"], iv["pairs"]), (4.0, 13.0, 8.5, 16))
        self.assertGreaterEqual(iv["confidence"], 0.95)

    def test_same_kernel_no_measurable_difference(self):
        # a kernel against itself: ratios scattered on both sides of 1
        iv = spread.ratio_interval(self.noisy(1.0))
        self.assertEqual(iv["verdict"], spread.NO_DIFFERENCE)
        self.assertTrue(iv["low"] <= 1 <= iv["high"])
        self.assertEqual(spread.show(iv), "1.00x [0.99, 1.01] no measurable difference")
        # one pair hit by a preemption moves neither the median nor the verdict
        hit = self.noisy(1.0, n=16)
        hit[5] = 5.0
        self.assertEqual(spread.ratio_interval(hit)["verdict"], spread.NO_DIFFERENCE)

    def test_positive_control_a_real_difference(self):
        iv = spread.ratio_interval(self.noisy(1.5))
        self.assertEqual(iv["verdict"], "new faster")
        self.assertGreater(iv["low"], 1)
        self.assertEqual(spread.show(iv), "1.50x [1.48, 1.52] new faster")
        iv = spread.ratio_interval(self.noisy(1 / 1.5, n=16))
        self.assertEqual((iv["verdict"], iv["high"] < 1), ("new slower", True))
        # just beyond the noise floor on either side: called
        self.assertEqual(spread.ratio_interval(self.noisy(1.04, width=0.01))["verdict"],
                         "new faster")
        self.assertEqual(spread.ratio_interval(self.noisy(0.96, width=0.01))["verdict"],
                         "new slower")

    def test_within_the_noise(self):
        # every pair above 1, but by less than the noise floor (2%): not called a difference,
        # and shown with the digits that say the interval is off 1.00
        iv = spread.ratio_interval([1.002 + 0.0001 * i for i in range(16)])
        self.assertEqual(iv["verdict"], spread.WITHIN_NOISE)
        self.assertEqual(spread.show(iv),
                         "1.003x [1.002, 1.003] no difference beyond the noise (2%)")
        # an interval off 1 reaching into the noise band: two copies of one file measured so
        iv = spread.ratio_interval(self.noisy(0.97, width=0.03))
        self.assertTrue(iv["high"] < 1 and iv["high"] > 1 - spread.NOISE, iv)
        self.assertEqual(iv["verdict"], spread.WITHIN_NOISE)
        self.assertEqual(spread.verdict(0.95, 0.979), "new slower")
        self.assertEqual(spread.verdict(1.021, 1.05), "new faster")
        self.assertEqual(spread.verdict(1.0, 1.05), spread.NO_DIFFERENCE)

    def test_too_few_pairs(self):
        iv = spread.ratio_interval([1.0, 1.1, 0.9, 0.0, None])  # 3 usable ratios
        self.assertEqual((iv["low"], iv["high"], iv["pairs"]), (None, None, 3))
        self.assertIn("too few pairs", iv["verdict"])
        self.assertEqual(spread.show(spread.ratio_interval([])), "no pairs")

    def test_record_in_the_check_json(self):
        pr = rec("bench-pairs", mode="bench", impl="f", old="old:f", op="add_n", pairs=16,
                 tried=16, ratios=self.noisy(1.0, n=16))
        rr = ratio_record(pr)
        self.assertEqual({k: rr[k] for k in ("type", "kernel", "old", "op", "pairs",
                                             "verdict")},
                         {"type": "bench-ratio", "kernel": "f", "old": "old:f", "op": "add_n",
                          "pairs": 16, "verdict": spread.NO_DIFFERENCE})
        self.assertTrue(rr["low"] <= rr["median"] <= rr["high"])
        na = ratio_record(rec("bench-pairs", impl="f", old="old:f", op="add_n",
                                          available=False, reason="old:f: emulated here"))
        self.assertEqual((na["pairs"], na["low"], na["text"]), (0, None,
                                                                "n/a: old:f: emulated here"))
        v = check.Verdict()
        v.add("kat", "pass", "8 cases", kernel="f", calls=8)
        v.extra.append(rr)
        with tempfile.NamedTemporaryFile("r", suffix=".jsonl") as f:
            v.json_out = f.name
            with contextlib.redirect_stdout(io.StringIO()):
                v.print("check mpi")
            types = [json.loads(line)["type"] for line in f]
        self.assertEqual(types, ["check-row", "bench-ratio", "check-verdict"])


class Soak(unittest.TestCase):
    """./asmdiff soak's reading of a run: libFuzzer's status lines, the speed windows, the
    verdict of a run that found something, ran nothing or died; its bad input."""

    LINES = ["#121\tINITED cov: 80 ft: 196 corp: 68/2115b exec/s: 0 rss: 88Mb",
             "#170\tNEW    cov: 80 ft: 203 corp: 72/2250b lim: 609 exec/s: 0 rss: 88Mb L: 17/609 "
             "MS: 2 CopyPart-CMP- DE: \"\\377M\"-",
             "#262144\tpulse  cov: 83 ft: 241 corp: 100/2705b lim: 2294 exec/s: 43690 rss: 135Mb",
             "#412857\tDONE   cov: 83 ft: 241 corp: 100/2694b lim: 3757 exec/s: 45873 rss: 152Mb"]

    def test_status_lines(self):
        got = [soak.parse_status(l) for l in self.LINES]
        self.assertEqual(got[0], {"execs": 121, "kind": "INITED", "cov": 80, "ft": 196,
                                  "corp": 68, "exec_s": 0, "rss": 88})
        self.assertEqual((got[1]["kind"], got[1]["corp"]), ("NEW", 72))
        self.assertEqual((got[3]["execs"], got[3]["kind"], got[3]["rss"]), (412857, "DONE", 152))
        for other in ("INFO: Seed: 1", "#0\tREAD units: 5", "Done 412857 runs in 9 second(s)",
                      "stat::peak_rss_mb: 152", "MS: 0 ; base unit: 00"):
            self.assertIsNone(soak.parse_status(other), other)

    def test_speed_windows(self):
        # an hour at 1000 exec/s (2 CPU s per 1000 execs): lines at powers of two and the end
        pts = [{"t": 0.5, "cpu": 0.5, "execs": 121}]
        pts += [{"t": n / 1000, "cpu": n / 500, "execs": n}
                for n in (2 ** k for k in range(10, 22))]
        pts.append({"t": 3600.0, "cpu": 7200.0, "execs": 3_600_000})
        sp = soak.speeds(pts)
        self.assertEqual((sp["start"]["from_s"], sp["start"]["to_s"]), (0, 65.5))  # 2^16 execs
        self.assertEqual(sp["start"]["exec_per_s"], 1000)
        self.assertEqual(sp["start"]["exec_per_cpu_s"], 500)
        self.assertEqual((sp["end"]["from_s"], sp["end"]["to_s"]), (2097.2, 3600.0))  # 2^21
        self.assertEqual((sp["end"]["exec_per_s"], sp["end"]["exec_per_cpu_s"]), (1000, 500))
        # a short run measures over half its length; one line measures nothing
        short = soak.speeds([{"t": 1, "cpu": 1, "execs": 10}, {"t": 4, "cpu": 4, "execs": 400},
                             {"t": 8, "cpu": 8, "execs": 800}])
        self.assertEqual((short["start"]["to_s"], short["end"]["from_s"]), (4, 4))
        self.assertEqual(soak.speeds(pts[:1]), {"start": None, "end": None})

    def verdict(self, rc, log, recs=(), execs_cpu=(5.0, 100 * 1024)):
        with tempfile.TemporaryDirectory() as d:
            r = soak.Run("nh", "nh", {"build": d, "fuzzer": True, "riscv64": False}, None, 5, d)
            os.makedirs(r.dir)
            with open(r.log, "w") as f:
                f.write(log)
            with open(r.stream, "w") as f:
                f.write(lines(*recs))
            r.points = [dict(soak.parse_status(l), t=i + 1.0, cpu=i + 1.0)
                        for i, l in enumerate(log.splitlines()) if soak.parse_status(l)]
            r.rc, r.wall = rc, 5.0
            r.usage = type("Usage", (), {"ru_utime": execs_cpu[0], "ru_stime": 0.0,
                                         "ru_maxrss": execs_cpu[1]})
            return r.record()

    def test_verdicts(self):
        done = "\n".join(self.LINES) + "\nstat::number_of_executed_units: 412857\n"
        clean = self.verdict(0, done)
        self.assertEqual((clean["verdict"], clean["execs"], clean["exec_per_cpu_s"],
                          clean["peak_rss_mb"], clean["units"], clean["cov"]),
                         ("clean", 412857, 82571, 100, {"start": 68, "end": 100},
                          {"start": 80, "end": 83}))
        nothing = self.verdict(0, "stat::number_of_executed_units: 0\n")
        self.assertEqual((nothing["verdict"], nothing["reason"]),
                         ("FAIL", "zero execs: nothing was fuzzed"))
        died = self.verdict(1, done)
        self.assertEqual(died["verdict"], "FAIL")
        self.assertIn("exited 1 without a finding", died["reason"])
        # a timeout libFuzzer saved without a report of ours is a finding, with its file
        slow = self.verdict(1, done + "Test unit written to /f/timeout-ab12\n")
        self.assertEqual((slow["verdict"], slow["findings"][0]["file"],
                          slow["findings"][0]["reproduce"]),
                         ("FINDING", "/f/timeout-ab12", "./asmdiff fuzz nh /f/timeout-ab12"))
        mm = dict(MISMATCH, input="/f/crash-1", reproduce="./asmdiff fuzz nh /f/crash-1")
        found = self.verdict(1, done + "Test unit written to /f/crash-1\n", [mm])
        self.assertEqual(len(found["findings"]), 1)
        self.assertEqual((found["verdict"], found["findings"][0]["check"]), ("FINDING", "mismatch"))

    def test_reproduce_names_the_vlen(self):
        fam = {"build": "/b", "fuzzer": True, "riscv64": True}
        at512 = soak.Run("polyval vlen=512", "polyval", fam, "512", 5, "/o")
        at256 = soak.Run("polyval", "polyval", fam, "256", 5, "/o")
        given = "./asmdiff fuzz polyval /f/crash-1"
        self.assertEqual(at512.reproduce("/f/crash-1", given),
                         "./asmdiff fuzz polyval --vlen 512 /f/crash-1")
        self.assertEqual(at256.reproduce("/f/crash-1", given), given)
        self.assertEqual(at512.reproduce("/f/oom-2", None),
                         "./asmdiff fuzz polyval --vlen 512 /f/oom-2")

    def test_a_fuzzer_that_does_not_end_is_stopped(self):
        with tempfile.TemporaryDirectory() as d:
            hang = os.path.join(d, "hang")
            with open(hang, "w") as f:
                f.write("#!/bin/sh\nexec sleep 600\n")
            os.chmod(hang, 0o755)
            fams = {"nh": {"build": d, "fuzzer": True, "riscv64": False}}
            _, a = cli.parse(["soak", "nh", "--minutes", "0.01", "--fuzzer", hang, "--out",
                              os.path.join(d, "out"), "--json", os.path.join(d, "s.json")])
            old = soak.GRACE
            soak.GRACE = 1.0
            try:
                with contextlib.redirect_stdout(io.StringIO()) as out, \
                        unittest.mock.patch.object(soak.builds, "families", lambda: fams):
                    rc = soak.cmd_soak(a)
            finally:
                soak.GRACE = old
            with open(os.path.join(d, "s.json")) as f:
                r = json.load(f)["families"][0]
        self.assertEqual((rc, r["verdict"], r["execs"]), (1, "FAIL", 0), out.getvalue())
        self.assertIn("past its budget: stopped", r["reason"])

    def test_bad_input(self):
        bad = BadInput("test_messages")
        for m in ("0", "-1", "soon", "nan", "inf"):
            bad.bad(["soak", "--minutes", m], "--minutes needs a number of minutes above 0")
        bad.bad(["soak", "--minutes"], "--minutes needs a number of minutes")
        bad.bad(["soak", "--json"], "--json needs a file name")
        bad.bad(["soak", "--vlen", "100"], "must be 128, 256, 512 or 1024")
        bad.bad(["soak", "--hour"], "soak: unknown option '--hour'")
        fams = {"nh": {"fuzzer": True, "riscv64": False}, "polyval": {"fuzzer": True,
                                                                      "riscv64": True}}
        for argv, message in ((["soak", "nosuch"], "unknown family 'nosuch'"),
                              (["soak", "nh", "polyval", "--fuzzer", "f"], "exactly one family"),
                              (["soak", "nh", "--vlen", "512"], "riscv64 families only")):
            _, a = cli.parse(argv)
            bad.bad(a, message, lambda a: soak.targets(a, fams))
        _, a = cli.parse(["soak", "--vlen", "128", "--vlen", "1024", "--minutes", "0.5"])
        self.assertEqual(a.minutes, 0.5)
        self.assertEqual([t[0] for t in soak.targets(a, fams)],
                         ["nh", "polyval vlen=128", "polyval vlen=1024"])


class TestLogs(unittest.TestCase):
    """Each ./asmdiff test run reads meson's log of its own (two runs in one build once appended
    to one testlog.json and counted each other's tests); old runs' logs are pruned."""

    def test_prune_keeps_the_newest_runs(self):
        from asmdiff import testsets
        with tempfile.TemporaryDirectory() as d:
            for i, pid in enumerate(["11", "22", "33"]):
                for n in (f"testlog-{pid}.json", f"testlog-{pid}.txt",
                          f"testlog-{pid}-Haswell-host_profile.sh.json"):
                    open(os.path.join(d, n), "w").close()
                    os.utime(os.path.join(d, n), (1000 + i, 1000 + i))
            for n in ("testlog.json", "testlog-Haswell-host_profile.sh.json", "meson-log.txt"):
                open(os.path.join(d, n), "w").close()
            testsets.prune_logs(d, keep=2)
            left = sorted(os.listdir(d))
            self.assertFalse([n for n in left if n.startswith("testlog-11")], left)
            self.assertEqual(len([n for n in left if n.startswith("testlog-22")]), 3)
            self.assertEqual(len([n for n in left if n.startswith("testlog-33")]), 3)
            for n in ("testlog.json", "testlog-Haswell-host_profile.sh.json", "meson-log.txt"):
                self.assertIn(n, left)


class ExpectedSkips(unittest.TestCase):
    """./asmdiff test passes with only the skips verify/expected-skips.json lists for the host
    profile, each with its reason: a skip the list does not name fails, so does a listed one
    whose reason changed; on a host without the features the list assumes, skips are said."""

    EXPECTED = {"native": {"cpu": ["avx512f"], "skips": [
        {"test": "gcrypt-levels-*", "reason": "^SKIP: the installed libgcrypt does not",
         "why": "old system library"},
        {"test": "emu-polyval-*", "build": "riscv64", "reason": "^SKIP: qemu",
         "why": "a riscv64 one"}]}}

    def result(self, name, out, build=None):
        from asmdiff import builds
        return (build or builds.BUILD, name, "SKIP", 0.1, out)

    def judge(self, results, features={"avx512f", "avx2"}, profile="native"):
        return testsets.judge_skips(results, profile, self.EXPECTED, features)

    def test_listed_skip_with_its_reason_passes(self):
        problems, notes = self.judge([self.result(
            "asmdiff:replay / gcrypt-levels-aria",
            "SKIP: the installed libgcrypt does not implement this family\n")])
        self.assertEqual((problems, notes), ([], []))

    def test_unlisted_skip_fails(self):
        problems, _ = self.judge([self.result("asmdiff:linux-6.12 / linux-6.12-aria",
                                              "SKIP: Linux sources not found: ...\n")])
        self.assertEqual(len(problems), 1)
        self.assertIn("unexpected skip: asmdiff:linux-6.12 / linux-6.12-aria: SKIP: Linux "
                      "sources not found", problems[0])

    def test_listed_skip_with_another_reason_fails(self):
        problems, _ = self.judge([self.result("asmdiff:replay / gcrypt-levels-aria",
                                              "SKIP: cmake is not installed\n")])
        self.assertEqual(len(problems), 1)
        self.assertIn("expected skip with another reason", problems[0])
        self.assertIn("SKIP: cmake is not installed", problems[0])

    def test_build_is_part_of_the_entry(self):
        from asmdiff import builds
        listed = self.result("asmdiff:emu / emu-polyval-vlen128", "SKIP: qemu-riscv64 ...",
                             builds.BUILD_RV)
        same_name_x86 = self.result("asmdiff:emu / emu-polyval-vlen128", "SKIP: qemu-riscv64")
        self.assertEqual(self.judge([listed])[0], [])
        self.assertEqual(len(self.judge([same_name_x86])[0]), 1)

    def test_host_without_the_assumed_features_says_not_judges(self):
        problems, notes = self.judge([self.result("asmdiff:kat / kat-x", "SKIP: host lacks")],
                                     features={"avx2"})
        self.assertEqual(problems, [])
        self.assertTrue(any("lacks avx512f" in n for n in notes), notes)

    def test_profile_without_a_list_says_so(self):
        problems, notes = self.judge([self.result("t", "SKIP: x")], profile="Nehalem")
        self.assertEqual(problems, [])
        self.assertIn("no expected-skip list for host profile Nehalem", notes[0])

    def test_the_project_list_loads_and_every_entry_has_a_reason(self):
        profiles = testsets.load_expected_skips()
        self.assertIn("native", profiles)
        for prof in profiles.values():
            for e in prof["skips"]:
                self.assertTrue(e["why"] and e["reason"] and e["test"])

    def test_a_malformed_list_is_a_usage_error(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            f.write('{"profiles": {"native": {"skips": [{"test": "x"}]}}}')
            f.flush()
            with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
                testsets.load_expected_skips(f.name)


@contextlib.contextmanager
def mock_env(**kw):
    old = {k: os.environ.get(k) for k in kw}
    os.environ.update(kw)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def read(path):
    with open(path) as f:
        return f.read()


class ResultFormats(unittest.TestCase):
    """check's verdict records in every format (check/formats.py), written from records alone
    (one check or several, as `check --changes` gives them): JSON lines, JUnit, Markdown, SARIF
    with URIs relative to the author's repository root and a region per finding that has a
    line; and premerge's Markdown and JUnit through the same writers (outputs.py)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        # an author's tree: a git repository holding the kernel in a subfolder
        self.tree = os.path.join(self.tmp.name, "linux")
        os.makedirs(os.path.join(self.tree, "arch", "x86", "crypto"))
        subprocess.run(["git", "init", "-q", self.tree], check=True)
        self.kernel = os.path.join(self.tree, "arch/x86/crypto/nh-sse2-x86_64.S")
        with open(self.kernel, "w") as f:
            f.write("/* nh */\n#include <linux/linkage.h>\n\nSYM_FUNC_START(nh_sse2)\n"
                    "\tret\nSYM_FUNC_END(nh_sse2)\n")

    def tearDown(self):
        self.tmp.cleanup()

    def verdict(self, with_line=False):
        v = check.Verdict()
        v.kernels = {"nh_sse2": (self.kernel, "nh_sse2")}
        v.add("build", "pass", "nh-sse2-x86_64.S")
        src = f"{self.kernel}:5" if with_line else None
        f = dict(finding("mismatch", "MISMATCH", "nh_sse2 hash: output differs", source=src,
                         implementation="nh_sse2", family="nh"),
                 reproduce="./asmdiff check nh --kernel K --symbol nh_sse2 /f/crash-1")
        v.add_finding("kat", f, kernel="nh_sse2", cases=83, calls=166)
        v.add("random", "pass", "3000 cases", kernel="nh_sse2", cases=3000, calls=8000)
        v.add("emu-diff", "n/a", "the CPU cannot run it")
        v.not_established("valgrind ct", "valgrind not installed")
        return v

    def test_location_relative_to_the_repository_root(self):
        recs = self.verdict().records("check nh: nh_sse2")
        loc = next(r for r in recs if r.get("finding"))["finding"]["location"]
        # no instruction named: the entry point's line, the URI relative to the git top level
        self.assertEqual(loc, {"file": self.kernel, "line": 4, "from": "entry point",
                               "root": os.path.realpath(self.tree)
                               if os.path.realpath(self.tree) != self.tree else self.tree,
                               "uri": "arch/x86/crypto/nh-sse2-x86_64.S"})
        recs = self.verdict(with_line=True).records("t")
        loc = next(r for r in recs if r.get("finding"))["finding"]["location"]
        self.assertEqual((loc["line"], loc["from"]), (5, "instruction"))
        # --source-root names another root; a file outside it is an absolute file:// URI
        self.assertEqual(check.formats.location({}, self.kernel, "nh_sse2",
                                                os.path.join(self.tree, "arch"))["uri"],
                         "x86/crypto/nh-sse2-x86_64.S")
        self.assertEqual(check.formats.location({}, self.kernel, "nh_sse2",
                                                os.path.join(self.tree, "lib"))["uri"],
                         "file://" + self.kernel)

    def test_entry_line_forms(self):
        path = os.path.join(self.tmp.name, "k.S")
        for text, line in (("/* void f(int); */\nf:\n", 2), ("x\nC_SYMBOL_NAME(f:)\n", 2),
                           ("\n\nENTRY(f)\n", 3), ("\t.globl f\n", 1),
                           ("int g(void);\nvoid\nf (int a,\n", 3), ("fg:\n", None)):
            with open(path, "w") as fh:
                fh.write(text)
            self.assertEqual(check.formats.entry_line(path, "f"), (path, line), text)
        # a planted copy that includes the original: the line is the original's
        with open(os.path.join(self.tmp.name, "plant.S"), "w") as fh:
            fh.write('#define PLANT 1\n#include "orig.S"\n')
        with open(os.path.join(self.tmp.name, "orig.S"), "w") as fh:
            fh.write("\n\nSYM_TYPED_FUNC_START(f)\n")
        self.assertEqual(check.formats.entry_line(os.path.join(self.tmp.name, "plant.S"), "f"),
                         (os.path.join(self.tmp.name, "orig.S"), 3))

    def test_every_format_from_the_records(self):
        recs = self.verdict().records("check nh: nh_sse2") + \
            self.verdict(with_line=True).records("check nh: second")
        out = {k: os.path.join(self.tmp.name, "out." + k) for k in
               ("json", "junit", "markdown", "sarif")}
        check.formats.write(recs, **out)
        self.assertEqual([json.loads(x) for x in read(out["json"]).splitlines()], recs)
        # JUnit: a suite per check, a case per row; FINDING and not established fail, n/a skips
        import xml.etree.ElementTree as ET
        root = ET.parse(out["junit"]).getroot()
        suites = root.findall("testsuite")
        self.assertEqual([s.get("name") for s in suites], ["check nh: nh_sse2",
                                                           "check nh: second"])
        cases = suites[0].findall("testcase")
        self.assertEqual([c.get("name") for c in cases],
                         ["build", "kat", "random", "emu-diff", "valgrind ct"])
        status = {c.get("name"): [e.tag for e in c] for c in cases}
        self.assertEqual(status, {"build": [], "kat": ["failure"], "random": [],
                                  "emu-diff": ["skipped"], "valgrind ct": ["failure"]})
        self.assertEqual((root.get("tests"), root.get("failures"), root.get("skipped")),
                         ("10", "4", "2"))
        self.assertIn("reproduce: ./asmdiff check nh", cases[1].find("failure").get("message"))
        # Markdown: a heading with the verdict per check, the rows with their counts
        md = read(out["markdown"])
        self.assertIn("## asmdiff check nh: nh_sse2: FINDINGS (exit 1)\n", md)
        self.assertIn("| random | pass | 3000 cases | 3000 | 8000 |\n", md)
        self.assertIn(f"run in `{results.TOP}`", md)
        # SARIF: relative URIs, %SRCROOT% the author's root, a region for each finding
        log = json.loads(read(out["sarif"]))
        self.assertEqual(validate_sarif(log), [])
        run = log["runs"][0]
        self.assertEqual(run["originalUriBaseIds"]["%SRCROOT%"]["uri"],
                         "file://" + check.formats.source_root(self.kernel) + "/")
        phys = [r["locations"][0]["physicalLocation"] for r in run["results"]]
        self.assertEqual([(p["artifactLocation"]["uri"], p["artifactLocation"]["uriBaseId"],
                           p["region"]["startLine"]) for p in phys],
                         [("arch/x86/crypto/nh-sse2-x86_64.S", "%SRCROOT%", 4),
                          ("arch/x86/crypto/nh-sse2-x86_64.S", "%SRCROOT%", 5)])
        self.assertIn("placed at the entry point", run["results"][0]["message"]["text"])

    def test_sarif_rule_for_a_check_outside_checks_def(self):
        # memcheck's finding is the CLI's own check: a rule of its own, so the log validates
        v = self.verdict()
        v.add_finding("valgrind ct", {"check": "valgrind-ct", "heading":
                                      "SECRET-DEPENDENT (memcheck)", "implementation": "nh_sse2",
                                      "title": "nh_sse2: Conditional jump", "reproduce": "x"},
                      kernel="nh_sse2")
        log = check.formats.sarif_log(v.records("t"))
        self.assertEqual(validate_sarif(log), [])
        self.assertIn("valgrind-ct", [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]])

    def test_print_writes_the_formats_asked_for(self):
        out = {k: os.path.join(self.tmp.name, "p." + k) for k in ("junit", "markdown", "sarif")}
        v = self.verdict()
        v.outputs.update(out)
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(v.print("check nh"), 1)
        self.assertTrue(all(os.path.getsize(p) > 0 for p in out.values()))
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "p.json")))
        a = cli.parse(["check", "nh", "--kernel", "k.S", "--symbol", "f", "--junit", "j.xml",
                       "--markdown", "m.md", "--sarif", "s.sarif", "--source-root", "r"])[1]
        self.assertEqual((check.output_paths(a), a.source_root),
                         ({"json": None, "junit": "j.xml", "markdown": "m.md",
                           "sarif": "s.sarif"}, "r"))

    def test_premerge_writes_through_the_same_writers(self):
        rows = [("nh", "fuzz 5s", "pass", "9 execs"), ("aria", "fuzz 5s", "FINDING", "M; x")]
        res = [("build/x", "kat-nh", "OK", 1.5, ""), ("build/x", "ct-aria", "FAIL", 2.0, "out"),
               ("build/x", "emu", "SKIP", 0.1, "")]
        path = os.path.join(self.tmp.name, "premerge.xml")
        premerge.write_junit(path, res, rows, ["nh", "aria"])
        import xml.etree.ElementTree as ET
        root = ET.parse(path).getroot()
        self.assertEqual((root.get("tests"), root.get("failures"), root.get("skipped")),
                         ("5", "2", "1"))
        ct = root.find("./testsuite/testcase[@name='ct-aria']")
        self.assertEqual((ct.get("time"), ct.find("failure").text), ("2.00", "out"))

    def test_stage_streams_collected_in_asmdiff_results(self):
        # ASMDIFF_RESULTS given to a command of the CLI: each stage's own stream appended
        prog = os.path.join(self.tmp.name, "prog")
        with open(prog, "w") as f:
            f.write(FAKE_TOOL)
        os.chmod(prog, 0o755)
        outer = os.path.join(self.tmp.name, "all.jsonl")
        env = dict(os.environ, ASMDIFF_RESULTS=outer,
                   RECORDS_KAT=json.dumps([rec("start", env=""), MISMATCH]))
        for _ in range(2):
            st = stage.run([prog, "kat"], env)
            self.assertEqual(len(st.findings), 1)  # the stage still reads its own
        self.assertEqual([r["type"] for r in results.read(outer)],
                         ["start", "finding", "start", "finding"])
        # the control: without it nothing is written anywhere else
        env.pop("ASMDIFF_RESULTS")
        stage.run([prog, "kat"], env)
        self.assertEqual(len(results.read(outer)), 4)

    def test_reproduce_lines(self):
        v = check.Verdict()
        judge = check.Judge(v, {k["name"]: k["row"] for k in results.check_kinds()},
                            "./asmdiff check nh --kernel /k.S --symbol nh_sse2")
        st = stage.Stage(1, "", [rec("start", env="ASMDIFF_CPU_MASK=-avx2 ")])
        # a saved input by its absolute path, whatever the folder the check ran in
        with unittest.mock.patch("os.getcwd", return_value="/somewhere"):
            line = judge.reproduce(st, {"input": "crash-1"})
        self.assertEqual(line, "ASMDIFF_CPU_MASK=-avx2 ./asmdiff check nh --kernel /k.S "
                               "--symbol nh_sse2 /somewhere/crash-1")
        # a stage's own line that names the default build (`./asmdiff fuzz`) is replaced;
        # a mode's line of the check build's program is kept
        st = stage.Stage(1, "", [rec("start", env=""), rec("impl", name="nh_sse2",
                                                           kind="outside", calls=1, cases=1),
                                 dict(MISMATCH, implementation=None, input="/f/crash-2",
                                      reproduce="./asmdiff fuzz nh /f/crash-2"),
                                 dict(RESIDUE, implementation=None, input="/f/crash-3",
                                      reproduce="/b/asmdiff-nh-outside ct-trace /f/crash-3")])
        with contextlib.redirect_stdout(io.StringIO()):
            judge.stage(st, "valgrind ct", stage.Stage.counts, checked=False)
        lines = [f["reproduce"] for f in judge.findings]
        self.assertEqual(lines, ["./asmdiff check nh --kernel /k.S --symbol nh_sse2 /f/crash-2",
                                 "/b/asmdiff-nh-outside ct-trace /f/crash-3"])
        self.assertEqual(check.judge.command_line(["./asmdiff", "check", "a b"]),
                         "./asmdiff check 'a b'")


class ExpectRecords(unittest.TestCase):
    """verify/expect_records.py, the check suite's judge: every kind of EXPECT holds on records
    that meet it and fails on records that violate it (a judge that cannot fail proves
    nothing); a crash, a missing verdict and an exit its records contradict fail; 77 skips."""

    HELPER = os.path.join(results.TOP, "verify", "expect_records.py")
    ROWS = [
        {"type": "check-row", "check": "kat", "stage": "kat", "kernel": "nh_sse2",
         "result": "FINDING", "detail": "MISMATCH in nh: nh_sse2 ...", "cases": 40, "calls": 80,
         "finding": {"kind": "MISMATCH", "check": "mismatch", "implementation": "nh_sse2",
                     "reproduce": "x"}, "not_established": False},
        {"type": "check-row", "check": "fuzz 5s", "stage": "fuzz 5s", "kernel": "nh_sse2",
         "result": "pass", "detail": "900 calls of nh_sse2 in 5 s", "cases": None,
         "calls": 900, "finding": None, "not_established": False},
        {"type": "check-row", "check": "build", "stage": "build", "kernel": None,
         "result": "pass", "detail": "", "cases": None, "calls": None, "finding": None,
         "not_established": False},
        {"type": "bench-ratio", "kernel": "nh_sse2", "old": "old:nh_sse2", "op": "hash",
         "median": 1.001, "low": 0.99, "high": 1.01, "pairs": 32, "confidence": 0.98,
         "verdict": "no measurable difference", "reason": None, "text": "1.00x [0.99, 1.01] ..."},
        {"type": "check-verdict", "verdict": "findings", "exit": 1, "rows": 3,
         "unestablished": [], "title": "check nh"}]

    def judge(self, *specs, recs=None, stream=False):
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl") as f:
            f.write("".join(json.dumps(r) + "\n" for r in (recs or self.ROWS)))
            f.flush()
            p = subprocess.run([sys.executable, self.HELPER] + (["--stream"] if stream else []) +
                               ["--records", f.name] + list(specs), capture_output=True,
                               text=True)
        return p.returncode, p.stdout

    def run_cmd(self, code, *specs):
        """The helper running a python3 -c CMD that writes the check's records and exits."""
        p = subprocess.run([sys.executable, self.HELPER] + list(specs) +
                           ["--", sys.executable, "-c", code], capture_output=True, text=True)
        return p.returncode, p.stdout

    def test_each_kind_holds_and_fails(self):
        for good, bad in [
                ("verdict=findings", "verdict=clean"),
                ("row:kat result=FINDING finding.kind=MISMATCH finding.implementation=nh_sse2",
                 "row:kat result=FINDING finding.implementation=nh_avx2"),
                ("row:\"fuzz 5s\" kernel=nh_sse2 result=pass calls>0", "row:\"fuzz 5s\" calls>900"),
                ("row:kat calls>=80 cases<41", "row:kat calls<80"),
                ("row:kat result!=pass", "row:build result!=pass"),
                ("row:kat \"detail~^MISMATCH in nh\"", "row:kat \"detail~^GUARD\""),
                ("row:* finding=null", "row:absent"),
                ("no row:* result=FAIL", "no row:* result=FINDING"),
                ("every row:* calls>0 where result=pass stage!=build",
                 "every row:* calls>0 where result=pass"),
                ("ratio op=hash \"verdict=no measurable difference\" low<=1 high>=1 pairs>=16",
                 "every ratio verdict=\"new faster\""),
        ]:
            with self.subTest(good=good):
                self.assertEqual(self.judge(good)[0], 0, self.judge(good)[1])
            with self.subTest(bad=bad):
                rc, out = self.judge(bad)
                self.assertEqual(rc, 1, out)
                self.assertIn("NOT: " + bad, out)
                self.assertIn("-- the records", out)  # what the records said
        # every: a scope no record is in is not a pass
        self.assertEqual(self.judge("every row:* calls>0 where result=skip")[0], 1)

    def test_stream_kinds(self):
        recs = [rec("finding", check="mismatch", implementation="nh_sse2"),
                rec("summary", exit=1, compared_calls=0), rec("summary", exit=0, compared_calls=7)]
        self.assertEqual(self.judge("finding check=mismatch implementation=nh_sse2",
                                    "summary compared_calls>0", recs=recs, stream=True)[0], 0)
        for bad in ("no finding", "summary compared_calls=0", "finding check=abi", "impl"):
            with self.subTest(bad=bad):
                self.assertEqual(self.judge(bad, recs=recs, stream=True)[0], 1)

    def test_exit_status(self):
        write = ("import json, os, sys; open(os.environ['ASMDIFF_CHECK_JSON'], 'w').write("
                 "json.dumps({'type': 'check-verdict', 'verdict': %r, 'exit': %d}) + '\\n');"
                 "print('the table'); sys.exit(%d)")
        self.assertEqual(self.run_cmd(write % ("clean", 0, 0), "verdict=clean")[0], 0)
        self.assertEqual(self.run_cmd(write % ("clean", 0, 0), "output \"text~^the table$\"")[0], 0)
        # the exit a verdict record contradicts, an --exit not met, a crash, no verdict at all
        self.assertEqual(self.run_cmd(write % ("clean", 0, 1), "verdict=clean")[0], 1)
        self.assertEqual(self.run_cmd(write % ("clean", 0, 0), "--exit", "1", "verdict=clean")[0], 1)
        self.assertEqual(self.run_cmd(write % ("clean", 0, 3), "verdict=clean")[0], 1)
        self.assertEqual(self.run_cmd("print('check: clean')", "verdict=clean")[0], 1)
        # 77 passed on as a skip
        self.assertEqual(self.run_cmd("import sys; sys.exit(77)", "verdict=clean")[0], 77)
        # --exit 2: the usage error expected, judged by its output; no verdict may be written
        usage_err = "import sys; print('asmdiff: check: bad'); sys.exit(2)"
        self.assertEqual(self.run_cmd(usage_err, "--exit", "2", "output \"text~check: bad\"")[0],
                         0)
        self.assertEqual(self.run_cmd(usage_err, "--exit", "2", "output \"text~other\"")[0], 1)
        self.assertEqual(self.run_cmd(usage_err, "output \"text~check: bad\"")[0], 1)
        self.assertEqual(self.run_cmd(write % ("clean", 0, 2), "--exit", "2",
                                      "output \"text~the table\"")[0], 1)
        self.assertEqual(self.run_cmd(write % ("clean", 0, 0), "--exit", "2",
                                      "output \"text~the table\"")[0], 1)
        # a malformed EXPECT is a usage error, not a verdict
        self.assertEqual(self.run_cmd("pass", "row:kat calls")[0], 2)


TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def linux_suite_homes(tests):
    """{path: {"family", "kernels": {symbol: needs}}} of the linux-6.12 tests' own arguments
    (meson's evaluated definitions, intro-tests.json: linux_suite.sh [OPTIONS] BUDGET FILE
    SYMBOL NEEDS...).  A --finding test holds a file to a guard that is wrong on purpose (the
    glue's): its needs are not the file's."""
    out = {}
    for t in tests:
        cmd = t["cmd"]
        if not cmd or not cmd[0].endswith("linux_suite.sh"):
            continue
        args, family, arch, i = cmd[1:], None, "x86", 0
        sizes = {"--family": 1, "--arch": 1, "--beside": 1, "--vlen": 1, "--expect": 1,
                 "--finding": 1, "--plant": 4, "--op": 1, "--every-stage": 0}
        if "--finding" in args:
            continue
        while args[i] in sizes:
            if args[i] == "--family":
                family = args[i + 1]
            if args[i] == "--arch":
                arch = "riscv"
            i += 1 + sizes[args[i]]
        rest = args[i + 1:]  # past BUDGET
        for f, sym, needs in zip(rest[0::3], rest[1::3], rest[2::3]):
            if f.endswith(".pl"):
                continue  # a perlasm script: no row (homes.py says why)
            path = f"arch/{arch}/crypto/{f}"
            fam = family or f.split("-")[0].split("_")[0]
            row = out.setdefault(path, {"family": fam, "kernels": {}})
            row["kernels"][sym] = "" if needs == "-" else needs
    return out


def gcrypt_suite_homes(text):
    """The same from libgcrypt_suite.sh's kernel modes (its kernels=(SYMBOL NEEDS ...) arrays,
    the ARIA and POLYVAL modes' own lines), its variables expanded."""
    var = {}
    for name, value in __import__("re").findall(r"(?m)(?:^|\s)(\w+)=([^\s()]+)", text):
        var.setdefault(name, value)

    def expand(v):
        for _ in range(3):
            v = __import__("re").sub(r"\$\{?(\w+)\}?", lambda m: var.get(m[1], m[0]), v)
        return v.replace('"', "")
    re_ = __import__("re")
    out = {}

    def add(path, family, sym, needs):
        out.setdefault(path, {"family": family, "kernels": {}})["kernels"][sym] = needs
    mpi = dict(re_.findall(r"(_gcry_mpih_\w+)\) f=(\S+)", text))
    for arm in re_.finditer(r"(?m)^\s+([\w-]+)\)\s+file=(\S*)(.*?);;", text, re_.S):
        name, file_, body = arm[1], expand(arm[2]), arm[3]
        if name.endswith(("planted", "-k1-cleared", "-refused")):
            continue  # a copy under a planted build, not the tree's file
        ks = re_.search(r"kernels=\((.*?)\)", body, re_.S)
        words = ks[1].split() if ks else []
        family = name.split("-kernel-")[0]  # the mode: FAMILY-kernel-WHAT
        for sym, needs in zip(words[0::2], words[1::2]):
            path = mpi.get(sym, file_)
            add(path, family, sym, expand(needs))
    aria = re_.search(r"file=\$src/(cipher/aria-\S+)\n.*?ecb=(\S+) ctr=(\S+).*?--needs \"([^\"]+)\"",
                      text, re_.S)
    if aria:
        for sym in aria.group(2, 3):
            add(aria[1], "aria", sym, expand(aria[4]))
    pv = re_.search(r"file=\$src/(cipher/cipher-gcm-riscv-zvkg\.c).*?--symbol (\S+) .*?--needs (\S+)",
                    text, re_.S)
    if pv:
        add(pv[1], "polyval", pv[2], pv[3])
    # cipher-gcm-intel-pclmul.c's POLYVAL mode: its symbol and the pclmul row's needs
    pc = re_.search(r"file=\$src/(cipher/cipher-gcm-intel-pclmul\.c).*?fam=polyval s=(\S+).*?"
                    r"n1=(\S+)", text, re_.S)
    if pc:
        add(pc[1], "polyval", pc[2], pc[3])
    return out


def homes_differ(table, suites):
    """The differences between the homes table's rows and the suites' (every file of both)."""
    diffs = []
    for path in sorted(set(table) | set(suites)):
        row, st = table.get(path), suites.get(path)
        if row is None or st is None:
            diffs.append(f"{path}: only in the {'suites' if row is None else 'homes table'}")
            continue
        if row["family"] != st["family"]:
            diffs.append(f"{path}: family {row['family']} in the table, {st['family']} in the suites")
        if dict(row["kernels"]) != st["kernels"]:
            diffs.append(f"{path}: entry points and needs {dict(row['kernels'])} in the table, "
                         f"{st['kernels']} in the suites")
    return diffs


class Win64Body(unittest.TestCase):
    """check's route for perlasm's Win64 output (build.win64_body): the body assembled as ELF,
    line for line; what only COFF and Windows' unwinder read dropped; the convention guessed."""
    MINGW = textwrap.dedent("""\
        .text
        .globl\tf
        .def\tf;\t.scl 2;\t.type 32;\t.endef
        .p2align\t4
        f:
        \tmovq\t%rdi,8(%rsp)
        .LSEH_begin_f:
        \tmovq\t%rcx,%rdi
        \tmovdqa\t80(%r11),%xmm6
        \t.byte\t0xf3,0xc3
        .section\t.pdata
        .p2align\t2
        .rva\t.LSEH_begin_f
        .section\t.xdata
        .byte\t9,0,0,0
        .rva\tse_handler
        .text
        g:
        \tret
        """)

    def write(self, d, name, text):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_body_keeps_every_line_and_instruction(self):
        from asmdiff.check import build
        with tempfile.TemporaryDirectory() as d:
            src = self.write(d, "f-mingw64.s", self.MINGW)
            self.assertTrue(build.is_win64_perlasm(src))
            body = build.win64_body(src, os.path.join(d, "out"))
            with open(body) as f:
                out = f.read().split("\n")
            ins = self.MINGW.split("\n")
            self.assertEqual(len(out), len(ins))
            for a, b in zip(ins, out):
                if ".def" in a or ".rva" in a or "9,0,0,0" in a or ".pdata" in a or \
                        ".xdata" in a or a == ".p2align\t2":
                    self.assertEqual(b, "", a)
                else:
                    self.assertEqual(b, a)
            # the same text, the same copy (a check build folder reused)
            self.assertEqual(build.win64_body(src, os.path.join(d, "out")), body)

    def test_guess(self):
        from asmdiff.check import build
        with tempfile.TemporaryDirectory() as d:
            w = self.write(d, "w.s", self.MINGW)
            e = self.write(d, "e.s", ".text\nf:\n\tmovq\tOPENSSL_ia32cap_P+4(%rip),%r10\n\tret\n")
            plain = self.write(d, "p.S", ".text\nf:\n\tret\n")
            self.assertEqual(build.guess_convention(w)[0], "win64")
            self.assertEqual(build.guess_convention(e)[0], "openssl")
            self.assertEqual(build.guess_convention(plain)[0], "asmdiff")
            self.assertFalse(build.is_win64_perlasm(e))


class HomesAgree(unittest.TestCase):
    """The homes table (check/homes.py) and the slow suites name the same upstream files with
    the same entry points and CPU needs: neither changes alone."""

    def suites(self):
        from asmdiff import builds
        path = os.path.join(builds.BUILD, "meson-info", "intro-tests.json")
        if not os.path.isfile(path):
            self.skipTest(f"no configured build ({path}): meson's test definitions are read there")
        with open(path) as f:
            linux = linux_suite_homes(json.load(f))
        with open(os.path.join(TOP, "verify", "outside", "libgcrypt_suite.sh")) as f:
            gcrypt = gcrypt_suite_homes(f.read())
        return linux, gcrypt

    def test_agree(self):
        from asmdiff.check import homes
        linux, gcrypt = self.suites()
        self.assertGreaterEqual(len(linux), 14)
        self.assertGreaterEqual(len(gcrypt), 8)
        self.assertEqual(homes_differ(homes.HOMES["linux"], linux), [])
        self.assertEqual(homes_differ(homes.HOMES["libgcrypt"], gcrypt), [])

    def test_a_difference_is_seen(self):
        # the positive control: a table with one need, one symbol or one file changed differs
        import copy
        from asmdiff.check import homes
        linux, gcrypt = self.suites()
        t = copy.deepcopy(homes.HOMES["linux"])
        t["arch/x86/crypto/nh-sse2-x86_64.S"]["kernels"] = [("nh_sse2", "sse2,avx")]
        self.assertEqual(len(homes_differ(t, linux)), 1)
        t = copy.deepcopy(homes.HOMES["libgcrypt"])
        t["mpi/amd64/mpih-add1.S"]["kernels"] = [("_gcry_mpih_add_n", ""), ("_gcry_extra", "")]
        del t["cipher/camellia-gfni-avx2-amd64.S"]
        self.assertEqual(len(homes_differ(t, gcrypt)), 2)


def git_tree(d, files, commits):
    """A git tree in d: files (path: text) as commit 1, then each commit a dict (path: text, or
    None to delete).  Fixed names and dates."""
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@invalid",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@invalid",
               GIT_AUTHOR_DATE="2026-01-01T00:00:00Z", GIT_COMMITTER_DATE="2026-01-01T00:00:00Z",
               GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    git = lambda *a: subprocess.run(["git", "-C", d] + list(a), env=env, check=True,  # noqa
                                    capture_output=True)
    os.makedirs(d, exist_ok=True)
    git("init", "-q", "-b", "main")
    for i, change in enumerate([files] + list(commits)):
        for path, text in change.items():
            full = os.path.join(d, path)
            if text is None:
                os.remove(full)
                continue
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        git("add", "-A")
        git("commit", "-q", "-m", f"commit {i + 1}")


class Changes(unittest.TestCase):
    """check --changes without a check build: the tree's kind, which changed files are covered
    and why the others are not, the commands a covered file gets, the usage errors (exit 2)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="asmdiff-test-changes.")
        self.addCleanup(shutil.rmtree, self.tmp)

    def run_changes(self, argv, fake=None):
        """(exit status, stdout, stderr, records) of check --changes ARGV."""
        from asmdiff.check import changes
        out, err = io.StringIO(), io.StringIO()
        jpath = os.path.join(self.tmp, "records.jsonl")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                mock_env(ASMDIFF_CHECK_JSON=jpath, ASMDIFF_BUILD=os.path.join(self.tmp, "b")), \
                unittest.mock.patch.object(changes.builds, "BUILD", os.path.join(self.tmp, "b")), \
                unittest.mock.patch.object(changes, "run_check", fake or self.no_check):
            try:
                _, a = cli.parse(["check"] + argv)
                rc = cli.cmd_check(a)
            except SystemExit as e:
                rc = e.code
        recs = []
        if os.path.exists(jpath):
            with open(jpath) as f:
                recs = [json.loads(l) for l in f]
            os.remove(jpath)
        return rc, out.getvalue(), err.getvalue(), recs

    def no_check(self, cmd, log):
        self.fail(f"a check ran: {cmd}")

    def test_tree_kinds(self):
        from asmdiff.check import homes
        self.assertEqual(homes.tree_kind({"Kbuild", "arch/", "README"}), "linux")
        self.assertEqual(homes.tree_kind({"cipher/", "src/gcrypt.h.in", "src/"}), "libgcrypt")
        self.assertEqual(homes.tree_kind({"crypto/", "Configure"}), "openssl")
        self.assertIsNone(homes.tree_kind({"arch/", "README"}))
        self.assertIsNone(homes.tree_kind({"cipher/", "src/"}))

    def test_paths(self):
        from asmdiff.check import homes
        row, why = homes.classify("linux", "arch/x86/crypto/nh-sse2-x86_64.S")
        self.assertEqual((row["family"], row["convention"], why), ("nh", "linux", None))
        self.assertEqual(row["kernels"], [("nh_sse2", "sse2")])
        row, why = homes.classify("libgcrypt", "cipher/rijndael-vaes-avx512-amd64.S")
        self.assertEqual(row["with"], ["cipher/rijndael-vaes-avx2-amd64.S"])
        for kind, path in (("linux", "arch/x86/crypto/sha256-avx2-asm.S"),
                           ("linux", "lib/crypto/x86/blake2s-core.S"),
                           ("libgcrypt", "cipher/sha512-avx2-bmi2-amd64.S"),
                           ("libgcrypt", "cipher/chacha20-riscv-v.c"),
                           ("openssl", "crypto/aes/asm/aesni-x86_64.pl")):
            row, why = homes.classify(kind, path)
            self.assertIsNone(row, path)
            self.assertIn("a kernel source with no convention row yet", why, path)
        self.assertIn("none for this tree yet", homes.classify("openssl", "crypto/x.S")[1])
        for kind, path in (("linux", "README"), ("linux", "arch/x86/crypto/nh-sse2-glue.c"),
                           ("linux", "arch/x86/crypto/Makefile"),
                           ("libgcrypt", "cipher/asm-common-amd64.h"),
                           ("libgcrypt", "cipher/rijndael.c"), ("openssl", "crypto/aes/aes_core.c")):
            self.assertEqual(homes.classify(kind, path), (None, "not a kernel source"), path)
        rows = {"kernels": [(str(i), "") for i in range(5)]}
        self.assertEqual([len(g) for g in homes.groups(rows, 2)], [2, 2, 1])

    def test_usage_errors(self):
        not_git = os.path.join(self.tmp, "plain")
        os.makedirs(not_git)
        rc, _, err, recs = self.run_changes(["--changes", "HEAD~1..HEAD", "--tree", not_git])
        self.assertEqual((rc, recs), (2, []))
        self.assertIn("is not in a git work tree", err)
        tree = os.path.join(self.tmp, "t")
        git_tree(tree, {"Kbuild": "x\n", "arch/x86/crypto/Makefile": "x\n"},
                 [{"README": "y\n"}])
        for rng, said in (("HEAD", "is not a range: give BASE..HEAD"),
                          ("..", "is not a range"),
                          ("nope..HEAD", "'nope' (in nope..HEAD) is not a commit of"),
                          ("HEAD~5..HEAD", "'HEAD~5' (in HEAD~5..HEAD) is not a commit")):
            rc, _, err, recs = self.run_changes(["--changes", rng, "--tree", tree])
            self.assertEqual((rc, recs), (2, []), rng)
            self.assertIn(said, err, rng)
        rc, _, err, _ = self.run_changes(["--changes", "HEAD~1..HEAD", "--tree", tree,
                                          "--kernel", "k.S"])
        self.assertEqual(rc, 2)
        self.assertIn("--kernel cannot go with it", err)
        rc, _, err, _ = self.run_changes(["--tree", tree, "nh"])
        self.assertEqual(rc, 2)
        self.assertIn("--tree names the git tree of --changes", err)
        other = os.path.join(self.tmp, "other")
        git_tree(other, {"README": "x\n"}, [{"README": "y\n"}])
        rc, _, err, _ = self.run_changes(["--changes", "HEAD~1..HEAD", "--tree", other])
        self.assertEqual(rc, 2)
        self.assertIn("is not a tree asmdiff knows", err)

    def test_not_covered(self):
        # every reason a changed file is not checked, each on its line; nothing checked is
        # not clean (exit 1)
        tree = os.path.join(self.tmp, "t")
        git_tree(tree, {"Kbuild": "x\n", "README": "a\n", "arch/x86/crypto/sha1-x.S": "a\n",
                        "arch/x86/crypto/nh-sse2-x86_64.S": "a\n"},
                 [{"README": "b\n", "arch/x86/crypto/sha1-x.S": "b\n",
                   "arch/x86/crypto/nh-sse2-x86_64.S": None, "arch/x86/crypto/glue.c": "c\n"}])
        rc, out, _, recs = self.run_changes(["--changes", "HEAD~1..HEAD", "--tree", tree])
        self.assertEqual(rc, 1, out)
        files = {r["file"]: r for r in recs if r["type"] == "changes-file"}
        self.assertEqual(files["README"]["reason"], "not a kernel source")
        self.assertEqual(files["arch/x86/crypto/glue.c"]["reason"], "not a kernel source")
        self.assertIn("no convention row yet", files["arch/x86/crypto/sha1-x.S"]["reason"])
        self.assertEqual(files["arch/x86/crypto/nh-sse2-x86_64.S"]["reason"],
                         "deleted: no file at HEAD to check")
        self.assertFalse(any(f["covered"] for f in files.values()))
        self.assertEqual((recs[-1]["type"], recs[-1]["verdict"], recs[-1]["exit"]),
                         ("check-verdict", "none-covered", 1))
        self.assertIn("checked 0 of 4 changed files: 4 not covered", out)
        self.assertIn("no changed kernel source covered", out)
        self.assertNotIn("changes: clean", out)
        # BASE...HEAD: from their merge base (HEAD~1 here); an empty side is HEAD
        for rng in ("HEAD~1...HEAD", "HEAD~1.."):
            rc2, out2, _, _ = self.run_changes(["--changes", rng, "--tree", tree])
            self.assertEqual(rc2, 1, rng)
            self.assertIn("checked 0 of 4 changed files: 4 not covered", out2, rng)
        # an OpenSSL tree: recognised, no rows yet
        ossl = os.path.join(self.tmp, "o")
        git_tree(ossl, {"Configure": "x\n", "crypto/aes/asm/aesni-x86_64.pl": "a\n"},
                 [{"crypto/aes/asm/aesni-x86_64.pl": "b\n"}])
        rc, out, _, recs = self.run_changes(["--changes", "HEAD~1..HEAD", "--tree", ossl])
        self.assertEqual(rc, 1)
        self.assertIn("OpenSSL tree", out)
        self.assertIn("none for this tree yet", recs[0]["reason"])

    def test_covered_commands(self):
        # a modified file is checked with its BASE file as --baseline (its entry points two a
        # check); a file added since BASE without one (four a check); the verdict from the
        # checks' records; the file's folder at each commit extracted
        ran = []

        def fake(cmd, log):
            ran.append(cmd)
            kernel = cmd[cmd.index("--kernel") + 1]
            with open(kernel) as f:
                text = f.read()
            with open(cmd[cmd.index("--json") + 1], "w") as f:
                bad = "bug" in text
                f.write(json.dumps({"type": "check-row", "check": "kat", "stage": "kat",
                                    "result": "FINDING" if bad else "pass",
                                    "finding": {"kind": "MISMATCH", "implementation":
                                                cmd[cmd.index("--symbol") + 1]} if bad
                                    else None}) + "\n")
                f.write(json.dumps({"type": "check-verdict", "exit": int(bad),
                                    "verdict": "findings" if bad else "clean"}) + "\n")
            return int(bad), ["check: clean"]
        tree = os.path.join(self.tmp, "t")
        aes = "arch/x86/crypto/aes_ctrby8_avx-x86_64.S"
        sym = "".join(f"{s}\n" for s, _ in
                      __import__("asmdiff.check.homes").check.homes.HOMES["linux"][aes]["kernels"])
        git_tree(tree, {"Kbuild": "x\n", aes: sym, "arch/x86/crypto/macros.h": "1\n"},
                 [{aes: sym + "new\n", "arch/x86/crypto/macros.h": "2\n",
                   "arch/x86/crypto/nh-avx2-x86_64.S": "nh_avx2\n"}])
        rc, out, _, recs = self.run_changes(["--changes", "HEAD~1..HEAD", "--tree", tree,
                                             "--budget", "7"], fake)
        self.assertEqual(rc, 0, out)
        self.assertEqual(len(ran), 3)  # aes: 3 entry points with a baseline (2 + 1); nh: 1
        for cmd in ran[:2]:
            self.assertIn("--baseline", cmd)
            base = cmd[cmd.index("--baseline") + 1]
            self.assertTrue(base.endswith("/base/" + aes), base)
            inc = cmd[cmd.index("--baseline-include") + 1]
            self.assertTrue(inc.endswith("verify/outside/linux-compat"), inc)
            self.assertEqual(cmd[cmd.index("--needs") + 1], "avx,aesni")
            self.assertEqual(cmd[cmd.index("--convention") + 1], "linux")
            self.assertEqual(cmd[cmd.index("--budget") + 1], "7")
            # each commit's own files: the header beside the kernel as it was then
            with open(os.path.join(os.path.dirname(base), "macros.h")) as f:
                self.assertEqual(f.read(), "1\n")
        self.assertEqual([c.count("--symbol") for c in ran], [2, 1, 1])
        self.assertNotIn("--baseline", ran[2])
        self.assertEqual(ran[2][ran[2].index("--symbol") + 1], "nh_avx2")
        files = {r["file"]: r for r in recs if r["type"] == "changes-file"}
        self.assertEqual(files["arch/x86/crypto/macros.h"]["reason"], "not a kernel source")
        self.assertEqual(files[aes]["result"], "clean")
        self.assertFalse(files["arch/x86/crypto/nh-avx2-x86_64.S"]["baseline"])
        self.assertIn("added since BASE: checked without a baseline", out)
        self.assertIn("checked 2 of 3 changed files: 2 clean; 1 not covered", out)
        self.assertEqual(recs[-1]["verdict"], "clean")
        self.assertTrue(all(r.get("file") for r in recs if r["type"] == "check-row"))
        # a finding in one check of a file is the file's, and the range's: exit 1
        with open(os.path.join(tree, aes), "a") as f:
            f.write("bug\n")
        subprocess.run(["git", "-C", tree, "commit", "-qam", "bug"], check=True,
                       env=dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@invalid",
                                GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@invalid"))
        ran.clear()
        rc, out, _, recs = self.run_changes(["--changes", "HEAD~2..HEAD", "--tree", tree], fake)
        self.assertEqual(rc, 1, out)
        self.assertIn("1 with findings; 1 clean; 1 not covered", out)
        self.assertIn("aes_ctr_enc_256_avx_by8: kat: FINDING MISMATCH (aes_ctr_enc_256_avx_by8)",
                      out)
        self.assertEqual(recs[-1]["verdict"], "findings")

    def test_new_entry_point(self):
        # an entry point the HEAD file names and the BASE file does not is checked without a
        # baseline (the others with theirs, two to a check), and its line says so
        ran = []

        def fake(cmd, log):
            ran.append(cmd)
            with open(cmd[cmd.index("--json") + 1], "w") as f:
                f.write(json.dumps({"type": "check-verdict", "exit": 0, "verdict": "clean"}) + "\n")
            return 0, []
        from asmdiff.check import homes
        aria = "arch/x86/crypto/aria-aesni-avx2-asm_64.S"
        syms = [s_ for s_, _ in homes.HOMES["linux"][aria]["kernels"]]
        tree = os.path.join(self.tmp, "t")
        git_tree(tree, {"Kbuild": "x\n", aria: "\n".join(syms[:-1]) + "\n"},
                 [{aria: "\n".join(syms) + "\n"}])
        rc, out, _, recs = self.run_changes(["--changes", "HEAD~1..HEAD", "--tree", tree], fake)
        self.assertEqual(rc, 0, out)
        self.assertEqual([("--baseline" in c, c.count("--symbol")) for c in ran],
                         [(True, 2), (True, 2), (False, 1)])
        self.assertEqual(ran[2][ran[2].index("--symbol") + 1], syms[-1])
        # needs given per entry point where they differ (avx2,aesni and avx2,gfni)
        self.assertEqual([ran[1][i + 1] for i, w in enumerate(ran[1]) if w == "--needs"],
                         ["avx2,aesni", "avx2,gfni"])
        self.assertIn(f"{syms[-1]}: not named in the BASE file, checked without a baseline", out)

    def test_header_includers(self):
        # a changed header is not a kernel source, and the unchanged homed files that include
        # it are checked for it, each commit's file built with that commit's header
        ran = []

        def fake(cmd, log):
            ran.append(cmd)
            with open(cmd[cmd.index("--json") + 1], "w") as f:
                f.write(json.dumps({"type": "check-verdict", "exit": 0, "verdict": "clean"}) + "\n")
            return 0, []
        tree = os.path.join(self.tmp, "g")
        cam = "cipher/camellia-gfni-avx2-amd64.S"
        hdr = "cipher/camellia-aesni-avx2-amd64.h"
        syms = " ".join(s for s, _ in
                        __import__("asmdiff.check.homes").check.homes.HOMES["libgcrypt"][cam]["kernels"])
        git_tree(tree, {"src/gcrypt.h.in": "x\n",
                        cam: '#include "camellia-aesni-avx2-amd64.h"\n' + syms + "\n",
                        hdr: "old\n", "cipher/other-amd64.S": "no include\n"},
                 [{hdr: "new\n"}])
        rc, out, _, recs = self.run_changes(["--changes", "HEAD~1..HEAD", "--tree", tree], fake)
        self.assertEqual(rc, 0, out)
        self.assertEqual(len(ran), 2)  # three entry points: two with their old twins, then one
        kernel, base = ran[0][ran[0].index("--kernel") + 1], ran[0][ran[0].index("--baseline") + 1]
        self.assertTrue(kernel.endswith("/head/" + cam) and base.endswith("/base/" + cam))
        for side, text in ((kernel, "new\n"), (base, "old\n")):
            with open(os.path.join(os.path.dirname(side), os.path.basename(hdr))) as f:
                self.assertEqual(f.read(), text)
        files = {r["file"]: r for r in recs if r["type"] == "changes-file"}
        self.assertEqual(files[hdr]["included_by"], [cam])
        self.assertEqual((files[cam]["change"], files[cam]["via"]), ("unchanged", [hdr]))
        self.assertIn("checked 0 of 1 changed file and 1 unchanged file that includes one: "
                      "1 clean; 1 not covered", out)


class Plant(unittest.TestCase):
    """verify/outside/plant.py: the one changed line of a positive control's copy, and a plant
    that finds no line fails instead of copying the file unchanged."""
    script = os.path.join(os.path.dirname(__file__), "..", "..", "verify", "outside", "plant.py")

    def test_plant(self):
        with tempfile.TemporaryDirectory() as d:
            src, dst = os.path.join(d, "a.S"), os.path.join(d, "b.S")
            with open(src, "w") as f:
                f.write("f:\n\tpxor %xmm0,%xmm0\ng:\n\tpxor %xmm0,%xmm0\n\tret\n")
            p = subprocess.run([sys.executable, self.script, src, dst, "g:",
                                "pxor %xmm0,%xmm0", "vpxor %xmm1,%xmm1,%xmm1"],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(dst) as f:
                self.assertEqual(f.read(), "f:\n\tpxor %xmm0,%xmm0\ng:\n"
                                 "\tvpxor %xmm1,%xmm1,%xmm1\n\tret\n")
            p = subprocess.run([sys.executable, self.script, src, dst, "g:", "por %xmm0,%xmm0",
                                "nop"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 1)
            self.assertIn("no line 'por %xmm0,%xmm0' after 'g:'", p.stderr)


class SetAside(unittest.TestCase):
    """results.emulated_set_aside (check --libgcrypt and gcrypt_levels.sh): emulated kernels set
    aside, the first kept when all are, native kernels and libraries never."""
    def recs(self, *rows):
        return [{"type": "impl", "name": n, "kind": k, "emulated": e} for n, k, e in rows]

    def test_rule(self):
        r = self.recs(("a", "kernel", True), ("b", "kernel", False), ("c", "kernel", True),
                      ("libgcrypt-full", "library", True))
        self.assertEqual(results.emulated_set_aside(r), "a;c")
        r = self.recs(("a", "kernel", True), ("c", "kernel", True))
        self.assertEqual(results.emulated_set_aside(r), "c")
        r = self.recs(("a", "kernel", False), ("libgcrypt-full", "library", False))
        self.assertEqual(results.emulated_set_aside(r), "")
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            for x in self.recs(("a", "kernel", True), ("b", "kernel", False), ("c", "kernel", True)):
                f.write(json.dumps(dict(x, v=results.VERSION)) + "\n")
        try:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(results.main([f.name, "set-aside"]), 0)
            self.assertEqual(out.getvalue(), "a;c\n")
        finally:
            os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()
