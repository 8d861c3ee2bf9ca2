#!/usr/bin/env bash
# gcrypt_levels.sh TOOL SRCDIR SEEDS COUNT — fuzz libgcrypt at every hardware-feature level.
# The levels are discovered from the library itself (its hwflist, as TOOL list prints it): the
# full set, each feature disabled alone, and all of them disabled.  Each level is a separate
# process (libgcrypt accepts GCRYCTL_DISABLE_HWF only before its initialisation), running the
# known-answer vectors, the seed corpus and COUNT structure-aware random inputs.
# What TOOL list says of libgcrypt comes from its result stream (ASMDIFF_RESULTS,
# docs/results.md: the libgcrypt implementation's impl record), never from its human text.
set -u
tool=$1 srcdir=$2 seeds=$3 count=$4
# how TOOL starts: directly, or under a host profile's qemu (verify/host_profile.sh)
run=${ASMDIFF_RUNNER:-}
results_py=$(cd "$(dirname "${BASH_SOURCE[0]}")/../tools/asmdiff" && pwd)/results.py
stream=$(mktemp "${TMPDIR:-/tmp}/asmdiff-levels.XXXXXX")
trap 'rm -f "$stream"' EXIT
if ! ASMDIFF_RESULTS=$stream $run "$tool" list >/dev/null; then
  echo "gcrypt levels: '$tool list' failed"
  exit 1
fi
if [ ! -s "$stream" ]; then
  echo "gcrypt levels: '$tool list' wrote no result stream (ASMDIFF_RESULTS)"
  exit 1
fi
# libgcrypt's implementation (named libgcrypt-<level>): three lines, available, reason, hwf
rows=$(python3 -B "$results_py" "$stream" impls) || { echo "gcrypt levels: no readable result stream"; exit 1; }
gcrypt=$(printf '%s\n' "$rows" | awk -F'\t' '$1 ~ /^libgcrypt-/ && $2 == "library" {
  print $3; print $5; print $7; found = 1; exit }
  END { if (!found) { print "false"; print "the tool lists no libgcrypt implementation" } }')
{ read -r available; read -r reason; read -r hwf; } <<<"$gcrypt"
if [ "$available" != true ]; then
  echo "SKIP: the installed libgcrypt does not implement this family: $reason"
  exit 77
fi
# the hardware features libgcrypt uses here (its impl record's hwf: its own hwflist)
if [ -z "$hwf" ] || [ "$hwf" = none ]; then
  echo "gcrypt levels: libgcrypt reports no hardware features here (or is not built): nothing to vary"
  exit 77
fi
# Our kernels that run emulated here (the impl record's emulated column: a CPU without what
# they need) are set aside at every level (ASMDIFF_SET_ASIDE): each level re-runs every
# implementation, and an emulated kernel costs minutes a level without saying anything about
# libgcrypt.  The replay, random and exhaustive tests run them against the library's full
# level; natively run kernels stay in, as cross-checks at every level.
# Where every kernel is emulated here, the first stays in: a level runs at least one of ours
# (results.py's emulated_set_aside, which `check --libgcrypt` uses too).
aside=$(python3 -B "$results_py" "$stream" set-aside) || { echo "gcrypt levels: no readable result stream"; exit 1; }
levels=("")
for f in $hwf; do levels+=("$f"); done
levels+=("$(echo $hwf | tr ' ' ',')")
# Under a host profile (verify/host_profile.sh) libgcrypt detects the model's features, which is
# what this test is for there; but every level also re-runs our kernels, emulated under qemu
# (a replay of the seeds takes minutes there): the levels get the published vectors only.
depth="kat, the seeds, $count random inputs"
if [ -n "${ASMDIFF_HOST_PROFILE:-}" ]; then
  depth="kat only (host profile $ASMDIFF_HOST_PROFILE: our kernels run emulated at every level)"
fi
echo "gcrypt levels: ${#levels[@]} levels of libgcrypt (hwf: $hwf); each: $depth"
[ -n "$aside" ] && echo "gcrypt levels: set aside at every level, emulated on this CPU: ${aside//;/, }"
export ASMDIFF_SET_ASIDE=$aside
pass=0 fail=0
for lv in "${levels[@]}"; do
  if ASMDIFF_GCRYPT_DISABLE=$lv $run "$tool" kat "$srcdir" >/tmp/asmdiff-level.$$ 2>&1 &&
     { [ -n "${ASMDIFF_HOST_PROFILE:-}" ] ||
       { ASMDIFF_GCRYPT_DISABLE=$lv $run "$tool" replay "$seeds" >>/tmp/asmdiff-level.$$ 2>&1 &&
         ASMDIFF_GCRYPT_DISABLE=$lv $run "$tool" random "$count" 7 >>/tmp/asmdiff-level.$$ 2>&1; }; }; then
    echo "ok   level: ${lv:+without }${lv:-every feature the library uses}"
    pass=$((pass + 1))
  else
    echo "FAIL level: disabled=${lv:-none}; reproduce with ASMDIFF_GCRYPT_DISABLE=$lv"
    tail -n 40 /tmp/asmdiff-level.$$
    fail=$((fail + 1))
  fi
done
rm -f /tmp/asmdiff-level.$$
echo "$pass passed, $fail failed"
[ $fail = 0 ]
