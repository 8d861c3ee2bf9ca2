#!/usr/bin/env bash
# run_emu.sh [--cpu NAME]... [--random N] [--fuzz SECONDS] FAMILY BUILDDIR [SRCDIR]
#
# The emu suite: a family's riscv64 target of a riscv64 build directory, run under
# qemu-riscv64 on each emulated CPU (default: vlen128 vlen256 vlen512 vlen1024 nozvkg; names in
# verify/riscv/qemu_cpu.sh).  Per CPU:
#   list     what the target sees: with the vector crypto extensions every implementation must
#            run and the VLEN must be the one asked for; without Zvkg the implementations that
#            need it must be listed as unavailable with the reason, and another must still run;
#   kat      the family's vectors on every runnable implementation;
#   replay   the seed corpus (corpus/FAMILY/seeds);
#   random   N structure-aware random inputs (default 3000, seed 1), timed: exec/s;
#   fuzz     when BUILDDIR has fuzz_polyval (coverage-guided libFuzzer for riscv64): SECONDS of
#            fuzzing from the seeds (default 20; 0 skips), its exec/s and coverage.
# Prints one summary row per CPU; exit 0 when every step passed on every CPU, 1 otherwise,
# 77 when qemu-riscv64 is missing.  What list says of the implementations comes from its result
# stream (ASMDIFF_RESULTS, docs/results.md), not from its human text.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# impl_rows STREAM: one line per implementation of the stream's impl records:
# name<TAB>kind<TAB>available<TAB>emulated<TAB>reason
impl_rows() {
  python3 -B "$here/../../tools/asmdiff/results.py" "$1" impls | cut -f1-5
}
cpus=() random_n=3000 fuzz_secs=20
while [ $# -gt 0 ]; do
  case $1 in
    --cpu) cpus+=("$2"); shift 2 ;;
    --random) random_n=$2; shift 2 ;;
    --fuzz) fuzz_secs=$2; shift 2 ;;
    -*) echo "run_emu.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || { sed -n '2,3p' "$0" >&2; exit 2; }
