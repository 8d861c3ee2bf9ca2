#!/usr/bin/env bash
# valgrind_ct.sh TOOL N | --controls EXE — constant time under Valgrind memcheck.
#   TOOL N:          asmdiff-<family> ct N under memcheck: N structure-aware random cases, each
#                    kernel called with the family's secret buffers undefined; any branch or
#                    address that depends on them is reported and fails the test.
#   --controls EXE:  the engine's own proof: the leaky controls must be reported, the clean one
#                    must not.
# Without valgrind: skip (77), or, under ./asmdiff test (ASMDIFF_STRICT=1: the setup installs
# valgrind), an error naming it.
set -u
if ! command -v valgrind >/dev/null; then
  if [ "${ASMDIFF_STRICT:-0}" = 1 ]; then
    echo "valgrind not found, though tools/bootstrap installs it: run tools/bootstrap"; exit 1
  fi
  echo "SKIP: valgrind not installed (Debian package valgrind): cannot run memcheck checks"; exit 77
fi
vg() { valgrind -q --error-exitcode=1 --track-origins=yes "$@"; }
pass=0 fail=0
if [ "${1:-}" = --controls ]; then
  exe=$2
  for control in leak-branch leak-index; do
    if out=$(vg "$exe" "$control" 2>&1); then
      echo "FAIL control $control was not reported"; fail=$((fail + 1))
    else
      echo "ok   control $control reported: $(printf '%s\n' "$out" | grep -m1 -E 'uninitialised')"
      pass=$((pass + 1))
    fi
  done
  if out=$(vg "$exe" clean 2>&1); then
    echo "ok   control clean: no report"; pass=$((pass + 1))
  else
    echo "FAIL control clean was reported:"; printf '%s\n' "$out" | head; fail=$((fail + 1))
  fi
else
  tool=$1 n=$2
  out=$(vg "$tool" ct "$n" 2>&1)
  rc=$?
  printf '%s\n' "$out" | tail -n 30
  case $rc in
    0) pass=1 ;;
    77) exit 77 ;;
    *) fail=1 ;;
  esac
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
