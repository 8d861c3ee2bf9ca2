#!/usr/bin/env bash
# run_mutant.sh MODE EXE BUDGET NAME SPEC STATUS TOOL — the suite's own sensitivity: EXE is a
# family target built with one deliberately broken kernel (verify/mutate.py made it from SPEC;
# STATUS says whether the spec still matched the kernel).  Passes only when, within BUDGET
# seconds, the target reports the finding the spec declares (`expect:` — mismatch, abi,
# residue, stack, guard-page, ...) on one of the implementations the spec names (`impls:`), and
# the finding's file reproduces it alone.  Any other exit — a different check, another
# implementation, a crash without a report, a usage error — is a failure, not a catch.
#   MODE libfuzzer: EXE is fuzz_<family>_mutant_<name>: coverage-guided fuzzing from an EMPTY
#                   corpus (the seeds would make detection a replay), -seed=1 so runs repeat;
#   MODE random:    EXE is the plain build: structure-aware random inputs, fixed seed;
#   MODE bounds, ct-trace, isa: EXE is the plain build, run in that emulated mode on random inputs;
#                   the check expected is the spec's field of the mode's name, not `expect:`.
# TOOL (the family's unmutated plain build) says whether this host runs the mutated
# implementations: when it runs none of them the mutant is skipped (exit 77) with the reason.
# Every verdict here comes from the programs' result stream (ASMDIFF_RESULTS, docs/results.md),
# read through tools/asmdiff/results.py, never from their human text.
set -u
[ $# -eq 7 ] || { echo "usage: run_mutant.sh MODE EXE BUDGET NAME SPEC STATUS TOOL" >&2; exit 2; }
mode=$1 exe=$2 budget=$3 name=$4 spec=$5 status=$6 tool=$7
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# ask STREAM QUERY...: one answer from a result stream (exit 1: no such record, 2: unreadable)
ask() { python3 -B "$here/../tools/asmdiff/results.py" "$@"; }
# how our programs start: directly, or under a host profile's qemu (verify/host_profile.sh)
run=${ASMDIFF_RUNNER:-}

if [ "$(cat "$status" 2>/dev/null)" != ok ]; then
  echo "mutant $name: STALE SPEC: $(cat "$status" 2>/dev/null || echo "no status file $status")"
  exit 1
fi
# BUDGET is seconds on this CPU natively.  Under a host profile (verify/host_profile.sh) every
# input runs in qemu, our AVX-512 kernels in the executor under it, 30 to 200 times slower: the
# same search then needs ASMDIFF_PROFILE_BUDGET_SCALE (default 10) times the time, else a
# mutant survives for the wrong reason (ctr-carry-stops-at-64: caught natively after 3042
# inputs, in 120 s under qemu Haswell only 1119 ran).
on=
if [ -n "${ASMDIFF_HOST_PROFILE:-}" ]; then
  budget=$((budget * ${ASMDIFF_PROFILE_BUDGET_SCALE:-10}))
  on=" on host profile $ASMDIFF_HOST_PROFILE (qemu)"
fi
field=expect
case $mode in bounds|ct-trace|isa) field=$mode ;; esac
expect=$(python3 "$here/mutate.py" --get "$spec" "$name" "$field") || exit 1
# the family's libFuzzer options (corpus/F/fuzz_F.options, as OSS-Fuzz and ./asmdiff fuzz pass
# them): the mutant is searched for as the family is fuzzed everywhere else
fam=$(basename "$spec" .mutants)
optflags=$(python3 -B "$here/../tools/asmdiff/fuzz_options.py" "$here/../corpus" "$fam") || exit 1
impls=$(python3 "$here/mutate.py" --get "$spec" "$name" impls) || exit 1

work=$(mktemp -d "${TMPDIR:-/tmp}/asmdiff-mutant.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 143' TERM INT # (a test harness's timeout)
mkdir -p "$work/corpus"

# Which of the mutated implementations this host runs (the unmutated tool's list: its impl
# records say available, emulated, kind and, when not available, the reason).
if ! ASMDIFF_RESULTS=$work/list.jsonl $run "$tool" list >"$work/list.log" 2>&1; then
  echo "mutant $name: '$tool list' failed: $(cat "$work/list.log")"
  exit 1
fi
if [ ! -s "$work/list.jsonl" ]; then
  echo "mutant $name: '$tool list' wrote no result stream (ASMDIFF_RESULTS)"
  exit 1
fi
runnable=() why=()
for im in $impls; do
  kind=$(ask "$work/list.jsonl" impl "$im" kind)
  case $? in
    0) ;;
    1) echo "mutant $name: the spec names '$im', which $tool does not register"; exit 1 ;;
    *) echo "mutant $name: the result stream of '$tool list' is unreadable"; exit 1 ;;
  esac
  # the Unicorn modes run every x86-64 kernel emulated, whatever this CPU has
  if [ "$(ask "$work/list.jsonl" impl "$im" available)" = true ] ||
     { [ "$field" != expect ] && [ "$kind" = kernel ]; }; then
    runnable+=("$im")
  else
    why+=("$im: $(ask "$work/list.jsonl" impl "$im" reason)")
  fi
