#!/bin/bash -eu
# oss-fuzz/build.sh — the OSS-Fuzz / ClusterFuzzLite build of asmdiff: every fuzz_<family> target
# this build registers (build/families.json, written by meson), with the libraries its oracles
# and targets use built from source with this build's own flags and linked statically, so the
# oracles are instrumented too and the fuzzers need nothing but the C/C++ runtime on the runner.
#
# Environment (set by the OSS-Fuzz builder, or by verify/ossfuzz/build_and_run.sh here):
#   CC CXX CFLAGS CXXFLAGS  compilers; CFLAGS carry the sanitizer and coverage flags
#   LIB_FUZZING_ENGINE      how to link the engine (-fsanitize=fuzzer; AFL++: afl-clang-fast
#                           turns the same flag into its own driver)
#   SANITIZER ARCHITECTURE  address | undefined | coverage ...; x86_64
#   SRC WORK OUT            $SRC/asmdiff the project, $SRC/{gmp,libgpg-error,libgcrypt,openssl}
#                           the library sources (the Dockerfile puts them there); $WORK
#                           scratch (the libraries are cached there per flag set); $OUT results
#
# Per target in $OUT: fuzz_F, fuzz_F_seed_corpus.zip (corpus/F/seeds), fuzz_F.options and
# fuzz_F.dict (corpus/F/, when the family has them).
cd "$SRC/asmdiff"
jobs=${ASMDIFF_JOBS:-$(nproc)}

# ---- the libraries, from source, static, with this build's flags --------------------------
# One prefix per (compiler, flags, sources, the build_* functions below): a rebuild with the
# same flags reuses it, a different sanitizer gets its own.  OSS-Fuzz's $WORK starts empty, so
# there it is built every time.
log() { echo "build.sh: $*" >&2; }

# lib NAME: configure+make in $deps/build/NAME (out of tree: one source, several flag sets),
# once; a failure shows the end of the log and stops the build.
built() { [ -f "$deps/.$1-done" ]; }
step() {
  local name=$1; shift
  if ! "$@" >>"$deps/build/$name.log" 2>&1; then
    tail -n 40 "$deps/build/$name.log" >&2
    log "$name: failed: $* (log: $deps/build/$name.log)"
    exit 1
  fi
}

build_gmp() {
  built gmp && return
  local t0=$SECONDS
  log "gmp: building ($(cat "$SRC/gmp/.unpacked" 2>/dev/null || echo source))"
  local b=$deps/build/gmp; rm -rf "$b"; mkdir -p "$b"; cd "$b"
  # The generic x86-64 triple: GMP's x86_64 assembly without the build machine's CPU tuning,
  # which could use instructions the runner lacks (--enable-fat would carry every CPU's
  # kernels, at three times the build time).
  step gmp "$SRC/gmp/configure" --prefix="$deps" --disable-shared --enable-static \
    --build=x86_64-pc-linux-gnu --host=x86_64-pc-linux-gnu CC="$CC" CFLAGS="$CFLAGS"
  step gmp make -j"$jobs"
  step gmp make install
  touch "$deps/.gmp-done"
  log "gmp: built in $((SECONDS - t0))s"
}

build_gcrypt() {
  if ! built libgpg-error; then
    local t0=$SECONDS
    log "libgpg-error: building ($(cat "$SRC/libgpg-error/.unpacked" 2>/dev/null || echo source))"
    local b=$deps/build/libgpg-error; rm -rf "$b"; mkdir -p "$b"; cd "$b"
    step libgpg-error "$SRC/libgpg-error/configure" --prefix="$deps" --disable-shared --enable-static \
      --disable-doc --disable-tests --disable-nls --disable-languages CC="$CC" CFLAGS="$CFLAGS"
    step libgpg-error make -j"$jobs"
    step libgpg-error make install
    touch "$deps/.libgpg-error-done"
    log "libgpg-error: built in $((SECONDS - t0))s"
  fi
  built libgcrypt && return
  local t0=$SECONDS
  log "libgcrypt: building ($(cat "$SRC/libgcrypt/.unpacked" 2>/dev/null || echo source))"
  local b=$deps/build/libgcrypt; rm -rf "$b"; mkdir -p "$b"; cd "$b"
  # Its assembly stays in (the GFNI/AVX-512/AVX2 kernels are targets of the aria and gcmsiv
  # families); only the block ciphers the families use.  The public-key algorithms stay: the
  # MPI and KEM code links against all of them.  Not its tests or documentation.
  step libgcrypt "$SRC/libgcrypt/configure" --prefix="$deps" --disable-shared --enable-static \
    --disable-doc --with-libgpg-error-prefix="$deps" --enable-ciphers=aes,aria,camellia \
    CC="$CC" CFLAGS="$CFLAGS"
  step libgcrypt make -j"$jobs" SUBDIRS="compat mpi cipher random src"
  step libgcrypt make install SUBDIRS="compat mpi cipher random src"
  touch "$deps/.libgcrypt-done"
  log "libgcrypt: built in $((SECONDS - t0))s"
}

