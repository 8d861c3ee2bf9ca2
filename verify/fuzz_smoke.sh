#!/usr/bin/env bash
# fuzz_smoke.sh FUZZER SEEDS SECONDS — a bounded libFuzzer run for the test suite: the seed
# corpus, then coverage-guided inputs for SECONDS.  New inputs go to a temporary corpus, never
# into the source tree.  Fails (non-zero) on any finding; the finding's file is kept and named.
set -u
fuzzer=$1 seeds=$2 secs=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# the family's libFuzzer options (SEEDS is corpus/F/seeds; corpus/F/fuzz_F.options), as
# OSS-Fuzz and ./asmdiff fuzz pass them
optflags=$(python3 -B "$here/../tools/asmdiff/fuzz_options.py" "$(dirname "$(dirname "$seeds")")" \
  "$(basename "$(dirname "$seeds")")") || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/asmdiff-smoke.XXXXXX")
mkdir -p "$work/corpus" "$work/findings"
# ${ASMDIFF_RUNNER}: a host profile's qemu (verify/host_profile.sh), else nothing
# shellcheck disable=SC2086 # the options' flags, one word each
${ASMDIFF_RUNNER:-} "$fuzzer" -max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 -error_exitcode=1 \
  $optflags -artifact_prefix="$work/findings/" "$work/corpus" "$seeds" >"$work/log" 2>&1
rc=$?
grep -E '^(#[0-9]+ +DONE|Done|stat::number_of_executed_units|stat::average_exec_per_sec|asmdiff: fuzz_[a-z0-9]+: tally: )' "$work/log"
if [ $rc -ne 0 ]; then
  tail -n 80 "$work/log"
  echo "fuzz smoke: FINDING (exit $rc); files kept in $work/findings:"
  ls -l "$work/findings"
  exit 1
fi
rm -rf "$work"
echo "fuzz smoke: no finding in ${secs}s"
