#!/usr/bin/env bash
# libgcrypt_suite.sh clean|planted FAMILY BUDGET — the libgcrypt-1.12 suite: FAMILY run against
# libgcrypt 1.12 built from Debian's sources (tools/build_libgcrypt, cached in
# $ASMDIFF_BUILD/lib-cache) at every hardware-feature level, through ./asmdiff check --libgcrypt.
#   clean:   the library as released must come out clean;
#   planted: the same library with one line of its ARIA assembly broken (aria_plant.sh) must be
#            caught (a MISMATCH on the libgcrypt implementation), or the suite is blind.
# Without network or compilers for the library the test skips (77) naming what failed; under
# ASMDIFF_STRICT=1 that is an error.
set -u
mode=$1 family=$2 budget=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${ASMDIFF_BUILD:?}/lib-cache
log=$(mktemp)
if [ "$mode" = planted ]; then
  . "$here/aria_plant.sh"
  prefix=$("$top/tools/build_libgcrypt" --plant "$plant_file" "$plant_find" "$plant_replace" "$cache" 2>"$log")
else
  prefix=$("$top/tools/build_libgcrypt" "$cache" 2>"$log")
fi
rc=$?
if [ $rc != 0 ]; then
  tail -n 20 "$log"; rm -f "$log"
  echo "libgcrypt 1.12 could not be built here (tools/build_libgcrypt exit $rc, above)"
  [ "${ASMDIFF_STRICT:-0}" = 1 ] && exit 1
  exit 77
fi
rm -f "$log"
echo "libgcrypt: $prefix"
cmd=(python3 "$top/tools/asmdiff_cmd.py" check --libgcrypt "$prefix" "$family" --budget "$budget")
if [ "$mode" = planted ]; then
  exec "$top/verify/expect_finding.sh" \
    "^$family libgcrypt every feature +FINDING +MISMATCH in $family: libgcrypt-full" "${cmd[@]}"
fi
exec "$here/expect_clean.sh" "libgcrypt every feature +pass .*libgcrypt 1\.12" \
  "libgcrypt without any +pass" \
  "check: clean" -- "${cmd[@]}"
