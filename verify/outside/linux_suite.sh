#!/usr/bin/env bash
# linux_suite.sh FILE SYMBOL NEEDS BUDGET [PATTERN...] — Linux's own crypto assembly as an outside
# kernel (./asmdiff check FAMILY --kernel $ASMDIFF_LINUX_SRC/arch/x86/crypto/FILE in the linux
# convention, with our stand-in for the generated asm/asm-offsets.h in verify/outside/linux-compat).
# The family is the file's name up to its first '-' or '_' (aria, camellia, nh).  The check must
# come out clean and print every PATTERN (default: the known answers passed).
# The tree is $ASMDIFF_LINUX_SRC, else $ASMDIFF_BUILD/lib-cache/linux-6.12; without it, or
# without the file, a skip (77) saying what is missing: tests never download.
set -u
file=$1 symbol=$2 needs=$3 budget=$4
shift 4
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
src=${ASMDIFF_LINUX_SRC:-${ASMDIFF_BUILD:?}/lib-cache/linux-6.12}
path=$src/arch/x86/crypto/$file
if [ ! -f "$path" ]; then
  echo "Linux sources not found: set ASMDIFF_LINUX_SRC or run tools/get_linux_source ($path is missing)"
  exit 77
fi
family=${file%%[-_]*}
patterns=("$@")
[ ${#patterns[@]} = 0 ] && patterns=("^kat +pass")
exec "$here/expect_clean.sh" "${patterns[@]}" "check: clean" -- \
  python3 "$top/tools/asmdiff_cmd.py" check "$family" --kernel "$path" --symbol "$symbol" \
  --include "$here/linux-compat" --needs "$needs" --budget "$budget"
