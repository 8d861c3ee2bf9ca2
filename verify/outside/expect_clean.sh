#!/usr/bin/env bash
# expect_clean.sh PATTERN... -- CMD... — a negative control: CMD must pass (exit 0) and print
# every PATTERN (its verdict lines); a skip (77) is passed through with CMD's reason.
set -u
patterns=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do patterns+=("$1"); shift; done
shift
out=$("$@" 2>&1)
rc=$?
if [ $rc = 77 ]; then printf '%s\n' "$out" | tail -n 5; exit 77; fi
missing=""
for p in "${patterns[@]}"; do
  printf '%s\n' "$out" | grep -qE -- "$p" || missing="$missing '$p'"
done
printf '%s\n' "$out" | sed -n '/^== check/,$p' | tail -n 25
if [ $rc = 0 ] && [ -z "$missing" ]; then
  echo "clean as expected"
  exit 0
fi
echo "negative control FAILED: exit $rc (want 0)${missing:+; not printed:$missing}"
exit 1
