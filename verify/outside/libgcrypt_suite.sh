#!/usr/bin/env bash
# libgcrypt_suite.sh MODE FAMILY BUDGET — the libgcrypt-1.12 suite, on libgcrypt 1.12 built from
# Debian's sources (tools/build_libgcrypt, cached in $ASMDIFF_BUILD/lib-cache).
#   clean:   FAMILY through the library at every hardware-feature level (./asmdiff check
#            --libgcrypt) must come out clean;
#   planted: the same library with one line of its ARIA assembly broken (aria_plant.sh) must be
#            caught (a MISMATCH on the libgcrypt implementation), or the suite is blind;
#   kernel-ecb, kernel-ctr: the library's own ARIA AVX-512/GFNI file, taken from its source tree
#            as an outside kernel (./asmdiff check aria --kernel ... in the libgcrypt
#            convention), each entry point must come out clean;
#   kernel-planted: the planted copy of that file must be caught the same way;
#   kernel-ctr-as-ecb: the CTR entry point named with --op ecb must be refused before anything
#            runs (it computes CTR on the first known answer), never checked as ECB;
#   mpi-planted: the library with one line of mpi/amd64/mpih-add1.S broken (mpi_plant.sh; the
#            build compiles it as mpi/mpih-add1-asm.S) must be caught through its API (FAMILY
#            mpi).
# Without network or compilers for the library the test skips (77) naming what failed; under
# ASMDIFF_STRICT=1 that is an error.
set -u
mode=$1 family=$2 budget=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${ASMDIFF_BUILD:?}/lib-cache
log=$(mktemp)
if [ "$mode" = planted ] || [ "$mode" = kernel-planted ] || [ "$mode" = mpi-planted ]; then
  if [ "$mode" = mpi-planted ]; then . "$here/mpi_plant.sh"; else . "$here/aria_plant.sh"; fi
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
case $mode in
  kernel-*)
    # the file as the library's tree has it, with that tree's headers and its build's config.h
    clean=$("$top/tools/build_libgcrypt" "$cache" 2>/dev/null)
    src=$(ls -d "$cache"/src/libgcrypt20-*/ | head -n1)
    file=$src/cipher/aria-gfni-avx512-amd64.S
    [ "$mode" = kernel-planted ] && file=$prefix.build/cipher/aria-gfni-avx512-amd64.S
    sym=_gcry_aria_gfni_avx512_ecb_crypt_blk64
    case $mode in kernel-ctr*) sym=_gcry_aria_gfni_avx512_ctr_crypt_blk64 ;; esac
    cmd=(python3 "$top/tools/asmdiff_cmd.py" check aria --kernel "$file" --symbol "$sym"
         --include "$clean.build" --include "$src/cipher" --needs avx512f,avx512bw,avx512vl,gfni
         --budget "$budget")
    if [ "$mode" = kernel-ctr-as-ecb ]; then
      exec "$top/verify/expect_finding.sh" \
        "^operations +FAIL .*computes ctr on the first known answer, not ecb" "${cmd[@]}" --op ecb
    fi
    if [ "$mode" = kernel-planted ]; then
      exec "$top/verify/expect_finding.sh" "^kat +FINDING +MISMATCH in aria: $sym" "${cmd[@]}"
    fi
    exec "$here/expect_clean.sh" "^kat +pass" "^exhaustive +pass" "^vector leftovers +pass" \
      "check: clean" -- "${cmd[@]}" ;;
esac
cmd=(python3 "$top/tools/asmdiff_cmd.py" check --libgcrypt "$prefix" "$family" --budget "$budget")
if [ "$mode" = mpi-planted ]; then
  exec "$top/verify/expect_finding.sh" \
    "^mpi libgcrypt every feature +FINDING +MISMATCH in mpi: libgcrypt" "${cmd[@]}"
fi
if [ "$mode" = planted ]; then
  exec "$top/verify/expect_finding.sh" \
    "^$family libgcrypt every feature +FINDING +MISMATCH in $family: libgcrypt-full" "${cmd[@]}"
fi
exec "$here/expect_clean.sh" "libgcrypt every feature +pass .*libgcrypt 1\.12" \
  "libgcrypt without any +pass" \
  "check: clean" -- "${cmd[@]}"
