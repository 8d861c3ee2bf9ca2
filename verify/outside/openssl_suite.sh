#!/usr/bin/env bash
# openssl_suite.sh [--plant AFTER FIND REPLACE EXPECT] FAMILY FLAVOUR OP NEEDS BUDGET — OpenSSL
# 3.0's perlasm file of FAMILY (chacha: crypto/chacha/asm/chacha-x86_64.pl, entry point
# ChaCha20_ctr32; poly1305: crypto/poly1305/asm/poly1305-x86_64.pl, entry point poly1305_init;
# mpi: crypto/bn/asm/x86_64-mont.pl, entry point bn_mul_mont, with x86_64-mont5.pl beside it)
# as perlasm writes it for FLAVOUR (elf: System V, the openssl convention; mingw64: Windows x64,
# the win64 convention, taken as it is), checked as an outside kernel of the family
# (./asmdiff check FAMILY --convention openssl|win64 --op OP: the path that OPENSSL_ia32cap_P's
# bits for OP choose; fuzz/conventions/openssl_FAMILY.c).
#   clean:   every row passes, kat and the CPU-features row with calls of the kernel;
#   --plant: the line FIND, the first after the line containing AFTER, made REPLACE (the Win64
#            class: xmm6 not restored in the AVX-512 path); the check must report EXPECT
#            (verify/expect_records.py's words) and say "findings".
# The source: Debian's openssl 3.0 source package, as the OSS-Fuzz builds fetch it
# (tools/ossfuzz_fetch_sources into $ASMDIFF_BUILD/ossfuzz/src, under their lock); the .s is
# generated here with perl and the file's own perlasm (x86_64-xlate.pl), CC=gcc for its
# assembler probe (GNU as: every AVX-512 path emitted): perlasm.sh.  Without the source or
# perl: exit 77 and what is missing (in CI a failure: verify/missing.sh).
set -u
plant=()
if [ "${1:-}" = --plant ]; then
  [ $# -ge 10 ] || { echo "usage: openssl_suite.sh [--plant AFTER FIND REPLACE EXPECT] FAMILY FLAVOUR OP NEEDS BUDGET" >&2; exit 2; }
  plant=("$2" "$3" "$4" "$5"); shift 5
fi
[ $# = 5 ] || { echo "usage: openssl_suite.sh [--plant AFTER FIND REPLACE EXPECT] FAMILY FLAVOUR OP NEEDS BUDGET" >&2; exit 2; }
family=$1 flavour=$2 op=$3 needs=$4 budget=$5
case "$family" in
  chacha) pl=crypto/chacha/asm/chacha-x86_64.pl symbol=ChaCha20_ctr32 widest=ChaCha20_avx512 ;;
  poly1305) pl=crypto/poly1305/asm/poly1305-x86_64.pl symbol=poly1305_init
            widest=poly1305_blocks_avx512 ;;
  # bn_mul_mont's squaring path calls into x86_64-mont5.pl's output: generated too, and linked
  # beside it (check --with)
  mpi) pl=crypto/bn/asm/x86_64-mont.pl symbol=bn_mul_mont widest=bn_mulx4x_mont
       beside=crypto/bn/asm/x86_64-mont5.pl ;;
  *) echo "openssl_suite.sh: FAMILY is chacha, poly1305 or mpi, not '$family'" >&2; exit 2 ;;
esac
case "$flavour" in
  elf) conv=openssl ;;
  mingw64) conv=win64 ;;
  *) echo "openssl_suite.sh: FLAVOUR is elf or mingw64, not '$flavour'" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/verify/missing.sh"
. "$here/perlasm.sh"
build=${ASMDIFF_BUILD:?}
mkdir -p "$build/ossfuzz"
( flock 9 || exit 1; "$top/tools/ossfuzz_fetch_sources" "$build/ossfuzz/src" ) \
  9>"$build/ossfuzz/.fetch.lock" >"$build/ossfuzz/fetch-openssl-suite.log" 2>&1
rc=$?
src=$build/ossfuzz/src/openssl
if [ ! -f "$src/$pl" ]; then
  cat "$build/ossfuzz/fetch-openssl-suite.log"
  missing "OpenSSL 3.0 sources not found ($src; tools/ossfuzz_fetch_sources exit $rc)" \
    "the slow set's setup (tools/ossfuzz_fetch_sources)"
fi
out=$build/openssl-perlasm
mkdir -p "$out"
gen=$out/$(basename "$pl" .pl)-$flavour.s
perlasm "$gen" "$src/$pl" "$flavour" || exit 1
with=()
if [ -n "${beside:-}" ]; then
  b=$out/$(basename "$beside" .pl)-$flavour.s
  perlasm "$b" "$src/$beside" "$flavour" || exit 1
  with=(--with "$b")
fi
grep -q "^$widest:" "$gen" || {
  echo "openssl_suite.sh: $gen has no AVX-512 path (perlasm's assembler probe: gcc -Wa,-v)" >&2
  exit 1
}
kernel=$gen
if [ ${#plant[@]} -gt 0 ]; then
  kernel=$out/planted-$(printf '%s\n' "$family" "$flavour" "${plant[@]:0:3}" | sha1sum | cut -c1-10)/$(basename "$gen")
  mkdir -p "$(dirname "$kernel")"
  python3 "$top/verify/outside/plant.py" "$gen" "$kernel" "${plant[@]:0:3}" || exit 1
  # the file --with links is the kernel's tree's: beside the planted copy too (check links a
  # --with file only into kernels of its own folder)
  if [ ${#with[@]} -gt 0 ]; then
    cp "$b" "$(dirname "$kernel")/" || exit 1
    with=(--with "$(dirname "$kernel")/$(basename "$b")")
  fi
fi
args=("$family" --kernel "$kernel" --symbol "$symbol" --convention "$conv" --op "$op"
      --needs "$needs" --budget "$budget" ${with[@]+"${with[@]}"})
if [ ${#plant[@]} -gt 0 ]; then
  exec python3 "$top/verify/expect_records.py" verdict=findings "${plant[3]}" -- \
    python3 "$top/tools/asmdiff_cmd.py" check "${args[@]}" --fail-fast
fi
exec python3 "$top/verify/expect_records.py" verdict=clean \
  'row:kat result=pass calls>0' 'row:* "stage~^cpu features" result=pass calls>0' -- \
  python3 "$top/tools/asmdiff_cmd.py" check "${args[@]}"
