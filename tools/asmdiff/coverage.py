"""coverage.py — `./asmdiff coverage FAMILY [CORPUS...]`: which instructions, basic blocks and
branch directions of each kernel the seed corpus (and any corpus given) reached, shown on the
source.

The family's tool runs in mode `coverage` (fuzz/harness/backend_coverage.c): every kernel call
runs once in the emulator, which records each instruction it executed and where control went
next, then as in replay (the verdicts are the native run's).  Its `coverage` records carry
link-time addresses; here the program file is decoded with objdump (each kernel's extent from
its symbol, every instruction with its source line from the DWARF line table), so an
instruction no input reached is counted too.  Out of that: the per-kernel table, the annotated
listing of the sources (hits per line, unreached lines marked) and one self-contained HTML
page.  `--baseline FILE` fails when a kernel reaches less than the file records
(verify/coverage_baseline.json; `--write-baseline` records the current numbers).

Kernels are the functions defined in the family's sources under kernels/ (for ./asmdiff
check: in the outside file).  Alignment padding (nop forms) is not counted: it runs only when
control falls into it.  A line the inputs cannot reach by design is explained in the baseline
file's "why" (kernel, line, reason) and shown as such in the listing."""
import html
import json
import os
import re
import shutil
import subprocess
import time

from . import builds, results, stage
from .builds import TOP, die

BASELINE = os.path.join(TOP, "verify", "coverage_baseline.json")
PREFIXES = {"bnd", "notrack", "rep", "repz", "repe", "repnz", "repne", "lock", "cs", "ds", "ss",
            "es", "fs", "gs", "data16", "addr32", "rex", "rex.w", "rex.b", "rex.r", "rex.x",
            "rex.wb", "rex.wr", "rex.wx", "rex.rb", "rex.xb", "rex.wrb", "rex.wxb", "rex.rxb",
            "rex.wrxb"}
UNCOND = {"jmp", "jmpq", "ret", "retq", "ud2", "hlt", "int3", "ljmp", "sysret", "iret", "iretq"}
OTHER_COND = {"loop", "loope", "loopne", "loopz", "loopnz", "jrcxz", "jecxz", "jcxz"}


class Insn:
    __slots__ = ("addr", "size", "mnem", "text", "file", "line", "nop", "cond", "jump",
                 "target")

    def __init__(self, addr, text, file, line):
        self.addr, self.text, self.file, self.line, self.size = addr, text, file, line, 0
        words = text.split()
        while words and words[0] in PREFIXES:
            words = words[1:]
        self.mnem = words[0] if words else ""
        self.nop = self.mnem.startswith("nop") or text.replace(" ", "") == "xchg%ax,%ax"
        self.cond = (self.mnem.startswith("j") and self.mnem not in ("jmp", "jmpq")) or \
            self.mnem in OTHER_COND
        self.jump = self.cond or self.mnem in UNCOND
        m = re.match(r"\S+\s+([0-9a-f]+)\s*(<[^>]*>)?\s*$", " ".join(words))
        self.target = int(m.group(1), 16) if m and (self.cond or self.mnem.startswith("jmp")) \
            else None


class Kernel:
    """One function of the kernel sources: its instructions, what reached them."""

    def __init__(self, name, start, end, file):
        self.name, self.start, self.end, self.file = name, start, end, file
        self.insns = []


def source_name(path):
    """A source path as reports give it: relative to the source root when under it."""
    path = os.path.normpath(path)
    rel = os.path.relpath(path, TOP)
    return path if rel.startswith("..") else rel


def kernel_functions(binary, wanted):
    """Kernel objects for every function of binary whose definition lies in a file wanted(path)
    accepts (nm's symbol table and line information)."""
    p = subprocess.run(["nm", "-S", "-l", "--defined-only", "-n", binary], capture_output=True,
                       text=True)
    if p.returncode:
        die(f"nm {binary}: {p.stderr.strip()}")
    syms = []  # (addr, size or None, type, name, file)
    for line in p.stdout.splitlines():
        head, _, where = line.partition("\t")
        f = head.split()
        if len(f) == 4:
            addr, size, typ, name = int(f[0], 16), int(f[1], 16), f[2], f[3]
        elif len(f) == 3:
            addr, size, typ, name = int(f[0], 16), None, f[1], f[2]
        else:
            continue
        file = where.rsplit(":", 1)[0] if where else ""
        syms.append((addr, size, typ, name, file))
    text_syms = [s for s in syms if s[2] in "tTW"]
    out = []
    for i, (addr, size, typ, name, file) in enumerate(text_syms):
        if not file or not wanted(os.path.normpath(file)):
            continue
        if not size:  # no .size: up to the next function
            later = [s[0] for s in text_syms[i + 1:] if s[0] > addr]
            size = (later[0] - addr) if later else 0
        if size:
            out.append(Kernel(name, addr, addr + size, source_name(file)))
    # aliases of one address: the first name
    seen, uniq = set(), []
    for k in out:
        if k.start not in seen:
            seen.add(k.start)
            uniq.append(k)
    return uniq