done
if [ ${#runnable[@]} -eq 0 ]; then
  echo "mutant $name: SKIP: this host runs none of the mutated implementations (${why[*]})"
  exit 77
fi

results=$work/results.jsonl
# run_to_first_finding CMD...: CMD for at most $budget seconds, ended by the tool itself at its
# first finding (ASMDIFF_MAX_FINDINGS=1: a run otherwise reports every finding and goes on; the
# first one is the catch, and its time the time to catch).  Sets rc: CMD's exit status, 0 when
# it ran out of time without a finding.
run_to_first_finding() {
  ASMDIFF_MAX_FINDINGS=1 timeout "$budget" "$@" >"$work/log" 2>&1
  rc=$?
  [ $rc -eq 124 ] && rc=0
}

start=$(date +%s.%N)
case $mode in
  libfuzzer)
    # shellcheck disable=SC2086 # the options' flags, one word each
    ASMDIFF_RESULTS=$results $run "$exe" -max_total_time="$budget" -seed=1 -timeout=20 \
      -rss_limit_mb=4096 -error_exitcode=1 $optflags -artifact_prefix="$work/" "$work/corpus" \
      >"$work/log" 2>&1
    rc=$? ;;
  random|bounds|ct-trace|isa)
    args=(random 100000000 1)
    [ "$mode" != random ] && args=("$mode" random 100000000 1)
    run_to_first_finding env ASMDIFF_RESULTS="$results" ASMDIFF_FINDINGS="$work/findings" \
      $run "$exe" "${args[@]}"
    if [ $rc -eq 77 ]; then
      reason=$(ask "$results" summary reason 2>/dev/null)
      echo "mutant $name: SKIP: ${reason:-$(tail -n1 "$work/log")}"
      exit 77
    fi ;;
  *) echo "run_mutant: unknown mode $mode" >&2; exit 2 ;;
esac
end=$(date +%s.%N)
secs=$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.2f", b-a}')
execs=$(grep -oE '^#[0-9]+' "$work/log" | tail -n1 | tr -d '#') # libFuzzer's own status lines
if [ $rc -eq 0 ]; then
  echo "mutant $name SURVIVED ${budget}s of fuzzing$on: the suite cannot see this bug"
  tail -n 5 "$work/log"
  exit 1
fi
nfindings=$(ask "$results" findings 2>&1) || {
  echo "mutant $name: the target's result stream is unreadable: $nfindings"
  exit 1
}
if [ "$rc" != 1 ] || [ "$nfindings" = 0 ]; then
  echo "mutant $name: the target ended with exit $rc without a finding report: not a catch"
  tail -n 30 "$work/log"
  exit 1
fi
check=$(ask "$results" finding check)
impl=$(ask "$results" finding implementation)
heading="==== asmdiff: $(ask "$results" finding heading) in $(ask "$results" finding family):\
 $(ask "$results" finding title)"
if [ "$check" != "$expect" ]; then
  echo "mutant $name: caught by the wrong check: '$check' where the spec expects '$expect'"
  echo "  $heading"
  exit 1
fi
case " $impls " in
  *" $impl "*) ;;
  *) echo "mutant $name: reported on '$impl', which is not one of the mutated implementations ($impls)"
     echo "  $heading"
     exit 1 ;;
esac
# The finding's file alone must reproduce it, and the finding must have named that file (its
# `input`: the plain tool saves it under ASMDIFF_FINDINGS; libFuzzer writes it as crash-<sha1>
# after the report, which names it ahead).
unit=$(ask "$results" finding input)
if [ "$mode" = libfuzzer ]; then
  crash=$(ls "$work"/crash-* 2>/dev/null | head -n1)
  [ -n "$unit" ] && [ "$(basename "$unit")" = "$(basename "${crash:-none}")" ] && unit=$crash ||
    unit=
  replay=($run "$exe" -runs=1 -error_exitcode=1 "$unit")
else
  rmode=replay
  [ "$mode" != random ] && rmode=$mode
  replay=($run "$exe" "$rmode" "$unit")
fi
if [ -z "$unit" ] || [ ! -f "$unit" ]; then
  echo "mutant $name: the report names no saved input file that reproduces it"
  exit 1
fi
ASMDIFF_RESULTS=$work/replay.jsonl "${replay[@]}" >"$work/replay.log" 2>&1
rrc=$?
rcheck=$(ask "$work/replay.jsonl" finding check 2>/dev/null)
if [ $rrc != 1 ] || [ "$rcheck" != "$expect" ]; then
  echo "mutant $name: the saved input $(basename "$unit") does not reproduce the finding alone (exit $rrc, check '$rcheck')"
  exit 1
fi
reproduced=" (its saved input reproduces it alone)"
echo "mutant $name caught in ${secs}s${execs:+ (after $execs execs)}$on${reproduced:-} by the $check check on $impl"
echo "  $heading"
exit 0
