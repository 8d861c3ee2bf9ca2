#!/usr/bin/env bash
# gcrypt_levels.sh TOOL SRCDIR SEEDS COUNT — fuzz libgcrypt at every hardware-feature level.
# The levels are discovered from the library itself (its hwflist, as TOOL list prints it): the
# full set, each feature disabled alone, and all of them disabled.  Each level is a separate
# process (libgcrypt accepts GCRYCTL_DISABLE_HWF only before its initialisation), running the
# known-answer vectors, the seed corpus and COUNT structure-aware random inputs.
set -u
tool=$1 srcdir=$2 seeds=$3 count=$4
listing=$("$tool" list)
if ! printf '%s\n' "$listing" | grep -qE '^  libgcrypt-[^ ]+ +library +runs '; then
  echo "SKIP: the installed libgcrypt does not implement this family: $(printf '%s\n' "$listing" | grep -m1 -E '^  libgcrypt-' | sed 's/.*-- //')"
  exit 77
fi
hwf=$(printf '%s\n' "$listing" | sed -n 's/.*(hwf: \([^;)]*\).*/\1/p' | head -n1)
if [ -z "$hwf" ] || [ "$hwf" = none ]; then
  echo "gcrypt levels: libgcrypt reports no hardware features here (or is not built): nothing to vary"
  exit 77
fi
levels=("")
for f in $hwf; do levels+=("$f"); done
levels+=("$(echo $hwf | tr ' ' ',')")
pass=0 fail=0
for lv in "${levels[@]}"; do
  if ASMDIFF_GCRYPT_DISABLE=$lv "$tool" kat "$srcdir" >/tmp/asmdiff-level.$$ 2>&1 &&
     ASMDIFF_GCRYPT_DISABLE=$lv "$tool" replay "$seeds" >>/tmp/asmdiff-level.$$ 2>&1 &&
     ASMDIFF_GCRYPT_DISABLE=$lv "$tool" random "$count" 7 >>/tmp/asmdiff-level.$$ 2>&1; then
    echo "ok   level: ${lv:+without }${lv:-every feature the library uses}"
    pass=$((pass + 1))
  else
    echo "FAIL level: disabled=${lv:-none}; reproduce with ASMDIFF_GCRYPT_DISABLE=$lv"
    tail -n 40 /tmp/asmdiff-level.$$
    fail=$((fail + 1))
  fi
done
rm -f /tmp/asmdiff-level.$$
echo "$pass passed, $fail failed"
[ $fail = 0 ]
