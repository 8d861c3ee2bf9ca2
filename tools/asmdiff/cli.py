"""cli.py — the commands behind ./asmdiff: the argument parser of each and the dispatch.

./asmdiff checks the command name, runs tools/bootstrap, configures and builds; then it runs
`python3 -m asmdiff COMMAND ARGS` (tools/ on the path).  Each command parses its arguments with
argparse here and runs in a module of its own.

Exit status: 0 clean; 1 a finding or a failed check; 2 bad usage (argparse's message, or ours:
check's are found before anything is built, check/usage.py, an outside file that does not build
among them); 77 nothing could run here.
"""
import argparse
import os
import sys
import textwrap

from . import (bench, builds, check, corpus, coverage, fuzzing, inventory, library, premerge,
               soak, testsets)
from .check import changes, usage
from .builds import die

CHECK_USAGE = ("usage: ./asmdiff check FAMILY (--kernel FILE.S --symbol NAME)... "
               "[--include DIR]... [--with FILE]... [--needs FEATURES]... "
               "[--convention linux|libgcrypt|asmdiff|openssl|win64]... "
               "[--op OP]... "
               "[--budget SECONDS] [--fail-fast] [--bench] [--json FILE] [--junit FILE] "
               "[--markdown FILE] [--sarif FILE [--source-root DIR]] [--baseline OLD.S "
               "[--baseline-symbol NAME] [--baseline-include DIR]...] "
               "[--beside FILE]... [--arch riscv64 [--vlen N]...] "
               "[FILE...]\n"
               "       ./asmdiff check --changes BASE..HEAD [--tree DIR] [--budget SECONDS] "
               "[--fail-fast] [--json FILE]\n"
               "       ./asmdiff check [--libgcrypt PREFIX] [--openssl PREFIX] [FAMILY...] "
               "[--budget SECONDS] [--json FILE] [--junit FILE] [--markdown FILE] [--sarif FILE]")
CONVENTIONS = ("linux", "libgcrypt", "asmdiff", "openssl", "win64")
CHECK_EPILOG = """\
conventions (--convention): linux (Linux's lib/crypto and arch/*/crypto prototypes; leftovers
  in vector registers and the stack are information), libgcrypt (libgcrypt's; leftovers are
  findings where libgcrypt clears them), asmdiff (our own kernels/FAMILY/*.h prototypes),
  openssl (OpenSSL's perlasm output, System V), win64 (perlasm's Win64 output, the mingw64
  flavour, as it is: its body assembled as ELF, every call through the Win64 checked call);
  ./asmdiff list prints each family's conventions with their prototypes.
CPU features (--needs; the other spellings accepted, /proc/cpuinfo's among them, in
parentheses; any case):
""" + "\n".join(textwrap.fill(line, 92, initial_indent="  ", subsequent_indent="    ",
                              break_on_hyphens=False)
                for line in usage.feature_list().split("; ")) + """
usage errors exit 2 before anything is built: an unknown feature, a file that does not build
  (its errors at the file's own lines), a header only one of our compatibility folders has
  (the --include to add), a --symbol the file does not define (the symbols it does define).
--changes BASE..HEAD [--tree DIR]: every kernel source changed between two commits of a
  Linux, libgcrypt or OpenSSL git tree, each checked with its BASE file as --baseline, as the
  homes table (tools/asmdiff/check/homes.py) knows it; a line per changed file, checked or
  why not (not a kernel source, no row yet, deleted; added: no baseline).  Exit 1 also when no
  changed file was covered (zero checked is not a pass); 2 for a bad range or tree.
exit status: 0 clean; 1 a finding, a FAIL row or a row not established; 2 bad usage or a file
  that does not build; 77 nothing could run here.  docs/check-your-patch.md has the details."""
