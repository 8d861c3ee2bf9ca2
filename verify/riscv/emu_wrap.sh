#!/usr/bin/env bash
# emu_wrap.sh CPU SCRIPT ARGS... — run a test script whose arguments name riscv64 programs on an
# x86-64 host: every argument that is a riscv64 ELF executable is replaced by a small wrapper
# that runs it under qemu-riscv64 with the CPU given, so scripts written for native programs
# (verify/fuzz_smoke.sh, verify/run_mutant.sh) work unchanged.
#   CPU: vlen128 | vlen256 | vlen512 | vlen1024 | nozvkg | novector, or a full qemu -cpu string
set -u
[ $# -ge 2 ] || { echo "usage: emu_wrap.sh CPU SCRIPT ARGS..." >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cpu=$("$here/qemu_cpu.sh" "$1") || exit 2
shift
script=$1
shift
work=$(mktemp -d "${TMPDIR:-/tmp}/asmdiff-emu.XXXXXX")
trap 'rm -rf "$work"' EXIT

# e_machine 243 (EM_RISCV) at offset 18 of an ELF header
is_riscv_elf() {
  [ -f "$1" ] && [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ] &&
    [ "$(od -An -t u2 -j 18 -N 2 "$1" | tr -d ' ')" = 243 ]
}

args=()
n=0
for a in "$@"; do
  if is_riscv_elf "$a"; then
    n=$((n + 1))
    w="$work/$(basename "$a")"
    printf '#!/bin/sh\nexec qemu-riscv64 -cpu %s %q "$@"\n' "$cpu" "$(cd "$(dirname "$a")" && pwd)/$(basename "$a")" >"$w"
    chmod +x "$w"
    args+=("$w")
  else
    args+=("$a")
  fi
done
"$script" "${args[@]}"
