"""python3 -m asmdiff COMMAND [ARGS]: what ./asmdiff runs once it has set up and built."""
import sys

from asmdiff.cli import main

sys.exit(main(sys.argv[1:]))
