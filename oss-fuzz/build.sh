#!/bin/bash -eu
# oss-fuzz/build.sh — the OSS-Fuzz / ClusterFuzzLite build of asmdiff: every fuzz_<family> target
# this build registers (build/families.json, written by meson), with the libraries its oracles
# and targets use built from source with this build's own flags and linked statically, so the
# oracles are instrumented too and the fuzzers need nothing but the C/C++ runtime on the runner.
# Unicorn, the executor's engine, is built static too, but plain (see build_unicorn).
#
# Environment (set by the OSS-Fuzz builder, or by verify/ossfuzz/build_and_run.sh here):
#   CC CXX CFLAGS CXXFLAGS  compilers; CFLAGS carry the sanitizer and coverage flags
#   LIB_FUZZING_ENGINE      how to link the engine: -fsanitize=fuzzer (libFuzzer), or an archive
#                           path (AFL++: /usr/lib/libFuzzingEngine.a, its driver); either is
#                           passed to meson's fuzz_engine option as link arguments
#   SANITIZER ARCHITECTURE  address | undefined | coverage ...; x86_64
#   SRC WORK OUT            $SRC/asmdiff the project, $SRC/{gmp,libgpg-error,libgcrypt,openssl,
#                           nettle,unicorn} the library sources (the Dockerfile puts them
#                           there); $WORK scratch (the libraries are cached there per flag set);
#                           $OUT results
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

# Each library: configure+make in $deps/build/NAME (out of tree: one source, several flag sets),
# once; a failure shows the end of the log and stops the build.  Only what the fuzzers link is
# built (the library and its headers: no tools, tests or documentation).
built() { [ -f "$deps/.$1-done" ]; }
# step NAME PHASE CMD...: one phase of a library's build, its time noted for the summary line
step() {
  local name=$1 phase=$2 t=$SECONDS; shift 2
  if ! "$@" >>"$deps/build/$name.log" 2>&1; then
    tail -n 40 "$deps/build/$name.log" >&2
    log "$name: failed: $* (log: $deps/build/$name.log)"
    exit 1
  fi
  phases+="${phases:+, }$phase $((SECONDS - t))s"
}
# begin NAME / done NAME: the library's build folder, and its summary line
begin() {
  t_lib=$SECONDS phases=""
  log "$1: building ($(cat "$SRC/$1/.unpacked" 2>/dev/null || echo source))"
  rm -rf "$deps/build/$1"; mkdir -p "$deps/build/$1"; cd "$deps/build/$1"
}
done_lib() {
  touch "$deps/.$1-done"
  log "$1: built in $((SECONDS - t_lib))s ($phases)"
}

build_gmp() {
  built gmp && return
  begin gmp
  # The generic x86-64 triple: GMP's x86_64 assembly without the build machine's CPU tuning,
  # which could use instructions the runner lacks (--enable-fat would carry every CPU's
  # kernels, at three times the build time).
  # (GMP's default target is the library alone: its tests, demos and tuning programs are built
  # by `make check` only.)
  step gmp configure "$SRC/gmp/configure" --prefix="$deps" --disable-shared --enable-static \
    --build=x86_64-pc-linux-gnu --host=x86_64-pc-linux-gnu CC="$CC" CFLAGS="$CFLAGS"
  step gmp make make -j"$jobs"
  step gmp install make install
  done_lib gmp
}

build_gcrypt() {
  if ! built libgpg-error; then
    begin libgpg-error
    step libgpg-error configure "$SRC/libgpg-error/configure" --prefix="$deps" --disable-shared \
      --enable-static --disable-doc --disable-tests --disable-nls --disable-languages \
      CC="$CC" CFLAGS="$CFLAGS"
    step libgpg-error make make -j"$jobs"
    step libgpg-error install make install
    done_lib libgpg-error
  fi
  built libgcrypt && return
  begin libgcrypt
  # Its assembly stays in (the GFNI/AVX-512/AVX2 kernels are targets of the aria and gcmsiv
  # families); only the ciphers the families use.  The public-key algorithms stay: the
  # MPI and KEM code links against all of them.  Not its tests or documentation.
  step libgcrypt configure "$SRC/libgcrypt/configure" --prefix="$deps" --disable-shared \
    --enable-static --disable-doc --with-libgpg-error-prefix="$deps" \
    --enable-ciphers=aes,aria,camellia,chacha20 CC="$CC" CFLAGS="$CFLAGS"
  step libgcrypt make make -j"$jobs" SUBDIRS="compat mpi cipher random src"
  step libgcrypt install make install SUBDIRS="compat mpi cipher random src"
  done_lib libgcrypt
}

