#!/usr/bin/env bash
# cli_test.sh ASMDIFF TOOL — bad input to any command gets a clear message and a non-zero exit,
# never a crash or a silent pass.  ASMDIFF is the ./asmdiff script, TOOL a built asmdiff-<family>.
set -u
asmdiff=$1 tool=$2
# how TOOL starts: directly, or under a host profile's qemu (verify/host_profile.sh)
run=${ASMDIFF_RUNNER:-}
pass=0 fail=0

# expect RC PATTERN -- CMD...: CMD exits with RC and its stderr matches PATTERN
expect() {
  local want=$1 pattern=$2
  shift 3
  local err rc
  err=$("$@" 2>&1)
  rc=$?
  if [ "$rc" = "$want" ] && printf '%s' "$err" | grep -qE -- "$pattern"; then
    echo "ok   exit $rc: $*"
    pass=$((pass + 1))
  else
    echo "FAIL $*: exit $rc (want $want), stderr: ${err:0:200}"
    fail=$((fail + 1))
  fi
}

expect 2 "unknown command 'bogus'" -- "$asmdiff" bogus
expect 2 "usage" -- "$asmdiff"
expect 2 "fuzz needs a family" -- "$asmdiff" fuzz
expect 2 "unknown family 'nosuch'" -- "$asmdiff" fuzz nosuch
expect 2 "unknown family 'nosuch'" -- "$asmdiff" bench nosuch
expect 2 "unknown option '--bogus'" -- "$asmdiff" bench --bogus
expect 2 "needs the clock in MHz" -- "$asmdiff" bench --cpu-mhz fast
expect 2 "needs a number of seconds" -- "$asmdiff" premerge --budget soon
expect 2 "needs a number of minutes above 0" -- "$asmdiff" soak --minutes 0
expect 2 "unknown option '--fast'" -- "$asmdiff" premerge --fast
expect 2 "takes no arguments" -- "$asmdiff" list extra
expect 2 "unknown option '--bogus'" -- "$asmdiff" test --bogus
expect 2 "stand alone" -- "$asmdiff" test --slow kat
expect 2 "stand alone" -- "$asmdiff" test --all --slow
expect 2 "unknown suite 'nosuch'" -- "$asmdiff" test nosuch
expect 2 "unknown CPU model 'Pentium9'" -- "$asmdiff" test --host-cpu Pentium9
expect 2 "--host-cpu needs a CPU model" -- "$asmdiff" test --host-cpu
expect 2 "unknown command 'bogus'" -- $run "$tool" bogus
expect 2 "usage" -- $run "$tool"
expect 2 "random takes a count" -- $run "$tool" random many
expect 2 "random takes a count" -- $run "$tool" random -5
expect 2 "no-such-file" -- $run "$tool" replay /no-such-file
expect 2 "unknown argument" -- $run "$tool" bench --fast
expect 2 "cpu-mhz needs the clock in MHz" -- $run "$tool" bench --cpu-mhz 9000
expect 2 "cpu-mhz needs the clock in MHz" -- $run "$tool" bench --cpu-mhz
expect 2 "cannot open vector file" -- $run "$tool" kat /no-such-dir
expect 2 "bounds takes input files" -- $run "$tool" bounds
expect 2 "ct-trace takes input files" -- $run "$tool" ct-trace random many
expect 2 "emu-diff takes input files" -- $run "$tool" emu-diff random 5 1 2
expect 2 "no-such-file" -- $run "$tool" bounds /no-such-file
expect 2 "unknown CPU feature 'bogus'" -- env ASMDIFF_CPU_MASK=-bogus $run "$tool" list
expect 2 "must start with '-'" -- env ASMDIFF_CPU_MASK=avx2 $run "$tool" list

