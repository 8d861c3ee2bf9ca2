#!/usr/bin/env python3
"""asmdiff_cmd.py — the old entry point, kept for the scripts and meson tests that run it
(`asmdiff_cmd.py check ...`): the commands live in the package tools/asmdiff (cli.py).
./asmdiff runs the package itself (python3 -B -m asmdiff)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

from asmdiff.cli import main  # noqa: E402  (after the path is set)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
