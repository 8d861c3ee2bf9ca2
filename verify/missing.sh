# missing.sh — sourced by every test script that needs something from outside the build (a tool,
# a library, Linux's sources, fetched library sources).  One meaning of ASMDIFF_STRICT for all of
# them (docs/architecture.md, "Skips"):
#   missing WHAT PROVIDER   prints "SKIP: WHAT" and exits 77; under ASMDIFF_STRICT=1 (./asmdiff
#                           test and premerge set it: PROVIDER, the project's own setup, provides
#                           WHAT) prints "FAIL: WHAT ..." and exits 1.
# A skip for what no setup can provide (the host lacks a CPU feature) is not "missing": such a
# script exits 77 itself, and ./asmdiff test judges it against verify/expected-skips.json.
missing() {
  if [ "${ASMDIFF_STRICT:-0}" = 1 ]; then
    echo "FAIL: $1 (ASMDIFF_STRICT=1: provided by $2, so its absence is a failure, not a skip)"
    exit 1
  fi
  echo "SKIP: $1"
  exit 77
}