def disassemble(binary, kernels):
    """Fills each kernel's instructions (objdump -d -l: address, text, source line)."""
    for k in kernels:
        p = subprocess.run(["objdump", "-d", "-l", "-w", "--no-show-raw-insn",
                            f"--start-address={k.start:#x}", f"--stop-address={k.end:#x}", binary],
                           capture_output=True, text=True)
        if p.returncode:
            die(f"objdump {binary}: {p.stderr.strip()}")
        file, line = k.file, 0
        for row in p.stdout.splitlines():
            m = re.match(r"^(/\S*|\S+\.\w+):(\d+)(?: \(discriminator \d+\))?$", row)
            if m:
                file, line = source_name(m.group(1)), int(m.group(2))
                continue
            m = re.match(r"^\s+([0-9a-f]+):\t(.*)$", row)
            if m and m.group(2).strip() and not m.group(2).startswith("(bad)"):
                k.insns.append(Insn(int(m.group(1), 16), m.group(2).strip(), file, line))
        for a, b in zip(k.insns, k.insns[1:]):
            a.size = b.addr - a.addr
        if k.insns:
            k.insns[-1].size = k.end - k.insns[-1].addr


def merge_records(recs, hits=None):
    """{pc: {"hits": n, "next": {pc: n}, "impls": set}} from coverage records (added to hits)."""
    hits = {} if hits is None else hits
    for r in results.of_type(recs, "coverage"):
        pc = int(r["pc"], 16)
        h = hits.setdefault(pc, {"hits": 0, "next": {}, "impls": set()})
        h["hits"] += r.get("hits", 0)
        h["impls"].add(r.get("impl"))
        for nxt, n in r.get("next", []):
            a = int(nxt, 16)
            h["next"][a] = h["next"].get(a, 0) + n
    return hits


def block_leaders(k):
    """The addresses that start a basic block of kernel k: its entry, every branch target
    inside it, and the instruction after every jump."""
    leaders = {k.start}
    for i in k.insns:
        if i.target is not None and k.start <= i.target < k.end:
            leaders.add(i.target)
        if i.jump:
            leaders.add(i.addr + i.size)
    return leaders


def analyse(k, hits, why_branch=None):
    """The kernel's numbers: instructions, blocks, branches (each with what reached it); a
    branch that goes one way by design (why_branch: {(kernel, offset): reason}) is counted as
    explained."""
    why_branch = why_branch or {}
    body = [i for i in k.insns if not i.nop]
    leaders = block_leaders(k)
    blocks, cur = [], []
    for i in k.insns:
        if i.addr in leaders and cur:
            blocks.append(cur)
            cur = []
        cur.append(i)
    if cur:
        blocks.append(cur)
    blocks = [[i for i in b if not i.nop] for b in blocks]
    blocks = [b for b in blocks if b]
    branches = []
    for i in k.insns:
        if not i.cond or i.target is None or i.target == i.addr + i.size:
            continue
        nxt = hits.get(i.addr, {}).get("next", {})
        branches.append((i, nxt.get(i.target, 0), nxt.get(i.addr + i.size, 0)))
    impls = set()
    for i in body:
        impls |= hits.get(i.addr, {}).get("impls", set())
    return {
        "kernel": k.name, "file": k.file, "impls": sorted(x for x in impls if x),
        "insns": len(body), "insns_hit": sum(1 for i in body if i.addr in hits),
        "blocks": len(blocks), "blocks_hit": sum(1 for b in blocks if b[0].addr in hits),
        "branches": len(branches),
        "branches_both": sum(1 for _, t, f in branches if t and f),
        "branches_one": sum(1 for _, t, f in branches if bool(t) != bool(f)),
        "branches_never": sum(1 for _, t, f in branches if not t and not f),
        "branches_explained": sum(1 for i, t, f in branches
                                  if not (t and f) and (k.name, i.addr - k.start) in why_branch),
        "branch_list": [{"at": f"{k.name}+{i.addr - k.start:#x}", "source": f"{i.file}:{i.line}",
                         "insn": i.text, "taken": t, "not_taken": f,
                         "why": why_branch.get((k.name, i.addr - k.start))}
                        for i, t, f in branches],
    }


