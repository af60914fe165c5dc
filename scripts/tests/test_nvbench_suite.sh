#!/usr/bin/env bash
# Tests of a team's nvbench suite driven by perf_gate run/ab-run --format nvbench, on a machine without a
# GPU: fake_nvbench.sh stands in for the team's binary (it writes what nvbench --jsonbin writes) and
# GPUPERF_TEST_GPU_IDENTITY for NVML. The first baseline recorded (run --record), a clean run SAME (0), a
# planted 10% slowdown of one state SLOW (1), re-measurement of one state by --benchmark and --axis, the
# suite's own arguments and those the driver owns (2), a GPU that is not the one the suite names its
# states by (2), a crash (2), A/B of two builds; and, given CMake, gpuperf_add_suite(... FORMAT nvbench)'s
# perf.<name> under CTest with its first baseline recorded by update_baseline.sh --suite.
# What test_gbench_suite.sh proves of every team's suite (no GPU, a failure's log) is not repeated here.
#   test_nvbench_suite.sh PERF_GATE [CMAKE CTEST GENERATOR MAKE_PROGRAM]
set -uo pipefail
gate=$(realpath "$1") cmake=${2:-} ctest=${3:-} generator=${4:-} make_program=${5:-}
here="$(cd "$(dirname "$0")" && pwd)"
bench="$here/fake_nvbench.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work  # the GPU lock's files too
unset GPUPERF_PHASES_DIR GPUPERF_GIT_COMMIT
source "$here/lib/expectations.sh"
source "$here/lib/team_project.sh"

# NVML's memory total, as on a real GPU, is above the global_memory_size nvbench writes (CUDA's, 81559 MiB).
echo '{"name": "NVIDIA H100 80GB HBM3", "uuid": "GPU-test-1", "driver": "580.95.05", "memory_mib": 82175}' \
  >"$work/gpu.json"
export GPUPERF_TEST_GPU_IDENTITY=$work/gpu.json
baseline=$work/baselines/nvidia-h100-80gb-hbm3.json
state64="team_nv/copy_sweep/T:F32,BlockSize:64"

run_suite() {  # run_suite [perf_gate run options...]: the suite team_nv against $work/baselines
  "$gate" run --format nvbench --family team_nv --bench "$bench" --baselines "$work/baselines" \
    --out "$work/out" "$@" >"$work/log" 2>&1
}

run_suite
expect 77 "SKIPPED: no baseline for this GPU (NVIDIA H100 80GB HBM3)" "no baseline"

# The first baseline: 10 processes of every state, on device 0, each state's every sample time read.
FAKE_ARGS_LOG=$work/record_args "$gate" run --record --format nvbench --family team_nv --bench "$bench" \
  --baselines "$work/baselines" --out "$work/record" --repetitions 5 >"$work/log" 2>&1
expect 0 "wrote $baseline: 3 benchmarks of NVIDIA H100 80GB HBM3 (nvidia-h100-80gb-hbm3), 10 runs" "first baseline"
check "the baseline holds the states by our names" jq -e '.benchmarks | keys ==
  ["team_nv/copy_sweep/T:F32,BlockSize:256", "team_nv/copy_sweep/T:F32,BlockSize:64", "team_nv/scan"]' "$baseline"
check "each process ran on device 0, the driver's repetitions its minimum samples, into --jsonbin" \
  grep -qx -- "--devices 0 --min-samples 5 --min-time 0.05 --jsonbin $work/record/team_nv.record1.json" "$work/record_args"
# shellcheck disable=SC2016  # jq's own variable
check "the median of the state's sample times, as nvbench wrote them [us]" \
  jq -e --arg n "$state64" '.benchmarks[$n].median | . > 19.9 and . < 20.1' "$baseline"

# A clean run passes; each state's fingerprint, captured apart (--profile, one state a process), is the
# baseline's.
FAKE_ARGS_LOG=$work/clean_args run_suite
expect 0 "PASS - NVIDIA H100 80GB HBM3 (nvidia-h100-80gb-hbm3) vs baseline .*: 3 SAME (exit 0)" "clean run"
check "the report says every state ran the baseline's code" \
  grep -q "3 benchmarks ran the same code as the baseline, 0 changed" "$work/out/team_nv.md"
check "each capture process runs its one state once" grep -qx -- \
  "--devices 0 --profile --benchmark copy_sweep --axis T=F32 --axis BlockSize=64" "$work/clean_args"
check "3 timing processes of every state" test "$(grep -c -- "^--devices 0 --min-samples 30 --min-time 0.05 --jsonbin" \
  "$work/clean_args")" -eq 3 -a "$(wc -l <"$work/clean_args")" -eq 6
