#!/usr/bin/env bash
# host_profile.sh — run the test suite as if on another x86-64 CPU (docs/host-profiles.md).
#
#   host_profile.sh --resolve MODEL
#       MODEL checked against `qemu-x86_64 -cpu help` and printed as the -cpu string to use:
#       MODEL less the features qemu's TCG cannot give (it would warn of each on every start,
#       on stderr that tests read, and leave them out anyway).  Exit 2 for an unknown model,
#       77 when qemu-x86_64 is missing (1 under ASMDIFF_STRICT=1: tools/bootstrap installs it).
#   host_profile.sh CPU PROGRAM ARGS...
#       meson test's --wrapper: PROGRAM is one of our x86-64 programs (an x86-64 ELF in this
#       repository or ASMDIFF_BUILD), run under
#       `qemu-x86_64 -cpu CPU`; or a script or a system program (bash, python3), run natively
#       with ASMDIFF_RUNNER="qemu-x86_64 -cpu CPU" exported, because qemu-user emulates only the
#       first program: the children a script starts would run on this CPU.  Every script and
#       CLI path that starts one of our programs puts $ASMDIFF_RUNNER in front of it.
set -u

. "$(dirname "${BASH_SOURCE[0]}")/missing.sh"
strict_missing() {
  missing "host profile: qemu-x86_64 not found (Debian package qemu-user)" "tools/bootstrap" >&2
}

if [ "${1:-}" = --resolve ]; then
  [ $# = 2 ] && [ -n "$2" ] || { echo "usage: host_profile.sh --resolve MODEL" >&2; exit 2; }
  model=$2
  command -v qemu-x86_64 >/dev/null || strict_missing
  # the model names: the first word of each indented line between "Available CPUs:" and the
  # flag list
  if ! qemu-x86_64 -cpu help | awk '/^Available CPUs:/ {on = 1; next} /^$|^Recognized/ {on = 0}
                                   on && /^  [^ ]/ {print $1}' | grep -qxF -- "$model"; then
    echo "host profile: unknown CPU model '$model' (qemu-x86_64 -cpu help lists them;" \
         "e.g. Haswell, EPYC-Milan)" >&2
    exit 2
  fi
  # "warning: TCG doesn't support requested feature: CPUID.07H:EBX.hle [bit 4]" -> ,-hle
  drop=$(qemu-x86_64 -cpu "$model" /bin/true 2>&1 |
         sed -n "s/.*TCG doesn't support requested feature: [^.]*\.[^.]*\.\([^ ]*\) .*/,-\1/p" |
         tr -d '\n')
  out=$(qemu-x86_64 -cpu "$model$drop" /bin/true 2>&1) || {
    echo "host profile: qemu-x86_64 -cpu $model$drop cannot start a program: $out" >&2
    exit 1
  }
  printf '%s\n' "$model$drop"
  exit 0
fi

[ $# -ge 2 ] || { echo "usage: host_profile.sh CPU PROGRAM ARGS... | --resolve MODEL" >&2; exit 2; }
cpu=$1
shift
command -v qemu-x86_64 >/dev/null || strict_missing
export ASMDIFF_HOST_PROFILE=${cpu%%,*}
export ASMDIFF_RUNNER="qemu-x86_64 -cpu $cpu"
# LeakSanitizer cannot run under qemu-user ("does not work under ptrace")
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

# ours: an x86-64 ELF program (e_machine 62 at offset 18) inside this repository or the build
# folder (not bash, python3 or qemu, wherever they are installed)
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
build=$(readlink -f -- "${ASMDIFF_BUILD:-$top/build}")
ours() {
  local p
  p=$(readlink -f -- "$(command -v -- "$1" || printf '%s' "$1")")
  case $p in "$top"/*|"$build"/*) ;; *) return 1 ;; esac
  [ -f "$p" ] && [ "$(head -c 4 -- "$p" | od -An -c | tr -d ' ')" = '177ELF' ] &&
    [ "$(od -An -t u2 -j 18 -N 2 -- "$p" | tr -d ' ')" = 62 ]
}
if ours "$1"; then
  exec qemu-x86_64 -cpu "$cpu" "$@"
fi
exec "$@"