def pct(a, b):
    return "-" if not b else f"{100.0 * a / b:.1f}%"


def table_text(rows):
    head = ("kernel", "instructions", "blocks", "branches both ways", "one way", "never",
            "by design")
    lines = []
    body = [(r["kernel"], f"{r['insns_hit']}/{r['insns']} {pct(r['insns_hit'], r['insns'])}",
             f"{r['blocks_hit']}/{r['blocks']} {pct(r['blocks_hit'], r['blocks'])}",
             f"{r['branches_both']}/{r['branches']} {pct(r['branches_both'], r['branches'])}",
             str(r["branches_one"]), str(r["branches_never"]),
             str(r.get("explained", 0))) for r in rows]
    w = [max(len(x[c]) for x in body + [head]) for c in range(len(head))]
    for x in [head] + body:
        lines.append("  ".join(x[c].ljust(w[c]) if c == 0 else x[c].rjust(w[c])
                               for c in range(len(head))))
    return "\n".join(lines)


def line_map(kernels, hits):
    """{file: {line: {"insns": n, "hit": n, "max": hits, "branches": [...]}}}"""
    out = {}
    for k in kernels:
        for i in k.insns:
            if i.nop or not i.line:
                continue
            ln = out.setdefault(i.file, {}).setdefault(i.line, {"insns": 0, "hit": 0, "max": 0,
                                                                 "branches": [], "missed": []})
            ln["insns"] += 1
            h = hits.get(i.addr)
            if h:
                ln["hit"] += 1
                ln["max"] = max(ln["max"], h["hits"])
            else:
                ln["missed"].append((k.name, i.addr - k.start, i.text, i.size))
            if i.cond and i.target is not None:
                nxt = (h or {}).get("next", {})
                t, f = nxt.get(i.target, 0), nxt.get(i.addr + i.size, 0)
                if not (t and f):
                    ln["branches"].append((k.name, i.addr - k.start, i.mnem, t, f))
    return out


def read_source(path):
    full = path if os.path.isabs(path) else os.path.join(TOP, path)
    try:
        with open(full, errors="replace") as f:
            return f.read().splitlines()
    except OSError:
        return None


def missed_runs(ln):
    """The unreached instructions of a partly reached line (a macro's expansion: the line is the
    macro's invocation), as runs of consecutive ones: [(kernel, first, last, count, texts)]."""
    runs = []
    for name, off, text, size in ln["missed"]:
        r = runs[-1] if runs else None
        if r and r[0] == name and r[2] == off:
            r[2], r[3] = off + size, r[3] + 1
            r[4].append(text)
        else:
            runs.append([name, off, off + size, 1, [text]])
    return runs


def missed_notes(ln, limit=12):
    notes = []
    for name, first, end, n, texts in missed_runs(ln)[:limit]:
        what = texts[0] if n == 1 else f"{texts[0]} ... {texts[-1]}"
        notes.append(f"not reached: {name}+{first:#x}"
                     + (f"..+{end:#x} ({n} instructions: {what})" if n > 1 else f": {what}"))
    more = len(missed_runs(ln)) - limit
    if more > 0:
        notes.append(f"... and {more} more unreached runs")
    return notes


WHY = {}  # (kernel, offset) -> reason, of the report being made


def branch_note(b):
    name, off, mnem, t, f = b
    what = "never reached" if not t and not f else \
        "never taken (always falls through)" if not t else "always taken (never falls through)"
    reason = WHY.get((name, off))
    return f"{mnem} at {name}+{off:#x}: {what}" + (f"; by design: {reason}" if reason else "")


