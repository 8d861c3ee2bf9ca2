#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build: every fuzz_<family> target, linked with the engine the
# infrastructure chooses; CFLAGS from the environment carry its sanitizer and coverage flags.
cd "$SRC/asmdiff"
meson setup "$WORK/build" -Dfuzz_engine="$LIB_FUZZING_ENGINE" -Dbuildtype=plain \
  -Dunicorn=disabled
for f in fuzz/*.c; do
  fam=$(basename "$f" .c)
  ninja -C "$WORK/build" "fuzz_$fam"
  cp "$WORK/build/fuzz_$fam" "$OUT/"
  if [ -d "corpus/$fam/seeds" ]; then
    (cd "corpus/$fam/seeds" && zip -q -r "$OUT/fuzz_${fam}_seed_corpus.zip" .)
  fi
done
