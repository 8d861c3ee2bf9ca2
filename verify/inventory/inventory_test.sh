#!/usr/bin/env bash
# inventory_test.sh VX_INVENTORY KNOWN.o LACKING.o ARCHIVE.a KNOWN.so — the inventory (./asmdiff
# inventory, emu/vx_inventory.c) on objects of our own:
#   known_x86_64.S: its exact counts (8 VEX/EVEX instructions, 7 forms, all supported; the
#     vpxor bytes of its table outside any function not counted), --require-all passes;
#   lacking_x86_64.S (the control): vpdpbusd listed as unsupported, --require-all exits 1;
#   the archive of both: 2 objects, their forms merged; KNOWN.so (known_x86_64.S linked as a
#   shared object): the same counts as the object; CSV: header, rows, the unsupported one;
#   bad input: a missing file and a file that is not ELF exit 2 with a message, through the
#   program and through ./asmdiff's CLI (python3 -m asmdiff inventory).
set -u
inv=$1 known=$2 lacking=$3 archive=$4 shared=$5
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fails=0 checks=0
ok() { checks=$((checks + 1)); echo "ok: $1"; }
bad() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $1"; }
expect() { # NAME WANTED-RC PATTERN -- CMD...
  local name=$1 want=$2 pat=$3 out rc
  shift 4
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" = 77 ] && [ "$want" != 77 ]; then echo "$out"; exit 77; fi
  if [ "$rc" != "$want" ]; then bad "$name: exit $rc, expected $want"; echo "$out" | sed 's/^/    /'; return; fi
  if ! grep -Eq -- "$pat" <<<"$out"; then bad "$name: no line matching '$pat'"; echo "$out" | sed 's/^/    /'; return; fi
  ok "$name"
}
expect "known object: exact counts" 0 \
  "1 with VEX/EVEX code; 8 VEX/EVEX instructions \(8 the executor runs\); 7 forms: 7 supported, 0 unsupported" \
  -- "$inv" "$known"
expect "known object: --require-all passes" 0 "7 forms: 7 supported" -- "$inv" --require-all "$known"
expect "control: vpdpbusd unsupported" 0 "^unsupported: vpdpbusd EVEX.512 zmm, zmm, zmm +1 of +1" \
  -- "$inv" --unsupported "$lacking"
expect "control: --require-all fails" 1 "1 form\(s\) the executor does not support" \
  -- "$inv" --require-all "$lacking"
expect "archive: both members" 1 \
  "2 objects read, 2 with VEX/EVEX code; 10 VEX/EVEX instructions \(9 the executor runs\); 8 forms: 7 supported, 1 unsupported" \
  -- "$inv" --require-all "$archive"
expect "shared object: the object's counts" 0 \
  "1 with VEX/EVEX code; 8 VEX/EVEX instructions \(8 the executor runs\); 7 forms: 7 supported, 0 unsupported" \
  -- "$inv" "$shared"
expect "CSV: the unsupported row" 0 "^TOTAL,vpdpbusd,EVEX,512,\"zmm, zmm, zmm\",1,0,no$" \
  -- "$inv" --csv "$lacking"
rows=$("$inv" --csv "$known" | grep -c '^TOTAL,')
[ "$rows" = 7 ] && ok "CSV: 7 total rows" || bad "CSV: $rows total rows, expected 7"
expect "missing file" 2 "asmdiff: inventory: .*no-such-file.o: No such file" \
  -- "$inv" "$known" no-such-file.o
expect "not ELF" 2 "not an ELF object, shared object or ar archive" -- "$inv" "$0"
expect "CLI: known object" 0 "7 forms: 7 supported, 0 unsupported" \
  -- python3 "$top/tools/asmdiff_cmd.py" inventory "$known"
expect "CLI: --require-all on the control" 1 "unsupported: vpdpbusd" \
  -- python3 "$top/tools/asmdiff_cmd.py" inventory --unsupported --require-all "$lacking"
expect "CLI: missing file" 2 "asmdiff: inventory: no-such-file.o: no such file" \
  -- python3 "$top/tools/asmdiff_cmd.py" inventory no-such-file.o
if [ "$fails" != 0 ]; then
  echo "inventory: $fails of $checks checks failed"
  exit 1
fi
echo "inventory: $checks checks passed"
