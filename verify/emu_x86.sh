#!/usr/bin/env bash
# emu_x86.sh TOOL SRCDIR FAMILY — the family's plain build on x86-64 CPU models that lack what
# this host has (qemu-x86_64 user mode): Nehalem (no AVX), Haswell (AVX2, no AVX-512, no GFNI).
# Each must detect the missing features itself (CPUID/XGETBV, not the mask), list the
# implementations it cannot run with the reason, and still pass the vectors and the seed
# corpus on what remains.  A CPU model the host's QEMU does not know is skipped with a message.
set -u
tool=$1 srcdir=$2 fam=$3
command -v qemu-x86_64 >/dev/null || { echo "qemu-x86_64 not installed (qemu-user)"; exit 77; }
pass=0 fail=0
for model in Nehalem Haswell; do
  q() { qemu-x86_64 -cpu "$model" "$@" 2> >(grep -v "TCG doesn't support" >&2); }
  if ! listing=$(q "$tool" list 2>&1); then
    echo "FAIL $model: list failed: $listing"; fail=$((fail + 1)); continue
  fi
  cpuline=$(printf '%s\n' "$listing" | head -n1)
  if printf '%s' "$cpuline" | grep -qE 'avx512|gfni'; then
    echo "FAIL $model: detected features it does not have: $cpuline"; fail=$((fail + 1)); continue
  fi
  na=$(printf '%s\n' "$listing" | grep -c ' n/a .*host lacks') || true
  if q "$tool" kat "$srcdir" >/dev/null 2>&1 && q "$tool" replay "$srcdir/corpus/$fam/seeds" >/dev/null 2>&1; then
    echo "ok   $model: $cpuline; $na implementation(s) listed as unavailable; vectors and seeds pass"
    pass=$((pass + 1))
  else
    echo "FAIL $model: vectors or seeds fail under emulation"; fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
