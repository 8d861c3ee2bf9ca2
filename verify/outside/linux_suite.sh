#!/usr/bin/env bash
# linux_suite.sh BUDGET FILE SYMBOL NEEDS [FILE SYMBOL NEEDS]... — Linux's own crypto assembly as
# outside kernels (./asmdiff check FAMILY --kernel $ASMDIFF_LINUX_SRC/arch/x86/crypto/FILE in
# the linux convention, with our stand-in for the generated asm/asm-offsets.h in
# verify/outside/linux-compat).  Every triple is one kernel of ONE check build (up to four: the
# entry points of a file, or two files of one family, share the build, the cases and the fuzz
# run instead of repeating them per entry point).  The family is the first file's name up to its
# first '-' or '_' (aria, camellia, nh).  The check must come out clean with the known answers
# passed for every kernel, each counting its own calls.
# The tree is $ASMDIFF_LINUX_SRC, else $ASMDIFF_BUILD/lib-cache/linux-6.12; without it, or
# without a file, a skip (77) saying what is missing, a failure under ASMDIFF_STRICT=1 (the slow
# set's setup unpacks the tree: tools/get_linux_source): tests never download.
set -u
if [ $# -lt 4 ] || [ $(( ($# - 1) % 3 )) != 0 ]; then
  echo "usage: linux_suite.sh BUDGET FILE SYMBOL NEEDS [FILE SYMBOL NEEDS]..." >&2
  exit 2
fi
budget=$1
shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/verify/missing.sh"
src=${ASMDIFF_LINUX_SRC:-${ASMDIFF_BUILD:?}/lib-cache/linux-6.12}
family=${1%%[-_]*}
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
# one kernel: rows without a name; several: a row per kernel, "kat: SYMBOL", each with its calls
patterns=()
if [ ${#symbols[@]} = 1 ]; then
  patterns=("^kat +pass +[0-9]+ cases, [1-9][0-9]* calls")
else
  for s in "${symbols[@]}"; do patterns+=("^kat: $s +pass +[0-9]+ cases, [1-9][0-9]* calls of $s"); done
fi
exec "$here/expect_clean.sh" "${patterns[@]}" "check: clean" -- \
  python3 "$top/tools/asmdiff_cmd.py" check "$family" "${args[@]}" \
  --include "$here/linux-compat" --budget "$budget"
