"""usage.py — what `./asmdiff check` refuses before it configures or builds anything, each with
the fix and exit 2 (bad input: nothing of the kernel was judged, and no verdict is written):

- a --needs feature cpu.c does not know (fuzz/harness/cpu.c's `feature_names`, the one list
  the harness parses; /proc/cpuinfo's spellings are accepted as aliases), or one of the other
  architecture;
- an outside file that does not build: each --kernel, --with and --baseline file is compiled
  alone, as the check build will compile it (the same compiler, include folders and target), to
  a temporary object; its errors are shown with the file:line of the outside source (clang's
  "while in macro instantiation" notes give it for an error inside a macro), repeats merged,
  the list capped;
- a header one of our compatibility folders (verify/outside/*) provides: added by itself when
  the folder is the kernel's convention's (linux-compat for the linux convention,
  libgcrypt-riscv for libgcrypt's riscv64 files), else named as the --include to add;
- a --symbol (--baseline-symbol) the file does not define as a global symbol, or no --symbol
  at all: the global symbols the file does define, nearest first (the message
  verify/outside/rename_syms.py gives in the build, which stays as its proof)."""
import difflib
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from .. import builds
from ..builds import TOP, die

CPU_C = os.path.join(TOP, "fuzz", "harness", "cpu.c")
OUR_INCLUDE = os.path.join(TOP, "verify", "outside", "include")
# /proc/cpuinfo's spellings (and common others) of cpu.c's names; ours stay the canonical ones
# (what reaches the check build, the harness and the command line printed again)
ALIASES = {"sse4_1": "sse4.1", "sse41": "sse4.1", "pclmulqdq": "pclmul", "aes": "aesni"}
# our compatibility folders beyond verify/outside/include (always searched, last): the
# convention (and architecture) each stands in for; a header only they provide is added for a
# kernel of that convention, and named as the --include to add for any other
COMPAT = {"linux-compat": ("linux", "x86_64"), "libgcrypt-riscv": ("libgcrypt", "riscv64")}
# distinct compiler errors shown (the rest counted)
MAX_ERRORS = 10


def cpu_features():
    """[(name, arch)] of cpu.c's feature_names table, in its order ([] when it cannot be read:
    the harness then judges the names itself)."""
    try:
        with open(CPU_C) as f:
            text = f.read()
    except OSError:
        return []
    m = re.search(r"feature_names\[\]\s*=\s*\{(.*?)\n\};", text, re.S)
    pairs = re.findall(r'\{\s*(CPU_\w+)\s*,\s*"([^"]+)"\s*\}', m.group(1) if m else "")
    return [(name, "riscv64" if bit.startswith("CPU_RV_") else "x86_64") for bit, name in pairs]


def feature_list(arch=None):
    """The known feature names as one line per architecture, each alias beside its name."""
    spelled = {}
    for alias, name in ALIASES.items():
        spelled.setdefault(name, []).append(alias)
    out = []
    for a in ("x86_64", "riscv64"):
        if arch and a != arch:
            continue
        names = [n + (f" ({'/'.join(spelled[n])})" if n in spelled else "")
                 for n, na in cpu_features() if na == a]
        if names:
            out.append(f"{a}: {', '.join(names)}")
    return "; ".join(out)


def normalize_needs(text, opt="--needs"):
    """A --needs value (names separated by commas or spaces, any case, cpuinfo's spellings
    too) as cpu.c's names joined by commas; an unknown name exits 2 with the known ones."""
    known = dict(cpu_features())
    if not known:
        return text
    out = []
    for word in re.split(r"[,\s]+", text.strip()):
        if not word:
            continue
        name = ALIASES.get(word.lower(), word.lower())
        if name not in known:
            near = difflib.get_close_matches(name, list(known) + list(ALIASES), n=1, cutoff=0.6)
            hint = f" (did you mean {ALIASES.get(near[0], near[0])}?)" if near else ""
            die(f"check: {opt}: unknown CPU feature '{word}'{hint}\n"
                f"  known features (other spellings accepted, /proc/cpuinfo's among them, in "
                f"parentheses): {feature_list()}")
        out.append(name)
    return ",".join(dict.fromkeys(out))


def check_needs_arch(slots, arch):
    """A feature of the other architecture in a kernel's needs exits 2."""
    known = dict(cpu_features())
    for sl in slots:
        other = [n for n in sl["needs"].split(",") if n and known.get(n, arch) != arch]
        if other:
            what = f"is not a {arch} feature" if len(other) == 1 else f"are not {arch} features"
            die(f"check: --needs: {', '.join(other)} {what}, and this check is for {arch} "
                f"({feature_list(arch)}; --arch says which)")


