#!/usr/bin/env bash
# Tests of a team's Google Benchmark suite driven by perf_gate run/ab-run --format gbench, on a machine
# without a GPU: fake_gbench.sh stands in for the team's binary and GPUPERF_TEST_GPU_IDENTITY for NVML.
# The first baseline recorded (run --record), a clean run SAME (0), a planted 10% slowdown SLOW (1), no GPU
# (77), a crash and a failure (2), re-measurement by name, the suite's own arguments, A/B of two builds; a
# baseline file shared with a family (each recording keeps the other's entries), a benchmark it skips;
# and, given CMake, gpuperf_add_suite's perf.<name> under CTest with its first baseline recorded by
# update_baseline.sh --suite.
#   test_gbench_suite.sh PERF_GATE [CMAKE CTEST GENERATOR MAKE_PROGRAM]
set -uo pipefail
gate=$(realpath "$1") cmake=${2:-} ctest=${3:-} generator=${4:-} make_program=${5:-}
here="$(cd "$(dirname "$0")" && pwd)"
bench="$here/fake_gbench.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work  # the GPU lock's files too
unset GPUPERF_PHASES_DIR GPUPERF_GIT_COMMIT
source "$here/lib/expectations.sh"
source "$here/lib/team_project.sh"

echo '{"name": "NVIDIA H100 80GB HBM3", "uuid": "GPU-test-1", "driver": "580.95.05"}' >"$work/gpu.json"
echo '{"none": "no device visible (CUDA_VISIBLE_DEVICES=)"}' >"$work/no_gpu.json"
export GPUPERF_TEST_GPU_IDENTITY=$work/gpu.json
baseline=$work/baselines/nvidia-h100-80gb-hbm3.json

run_suite() {  # run_suite [perf_gate run options...]: the suite saxpy_suite against $work/baselines
  "$gate" run --format gbench --family saxpy_suite --bench "$bench" --baselines "$work/baselines" \
    --out "$work/out" "$@" >"$work/log" 2>&1
}

# No baseline yet: skipped, saying how to record one.
run_suite
expect 77 "SKIPPED: no baseline for this GPU (NVIDIA H100 80GB HBM3)" "no baseline"

# The first baseline: 10 processes of the whole suite, our names, the GPU the driver identified.
FAKE_ARGS_LOG=$work/record_args "$gate" run --record --format gbench --family saxpy_suite --bench "$bench" \
  --baselines "$work/baselines" --out "$work/record" --repetitions 5 >"$work/log" 2>&1
expect 0 "wrote $baseline: 2 benchmarks of NVIDIA H100 80GB HBM3 (nvidia-h100-80gb-hbm3), 10 runs" "first baseline"
check "the baseline holds the suite's benchmarks by our names" \
  jq -e '.benchmarks | keys == ["saxpy_suite/BM_copy_x3cfloat_x3e/4096", "saxpy_suite/BM_saxpy/1024"]' "$baseline"
check "the baseline names the GPU NVML (here its stand-in) identified" \
  jq -e '.recorded.gpu_uuids == ["GPU-test-1"] and .gpu.driver == "580.95.05"' "$baseline"
check "each recording process ran the whole suite with Google Benchmark's own flags" \
  grep -qx -- "--benchmark_min_time=0.02 --benchmark_repetitions=5 --benchmark_out=$work/record/saxpy_suite.record1.json --benchmark_out_format=json" \
  "$work/record_args"
check "10 recording processes" test "$(grep -c -- "--benchmark_out=" "$work/record_args")" -eq 10
check "then a capture process for each benchmark, running it once" \
  test "$(grep -cx -- "--benchmark_filter=^(BM_.*)(/(.*))\*\$ --benchmark_repetitions=1 --benchmark_min_time=0.001" \
    "$work/record_args")" -eq 2
check "the baseline holds each benchmark's fingerprint" \
  jq -e '[.benchmarks[].fingerprint.kernels[0].grid[0]] == [1056, 1056]' "$baseline"

# A clean run passes; each benchmark's fingerprint was captured apart and is the baseline's.
FAKE_ARGS_LOG=$work/clean_args run_suite
expect 0 "PASS - NVIDIA H100 80GB HBM3 (nvidia-h100-80gb-hbm3) vs baseline .*: 2 SAME (exit 0)" "clean run"
check "the report says both benchmarks ran the baseline's code" \
  grep -q "2 benchmarks ran the same code as the baseline, 0 changed" "$work/out/saxpy_suite.md"
check "2 capture processes running each benchmark once" \
  test "$(grep -c -- "--benchmark_repetitions=1 --benchmark_min_time=0.001" "$work/clean_args")" -eq 2
