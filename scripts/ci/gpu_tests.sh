#!/usr/bin/env bash
# The GPU job's test step: correctness and perf tests of BUILD_DIR, one GPU each when the host has
# several (CTest resource groups: the build's gpuperf.gpus fixture, or the spec file written here), JUnit
# written; then a skipped test fails the job, each regression is
# annotated and the gate's reports go to the job summary. The first failure's exit code is kept.
# Where the time went: each test writes its phase files into BUILD_DIR/perf-results/phases (beside the
# build's, scripts/ci/build.sh); perf_gate phases tabulates them into perf-results/time-spent.md (last in
# the job summary) and time-spent.json (in the artifact).
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

phases="$build/perf-results/phases"
rm -f "$phases"/correctness_test.*.json "$phases"/perf_test.*.json "$phases"/perf_phases.*.json \
  "$build"/perf-results/time-spent.md "$build"/perf-results/time-spent.json  # an earlier run's
export GPUPERF_PHASES_DIR=$phases  # read by scripts/ci/with_ctest_gpu.sh and scripts/perf_test.sh
# A build with the gpuperf.gpus fixture (CMake 3.28 or newer, without GPUPERF_GPU_RESOURCES) lists the
# GPUs itself, and CTest takes no spec file beside it; an older one is given the spec.
resources=(--resource-spec-file "$spec")
if ctest --test-dir "$build" -N -R '^gpuperf\.gpus$' 2>/dev/null | grep -q '^Total Tests: 1$'; then
  resources=()
fi
rc=0
# Up to 4 tests a GPU at once: correctness tests share a GPU's 4 slots, a perf test takes them all.
ctest --test-dir "$build" -L 'correctness|perf' --output-on-failure --no-tests=error \
  "${resources[@]}" -j $((gpus * 4)) --output-junit "$build/junit.xml" || rc=$?
check=0
bash "$here/junit_check.sh" "$build/junit.xml" "$allowed" || check=$?
# Rendered by the build's perf_gate, the one that judged; no report: junit_check has said why.
(harness_in "$build" && bash "$here/annotate_verdicts.sh" --gate "$gate" "$build/perf-results") || true
(harness_in "$build" && "$gate" phases --dir "$phases" --markdown "$build/perf-results/time-spent.md" \
  --json "$build/perf-results/time-spent.json") || note "no time table (see above); the tests' results stand"
bash "$here/step_summary.sh" "$build/perf-results" "Perf gate on $(head -n 1 < <(nvidia-smi --query-gpu=name --format=csv,noheader))"
((rc == 0)) && rc=$check
exit "$rc"
