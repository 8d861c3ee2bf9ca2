#!/bin/sh
# polyval_body_bench.sh [OLD-COMMIT]: the aggregated POLYVAL and GHASH bodies of this tree
# (kernels/polyval/polyval-x86_64-vpclmul-avx512-aggregated.S and its GHASH twin) side by side
# with those of OLD-COMMIT (default: main) in one process: first both compared on 301 lengths
# (0-300 blocks, a nonzero count of differing results fails), then each timed with rdtsc on
# calls of 1..1024 blocks (best of 200 rounds), scaled to core cycles by a chain of dependent
# scalar adds, as docs/speed.md ("POLYVAL and GHASH on this CPU") quotes it.  Not part of the
# build (it needs AVX-512 + VPCLMULQDQ to run); from the source root:
#     tools/polyval_body_bench.sh [OLD-COMMIT]
set -eu
old=${1:-main}
top=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/old"
git archive "$old" kernels/polyval kernels/ghash | tar -x -C "$work/old"
for v in old new; do
  if [ $v = old ]; then r=$work/old; else r=$top; fi
  clang-19 -c -o "$work/pv_$v.o" -x assembler-with-cpp \
    "$r/kernels/polyval/polyval-x86_64-vpclmul-avx512-aggregated.S"
  clang-19 -c -o "$work/gh_$v.o" -x assembler-with-cpp \
    "$r/kernels/ghash/ghash-x86_64-vpclmul-avx512-aggregated.S"
  objcopy --redefine-sym polyval_update_x86_64_vpclmul_avx512_aggregated=pv_$v "$work/pv_$v.o"
  objcopy --redefine-sym ghash_update_x86_64_vpclmul_avx512_aggregated=gh_$v "$work/gh_$v.o"
done
clang-19 -O2 -Wall -Wextra -o "$work/bench" "$top/tools/polyval_body_bench.c" \
  "$work/pv_old.o" "$work/pv_new.o" "$work/gh_old.o" "$work/gh_new.o"
"$work/bench"
