#!/usr/bin/env bash
# expect_finding.sh PATTERN CMD...
# expect_finding.sh PATTERN... -- CMD...
# A positive control: CMD must fail (exit 1, not a crash) and say every PATTERN (one per
# finding it must report: a run reports each finding, not only the first).  Passes and prints
# the matching lines when it does; exit 77 (CMD could not run here) is passed on as a skip.  (The first form is the second with one pattern: CMD must
# then not itself hold a lone "--".)
set -u
patterns=()
if printf '%s\n' "$@" | grep -qx -- --; then
  while [ $# -gt 0 ] && [ "$1" != -- ]; do patterns+=("$1"); shift; done
  shift
else
  patterns=("$1")
  shift
fi
# an x86-64 program of ours starts under a host profile's qemu (ASMDIFF_RUNNER,
# verify/host_profile.sh); a script or a system program (python3) natively, passing it on
run=()
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
if [ -n "${ASMDIFF_RUNNER:-}" ] && [ -f "$1" ] && [ "$(head -c 4 -- "$1" | od -An -c | tr -d ' ')" = '177ELF' ]; then
  case $(readlink -f -- "$1") in "$top"/*|"$(readlink -f -- "${ASMDIFF_BUILD:-$top/build}")"/*) run=($ASMDIFF_RUNNER) ;; esac
fi
out=$("${run[@]}" "$@" 2>&1)
rc=$?
# CMD could not run here (a host without what it compares against): a skip with its reason,
# never a pass
if [ "$rc" = 77 ]; then
  printf '%s\n' "$out" | tail -n 3
  echo "SKIP: the positive control could not run here (exit 77; its reason above)"
  exit 77
fi
found=() missing=()
for p in "${patterns[@]}"; do
  line=$(printf '%s\n' "$out" | grep -m1 -E -- "$p")
  if [ -n "$line" ]; then found+=("$line"); else missing+=("'$p'"); fi
done
if [ "$rc" = 1 ] && [ ${#missing[@]} = 0 ]; then
  for line in "${found[@]}"; do echo "caught as expected: $line"; done
  echo "${#patterns[@]} passed, 0 failed"
  exit 0
fi
printf '%s\n' "$out" | tail -n 20
echo "positive control FAILED: exit $rc (want 1)${missing[*]:+; not printed: ${missing[*]}}"
echo "0 passed, 1 failed"
exit 1