check "3 timing processes, no checking process, no canary, no --time-filter" \
  test "$(grep -c -- "^--benchmark_min_time=0.02 --benchmark_repetitions=30 --benchmark_out=" "$work/clean_args")" -eq 3 -a \
  "$(wc -l <"$work/clean_args")" -eq 5
check "the minimum time the driver chose is said once" \
  test "$(grep -c "each repetition of a benchmark runs for at least 0.02 s (--benchmark_min_time=0.02, the driver's choice" \
  "$work/log")" -eq 1
check "the phase file is written" jq -e '[.phases[].phase] == ["lock_wait", "checking", "first_look"]' \
  "$work/out/phases/perf_phases.saxpy_suite.json"

# A planted 10% slowdown of one benchmark, its kernel launched on fewer blocks, fails, naming it and what
# changed in its code; no Nsight Compute diagnosis is tried.
FAKE_SLOWDOWN_PCT=10 FAKE_SLOW_NAME=copy FAKE_CHANGED_GRID=132 run_suite
expect 1 "SLOW  *saxpy_suite/BM_copy_x3cfloat_x3e/4096  40.0. us -> 44.01 us  +9.9%" "planted slowdown"
check "the code line names the changed launch" grep -q "code: copy_kernel.*grid 1056x1x1 -> 132x1x1" "$work/log"
check "the other benchmark stays SAME" jq -e \
  '[.benchmarks[] | select(.verdict == "SAME") | .name] == ["saxpy_suite/BM_saxpy/1024"]' \
  "$work/out/saxpy_suite.verdict.json"
check "no Nsight Compute diagnosis for a team's suite" bash -c "! grep -q ncu '$work/log'"

# The same slowdown with the baseline's code is the machine's, not the code's: PLATFORM, a pass.
FAKE_SLOWDOWN_PCT=10 FAKE_SLOW_NAME=copy run_suite
expect 0 "PLATFORM  *saxpy_suite/BM_copy_x3cfloat_x3e/4096 .*the baseline's own code runs 9.9% slower here" \
  "a slowdown on unchanged code"

# --skip-unchanged times only what changed; the other benchmark is UNCHANGED, untimed.
: >"$work/skip_args"
FAKE_SLOWDOWN_PCT=10 FAKE_SLOW_NAME=copy FAKE_CHANGED_GRID=132 FAKE_ARGS_LOG=$work/skip_args run_suite --skip-unchanged
expect 1 "1 SLOW, 1 UNCHANGED" "--skip-unchanged"
check "the unchanged benchmark is UNCHANGED" jq -e \
  '[.benchmarks[] | select(.verdict == "UNCHANGED") | .name] == ["saxpy_suite/BM_saxpy/1024"]' \
  "$work/out/saxpy_suite.verdict.json"
check "the timing processes ran the changed benchmark alone" \
  test "$(grep -F -- '--benchmark_out=' "$work/skip_args" | grep -cF -- '--benchmark_filter=^(BM_copy<float>/4096)(/(min_time:')" -eq 3

# Where capture fails, the report says why and nothing is skipped.
FAKE_NO_CAPTURE=1 run_suite --skip-unchanged
expect 0 "2 SAME" "no fingerprint written"
check "the report says the capture process wrote none" grep -q "wrote no fingerprint" "$work/out/saxpy_suite.md"
FAKE_NSIGHT=1 run_suite --skip-unchanged
expect 0 "2 SAME" "capture processes stopped by an attached Nsight Compute"
check "the report says another profiler is attached" grep -q "another profiler is attached: an Nsight tool" \
  "$work/out/saxpy_suite.md"
lone=$work/lone && mkdir -p "$lone" && cp "$gate" "$lone/perf_gate"
"$lone/perf_gate" run --format gbench --family saxpy_suite --bench "$bench" --baselines "$work/baselines" \
  --out "$work/out" >"$work/log" 2>&1
expect 0 "2 SAME" "a perf_gate with no capture library beside it"
check "the report says no capture library was found" \
  grep -q "fingerprints not captured (a Google Benchmark suite, and perf_gate found no capture library" \
  "$work/out/saxpy_suite.md"

# At the tolerance (2%, the same GPU's) with a spread between processes: ambiguous, re-measured by name
# with --benchmark_filter (the verdict after it is the gate's business, tested elsewhere).
: >"$work/remeasure_args"
FAKE_SLOWDOWN_PCT=2 FAKE_SLOW_NAME=copy FAKE_CHANGED_GRID=132 FAKE_SPREAD_PCT=1 FAKE_ARGS_LOG=$work/remeasure_args run_suite \
  --max-remeasure 1 || true
(exit 0)
expect 0 "re-measuring 1 ambiguous benchmark(s) in 3 more processes, attempt 1 of 1" "re-measurement at the tolerance"
check "re-measurements select the ambiguous benchmark by its Google Benchmark name" \
  test "$(grep -F -- '--benchmark_out=' "$work/remeasure_args" |
    grep -cF -- '--benchmark_filter=^(BM_copy<float>/4096)(/(min_time:')" -eq 3

