#!/usr/bin/env python3
"""changes_tree.py — `./asmdiff check --changes` on the shape of the seeds: a git tree of two
commits, the upstream file as it ships (commit 1) and the file after a patch (commit 2) at the
same path, made here from files already on this machine (never downloaded).

    changes_tree.py make TREE VARIANT DIR        make the tree in DIR (an empty or new folder)
    changes_tree.py run TREE VARIANT [ARG...] -- EXPECT...
        make it in a temporary folder and run verify/expect_records.py EXPECT... --
        tools/asmdiff_cmd.py check --changes HEAD~1..HEAD --tree DIR --budget 5 [ARG...]

TREE and its commit 1:
  linux-nh    Linux 6.12's arch/x86/crypto/nh-sse2-x86_64.S (with the tree's Kbuild and
              README), from $ASMDIFF_LINUX_SRC or $ASMDIFF_BUILD/lib-cache/linux-6.12 (the slow
              set's setup unpacks it: tools/get_linux_source)
  gcrypt-mpi  libgcrypt 1.12.4's mpi/amd64/mpih-add1.S (with src/gcrypt.h.in and
              cipher/Makefile.am, so the tree is one), from $ASMDIFF_LIBGCRYPT_SRC or the
              sources tools/build_libgcrypt keeps under $ASMDIFF_BUILD/lib-cache (it fetches
              them once, as the libgcrypt-1.12 suite does)
VARIANT, commit 2:
  clean    the file replaced by our fixture in the same convention and prototype
           (verify/outside/fixtures/nh-sse2-linux.S: NH SSE2 written for asmdiff in Linux's
           style, the function Linux's file defines, nh_sse2; mpih-add1-gcrypt.S: add_n in
           libgcrypt's, _gcry_mpih_add_n): a rewrite of the file, as a patch would make it
  planted  the fixture with its planted bug (nh-sse2-linux-wrong-shuffle.S,
           mpih-add1-gcrypt-dropped-carry.S), its #include of the clean fixture made inline
           (a tree file stands alone)
  readme   only README changed: no kernel source to check
The commits are made with fixed names and dates, so a tree made again has the same commit ids
(and --changes reuses its folder, build/changes/<key>, and its check builds).
A missing source is a skip (77) naming it, a failure under ASMDIFF_STRICT=1 (verify/missing.sh's
meaning)."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
FX = os.path.join(HERE, "fixtures")
BUILD = os.environ.get("ASMDIFF_BUILD", os.path.join(TOP, "build"))
TREES = {
    # tree: (kernel path, clean fixture, planted fixture, the tree's other files)
    "linux-nh": ("arch/x86/crypto/nh-sse2-x86_64.S", "nh-sse2-linux.S",
                 "nh-sse2-linux-wrong-shuffle.S", ("Kbuild", "README")),
    "gcrypt-mpi": ("mpi/amd64/mpih-add1.S", "mpih-add1-gcrypt.S",
                   "mpih-add1-gcrypt-dropped-carry.S",
                   ("src/gcrypt.h.in", "cipher/Makefile.am", "README")),
}


def missing(what, provider):
    if os.environ.get("ASMDIFF_STRICT") == "1":
        print(f"FAIL: {what} (ASMDIFF_STRICT=1: provided by {provider}, so its absence is a "
              "failure, not a skip)")
        sys.exit(1)
    print(f"SKIP: {what}")
    sys.exit(77)


def source(tree):
    """The upstream tree the first commit's files come from."""
    if tree == "linux-nh":
        src = os.environ.get("ASMDIFF_LINUX_SRC") or os.path.join(BUILD, "lib-cache",
                                                                 "linux-6.12")
        if not os.path.isfile(os.path.join(src, TREES[tree][0])):
            missing(f"Linux sources not found: set ASMDIFF_LINUX_SRC or run "
                    f"tools/get_linux_source ({src}/{TREES[tree][0]} is missing)",
                    "the slow set's setup (tools/get_linux_source)")
        return src
    if os.environ.get("ASMDIFF_LIBGCRYPT_SRC"):
        src = os.environ["ASMDIFF_LIBGCRYPT_SRC"]
        if not os.path.isfile(os.path.join(src, TREES[tree][0])):
            missing(f"libgcrypt sources not found: {src}/{TREES[tree][0]} is missing "
                    "(ASMDIFF_LIBGCRYPT_SRC)", "ASMDIFF_LIBGCRYPT_SRC")
        return src
    cache = os.path.join(BUILD, "lib-cache")
    found = sorted(glob.glob(os.path.join(cache, "src", "libgcrypt20-*", "")))
    if not found:
        # the libgcrypt-1.12 suite's own way to them (a second run returns at once)
        p = subprocess.run([os.path.join(TOP, "tools", "build_libgcrypt"), cache],
                           capture_output=True, text=True)
        found = sorted(glob.glob(os.path.join(cache, "src", "libgcrypt20-*", "")))
        if p.returncode or not found:
            print(p.stderr[-2000:])
            missing("libgcrypt 1.12's sources could not be had here (tools/build_libgcrypt "
                    f"exit {p.returncode}, above)", "tools/build_libgcrypt (the slow set)")
    return found[-1]