# what an option that lacks its value needed, by its metavar
NEEDS = {"FILE": "a file name", "SECONDS": "a number of seconds", "N": "a number",
         "MINUTES": "a number of minutes", "DIR": "a folder",
         "MODEL": "a CPU model (qemu-x86_64 -cpu help lists them)"}


class Parser(argparse.ArgumentParser):
    """argparse with asmdiff's prefix on its messages and exit 2; an option given without its
    value says what it needs."""

    def error(self, message):
        opt, sep, rest = message.removeprefix("argument ").partition(": ")
        if sep and rest == "expected one argument":
            action = self._option_string_actions.get(opt.split("/")[0])
            need = NEEDS.get(getattr(action, "metavar", None), "a value")
            message = f"{opt} needs {need}"
        elif sep and message.startswith("argument -"):
            message = f"{opt} {rest}"
        self.print_usage(sys.stderr)
        print(f"asmdiff: {self.prog.split()[-1]}: {message}", file=sys.stderr)
        sys.exit(2)


def seconds(text):
    if not text.isdigit() or int(text) <= 0:
        raise argparse.ArgumentTypeError("needs a number of seconds")
    return int(text)


def minutes(text):
    try:
        value = float(text)
    except ValueError:
        value = 0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError("needs a number of minutes above 0")
    return value


def vlen(text):
    if text not in builds.VLENS:
        raise argparse.ArgumentTypeError("must be 128, 256, 512 or 1024")
    return text


def cpu_mhz(text):
    mhz = bench.parse_mhz(text)
    if mhz is None:
        raise argparse.ArgumentTypeError("needs the clock in MHz, a number from 400 to 8000")
    return mhz


def convention(text):
    if text not in CONVENTIONS:
        raise argparse.ArgumentTypeError("must be linux, libgcrypt, asmdiff, openssl or win64")
    return text


