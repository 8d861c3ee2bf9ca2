#!/usr/bin/env python3
"""The table of supported forms in docs/vector-executor.md is the executor's own table.

Usage: vx_docs_check.py VX_REACH DOC [--write]
Runs `VX_REACH --list` (the Markdown table printed from vexec.c's table) and compares it with
the part of DOC between the markers <!-- forms:begin --> and <!-- forms:end -->.  Exit 0 when
equal; 1 with a diff otherwise; --write replaces the part instead (regenerating the docs).
"""
import difflib
import subprocess
import sys

BEGIN, END = "<!-- forms:begin -->\n", "<!-- forms:end -->\n"


def main():
    exe, doc = sys.argv[1], sys.argv[2]
    table = subprocess.run([exe, "--list"], check=True, capture_output=True,
                           text=True).stdout
    text = open(doc, encoding="utf-8").read()
    if BEGIN not in text or END not in text:
        print(f"{doc}: markers {BEGIN.strip()} / {END.strip()} missing")
        return 1
    head, rest = text.split(BEGIN, 1)
    old, tail = rest.split(END, 1)
    if "--write" in sys.argv[3:]:
        open(doc, "w", encoding="utf-8").write(head + BEGIN + table + END + tail)
        return 0
    if old == table:
        print(f"{doc}: the table of forms equals the executor's ({table.count(chr(10)) - 2} forms)")
        return 0
    sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), table.splitlines(True),
                                               doc, "vx_reach --list"))
    print(f"{doc}: out of date; regenerate with: {sys.argv[0]} {exe} {doc} --write")
    return 1


if __name__ == "__main__":
    sys.exit(main())
