#!/usr/bin/env bash
# valgrind_ct.sh TOOL N | --controls EXE | --driver EXE — constant time under Valgrind memcheck.
#   TOOL N:          asmdiff-<family> ct N under memcheck: N structure-aware random cases, each
#                    kernel called with the family's secret buffers undefined; any branch or
#                    address that depends on them is reported and fails the test.
#   --controls EXE:  the engine's own proof: the leaky controls must be reported, the clean one
#                    must not.
#   --driver EXE:    the same through the family driver's ct mode (EXE is driver_selftest): its
#                    secret_branch and secret_index control kernels must be reported, the good
#                    one not.
# Only a memcheck error counts as reported: memcheck exits with its own status (42), and the
# report must name an uninitialised value.  Any other failure (a crash, a finding of the
# driver's own checks, a usage error) is a failure of the test, never a "report".
# Without valgrind: skip (77), or, under ./asmdiff test (ASMDIFF_STRICT=1: the setup installs
# valgrind), an error naming it.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/missing.sh"
command -v valgrind >/dev/null ||
  missing "valgrind not installed (Debian package valgrind): cannot run memcheck checks" "tools/bootstrap"
MEMCHECK_ERROR=42
vg() { valgrind -q --error-exitcode=$MEMCHECK_ERROR --track-origins=yes "$@"; }
# reported RC OUT: memcheck's own verdict on secret-dependent code
reported() {
  [ "$1" = $MEMCHECK_ERROR ] && printf '%s\n' "$2" | grep -qE 'uninitialised value'
}
# judge WHAT RC OUT WANT: WANT is "reported" or "clean"
judge() {
  local what=$1 rc=$2 out=$3 want=$4
  if [ "$want" = reported ] && reported "$rc" "$out"; then
    echo "ok   $what reported: $(printf '%s\n' "$out" | grep -m1 -E 'uninitialised value')"
    pass=$((pass + 1))
  elif [ "$want" = clean ] && [ "$rc" = 0 ]; then
    echo "ok   $what: no report"; pass=$((pass + 1))
  else
    echo "FAIL $what: exit $rc, want $want (memcheck reports exit with $MEMCHECK_ERROR)"
    printf '%s\n' "$out" | tail -n 8
    fail=$((fail + 1))
  fi
}
pass=0 fail=0
if [ "${1:-}" = --controls ]; then
  exe=$2
  for control in leak-branch leak-index; do
    out=$(vg "$exe" "$control" 2>&1); judge "control $control" $? "$out" reported
  done
  out=$(vg "$exe" clean 2>&1); judge "control clean" $? "$out" clean
elif [ "${1:-}" = --driver ]; then
  exe=$2
  for control in secret_branch secret_index; do
    out=$(ASMDIFF_SELFTEST=$control vg "$exe" ct 20 2>&1)
    judge "driver control $control (ct mode)" $? "$out" reported
  done
  out=$(ASMDIFF_SELFTEST=good vg "$exe" ct 20 2>&1); judge "driver control good (ct mode)" $? "$out" clean
else
  tool=$1 n=$2
  out=$(vg "$tool" ct "$n" 2>&1)
  rc=$?
  printf '%s\n' "$out" | tail -n 30
  [ $rc = 77 ] && exit 77
  judge "$(basename "$tool") ct $n" $rc "$out" clean
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
