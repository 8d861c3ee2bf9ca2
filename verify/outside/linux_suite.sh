#!/usr/bin/env bash
# linux_suite.sh [--family F] [--plant AFTER FIND REPLACE EXPECT] BUDGET FILE SYMBOL NEEDS
#                [FILE SYMBOL NEEDS]...
# — Linux's own crypto assembly as
# outside kernels (./asmdiff check FAMILY --kernel $ASMDIFF_LINUX_SRC/arch/x86/crypto/FILE in
# the linux convention, with our stand-in for the generated asm/asm-offsets.h in
# verify/outside/linux-compat).  Every triple is one kernel of ONE check build (up to four: the
# entry points of a file, or two files of one family, share the build, the cases and the fuzz
# run instead of repeating them per entry point).  The family is the first file's name up to its
# first '-' or '_' (aria, camellia, nh, aes), or --family's (aesni-intel_asm.S is aes).  The
# check must come out clean with the known answers
# passed for every kernel, each counting its own calls (judged on the check's JSON records,
# verify/expect_records.py).
# --plant: a positive control instead: the first FILE copied with one line changed (the first
# line after the one containing AFTER whose text, stripped, is FIND, made REPLACE; the run fails
# if no such line exists, so a changed upstream file cannot turn the plant into a no-op), and
# the check (with --fail-fast) must report the finding EXPECT says (a row of its records:
# verify/expect_records.py).
# The tree is $ASMDIFF_LINUX_SRC, else $ASMDIFF_BUILD/lib-cache/linux-6.12; without it, or
# without a file, a skip (77) saying what is missing, a failure under ASMDIFF_STRICT=1 (the slow
# set's setup unpacks the tree: tools/get_linux_source): tests never download.
set -u
plant=() family=
if [ "${1:-}" = --family ]; then
  [ $# -ge 2 ] || { echo "usage: linux_suite.sh --family F ..." >&2; exit 2; }
  family=$2
  shift 2
fi
if [ "${1:-}" = --plant ]; then
  [ $# -ge 5 ] || { echo "usage: linux_suite.sh --plant AFTER FIND REPLACE EXPECT BUDGET ..." >&2; exit 2; }
  plant=("$2" "$3" "$4" "$5")
  shift 5
fi
if [ $# -lt 4 ] || [ $(( ($# - 1) % 3 )) != 0 ]; then
  echo "usage: linux_suite.sh [--plant AFTER FIND REPLACE EXPECT] BUDGET FILE SYMBOL NEEDS [FILE SYMBOL NEEDS]..." >&2
  exit 2
fi
budget=$1
shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/verify/missing.sh"
src=${ASMDIFF_LINUX_SRC:-${ASMDIFF_BUILD:?}/lib-cache/linux-6.12}
family=${family:-${1%%[-_]*}}
args=() symbols=()
while [ $# -gt 0 ]; do
  path=$src/arch/x86/crypto/$1
  if [ ! -f "$path" ]; then
    missing "Linux sources not found: set ASMDIFF_LINUX_SRC or run tools/get_linux_source ($path is missing)" \
      "the slow set's setup (tools/get_linux_source)"
  fi
  args+=(--kernel "$path" --symbol "$2" --needs "$3")
  symbols+=("$2")
  shift 3
done
if [ ${#plant[@]} -gt 0 ]; then
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/asmdiff-linux-plant.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  orig=${args[1]}
  copy=$tmp/$(basename "$orig")
  python3 - "$orig" "$copy" "${plant[@]:0:3}" <<'PY' || exit 1
import sys
src, dst, after, find, replace = sys.argv[1:6]
lines = open(src).read().split("\n")
start = next((i for i, l in enumerate(lines) if after in l), None)
at = None if start is None else next((i for i in range(start + 1, len(lines))
                                      if lines[i].strip() == find), None)
if at is None:
    sys.exit(f"plant: no line '{find}' after '{after}' in {src}: the upstream file changed")
indent = lines[at][:len(lines[at]) - len(lines[at].lstrip())]
lines[at] = indent + replace
open(dst, "w").write("\n".join(lines))
print(f"plant: {src}:{at + 1}: '{find}' -> '{replace}'")
PY
  for i in "${!args[@]}"; do [ "${args[$i]}" = "$orig" ] && args[$i]=$copy; done
  python3 "$top/verify/expect_records.py" verdict=findings "${plant[3]}" -- \
    python3 "$top/tools/asmdiff_cmd.py" check "$family" "${args[@]}" \
    --include "$here/linux-compat" --budget "$budget" --fail-fast
  exit $?
fi
# every kernel's known answers passed, with its calls counted (one kernel: the row is that one's)
expect=()
if [ ${#symbols[@]} = 1 ]; then
  expect=("row:kat result=pass calls>0")
else
  for s in "${symbols[@]}"; do expect+=("row:kat kernel=$s result=pass calls>0"); done
fi
exec python3 "$top/verify/expect_records.py" verdict=clean "${expect[@]}" -- \
  python3 "$top/tools/asmdiff_cmd.py" check "$family" "${args[@]}" \
  --include "$here/linux-compat" --budget "$budget"