# The team's own arguments (after --) come first in every process.
FAKE_ARGS_LOG=$work/own_args run_suite -- --benchmark_min_time=0.2s --benchmark_enable_random_interleaving=false
expect 0 "2 SAME" "the suite's own arguments"
check "its arguments before the driver's" grep -q -- \
  "^--benchmark_min_time=0.2s --benchmark_enable_random_interleaving=false --benchmark_repetitions=30" "$work/own_args"

# No GPU: skipped; a crash and a failure of the binary: exit 2, told apart, with the log's tail.
GPUPERF_TEST_GPU_IDENTITY=$work/no_gpu.json run_suite
expect 77 "SKIPPED: no CUDA device (no device visible (CUDA_VISIBLE_DEVICES=))" "no GPU"
GPUPERF_TEST_GPU_IDENTITY=$work/no_gpu.json "$gate" run --record --format gbench --family saxpy_suite \
  --bench "$bench" --baselines "$work/baselines" --out "$work/record" >"$work/log" 2>&1
expect 77 "SKIPPED: no CUDA device" "no GPU, recording"
FAKE_CRASH=1 run_suite
expect 2 "crashed (signal 11) during run 1 of saxpy_suite" "a crash"
FAKE_FAIL=1 run_suite
expect 2 "failed (exit 1) during run 1 of saxpy_suite" "a failure"
check "a failure shows the log's tail" grep -q "CHECK failed: cudaMalloc" "$work/log"
cp "$baseline" "$work/before.json"
FAKE_CRASH=1 "$gate" run --record --format gbench --family saxpy_suite --bench "$bench" \
  --baselines "$work/baselines" --out "$work/record" >"$work/log" 2>&1
expect 2 "crashed (signal 11) in run 1; log: .*; nothing written" "a crash while recording"
check "a failed recording leaves the baseline as it was" cmp "$baseline" "$work/before.json"

# Bad input: a suite name that breaks the name rule, one family of our own suite recorded (its baseline
# holds every family), arguments for our own suite.
"$gate" run --format gbench --family 'Saxpy Suite' --bench "$bench" --baselines "$work/baselines" \
  --out "$work/out" >"$work/log" 2>&1
expect 2 "family" "a suite name that breaks the name rule"
"$gate" run --record --family saxpy_suite --bench "$bench" --baselines "$work/baselines" --out "$work/out" \
  >"$work/log" 2>&1
expect 2 "records every family.* - leave --family out" "--record of one family of our own suite"
"$gate" run --family fake --bench "$bench" --baselines "$work/baselines" --out "$work/out" -- --x >"$work/log" 2>&1
expect 2 "arguments after -- are for a team's suite" "suite arguments for our own suite"

# A/B of two builds of the suite: the same code passes, a 10% slower build B fails.
"$gate" ab-run --format gbench --suite saxpy_suite --a "$bench" --b "$bench" --out "$work/ab" --rounds 3 \
  >"$work/log" 2>&1
expect 0 "2 SAME" "A/B of the same build"
slow_bench=$work/slow_gbench.sh
printf '#!/usr/bin/env bash\nFAKE_SLOWDOWN_PCT=10 exec %q "$@"\n' "$bench" >"$slow_bench"
chmod +x "$slow_bench"
"$gate" ab-run --format gbench --suite saxpy_suite --a "$bench" --b "$slow_bench" --out "$work/ab" --rounds 3 \
  >"$work/log" 2>&1
expect 1 "2 SLOW" "A/B, build B 10% slower"
check "the A/B report says both builds ran the same code" \
  grep -q "2 benchmarks ran the same code" "$work/ab/ab.md"

