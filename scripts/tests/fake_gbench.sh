#!/usr/bin/env bash
# Stands in for a team's Google Benchmark binary in the tests of perf_gate run --format gbench, on machines
# without a GPU: writes the JSON Google Benchmark writes with --benchmark_out=FILE --benchmark_out_format=json
# (context of the host, one iteration row a repetition, then its aggregate rows) for two benchmarks timed
# with manual time, BM_saxpy/1024 and BM_copy<float>/4096, shaped by environment variables:
#   FAKE_SLOWDOWN_PCT=X   every sample X% slower
#   FAKE_SLOW_NAME=REGEX  only the benchmarks whose run name matches it are (default: all)
#   FAKE_CRASH=1          die of SIGSEGV before writing anything
#   FAKE_FAIL=1           exit 1 after an error message, writing nothing (as a failed CHECK)
#   FAKE_ARGS_LOG=FILE    append each run's arguments to FILE
#   FAKE_SPREAD_PCT=X     process n (counted in FAKE_ARGS_LOG) X% faster, as fast or X% slower, n mod 3: a
#                         spread between processes, the same in every look
#   FAKE_SKIP=REGEX       the benchmarks whose run name matches it are skipped by the suite itself
#                         (SkipWithMessage, as Google Benchmark 1.8 writes it: no time, no aggregate rows)
#   FAKE_CHANGED_GRID=N   the benchmarks FAKE_SLOW_NAME matches launch their kernel on N blocks, not 1056
#   FAKE_NO_CAPTURE=1     a capture process writes no fingerprint (as where CUDA did not load the library)
#   FAKE_NSIGHT=1         a capture process is stopped as Nsight Compute stops it when attached (its
#                         ==ERROR== line, exit 1)
# It takes --benchmark_filter (searched in each run name, as Google Benchmark does), --benchmark_repetitions
# and --benchmark_out; --benchmark_out_format must be json. Run with CUDA_INJECTION64_PATH and
# GPUPERF_FINGERPRINT_OUT set (a capture process of perf_gate), it writes instead what the capture library
# would: the fingerprint of the one benchmark --benchmark_filter selects.
set -euo pipefail
[[ -n ${FAKE_ARGS_LOG:-} ]] && echo "$*" >>"$FAKE_ARGS_LOG"
out="" filter="." repetitions=1 format=""
for arg in "$@"; do
  case "$arg" in
    --benchmark_out=*) out=${arg#*=} ;;
    --benchmark_out_format=*) format=${arg#*=} ;;
    --benchmark_filter=*) filter=${arg#*=} ;;
    --benchmark_repetitions=*) repetitions=${arg#*=} ;;
  esac
done
if [[ -n ${GPUPERF_FINGERPRINT_OUT:-} && -f ${CUDA_INJECTION64_PATH:-} ]]; then
  [[ -n ${FAKE_NO_CAPTURE:-} ]] && exit 0
  if [[ -n ${FAKE_NSIGHT:-} ]]; then
    echo "==ERROR== Another tool/injection might be loaded since CUDA_INJECTION64_PATH is set to $CUDA_INJECTION64_PATH. To run Nsight Compute unset CUDA_INJECTION64_PATH environment variable."
    exit 1
  fi
  name=BM_copy; [[ "BM_saxpy/1024/manual_time" =~ $filter ]] && name=BM_saxpy
  grid=1056
  [[ -n ${FAKE_CHANGED_GRID:-} && $name =~ ${FAKE_SLOW_NAME:-.} ]] && grid=$FAKE_CHANGED_GRID
  jq -n --arg name "${name#BM_}_kernel" --argjson grid "$grid" '
    {schema: 2, capture_status: "cupti", libraries: {cuda_runtime: "13.0.96"},
     kernels: [{name: "\($name)(float, float const*, float*, long long)", mangled_name: "_Z\($name)",
                grid: [$grid, 1, 1], block: [256, 1, 1], dynamic_shared_memory_bytes: 0,
                registers_per_thread: 16, static_shared_memory_bytes: 0, local_memory_per_thread_bytes: 0,
                sass_hash: "0123456789abcdef", launches: 1}],
     copies: [{kind: "memset", bytes: 4096, after_launches: 0, count: 1}]}' >"$GPUPERF_FINGERPRINT_OUT"
  exit 0
fi
[[ -n $out && $format == json ]] || { echo "fake_gbench: give --benchmark_out=FILE --benchmark_out_format=json" >&2; exit 2; }
[[ -n ${FAKE_CRASH:-} ]] && kill -SEGV $$
[[ -n ${FAKE_FAIL:-} ]] && { echo "CHECK failed: cudaMalloc: out of memory" >&2; exit 1; }
offset=0
if [[ -n ${FAKE_SPREAD_PCT:-} ]]; then
  process=$(wc -l <"$FAKE_ARGS_LOG")
  offset=$((process % 3 - 1))
fi
jq -n --arg filter "$filter" --argjson reps "$repetitions" --argjson slow "${FAKE_SLOWDOWN_PCT:-0}" \
  --argjson offset "$offset" --argjson spread "${FAKE_SPREAD_PCT:-0}" \
  --arg slow_name "${FAKE_SLOW_NAME:-.}" --arg skip "${FAKE_SKIP:-}" '
  def skipped_rows($name):
    [range(0; $reps) as $i
     | {name: "\($name)/manual_time", family_index: 0, per_family_instance_index: 0,
        run_name: "\($name)/manual_time", run_type: "iteration", repetitions: $reps, repetition_index: $i,
        threads: 1, skipped: true, skip_message: "needs two GPUs", iterations: 0, real_time: 0, cpu_time: 0,
        time_unit: "us"}];
  def rows($name; $base):
    if $skip != "" and ($name | test($skip)) then skipped_rows($name) else
    ($base * (1 + $offset * $spread / 100)
     * (if $name | test($slow_name) then 1 + $slow / 100 else 1 end)) as $scaled
    | [range(0; $reps) as $i
       | {name: "\($name)/manual_time", family_index: 0, per_family_instance_index: 0,
          run_name: "\($name)/manual_time", run_type: "iteration", repetitions: $reps, repetition_index: $i,
          threads: 1, iterations: 1000, real_time: ($scaled * (1 + (($i * 7919) % 11 - 5) / 2000)),
          cpu_time: 3.5, time_unit: "us"}]
    | . + [{name: "\($name)/manual_time_mean", run_name: "\($name)/manual_time", run_type: "aggregate",
            repetitions: $reps, threads: 1, aggregate_name: "mean", aggregate_unit: "time", iterations: $reps,
            real_time: $scaled, cpu_time: 3.5, time_unit: "us"}] end;
  {context: {date: "2026-11-27T12:00:00+00:00", host_name: "fake-host", executable: "./fake_gbench",
             num_cpus: 16, mhz_per_cpu: 2000, cpu_scaling_enabled: false, caches: [],
             load_avg: [0.1, 0.1, 0.1], library_version: "v1.8.3", library_build_type: "release"},
   benchmarks: ([rows("BM_saxpy/1024"; 12.5), rows("BM_copy<float>/4096"; 40)] | flatten
                | map(select(.run_name | test($filter))))}' >"$out"
echo "wrote $out"