build_openssl() {
  built openssl && return
  local t0=$SECONDS
  log "openssl: building libcrypto ($(cat "$SRC/openssl/.unpacked" 2>/dev/null || echo source))"
  local b=$deps/build/openssl; rm -rf "$b"; mkdir -p "$b"; cd "$b"
  # libcrypto only, static, with its assembly (that is what we fuzz).  Algorithms no family uses
  # are left out to halve the build; ARIA, Camellia, AES, BN and the EVP layer stay.
  # -fno-sanitize=function: OpenSSL 3.0 calls its hash-table and stack callbacks through
  # pointers cast to another function type (crypto/lhash/lhash.c:296 on the first EVP fetch),
  # which UBSan's function check (applied to C since clang 17) reports before any input is
  # tried.  Only that check, only in libcrypto; everything else stays on.
  step openssl env CC="$CC" CFLAGS="$CFLAGS -fno-sanitize=function" "$SRC/openssl/Configure" linux-x86_64 \
    --prefix="$deps" --libdir=lib no-shared no-tests no-module no-engine no-dso no-async \
    no-comp no-ec no-dh no-dsa no-sm2 no-sm3 no-sm4 no-whirlpool no-idea no-seed no-rc2 no-rc4 \
    no-bf no-cast no-md4 no-mdc2 no-rmd160 no-siphash no-blake2 no-srp no-cms no-ts no-ocsp \
    no-ct no-cmp no-ocb no-poly1305 no-chacha no-scrypt no-siv no-ui-console no-ssl no-tls \
    no-dtls no-srtp no-sock
  step openssl make -j"$jobs" build_generated
  step openssl make -j"$jobs" libcrypto.a
  mkdir -p "$deps/lib/pkgconfig" "$deps/include/openssl"
  cp libcrypto.a "$deps/lib/"
  cp "$SRC/openssl/include/openssl/"*.h include/openssl/*.h "$deps/include/openssl/"
  local v; v=$(sed -n 's/^MAJOR=//p;s/^MINOR=//p;s/^PATCH=//p' "$SRC/openssl/VERSION.dat" | paste -sd.)
  cat >"$deps/lib/pkgconfig/libcrypto.pc" <<PC
prefix=$deps
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: OpenSSL-libcrypto
Description: OpenSSL cryptography library (static, built by oss-fuzz/build.sh)
Version: $v
Libs: -L\${libdir} -lcrypto
Libs.private: -pthread
Cflags: -I\${includedir}
PC
  touch "$deps/.openssl-done"
  log "openssl: built in $((SECONDS - t0))s"
}

key=$( { echo "$CC $CFLAGS"; "$CC" --version | head -n1; declare -f build_gmp build_gcrypt build_openssl;
         for l in gmp libgpg-error libgcrypt openssl; do
           [ -d "$SRC/$l" ] && { echo "$l"; cat "$SRC/$l/.unpacked" 2>/dev/null || (cd "$SRC/$l" && git rev-parse HEAD 2>/dev/null) || true; }
         done; } | sha1sum | cut -c1-12)
deps=$WORK/deps-$key
mkdir -p "$deps/build"

# Every library whose source the image provides is built; meson then requires those (a library
# that was meant to be there and is not fails the build, never a silently smaller fuzzer).
features=()
[ -d "$SRC/gmp" ] && { build_gmp; features+=(-Dgmp=enabled); }
[ -d "$SRC/libgcrypt" ] && { build_gcrypt; features+=(-Dlibgcrypt=enabled); }
[ -d "$SRC/openssl" ] && { build_openssl; features+=(-Dopenssl=enabled); }
cd "$SRC/asmdiff"

# Only our prefix is searched: no -dev package of the image can be picked up by accident.
export PKG_CONFIG_LIBDIR=$deps/lib/pkgconfig PKG_CONFIG_PATH=
build=$WORK/asmdiff-build
engine=$LIB_FUZZING_ENGINE
rm -rf "$build"
# prefer_static: pkg-config --static, so libgcrypt brings libgpg-error along
# auto_features=enabled: an optional dependency the project gains (a new oracle library) fails
# this build until build.sh provides it, instead of a fuzzer silently without that oracle.
# nettle stays out for now (its fat build did not link under ASan): fuzz_camellia's list then
# shows the nettle row as "not built", never a silently smaller target.
meson setup "$build" "$SRC/asmdiff" -Dbuildtype=plain -Dprefer_static=true \
  -Dfuzz_engine="$engine" -Dauto_features=enabled -Dunicorn=disabled -Dnettle=disabled \
  "${features[@]}" >"$WORK/meson-setup.log" 2>&1 ||
  { cat "$WORK/meson-setup.log" >&2; exit 1; }
grep -E '^(Run-time dependency|Library|Dependency)' "$WORK/meson-setup.log" >&2 || true

families=$(python3 -c '
import json, sys
print(" ".join(f["name"] for f in json.load(open(sys.argv[1])) if f["fuzzer"]))' "$build/families.json")
[ -n "$families" ] || { log "no family with a fuzzer in $build/families.json"; exit 1; }
log "families: $families"
t0=$SECONDS
for fam in $families; do
  ninja -C "$build" "fuzz_$fam" >"$WORK/ninja-$fam.log" 2>&1 || { tail -n 40 "$WORK/ninja-$fam.log" >&2; exit 1; }
  cp "$build/fuzz_$fam" "$OUT/"
  rm -f "$OUT/fuzz_${fam}_seed_corpus.zip"
  if [ -d "corpus/$fam/seeds" ]; then
    (cd "corpus/$fam/seeds" && zip -q -r "$OUT/fuzz_${fam}_seed_corpus.zip" .)
  fi
  for ext in options dict; do
    [ -f "corpus/$fam/fuzz_$fam.$ext" ] && cp "corpus/$fam/fuzz_$fam.$ext" "$OUT/"
  done
done
log "fuzzers built in $((SECONDS - t0))s; \$OUT: $(cd "$OUT" && ls fuzz_* | tr '\n' ' ')"
