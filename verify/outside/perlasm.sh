# perlasm.sh — sourced by the suites that check a perlasm file's output (openssl_suite.sh,
# linux_suite.sh; after verify/missing.sh): perlasm OUT SCRIPT [FLAVOUR] writes what perl makes
# of SCRIPT to OUT, run in SCRIPT's folder (perlasm finds its x86_64-xlate.pl from there).
#   with FLAVOUR (elf, mingw64, ...): OpenSSL's form, `perl SCRIPT FLAVOUR OUT` with CC=gcc for
#     its assembler probe (GNU as: every AVX-512 path emitted); perlasm writes through a pipe
#     to x86_64-xlate.pl, so the file is complete when perl exits 0;
#   without: the kernel form, `perl SCRIPT > OUT`, as Linux's build runs it (arch/x86/crypto/
#     Makefile, cmd_perlasm: neither flavour nor output, so the script writes <linux/linkage.h>
#     and SYM_FUNC_START, and no assembler probe).
# Written to a file of this process first and renamed, so tests running side by side never see
# a half-written OUT.  Without perl (or gcc for a flavour): exit 77 saying so (missing.sh);
# perl failing: the message, and 1.
perlasm() {
  local out=$1 script=$2 flavour=${3:-} dir tmp
  command -v perl >/dev/null || missing "perl is not installed (perlasm needs it)" "tools/bootstrap"
  mkdir -p "$(dirname "$out")"
  dir=$(cd "$(dirname "$script")" && pwd)
  script=$dir/$(basename "$script")
  tmp=$(cd "$(dirname "$out")" && pwd)/$(basename "$out").$$.tmp
  if [ -n "$flavour" ]; then
    command -v gcc >/dev/null || missing "gcc is not installed (perlasm's assembler probe)" "tools/bootstrap"
    (cd "$dir" && CC=gcc perl "$script" "$flavour" "$tmp")
  else
    (cd "$dir" && perl "$script" >"$tmp")
  fi || {
    rm -f "$tmp"
    echo "perlasm: perl failed on $script${flavour:+ ($flavour)}" >&2
    return 1
  }
  mv -f "$tmp" "$out"
}
