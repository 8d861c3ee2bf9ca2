#!/usr/bin/env bash
# fuzz_changed.sh OUTDIR SECONDS FAMILY... — fuzz each family's fuzz_F from a ClusterFuzzLite
# build (OUTDIR: the build_fuzzers action's build-out) for SECONDS, from its seed corpus with its
# options, as the runner would.  The pull-request workflow runs it for the families whose
# kernels the pull request changed (verify/ossfuzz/changed_families.py): code-change mode picks
# fuzzers by coverage, which never sees a .S file, so a kernel change alone would get no budget
# of its own there.
# A finding (any exit but 0) fails, with the input left in OUTDIR/changed-artifacts/ (the
# workflow uploads it); a fuzzer missing from OUTDIR fails too.  Prints each fuzzer's start line
# (which kernels run, native or emulated) and its executions.  Exit 0 pass, 1 fail, 2 usage.
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: fuzz_changed.sh OUTDIR SECONDS FAMILY..." >&2; exit 2; }
out=$1 secs=$2
shift 2
case $secs in ''|*[!0-9]*) echo "fuzz_changed.sh: SECONDS must be a number, not '$secs'" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
. "$here/builder_env.sh"
ossfuzz_runner_env
art=$out/changed-artifacts
mkdir -p "$art"
bad=0 ran=0
for fam in "$@"; do
  f=$out/fuzz_$fam
  if [ ! -x "$f" ]; then
    echo "FAIL: $f is not in the build (family '$fam')"; bad=1; continue
  fi
  corpus=$(mktemp -d)
  [ -f "$out/fuzz_${fam}_seed_corpus.zip" ] && unzip -q -o "$out/fuzz_${fam}_seed_corpus.zip" -d "$corpus"
  # the options file's [libfuzzer] section as flags, as the runner passes them
  opts=()
  if [ -f "$out/fuzz_$fam.options" ]; then
    while IFS='=' read -r k v; do
      k=$(echo "$k" | tr -d ' ') v=$(echo "$v" | tr -d ' ')
      [ -n "$k" ] || continue
      [ "$k" = dict ] && v=$out/$v
      opts+=("-$k=$v")
    done < <(sed -n '/^\[libfuzzer\]/,/^\[/{/^\[/d;/^#/d;p}' "$out/fuzz_$fam.options")
  fi
  log=$art/fuzz_$fam.log
  "$f" -max_total_time="$secs" -timeout=25 -rss_limit_mb=2560 -print_final_stats=1 \
    -artifact_prefix="$art/fuzz_$fam-" "${opts[@]}" "$corpus" >"$log" 2>&1
  rc=$?
  rm -rf "$corpus"
  grep -m1 "^asmdiff: fuzz_$fam:" "$log"
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n1)
  if [ $rc != 0 ]; then
    tail -n 40 "$log"
    echo "FAIL: fuzz_$fam exit $rc after ${execs:-?} inputs (log and input: $art)"; bad=1; continue
  fi
  echo "fuzz_$fam: ${secs}s, ${execs:-0} inputs, ${speed:-0} exec/s, no finding"
  ran=$((ran + 1))
done
echo "fuzz_changed: $ran of $# families fuzzed for ${secs}s each without a finding"
exit $bad
