#!/usr/bin/env bash
# A GPU team's first day with the harness, end to end on a GPU host: the harness built in BUILD is
# installed into a fresh prefix; a copy of examples/consumer (a project of its own, its saxpy family
# registered in one file) is configured against it, built and tested; it records its first baseline with
# the installed update_baseline.sh; a second copy carries examples/consumer/planted_slowdown.patch (a real
# code change: the vectorised saxpy launched with a sixteenth of the blocks that fill the GPU) and is
# compared with the first by the installed perf_gate ab-run; then the patch is applied to the first copy
# too, which is rebuilt and judged against its baseline.
#
#   consumer_check.sh BUILD OUTDIR
#
# Expected, and checked: correctness.saxpy passes; perf.families is skipped before the baseline exists,
# passes once it does, and fails after the planted change with a SLOW line for the changed variant and
# the code change beside it; A/B of the clean and the planted build fails on the same variant. Logs and
# reports land in OUTDIR.
# Exit: 0 every expectation held, 1 one did not, 2 bad usage or a failed build, 77 no GPU.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"
source "$(dirname "${BASH_SOURCE[0]}")/lib/example_check.sh"
root="$(cd "$(dirname "$0")/.." && pwd)"
example_check_start "$0" "$@"

example_prepare "$root/examples/consumer"

ctest --test-dir "$project/build" -L correctness --output-on-failure >"$out/correctness.log" 2>&1
expect "correctness.saxpy passes" test "$(ctest_status correctness.saxpy "$out/correctness.log")" = Passed
run_perf perf_without_baseline families
expect "perf.families is skipped while the GPU has no baseline" \
  test "$(ctest_status perf.families "$out/perf_without_baseline.log")" = Skipped

"$prefix/share/gpuperf/scripts/update_baseline.sh" --build-dir "$project/build" >"$out/record.log" 2>&1
baseline=$(compgen -G "$project/baselines/*.json" | head -n 1)
expect "update_baseline.sh writes the project's own baselines/<gpu>.json" test -n "$baseline"
expect "and nothing else into baselines/" test "$(find "$project/baselines" -type f ! -name README.md | wc -l)" -eq 1
[[ -n $baseline ]] && cp -f "$baseline" "$out/"
run_perf perf_clean families
expect "perf.families passes against it" test "$(ctest_status perf.families "$out/perf_clean.log")" = Passed

"$prefix/bin/perf_gate" ab-run --a "$project/build/gpuperf_bench" --b "$planted/build/gpuperf_bench" \
  --filter '^saxpy/' --out "$out/ab" >"$out/ab.log" 2>&1
expect "A/B of the clean and the planted build fails" test "$?" -eq 1
expect "on the changed variant" grep -q "^SLOW .*saxpy/grid_stride_vec4/" "$out/ab.log"

plant_in_project
run_perf perf_planted families
expect "perf.families fails after the planted slowdown" test "$(ctest_status perf.families "$out/perf_planted.log")" = Failed
expect "with a SLOW line for the changed variant" grep -q "^SLOW .*saxpy/grid_stride_vec4/" "$out/perf_planted.log"
expect "and its code change beside it" grep -qE "code: .*grid .* blocks" "$out/perf_planted.log"

echo "== the planted slowdown, as the perf test printed it"
grep -hE "^(SLOW|SAME|FAST|AMBIGUOUS) |^ +code: " "$out/perf_planted.log" | head -n 12
echo "== and as A/B printed it"
grep -hE "^(SLOW|SAME|FAST|AMBIGUOUS) " "$out/ab.log" | head -n 12
example_check_end examples/consumer
