"""builds.py — the builds the commands run: where they are, the families they hold
(BUILD/families.json, written by meson from fuzz/meson.build), how a family's programs start
(directly or under qemu-riscv64), and build folders against an author's own libraries."""
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("ASMDIFF_BUILD", os.path.join(TOP, "build"))
BUILD_RV = os.environ.get("ASMDIFF_BUILD_RISCV64", os.path.join(BUILD, "riscv64"))
FINDINGS = os.environ.get("ASMDIFF_FINDINGS", os.path.join(TOP, "findings"))
VLENS = ("128", "256", "512", "1024")


def die(msg):
    """Bad usage or bad input: a clear message and exit 2."""
    print(f"asmdiff: {msg}", file=sys.stderr)
    sys.exit(2)


def load_families(build):
    try:
        with open(os.path.join(build, "families.json")) as f:
            return {fam["name"]: dict(fam, build=build) for fam in json.load(f)}
    except OSError:
        return {}


def families():
    """Every family of this host's builds: riscv64 families from the riscv64 build."""
    fams = {n: f for n, f in load_families(BUILD).items() if not f["riscv64"]}
    for n, f in load_families(BUILD_RV).items():
        if f["riscv64"]:
            fams[n] = f
    return fams


def check_family(name, fams):
    if name not in fams:
        die(f"unknown family '{name}' (families: {' '.join(sorted(fams))})")


def qemu_cpu(vlen):
    """The qemu-riscv64 CPU at VLEN vlen: V and the vector crypto our kernels and Linux's
    (Zvkned, Zvkb, Zvbb, Zvkg: arch/riscv/crypto's AES files) use (QEMU 8.2 or later)."""
    return f"rv64,v=true,vlen={vlen},zvkg=true,zvkned=true,zvkb=true,zvbb=true"


def host_runner():
    """What an x86-64 program of ours starts under: nothing, or a host profile's
    `qemu-x86_64 -cpu MODEL` (ASMDIFF_RUNNER, exported by verify/host_profile.sh: qemu-user
    emulates only the program it starts, so every program a command starts needs it)."""
    return shlex.split(os.environ.get("ASMDIFF_RUNNER", ""))


def is_our_x86_program(path):
    """An x86-64 ELF of this repository or its build folder (not python3, bash or qemu,
    wherever they are installed)."""
    real = os.path.realpath(path)
    roots = [os.path.realpath(TOP), os.path.realpath(BUILD)]
    if not any(real.startswith(r + os.sep) for r in roots):
        return False
    try:
        with open(real, "rb") as f:
            head = f.read(20)
    except OSError:
        return False
    return head[:4] == b"\x7fELF" and int.from_bytes(head[18:20], "little") == 62


def with_runner(cmd):
    """cmd with the host profile's runner in front when it starts an x86-64 program of ours."""
    run = host_runner()
    return run + list(cmd) if run and cmd and is_our_x86_program(cmd[0]) else list(cmd)


def runner(fam, vlen=None):
    """How this family's programs start: under qemu-riscv64 at VLEN vlen, under the host
    profile's qemu-x86_64 (host_runner), or directly."""
    if fam["riscv64"]:
        return ["qemu-riscv64", "-cpu", qemu_cpu(vlen or "256")]
    return host_runner()


def pc_dir(prefix, pcname):
    """The folder under prefix that holds pcname (lib, lib64 or a multiarch lib folder)."""
    for sub in ("lib/pkgconfig", "lib64/pkgconfig", "share/pkgconfig"):
        if os.path.isfile(os.path.join(prefix, sub, pcname)):
            return os.path.join(prefix, sub)
    libdir = os.path.join(prefix, "lib")
    for d in sorted(os.listdir(libdir)) if os.path.isdir(libdir) else []:
        if os.path.isfile(os.path.join(libdir, d, "pkgconfig", pcname)):
            return os.path.join(libdir, d, "pkgconfig")
    die(f"no {pcname} under {prefix} (the prefix of its `make install`)")


