#!/usr/bin/env bash
# Stands in for perf_tests/gpuperf_bench in the scripts' tests, on machines without a GPU: answers
# --gpu-info and --list-cases, and writes Google Benchmark JSON for two benchmarks, shaped by environment variables:
#   FAKE_GPU=none        no CUDA device (exit 77)
#   FAKE_SLOWDOWN_PCT=X  every sample X% slower
#   GPUPERF_INJECT_SLOWDOWN='<regex>=X'  the same, as the real binary's injection (the regex is ignored)
#   FAKE_THROTTLED=1     every sample flagged throttled
#   FAKE_CRASH=1         die of SIGSEGV before writing anything
#   FAKE_SLEEP=S         sleep S seconds first (to hold the GPU lock)
#   FAKE_ARGS_LOG=FILE   append each run's arguments to FILE
#   FAKE_FINGERPRINTS=1  a checking run (no --no-reference-check) adds fingerprints, as the real one does;
#                        --fingerprint-only writes them alone (no benchmarks)
#   FAKE_CODE_CHANGE=1   fake/long's fingerprint has other machine code
#   FAKE_GPU_PER_DEVICE=1  a host of several GPUs: the GPU's uuid is GPU-fake<CUDA_VISIBLE_DEVICES>
#   --profiler-window    writes each selected benchmark's name to --profiler-window-order=FILE and, where
#                        FAKE_NCU_LAUNCHES names a file (fake_ncu.sh), its fingerprint's launch there
#                        ("mangled<TAB>grid<TAB>block"), as the real one's window launches under ncu
#   FAKE_WINDOW_SKIP=NAME  --profiler-window: NAME cannot be set up (no window, exit 1)
#   FAKE_CEILING=1       also write ceiling/device_copy/n:1 (the memory canary) where the filter matches it;
#                        off by default, so that the other scripts' tests see the two benchmarks alone
#   --time-filter=REGEX  writes only the benchmarks both filters match, as the real one times only those
#   FAKE_NO_TIME_FILTER=1  refuses --time-filter as an unknown flag (exit 2), as a build from before it
#   --benchmark_list_tests=true  lists the benchmarks it would write, one a line, and writes nothing
set -euo pipefail
[[ -n ${FAKE_ARGS_LOG:-} ]] && echo "$*" >>"$FAKE_ARGS_LOG"
fake_uuid=GPU-fake
[[ -n ${FAKE_GPU_PER_DEVICE:-} ]] && fake_uuid=GPU-fake${CUDA_VISIBLE_DEVICES:-}
if [[ ${1:-} == --gpu-info ]]; then
  [[ ${FAKE_GPU:-} == none ]] && { echo "SKIPPED: no CUDA device" >&2; exit 77; }
  echo '{"name": "Fake GPU", "slug": "fake-gpu", "uuid": "'"$fake_uuid"'", "compute_capability": "9.0", "sm_count": 132, "memory_mib": 1, "driver": "0", "cuda_runtime": "13.0"}'
  exit 0
fi
if [[ ${1:-} == --list-cases ]]; then  # needs no GPU, as the real one
  jq -n '{schema_version: 1, cases: [
    {name: "fake/short/n:1", family: "fake", variant: "short", shape: "n:1", unit: "us", bytes: 1e6, flops: 0,
     roles: ["correctness", "perf"], compared_with: null, speedup_over: null, min_compute_capability: 0},
    {name: "fake/long/n:2", family: "fake", variant: "long", shape: "n:2", unit: "us", bytes: 1e6, flops: 0,
     roles: ["correctness", "perf"], compared_with: null, speedup_over: null, min_compute_capability: 0}]}'
  exit 0