build_openssl() {
  built openssl && return
  begin openssl
  # libcrypto only, static, with its assembly (that is what we fuzz).  Algorithms and features
  # no family uses are left out, to build about half of it: ARIA, Camellia, AES, ChaCha20,
  # Poly1305, BN and the EVP layer with its default provider stay; no-deprecated because our
  # adapters use none of the deprecated API (a use would fail this build); no-legacy: the
  # legacy provider holds nothing
  # the families use.
  # -fno-sanitize=function: OpenSSL 3.0 calls its hash-table and stack callbacks through
  # pointers cast to another function type (crypto/lhash/lhash.c:296 on the first EVP fetch),
  # which UBSan's function check (applied to C since clang 17) reports before any input is
  # tried.  Only that check, only in libcrypto; everything else stays on.
  step openssl configure env CC="$CC" CFLAGS="$CFLAGS -fno-sanitize=function" \
    "$SRC/openssl/Configure" linux-x86_64 \
    --prefix="$deps" --libdir=lib no-shared no-tests no-module no-engine no-dso no-async \
    no-comp no-ec no-dh no-dsa no-sm2 no-sm3 no-sm4 no-whirlpool no-idea no-seed no-rc2 no-rc4 \
    no-bf no-cast no-md4 no-mdc2 no-rmd160 no-siphash no-blake2 no-srp no-cms no-ts no-ocsp \
    no-ct no-cmp no-ocb no-scrypt no-siv no-ui-console no-ssl no-tls \
    no-dtls no-srtp no-sock no-des no-legacy no-deprecated no-cmac no-gost no-rfc3779 no-dgram \
    no-psk no-nextprotoneg no-autoload-config no-multiblock no-ssl-trace no-ktls
  step openssl generate make -j"$jobs" build_generated
  step openssl make make -j"$jobs" libcrypto.a
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
  done_lib openssl
}

build_nettle() {
  built nettle && return
  begin nettle
  # libnettle alone (the Camellia oracle), static, fat (its default on x86_64, as Debian ships
  # it): the x86_64 assembly (camellia-crypt-internal among it) with the run-time choice among
  # its AES-NI, SHA-NI and PCLMUL variants.  Not hogweed (public key, needs GMP), tools, tests
  # or documentation.
  # nettle_cv_asm_underscore=no: configure decides whether C symbols get a leading underscore
  # by grepping `nm` of a compiled `int a_global_symbol;` for "_a_global_symbol", which the
  # sanitizers' own symbols (__odr_asan_gen_a_global_symbol, ...) contain: it answers yes, and
  # every assembly function gets a second underscore (`__nettle_camellia_crypt`), undefined
  # for its callers.  No x86-64 ELF target prefixes symbols.
  # -fno-sanitize=function, as for OpenSSL: nettle's API passes its cipher functions as
  # nettle_cipher_func (const void *ctx, ...) pointers (ctr_crypt, our adapter's setup), which
  # UBSan's function check reports at the first call: reference/oracles/camellia_nettle.c:45
  # "call to function nettle_camellia128_crypt through pointer to incorrect function type".
  step nettle configure env nettle_cv_asm_underscore=no "$SRC/nettle/configure" \
    --prefix="$deps" --libdir="$deps/lib" --disable-shared --enable-static --enable-fat \
    --disable-public-key --disable-documentation --disable-openssl \
    CC="$CC" CFLAGS="$CFLAGS -fno-sanitize=function"
  step nettle make make -j"$jobs" libnettle.a
  step nettle install make install-headers install-static install-pkgconfig
  done_lib nettle
}

build_unicorn() {
  built unicorn && return
  begin unicorn
  # The executor's engine (emu/): our AVX-512/GFNI kernels run emulated on a bot whose CPU
  # lacks them.  x86 only (no other target is ever used, and each adds to the build), static,
  # no tests.  Built WITHOUT this build's sanitizer and coverage flags, by plain clang: Unicorn is
  # the machine the kernels run on, not code under test; coverage of its translator would
  # flood the fuzzer's feedback with emulator edges, and its QEMU code is not UBSan-clean.
  # (The environment's CFLAGS are cleared because cmake would take them as its own.)  Our
  # own unicorn.pc: the one Unicorn writes names its build folder's prefix as it was.
  local plain_cc=$CC
  case $CC in afl-*|*/afl-*) plain_cc=$(command -v clang || command -v clang-19) ;; esac
  step unicorn configure env -u CFLAGS -u CXXFLAGS cmake "$SRC/unicorn" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$plain_cc" -DBUILD_SHARED_LIBS=OFF -DUNICORN_ARCH=x86 \
    -DUNICORN_BUILD_TESTS=OFF -DCMAKE_INSTALL_PREFIX="$deps" -DCMAKE_INSTALL_LIBDIR=lib
  step unicorn make env -u CFLAGS -u CXXFLAGS make -j"$jobs"
  mkdir -p "$deps/lib/pkgconfig" "$deps/include/unicorn"
  cp libunicorn.a "$deps/lib/"
  cp "$SRC/unicorn/include/unicorn/"*.h "$deps/include/unicorn/"
  local v; v=$(sed -n 's/^set(UNICORN_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\))/\2/p' "$SRC/unicorn/CMakeLists.txt" | paste -sd.)
  cat >"$deps/lib/pkgconfig/unicorn.pc" <<PC
