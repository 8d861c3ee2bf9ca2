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
#   kernel-ecb-emulated, kernel-ctr-emulated: kernel-ecb/-ctr with ASMDIFF_CPU_MASK=
#            -avx512f,-gfni, so the kernel can run only in the vector executor: the same verdict
#            (clean) is required, then emu-diff on the check build's tool must compare its calls
#            with the CPU (more than zero) without a finding.
# Without network or compilers for the library the test skips (77) naming what failed; under
# ASMDIFF_STRICT=1 that is an error.
set -u
mode=$1 family=$2 budget=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${ASMDIFF_BUILD:?}/lib-cache
log=$(mktemp)
if [ "$mode" = planted ] || [ "$mode" = kernel-planted ]; then
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
    if [ "$mode" = kernel-planted ]; then
      exec "$top/verify/expect_finding.sh" "^kat +FINDING +MISMATCH in aria: $sym" "${cmd[@]}"
    fi
    if [ "$mode" = kernel-ecb-emulated ] || [ "$mode" = kernel-ctr-emulated ]; then
      ASMDIFF_CPU_MASK=-avx512f,-gfni "$here/expect_clean.sh" "^kat +pass" "^exhaustive +pass" \
        "^random +pass" "^vector leftovers +pass" "check: clean" -- "${cmd[@]}" || exit 1
      # the check build's tool (the newest for this symbol: the one just used), on the CPU
      # and in the executor from the same state, call for call
      tool=$(ls -td "$ASMDIFF_BUILD"/check/aria-"$sym"-*/ | head -n1)asmdiff-aria-outside
      out=$("$tool" emu-diff random 3000 1 2>&1); rc=$?
      printf '%s\n' "$out" | grep -E "emu-diff: [0-9]+ kernel calls|no finding|FINDING" | cut -c1-200
      n=$(printf '%s\n' "$out" | sed -nE 's/.*emu-diff: ([0-9]+) kernel calls compared.*/\1/p')
      if [ $rc = 0 ] && [ "${n:-0}" -gt 0 ]; then
        echo "emulated: clean as native, and emu-diff agrees with the CPU on $n calls"
        exit 0
      fi
      echo "emu-diff FAILED: exit $rc, ${n:-0} kernel calls compared"
      exit 1
    fi
    exec "$here/expect_clean.sh" "^kat +pass" "^exhaustive +pass" "^vector leftovers +pass" \
      "check: clean" -- "${cmd[@]}" ;;
esac
cmd=(python3 "$top/tools/asmdiff_cmd.py" check --libgcrypt "$prefix" "$family" --budget "$budget")
if [ "$mode" = planted ]; then
  exec "$top/verify/expect_finding.sh" \
    "^$family libgcrypt every feature +FINDING +MISMATCH in $family: libgcrypt-full" "${cmd[@]}"
fi
exec "$here/expect_clean.sh" "libgcrypt every feature +pass .*libgcrypt 1\.12" \
  "libgcrypt without any +pass" \
  "check: clean" -- "${cmd[@]}"
