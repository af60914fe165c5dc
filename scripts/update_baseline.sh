#!/usr/bin/env bash
# Re-measures every perf benchmark on this GPU and rewrites its baseline, baselines/<gpu>.json: after a
# hardware or driver change, or when a pull request makes kernels faster on purpose. The new file goes
# through review like code; the gate prints what moved against the old one.
#
#   update_baseline.sh --build-dir DIR [--runs N] [--repetitions N] [--baselines DIR]
#   update_baseline.sh --build-dir DIR --suite NAME [--runs N] [--repetitions N] [--baselines DIR]
#
# DIR: this repository's build folder, or that of a project using the harness (its gpuperf-programs.txt
# names its programs and baseline folder, the default of --baselines).
# --suite: a team's own suite (gpuperf_add_suite(NAME ...), whose DIR/gpuperf-suites/NAME.txt names its
# binary, format, arguments and baseline folder): recorded by perf_gate run --record, which does what is
# said below but the checking process (such a suite captures no fingerprints) and names the GPU from NVML.
# Each of the --runs (default 10) is a separate process, and the file keeps each one's median per
# benchmark: the gate estimates a benchmark's process-to-process spread from them, so more processes
# give narrower intervals (a baseline from 3 is judged with the wide interval 2 degrees of freedom
# allow). One process is one pass over the suite, timing only; a process before them checks every case
# against its reference and captures its fingerprint without timing (gpuperf_bench --fingerprint-only):
# capturing in a timed process moved three benchmarks' medians by 0.8-1.6% on an H100 (docs/results.md,
# "Does capturing fingerprints move the timings?"). Tolerances
# written by hand into the old file are kept. The file is written whole or not at all.
# Exit: 0 written, 2 failure (nothing written), 77 no GPU.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

# record_suite <build dir> <suite>: a team's suite recorded by perf_gate run --record (its exit code).
record_suite() {
  local file="$1/gpuperf-suites/$2.txt" key value gate="" bench="" format="" folder="" arguments=()
  [[ $2 =~ ^[A-Za-z0-9_]+$ ]] || die "$EXIT_INVALID" "--suite '$2' is not a suite's name (letters, digits, _)"
  [[ -f $file ]] || die "$EXIT_INVALID" "no suite '$2' in $1 (expected $file, written by gpuperf_add_suite($2 ...) when CMake configures)"
  while IFS='=' read -r key value; do
    case "$key" in
      gate) gate=$value ;;
      bench) bench=$value ;;
      format) format=$value ;;
      baselines) folder=$value ;;
      arg) arguments+=("$value") ;;
    esac
  done <"$file"
  [[ -x $gate && -x $bench ]] || die "$EXIT_INVALID" "the suite '$2' is not built in $1: build first (cmake --build $1)"
  ((${#arguments[@]})) && arguments=(-- "${arguments[@]}")
  exec "$gate" run --record --format "$format" --family "$2" --bench "$bench" --baselines "${baselines:-$folder}" \
    --out "$1/perf-results/record" --processes "$runs" --repetitions "$repetitions" --lock-wait "$lock_wait" \
    "${arguments[@]}"
}

build_dir="" runs=10 repetitions=30 baselines="" lock_wait=1800 suite=""
while (($#)); do
  case "$1" in
    --build-dir) need_value "$@"; build_dir=$2; shift 2 ;;
    --runs) need_value "$@"; runs=$2; shift 2 ;;
    --repetitions) need_value "$@"; repetitions=$2; shift 2 ;;
    --baselines) need_value "$@"; baselines=$2; shift 2 ;;
    --lock-wait) need_value "$@"; lock_wait=$2; shift 2 ;;
    --suite) need_value "$@"; suite=$2; shift 2 ;;
    *) die "$EXIT_INVALID" "unknown argument '$1' (see the header of $0)" ;;
  esac
done
[[ -n $build_dir ]] || die "$EXIT_INVALID" "--build-dir is required (the CMake build folder of the perf tests: this repository's, or a project's that uses the harness)"
[[ -z $suite ]] || record_suite "$build_dir" "$suite"
harness_in "$build_dir"
# Default: the baseline folder the build names (a project's own), else this repository's baselines/.
[[ -n $baselines ]] || baselines=${build_baselines:-"$(cd "$(dirname "$0")/.." && pwd)/baselines"}
[[ -d $baselines ]] || die "$EXIT_INVALID" "no baseline folder $baselines: pass --baselines DIR"
need_tool jq

gpu=$(gpu_info "$bench")
slug=$(jq -r .slug <<<"$gpu")
target="$baselines/$slug.json"
lock_gpu "$(jq -r .uuid <<<"$gpu")" "$lock_wait"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
commit=${GPUPERF_GIT_COMMIT:-$(git -C "$baselines" rev-parse --short HEAD 2>/dev/null || echo unknown)}
note "checking every case and capturing its fingerprint on $(jq -r .name <<<"$gpu")"
GPUPERF_GIT_COMMIT=$commit "$bench" --fingerprint-only --benchmark_out="$work/fingerprints.json" \
  >"$work/fingerprints.log" 2>&1 ||
  { tail -n 20 "$work/fingerprints.log" >&2; die "$EXIT_INVALID" "checking the cases failed; $target left unchanged"; }
results=()
# Fingerprints, no run (perf_gate record); CUPTI may be unavailable (another profiler attached).
if jq -e '(.fingerprints // {}) | length > 0' "$work/fingerprints.json" >/dev/null; then
  results+=("$work/fingerprints.json")
else
  note "no fingerprint captured ($work/fingerprints.log): the baseline will hold none"
fi
for ((run = 1; run <= runs; run++)); do
  note "run $run of $runs on $(jq -r .name <<<"$gpu")"
  GPUPERF_GIT_COMMIT=$commit "$bench" --no-reference-check --benchmark_repetitions="$repetitions" \
    --benchmark_out="$work/run$run.json" --benchmark_out_format=json >"$work/run$run.log" 2>&1 ||
    { tail -n 20 "$work/run$run.log" >&2; die "$EXIT_INVALID" "benchmark run $run failed; $target left unchanged"; }
  results+=("$work/run$run.json")
done

# perf_gate record locks $target from reading it (--previous) to replacing it: two GPUs of one model
# recording at once each leave a whole file (the later one stands), and no lock is taken here, which that
# call would wait on.
previous=()
[[ -f $target ]] && previous=(--previous "$target")
"$gate" record --results "${results[@]}" --out "$target" "${previous[@]}" --commit "$commit"
note "wrote $target: review the changes above, then commit the file"