def rename_syms():
    """verify/outside/rename_syms.py as a module: its symbol reading and its message for a
    symbol the file does not define, the same words as the check build's."""
    spec = importlib.util.spec_from_file_location(
        "asmdiff_rename_syms", os.path.join(TOP, "verify", "outside", "rename_syms.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def compile_command(src, obj, includes, arch):
    """The outside file's compile, as the check build's (verify/outside/meson.build: the
    author's folders, then ours; the project's C standard; riscv64's target and V)."""
    if arch == "riscv64":
        cc = ["clang-19", "--target=riscv64-linux-gnu", "-march=rv64gcv", "-mabi=lp64d"]
    else:
        cc = shlex.split(builds.compiler_command())
    return cc + ["-std=gnu11", "-c", src, "-o", obj] + [f"-I{d}" for d in includes] + \
        [f"-I{OUR_INCLUDE}", "-Wa,--noexecstack"]


LOC = re.compile(r"^(?P<loc>(?P<file>[^:\n]+?):(?P<line>\d+)(?::\d+)?): "
                 r"(?P<kind>fatal error|error|warning|note|Error|Warning): (?P<msg>.*)$")


def diagnostics(text, cap=MAX_ERRORS):
    """The compiler's errors in text, one line each, at the outside source's file:line: an
    error clang reports at `<instantiation>:L:C` (inside a macro) is put at the line that
    expanded the macro (its last "while in macro instantiation" note, the outermost); the same
    error at several lines is one line with the count and the other lines; at most cap lines,
    then how many more.  [] when text has no error in a form this knows."""
    groups = []  # [where, message, inside a macro (its <instantiation> place) or "", text]
    cur = None
    want_text = False
    for line in text.splitlines():
        m = LOC.match(line)
        if not m:
            if want_text and line.strip() and cur is not None:
                cur[3] = line.strip()  # the macro's line as expanded
            want_text = False
            continue
        want_text = False
        kind = m["kind"].lower()
        if kind in ("error", "fatal error"):
            cur = [m["loc"], f"{kind}: {m['msg']}", "", ""]
            if m["file"].startswith("<"):
                cur[2] = m["loc"]
                want_text = True
            groups.append(cur)
        elif kind == "note" and cur is not None:
            if "macro instantiation" in m["msg"] and not m["file"].startswith("<") and cur[2]:
                cur[0] = m["loc"]  # the outermost real place, so far
        else:
            cur = None  # a warning: not ours to show, and its notes are not the error's
    merged = {}
    expanded = {}
    for where, msg, inside, line in groups:
        key = (msg, inside)
        merged.setdefault(key, [])
        expanded.setdefault(key, line)
        if where not in merged[key]:
            merged[key].append(where)
    out = []
    for (msg, inside), places in merged.items():
        line = expanded[(msg, inside)]
        extra = (f" (in a macro expanded at this line: line {inside.split(':')[1]} of the "
                 f"expansion" + (f", `{line}`" if line else "") + ")") if inside else ""
        if len(places) > 1:
            more = places[1:6]
            extra += f"; the same at {len(places) - 1} more line" + \
                ("s" if len(places) > 2 else "") + f": {', '.join(more)}" + \
                (f" and {len(places) - 1 - len(more)} more" if len(places) - 1 > len(more)
                 else "")
        out.append(f"{places[0]}: {msg}{extra}")
    if len(out) > cap:
        out = out[:cap] + [f"... and {len(out) - cap} more distinct errors"]
    return out


def missing_header(text):
    """The header a compile could not find (clang's or gcc's words), or None."""
    m = re.search(r"fatal error: '([^']+)' file not found", text) or \
        re.search(r"fatal error: ([^:\s]+): No such file or directory", text)
    return m.group(1) if m else None


def compat_folder(header):
    """The folder of ours under verify/outside that has header (its name in COMPAT), or None."""
    for name in COMPAT:
        if os.path.isfile(os.path.join(TOP, "verify", "outside", name, header)):
            return name
    return None


def rel(path):
    r = os.path.relpath(path, TOP)
    return path if r.startswith("..") else r


class Compiler:
    """The outside files compiled alone into a temporary folder, each (file, includes) once."""

    def __init__(self, arch, tmp):
        self.arch, self.tmp, self.objs = arch, tmp, {}

    def compile(self, src, includes, conv, what):
        """src's object, compiled with includes (a list, extended in place by a compatibility
        folder of conv when src needs a header only it has); exits 2 when src does not build."""
        while True:
            key = (src, tuple(includes))
            if key in self.objs:
                return self.objs[key]
            obj = os.path.join(self.tmp, f"{len(self.objs)}-{os.path.basename(src)}.o")
            cmd = compile_command(src, obj, includes, self.arch)
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
            except OSError as e:
                die(f"check: cannot run the compiler ({cmd[0]}): {e}")
            if p.returncode == 0:
                self.objs[key] = obj
                return obj
            text = p.stdout + p.stderr
            header = missing_header(text)
            folder = compat_folder(header) if header else None
            path = os.path.join(TOP, "verify", "outside", folder) if folder else ""
            if folder and COMPAT[folder] == (conv, self.arch) and path not in includes:
                # the convention's own stand-in: searched after the author's folders
                print(f"   {os.path.basename(src)} includes <{header}>: our stand-in for the "
                      f"{conv} convention is in {rel(path)}, added to its include folders "
                      f"(--include {rel(path)})", flush=True)
                includes.append(path)
                continue
            errs = diagnostics(text) or [l for l in text.splitlines() if l.strip()][:MAX_ERRORS]
            fix = ""
            if header and folder:
                fc, fa = COMPAT[folder]
                fix = (f"\n  fix: add --include {rel(path)} (our stand-in for <{header}>, made for "
                       f"the {fc} convention on {fa}" +
                       (f"; this kernel is {conv} on {self.arch}: your own tree's folder "
                        "with that header may fit better)" if (conv, self.arch) != (fc, fa)
                        else ")"))
            elif header:
                fix = (f"\n  fix: add --include DIR, DIR the folder {header} is found under (your "
                       "tree's include/ or build folder, or a folder of small stand-ins of your "
                       f"own); searched now: {', '.join(rel(d) for d in includes + [OUR_INCLUDE])}")
            n = len(diagnostics(text, cap=10**6))
            cc = next(c for c in cmd if c != "ccache")
            shown = " ".join(shlex.quote("/dev/null" if c == obj else c) for c in cmd)
            die(f"check: {what} {src} does not build ({cc} -c, as the check "
                "build compiles it" + (f"; {n} distinct error{'s' if n != 1 else ''}" if n
                                       else "") + "):\n" +
                "\n".join("  " + e for e in errs) + fix +
                f"\n  the compiler's whole output: {shown}")


def defined_symbols(objs, functions=False):
    """The global symbols objs define (with functions, those in code only: nm's T), sorted."""
    rs = rename_syms()
    names = set()
    for o in objs:
        if functions:
            p = subprocess.run([rs.tool("nm"), "--defined-only", "--extern-only",
                                "--format=posix", o], capture_output=True, text=True)
            names |= {ln.split()[0] for ln in p.stdout.splitlines()
                      if len(ln.split()) >= 2 and ln.split()[1] in ("T", "W")}
        else:
            names |= rs.symbols(o)
    return sorted(names)


def precheck(slots, arch):
    """Before the check build: each kernel's needs of this architecture, each outside file
    built alone (a compatibility folder of its convention added to its includes when it needs
    one), each --symbol (--baseline-symbol) defined by its file.  Exits 2 with the fix."""
    check_needs_arch(slots, arch)
    if not shutil.which(compile_command("x", "x", [], arch)[0]):
        return  # no compiler to ask: the check build says so in its build row
    with tempfile.TemporaryDirectory(prefix="asmdiff-precheck.") as tmp:
        comp = Compiler(arch, tmp)
        rs = rename_syms()
        for sl in slots:
            what = "--baseline" if sl["role"] == "old" else "--kernel"
            sl["includes"] = list(sl["includes"])  # (a folder added is this kernel's)
            objs = [comp.compile(sl["kernel"], sl["includes"], sl["conv"], what)]
            objs += [comp.compile(w, sl["includes"], sl["conv"], "--with")
                     for w in sl.get("with", [])]
            if sl["symbol"] not in rs.symbols(objs[0]) | \
                    {s for o in objs[1:] for s in rs.symbols(o)}:
                lib = os.path.join(tmp, f"lib{slots.index(sl)}.a")
                ar = subprocess.run([rs.tool("ar"), "rcs", lib] + objs, capture_output=True,
                                    text=True)
                # a static function of one object (reached through a pointer): the check
                # build makes it global (rename_syms.py)
                if not ar.returncode and rs.local_function(sl["symbol"], lib):
                    continue
                msg = rs.missing_symbol(sl["symbol"], sl["kernel"], lib) if not ar.returncode \
                    else f"asmdiff: error: {os.path.basename(sl['kernel'])} defines no global " \
                    f"symbol '{sl['symbol']}'"
                opt = "--baseline-symbol" if sl["role"] == "old" else "--symbol"
                print(msg.replace("(--symbol / --baseline-symbol)", f"({opt})"),
                      file=sys.stderr)
                sys.exit(2)


def no_symbol(a, arch):
    """--kernel without any --symbol: the global functions each file defines, exit 2."""
    from .build import guess_convention  # (build.py imports this module)
    includes = [os.path.abspath(d) for d in a.include]
    lines = []
    with tempfile.TemporaryDirectory(prefix="asmdiff-precheck.") as tmp:
        comp = Compiler(arch, tmp)
        for k in dict.fromkeys(a.kernel):
            if not os.path.isfile(k):
                die(f"--kernel: no file {k}")
            conv = a.convention[0] if a.convention else guess_convention(k)[0]
            obj = comp.compile(os.path.abspath(k), list(includes), conv, "--kernel")
            funcs = defined_symbols([obj], functions=True) or defined_symbols([obj])
            lines.append(f"  {k}: {', '.join(funcs[:40]) or 'no global symbol at all'}" +
                         (f" and {len(funcs) - 40} more" if len(funcs) > 40 else ""))
    die("check: --kernel needs --symbol NAME, the entry point to check (one per --kernel, or "
        "several for one file); the global functions defined:\n" + "\n".join(lines))
