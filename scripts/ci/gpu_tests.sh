#!/usr/bin/env bash
# The GPU job's test step: correctness and perf tests of BUILD_DIR, one GPU each when the host has
# several (CTest resource groups), JUnit written; then a skipped test fails the job, each regression is
# annotated and the gate's reports go to the job summary. The first failure's exit code is kept.
#
#   gpu_tests.sh BUILD_DIR [ALLOWED_SKIPS_REGEX]
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
(($# == 1 || $# == 2)) || die "$EXIT_INVALID" "usage: $0 BUILD_DIR [ALLOWED_SKIPS_REGEX]"
build=$1 allowed=${2:-}
here="$(dirname "${BASH_SOURCE[0]}")"
build=$(cd "$build" && pwd) || die "$EXIT_INVALID" "no build directory $1"
spec="$build/gpu-resources.json"
gpus=$(bash "$here/resource_spec.sh" "$spec") || exit "$EXIT_INVALID"

rc=0
ctest --test-dir "$build" -L 'correctness|perf' --output-on-failure --no-tests=error \
  --resource-spec-file "$spec" -j "$gpus" --output-junit "$build/junit.xml" || rc=$?
check=0
bash "$here/junit_check.sh" "$build/junit.xml" "$allowed" || check=$?
bash "$here/annotate_verdicts.sh" "$build/perf-results" || true  # no report: junit_check has said why
bash "$here/step_summary.sh" "$build/perf-results" "Perf gate on $(head -n 1 < <(nvidia-smi --query-gpu=name --format=csv,noheader))"
((rc == 0)) && rc=$check
exit "$rc"
