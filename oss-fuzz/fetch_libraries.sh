#!/bin/bash -eu
# oss-fuzz/fetch_libraries.sh — in the builder image (Dockerfile RUN): the upstream release
# tarballs of the libraries build.sh builds from source, unpacked as $SRC/gmp, $SRC/libgpg-error,
# $SRC/libgcrypt, $SRC/openssl, $SRC/nettle, $SRC/unicorn (the executor's engine).  The versions
# are the ones proven on this project's machines, where tools/ossfuzz_fetch_sources takes the
# same upstream tarballs from Debian's source packages instead (docs/oss-fuzz.md).  Not run here: no Docker engine on those machines.
fetch() { # fetch DIR URL
  mkdir -p "$SRC/$1"
  curl -fsSL "$2" | tar -xa -C "$SRC/$1" --strip-components=1 -f - 2>/dev/null ||
    { curl -fsSL "$2" -o "/tmp/$1.tar" && tar -xf "/tmp/$1.tar" -C "$SRC/$1" --strip-components=1; }
  basename "$2" >"$SRC/$1/.unpacked"
}
fetch gmp https://gmplib.org/download/gmp/gmp-6.2.1.tar.xz
fetch libgpg-error https://gnupg.org/ftp/gcrypt/libgpg-error/libgpg-error-1.61.tar.bz2
fetch libgcrypt https://gnupg.org/ftp/gcrypt/libgcrypt/libgcrypt-1.12.4.tar.bz2
fetch openssl https://github.com/openssl/openssl/releases/download/openssl-3.0.20/openssl-3.0.20.tar.gz
fetch nettle https://ftp.gnu.org/gnu/nettle/nettle-3.8.1.tar.gz
fetch unicorn https://github.com/unicorn-engine/unicorn/archive/refs/tags/2.0.1.post1.tar.gz
