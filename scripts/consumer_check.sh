#!/usr/bin/env bash
# A GPU team's first day with the harness, end to end on a GPU host: the harness built in BUILD is
# installed into a fresh prefix; a copy of examples/consumer (a project of its own) is configured against
# it, built and tested; it records its first baseline with the installed update_baseline.sh; then the
# slowdown in examples/consumer/planted_slowdown.patch (a real code change: the vectorised saxpy launched
# with a sixteenth of the blocks that fill the GPU) is applied to the copy, rebuilt and judged.
#
#   consumer_check.sh BUILD OUTDIR
#
# Expected, and checked: correctness.saxpy passes; perf.saxpy is skipped before the baseline exists,
# passes once it does, and fails after the planted change with a SLOW line for the changed variant and
# the code change beside it. Logs and reports land in OUTDIR.
# Exit: 0 every expectation held, 1 one did not, 2 bad usage or a failed build, 77 no GPU.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
root="$(cd "$(dirname "$0")/.." && pwd)"

(($# == 2)) || die "$EXIT_INVALID" "usage: $0 BUILD OUTDIR (see the header)"
build=$(cd "$1" && pwd) || die "$EXIT_INVALID" "no build folder $1"
out=$(mkdir -p "$2" && cd "$2" && pwd)
[[ -x $build/perf_tests/gpuperf_bench ]] || die "$EXIT_INVALID" "$build has no built harness (perf_tests/gpuperf_bench)"
rc=0
"$build/perf_tests/gpuperf_bench" --gpu-info >/dev/null 2>&1 || rc=$?
((rc != 77)) || die "$EXIT_NOT_JUDGED" "no GPU: nothing to check"

prefix="$out/prefix" project="$out/consumer" consumer_build="$out/consumer/build"
rm -rf "$prefix" "$project"
cp -r "$root/examples/consumer" "$project"
failures=0
expect() {  # expect <what> <condition command...>
  local what=$1
  shift
  if "$@"; then echo "ok    $what"; else echo "FAIL  $what"; failures=$((failures + 1)); fi
}
perf_status() {  # perf_status <log>: the status CTest gave perf.saxpy (Passed, Skipped, Failed)
  sed -n 's/^.*Test *#[0-9]*: perf\.saxpy [ .*]*\([A-Za-z]*\).*/\1/p' "$1"
}
run_perf() {  # run_perf <name>: ctest -L perf of the project, logged to OUTDIR/<name>.log
  ctest --test-dir "$consumer_build" -L perf --output-on-failure >"$out/$1.log" 2>&1
  cp -f "$consumer_build/perf-results/saxpy.md" "$out/$1.md" 2>/dev/null
  return 0
}

cmake --install "$build" --prefix "$prefix" >"$out/install.log" 2>&1 ||
  die "$EXIT_INVALID" "cmake --install $build failed (see $out/install.log)"
cmake -S "$project" -B "$consumer_build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native \
  -DCMAKE_PREFIX_PATH="$prefix" >"$out/configure.log" 2>&1 ||
  die "$EXIT_INVALID" "configuring examples/consumer against $prefix failed (see $out/configure.log)"
cmake --build "$consumer_build" >"$out/build.log" 2>&1 || die "$EXIT_INVALID" "building examples/consumer failed (see $out/build.log)"

ctest --test-dir "$consumer_build" -L correctness --output-on-failure >"$out/correctness.log" 2>&1
expect "correctness.saxpy passes" grep -q "correctness.saxpy .*Passed" "$out/correctness.log"
run_perf perf_without_baseline
expect "perf.saxpy is skipped while the GPU has no baseline" test "$(perf_status "$out/perf_without_baseline.log")" = Skipped

"$prefix/share/gpuperf/scripts/update_baseline.sh" --build-dir "$consumer_build" >"$out/record.log" 2>&1
baseline=$(compgen -G "$project/baselines/*.json" | head -n 1)
expect "update_baseline.sh writes the project's own baselines/<gpu>.json" test -n "$baseline"
[[ -n $baseline ]] && cp -f "$baseline" "$out/"
run_perf perf_clean
expect "perf.saxpy passes against it" test "$(perf_status "$out/perf_clean.log")" = Passed

(cd "$project" && patch -p1 <planted_slowdown.patch) >"$out/plant.log" 2>&1 ||
  die "$EXIT_INVALID" "could not apply planted_slowdown.patch (see $out/plant.log)"
cmake --build "$consumer_build" >>"$out/build.log" 2>&1 || die "$EXIT_INVALID" "rebuilding with the planted slowdown failed"
run_perf perf_planted
expect "perf.saxpy fails after the planted slowdown" test "$(perf_status "$out/perf_planted.log")" = Failed
expect "with a SLOW line for the changed variant" grep -q "^SLOW .*saxpy/grid_stride_vec4/" "$out/perf_planted.log"
expect "and its code change beside it" grep -qE "code: .*grid .* blocks" "$out/perf_planted.log"

echo "== the planted slowdown, as the perf test printed it"
grep -hE "^(SLOW|SAME|FAST|AMBIGUOUS) |^ +code: " "$out/perf_planted.log" | head -n 12
((failures == 0)) || exit "$EXIT_REGRESSION"
echo "examples/consumer on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1): every expectation held"