fi
out="" filter="." time_filter="." repetitions=30 checking=1 fingerprint_only=0 window=0 order="" list=0
for arg in "$@"; do
  case "$arg" in
    --time-filter=*)
      [[ -n ${FAKE_NO_TIME_FILTER:-} ]] && { echo "error: unrecognized command-line flag: $arg" >&2; exit 2; }
      time_filter=${arg#*=} ;;
    --benchmark_list_tests=true) list=1 ;;
    --profiler-window) window=1 ;;
    --profiler-window-order=*) order=${arg#*=} ;;
    --no-reference-check) checking=0 ;;
    --fingerprint-only) fingerprint_only=1 ;;
    --benchmark_out=*) out=${arg#*=} ;;
    --benchmark_filter=*) filter=${arg#*=} ;;
    --benchmark_repetitions=*) repetitions=${arg#*=} ;;
  esac
done
if ((window)); then
  rc=0
  [[ -n $order ]] && : >"$order"
  for name in fake/short/n:1 fake/long/n:2; do
    [[ $name =~ $filter ]] || continue
    if [[ $name == "${FAKE_WINDOW_SKIP:-}" ]]; then echo "ERROR $name: could not set up the case" >&2; rc=1; continue; fi
    kernel=${name#fake/}
    [[ -n ${FAKE_NCU_LAUNCHES:-} ]] && printf '%s_kernel\t(8, 1, 1)\t(256, 1, 1)\n' "${kernel%%/*}" >>"$FAKE_NCU_LAUNCHES"
    [[ -n $order ]] && echo "$name" >>"$order"
  done
  exit "$rc"
fi
if ((list)); then
  for name in fake/short/n:1 fake/long/n:2; do
    [[ $name =~ $filter && $name =~ $time_filter ]] && echo "$name"
  done
  exit 0
fi
slow=${FAKE_SLOWDOWN_PCT:-0}
[[ -n ${GPUPERF_INJECT_SLOWDOWN:-} ]] && slow=${GPUPERF_INJECT_SLOWDOWN##*=}
sleep "${FAKE_SLEEP:-0}"
[[ -n ${FAKE_CRASH:-} ]] && kill -SEGV $$
fingerprints=0
[[ -n ${FAKE_FINGERPRINTS:-} ]] && ((checking || fingerprint_only)) && fingerprints=1
jq -n --arg filter "$filter" --arg time_filter "$time_filter" --argjson reps "$repetitions" --argjson slow "$slow" \
  --argjson throttled "${FAKE_THROTTLED:-0}" --argjson ceiling "${FAKE_CEILING:-0}" \
  --argjson fingerprints "$fingerprints" --argjson only "$fingerprint_only" --arg uuid "$fake_uuid" \
  --arg long_sass "$([[ -n ${FAKE_CODE_CHANGE:-} ]] && echo 00000000000000ff || echo 00000000000000aa)" '
  def samples($name; $base):
    range(0; $reps) as $i
    | {name: "\($name)/iterations:1/manual_time", run_name: "\($name)/iterations:1/manual_time",
       run_type: "iteration", repetitions: $reps, repetition_index: $i, iterations: 1,
       real_time: ($base * (1 + $slow / 100) * (1 + (($i * 7919) % 11 - 5) / 2000)), cpu_time: 1,
       time_unit: "us", bytes: 1e6, flops: 0, throttled: $throttled};
  def fingerprint($mangled; $sass):
    {schema: 1, capture_status: "cupti", libraries: {}, kernels: [
      {name: $mangled, mangled_name: $mangled, grid: [8, 1, 1], block: [256, 1, 1], dynamic_shared_memory_bytes: 0,
       registers_per_thread: 32, static_shared_memory_bytes: 0, local_memory_per_thread_bytes: 0, sass_hash: $sass,
       launches: 1}]};
  {context: {gpu_name: "Fake GPU", gpu_slug: "fake-gpu", gpu_uuid: $uuid, driver_version: "1.0",
             cuda_runtime: "13.0"},
   benchmarks: (if $only == 1 then [] else
                [samples("fake/short/n:1"; 20), samples("fake/long/n:2"; 2000),
                 (if $ceiling == 1 then samples("ceiling/device_copy/n:1"; 500) else empty end)
                 | select(.run_name | test($filter) and test($time_filter))] end)}
  + (if $fingerprints == 1 then
       {fingerprints: ({"fake/short/n:1": fingerprint("short_kernel"; "00000000000000bb"),
                        "fake/long/n:2": fingerprint("long_kernel"; $long_sass)}
                       | with_entries(select(.key | test($filter))))}
     else {} end)' >"$out"
echo "wrote $out"
