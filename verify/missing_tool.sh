#!/usr/bin/env bash
# missing_tool.sh TOOL PACKAGE TEST — stands in for a test whose tool meson did not find when it
# configured the build, so the test is never silently not registered: a skip that names what is
# missing, and under ASMDIFF_STRICT=1 (./asmdiff test: tools/bootstrap installs it) a failure.
set -u
[ $# -eq 3 ] || { echo "usage: missing_tool.sh TOOL PACKAGE TEST" >&2; exit 2; }
. "$(dirname "${BASH_SOURCE[0]}")/missing.sh"
missing "$3 needs $1 (package $2): not found when the build was configured" "tools/bootstrap"
