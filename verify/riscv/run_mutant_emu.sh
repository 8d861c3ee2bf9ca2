#!/usr/bin/env bash
# run_mutant_emu.sh MODE EXE BUDGET NAME SPEC STATUS TOOL — verify/run_mutant.sh for riscv64 programs: the suite's
# own sensitivity, under qemu-riscv64.  EXE is a riscv64 target built with one deliberately broken
# kernel; it runs at VLEN 128, 256, 512 and 1024 (Zvkg on) side by side, because a bug may live at
# one vector length only.  Passes when the target reports the mutant (a mismatch, an ABI
# violation, a crash) at some VLEN within BUDGET seconds, and prints where and how fast; fails
# when it survives at every VLEN.
#   MODE libfuzzer: EXE is fuzz_<family>_mutant_<name>: coverage-guided from an EMPTY corpus,
#                   -seed=1 (detection comes from fuzzing, not from replaying seeds);
#   MODE random:    EXE is the plain build: structure-aware random inputs, seed 1.
# ASMDIFF_MUTANT_ALL_VLENS=1 waits for every VLEN and prints a row each (for reports); by
# default the first catch ends the run.  The catch is read from each run's result stream
# (ASMDIFF_RESULTS, docs/results.md) through tools/asmdiff/results.py, not from its report text.
set -u
[ $# -eq 7 ] || { echo "usage: run_mutant_emu.sh MODE EXE BUDGET NAME SPEC STATUS TOOL" >&2; exit 2; }
mode=$1 exe=$2 budget=$3 name=$4 spec=$5 status=$6
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# ask STREAM QUERY...: one answer from a result stream ("" when the record is not there)
ask() { python3 -B "$here/../../tools/asmdiff/results.py" "$@" 2>/dev/null; }
# As verify/run_mutant.sh: a stale spec fails by name; only the declared check counts.  (Every
# VLEN runs the Zvkg kernels, so no host-capability skip applies here.)
if [ "$(cat "$status" 2>/dev/null)" != ok ]; then
  echo "mutant $name: STALE SPEC: $(cat "$status" 2>/dev/null || echo "no status file $status")"
  exit 1
fi
expect=$(python3 "$here/../mutate.py" --get "$spec" "$name" expect) || exit 1
# the family's libFuzzer options (corpus/F/fuzz_F.options), as verify/run_mutant.sh
optflags=$(python3 -B "$here/../../tools/asmdiff/fuzz_options.py" "$here/../../corpus" \
  "$(basename "$spec" .mutants)") || exit 1
vlens=(128 256 512 1024)
all=${ASMDIFF_MUTANT_ALL_VLENS:-0}
work=$(mktemp -d "${TMPDIR:-/tmp}/asmdiff-mutant.XXXXXX")
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# one VLEN: writes $work/$vlen.result = "caught SECONDS EXECS|how" or "survived SECONDS"
one() {
  local vlen=$1 dir cpu rc start end secs execs how results
  dir=$work/$vlen
  results=$dir/results.jsonl
  cpu=$("$here/qemu_cpu.sh" "vlen$vlen")
  mkdir -p "$dir/corpus"
  start=$(date +%s.%N)
  case $mode in
    libfuzzer)
      ASMDIFF_RESULTS=$results timeout "$((budget + 30))" qemu-riscv64 -cpu "$cpu" "$exe" \
        -max_total_time="$budget" -seed=1 -timeout=20 -rss_limit_mb=4096 -error_exitcode=1 \
        $optflags -artifact_prefix="$dir/" "$dir/corpus" >"$dir/log" 2>&1
      rc=$? ;;
    random)
      # a run reports every finding and goes on: ASMDIFF_MAX_FINDINGS=1 ends it at its first
      # (the catch, and its time the time to catch)
      ASMDIFF_RESULTS=$results ASMDIFF_MAX_FINDINGS=1 timeout "$budget" \
        qemu-riscv64 -cpu "$cpu" "$exe" random 100000000 1 >"$dir/log" 2>&1
      rc=$?
      [ $rc -eq 124 ] && rc=0 # ran out of time without a finding
      ;;
    *) echo "run_mutant_emu: unknown mode $mode" >"$dir/log"; rc=0 ;;
  esac
  end=$(date +%s.%N)
  secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
  check=$(ask "$results" finding check)
  if [ $rc -eq 0 ]; then
    echo "survived $secs" >"$dir/result.tmp"
  elif [ $rc -ne 1 ] || [ "$check" != "$expect" ]; then
    echo "survived $secs (exit $rc, check '${check:-none}' where '$expect' was expected)" >"$dir/result.tmp"
  else
    execs=$(grep -oE '^#[0-9]+' "$dir/log" | tail -n1 | tr -d '#') # libFuzzer's status lines
    how="==== asmdiff: $(ask "$results" finding heading) in $(ask "$results" finding family):\
 $(ask "$results" finding title)"
    echo "caught $secs ${execs:--}|${how:-exit $rc}" >"$dir/result.tmp"
  fi
  mv "$dir/result.tmp" "$work/$vlen.result"
}

for v in "${vlens[@]}"; do
  # the inner subshell's stderr: bash's "Aborted" line for a target that aborted on purpose
  ( (one "$v") 2>>"$work/$v.shell" || echo "survived - (runner failed)" >"$work/$v.result") &
  pids+=($!)
done

first=""
while :; do
  done_count=0
  for v in "${vlens[@]}"; do
    [ -f "$work/$v.result" ] || continue
    done_count=$((done_count + 1))
    if [ -z "$first" ] && grep -q '^caught' "$work/$v.result"; then first=$v; fi
  done
  [ "$done_count" -eq ${#vlens[@]} ] && break
  [ -n "$first" ] && [ "$all" != 1 ] && break
  sleep 0.2
done

if [ "$all" = 1 ] || [ -z "$first" ]; then
  for v in "${vlens[@]}"; do
    r=$(cat "$work/$v.result" 2>/dev/null || echo "unfinished")
    case $r in
      caught*) printf '  VLEN %-5s caught in %ss (%s execs): %s\n' "$v" "$(echo "$r" | cut -d' ' -f2)" \
                 "$(echo "$r" | cut -d' ' -f3 | cut -d'|' -f1 | sed 's/^-$/?/')" "$(echo "$r" | cut -d'|' -f2-)" ;;
      *) printf '  VLEN %-5s %s\n' "$v" "$r" ;;
    esac
  done
fi
if [ -z "$first" ]; then
  echo "mutant $name SURVIVED ${budget}s of $mode fuzzing at every VLEN: the suite cannot see this bug"
  tail -n 5 "$work/128/log"
  exit 1
fi
r=$(cat "$work/$first.result")
secs=$(echo "$r" | cut -d' ' -f2)
execs=$(echo "$r" | cut -d' ' -f3 | cut -d'|' -f1)
how=$(echo "$r" | cut -d'|' -f2-)
[ "$execs" = - ] && execs=""
echo "mutant $name caught at VLEN $first in ${secs}s ($mode${execs:+, $execs execs}): $how"
echo "  check          = $(ask "$work/$first/results.jsonl" finding check)"
echo "  implementation = $(ask "$work/$first/results.jsonl" finding implementation)"
exit 0