def listing_text(lines, why):
    """The annotated sources: hits per line (the most any of its instructions ran), #####
    where no instruction of the line ran, ~ where only some did, branch notes under lines
    whose branch went one way only."""
    out = []
    for file in sorted(lines):
        src = read_source(file)
        out.append(f"==== {file}")
        if src is None:
            out.append("  (source not found)")
            continue
        for n, text in enumerate(src, 1):
            ln = lines[file].get(n)
            if not ln:
                mark = "-"
            elif not ln["hit"]:
                mark = "#####"
            elif ln["hit"] < ln["insns"]:
                mark = f"~{ln['max']}"
            else:
                mark = str(ln["max"])
            out.append(f"{mark:>10} {n:5}: {text}")
            if ln:
                reason = why.get((file, n))
                if reason and ln["hit"] < ln["insns"]:
                    out.append(f"{'':>10} {'':5}  ^ not reachable from the seeds: {reason}")
                if ln["hit"] and ln["hit"] < ln["insns"]:
                    for note in missed_notes(ln):
                        out.append(f"{'':>10} {'':5}  ^ {note}")
                for b in ln["branches"]:
                    out.append(f"{'':>10} {'':5}  ^ branch {branch_note(b)}")
    return "\n".join(out) + "\n"


def unreached_lines(lines):
    """[(file, line)] of lines with instructions none of which ran."""
    return [(f, n) for f in sorted(lines) for n in sorted(lines[f])
            if lines[f][n]["insns"] and not lines[f][n]["hit"]]


CSS = """body{font-family:sans-serif;margin:1em 2em;color:#222}
table.t{border-collapse:collapse;margin-bottom:1.5em}
table.t td,table.t th{border:1px solid #bbb;padding:2px 8px;text-align:right;white-space:nowrap}
table.t td:first-child,table.t th:first-child{text-align:left}
.full{background:#d8f5d8}.part{background:#fff3c4}.none{background:#f8d0d0}
pre{margin:0;font-size:12px;line-height:1.35}
.src{border:1px solid #ccc;margin-bottom:2em}
.src div{white-space:pre;font-family:monospace;font-size:12px}
.n{color:#888;display:inline-block;width:4.5em;text-align:right;padding-right:.6em}
.h{display:inline-block;width:6em;text-align:right;padding-right:.6em;color:#555}
.l-hit{background:#e6f7e6}.l-miss{background:#f9d6d6}.l-part{background:#fff1bf}
.l-why{background:#e4e4f7}.note{color:#8a4b00;font-style:italic}
"""


def html_page(title, rows, lines, why, meta):
    h = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
         f"<style>{CSS}</style></head><body><h1>{html.escape(title)}</h1>",
         f"<p>{html.escape(meta)}</p>",
         "<table class='t'><tr><th>kernel</th><th>source</th><th>instructions</th><th>blocks</th>"
         "<th>branches both ways</th><th>one way</th><th>never</th><th>by design</th></tr>"]

    def cls(a, b):
        return "full" if a == b else "none" if not a else "part"
    for r in rows:
        h.append(f"<tr><td>{html.escape(r['kernel'])}</td><td>{html.escape(r['file'])}</td>"
                 f"<td class='{cls(r['insns_hit'], r['insns'])}'>{r['insns_hit']}/{r['insns']} "
                 f"({pct(r['insns_hit'], r['insns'])})</td>"
                 f"<td class='{cls(r['blocks_hit'], r['blocks'])}'>{r['blocks_hit']}/{r['blocks']}"
                 f"</td><td class='{cls(r['branches_both'], r['branches'])}'>"
                 f"{r['branches_both']}/{r['branches']}</td><td>{r['branches_one']}</td>"
                 f"<td>{r['branches_never']}</td><td>{r.get('explained', 0)}</td></tr>")
    h.append("</table><p>Lines: <span class='l-hit'>reached</span> "
             "<span class='l-part'>partly reached</span> <span class='l-miss'>not reached</span> "
             "<span class='l-why'>not reachable, with the reason</span>; the number is the "
             "most times any instruction of the line ran.</p>")
    for file in sorted(lines):
        src = read_source(file)
        h.append(f"<h2>{html.escape(file)}</h2><div class='src'>")
        if src is None:
            h.append("<div>(source not found)</div></div>")
            continue
        for n, text in enumerate(src, 1):
            ln = lines[file].get(n)
            reason = why.get((file, n))
            c, mark = "", ""
            if ln:
                c = "l-hit" if ln["hit"] == ln["insns"] else "l-miss" if not ln["hit"] \
                    else "l-part"
                if reason and ln["hit"] < ln["insns"]:
                    c = "l-why"
                mark = str(ln["max"]) if ln["hit"] else "#####"
            h.append(f"<div class='{c}' id='{html.escape(file)}:{n}'><span class='n'>{n}</span>"
                     f"<span class='h'>{mark}</span>{html.escape(text) or ' '}</div>")
            if ln and reason and ln["hit"] < ln["insns"]:
                h.append(f"<div class='note'><span class='n'></span><span class='h'></span>"
                         f"not reachable from the seeds: {html.escape(reason)}</div>")
            if ln and ln["hit"] and ln["hit"] < ln["insns"]:
                for note in missed_notes(ln):
                    h.append(f"<div class='note'><span class='n'></span><span class='h'></span>"
                             f"{html.escape(note)}</div>")
            for b in (ln or {}).get("branches", []):
                h.append(f"<div class='note'><span class='n'></span><span class='h'></span>"
                         f"branch {html.escape(branch_note(b))}</div>")
        h.append("</div>")
    h.append("</body></html>\n")
    return "".join(h)


