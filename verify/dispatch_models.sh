#!/usr/bin/env bash
# dispatch_models.sh TOOL SRCDIR SEEDS COUNT MODEL... — the libraries' own CPU dispatch on real
# CPU models (docs/host-profiles.md, "Dispatch on CPU models").  For each MODEL (a name of
# qemu-x86_64 -cpu help, resolved by host_profile.sh --resolve), TOOL runs under
# qemu-x86_64 -cpu MODEL, whose CPUID is what every library sees and which refuses every
# instruction the model lacks, in the dispatch mode (fuzz/harness/backend_dispatch.c: the
# libraries alone, no mask): the published vectors, the seeds and COUNT random cases.  A path
# a library takes on a model without one of its instructions is the ILLEGAL INSTRUCTION
# finding (the instruction, the feature, the library), and fails the test; so does a model on
# which no library ran.  Each model's line says what the libraries detected there (libgcrypt's
# hardware features in effect, from TOOL list's impl records; the CPU features the harness
# sees).  ASMDIFF_DISPATCH_LEVELS=N also runs libgcrypt's levels (verify/gcrypt_levels.sh, N
# random cases a level) under each model.
# Without qemu-x86_64 the test skips (77) naming it; under ASMDIFF_STRICT=1 that is an error.
set -u
[ $# -ge 5 ] || { echo "usage: dispatch_models.sh TOOL SRCDIR SEEDS COUNT MODEL..." >&2; exit 2; }
tool=$1 srcdir=$2 seeds=$3 count=$4
shift 4
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/missing.sh"
command -v qemu-x86_64 >/dev/null ||
  missing "dispatch on CPU models: qemu-x86_64 not found (Debian package qemu-user)" "tools/bootstrap"
ask() { python3 -B "$here/../tools/asmdiff/results.py" "$@" 2>/dev/null; }
work=$(mktemp -d "${TMPDIR:-/tmp}/asmdiff-dispatch.XXXXXX")
trap 'rm -rf "$work"' EXIT
export ASMDIFF_FINDINGS=$work/findings
unset ASMDIFF_CPU_MASK
fail=0 models=0
for model in "$@"; do
  cpu=$("$here/host_profile.sh" --resolve "$model") || { echo "FAIL $model: cannot resolve it"; fail=$((fail + 1)); continue; }
  export ASMDIFF_HOST_PROFILE=$model
  run=(qemu-x86_64 -cpu "$cpu")
  # what the libraries see: the harness's CPU features, libgcrypt's in effect
  ASMDIFF_RESULTS=$work/$model-list.jsonl "${run[@]}" "$tool" list > "$work/$model-list.txt" 2>&1
  cpuline=$(sed -n '1s/.*(cpu: \(.*\))$/\1/p' "$work/$model-list.txt")
  hwf=$(ask "$work/$model-list.jsonl" impls | awk -F'\t' '$1 ~ /^libgcrypt-/ && $2 == "library" && $3 == "true" { print $7; exit }')
  ok=1 ran=""
  for what in "kat $srcdir" "$seeds" "random $count 1"; do
    # shellcheck disable=SC2086
    out=$(ASMDIFF_RESULTS=$work/$model.jsonl "${run[@]}" "$tool" dispatch $what 2>&1)
    rc=$?
    if [ $rc != 0 ]; then
      ok=0
      echo "FAIL $model: dispatch ${what%% *}: exit $rc"
      printf '%s\n' "$out" | grep -E '^==== asmdiff|^  (implementation|instruction|module|reproduce)' | head -n 12
      printf '%s\n' "$out" | tail -n 2 | cut -c1-400
    else
      ran="$ran $(printf '%s\n' "$out" | grep -o 'ran [0-9]* of [0-9]* implementations' | tail -n1 | cut -d' ' -f2) libraries, $(printf '%s\n' "$out" | grep -o '[0-9]* checked calls' | tail -n1);"
    fi
  done
  if [ "${ASMDIFF_DISPATCH_LEVELS:-0}" != 0 ] && [ -n "$hwf" ]; then
    if ! lv=$(ASMDIFF_RUNNER="${run[*]}" "$here/gcrypt_levels.sh" "$tool" "$srcdir" "$seeds" "$ASMDIFF_DISPATCH_LEVELS" 2>&1); then
      ok=0; echo "FAIL $model: libgcrypt's levels"; printf '%s\n' "$lv" | tail -n 6
    else
      ran="$ran levels: $(printf '%s\n' "$lv" | tail -n1 | cut -c1-160);"
    fi
  fi
  models=$((models + 1))
  if [ $ok = 1 ]; then
    echo "ok   $model ($cpu): cpu $cpuline; libgcrypt hwf: ${hwf:-not built in};$ran"
  else
    fail=$((fail + 1))
  fi
done
echo "dispatch: $models model(s), $((models - fail)) clean, $fail failed"
[ $fail = 0 ] && [ $models -gt 0 ]
