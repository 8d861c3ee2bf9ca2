#!/usr/bin/env bash
# driver_selftest.sh EXE — every finding the family driver reports, provoked on purpose
# (verify/driver_selftest.c): each control kernel must end the run with exit 1 and a report
# whose check line names the right check, on that implementation, with a reproduce line; the
# correct kernel must pass, counting what it ran.
set -u
exe=$1
pass=0 fail=0
work=$(mktemp -d "${TMPDIR:-/tmp}/asmdiff-driver.XXXXXX")
trap 'rm -rf "$work"' EXIT
export ASMDIFF_FINDINGS=$work
# expect CONTROL CHECK [MODE]: MODE is replay (the default: random inputs, files replayed) or a
# Unicorn mode (bounds, ct-trace), which checks its files itself
expect() {
  local control=$1 check=$2 mode=${3:-} out rc got impl
  local gen=(random 300 1) rerun=(replay)
  [ -n "$mode" ] && gen=("$mode" random 50 1) rerun=("$mode")
  out=$(ASMDIFF_SELFTEST=$control "$exe" "${gen[@]}" 2>&1)
  rc=$?
  got=$(printf '%s\n' "$out" | sed -n 's/^  check *= *//p' | head -n1)
  impl=$(printf '%s\n' "$out" | sed -n 's/^  implementation *= *//p' | head -n1)
  # the file the reproduce line names must reproduce the same finding alone
  file=$(printf '%s\n' "$out" | sed -n 's/^  reproduce *: .* \([^ ]*crash-[0-9a-f]*\)$/\1/p')
  again=$( [ -f "$file" ] && ASMDIFF_SELFTEST=$control "$exe" "${rerun[@]}" "$file" 2>&1 | sed -n 's/^  check *= *//p')
  if [ $rc = 1 ] && [ "$got" = "$check" ] && [ "$impl" = "$control" ] && [ "$again" = "$check" ]; then
    echo "ok   $control${mode:+ ($mode)}: $(printf '%s\n' "$out" | grep -m1 '^==== asmdiff: ')"
    pass=$((pass + 1))
  else
    echo "FAIL $control${mode:+ ($mode)}: exit $rc (want 1), check '$got' (want '$check'), implementation '$impl', replay of '$file': '$again'"
    printf '%s\n' "$out" | tail -n 15
    fail=$((fail + 1))
  fi
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
  expect secret_branch ct-trace ct-trace
  expect secret_index ct-trace ct-trace
  expect overread bounds bounds
  expect clobber_rbx abi bounds
  expect leave_xmm residue bounds
  expect wrong mismatch ct-trace
  expect rdtsc_xmm emu-diff emu-diff
  expect wrong mismatch emu-diff
  for m in bounds ct-trace emu-diff; do
    out=$(ASMDIFF_SELFTEST=good "$exe" $m random 100 1 2>&1)
    rc=$?
    if [ $rc = 0 ] && printf '%s\n' "$out" | grep -qE 'ran 1 of 12 implementations( \(1 of them emulated\))?'; then
      echo "ok   good ($m): $(printf '%s\n' "$out" | tail -n1 | cut -c1-120)"
      pass=$((pass + 1))
    else
      echo "FAIL good ($m): exit $rc"; printf '%s\n' "$out" | tail -n 5; fail=$((fail + 1))
    fi
  done
  # the native checks do not see what only the Unicorn modes see (else the controls prove little)
  for control in read_global secret_branch secret_index rdtsc_xmm; do
    if ASMDIFF_SELFTEST=$control "$exe" random 300 1 >/dev/null 2>&1; then
      echo "ok   $control passes the native checks, as it should"; pass=$((pass + 1))
    else
      echo "FAIL $control: the native checks fire on it"; fail=$((fail + 1))
    fi
  done
fi
out=$(ASMDIFF_SELFTEST=good "$exe" random 300 1 2>&1)
rc=$?
if [ $rc = 0 ] && printf '%s\n' "$out" | grep -q 'ran 1 of 12 implementations'; then
  echo "ok   good: $(printf '%s\n' "$out" | tail -n1 | cut -c1-120)"
  pass=$((pass + 1))
else
  echo "FAIL good: exit $rc"; printf '%s\n' "$out" | tail -n 5; fail=$((fail + 1))
fi
# signals delivered during the calls (a timer every 100 us) are not the kernel's leftovers
out=$(ASMDIFF_SELFTEST=good ASMDIFF_SELFTEST_SIGNALS=1 "$exe" random 3000 1 2>&1)
rc=$?
if [ $rc = 0 ]; then
  echo "ok   good under a 100 us timer signal: no leftover reported"; pass=$((pass + 1))
else
  echo "FAIL good under a 100 us timer signal: exit $rc"; printf '%s\n' "$out" | grep -m3 -E '^====|check'; fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
