#!/usr/bin/env bash
# emu_x86.sh TOOL SRCDIR FAMILY — the family's plain build on x86-64 CPU models that lack what
# this host has (qemu-x86_64 user mode): Nehalem (no AVX), Haswell (AVX2, no AVX-512, no GFNI).
# Each must detect the missing features itself (CPUID/XGETBV, not the mask), list the
# implementations it cannot run with the reason, and still pass the vectors and the seed
# corpus on what remains.  A CPU model the host's QEMU does not know is skipped with a message.
set -u
tool=$1 srcdir=$2 fam=$3
if ! command -v qemu-x86_64 >/dev/null; then
  [ "${ASMDIFF_STRICT:-0}" = 1 ] &&
    { echo "qemu-x86_64 not found, though tools/bootstrap installs it (qemu-user)"; exit 1; }
  echo "SKIP: qemu-x86_64 not installed (qemu-user)"; exit 77
fi
work=$(mktemp "${TMPDIR:-/tmp}/asmdiff-emu-x86.XXXXXX")
trap 'rm -f "$work" "$work".*' EXIT
# The point here is each program's own detection on a smaller CPU, and the narrower paths
# natively; running the kernels it lacks in our emulator (inside QEMU) is tested on its own
# (unicorn-on-haswell, the -without-* tests), so it is off here.
export ASMDIFF_EMULATE=0
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
  # 77: this model runs none of the family's kernels (it lacks their ISA): the libraries and
  # the listing are still checked, and the line says so
  q "$tool" kat "$srcdir" >"$work.kat" 2>&1; krc=$?
  q "$tool" replay "$srcdir/corpus/$fam/seeds" >"$work.replay" 2>&1; rrc=$?
  if { [ $krc = 0 ] || [ $krc = 77 ]; } && { [ $rrc = 0 ] || [ $rrc = 77 ]; }; then
    echo "ok   $model: $cpuline; $na implementation(s) listed as unavailable; $(grep -m1 ' kat: .*ran ' "$work.kat" | sed 's/.*; \(ran [0-9]* of [0-9]*\).*/kat \1/'), $(grep -m1 ' replay: .*ran ' "$work.replay" | sed 's/.*; \(ran [0-9]* of [0-9]*\).*/replay \1/')"
    pass=$((pass + 1))
  else
    echo "FAIL $model: vectors or seeds fail under emulation (kat exit $krc, replay exit $rrc)"
    tail -n 20 "$work.kat" "$work.replay"
    fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
