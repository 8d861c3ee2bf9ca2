#!/usr/bin/env bash
# corpus_merge.sh SRCDIR BUILDDIR FAMILY — `./asmdiff corpus merge` (tools/asmdiff_cmd.py
# cmd_corpus) keeps coverage and never overwrites.
# Property: into a seed corpus of the family's three smallest seeds, merging the other seeds
# adds inputs until the corpus reaches the features of all of them together (libFuzzer's
# count of a -runs=0 replay); an input already there is not added twice; a file in the corpus
# whose name collides with a merged input keeps its content; a second merge of the same
# inputs adds nothing.  Works on a copy: the repository's corpus is not touched.
set -u
srcdir=$1 builddir=$(cd "$2" && pwd) fam=$3
fuzzer=$builddir/fuzz_$fam
[ -x "$fuzzer" ] || { echo "SKIP: no libFuzzer build of $fam here ($fuzzer)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/asmdiff-merge-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/corpus/$fam/seeds" "$tmp/new"
all=$srcdir/corpus/$fam/seeds
ls -S -r "$all" | head -n 3 | while read -r f; do cp "$all/$f" "$tmp/corpus/$fam/seeds/"; done
ls -S -r "$all" | tail -n +4 | while read -r f; do cp "$all/$f" "$tmp/new/"; done
# a planted collision: a corpus file under the SHA-1 name of one of the new inputs, other content
victim=$(ls "$tmp/new" | head -n 1)
echo "planted: must survive the merge" >"$tmp/corpus/$fam/seeds/$victim"
features() { # features DIR...: what a -runs=0 replay of DIR... reaches
  "$fuzzer" -runs=0 "$@" 2>&1 | sed -n 's/.*INITED .*ft: \([0-9]*\).*/\1/p' | tail -n1
}
want=$(features "$all")
before=$(ls "$tmp/corpus/$fam/seeds" | wc -l)
run_merge() {
  ASMDIFF_BUILD=$builddir ASMDIFF_BUILD_RISCV64=$builddir/no-riscv64 ASMDIFF_CORPUS=$tmp/corpus \
    python3 "$srcdir/tools/asmdiff_cmd.py" corpus merge "$fam" "$tmp/new"
}
run_merge >"$tmp/log1" 2>&1 || { cat "$tmp/log1"; echo "FAIL: corpus merge exited non-zero"; exit 1; }
grep 'corpus merge' "$tmp/log1"
after=$(ls "$tmp/corpus/$fam/seeds" | wc -l)
got=$(features "$tmp/corpus/$fam/seeds")
bad=0
echo "features: all seeds $want; 3 seeds + merge $got; files $before -> $after (of $(ls "$all" | wc -l) seeds)"
[ -n "$want" ] && [ -n "$got" ] || { echo "FAIL: no feature count from the fuzzer"; exit 1; }
# the planted file can stand for a little coverage of the input it displaced
[ "$got" -ge $((want * 99 / 100)) ] || { echo "FAIL: the merged corpus lost coverage ($got < $want)"; bad=1; }
[ "$after" -gt "$before" ] || { echo "FAIL: nothing was merged"; bad=1; }
[ "$after" -lt $((before + $(ls "$tmp/new" | wc -l))) ] || echo "note: every input was kept"
grep -qx "planted: must survive the merge" "$tmp/corpus/$fam/seeds/$victim" ||
  { echo "FAIL: the merge overwrote $victim"; bad=1; }
run_merge >"$tmp/log2" 2>&1 || { cat "$tmp/log2"; echo "FAIL: second merge exited non-zero"; exit 1; }
again=$(ls "$tmp/corpus/$fam/seeds" | wc -l)
[ "$again" = "$after" ] || { echo "FAIL: a second merge of the same inputs added $((again - after))"; bad=1; }
[ $bad = 0 ] && echo "corpus merge $fam: pass"
exit $bad
