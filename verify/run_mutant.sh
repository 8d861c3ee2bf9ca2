#!/usr/bin/env bash
# run_mutant.sh MODE EXE BUDGET NAME — the suite's own sensitivity: EXE is a fuzz target
# built with one deliberately broken kernel.  Passes when the target reports the mutant (a
# mismatch, an ABI violation, or a crash at a guard page) within BUDGET seconds, and prints the
# time it took; fails when the mutant survives.
#   MODE libfuzzer: EXE is fuzz_<family>_mutant_<name>: coverage-guided fuzzing from an EMPTY
#                   corpus (the seeds are not used: they would make detection a replay, and the
#                   point is that fuzzing alone finds the bug), -seed=1 so runs repeat;
#   MODE random:    EXE is the plain build: structure-aware random inputs, fixed seed.
set -u
mode=$1 exe=$2 budget=$3 name=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/asmdiff-mutant.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus"
start=$(date +%s.%N)
case $mode in
  libfuzzer)
    "$exe" -max_total_time="$budget" -seed=1 -timeout=20 -rss_limit_mb=4096 \
      -artifact_prefix="$work/" "$work/corpus" >"$work/log" 2>&1
    rc=$? ;;
  random)
    timeout "$budget" "$exe" random 100000000 1 >"$work/log" 2>&1
    rc=$?
    [ $rc -eq 124 ] && rc=0 ;; # ran out of time without a finding
  *) echo "run_mutant: unknown mode $mode" >&2; exit 2 ;;
esac
end=$(date +%s.%N)
secs=$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.2f", b-a}')
execs=$(grep -oE '^#[0-9]+' "$work/log" | tail -n1 | tr -d '#')
if [ $rc -eq 0 ]; then
  echo "mutant $name SURVIVED ${budget}s of fuzzing: the suite cannot see this bug"
  tail -n 5 "$work/log"
  exit 1
fi
# The finding's file alone must reproduce it (libFuzzer mode writes it as crash-<sha1>).
if [ "$mode" = libfuzzer ]; then
  unit=$(ls "$work"/crash-* 2>/dev/null | head -n1)
  if [ -z "$unit" ]; then
    echo "mutant $name: the target failed (exit $rc) but left no crash file to reproduce it"
    tail -n 20 "$work/log"
    exit 1
  fi
  if "$exe" -runs=1 "$unit" >"$work/replay.log" 2>&1; then
    echo "mutant $name: the crash file $(basename "$unit") does not reproduce the finding"
    exit 1
  fi
  reproduced=" (its crash file reproduces it alone)"
fi
how=$(grep -m1 -E 'MISMATCH in|ABI violation|GUARD PAGE|ERROR: AddressSanitizer|deadly signal|runtime error' "$work/log")
echo "mutant $name caught in ${secs}s${execs:+ (after $execs execs)}${reproduced:-}: ${how:-exit $rc}"
grep -m3 -E '^  (implementation|operation|n) ' "$work/log" || true
exit 0
