#!/usr/bin/env bash
# driver_selftest.sh EXE — every finding the family driver reports, provoked on purpose
# (verify/driver_selftest.c): each control kernel must end the run with exit 1 and a report
# whose check line names the right check, on that implementation, with a reproduce line; the
# correct kernel must pass, counting what it ran.  The verdicts come from the driver's result
# stream (ASMDIFF_RESULTS, docs/results.md) through tools/asmdiff/results.py, never from its
# human text, which is only shown.
set -u
exe=$1
# how EXE starts: directly, or under a host profile's qemu (verify/host_profile.sh)
run=${ASMDIFF_RUNNER:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# ask STREAM QUERY...: one answer from a result stream ("" when the record is not there)
ask() { python3 -B "$here/../tools/asmdiff/results.py" "$@" 2>/dev/null; }
pass=0 fail=0
work=$(mktemp -d "${TMPDIR:-/tmp}/asmdiff-driver.XXXXXX")
trap 'rm -rf "$work"' EXIT
export ASMDIFF_FINDINGS=$work
# expect CONTROL CHECK [MODE]: MODE is replay (the default: random inputs, files replayed) or a
# Unicorn mode (bounds, ct-trace), which checks its files itself
expect() {
  local control=$1 check=$2 mode=${3:-} out rc got impl file again
  local gen=(random 300 1) rerun=(replay) results=$work/$control${mode:+-$mode}
  [ -n "$mode" ] && gen=("$mode" random 50 1) rerun=("$mode")
  out=$(ASMDIFF_SELFTEST=$control ASMDIFF_RESULTS=$results.jsonl $run "$exe" "${gen[@]}" 2>&1)
  rc=$?
  got=$(ask "$results.jsonl" finding check)
  impl=$(ask "$results.jsonl" finding implementation)
  # the saved input the finding names must reproduce the same finding alone
  file=$(ask "$results.jsonl" finding input)
  again=
  if [ -n "$file" ] && [ -f "$file" ]; then
    ASMDIFF_SELFTEST=$control ASMDIFF_RESULTS=$results.replay.jsonl $run "$exe" "${rerun[@]}" "$file" \
      >/dev/null 2>&1
    again=$(ask "$results.replay.jsonl" finding check)
  fi
  if [ $rc = 1 ] && [ "$got" = "$check" ] && [ "$impl" = "$control" ] && [ "$again" = "$check" ]; then
    echo "ok   $control${mode:+ ($mode)}: $(printf '%s\n' "$out" | grep -m1 '^==== asmdiff: ')"
    pass=$((pass + 1))
  else
    echo "FAIL $control${mode:+ ($mode)}: exit $rc (want 1), check '$got' (want '$check'), implementation '$impl', replay of '$file': '$again'"
    printf '%s\n' "$out" | tail -n 15
    fail=$((fail + 1))
  fi
}
# ran_only_good STREAM: the run's summary counts 1 of the 16 implementations (the reference not
# counted) as run: the good control, natively or emulated, and nothing else
ran_only_good() {
  [ "$(ask "$1" summary impls_ran)" = 1 ] && [ "$(ask "$1" summary impls_total)" = 16 ]
}
ran_what() {
  echo "ran '$(ask "$1" summary impls_ran)' of '$(ask "$1" summary impls_total)' implementations (want 1 of 16)"
}
expect wrong mismatch
expect clobber_rbx abi
expect leave_xmm residue
expect stack_leftover stack
expect overread guard-page
expect write_past canary
expect modify_input input-modified
# the Unicorn modes: what only they see, and what they see as the native checks do
if [ "${ASMDIFF_SELFTEST_UNICORN:-1}" = 1 ]; then
  expect read_global bounds bounds
  expect table_overread bounds bounds
  expect unsized_table bounds bounds
  expect secret_branch ct-trace ct-trace
  expect secret_index ct-trace ct-trace
  expect overread bounds bounds
  expect clobber_rbx abi bounds
  expect leave_xmm residue bounds
  expect wrong mismatch ct-trace
  expect rdtsc_xmm emu-diff emu-diff
  expect rdtsc_rax emu-diff emu-diff
  expect wrong mismatch emu-diff
  # emu-diff's own checked calls, on the CPU and emulated: the native verdicts on both sides
  expect clobber_rbx abi emu-diff
  expect leave_xmm residue emu-diff
  expect stack_leftover stack emu-diff
  for m in bounds ct-trace emu-diff; do
    out=$(ASMDIFF_SELFTEST=good ASMDIFF_RESULTS=$work/good-$m.jsonl $run "$exe" $m random 100 1 2>&1)
    rc=$?
    if [ $rc = 0 ] && ran_only_good "$work/good-$m.jsonl"; then
      echo "ok   good ($m): $(printf '%s\n' "$out" | tail -n1 | cut -c1-120)"
      pass=$((pass + 1))
    else
      echo "FAIL good ($m): exit $rc, $(ran_what "$work/good-$m.jsonl")"; printf '%s\n' "$out" | tail -n 5; fail=$((fail + 1))
    fi
  done
  # the native checks do not see what only the Unicorn modes see (else the controls prove little)
  for control in read_global table_overread unsized_table secret_branch secret_index rdtsc_xmm rdtsc_rax; do
    if ASMDIFF_SELFTEST=$control $run "$exe" random 300 1 >/dev/null 2>&1; then
      echo "ok   $control passes the native checks, as it should"; pass=$((pass + 1))
    else
      echo "FAIL $control: the native checks fire on it"; fail=$((fail + 1))
    fi
  done
fi
# a stream in pieces, each in a guarded buffer of its own (drv_in_piece, splits.h): an overread
# or overwrite of a piece is caught as of a whole buffer, natively and in the Unicorn modes
# (each piece mapped as a region of its own), and the good control passes them
export ASMDIFF_SELFTEST_PIECES=1
expect overread guard-page
expect write_past canary
expect modify_input input-modified
if [ "${ASMDIFF_SELFTEST_UNICORN:-1}" = 1 ]; then
  expect overread bounds bounds
  for m in bounds emu-diff; do
    out=$(ASMDIFF_SELFTEST=good ASMDIFF_RESULTS=$work/good-pieces-$m.jsonl $run "$exe" $m random 100 1 2>&1)
    rc=$?
    if [ $rc = 0 ] && ran_only_good "$work/good-pieces-$m.jsonl"; then
      echo "ok   good, in pieces ($m): $(printf '%s\n' "$out" | tail -n1 | cut -c1-120)"; pass=$((pass + 1))
    else
      echo "FAIL good, in pieces ($m): exit $rc, $(ran_what "$work/good-pieces-$m.jsonl")"; printf '%s\n' "$out" | tail -n 5; fail=$((fail + 1))
    fi
  done
fi
out=$(ASMDIFF_SELFTEST=good ASMDIFF_RESULTS=$work/good-pieces.jsonl $run "$exe" random 300 1 2>&1)
rc=$?
if [ $rc = 0 ] && ran_only_good "$work/good-pieces.jsonl"; then
  echo "ok   good, in pieces: $(printf '%s\n' "$out" | tail -n1 | cut -c1-120)"; pass=$((pass + 1))
else
  echo "FAIL good, in pieces: exit $rc, $(ran_what "$work/good-pieces.jsonl")"; printf '%s\n' "$out" | tail -n 5; fail=$((fail + 1))
fi
unset ASMDIFF_SELFTEST_PIECES
# a library's own CPU dispatch (the dispatch mode): wrong_guard admits an AVX-only CPU to its
# AVX2 path.  On a CPU with AVX2 (this one, the Haswell profile's) it is right; under
# qemu-x86_64 -cpu SandyBridge (AVX, no AVX2: qemu refuses what the model lacks) the CPU
# refuses vpbroadcastb, the ILLEGAL INSTRUCTION finding, its replay included.  Without
# qemu-x86_64 that half is a failure (tools/bootstrap installs it), never a silent pass.
out=$(ASMDIFF_SELFTEST=wrong_guard $run "$exe" dispatch random 50 1 2>&1)
rc=$?
if [ $rc = 0 ] && [[ $out == *"ran 1 of 16 implementations"* ]]; then
  echo "ok   wrong_guard (dispatch) on a CPU with AVX2: passes, as it should"; pass=$((pass + 1))
else
  echo "FAIL wrong_guard (dispatch) on a CPU with AVX2: exit $rc (want 0, ran 1 of 16)"; printf '%s\n' "$out" | tail -n 4 | cut -c1-300; fail=$((fail + 1))
fi
if command -v qemu-x86_64 >/dev/null; then
  saved_run=$run
  run="qemu-x86_64 -cpu SandyBridge"
  ASMDIFF_HOST_PROFILE=SandyBridge expect wrong_guard illegal-instruction dispatch
  if grep -q 'vpbroadcastb.*AVX2' "$work/wrong_guard-dispatch.jsonl" 2>/dev/null; then
    echo "ok   wrong_guard's finding names the instruction and the feature (vpbroadcastb, AVX2)"
    pass=$((pass + 1))
  else
    echo "FAIL wrong_guard's finding does not name vpbroadcastb and AVX2:"
    grep -m1 '"finding"' "$work/wrong_guard-dispatch.jsonl" | cut -c1-400; fail=$((fail + 1))
  fi
  run=$saved_run
else
  echo "FAIL wrong_guard under qemu-x86_64 -cpu SandyBridge: qemu-x86_64 not found (Debian package qemu-user; tools/bootstrap)"
  fail=$((fail + 1))
fi
out=$(ASMDIFF_SELFTEST=good ASMDIFF_RESULTS=$work/good.jsonl $run "$exe" random 300 1 2>&1)
rc=$?
if [ $rc = 0 ] && ran_only_good "$work/good.jsonl"; then
  echo "ok   good: $(printf '%s\n' "$out" | tail -n1 | cut -c1-120)"
  pass=$((pass + 1))
else
  echo "FAIL good: exit $rc, $(ran_what "$work/good.jsonl")"; printf '%s\n' "$out" | tail -n 5; fail=$((fail + 1))
fi
# signals delivered during the calls (a timer every 100 us) are not the kernel's leftovers
out=$(ASMDIFF_SELFTEST=good ASMDIFF_SELFTEST_SIGNALS=1 $run "$exe" random 3000 1 2>&1)
rc=$?
if [ $rc = 0 ]; then
  echo "ok   good under a 100 us timer signal: no leftover reported"; pass=$((pass + 1))
else
  echo "FAIL good under a 100 us timer signal: exit $rc"; printf '%s\n' "$out" | grep -m3 -E '^====|check'; fail=$((fail + 1))
fi
# bench's clock: given (--cpu-mhz, as ./asmdiff bench gives every table of a run one clock), every
# row must use it (cycles/byte = ns/byte * MHz / 1000) and the header say "Mhz"; estimated, the
# header says "auto Mhz"; --mhz-only prints the estimate alone (a number of MHz), or, when the
# estimate fails (possible under a host profile's qemu only), says so and exits 1
csv=$(ASMDIFF_SELFTEST=good $run "$exe" bench --cpu-mhz 3000 --csv 2>&1)
rc=$?
rows=$(printf '%s\n' "$csv" | awk -F, 'NR > 1 { n++; if ($7 != "3000.0") bad++; d = $6 - $4 * 3;
  if (d < 0) d = -d; if (d > 1e-5 + 1e-4 * $6) bad++ } END { print n + 0, bad + 0 }')
human=$(ASMDIFF_SELFTEST=good $run "$exe" bench --cpu-mhz 3000 2>&1 | head -n1)
auto=$(ASMDIFF_SELFTEST=good $run "$exe" bench 2>&1 | head -n1)
est=$($run "$exe" bench --mhz-only 2>&1)
erc=$?
if [ $rc = 0 ] && [ "${rows% *}" -ge 2 ] && [ "${rows#* }" = 0 ] && \
   [[ $human == *" Mhz"* && $human != *"auto Mhz"* && $auto == *"auto Mhz"* ]] && \
   { { [ $erc = 0 ] && [[ $est =~ ^[0-9]+$ ]] && [ "$est" -ge 400 ] && [ "$est" -le 8000 ]; } ||
     { [ -n "$run" ] && [ $erc = 1 ] && [[ $est == *"clock estimate failed"* ]]; }; }; then
  echo "ok   bench clock: ${rows% *} rows at the given 3000 MHz, cycles/byte from it; estimate alone: $est"
  pass=$((pass + 1))
else
  echo "FAIL bench clock: exit $rc, rows (count, wrong) $rows, header '$human' / '$auto', --mhz-only exit $erc: $est"
  fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
