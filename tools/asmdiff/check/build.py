"""build.py — the check build: the outside kernels of a command (their slots, conventions and
needs), the architecture they are for, meson setup and compile of the build folder."""
import contextlib
import fcntl
import hashlib
import os
import re
import shutil
import subprocess

from .. import builds
from ..builds import TOP, die
from .usage import diagnostics, normalize_needs


# perlasm's Win64 output (OpenSSL's mingw64 flavour): COFF symbol records, SEH unwind
# directives and the tables Windows' unwinder reads
WIN64_LINE = re.compile(r"^\s*(\.def\b.*\.endef\s*$|\.seh_\w+|\.rva\b|\.secrel32\b)")
WIN64_TABLES = re.compile(r"^\s*\.section\s+\.(pdata|xdata)\b")
SECTION = re.compile(r"^\s*(\.section\b|\.text\b|\.data\b|\.bss\b)")


def is_win64_perlasm(path):
    """Whether a file is perlasm's Win64 output (the mingw64 flavour: `.def NAME; .scl 2;
    .type 32; .endef` records and the .pdata/.xdata tables)."""
    if path.endswith((".c", ".h")):
        return False
    with open(path, errors="replace") as f:
        text = f.read()
    return bool(re.search(r"^\s*\.def\s+\S+;\s*\.scl\b", text, re.M)) and \
        bool(re.search(r"^\s*\.section\s+\.pdata\b", text, re.M))


def win64_body(path, outdir):
    """perlasm's Win64 output assembled as ELF: a copy in outdir whose instructions, constants
    and labels are the file's own, line for line, without what only a COFF object and Windows'
    unwinder read: the `.def ... .endef` symbol records, `.seh_*` directives and the .pdata and
    .xdata sections (the unwind tables, `.rva` entries).  Each dropped line stays as an empty
    one, so every line number (findings, coverage) is the file's own.  Why this route and not
    loading the COFF object: the bytes of every function are what the assembler makes of the
    same instructions either way, and as ELF the file joins every stage a check has (the
    check build, DWARF lines, the emulator, coverage, libFuzzer) with nothing new to trust;
    the Windows-ness that matters, the calling convention, is the Win64 checked call's
    (fuzz/harness/abi_win64_x86_64.S).  The copy is a .S: perlasm's output has no line the C
    preprocessor acts on, and the check build's flags then apply to it without warnings.  The
    path of the copy."""
    with open(path, errors="replace") as f:
        lines = f.read().split("\n")
    out, dropping = [], False
    for line in lines:
        if WIN64_TABLES.match(line):
            dropping = True
        elif dropping and SECTION.match(line):
            dropping = False
        out.append("" if dropping or WIN64_LINE.match(line) else line)
    text = "\n".join(out)
    os.makedirs(outdir, exist_ok=True)
    key = hashlib.sha1(text.encode()).hexdigest()[:10]
    dest = os.path.join(outdir, f"{os.path.splitext(os.path.basename(path))[0]}-win64-body-"
                                f"{key}.S")
    if not os.path.isfile(dest):
        with open(dest + ".tmp", "w") as f:
            f.write(text)
        os.replace(dest + ".tmp", dest)
    return dest


def guess_convention(path, depth=0):
    """The convention a source is written in, from the headers it (or a neighbour it includes
    by a quoted name) includes, or perlasm's marks (OpenSSL's generated files)."""
    with open(path, errors="replace") as f:
        text = f.read()
    if is_win64_perlasm(path):
        return "win64", "it is perlasm's Win64 output (.def records, .pdata tables)"
    if re.search(r"\bOPENSSL_ia32cap_P\b", text) and not path.endswith((".c", ".h")):
        return "openssl", "it is perlasm's output (it reads OPENSSL_ia32cap_P)"
    if depth < 3:
        for inc in re.findall(r'#\s*include\s*"([^"]+)"', text):
            near = os.path.join(os.path.dirname(path), inc)
            if os.path.isfile(near):
                conv, why = guess_convention(near, depth + 1)
                if conv != "asmdiff":
                    return conv, why
    if re.search(r"#\s*include\s*<linux/", text):
        return "linux", "it includes <linux/...>"
    if re.search(r'#\s*include\s*[<"](asm-common-amd64\.h|sysdep\.h)', text):
        return "libgcrypt", "it includes libgcrypt's assembly headers"
    return "asmdiff", "no Linux or libgcrypt header is included"


