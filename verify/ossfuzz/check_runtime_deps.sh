#!/usr/bin/env bash
# check_runtime_deps.sh FILE... — every FILE needs nothing at run time but the base C/C++ runtime
# (libc, libm, libpthread, libdl, librt, libresolv, libstdc++, libgcc_s, the dynamic loader):
# what the OSS-Fuzz runner image has.  libresolv is glibc's own (package libc6, on every glibc
# system); clang 19 links it into every sanitizer build for the runtime's dn_expand interceptor.  A fuzzer that needs a -dev package's shared library (libgmp.so,
# libgcrypt.so, libcrypto.so ...) would start here and fail to start there.
# Both views: the ELF's own DT_NEEDED list, and ldd's (which adds what those need in turn),
# with an empty LD_LIBRARY_PATH.  Exit 0 clean, 1 when a FILE needs more (named), 99 setup.
set -u
allowed='^(linux-vdso\.so\.1|libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libresolv\.so\.2|libstdc\+\+\.so\.6|libgcc_s\.so\.1|ld-linux-x86-64\.so\.2)$'
command -v readelf >/dev/null && command -v ldd >/dev/null || { echo "check_runtime_deps: needs readelf and ldd" >&2; exit 99; }
bad=0
for f in "$@"; do
  needed=$(readelf -d "$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  [ -n "$needed" ] || { echo "check_runtime_deps: $f: no dynamic section (not an ELF program?)"; bad=1; continue; }
  ldd_libs=$(env -i LD_LIBRARY_PATH= ldd "$f" 2>&1 | awk '{print $1}' | sed 's|.*/||')
  for lib in $needed $ldd_libs; do
    if ! [[ $lib =~ $allowed ]]; then
      echo "check_runtime_deps: $(basename "$f") needs $lib, which the runner does not have:"
      env -i LD_LIBRARY_PATH= ldd "$f" | sed 's/^/    /'
      bad=1
      break
    fi
  done
done
exit $bad
