#!/usr/bin/env bash
# linux_suite.sh [--family F] [--op OP]... [--arch riscv64 [--beside NAME]... [--vlen N]...] [--expect EXPECT]...
#                [--plant AFTER FIND REPLACE EXPECT] BUDGET FILE SYMBOL NEEDS [FILE SYMBOL NEEDS]...
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
# --arch riscv64: the files are arch/riscv/crypto's, checked in a riscv64 check build under
# qemu-riscv64 (./asmdiff check --arch riscv64); each --beside NAME (a file of that folder the
# kernel includes with quotes: aes-macros.S) is copied beside it; --vlen N limits the VLENs
# (default: all four).  Clean then means every VLEN's known answers and random cases passed
# for every kernel with its calls counted, and every row of a VLEN passed with calls.  A
# planted riscv64 copy runs without --fail-fast (each VLEN takes seconds): its EXPECT and each
# --expect (more records, verify/expect_records.py) name the finding at each VLEN.
# --plant: a positive control instead: the first FILE copied with one line changed (the first
# line after the one containing AFTER whose text, stripped, is FIND, made REPLACE; the run fails
# if no such line exists, so a changed upstream file cannot turn the plant into a no-op), and
# the check (with --fail-fast) must report the finding EXPECT says (a row of its records:
# verify/expect_records.py).
# --every-stage: a --plant's check without --fail-fast, so EXPECT may name a later stage than
# the first to catch it (a read past a buffer: natively a guard page at kat, then the Unicorn
# engine's byte-exact bounds row); each stage stops at its own first finding.
# --finding EXPECT: the file as shipped must give the finding EXPECT says (with --fail-fast):
# a bug of the upstream file itself (an instruction its glue's CPU guard does not admit).
# --op OP: the check's --op, in the order of the triples (once for all, or once per SYMBOL).
# NEEDS is the kernel's --needs, or '-' for none: the check then takes the needs its
# convention declares (linux_polyval.c), as a user who gives no --needs gets them.
# A FILE ending in .pl is a perl script Linux's build runs to make the .S
# (poly1305-x86_64-cryptogams.pl): the .S is generated from it here as that build does, into
# $ASMDIFF_BUILD/linux-perlasm (perlasm.sh; without perl a skip), and checked (a --plant
# changes a line of that .S).
# The tree is $ASMDIFF_LINUX_SRC, else $ASMDIFF_BUILD/lib-cache/linux-6.12; without it, or
# without a file, a skip (77) saying what is missing, a failure under ASMDIFF_STRICT=1 (the slow
# set's setup unpacks the tree: tools/get_linux_source): tests never download.
set -u
plant=() family= arch=x86_64 beside=() vlens=() more=() finding= ops=() every_stage=
while :; do
  case "${1:-}" in
    --family) [ $# -ge 2 ] || { echo "usage: linux_suite.sh --family F ..." >&2; exit 2; }
              family=$2; shift 2 ;;
    --op) [ $# -ge 2 ] || { echo "usage: linux_suite.sh --op OP ..." >&2; exit 2; }
          ops+=(--op "$2"); shift 2 ;;
    --arch) [ "${2:-}" = riscv64 ] || { echo "linux_suite.sh: --arch riscv64 only" >&2; exit 2; }
            arch=$2; shift 2 ;;
    --beside) [ $# -ge 2 ] || { echo "usage: linux_suite.sh --beside NAME ..." >&2; exit 2; }
              beside+=("$2"); shift 2 ;;
    --vlen) [ $# -ge 2 ] || { echo "usage: linux_suite.sh --vlen N ..." >&2; exit 2; }
            vlens+=("$2"); shift 2 ;;
    --expect) [ $# -ge 2 ] || { echo "usage: linux_suite.sh --expect EXPECT ..." >&2; exit 2; }
              more+=("$2"); shift 2 ;;
    --every-stage) every_stage=1; shift ;;
    --finding) [ $# -ge 2 ] || { echo "usage: linux_suite.sh --finding EXPECT ..." >&2; exit 2; }
               finding=$2; shift 2 ;;
    --plant) [ $# -ge 5 ] || { echo "usage: linux_suite.sh --plant AFTER FIND REPLACE EXPECT BUDGET ..." >&2; exit 2; }
             plant=("$2" "$3" "$4" "$5"); shift 5 ;;
    *) break ;;
  esac