def standalone(fixture):
    """A fixture's text with its #include of the clean fixture made inline."""
    with open(os.path.join(FX, fixture)) as f:
        text = f.read()
    for line in text.splitlines():
        if line.startswith("#include \"") and line.endswith(".S\""):
            inner = line.split('"')[1]
            with open(os.path.join(FX, inner)) as f:
                return text.replace(line, f.read(), 1)
    return text


def make(tree, variant, d):
    if tree not in TREES or variant not in ("clean", "planted", "readme"):
        print(f"changes_tree.py: no tree '{tree}' or variant '{variant}' (trees: "
              f"{', '.join(TREES)}; variants: clean, planted, readme)", file=sys.stderr)
        sys.exit(2)
    path, clean, planted, others = TREES[tree]
    src = source(tree)
    os.makedirs(d, exist_ok=True)
    env = dict(os.environ, GIT_AUTHOR_NAME="asmdiff", GIT_AUTHOR_EMAIL="asmdiff@invalid",
               GIT_COMMITTER_NAME="asmdiff", GIT_COMMITTER_EMAIL="asmdiff@invalid",
               GIT_AUTHOR_DATE="2026-01-01T00:00:00Z", GIT_COMMITTER_DATE="2026-01-01T00:00:00Z",
               GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)

    def git(*args):
        subprocess.run(["git", "-C", d] + list(args), env=env, check=True,
                       stdout=subprocess.DEVNULL)

    git("init", "-q", "-b", "main")
    for f in (path,) + others:
        os.makedirs(os.path.dirname(os.path.join(d, f)) or d, exist_ok=True)
        if os.path.isfile(os.path.join(src, f)):
            shutil.copyfile(os.path.join(src, f), os.path.join(d, f))
        else:  # a tree with no README at its top (libgcrypt's is README, Linux's too)
            with open(os.path.join(d, f), "w") as out:
                out.write(f"{f}\n")
    git("add", "-A")
    git("commit", "-q", "-m", f"{os.path.basename(src.rstrip('/'))}'s {path}")
    if variant == "readme":
        with open(os.path.join(d, "README"), "a") as out:
            out.write("\nA line of documentation.\n")
        git("commit", "-q", "-a", "-m", "README: one line more")
    else:
        with open(os.path.join(d, path), "w") as out:
            out.write(standalone(clean if variant == "clean" else planted))
        git("commit", "-q", "-a", "-m", f"{path}: our {variant} fixture")
    print(f"changes_tree.py: {d}: {tree}, commit 2 {variant}")


def main(argv):
    if len(argv) == 4 and argv[0] == "make":
        make(argv[1], argv[2], argv[3])
        return 0
    if len(argv) >= 4 and argv[0] == "run" and "--" in argv:
        tree, variant = argv[1], argv[2]
        extra = argv[3:argv.index("--")]
        expects = argv[argv.index("--") + 1:]
        with tempfile.TemporaryDirectory(prefix="asmdiff-changes.") as d:
            make(tree, variant, d)
            cmd = [sys.executable, os.path.join(TOP, "verify", "expect_records.py")] + \
                expects + ["--", sys.executable, os.path.join(TOP, "tools", "asmdiff_cmd.py"),
                           "check", "--changes", "HEAD~1..HEAD", "--tree", d,
                           "--budget", "5"] + extra
            return subprocess.run(cmd).returncode
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
