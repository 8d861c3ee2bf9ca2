# verify/ossfuzz/builder_env.sh — sourced: ossfuzz_builder_env SANITIZER ENGINE sets the
# variables the OSS-Fuzz builder gives oss-fuzz/build.sh, with the values it uses for that
# sanitizer and engine.  Reconstructed from OSS-Fuzz's infra/base-images (base-clang's and
# base-builder's Dockerfile ENV lines, base-builder's `compile` and `compile_afl` scripts) as we
# know them, not fetched: docs/oss-fuzz.md says which value comes from where.  Differences
# that are ours: clang-19 from Debian (OSS-Fuzz builds its own clang and libc++, and adds
# -stdlib=libc++ to CXXFLAGS; the project is C, so only the engine's link is touched), and
# AFL++ 4.04c from Debian (OSS-Fuzz builds a newer AFL++ from source).
ossfuzz_builder_env() {
  local sanitizer=$1 engine=$2
  # base-builder Dockerfile
  local base_cflags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
  local ubsan_checks="array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unsigned-integer-overflow,unreachable,vla-bound,vptr"
  local ubsan_norecover="array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unreachable,vla-bound,vptr"
  local san_flags cov_flags
  case $sanitizer in
    address)   san_flags="-fsanitize=address -fsanitize-address-use-after-scope" ;;
    undefined) san_flags="-fsanitize=$ubsan_checks -fno-sanitize-recover=$ubsan_norecover" ;;
    coverage)  san_flags="" ;;
    *) echo "builder_env: unknown sanitizer $sanitizer" >&2; return 2 ;;
  esac
  # base-clang Dockerfile: COVERAGE_FLAGS; `compile` replaces it by COVERAGE_FLAGS_<sanitizer>
  # when that exists (coverage)
  cov_flags="-fsanitize=fuzzer-no-link"
  [ "$sanitizer" = coverage ] && cov_flags="-fprofile-instr-generate -fcoverage-mapping -pthread -Wl,--no-as-needed -Wl,-ldl -Wl,-lm -Wno-unused-command-line-argument"
  export SANITIZER=$sanitizer ARCHITECTURE=x86_64 FUZZING_ENGINE=$engine FUZZING_LANGUAGE=c
  export SANITIZER_FLAGS=$san_flags COVERAGE_FLAGS=$cov_flags
  case $engine in
    libfuzzer)
      export CC=clang-19 CXX=clang++-19
      export LIB_FUZZING_ENGINE="-fsanitize=fuzzer" ;;
    afl)
      # compile_afl: afl-clang-fast as the compiler; it turns -fsanitize=fuzzer into its own
      # driver (libAFLDriver.a) and -fsanitize=fuzzer-no-link into its instrumentation
      export CC=afl-clang-fast CXX=afl-clang-fast++
      export LIB_FUZZING_ENGINE="-fsanitize=fuzzer"
      export AFL_QUIET=1 AFL_IGNORE_UNKNOWN_ENVS=1 AFL_LLVM_MODE_WORKAROUND=0
      export AFL_ENABLE_DICTIONARY=0 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 ;;
    *) echo "builder_env: unknown engine $engine" >&2; return 2 ;;
  esac
  export CFLAGS="$base_cflags $SANITIZER_FLAGS $COVERAGE_FLAGS"
  export CXXFLAGS="$CFLAGS"
}

# The runner's sanitizer options (base-runner Dockerfile ENV), for running the fuzzers as
# ClusterFuzz does.
ossfuzz_runner_env() {
  export ASAN_OPTIONS="alloc_dealloc_mismatch=0:allocator_may_return_null=1:allocator_release_to_os_interval_ms=500:check_malloc_usable_size=0:detect_container_overflow=1:detect_odr_violation=0:detect_leaks=1:detect_stack_use_after_return=1:fast_unwind_on_fatal=0:handle_abort=1:handle_segv=1:handle_sigill=1:max_uar_stack_size_log=16:print_scariness=1:quarantine_size_mb=10:strict_memcmp=1:symbolize=1:use_sigaltstack=1:dedup_token_length=3"
  export UBSAN_OPTIONS="print_stacktrace=1:print_summary=1:silence_unsigned_overflow=1:symbolize=1:dedup_token_length=3"
}
