#!/usr/bin/env bash
# expect_finding.sh PATTERN CMD... — a positive control: CMD must fail (exit 1, not a crash)
# and say PATTERN.  Passes and prints the matching line when it does.
set -u
pattern=$1
shift
out=$("$@" 2>&1)
rc=$?
line=$(printf '%s\n' "$out" | grep -m1 -E -- "$pattern")
if [ "$rc" = 1 ] && [ -n "$line" ]; then
  echo "caught as expected: $line"
  echo "1 passed, 0 failed"
  exit 0
fi
printf '%s\n' "$out" | tail -n 20
echo "positive control FAILED: exit $rc (want 1), pattern '$pattern' ${line:+found}${line:-not found}"
echo "0 passed, 1 failed"
exit 1