_held_locks = {}


@contextlib.contextmanager
def build_lock(bdir):
    """One process at a time configures and compiles a check build folder, and none while
    another runs what it built: two checks of the same kernels (a test and its finding-test
    twin, run side by side) would otherwise both run meson in it, and one relinks the tool
    while the other is running it (CI saw the second's exec of the tool fail mid-check).  The
    build holds the lock exclusively; after it, this process keeps a shared lock until it
    exits (the file stays open), so checks that only run the folder's programs run side by
    side, and one that must build waits for them to end."""
    os.makedirs(os.path.dirname(bdir), exist_ok=True)
    f = _held_locks.get(bdir)
    if f is None:
        # not inherited by the programs a check runs (Python opens files non-inheritable)
        f = _held_locks[bdir] = open(bdir + ".lock", "w")
    fcntl.flock(f, fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(f, fcntl.LOCK_SH)


def compile_check_build(v, bdir, targets):
    """Compile the check build's targets (niced: a check runs beside the user's work); on failure
    the compiler's errors are printed and the build row fails.  True when it built."""
    builds.compiler_command()  # (the cache folder, for a build configured by an earlier check)
    p = subprocess.run(["nice", "-n", "10", "meson", "compile", "-C", bdir] + targets,
                       capture_output=True, text=True)
    if not p.returncode:
        return True
    # the outside files built alone before (usage.precheck): what fails here is the link or
    # our side; the errors at their file:line, repeats merged, as there
    errs = diagnostics(p.stdout + p.stderr) or compiler_errors(p.stdout + p.stderr)
    print("\n".join(errs[:30]))
    v.add("build", "FAIL", (errs[0] if errs else "meson compile failed") +
          f" (full log: meson compile -C {bdir} {' '.join(targets)})")
    return False


def compiler_errors(text):
    """The compiler's or linker's own words first (file:line: error, undefined reference)."""
    lines = text.splitlines()
    return [l for l in lines if any(s in l for s in ("undefined reference", ": error:", "Error:"))
            and not l.startswith(("clang", "gcc", "cc:", "FAILED"))] or \
        [l for l in lines if "error" in l or "Error" in l]


def configure(bdir, family, slots, cross=None, cross_fuzzer_runtime=""):
    """meson setup of a check build of these kernels: the outside_* options, one element each
    (meson.build); with cross, a cross build (riscv64), with fuzzers when cross_fuzzer_runtime
    names riscv64's libFuzzer archive (the default riscv64 build's)."""
    def arr(key):
        # meson reads a [...] value as a literal; "i|VALUE": equal values made distinct
        return repr([f"{i}|{sl[key]}" for i, sl in enumerate(slots)])
    incs = [f"{i}|{d}" for i, sl in enumerate(slots) for d in sl["includes"]]
    opts = [f"-Doutside_family={family}", "-Doutside_source=" + arr("kernel"),
            "-Doutside_symbol=" + arr("symbol"), "-Doutside_convention=" + arr("conv"),
            "-Doutside_needs=" + arr("needs"), "-Doutside_op=" + arr("op"),
            "-Doutside_name=" + arr("name"),
            "-Doutside_include=" + repr(incs),
            "-Doutside_with=" + repr([f"{i}|{f}" for i, sl in enumerate(slots)
                                      for f in sl.get("with", [])])]
    env = dict(os.environ, CC=builds.compiler_command())
    kind = ["-Dfuzzing=auto"]
    if cross:
        kind = ["--cross-file", cross] + ([f"-Driscv_fuzzer_runtime={cross_fuzzer_runtime}"]
                                          if cross_fuzzer_runtime else ["-Dfuzzing=disabled"])
    p = subprocess.run(["meson", "setup"] + kind + opts + [bdir, TOP], env=env,
                       capture_output=True, text=True)
    if p.returncode:
        print(p.stdout[-3000:] + p.stderr[-2000:])
    return p.returncode == 0


def per_kernel(values, n, what):
    """An option given once (for every kernel) or once per kernel, as a list of n."""
    if len(values) <= 1:
        return (values or [""]) * n
    if len(values) != n:
        die(f"check: {len(values)} {what} for {n} kernels: give one for all, or one per "
            "--symbol, in the same order")
    return values


def outside_slots(a):
    """The outside kernels of the command, in order: each --kernel with its --symbol (or one
    --kernel with every --symbol), then with --baseline the old file's same entry points.
    Each a dict: kernel, symbol, includes, conv (and why), needs (and whether scanned), op,
    name (in rows and findings), role ("new", or "old": the --baseline file's), pair (the new
    kernel an old one is compared with)."""
    kernels, symbols = a.kernel, a.symbol
    if len(kernels) == 1 and len(symbols) > 1:
        kernels = kernels * len(symbols)
    if len(kernels) != len(symbols):
        die(f"check: {len(a.kernel)} --kernel and {len(symbols)} --symbol: give one --symbol "
            "per --kernel (paired in order), or one --kernel with several --symbol")
    for k in dict.fromkeys(kernels):
        if not os.path.isfile(k):
            die(f"--kernel: no file {k}")
    includes = [os.path.abspath(d) for d in a.include]
    with_ = [os.path.abspath(f) for f in a.with_]
    for f in with_:
        if not os.path.isfile(f):
            die(f"--with: no file {f}")
        # linked into the kernels of its own folder (its tree) that are not that file: one
        # check build can then hold a file that jumps into it, the file itself, and kernels of
        # another tree (AES's one-process bench: docs/aes.md)
        if not [k for k in kernels if os.path.abspath(k) != f
                and os.path.dirname(os.path.abspath(k)) == os.path.dirname(f)]:
            die(f"--with: {f}: no other --kernel in its folder (--with is for a file of the "
                "kernel's tree that the kernel calls into)")
    for d in includes:
        if not os.path.isdir(d):
            die(f"--include: no folder {d}")
    if a.baseline and not os.path.isfile(a.baseline):
        die(f"--baseline: no file {a.baseline}")
    for d in a.baseline_include:
        if not os.path.isdir(d):
            die(f"--baseline-include: no folder {d}")
    if (a.baseline_symbol or a.baseline_include) and not a.baseline:
        die("--baseline-symbol and --baseline-include name the old file's parts: give --baseline")
    n = len(symbols)
    convs = per_kernel(a.convention, n, "--convention")
    # cpu.c's names (cpuinfo's spellings taken), before anything is built
    needs = [normalize_needs(x) for x in per_kernel(a.needs, n, "--needs")]
    ops = per_kernel(a.op, n, "--op")
    slots = []
    for k, sym, conv, need, op in zip(kernels, symbols, convs, needs, ops):
        slots.append({"kernel": os.path.abspath(k), "symbol": sym, "includes": includes,
                      "conv": conv, "needs": need, "op": op, "role": "new", "pair": None,
                      "with": [f for f in with_ if f != os.path.abspath(k) and
                               os.path.dirname(f) == os.path.dirname(os.path.abspath(k))]})
    if a.baseline:
        olds = per_kernel(a.baseline_symbol, n, "--baseline-symbol")
        oinc = [os.path.abspath(d) for d in a.baseline_include] or includes
        for new, osym in zip(list(slots), olds):
            # its convention and needs its own (guessed and scanned), its operation the new one's
            slots.append(dict(new, kernel=os.path.abspath(a.baseline), symbol=osym or
                              new["symbol"], includes=oinc, role="old", pair=None, conv="",
                              needs=""))
    if len(slots) > OUTSIDE_MAX:
        die(f"check: {len(slots)} kernels (with the old file's): at most {OUTSIDE_MAX} in one "
            "check build")
    for sl in slots:
        sl["why"] = "--convention"
        if not sl["conv"]:
            sl["conv"], sl["why"] = guess_convention(sl["kernel"])
            if sl["role"] == "old" and sl["conv"] == "asmdiff":
                # no upstream header seen: the old file is taken to be written as the new one
                new_sl = slots[slots.index(sl) - n]
                sl["conv"], sl["why"] = new_sl["conv"], "the new file's: " + sl["why"]
        sl["scanned"] = ""
        if not sl["needs"] and scan_needs(sl["kernel"]):
            # run it where the CPU has them, emulated elsewhere (and the emulated set): never a
            # SIGILL on a CPU without them
            sl["needs"] = ",".join(scan_needs(sl["kernel"]))
            sl["scanned"] = f"; needs {sl['needs']} (its instructions: give --needs to say " \
                            "otherwise)"
    for sl in slots:
        # OpenSSL's perlasm files take OPENSSL_ia32cap_P (and the Win64 flavour an import
        # slot) from the rest of libcrypto: the check build's stand-in defines them
        if sl["conv"] in ("openssl", "win64"):
            sl["with"] = list(sl["with"]) + [os.path.join(TOP, "verify", "outside",
                                                          "openssl_ia32cap.c")]
        # perlasm's Win64 output: its body, assembled as ELF (win64_body); a --with file of
        # that flavour likewise (x86_64-mont.pl's squaring path calls into x86_64-mont5.pl's)
        sl["source"] = sl["kernel"]
        bodies = os.path.join(builds.BUILD, "check", "win64-body")
        if is_win64_perlasm(sl["kernel"]):
            sl["kernel"] = win64_body(sl["kernel"], bodies)
        sl["with"] = [win64_body(w, bodies) if is_win64_perlasm(w) else w for w in sl["with"]]
    # names: the symbol; a symbol two new kernels share, with its file, or where the file is
    # the same too (one entry point checked as several --op rows: libgcrypt's GHASH setup per
    # hw_features), with its operation; the old file's "old:"
    new_syms = [sl["symbol"] for sl in slots if sl["role"] == "new"]
    new_pairs = [(sl["symbol"], sl["kernel"]) for sl in slots if sl["role"] == "new"]
    for i, sl in enumerate(slots):
        sl["name"] = sl["symbol"]
        if sl["role"] == "new" and new_syms.count(sl["symbol"]) > 1:
            by_op = new_pairs.count((sl["symbol"], sl["kernel"])) > 1 and sl["op"]
            sl["name"] = f"{sl['symbol']}@{sl['op'] if by_op else os.path.basename(sl['kernel'])}"
        if sl["role"] == "old":
            sl["name"] = f"old:{sl['symbol']}"
            sl["pair"] = slots[i - len(new_syms)]["name"]
    if len(slots) == 1:
        slots[0]["name"] = ""  # the symbol, as before
    return slots


def place_beside(beside, slots, bdir):
    """--beside: each kernel copied next to the files given, in a folder of its own
    (bdir.src/<i>), as its tree would give it the headers it includes with quotes (a C file's
    `#include "./cipher-internal.h"` looks beside the file first: the copy finds our stand-in
    there, never the tree's own).  Each slot's kernel becomes its copy; both architectures'
    checks take it (riscv.py, x86.py)."""
    for f in beside:
        if not os.path.isfile(f):
            die(f"--beside: no file {f}")
    if not beside:
        return
    src = bdir + ".src"
    for i, sl in enumerate(slots):
        d = os.path.join(src, str(i))
        os.makedirs(d, exist_ok=True)
        for f in beside:
            shutil.copyfile(f, os.path.join(d, os.path.basename(f)))
        copy = os.path.join(d, os.path.basename(sl["kernel"]))
        shutil.copyfile(sl["kernel"], copy)
        sl["kernel"] = copy
        sl["beside"] = True


OUTSIDE_MAX = 10  # driver.h: a check build's outside kernels


def renamed_symbols(bdir, i, symbol):
    """The symbols rename_syms.py renamed in kernel i's object because the family's own kernels or
    an earlier outside kernel define them too, as "old -> new" (the entry point itself, renamed
    in every check build so the slot can only call this file's, is left out)."""
    try:
        with open(os.path.join(bdir, f"liboutside-kernel-{i}-renamed.a.syms")) as f:
            return [" -> ".join(line.split()) for line in f
                    if line.strip() and line.split()[0] != symbol]
    except OSError:
        return []


def undefined_symbols(bdir, i):
    """The symbols kernel i's library leaves undefined: what a C file calls outside itself
    (libc's memcpy through the PLT, a sanitizer's hooks); [] for one that calls nothing, which
    the Unicorn modes can then run as they run assembly (kernel.py)."""
    lib = os.path.join(bdir, f"liboutside-kernel-{i}.a")
    nm = next((t for t in ("llvm-nm-19", "llvm-nm", "nm") if shutil.which(t)), None)
    p = subprocess.run([nm, "--undefined-only", "--format=posix", lib], capture_output=True,
                       text=True) if nm else None
    if p is None or p.returncode:
        return ["(unknown: nm could not read " + lib + ")"]
    return [line.split()[0] for line in p.stdout.splitlines()
            if line.strip() and not line.rstrip().endswith(":")]


def check_arch(a, slots):
    """riscv64 when asked (--arch), when a kernel is C with RVV intrinsics, or RISC-V vector
    assembly (Linux's arch/riscv/crypto: `.option arch, +zvkned`, vsetvli); else the host."""
    if a.arch:
        return a.arch
    for sl in slots:
        with open(sl["kernel"], errors="replace") as f:
            text = f.read()
        if sl["kernel"].endswith(".c"):
            # the intrinsics' header, or a call of one (not a test of __riscv_vector)
            if re.search(r"<riscv_vector\.h>|\b__riscv_v\w+\s*\(", text):
                return "riscv64"
        elif re.search(r"^\s*(\.option\s+arch\b|vseti?vli\b)", text, re.M):
            return "riscv64"
    return "x86_64"


def scan_needs(path):
    """The AVX-512 and GFNI features a source's instructions use (zmm or opmask registers,
    EVEX-only instructions, gf2p8*), as --needs spells them; [] for none."""
    def source(p, depth=0):
        """p's text and that of the files it includes by a quoted name found beside it (a
        kernel's macros often sit in a header of its own)."""
        with open(p, errors="replace") as f:
            t = f.read()
        if depth < 2:
            for inc in re.findall(r'#\s*include\s*"([^"]+)"', t):
                near = os.path.join(os.path.dirname(p), inc)
                if os.path.isfile(near):
                    t += "\n" + source(near, depth + 1)
        return t
    text = re.sub(r"(/\*.*?\*/|//[^\n]*)", " ", source(path), flags=re.S)
    found = []
    # AVX-512's registers and opmasks, and the EVEX-only forms a kernel may use on xmm/ymm
    # alone (AVX-512VL: rotates, element-sized moves, 128-bit lane moves, embedded broadcast,
    # registers 16-31)
    if re.search(r"%?\bzmm\d|%k[1-7]\b|\{%?k[1-7]\}|vpternlog|\bkmov|vpermt2|vpermi2|"
                 r"\bvpro[lr]v?[dq]\b|\bvmovdq[au](?:8|16|32|64)\b|"
                 r"\bv(?:extract|insert|shuf)[if](?:32|64)x\d|\{1to\d+\}|"
                 r"%?\b[xy]mm(?:1[6-9]|2\d|3[01])\b", text, re.I):
        found += ["avx512f", "avx512bw", "avx512vl"]
    if re.search(r"gf2p8", text, re.I):
        found.append("gfni")
    return found