def compiler_command():
    """A check or library build's compiler: $CC, else clang-19; through ccache when it is
    installed (and ASMDIFF_CCACHE is not 0).  Every check build compiles the same harness,
    reference, oracles and executor as the next one, only its outside kernels differ: with the
    cache a check build after the first compiles those kernels and links (about 30 s of compiler
    time saved per check; the slow set makes about 80 check builds).  The cache is the build
    folder's (build/ccache) unless CCACHE_DIR says otherwise, so it goes with `rm -rf build` and a
    fresh clone starts cold.  Each check build is its own folder (build/check/<key>): ccache's
    default with -g hashes the compiler's working folder into every key, and a check build hit
    the cache on 17% of its compiles; without it (CCACHE_NOHASHDIR, unless set otherwise) on
    98%.  The price: a cached object's debug information names the folder it was first
    compiled in (the sources' paths are relative to it, so lines still resolve)."""
    cc = os.environ.get("CC", "clang-19")
    if os.environ.get("ASMDIFF_CCACHE", "1") != "0" and shutil.which("ccache") \
            and not cc.startswith("ccache"):
        os.environ.setdefault("CCACHE_DIR", os.path.join(BUILD, "ccache"))
        os.environ.setdefault("CCACHE_NOHASHDIR", "1")
        return "ccache " + cc
    return cc


def lib_build(gcrypt=None, openssl=None):
    """The build folder configured against the libraries under these prefixes: build/lib-<hash>,
    PKG_CONFIG_PATH and an rpath pointing at them; the default build is not touched."""
    prefixes = {}
    if gcrypt:
        prefixes["libgcrypt"] = (os.path.abspath(gcrypt), "libgcrypt.pc")
    if openssl:
        prefixes["openssl"] = (os.path.abspath(openssl), "libcrypto.pc")
    pcs = [pc_dir(p, pc) for p, pc in prefixes.values()]
    key = json.dumps(sorted((k, v[0]) for k, v in prefixes.items()))
    bdir = os.path.join(BUILD, "lib-" + hashlib.sha1(key.encode()).hexdigest()[:10])
    if not os.path.exists(os.path.join(bdir, "build.ninja")):
        env = dict(os.environ, CC=compiler_command(),
                   PKG_CONFIG_PATH=os.pathsep.join(pcs + [os.environ.get("PKG_CONFIG_PATH", "")]))
        rpath = ",".join(f"-Wl,-rpath,{os.path.dirname(pc)}" for pc in pcs)
        opts = [f"-D{name}=enabled" for name in prefixes]
        p = subprocess.run(["meson", "setup", "-Dfuzzing=auto", f"-Dc_link_args={rpath}"] + opts +
                           [bdir, TOP], env=env, capture_output=True, text=True)
        if p.returncode:
            print(p.stdout[-3000:] + p.stderr[-2000:])
            die(f"meson setup against {', '.join(v[0] for v in prefixes.values())} failed")
    else:
        # configured before a family (or a meson file) changed: regenerated first, so its
        # families.json (written by meson at configure time) names every family of this tree
        subprocess.run(["ninja", "-C", bdir, "build.ninja"], capture_output=True)
    return bdir, {k: v[0] for k, v in prefixes.items()}


def use_lib_build(gcrypt, openssl, fuzzers):
    """list, fuzz and bench on a build against the author's own libraries (build/lib-<hash>):
    configured and compiled, then BUILD names it for the rest of the command."""
    global BUILD
    BUILD, prefixes = lib_build(gcrypt, openssl)
    fams = load_families(BUILD)
    subprocess.run(["nice", "-n", "10", "meson", "compile", "-C", BUILD] +
                   [f"asmdiff-{n}" for n in fams] +
                   [f"fuzz_{n}" for n in fams if fams[n]["fuzzer"] and fuzzers],
                   stdout=subprocess.DEVNULL, check=False)
    for k, p in prefixes.items():
        print(f"asmdiff: {k} from {p}, build {BUILD}", file=sys.stderr)


def cmd_list(args):
    fams = families()
    if not fams:
        die("no family is built (see the build log)")
    for name, fam in sorted(fams.items(), key=lambda kv: kv[1]["riscv64"]):
        if fam["riscv64"]:
            print(f"\nriscv64 build, under qemu-riscv64 -cpu {qemu_cpu('256')} "
                  f"(./asmdiff fuzz {name} --vlen N picks another VLEN):", flush=True)
        p = subprocess.run(runner(fam) + [os.path.join(fam["build"], "asmdiff-" + name), "list"])
        if p.returncode:
            return p.returncode
        if fam["fuzzer"]:
            fuzzer = os.path.join(fam["build"], "fuzz_" + name)
            print(f"  fuzzing: libFuzzer, coverage-guided: {fuzzer}")
        else:
            print("  fuzzing: no libFuzzer build here; replay and structure-aware random inputs "
                  "only")
    return 0
