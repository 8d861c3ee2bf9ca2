# verify/ossfuzz/builder_env.sh — sourced: ossfuzz_builder_env SANITIZER ENGINE ENGINEDIR sets
# the variables the OSS-Fuzz builder gives oss-fuzz/build.sh, with the values it uses for that
# sanitizer and engine.  Written from the files of google/oss-fuzz (read, not remembered; the
# commit read is named in docs/oss-fuzz.md, which says which value comes from which file):
#   infra/base-images/base-clang/Dockerfile    CC, CXX, the base CFLAGS
#   infra/base-images/base-builder/Dockerfile  SANITIZER_FLAGS_<s>, COVERAGE_FLAGS(_coverage),
#                                              LIB_FUZZING_ENGINE's default (the archive path)
#   infra/base-images/base-builder/compile     the order it puts them together in, COVERAGE_FLAGS
#                                              cleared for AFL, -fno-sanitize=function added to
#                                              CFLAGS (not CXXFLAGS) of every undefined build
#   .../compile_libfuzzer, .../compile_afl     the engine's LIB_FUZZING_ENGINE, CC and AFL_* vars
# Differences that are ours: clang-19 from Debian (OSS-Fuzz builds its own clang and libc++ and
# adds -stdlib=libc++ to CXXFLAGS; the project is C, so that is left out), and AFL++ from
# Debian (OSS-Fuzz builds its own): its libAFLDriver.a is copied to ENGINEDIR/libFuzzingEngine.a,
# as compile_afl copies the one it built to /usr/lib/libFuzzingEngine.a, which is not ours to
# write here.
ossfuzz_builder_env() {
  local sanitizer=$1 engine=$2 enginedir=${3:-}
  # base-clang Dockerfile: CFLAGS (the -Wno-error= set lets legacy C build with a new clang)
  local base_cflags="-O1 -fno-omit-frame-pointer -gline-tables-only \
-Wno-error=incompatible-function-pointer-types -Wno-error=int-conversion \
-Wno-error=deprecated-declarations -Wno-error=implicit-function-declaration \
-Wno-error=implicit-int -Wno-error=unknown-warning-option -Wno-error=vla-cxx-extension \
-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
  # base-builder Dockerfile: SANITIZER_FLAGS_undefined (x86_64; the aarch64 set lacks function).
  # The -fsanitize set is the -fno-sanitize-recover set plus unsigned-integer-overflow, which
  # only feeds coverage (the runner's UBSAN_OPTIONS silence it).
  local ubsan_norecover="array-bounds,bool,builtin,enum,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unreachable,vla-bound,vptr"
  local ubsan_checks="array-bounds,bool,builtin,enum,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unsigned-integer-overflow,unreachable,vla-bound,vptr"
  local san_flags cov_flags
  case $sanitizer in
    address)   san_flags="-fsanitize=address -fsanitize-address-use-after-scope" ;;
    undefined) san_flags="-fsanitize=$ubsan_checks -fno-sanitize-recover=$ubsan_norecover" ;;
    coverage)  san_flags="" ;;
    *) echo "builder_env: unknown sanitizer $sanitizer" >&2; return 2 ;;
  esac
  # base-builder Dockerfile: COVERAGE_FLAGS; `compile` replaces it by COVERAGE_FLAGS_<sanitizer>
  # when that exists (coverage), then clears it for AFL (afl-clang-fast instruments by itself)
  cov_flags="-fsanitize=fuzzer-no-link"
  [ "$sanitizer" = coverage ] && cov_flags="-fprofile-instr-generate -fcoverage-mapping -pthread -Wl,--no-as-needed -Wl,-ldl -Wl,-lm -Wno-unused-command-line-argument"
  export SANITIZER=$sanitizer ARCHITECTURE=x86_64 FUZZING_ENGINE=$engine FUZZING_LANGUAGE=c
  export SANITIZER_FLAGS=$san_flags
  case $engine in
    libfuzzer)
      # compile_libfuzzer: the flag, not the archive
      export CC=clang-19 CXX=clang++-19
      export LIB_FUZZING_ENGINE="-fsanitize=fuzzer" ;;
    afl)
      # compile_afl: LIB_FUZZING_ENGINE stays the base image's archive path, now holding
      # AFL++'s driver (its main reads the input and calls LLVMFuzzerTestOneInput)
      local driver
      [ -n "$enginedir" ] || { echo "builder_env: afl needs ENGINEDIR" >&2; return 2; }
      for driver in /usr/lib/afl/libAFLDriver.a /usr/local/lib/afl/libAFLDriver.a ""; do
        [ -f "$driver" ] && break
      done
      [ -n "$driver" ] || { echo "builder_env: AFL++'s libAFLDriver.a not found (Debian: afl++)" >&2; return 2; }
      mkdir -p "$enginedir" && cp -f "$driver" "$enginedir/libFuzzingEngine.a" || return 2
      export CC=afl-clang-fast CXX=afl-clang-fast++
      export LIB_FUZZING_ENGINE="$enginedir/libFuzzingEngine.a"
      export AFL_QUIET=1 AFL_IGNORE_PROBLEMS=1 AFL_IGNORE_UNKNOWN_ENVS=1
      export ASAN_OPTIONS="detect_leaks=0:symbolize=0:detect_odr_violation=0:abort_on_error=1"
      cov_flags="" ;;
    *) echo "builder_env: unknown engine $engine" >&2; return 2 ;;
  esac
  export COVERAGE_FLAGS=$cov_flags
  # compile: CXXFLAGS are taken before -fno-sanitize=function is added to CFLAGS alone
  export CFLAGS="$base_cflags $SANITIZER_FLAGS $COVERAGE_FLAGS"
  export CXXFLAGS="$CFLAGS"
  [ "$sanitizer" = undefined ] && CFLAGS="$CFLAGS -fno-sanitize=function"
  return 0
}

# The runner's sanitizer options (base-runner Dockerfile ENV), for running the fuzzers as
# ClusterFuzz does.
ossfuzz_runner_env() {
  export ASAN_OPTIONS="alloc_dealloc_mismatch=0:allocator_may_return_null=1:allocator_release_to_os_interval_ms=500:check_malloc_usable_size=0:detect_container_overflow=1:detect_odr_violation=0:detect_leaks=1:detect_stack_use_after_return=1:fast_unwind_on_fatal=0:handle_abort=1:handle_segv=1:handle_sigill=1:max_uar_stack_size_log=16:print_scariness=1:quarantine_size_mb=10:strict_memcmp=1:symbolize=1:use_sigaltstack=1:dedup_token_length=3"
  export UBSAN_OPTIONS="print_stacktrace=1:print_summary=1:silence_unsigned_overflow=1:symbolize=1:dedup_token_length=3"
}