def load_why(baseline, family):
    """The baseline's "why" entries of the family: what the seeds cannot reach, by design.
    Each is keyed by source text, not by a line number or an offset, so an unrelated edit of
    the file (a line added above) leaves it valid and a change of the line itself makes it
    stale:
      {"file", "text", "occurrence", "reason"}: a source line, by its text (comments and
        spacing aside) and which of the file's lines of that text (1: the first);
      {"kernel", "insn", "text", "occurrence", "reason"}: a conditional branch going one way, by
        its mnemonic and the text of its source line (in a macro's expansion: the invocation's)
        and which of the kernel's branches of that mnemonic and line (1: the first)."""
    return list(baseline.get(family, {}).get("why", []))


def norm_text(line):
    """A source line as the keys compare it: no /* */ or // comment, spacing collapsed."""
    line = re.sub(r"/\*.*?\*/", " ", line)
    line = re.sub(r"/\*.*$", " ", line)
    line = re.sub(r"(^|\s)//.*$", " ", line)
    return " ".join(line.split())


def line_key(path, n):
    """(text, occurrence) of line n of path, or None."""
    src = read_source(path)
    if not src or not 1 <= n <= len(src):
        return None
    t = norm_text(src[n - 1])
    return t, sum(1 for x in src[:n] if norm_text(x) == t)


def find_line(path, text, occurrence):
    """The line number of the occurrence-th line of path whose text is text, or None."""
    seen = 0
    for n, x in enumerate(read_source(path) or [], 1):
        if norm_text(x) == text:
            seen += 1
            if seen == occurrence:
                return n
    return None


def branch_keys(k):
    """{offset: (mnemonic, text, occurrence)} of kernel k's conditional branches."""
    out, seen, texts = {}, {}, {}
    for i in k.insns:
        if not i.cond or i.target is None:
            continue
        if (i.file, i.line) not in texts:
            src = read_source(i.file) or []
            texts[(i.file, i.line)] = norm_text(src[i.line - 1]) if 1 <= i.line <= len(src) else ""
        key = (i.mnem, texts[(i.file, i.line)])
        seen[key] = seen.get(key, 0) + 1
        out[i.addr - k.start] = key + (seen[key],)
    return out


def resolve_why(entries, kernels):
    """({(file, line): reason}, {(kernel, offset): reason}, [why an entry matches nothing])
    for this build's kernels and sources."""
    lines, branches, unresolved = {}, {}, []
    by_name = {k.name: k for k in kernels}
    keys = {}
    for w in entries:
        reason = w.get("reason", "")
        if "kernel" in w:
            if "branch" in w and "text" not in w:
                unresolved.append(f"{w['kernel']}+{w['branch']}: keyed by an offset: key it by "
                                  "the branch's mnemonic, source text and occurrence")
                continue
            k = by_name.get(w["kernel"])
            if k is None:
                unresolved.append(f"{w['kernel']}: no such kernel in the build")
                continue
            if k.name not in keys:
                keys[k.name] = branch_keys(k)
            want = (w.get("insn"), w.get("text"), int(w.get("occurrence", 1)))
            off = [o for o, key in keys[k.name].items() if key == want]
            if not off:
                unresolved.append(f"{k.name}: no {want[0]} of the line \"{want[1]}\" "
                                  f"(occurrence {want[2]}): the code changed")
                continue
            branches[(k.name, off[0])] = reason
        else:
            if "line" in w and "text" not in w:
                unresolved.append(f"{w['file']}:{w['line']}: keyed by a line number: key it by "
                                  "the line's text and occurrence")
                continue
            n = find_line(w["file"], w.get("text"), int(w.get("occurrence", 1)))
            if n is None:
                unresolved.append(f"{w['file']}: no line \"{w.get('text')}\" (occurrence "
                                  f"{w.get('occurrence', 1)}): the line changed")
                continue
            lines[(w["file"], n)] = reason
    return lines, branches, unresolved


