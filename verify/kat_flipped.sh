#!/usr/bin/env bash
# kat_flipped.sh TOOL SRCDIR FILE — TOOL's kat over a copy of SRCDIR in which FILE (a vector
# file, relative to SRCDIR) has one hex digit of its last value changed: a positive control
# that the kat consumes that value and fails on a wrong one.  Only FILE is copied (the others
# are linked), to a temporary folder removed at exit; TOOL's exit is this script's.  Judged by
# verify/expect_records.py on the run's summary record, never by its text.
set -u
tool=$1 srcdir=$2 file=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/asmdiff-kat-flipped.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/$(dirname "$file")"
# every other file of the family's folder as it is
for f in "$srcdir/$(dirname "$file")"/*; do
  ln -s "$f" "$work/$(dirname "$file")/$(basename "$f")"
done
rm -f "$work/$file"
# the last line's last hex digit, 0-e -> +1, f -> 0
last=$(grep -v '^[[:space:]]*$' "$srcdir/$file" | tail -n 1)
digit=${last: -1}
case $digit in [0-9a-fA-F]) ;; *) echo "kat_flipped: the last line of $file does not end in a hex digit"; exit 2 ;; esac
new=$(printf '%x' $(( (16#$digit + 1) % 16 )))
awk -v old="$last" -v new="${last%?}$new" '$0 == old && !done { print new; done = 1; next } { print }' \
  "$srcdir/$file" > "$work/$file"
echo "kat_flipped: $file's last value changed: ...${last: -8} -> ...${last: -8:7}$new"
# ${ASMDIFF_RUNNER}: a host profile's qemu (verify/host_profile.sh), else nothing
${ASMDIFF_RUNNER:-} "$tool" kat "$work"