expect 2 "unknown CPU feature 'garbage'" -- env ASMDIFF_CPU_MASK=-garbage "$asmdiff" list
expect 2 "must start with '-'" -- env ASMDIFF_CPU_MASK=garbage "$asmdiff" list
expect 2 "needs a file name" -- "$asmdiff" premerge --markdown
expect 2 "must be 128, 256, 512 or 1024" -- "$asmdiff" fuzz polyval --vlen 100
expect 2 "applies to riscv64 families only" -- "$asmdiff" fuzz mpi --vlen 256
expect 2 "neither a libFuzzer flag" -- "$asmdiff" fuzz mpi no-such-file
expect 2 "--sarif needs a file name" -- "$asmdiff" premerge --sarif
expect 2 "must be linux, libgcrypt, asmdiff, openssl or win64" -- "$asmdiff" check mpi --convention windows
expect 2 "--kernel needs a value" -- "$asmdiff" check mpi --kernel
expect 2 "unknown option '--frobnicate'" -- "$asmdiff" check mpi --frobnicate
expect 2 "usage: ./asmdiff check" -- "$asmdiff" check mpi --symbol s
expect 2 "one at a time" -- "$asmdiff" check --libgcrypt /nonexistent --kernel k.S
expect 2 "corpus merge" -- "$asmdiff" corpus split mpi /tmp
# check's usage errors, found before the check build (tools/asmdiff/check/usage.py): exit 2 with
# the fix, in seconds
srcdir=$(cd "$(dirname "$asmdiff")" && pwd)
fx=$srcdir/verify/outside/fixtures
add=("$asmdiff" check mpi --kernel "$fx/mpih-add1-gcrypt.S")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '.macro twice reg\n\tvpfoo \\reg, \\reg\n.endm\n\t.globl k\nk:\ttwice %%rdi\n\ttwice %%rsi\n\tret\n' >"$tmp/macro.S"
printf '#include <asm/asm-offsets.h>\n\t.globl k\nk:\tret\n' >"$tmp/offsets.S"
printf '#include <crypto/nosuch.h>\n\t.globl k\nk:\tret\n' >"$tmp/nosuch.S"
expect 2 "unknown CPU feature 'avx-2' \(did you mean avx2\?\)" -- "${add[@]}" --symbol _gcry_mpih_add_n --needs avx-2
expect 2 "known features .*sse4\.1 \(sse4_1" -- "${add[@]}" --symbol _gcry_mpih_add_n --needs avx-2
expect 2 "avx2 is not a riscv64 feature, and this check is for riscv64" -- "$asmdiff" check polyval --arch riscv64 --kernel "$fx/polyval-gcrypt.c" --symbol fixture_polyval_gcrypt --needs avx2
expect 2 "defines no global symbol 'add_n'; it defines \(nearest first\): _gcry_mpih_add_n" -- "${add[@]}" --symbol add_n
expect 2 "mpih-add1-gcrypt.S: _gcry_mpih_add_n" -- "${add[@]}"
expect 2 "macro.S:5:[0-9]+: error: invalid instruction mnemonic 'vpfoo' \(in a macro expanded at this line.*the same at 1 more line" -- "$asmdiff" check mpi --kernel "$tmp/macro.S" --symbol k
expect 2 "fix: add --include verify/outside/linux-compat" -- "$asmdiff" check mpi --kernel "$tmp/offsets.S" --symbol k
expect 2 "fix: add --include DIR, DIR the folder crypto/nosuch.h is found under" -- "$asmdiff" check mpi --kernel "$tmp/nosuch.S" --symbol k
expect 0 "usage errors exit 2" -- "$asmdiff" check --help
# a run that checks nothing of ours is a failure, never a pass: every kernel masked away and
# the emulator turned off (with it, masked kernels run emulated)
expect 1 "none of the 2 kernels ran: masked away" -- env ASMDIFF_EMULATE=0 ASMDIFF_CPU_MASK=-x86_64 $run "$tool" kat "$srcdir"
expect 1 "none of the 2 kernels ran: masked away" -- env ASMDIFF_EMULATE=0 ASMDIFF_CPU_MASK=-x86_64 $run "$tool" random 10 1

echo "$pass passed, $fail failed"
[ $fail = 0 ]