def parsers():
    """{command: its parser} (the top parser holds them for -h)."""
    top = Parser(prog="asmdiff", allow_abbrev=False,
                 description="differential fuzzing and verification of optimized crypto kernels")
    sub = top.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    def add(name, help_, **kw):
        return sub.add_parser(name, help=help_, description=help_, allow_abbrev=False, **kw)

    p = {}
    p["test"] = t = add("test", "the project's test suite (meson test): the fast set, --slow, "
                                "--all, or the named suites")
    t.add_argument("--slow", action="store_true", help="the slow integration proofs")
    t.add_argument("--all", action="store_true", help="both sets, fast first")
    t.add_argument("--host-cpu", metavar="MODEL",
                   help="as if on that x86-64 CPU: every test program under qemu-x86_64 -cpu "
                        "MODEL (e.g. Haswell, EPYC-Milan; docs/host-profiles.md)")
    t.add_argument("suites", nargs="*", metavar="SUITE")

    p["list"] = add("list", "every registered implementation, and whether this host runs it")

    p["fuzz"] = f = add("fuzz", "fuzz a family (until stopped or -max_total_time=N), or reproduce "
                                "a finding from its file(s)", add_help=False)
    # no -h: every single-dash argument is libFuzzer's (-help=1 included)
    f.add_argument("--help", action="help", help="show this help message and exit")
    f.add_argument("family", nargs="?", metavar="FAMILY")
    f.add_argument("--vlen", type=vlen, metavar="N",
                   help="riscv64 families: qemu-riscv64's VLEN (128, 256, 512, 1024; default 256)")
    f.add_argument("files", nargs="*", metavar="libFuzzer args | FILE")

    p["bench"] = b = add("bench", "bench-slope table: every implementation and peer side by side")
    b.add_argument("--csv", action="store_true", help="CSV (x86-64 families)")
    b.add_argument("--cpu-mhz", type=cpu_mhz, metavar="MHZ",
                   help="the clock for cycles/byte (default: estimated once, the same for "
                        "every table of the run)")
    b.add_argument("families", nargs="*", metavar="FAMILY")

    p["premerge"] = m = add("premerge", "the pre-merge check: every test suite, each family "
                                        "fuzzed, the bench tables, a summary table")
    m.add_argument("--budget", type=seconds, default=60, metavar="SECONDS",
                   help="fuzzing time per family (default 60)")
    m.add_argument("--markdown", metavar="FILE", help="the summary table as Markdown")
    m.add_argument("--junit", metavar="FILE", help="the tests and fuzz runs as JUnit XML")
    m.add_argument("--sarif", metavar="FILE", help="the findings as SARIF 2.1.0")
    m.add_argument("families", nargs="*", metavar="FAMILY")

    p["soak"] = s = add("soak", "each family fuzzed for an hour (--minutes) from its seeds into "
                                "a fresh corpus: execs, exec/s first and last minute, execs "
                                "per CPU second, peak RSS, findings, corpus growth")
    s.add_argument("--minutes", type=minutes, default=60, metavar="MINUTES",
                   help="fuzzing time per family (default 60; a fraction is allowed)")
    s.add_argument("--serial", action="store_true",
                   help="one family after another (default: side by side)")
    s.add_argument("--vlen", type=vlen, action="append", metavar="N",
                   help="riscv64 families: fuzz at this VLEN (repeat for several; default 256)")
    s.add_argument("--markdown", metavar="FILE", help="the table as Markdown")
    s.add_argument("--json", metavar="FILE", help="every number as JSON")
    s.add_argument("--out", metavar="DIR",
                   help="the soak's folder: corpora, findings, logs (default build/soak/TIME)")
    s.add_argument("--fuzzer", metavar="FILE",
                   help="run this fuzzer binary in place of the family's (one family; the "
                        "test's planted-bug control)")
    s.add_argument("families", nargs="*", metavar="FAMILY")

    p["check"] = c = add("check", "an outside kernel as one more implementation, or the "
                                  "families a library build of your own implements",
                         usage=CHECK_USAGE.removeprefix("usage: "), epilog=CHECK_EPILOG,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    # repeatable: each --kernel with its --symbol in order (or one --kernel, several --symbol);
    # --needs, --convention, --op once for all or once per --symbol
    c.add_argument("--kernel", action="append", default=[], metavar="FILE.S",
                   help="the outside source to check (.S or .c; repeatable, paired in order "
                        "with --symbol; up to ten kernels with --baseline's). No default")
    c.add_argument("--symbol", action="append", default=[], metavar="NAME",
                   help="the entry point to check, a global symbol of its --kernel file "
                        "(repeatable: one per --kernel, or several for one --kernel). No "
                        "default: without it the check lists the file's global functions")
    c.add_argument("--include", action="append", default=[], metavar="DIR",
                   help="a folder the kernel's #include are searched in, before ours "
                        "(verify/outside/include, always searched last); repeatable. Default: "
                        "none; a header only our verify/outside/linux-compat (linux "
                        "convention) or libgcrypt-riscv (libgcrypt, riscv64) has is added by "
                        "itself")
    # a file of the kernel's tree its entry points call or jump to (libgcrypt's AVX-512 AES
    # file hands its tails to the AVX2 one): compiled and linked beside each --kernel
    c.add_argument("--with", dest="with_", action="append", default=[], metavar="FILE",
                   help="another file of the kernel's tree its entry points call or jump into: "
                        "compiled with the same folders and linked into each kernel of its "
                        "folder (but a kernel that is the file itself); repeatable. Default: none")
    c.add_argument("--needs", action="append", default=[], metavar="FEATURES",
                   help="the CPU features the kernel needs, separated by commas (once for all "
                        "or once per --symbol): it runs natively where the CPU has them, in the "
                        "emulator elsewhere. Default: from its instructions (AVX-512 and GFNI), "
                        "else none. Known: " + usage.feature_list().replace("%", "%%"))
    c.add_argument("--convention", action="append", default=[], type=convention,
                   metavar="linux|libgcrypt|asmdiff",
                   help="the calling convention of the entry point (once for all or once per "
                        "--symbol): linux, libgcrypt or asmdiff (ours: kernels/FAMILY/*.h); "
                        "./asmdiff list prints each family's. Default: from the includes "
                        "(<linux/...>: linux; sysdep.h or asm-common-amd64.h: libgcrypt; "
                        "neither: asmdiff)")
    c.add_argument("--op", action="append", default=[], metavar="OP",
                   help="the family's operation the entry point computes (add_n, ecb, ctr, "
                        "...; once for all or once per --symbol). Default: identified on a "
                        "known answer, else from its name; an --op the kernel does not compute "
                        "is refused")
    c.add_argument("--baseline", metavar="OLD.S",
                   help="the file before the patch: one more oracle (new-vs-old rows), and "
                        "benched beside the new one. Default: none")
    c.add_argument("--baseline-symbol", action="append", default=[], metavar="NAME",
                   help="the old file's entry point for each --symbol (once for all or once "
                        "per --symbol). Default: the same name as --symbol")
    c.add_argument("--baseline-include", action="append", default=[], metavar="DIR",
                   help="the old file's include folders (repeatable). Default: --include's")
    c.add_argument("--budget", type=seconds, default=60, metavar="SECONDS",
                   help="libFuzzer's time per fuzz stage (and with --libgcrypt/--openssl per "
                        "family and level). Default: 60")
    c.add_argument("--bench", action="store_true",
                   help="after the stages, bench the outside kernels beside ours and the "
                        "libraries in one process (--baseline does too, with old/new). "
                        "Default: off")
    c.add_argument("--fail-fast", action="store_true",
                   help="stop after the first stage with a finding (its rows, and with "
                        "--baseline the new-vs-old rows, are kept; later stages, coverage and "
                        "the bench are not run). Default: off")
    # riscv64: the kernel built for riscv64 and run under qemu-riscv64 (RVV intrinsics in C are
    # found without --arch); --vlen chooses VLENs; --beside (both architectures) copies a file
    # next to the kernel
    c.add_argument("--arch", choices=("riscv64", "x86_64"), metavar="riscv64|x86_64",
                   help="the architecture the kernel is for: riscv64 builds it with the riscv64 "
                        "cross build and runs it under qemu-riscv64. Default: riscv64 for RVV "
                        "intrinsics in C or RISC-V vector assembly (.option arch, vsetvli), "
                        "else x86_64")
    c.add_argument("--beside", action="append", default=[], metavar="FILE",
                   help="a file copied next to the kernel before it is built (a header it "
                        "includes with quotes, which must be found before its tree's own); "
                        "repeatable. Default: none")
    c.add_argument("--vlen", action="append", default=[], choices=("128", "256", "512", "1024"),
                   metavar="N",
                   help="riscv64: a VLEN qemu-riscv64 runs every stage at (128, 256, 512 or "
                        "1024; repeatable). Default: all four")
    c.add_argument("--libgcrypt", metavar="PREFIX",
                   help="check a libgcrypt installed under PREFIX (make install) instead of a "
                        "--kernel: the families it implements, at each of its hardware-feature "
                        "levels. Default: none")
    c.add_argument("--openssl", metavar="PREFIX",
                   help="the same for an OpenSSL installed under PREFIX. Default: none")
    c.add_argument("--changes", metavar="BASE..HEAD",
                   help="in a git tree of Linux, libgcrypt or OpenSSL: every kernel source "
                        "changed between the two commits (BASE...HEAD: from their merge base), "
                        "checked as the homes table (tools/asmdiff/check/homes.py) says (its "
                        "family, convention, entry points, CPU needs, include folders), the "
                        "file at BASE its --baseline; then a line per changed file (checked, or "
                        "why not) and a count. Exit 1 on a finding and when no changed file "
                        "was covered. Default: none")
    c.add_argument("--tree", metavar="DIR",
                   help="with --changes: the git work tree (any folder in it). Default: the "
                        "current folder")
    c.add_argument("--sarif", metavar="FILE",
                   help="the findings as SARIF 2.1.0, each on its file (relative to "
                        "--source-root) at the instruction's line, else the entry point's. "
                        "Default: none")
    c.add_argument("--json", metavar="FILE",
                   help="the verdict as JSON lines: a check-row record per row, then the "
                        "check-verdict record (docs/results.md); ASMDIFF_CHECK_JSON=FILE in the "
                        "environment does the same. Default: none")
    c.add_argument("--junit", metavar="FILE",
                   help="the verdict as JUnit XML: a testcase per row (FINDING, FAIL and rows "
                        "not established fail; n/a and skip are skipped). Default: none")
    c.add_argument("--markdown", metavar="FILE",
                   help="the verdict table as Markdown, for a pull request comment. Default: "
                        "none")
    c.add_argument("--source-root", metavar="DIR",
                   help="the repository root SARIF's URIs (and the JSON's finding.location) "
                        "are relative to. Default: the git top level of the kernel file's "
                        "folder, else that folder")
    c.add_argument("args", nargs="*", metavar="FAMILY | FILE",
                   help="the family first (" + (", ".join(sorted(builds.families())) or
                                                "./asmdiff list names them") +
                        "); then, to reproduce a finding, its saved input file(s)")

    p["coverage"] = v = add("coverage", "which instructions, blocks and branch directions of "
                                        "each kernel the seeds (and CORPUS...) reached: table, "
                                        "annotated listing, HTML page")
    v.add_argument("family", metavar="FAMILY")
    v.add_argument("corpus", nargs="*", metavar="CORPUS")
    v.add_argument("--seeds", metavar="DIR", help="another seed corpus (default corpus/FAMILY/seeds)")
    v.add_argument("--kat", action="store_true", help="the published vectors too")
    v.add_argument("--html", metavar="FILE", help="the HTML page (default findings/coverage/FAMILY.html)")
    v.add_argument("--out", metavar="DIR", help="folder of the listing and page (default findings/coverage)")
    v.add_argument("--json", metavar="FILE", help="the per-kernel numbers as JSON")
    v.add_argument("--baseline", metavar="FILE", help="the baseline file (default verify/coverage_baseline.json)")
    v.add_argument("--check-baseline", action="store_true",
                   help="fail when a kernel reaches less than the baseline records")
    v.add_argument("--write-baseline", action="store_true", help="record the numbers as the baseline")

    p["corpus"] = k = add("corpus", "copy the inputs of DIR... that add coverage into "
                                    "corpus/FAMILY/seeds",
                          usage="./asmdiff corpus merge FAMILY DIR...")
    k.add_argument("action", choices=["merge"])
    k.add_argument("family", metavar="FAMILY")
    k.add_argument("dirs", nargs="+", metavar="DIR")

    p["inventory"] = v = add("inventory", "the VEX/EVEX instruction forms of objects, archives "
                                          "and shared objects, and which the vector executor "
                                          "runs (docs/vector-executor.md)")
    v.add_argument("--csv", action="store_true", help="one CSV row per form and object")
    v.add_argument("--unsupported", action="store_true",
                   help="list the forms the executor lacks (CSV: only those rows)")
    v.add_argument("--require-all", action="store_true",
                   help="exit 1 when any form is unsupported")
    v.add_argument("files", nargs="+", metavar="FILE")
    return top, p


def unknown_options(command, extras, usage=""):
    """Arguments argparse did not take: the first is reported."""
    for a in extras:
        if a.startswith("-"):
            die(f"{command}: unknown option '{a}'" + (f"\n{usage}" if usage else ""))
    if extras:
        die(f"{command}: unexpected argument '{extras[0]}'" + (f"\n{usage}" if usage else ""))


def cmd_check(a):
    if a.tree and not a.changes:
        die("check: --tree names the git tree of --changes: give --changes BASE..HEAD")
    if a.changes:
        given = [o for o, v in (("FAMILY", a.args), ("--kernel", a.kernel), ("--symbol", a.symbol),
                                ("--baseline", a.baseline), ("--libgcrypt", a.libgcrypt),
                                ("--openssl", a.openssl), ("--include", a.include),
                                ("--with", a.with_), ("--needs", a.needs),
                                ("--convention", a.convention), ("--op", a.op),
                                ("--baseline-symbol", a.baseline_symbol),
                                ("--baseline-include", a.baseline_include), ("--arch", a.arch),
                                ("--beside", a.beside), ("--vlen", a.vlen),
                                ("--sarif", a.sarif)) if v]
        if given:
            die(f"check: --changes finds each file's family, entry points and folders itself "
                f"(the homes table): {', '.join(given)} cannot go with it\n{CHECK_USAGE}")
        return changes.check_changes(a)
    if a.libgcrypt or a.openssl:
        if a.kernel or a.symbol:
            die("check: --libgcrypt/--openssl test a library; --kernel tests one file: one at a "
                "time")
        if a.fail_fast:
            die("check: --fail-fast applies to a --kernel check (a library's levels each run "
                "to their end)")
        if a.source_root:
            die("check: --source-root places a --kernel file's findings; a library check has "
                "no file of yours to place them on")
        a.files = a.args
        return library.check_library(a)
    if a.args and a.kernel and not a.symbol:
        # which entry point? the file's global functions, from the file built alone
        builds.check_family(a.args[0], builds.families())
        usage.no_symbol(a, check.check_arch(a, [{"kernel": k} for k in a.kernel
                                                 if os.path.isfile(k)]))
    if not a.args or not a.kernel or not a.symbol:
        die(CHECK_USAGE)
    if a.source_root and not os.path.isdir(a.source_root):
        die(f"--source-root: no folder {a.source_root}")
    a.family, a.files = a.args[0], a.args[1:]
    return check.check_outside(a)


COMMANDS = {"test": testsets.cmd_test, "list": builds.cmd_list, "fuzz": fuzzing.cmd_fuzz,
            "bench": bench.cmd_bench, "premerge": premerge.premerge, "check": cmd_check,
            "corpus": corpus.cmd_corpus, "inventory": inventory.cmd_inventory,
            "coverage": coverage.cmd_coverage, "soak": soak.cmd_soak}


def parse(argv):
    """(command, namespace) of argv; bad usage exits 2 with a message."""
    if not argv:
        die("usage: asmdiff COMMAND [ARGS] (commands: " + ", ".join(COMMANDS) + ")")
    top, p = parsers()
    command = argv[0]
    if command in ("-h", "--help", "help"):
        top.print_help()
        sys.exit(0)
    if command not in p:
        die(f"unknown command '{command}'")
    # intermixed: options and names in any order (premerge aria --budget 5 nh)
    a, extras = p[command].parse_known_intermixed_args(argv[1:])
    if command == "fuzz":
        a.rest = extras + a.files  # libFuzzer's flags are libFuzzer's to judge
    elif command == "list":
        if extras:
            die("list takes no arguments")
    elif command == "test":
        unknown_options("test", extras, testsets.TEST_USAGE)
    elif command == "check":
        unknown_options("check", extras, CHECK_USAGE)
    else:
        unknown_options(command, extras)
    return command, a


def main(argv):
    command, a = parse(argv)
    lib, ossl = os.environ.get("ASMDIFF_LIBGCRYPT_PREFIX"), os.environ.get("ASMDIFF_OPENSSL_PREFIX")
    if (lib or ossl) and command in ("list", "fuzz", "bench"):
        # the same commands on a build against the author's own libraries (build/lib-<hash>)
        builds.use_lib_build(lib, ossl, fuzzers=command == "fuzz")
    return COMMANDS[command](a)