done
if [ $# -lt 4 ] || [ $(( ($# - 1) % 3 )) != 0 ]; then
  echo "usage: linux_suite.sh [--plant AFTER FIND REPLACE EXPECT] BUDGET FILE SYMBOL NEEDS [FILE SYMBOL NEEDS]..." >&2
  exit 2
fi
budget=$1
shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/verify/missing.sh"
. "$here/perlasm.sh"
src=${ASMDIFF_LINUX_SRC:-${ASMDIFF_BUILD:?}/lib-cache/linux-6.12}
family=${family:-${1%%[-_]*}}
crypto=$src/arch/x86/crypto
[ "$arch" = riscv64 ] && crypto=$src/arch/riscv/crypto
args=() symbols=()
while [ $# -gt 0 ]; do
  path=$crypto/$1
  if [ ! -f "$path" ]; then
    missing "Linux sources not found: set ASMDIFF_LINUX_SRC or run tools/get_linux_source ($path is missing)" \
      "the slow set's setup (tools/get_linux_source)"
  fi
  if [ "${path%.pl}" != "$path" ]; then
    # a perl script Linux's build runs to make the .S (poly1305-x86_64-cryptogams.pl): its
    # kernel form, generated here as that build does (perlasm.sh), into the build folder
    gen=${ASMDIFF_BUILD:?}/linux-perlasm/$(basename "$path" .pl).S
    case " ${generated:-} " in
      *" $gen "*) ;;  # the same file for another entry point: generated once a run
      *) perlasm "$gen" "$path" || exit 1; generated="${generated:-} $gen" ;;
    esac
    path=$gen
  fi
  args+=(--kernel "$path" --symbol "$2")
  # NEEDS '-': none given, so the check takes those the convention declares for the entry
  # point (struct convention.needs: linux_polyval.c's)
  [ "$3" = - ] || args+=(--needs "$3")
  symbols+=("$2")
  shift 3
done
args+=("${ops[@]}")
if [ "$arch" = riscv64 ]; then
  args+=(--arch riscv64)
  for b in "${beside[@]}"; do
    [ -f "$crypto/$b" ] || missing "Linux sources not found: $crypto/$b is missing" \
      "the slow set's setup (tools/get_linux_source)"
    args+=(--beside "$crypto/$b")
  done
  for n in "${vlens[@]}"; do args+=(--vlen "$n"); done
fi
if [ ${#plant[@]} -gt 0 ] || [ -n "$finding" ]; then
  if [ ${#plant[@]} -gt 0 ]; then
    finding=${plant[3]}
    # the planted copy at a path of its own plant in the build folder, so the next run reuses
    # its check build (recompiling the one file) instead of configuring a new one
    tmp=${ASMDIFF_BUILD:?}/linux-plant/$(printf '%s\n' "$arch" "${plant[@]:0:3}" "${args[@]}" | sha1sum | cut -c1-10)
    mkdir -p "$tmp"
    orig=${args[1]}
    copy=$tmp/$(basename "$orig")
    python3 "$top/verify/outside/plant.py" "$orig" "$copy" "${plant[@]:0:3}" || exit 1
    for i in "${!args[@]}"; do [ "${args[$i]}" = "$orig" ] && args[$i]=$copy; done
  fi
  # the finding EXPECT names (the plant's, or the shipped file's own); riscv64: no --fail-fast
  # (a VLEN's stages take seconds): the plant is caught at every VLEN
  fast=(--fail-fast)
  [ "$arch" = riscv64 ] || [ -n "$every_stage" ] && fast=()
  python3 "$top/verify/expect_records.py" verdict=findings "$finding" "${more[@]}" -- \
    python3 "$top/tools/asmdiff_cmd.py" check "$family" "${args[@]}" \
    --include "$here/linux-compat" --budget "$budget" "${fast[@]}"
  exit $?
fi
# every kernel's known answers passed, with its calls counted (one kernel: the row is that one's)
expect=()
stages=(kat)
if [ "$arch" = riscv64 ]; then
  # at every VLEN: its known answers and random cases, and each of its rows passed with calls
  stages=()
  [ ${#vlens[@]} -gt 0 ] || vlens=(128 256 512 1024)
  for n in "${vlens[@]}"; do stages+=("vlen$n kat" "vlen$n random"); done
  expect+=("every row:* result=pass calls>0 where stage~^vlen")
fi
for st in "${stages[@]}"; do
  if [ ${#symbols[@]} = 1 ]; then
    expect+=("row:\"$st\" result=pass calls>0")
  else
    for s in "${symbols[@]}"; do expect+=("row:\"$st\" kernel=$s result=pass calls>0"); done
  fi
done
# x86-64: the ISA-subset stage held each kernel to the NEEDS its glue admits it on (the CPU
# guard, as the test spells it), over the seeds or, outside their domain, random cases: a
# stage of the Unicorn engine, so for the families that register it (build/families.json)
unicorn=$(python3 -c 'import json, sys
print(int(any(f["name"] == sys.argv[2] and "unicorn" in f.get("engines", [])
              for f in json.load(open(sys.argv[1])))))' "${ASMDIFF_BUILD:?}/families.json" "$family" 2>/dev/null || echo 1)
if [ "$arch" = x86_64 ] && [ "$unicorn" = 1 ]; then
  if [ ${#symbols[@]} = 1 ]; then
    expect+=("row:* \"stage~^cpu features\" result=pass calls>0")
  else
    for s in "${symbols[@]}"; do
      expect+=("row:* \"stage~^cpu features\" kernel=$s result=pass calls>0")
    done
  fi
fi
exec python3 "$top/verify/expect_records.py" verdict=clean "${expect[@]}" "${more[@]}" -- \
  python3 "$top/tools/asmdiff_cmd.py" check "$family" "${args[@]}" \
  --include "$here/linux-compat" --budget "$budget"