check "the min-time the driver chose is said once" \
  test "$(grep -c "runs until at least 0.05 s of GPU time (--min-time 0.05, the driver's choice" "$work/log")" -eq 1
check "no platform change against its own baseline" bash -c "! grep -q 'platform changed' $work/log"

# A planted 10% slowdown of one state fails, naming it; the other states stay SAME.
FAKE_SLOWDOWN_PCT=10 FAKE_SLOW_NAME="BlockSize=2\^6" FAKE_CHANGED_GRID=132 run_suite
expect 1 "SLOW  *$state64  20.0. us -> 22.0. us  +9.9%" "planted slowdown"
check "the other states stay SAME" jq -e '[.benchmarks[] | select(.verdict == "SAME")] | length == 2' \
  "$work/out/team_nv.verdict.json"
check "the code line names the changed launch" grep -q "code: kernel.*grid 1056x1x1 -> 132x1x1" "$work/log"

# --skip-unchanged times only the changed state; the two others are UNCHANGED, untimed.
: >"$work/skip_args"
FAKE_SLOWDOWN_PCT=10 FAKE_SLOW_NAME="BlockSize=2\^6" FAKE_CHANGED_GRID=132 FAKE_ARGS_LOG=$work/skip_args \
  run_suite --skip-unchanged
expect 1 "1 SLOW, 2 UNCHANGED" "--skip-unchanged"
check "only the changed state was timed, by --benchmark and its axes" test "$(grep -c -- \
  "^--devices 0 --min-samples 30 --min-time 0.05 --benchmark copy_sweep --axis T=F32 --axis BlockSize=64 --jsonbin" \
  "$work/skip_args")" -eq 3 -a "$(grep -c -- "--jsonbin" "$work/skip_args")" -eq 3

# At the tolerance with a spread between processes: ambiguous, the state re-measured alone.
: >"$work/remeasure_args"
FAKE_SLOWDOWN_PCT=2 FAKE_SLOW_NAME="BlockSize=2\^6" FAKE_CHANGED_GRID=132 FAKE_SPREAD_PCT=1 FAKE_ARGS_LOG=$work/remeasure_args \
  run_suite --max-remeasure 1 || true
(exit 0)
expect 0 "re-measuring 1 ambiguous benchmark(s) in 3 more processes, attempt 1 of 1" "re-measurement at the tolerance"
check "a re-measurement selects the state by --benchmark and an --axis per axis" test "$(grep -c -- \
  "^--devices 0 --min-samples 30 --min-time 0.05 --benchmark copy_sweep --axis T=F32 --axis BlockSize=64 --jsonbin" \
  "$work/remeasure_args")" -eq 3

# The team's own arguments come after the driver's global options; those the driver owns are refused.
FAKE_ARGS_LOG=$work/own_args run_suite -- --max-noise 1 --timeout 5
expect 0 "3 SAME" "the suite's own arguments"
check "its arguments after --devices and --min-samples" \
  grep -q -- "^--devices 0 --min-samples 30 --max-noise 1 --timeout 5 --jsonbin" "$work/own_args"
run_suite -- -b scan
expect 2 "arguments hold -b, which the driver gives each process itself" "a benchmark selected in the arguments"
"$gate" ab-run --format nvbench --suite team_nv --a "$bench" --b "$bench" --out "$work/ab" --filter scan \
  >"$work/log" 2>&1
expect 2 "--filter selects our suite's cases" "--filter for a team's suite"

# States named by another GPU than the one the driver identified and locked: exit 2, saying both.
FAKE_DEVICE_NAME="NVIDIA H200" run_suite
expect 2 "its states ran on 'NVIDIA H200' (its 'devices'), not on 'NVIDIA H100 80GB HBM3'" "another GPU's states"
FAKE_CRASH=1 run_suite
expect 2 "crashed (signal 11) during run 1 of team_nv" "a crash"

# A/B of two builds of the suite: the same code passes, a 10% slower build B fails.
"$gate" ab-run --format nvbench --suite team_nv --a "$bench" --b "$bench" --out "$work/ab" --rounds 3 \
  >"$work/log" 2>&1
expect 0 "3 SAME" "A/B of the same build"
slow_bench=$work/slow_nvbench.sh
printf '#!/usr/bin/env bash\nFAKE_SLOWDOWN_PCT=10 exec %q "$@"\n' "$bench" >"$slow_bench"
chmod +x "$slow_bench"
"$gate" ab-run --format nvbench --suite team_nv --a "$bench" --b "$slow_bench" --out "$work/ab" --rounds 3 \
  >"$work/log" 2>&1
expect 1 "3 SLOW" "A/B, build B 10% slower"

# gpuperf_add_suite(... FORMAT nvbench) in a team's project: perf.team_nv skips without a baseline,
# update_baseline.sh --suite records it, then the test passes clean and fails a planted slowdown.
if [[ -n $cmake ]]; then
  team_project team_nv nvbench --max-noise 2
  suite_test
  expect 0 "Skipped" "perf.team_nv without a baseline: skipped"
  FAKE_ARGS_LOG=$work/cmake_args bash "$here/../update_baseline.sh" --build-dir "$project/build" \
    --suite team_nv --runs 3 --repetitions 5 >"$work/log" 2>&1
  expect 0 "wrote $project/baselines/nvidia-h100-80gb-hbm3.json: 3 benchmarks" "update_baseline.sh --suite"
  check "the suite's ARGS reach its processes" grep -q -- "^--devices 0 --min-samples 5 --max-noise 2 --jsonbin" \
    "$work/cmake_args"
  suite_test
  expect 0 "100% tests passed" "perf.team_nv clean"
  FAKE_SLOWDOWN_PCT=10 FAKE_CHANGED_GRID=132 suite_test
  expect 8 "SLOW  *team_nv/scan" "perf.team_nv with a planted slowdown"
fi

expectations_summary "nvbench suite"
