#!/usr/bin/env python3
"""plant.py SRC DST AFTER FIND REPLACE — a positive control's copy of an upstream file: SRC
written to DST with one line changed, the first line after the line containing AFTER whose text
(leading and trailing blanks ignored) equals FIND, made REPLACE at that line's indentation.
A FIND that no line after AFTER matches is an error (exit 1), so a changed upstream file cannot
turn the plant into a no-op.  Every other line, and so every line number, stays the file's own.
Used by linux_suite.sh and openssl_suite.sh."""
import sys


def main(argv):
    if len(argv) != 6:
        sys.exit("usage: plant.py SRC DST AFTER FIND REPLACE")
    src, dst, after, find, replace = argv[1:6]
    with open(src) as f:
        lines = f.read().split("\n")
    start = next((i for i, l in enumerate(lines) if after in l), None)
    at = None if start is None else next((i for i in range(start + 1, len(lines))
                                          if lines[i].strip() == find), None)
    if at is None:
        sys.exit(f"plant: no line '{find}' after '{after}' in {src}: the upstream file (or "
                 "the perlasm output) changed")
    indent = lines[at][:len(lines[at]) - len(lines[at].lstrip())]
    lines[at] = indent + replace
    with open(dst, "w") as f:
        f.write("\n".join(lines))
    print(f"plant: {src}:{at + 1}: '{find}' -> '{replace}'")


if __name__ == "__main__":
    main(sys.argv)
