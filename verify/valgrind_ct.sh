#!/usr/bin/env bash
# valgrind_ct.sh EXE — the memcheck constant-time checks, with their positive controls: the
# leaky controls must be reported, the clean control and every NH kernel must not.
set -u
exe=$1
command -v valgrind >/dev/null || { echo "valgrind not installed: cannot run memcheck checks"; exit 77; }
pass=0 fail=0
vg() { valgrind -q --error-exitcode=1 --track-origins=yes "$@"; }
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
if out=$(vg "$exe" nh 2>&1); then
  printf '%s\n' "$out" | grep -E '^(ok|skip)'
  echo "ok   nh kernels: no secret-dependent branch or address"; pass=$((pass + 1))
else
  printf '%s\n' "$out" | head -n 40
  echo "FAIL nh kernels under memcheck"; fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