fam=$1
build=$(cd "$2" && pwd)
src=$(cd "${3:-$here/../..}" && pwd)
[ ${#cpus[@]} -gt 0 ] || cpus=(vlen128 vlen256 vlen512 vlen1024 nozvkg)
tool=$build/asmdiff-$fam
fuzzer=$build/fuzz_$fam
. "$src/verify/missing.sh"
command -v qemu-riscv64 >/dev/null ||
  missing "qemu-riscv64 not found (qemu-user >= 8.2)" "tools/bootstrap (qemu-user from bookworm-backports)"
[ -x "$tool" ] || { echo "run_emu.sh: $tool not built"; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/asmdiff-emu.XXXXXX")
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
rate() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { t = b - a; printf "%.0f", (t > 0 ? n / t : 0) }'; }

bad=0
rows=()
for name in "${cpus[@]}"; do
  cpu=$("$here/qemu_cpu.sh" "$name") || exit 2
  run() { qemu-riscv64 -cpu "$cpu" "$@"; }
  echo "== $name (qemu-riscv64 -cpu $cpu)"
  ok=1 fails=()

  # list: availability and VLEN as this CPU should show them
  rm -f "$work/list.jsonl"
  ASMDIFF_RESULTS=$work/list.jsonl run "$tool" list >"$work/list" 2>&1 ||
    { ok=0; fails+=("list exit $?"); }
  sed 's/^/   /' "$work/list"
  if ! listed=$(impl_rows "$work/list.jsonl" 2>&1) || [ -z "$listed" ]; then
    ok=0
    fails+=("list's result stream names no implementation${listed:+ ($listed)}")
    listed=
  fi
  # kernels and libraries: running natively, or unavailable because the host lacks zvkg
  runs=0 lacking=0
  while IFS=$'\t' read -r impl kind available emulated reason; do
    case $kind in kernel|library) ;; *) continue ;; esac
    if [ "$available" = true ] && [ "$emulated" = false ]; then
      runs=$((runs + 1))
    else
      case $name in vlen*) ok=0; fails+=("$impl not runnable") ;; esac
      case $reason in "host lacks "*zvkg*) lacking=$((lacking + 1)) ;; esac
    fi
  done <<<"$listed"
  case $name in
    vlen*)
      vlen=$(python3 -B "$here/../../tools/asmdiff/results.py" "$work/list.jsonl" start vlen)
      [ "$vlen" = "${name#vlen}" ] || { ok=0; fails+=("VLEN is ${vlen:-not in the start record}, not ${name#vlen}"); } ;;
    nozvkg|novector)
      [ "$lacking" -gt 0 ] || { ok=0; fails+=("no implementation reported unavailable (host lacks zvkg)"); }
      [ "$runs" -gt 0 ] || { ok=0; fails+=("nothing runs without zvkg"); } ;;
  esac

  if run "$tool" kat "$src" >"$work/kat" 2>&1; then kat=pass; else kat=FAIL; ok=0; fails+=(kat); fi
  tail -n 1 "$work/kat" | sed 's/^/   /'

  if run "$tool" replay "$src/corpus/$fam/seeds" >"$work/replay" 2>&1; then
    replay=pass
  else
    replay=FAIL; ok=0; fails+=(replay)
  fi
  tail -n 1 "$work/replay" | sed 's/^/   /'

  t0=$(now)
  if run "$tool" random "$random_n" 1 >"$work/random" 2>&1; then random=pass; else random=FAIL; ok=0; fails+=(random); fi
  t1=$(now)
  random_rate=$(rate "$random_n" "$t0" "$t1")
  tail -n 1 "$work/random" | sed 's/^/   /'

  fuzz="-"
  if [ -x "$fuzzer" ] && [ "$fuzz_secs" -gt 0 ]; then
    rm -rf "$work/corpus"; mkdir -p "$work/corpus" "$work/findings"
    # the family's libFuzzer options (corpus/F/fuzz_F.options), as ./asmdiff fuzz passes them
    optflags=$(python3 -B "$src/tools/asmdiff/fuzz_options.py" "$src/corpus" "$fam") || exit 1
    # shellcheck disable=SC2086 # the options' flags, one word each
    run "$fuzzer" -max_total_time="$fuzz_secs" -timeout=20 -seed=1 -print_final_stats=1 -error_exitcode=1 \
      $optflags -artifact_prefix="$work/findings/" "$work/corpus" "$src/corpus/$fam/seeds" \
      >"$work/fuzz" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz" | tail -n1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/fuzz" | tail -n1)
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$work/fuzz" | tail -n1)
    if [ $rc = 0 ]; then
      fuzz="pass ${execs:-?} execs, ${speed:-?} exec/s, $cov"
    else
      fuzz="FAIL (exit $rc)"; ok=0; fails+=(fuzz)
      grep -m3 -E '^==== asmdiff: |deadly signal|ERROR' "$work/fuzz" | sed 's/^/   /'
      cp -r "$work/findings" "$build/emu-findings-$name" 2>/dev/null &&
        echo "   findings kept in $build/emu-findings-$name"
    fi
    echo "   libFuzzer: $fuzz"
  fi

  [ $ok = 1 ] || { bad=1; echo "   FAILED: ${fails[*]}"; tail -n 30 "$work/kat" "$work/replay" "$work/random" 2>/dev/null | grep -v '^$' | tail -n 30 | sed 's/^/   /'; }
  rows+=("$(printf '%-9s %-5s %-6s %-6s %6s exec/s  %s' "$name" "$kat" "$replay" "$random" "$random_rate" "$fuzz")")
done

echo
echo "== emu summary: asmdiff-$fam under qemu-riscv64 (random: $random_n inputs, seed 1)"
printf '%-9s %-5s %-6s %-6s %13s  %s\n' cpu kat replay random "random rate" "libFuzzer (${fuzz_secs}s)"
printf '%s\n' "${rows[@]}"
exit $bad
