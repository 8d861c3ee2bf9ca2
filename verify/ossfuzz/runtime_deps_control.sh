#!/usr/bin/env bash
# runtime_deps_control.sh SRCDIR — the runtime-dependency check (check_runtime_deps.sh) can fail.
# Property: a program linked against a -dev package's shared library (the system's libgmp.so,
# as a fuzzer would be if build.sh let pkg-config find the image's libgmp-dev) is reported,
# naming the library; the same program with GMP linked statically, and a plain C program,
# pass.  Exit 0 pass, 1 fail, 77 skip (no clang-19 or libgmp-dev).
set -u
srcdir=$1
check=$srcdir/verify/ossfuzz/check_runtime_deps.sh
. "$srcdir/verify/missing.sh"
command -v clang-19 >/dev/null || missing "clang-19 is not installed" "tools/bootstrap"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/asmdiff-depsctl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/p.c" <<'C'
#include <gmp.h>
#include <stdio.h>
int main(void) { mp_limb_t a = 1, b = 2, r; mpn_add_n(&r, &a, &b, 1); printf("%lu\n", (unsigned long)r); return 0; }
C
echo 'int main(void) { return 0; }' >"$tmp/plain.c"
clang-19 -o "$tmp/dynamic" "$tmp/p.c" -lgmp 2>"$tmp/err" ||
  { cat "$tmp/err"; missing "cannot link against the system's libgmp (libgmp-dev)" "tools/bootstrap"; }
clang-19 -o "$tmp/static" "$tmp/p.c" -Wl,-Bstatic -lgmp -Wl,-Bdynamic || { echo "FAIL: static link"; exit 1; }
clang-19 -o "$tmp/plain" "$tmp/plain.c" || { echo "FAIL: plain link"; exit 1; }
bad=0
out=$("$check" "$tmp/dynamic")
rc=$?
echo "$out" | head -n 3
if [ $rc = 1 ] && echo "$out" | grep -q 'needs libgmp\.so'; then
  echo "control: a program needing libgmp.so is reported"
else
  echo "FAIL: check_runtime_deps.sh passed a program that needs libgmp.so (exit $rc)"; bad=1
fi
for p in static plain; do
  if "$check" "$tmp/$p"; then echo "control: the $p program passes"
  else echo "FAIL: check_runtime_deps.sh rejected the $p program"; bad=1; fi
done
exit $bad
