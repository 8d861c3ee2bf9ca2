#!/usr/bin/env bash
# emu_x86.sh TOOL SRCDIR FAMILY — the family's plain build on x86-64 CPU models that lack what
# this host has (qemu-x86_64 user mode): Nehalem (no AVX), Haswell (AVX2, no AVX-512, no GFNI),
# EPYC-Milan (AMD Zen 3, the hosted CI runners' CPU: AVX2 and ADX, no AVX-512, no GFNI).
# Each must detect exactly the features the model has (CPUID/XGETBV, not the mask: a detection
# bug either way fails), list as runnable exactly the kernels whose needs the model has, and
# pass the vectors and the seed corpus on them; a model that can run one of the family's
# kernels must run it (exit 77 is then a failure, not a skip).  Only a model that can run none
# of them may skip, and says so.  A CPU model the host's QEMU does not know is skipped.
# What each run saw comes from its result stream (ASMDIFF_RESULTS, docs/results.md) through
# tools/asmdiff/results.py, never from its human text.
set -u
tool=$1 srcdir=$2 fam=$3
results_py=$(cd "$(dirname "${BASH_SOURCE[0]}")/../tools/asmdiff" && pwd)/results.py
ask() { python3 -B "$results_py" "$@" 2>/dev/null; }
# seen STREAM: the features the run saw (its start record), a tab, and how many implementations
# its impl records call unavailable because the host lacks what they need
seen() {
  local cpu lacking
  cpu=$(python3 -B "$results_py" "$1" start cpu) || { echo "no start record" >&2; return 1; }
  lacking=$(python3 -B "$results_py" "$1" impls | awk -F'\t' '$3 == "false" && $5 ~ /host lacks/' | wc -l)
  printf '%s\t%s\n' "$cpu" "$lacking"
}
# ran STREAM: "ran K of M" from the run's summary
ran() { echo "ran $(ask "$1" summary impls_ran) of $(ask "$1" summary impls_total)"; }
. "$(dirname "${BASH_SOURCE[0]}")/missing.sh"
command -v qemu-x86_64 >/dev/null ||
  missing "qemu-x86_64 not installed (qemu-user)" "tools/bootstrap (qemu-user)"
work=$(mktemp "${TMPDIR:-/tmp}/asmdiff-emu-x86.XXXXXX")
trap 'rm -f "$work" "$work".*' EXIT
# The point here is each program's own detection on a smaller CPU, and the narrower paths
# natively; running the kernels it lacks in our emulator (inside QEMU) is tested on its own
# (unicorn-on-haswell, the -without-* tests), so it is off here.
export ASMDIFF_EMULATE=0
pass=0 fail=0
# What each model has, as qemu-x86_64's TCG gives it (and as the CPUs do: Nehalem has no
# PCLMUL/AES-NI, Westmere added them; ADX arrived after Haswell; Zen 3 has no AVX-512 or GFNI).
declare -A expect=(
  [Nehalem]="x86_64 sse2 ssse3 sse4.1"
  [Haswell]="x86_64 sse2 ssse3 sse4.1 pclmul aesni avx avx2 bmi2"
  [EPYC-Milan]="x86_64 sse2 ssse3 sse4.1 pclmul aesni avx avx2 bmi2 adx"
)
# has FEATURES NEEDS: every need is among the features
has() { local n; for n in $2; do case " $1 " in *" $n "*) ;; *) return 1 ;; esac; done; }
for model in Nehalem Haswell EPYC-Milan; do
  q() { qemu-x86_64 -cpu "$model" "$@" 2> >(grep -v "TCG doesn't support" >&2); }
  rm -f "$work".*.jsonl
  if ! listing=$(ASMDIFF_RESULTS=$work.list.jsonl q "$tool" list 2>&1); then
    echo "FAIL $model: list failed: $listing"; fail=$((fail + 1)); continue
  fi
  if ! seen=$(seen "$work.list.jsonl" 2>&1); then
    echo "FAIL $model: list's result stream: $seen"; fail=$((fail + 1)); continue
  fi
  cpu=${seen%%$'\t'*} na=${seen##*$'\t'}
  if [ "$cpu" != "${expect[$model]}" ]; then
    echo "FAIL $model: detected '$cpu', the model has '${expect[$model]}'"; fail=$((fail + 1)); continue
  fi
  # the kernels this model can run natively (their needs), and whether list agrees
  runnable=0 wrong=()
  # (a unit separator, not a tab: read folds runs of tabs, and empty fields would shift)
  while IFS=$'\037' read -r name kind available _ _ _ _ needs; do
    [ "$kind" = kernel ] || continue
    if has "$cpu" "$needs"; then
      runnable=$((runnable + 1))
      [ "$available" = true ] || wrong+=("$name (needs $needs) listed unavailable")
    else
      [ "$available" = false ] || wrong+=("$name (needs $needs) listed runnable")
    fi
  done < <(python3 -B "$results_py" "$work.list.jsonl" impls | tr '\t' '\037')
  if [ ${#wrong[@]} -gt 0 ]; then
    echo "FAIL $model: ${wrong[*]}"; fail=$((fail + 1)); continue
  fi
  # 77: this model runs none of the family's kernels (it lacks their ISA): the libraries and
  # the listing are still checked, and the line says so
  ASMDIFF_RESULTS=$work.kat.jsonl q "$tool" kat "$srcdir" >"$work.kat" 2>&1; krc=$?
  ASMDIFF_RESULTS=$work.replay.jsonl q "$tool" replay "$srcdir/corpus/$fam/seeds" \
    >"$work.replay" 2>&1; rrc=$?
  # exit 77 is allowed only where the model can run none of the kernels
  ok_rc() { [ "$1" = 0 ] || { [ "$1" = 77 ] && [ $runnable = 0 ]; }; }
  kran=$(ask "$work.kat.jsonl" summary kernels_ran) rran=$(ask "$work.replay.jsonl" summary kernels_ran)
  if [ $runnable -gt 0 ] && { [ "${kran:-0}" -lt 1 ] || [ "${rran:-0}" -lt 1 ]; }; then
    echo "FAIL $model: it runs $runnable of the kernels, but kat ran ${kran:-none} and replay ${rran:-none} of them (exit $krc, $rrc)"
    fail=$((fail + 1))
  elif ok_rc $krc && ok_rc $rrc; then
    echo "ok   $model: cpu: $cpu; $runnable kernel(s) runnable, $na implementation(s) listed as unavailable; kat $(ran "$work.kat.jsonl"), replay $(ran "$work.replay.jsonl")${runnable:+}$([ $runnable = 0 ] && echo " (none of the kernels: the model lacks their ISA)")"
    pass=$((pass + 1))
  else
    echo "FAIL $model: vectors or seeds fail under emulation (kat exit $krc, replay exit $rrc)"
    tail -n 20 "$work.kat" "$work.replay"
    fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