def stale_why(rows, lines, why_lines, why_branches, unresolved=()):
    """Entries of the baseline's "why" that no longer describe a gap: each must be updated
    with the code (the line or branch changed, or the gap was closed)."""
    stale = list(unresolved)
    for (f, n), _ in why_lines.items():
        ln = lines.get(f, {}).get(n)
        if not ln or ln["hit"] == ln["insns"]:
            stale.append(f"{f}:{n}: the line has no unreached instruction")
    gaps = {b["at"] for r in rows for b in r["branch_list"] if not (b["taken"] and b["not_taken"])}
    for (k, off), _ in why_branches.items():
        if f"{k}+{off:#x}" not in gaps:
            stale.append(f"{k}+{off:#x}: no conditional branch there goes one way only")
    return stale


class Skip(Exception):
    pass


def run_tool(tool, args, env=None):
    st = stage.run([tool] + args, env)
    if st.rc == 77:
        raise Skip(st.reason())
    if st.rc not in (0, 1) or st.summary is None:
        print(st.text[-3000:])
        die(f"{os.path.basename(tool)} {' '.join(args[:2])}: exit {st.rc}: {st.reason()}")
    return st


def collect(tool, inputs, env=None):
    """Every coverage record of the tool run over each input set (a list of argument lists),
    and the stages."""
    hits, stages = {}, []
    for args in inputs:
        st = run_tool(tool, ["coverage"] + args, env)
        stages.append(st)
        merge_records(st.recs, hits)
    return hits, stages


