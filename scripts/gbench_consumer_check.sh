#!/usr/bin/env bash
# A team's Google Benchmark suite judged by the installed harness, end to end on a GPU host: the harness
# built in BUILD is installed into a fresh prefix; a copy of examples/gbench_suite (a project of its own:
# two CUDA kernels timed with events as manual time, gpuperf_add_suite) is configured against it, built and
# tested; it records its first baseline with the installed update_baseline.sh --suite; a second build of
# it carries examples/gbench_suite/planted_slowdown.patch (saxpy launched with a sixteenth of the blocks
# that fill the GPU), and is compared with the first by the installed perf_gate ab-run; then the patch is
# applied to the first build too, which is judged against the baseline.
#
#   gbench_consumer_check.sh BUILD OUTDIR
#
# Expected, and checked: perf.saxpy_suite is skipped before the baseline exists, passes once it does,
# and fails after the planted change with a SLOW line for BM_saxpy at 2^26 elements and a code line
# naming saxpy_kernel's grid (the fingerprints the capture library took); the A/B comparison of the clean
# and the planted build fails on the same benchmark, naming the same change; --skip-unchanged times
# BM_saxpy alone (BM_scale UNCHANGED). The first baseline's and the clean check's times are printed
# (OUTDIR/times.txt). Logs and reports land in OUTDIR.
# Exit: 0 every expectation held, 1 one did not, 2 bad usage or a failed build, 77 no GPU.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"
source "$(dirname "${BASH_SOURCE[0]}")/lib/example_check.sh"
root="$(cd "$(dirname "$0")/.." && pwd)"
example_check_start "$0" "$@"

example_prepare "$root/examples/gbench_suite"

run_perf perf_without_baseline saxpy_suite
expect "perf.saxpy_suite is skipped while the GPU has no baseline" \
  test "$(ctest_status perf.saxpy_suite "$out/perf_without_baseline.log")" = Skipped
started=$EPOCHSECONDS
"$prefix/share/gpuperf/scripts/update_baseline.sh" --build-dir "$project/build" --suite saxpy_suite \
  >"$out/record.log" 2>&1
echo "first baseline: $((EPOCHSECONDS - started)) s" | tee -a "$out/times.txt"
baseline=$(compgen -G "$project/baselines/*.json" | head -n 1)
expect "update_baseline.sh --suite writes the project's own baselines/<gpu>.json" test -n "$baseline"
[[ -n $baseline ]] && cp -f "$baseline" "$out/"
started=$EPOCHSECONDS
run_perf perf_clean saxpy_suite
echo "stored check, clean: $((EPOCHSECONDS - started)) s" | tee -a "$out/times.txt"
expect "perf.saxpy_suite passes against it" test "$(ctest_status perf.saxpy_suite "$out/perf_clean.log")" = Passed
expect "with both benchmarks' code the baseline's" grep -q "2 benchmarks ran the same code as the baseline" \
  "$out/perf_clean.md"

"$prefix/bin/perf_gate" ab-run --format gbench --suite saxpy_suite --a "$project/build/saxpy_bench" \
  --b "$planted/build/saxpy_bench" --out "$out/ab" >"$out/ab.log" 2>&1
expect "A/B of the clean and the planted build fails" test "$?" -eq 1
expect "on BM_saxpy at 2^26 elements" grep -q "^SLOW .*saxpy_suite/BM_saxpy/67108864" "$out/ab.log"
expect "naming saxpy_kernel's grid" grep -q "code: .*saxpy_kernel.*grid [0-9]*x1x1 -> [0-9]*x1x1 blocks" "$out/ab.log"

plant_in_project
run_perf perf_planted saxpy_suite
expect "perf.saxpy_suite fails after the planted slowdown" test "$(ctest_status perf.saxpy_suite "$out/perf_planted.log")" = Failed
expect "with a SLOW line for BM_saxpy at 2^26 elements" grep -q "^SLOW .*saxpy_suite/BM_saxpy/67108864" \
  "$out/perf_planted.log"
expect "and a code line naming saxpy_kernel's grid" \
  grep -q "code: .*saxpy_kernel.*grid [0-9]*x1x1 -> [0-9]*x1x1 blocks" "$out/perf_planted.log"

"$prefix/bin/perf_gate" run --format gbench --family saxpy_suite --bench "$project/build/saxpy_bench" \
  --baselines "$project/baselines" --out "$out/skip" --skip-unchanged >"$out/skip.log" 2>&1
expect "--skip-unchanged fails on the planted change" test "$?" -eq 1
expect "and leaves BM_scale untimed, UNCHANGED" jq -e \
  '[.benchmarks[] | select(.verdict == "UNCHANGED") | .name] == ["saxpy_suite/BM_scale/67108864"]' \
  "$out/skip/saxpy_suite.verdict.json"

echo "== the planted slowdown, as the perf test printed it"
grep -hE "^(SLOW|SAME|FAST|AMBIGUOUS) " "$out/perf_planted.log" | head -n 12
echo "== and as A/B printed it"
grep -hE "^(SLOW|SAME|FAST|AMBIGUOUS) " "$out/ab.log" | head -n 12
example_check_end examples/gbench_suite