prefix=$deps
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: unicorn
Description: Unicorn emulator engine, x86 only (static, built by oss-fuzz/build.sh)
Version: ${v:-0}
Libs: -L\${libdir} -lunicorn
Libs.private: -lpthread -lm
Cflags: -I\${includedir}
PC
  done_lib unicorn
}

key=$( { echo "$CC $CFLAGS"; "$CC" --version | head -n1; declare -f step begin done_lib build_gmp build_gcrypt build_openssl build_nettle build_unicorn;
         for l in gmp libgpg-error libgcrypt openssl nettle unicorn; do
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
[ -d "$SRC/nettle" ] && { build_nettle; features+=(-Dnettle=enabled); }
# Unicorn: the executor, so that a bot without AVX-512 or GFNI still runs our kernels (emulated)
# From its source where the image has it (the Dockerfile fetches the release); else Debian's
# own static archive of the same release (libunicorn-dev ships libunicorn.a, a plain build as
# ours is), where the machine has it: this project's machines, whose Debian mirror does not
# serve unicorn-engine's source.
debian_unicorn=/usr/lib/x86_64-linux-gnu/libunicorn.a
if [ -d "$SRC/unicorn" ]; then
  build_unicorn; features+=(-Dunicorn=enabled)
elif [ -f "$debian_unicorn" ] && [ -f /usr/include/unicorn/unicorn.h ]; then
  mkdir -p "$deps/lib/pkgconfig" "$deps/include"
  cp "$debian_unicorn" "$deps/lib/"
  rm -rf "$deps/include/unicorn" && cp -r /usr/include/unicorn "$deps/include/"
  cat >"$deps/lib/pkgconfig/unicorn.pc" <<PC
prefix=$deps
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: unicorn
Description: Unicorn emulator engine (static: Debian's libunicorn.a)
Version: $(dpkg-query -W -f='${Version}' libunicorn-dev 2>/dev/null | sed 's/-.*//')
Libs: -L\${libdir} -lunicorn
Libs.private: -lpthread -lm
Cflags: -I\${includedir}
PC
  log "unicorn: Debian's static libunicorn.a ($debian_unicorn): no source in \$SRC/unicorn"
  features+=(-Dunicorn=enabled)
else
  log "no Unicorn source in \$SRC/unicorn: the fuzzers carry no executor (a bot without AVX-512/GFNI runs none of those kernels)"
  features+=(-Dunicorn=disabled)
fi
cd "$SRC/asmdiff"

# The executor (emu/) is built without the fuzzer's coverage instrumentation (it keeps the
# sanitizer): it is the machine an emulated kernel runs on, like Unicorn, and its edges and
# comparisons are not the kernels' behaviour.  Instrumented, they were a third of an emulated
# input's time (perf: __sanitizer_cov_trace_*cmp* under vx_run) and rewarded inputs for new
# paths through the emulator.  Only where libFuzzer's coverage is on (AFL++ instruments by its
# own pass; the coverage build's profile should show emu/).
if [[ " $CFLAGS " == *" -fsanitize=fuzzer-no-link "* ]]; then
  printf 'src:*/emu/*\n' >"$WORK/asmdiff-coverage-ignore.txt"
  export CFLAGS="$CFLAGS -fsanitize-coverage-ignorelist=$WORK/asmdiff-coverage-ignore.txt"
fi

# Only our prefix is searched: no -dev package of the image can be picked up by accident.
export PKG_CONFIG_LIBDIR=$deps/lib/pkgconfig PKG_CONFIG_PATH=
build=$WORK/asmdiff-build
engine=$LIB_FUZZING_ENGINE
rm -rf "$build"
# prefer_static: pkg-config --static, so libgcrypt brings libgpg-error along
# auto_features=enabled: an optional dependency the project gains (a new oracle library) fails
# this build until build.sh provides it, instead of a fuzzer silently without that oracle.
meson setup "$build" "$SRC/asmdiff" -Dbuildtype=plain -Dprefer_static=true \
  -Dfuzz_engine="$engine" -Dauto_features=enabled \
  "${features[@]}" >"$WORK/meson-setup.log" 2>&1 ||
  { cat "$WORK/meson-setup.log" >&2; exit 1; }
grep -E '^(Run-time dependency|Library|Dependency)' "$WORK/meson-setup.log" >&2 || true

families=$(python3 -c '
import json, sys
print(" ".join(f["name"] for f in json.load(open(sys.argv[1])) if f["fuzzer"]))' "$build/families.json")
[ -n "$families" ] || { log "no family with a fuzzer in $build/families.json"; exit 1; }
log "families: $families"
t0=$SECONDS
targets=()
for fam in $families; do targets+=("fuzz_$fam"); done
# one ninja for all: the targets' objects compile side by side
ninja -C "$build" -j"$jobs" "${targets[@]}" >"$WORK/ninja.log" 2>&1 || { tail -n 40 "$WORK/ninja.log" >&2; exit 1; }
for fam in $families; do
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