def report(title, binary, wanted, hits, why_entries=None, html_path=None, listing_path=None):
    """(rows, lines, resolved): the kernels' numbers, the per-line map, and the "why" entries
    (load_why's) resolved against this build: resolve_why's triple; writes the listing and
    HTML."""
    kernels = kernel_functions(binary, wanted)
    disassemble(binary, kernels)
    resolved = resolve_why(why_entries or [], kernels)
    why, why_branch, _ = resolved
    WHY.clear()
    WHY.update(why_branch)
    rows = [analyse(k, hits, why_branch) for k in kernels]
    lines = line_map(kernels, hits)
    for k, r in zip(kernels, rows):
        r["explained"] = r["branches_explained"] + sum(
            1 for (f, n) in why if any(i.file == f and i.line == n for i in k.insns))
    meta = (f"{binary}; {len(hits)} distinct instructions reached; made by ./asmdiff coverage "
            f"on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    if listing_path:
        os.makedirs(os.path.dirname(os.path.abspath(listing_path)), exist_ok=True)
        with open(listing_path, "w") as f:
            f.write(f"{title}\n{meta}\n\n{table_text(rows)}\n\n{listing_text(lines, why)}")
    if html_path:
        os.makedirs(os.path.dirname(os.path.abspath(html_path)), exist_ok=True)
        with open(html_path, "w") as f:
            f.write(html_page(title, rows, lines, why, meta))
    return rows, lines, resolved


def compare(rows, base):
    """Lines saying where a kernel reaches less than the baseline ([] when none).  What is
    compared is what was missed (instructions, blocks, branch directions not reached), so a
    kernel that grows or shrinks keeps its baseline while it stays as well covered."""
    drops = []
    have = {r["kernel"]: r for r in rows}
    for name, b in sorted(base.items()):
        r = have.get(name)
        if r is None:
            drops.append(f"{name}: in the baseline, not in the build")
            continue
        for total, hit, what, got in (
                ("insns", "insns_hit", "instructions not reached", "reached"),
                ("blocks", "blocks_hit", "basic blocks not reached", "reached"),
                ("branches", "branches_both", "branches not taken both ways", "both ways")):
            missed, was = r[total] - r[hit], b[total] - b[hit]
            if missed > was:
                drops.append(f"{name}: {what}: {missed} ({r[hit]} of {r[total]} {got}); the "
                             f"baseline has {was}")
    for name in sorted(set(have) - set(base)):
        drops.append(f"{name}: not in the baseline (record it: ./asmdiff coverage FAMILY "
                     "--write-baseline)")
    return drops


def family_wanted(family):
    root = os.path.join(TOP, "kernels")

    def wanted(path):
        return path.startswith(root + os.sep)
    return wanted


def cmd_coverage(a):
    fams = builds.families()
    builds.check_family(a.family, fams)
    # this host's build first: a family with riscv64 kernels may have portable ones here
    fam = builds.load_families(builds.BUILD).get(a.family) or fams[a.family]
    rv_note = ("its riscv64 kernels: n/a: the observer is the x86-64 emulator (Unicorn and the "
               "vector executor); qemu-riscv64 gives the suite no instruction trace")
    if fam["riscv64"]:
        print(f"coverage {a.family}: n/a: {rv_note}")
        return 77
    if fams[a.family]["riscv64"]:
        print(f"coverage {a.family}: {rv_note}; the kernels below are this host's")
    tool = os.path.join(fam["build"], "asmdiff-" + a.family)
    seeds = a.seeds or os.path.join(TOP, "corpus", a.family, "seeds")
    for d in [seeds] + a.corpus:
        if not os.path.exists(d):
            die(f"coverage: no such corpus: {d}")
    missing = [p for p in ("nm", "objdump") if not shutil.which(p)]
    if missing:
        # under ./asmdiff test (ASMDIFF_STRICT=1) the setup installs binutils: missing is an error
        strict = os.environ.get("ASMDIFF_STRICT") == "1"
        print(f"coverage {a.family}: {'FAIL' if strict else 'SKIP'}: {' and '.join(missing)} "
              "(binutils) not found: the kernels are decoded with them")
        return 1 if strict else 77
    t0 = time.time()
    inputs = [[seeds]] + [[d] for d in a.corpus]
    if a.kat:
        inputs.append(["kat", TOP])
    try:
        hits, stages = collect(tool, inputs)
    except Skip as e:
        print(f"coverage {a.family}: SKIP: {e}")
        return 77
    out = a.out or os.path.join(builds.FINDINGS, "coverage")
    html_path = a.html or os.path.join(out, f"{a.family}.html")
    listing_path = os.path.join(out, f"{a.family}.txt")
    try:
        with open(a.baseline or BASELINE) as f:
            baseline = json.load(f)
    except (OSError, ValueError):
        baseline = {}
    srcs = ", ".join(os.path.relpath(d, TOP) if d.startswith(TOP) else d
                     for d in [seeds] + a.corpus) + (", kat" if a.kat else "")
    rows, lines, (why_lines, why_branches, unresolved) = report(
        f"asmdiff coverage {a.family} ({srcs})", tool, family_wanted(a.family), hits,
        load_why(baseline, a.family), html_path, listing_path)
    cases = sum((s.summary or {}).get("cases", 0) for s in stages)
    bad = [s for s in stages if s.rc]
    print(f"coverage {a.family}: {cases} cases from {srcs}, {len(rows)} kernels, "
          f"{time.time() - t0:.1f}s")
    print(table_text(rows))
    miss = unreached_lines(lines)
    explained = [m for m in miss if m in why_lines]
    if miss:
        print(f"\nlines no input reached: {len(miss)} ({len(explained)} by design, explained in "
              "the baseline file)")
        for f, n in miss[:60]:
            print(f"  {f}:{n}" + (f"  (by design: {why_lines[(f, n)]})"
                                  if (f, n) in why_lines else ""))
        if len(miss) > 60:
            print(f"  ... {len(miss) - 60} more (see the listing)")
    one_way = [b for r in rows for b in r["branch_list"] if not (b["taken"] and b["not_taken"])]
    if one_way:
        print(f"\nbranches not taken both ways: {len(one_way)} "
              f"({sum(1 for b in one_way if b['why'])} by design)")
        for b in one_way[:60]:
            what = "never reached" if not b["taken"] and not b["not_taken"] else \
                "never taken" if not b["taken"] else "always taken"
            print(f"  {b['at']} ({b['source']}): {b['insn'].split()[0]} {what}" +
                  (f"  (by design: {b['why']})" if b["why"] else ""))
    for i in (i for s in stages for i in results.of_type(s.recs, "info")
              if i.get("kind") == "coverage-unfinished"):
        print(f"info: {i.get('message')}")
    print(f"\nlisting: {listing_path}\nhtml: {html_path}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"family": a.family, "kernels": rows}, f, indent=1)
    if not rows:
        print(f"coverage {a.family}: FAIL: no kernel function found in {tool}")
        return 1
    if not hits:
        print(f"coverage {a.family}: FAIL: no kernel instruction was observed")
        return 1
    if bad:
        for s in bad:
            stage.print_reports(s)
        print(f"coverage {a.family}: FINDINGS in the checked runs (above)")
        return 1
    if a.write_baseline:
        path = a.baseline or BASELINE
        entry = baseline.setdefault(a.family, {})
        entry["kernels"] = {r["kernel"]: {k: r[k] for k in ("insns", "insns_hit", "blocks",
                                                            "blocks_hit", "branches",
                                                            "branches_both")} for r in rows}
        entry.setdefault("why", [])
        with open(path, "w") as f:
            json.dump(baseline, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"baseline for {a.family} written to {path}")
        return 0
    if a.check_baseline:
        base = baseline.get(a.family, {}).get("kernels")
        if not base:
            print(f"coverage {a.family}: FAIL: no baseline for {a.family} in "
                  f"{a.baseline or BASELINE}")
            return 1
        drops = compare(rows, base)
        drops += [f"stale \"why\" entry: {w}" for w in
                  stale_why(rows, lines, why_lines, why_branches, unresolved)]
        if drops:
            print(f"\ncoverage {a.family}: FAIL: below the baseline, or the baseline out of date:")
            for d in drops:
                print(f"  {d}")
            return 1
        print(f"coverage {a.family}: every kernel at or above the baseline ({len(base)} kernels)")
    return 0


# the random cases a check's coverage replays (its random stage runs 3000)
COVERAGE_RANDOM = 1000


def check_outside_coverage(tool, kernel, family, corpora, env=None):
    """For ./asmdiff check: the outside kernel's coverage from the stages' inputs — the seeds,
    the first COVERAGE_RANDOM of the random stage's cases (the same generator and seed: every
    call is traced instruction by instruction, ~40 ms a case for POLYVAL's long messages, so all
    3000 took most of a check's time), the published vectors and the fuzzer's corpus (the
    exhaustive domain is not replayed: every call of it would be emulated) — its table and the
    lines none reached; the listing and HTML beside the check's findings.  Returns the rows
    (printed)."""
    kernel = os.path.normpath(os.path.abspath(kernel))
    seeds = os.path.join(TOP, "corpus", family, "seeds")
    inputs = [[seeds], ["random", str(COVERAGE_RANDOM), "1"], ["kat", TOP]] + \
        [[c] for c in corpora if os.path.isdir(c) and os.listdir(c)]
    hits, infos = {}, []
    for args in inputs:
        st = stage.run([tool, "coverage"] + args, env)
        if st.rc == 77:
            print(f"coverage: skip: {st.reason()}")
            return []
        merge_records(st.recs, hits)
        infos += [i.get("message") for i in results.of_type(st.recs, "info")
                  if i.get("kind") == "coverage-unfinished"]
    out = os.path.join((env or os.environ).get("ASMDIFF_FINDINGS", builds.FINDINGS), "coverage")
    base = os.path.splitext(os.path.basename(kernel))[0]
    rows, lines, _ = report(f"asmdiff check coverage: {kernel}", tool,
                         lambda p: p == kernel, hits, None,
                         os.path.join(out, base + ".html"), os.path.join(out, base + ".txt"))
    print(f"\n== coverage of {os.path.basename(kernel)} (seeds, {COVERAGE_RANDOM} random cases, kat"
          f"{', fuzz corpus' if len(inputs) > 3 else ''}; observed in the emulator)")
    print(table_text(rows) if rows else "  (no function of the file found in the build)")
    miss = unreached_lines(lines)
    if miss:
        print(f"lines no stage reached: {len(miss)}")
        for f, n in miss[:40]:
            src = read_source(f) or []
            print(f"  {f}:{n}: {src[n - 1].strip() if n <= len(src) else ''}")
        if len(miss) > 40:
            print(f"  ... {len(miss) - 40} more")
    one_way = [b for r in rows for b in r["branch_list"] if not (b["taken"] and b["not_taken"])]
    if one_way:
        print(f"branches no stage took both ways: {len(one_way)}")
        for b in one_way[:40]:
            what = "never reached" if not b["taken"] and not b["not_taken"] else \
                "never taken" if not b["taken"] else "always taken"
            print(f"  {b['at']} ({b['source']}): {b['insn'].split()[0]} {what}")
    for m in infos:
        print(f"info: {m}")
    print(f"listing: {os.path.join(out, base + '.txt')}\nhtml: {os.path.join(out, base + '.html')}")
    return rows
