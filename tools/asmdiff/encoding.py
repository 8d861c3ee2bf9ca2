"""encoding.py — does the object hold what its source says?  The memory operand of every
instruction, as GNU objdump decodes it and as LLVM's disassembler does, must agree.

Why: the assembler that builds our kernels and every check build is clang's, and LLVM's
encoder and disassembler share one table of compressed displacements (EVEX disp8*N).  Where
that table is wrong, clang writes a displacement the CPU scales differently, and llvm-objdump
reads it back as written: the kernel silently reads other memory than its source names, and a
check would blame the author's file for our toolchain.  Known case: LLVM up to 19 encodes the
broadcast operand of vgf2p8affineqb / vgf2p8affineinvqb with N = 1 instead of 8
(`0x38(%r9){1to8}` runs as `0x1c0(%r9)`; fixed in LLVM 20, llvm-project pull request 120340).
GNU objdump decodes as the CPU does (binutils' tables), so a difference between the two is such
a mis-encoding (or a disassembler bug: either way, not the kernel's).

Used by ./asmdiff check on the outside kernels' objects (the build row fails), and as a test
of our own kernels' objects: python3 tools/asmdiff/encoding.py OBJECT_OR_ARCHIVE...
(exit 1 when any operand differs, 2 when a tool is missing)."""
import re
import shutil
import subprocess
import sys

# disp(base,index,scale) in AT&T syntax; RIP-relative operands are left out (their displacement
# is printed as a target by one tool and as a number by the other, and disp32 is never scaled)
MEM = re.compile(r"(-?0x[0-9a-f]+|-?\d+)?\((%[a-z0-9]+)?(?:,(%[a-z0-9]+)(?:,(\d))?)?\)")
LINE = re.compile(r"\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(\S.*)$")
MEMBER = re.compile(r"^(\S.*?):\s+file format")
SECTION = re.compile(r"Disassembly of section (\S+):")
LABEL = re.compile(r"^([0-9a-f]+) <(.+)>:$")


def llvm_objdump():
    for t in ("llvm-objdump-19", "llvm-objdump"):
        if shutil.which(t):
            return t
    return None


def decode(cmd):
    """({(member, section, address): instruction text}, {the same key: "symbol+offset"}) of
    one disassembler's output."""
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(f"{' '.join(cmd[:2])}: {p.stderr.strip()[:200]}")
    member = sec = None
    got, names = {}, {}
    label = None
    for line in p.stdout.splitlines():
        m = MEMBER.match(line)
        if m:
            # an archive's member: GNU names it alone, LLVM as archive(member)
            member, sec = m.group(1), None
            if member.endswith(")") and "(" in member:
                member = member[member.rindex("(") + 1:-1]
            member = member.rsplit("/", 1)[-1]
            continue
        m = SECTION.match(line)
        if m:
            sec, label = m.group(1), None
            continue
        m = LABEL.match(line)
        if m:
            label = (m.group(2), int(m.group(1), 16))
            continue
        m = LINE.match(line)
        if m and sec:
            # the instruction, without a trailing comment or symbolic target
            at = int(m.group(1), 16)
            got[(member, sec, at)] = m.group(2).split("#")[0].split("<")[0].strip()
            if label:
                names[(member, sec, at)] = f"{label[0]}+{at - label[1]:#x}"
    return got, names


def operands(text):
    # (%dx): GNU's spelling of the I/O port of ins/outs, not memory (no 16-bit addressing in
    # 64-bit mode); seen where constants sit in .text (perlasm's) and decode as such bytes
    return [(int(d, 0) if d else 0, b, i, s or ("1" if i else ""))
            for d, b, i, s in MEM.findall(text) if b not in ("%rip", "%dx")]


def disagreements(path):
    """(memory operands compared, [(where, GNU's text, LLVM's text)]) for an object or an
    archive; raises RuntimeError when a disassembler is missing or fails."""
    llvm = llvm_objdump()
    if not llvm or not shutil.which("objdump"):
        raise RuntimeError("GNU objdump (binutils) and llvm-objdump (llvm-19) are both needed")
    gnu, names = decode(["objdump", "-d", "-w", path])
    lv, _ = decode([llvm, "-d", path])
    n, bad = 0, []
    for k, g in gnu.items():
        other = lv.get(k)
        if other is None or "(" not in g:
            continue
        n += 1
        if operands(g) != operands(other):
            member, sec, at = k
            bad.append((names.get(k) or f"{member}:{sec}+{at:#x}", g,
                        re.sub(r"\s+", " ", other)))
    return n, bad


def describe(bad):
    """One line for a build row: the first mis-encoded instruction, and how many."""
    where, g, other = bad[0]
    more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
    return (f"the assembler wrote an instruction the CPU reads differently from its source: at "
            f"{where} the source's `{other}` runs as `{g}`{more} (the known case: LLVM <= 19 "
            "writes the disp8 of a GFNI broadcast operand unscaled, fixed in LLVM 20; a "
            "displacement above 127, or GNU as, avoids it): not the kernel's bug, and the build "
            "does not run what the file says")


def main(argv):
    if not argv:
        print("usage: encoding.py OBJECT_OR_ARCHIVE...", file=sys.stderr)
        return 2
    total = failed = 0
    for path in argv:
        try:
            n, bad = disagreements(path)
        except RuntimeError as e:
            print(f"encoding: {path}: {e}", file=sys.stderr)
            return 2
        total += n
        for where, g, other in bad:
            print(f"{path}: {where}: GNU objdump (as the CPU reads it): {g}; llvm-objdump: {other}")
        failed += len(bad)
    print(f"encoding: {total} memory operands in {len(argv)} objects compared, "
          f"{failed} decoded differently")
    return 1 if failed or not total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