# One baseline file shared with our families (their entry planted here as a recording of theirs left it,
# with a hand-set tolerance): recording the suite replaces its own benchmarks only, the family's entry
# stays byte for byte, and what moved names the suite's alone.
record_suite() {
  "$gate" run --record --format gbench --family saxpy_suite --bench "$bench" --baselines "$work/baselines" \
    --out "$work/record" --processes 3 --repetitions 5 >"$work/log" 2>&1
}
entry_of() {  # entry_of NAME: the baseline's lines of the benchmark NAME, as the file holds them
  awk -v key="    \"$1\": {" '$0 == key {on = 1} on {print} on && /^    }/ {exit}' "$baseline"
}
family=reduction/reduce9_shfl_down_last_warp/n:1024
jq --arg f "$family" '.benchmarks[$f] = (.benchmarks["saxpy_suite/BM_saxpy/1024"] + {tolerance_pct: 6.5})' \
  "$baseline" >"$work/shared.json" && mv "$work/shared.json" "$baseline"
record_suite
expect 0 "kept 1 benchmarks of families not recorded here, as they were: reduction (1)" "the suite recorded beside a family"
entry_of "$family" >"$work/family_before"
check "the family's entry is in the file" grep -q '"tolerance_pct": 6.5' "$work/family_before"
FAKE_SLOWDOWN_PCT=10 record_suite
expect 0 "what moved versus $baseline" "the suite re-recorded 10% slower"
check "the family's entry byte for byte as it was" diff "$work/family_before" <(entry_of "$family")
check "what moved names the suite's benchmarks only" bash -c "! sed -n '/what moved/,\$p' '$work/log' | grep -q reduction/"
check "the suite's own benchmarks moved" grep -q "saxpy_suite/BM_saxpy/1024" "$work/log"

# A benchmark the suite skips itself (SkipWithMessage) is no fault of the GPU: the other one recorded, the
# skipped one named, its previous entry kept; a perf test reports it not judged, as skipped.
entry_of saxpy_suite/BM_copy_x3cfloat_x3e/4096 >"$work/copy_before"
FAKE_SKIP=copy record_suite
expect 0 "left out 1 benchmarks the suite skipped itself .*: saxpy_suite/BM_copy_x3cfloat_x3e/4096 (needs two GPUs)" \
  "a skipped benchmark while recording"
check "the skipped benchmark's entry as it was" diff "$work/copy_before" <(entry_of saxpy_suite/BM_copy_x3cfloat_x3e/4096)
FAKE_SKIP=copy run_suite
expect 77 "skipped by the suite itself: needs two GPUs" "a skipped benchmark in a perf test"
check "not blamed on the GPU" bash -c "! grep -q 'needs two GPUs: re-run on an idle GPU' '$work/log' '$work/out/saxpy_suite.md'"
FAKE_SKIP=. record_suite
expect 2 "the suite skipped every one of its 2 benchmarks" "a suite that skips every benchmark records nothing"

# gpuperf_add_suite in a team's project (cmake/KernelFamily.cmake as the package installs it, perf_gate
# as gpuperf::perf_gate): perf.saxpy_suite skips without a baseline, update_baseline.sh --suite records
# it, then the test passes clean and fails a planted slowdown.
if [[ -n $cmake ]]; then
  team_project saxpy_suite gbench --benchmark_min_time=0.1s
  suite_test
  expect 0 "Skipped" "perf.saxpy_suite without a baseline: skipped"
  check "perf.saxpy_suite is labelled perf" grep -q "perf" <(cd "$project/build" && "$ctest" -N -L perf)
  FAKE_ARGS_LOG=$work/cmake_args bash "$here/../update_baseline.sh" --build-dir "$project/build" \
    --suite saxpy_suite --runs 3 --repetitions 5 >"$work/log" 2>&1
  expect 0 "wrote $project/baselines/nvidia-h100-80gb-hbm3.json: 2 benchmarks" "update_baseline.sh --suite"
  check "the suite's ARGS reach its processes" grep -q -- "^--benchmark_min_time=0.1s --benchmark_repetitions=5" \
    "$work/cmake_args"
  suite_test
  expect 0 "100% tests passed" "perf.saxpy_suite clean"
  FAKE_SLOWDOWN_PCT=10 FAKE_CHANGED_GRID=132 suite_test
  expect 8 "SLOW  *saxpy_suite/BM_saxpy/1024" "perf.saxpy_suite with a planted slowdown"
  bash "$here/../update_baseline.sh" --build-dir "$project/build" --suite nothere >"$work/log" 2>&1
  expect 2 "no suite 'nothere' in" "update_baseline.sh --suite of an unknown suite"
  # Without ARGS the test's command line ends with the driver's own options, no bare "--".
  team_project saxpy_suite gbench
  suite_test
  expect 0 "100% tests passed" "perf.saxpy_suite of a suite declared without ARGS"
fi

expectations_summary "gbench suite"
