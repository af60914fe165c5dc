#!/usr/bin/env bash
# Re-measures every perf benchmark on this GPU and rewrites its baseline, baselines/<gpu>.json: after a
# hardware or driver change, or when a pull request makes kernels faster on purpose. The new file goes
# through review like code; the gate prints what moved against the old one.
#
#   update_baseline.sh --build-dir DIR [--runs N] [--repetitions N] [--baselines DIR] [--lock-wait SECONDS]
#   update_baseline.sh --build-dir DIR --suite NAME [--runs N] [--repetitions N] [--baselines DIR]
#                      [--lock-wait SECONDS]
#   update_baseline.sh ... --all-gpus
#
# DIR: this repository's build folder, or that of a project using the harness (its gpuperf-programs.txt
# names its programs and baseline folder, the default of --baselines).
# --suite: a team's own suite (gpuperf_add_suite(NAME ...), whose DIR/gpuperf-suites/NAME.txt names its
# binary, format, arguments and baseline folder), recorded as below but without the checking process
# (such a suite captures no fingerprints), its GPU named from NVML.
#
# A thin wrapper: it finds the programs and calls `perf_gate run --record` (perf_tests/gate/driver/
# suite_record.h), which does the recording: holds the GPU's lock (--lock-wait, default 1800 s), checks
# every case against its reference and captures its fingerprint in a process that times nothing
# (capturing in a timed process moved three benchmarks' medians by 0.8-1.6% on an H100, docs/results.md),
# then runs --runs (default 10; perf_gate's --processes) separate timing processes of the whole suite,
# --repetitions (default 30) samples of each benchmark each. The file keeps each process's median per
# benchmark: the gate estimates a benchmark's process-to-process spread from them, so more processes give
# narrower intervals (a baseline from 3 is judged with the wide interval 2 degrees of freedom allow).
# Tolerances written by hand into the old file are kept. The file is written whole or not at all. The
# processes' results and logs stay in DIR/perf-results/record/. The baseline's commit: GPUPERF_GIT_COMMIT,
# else that of the baseline folder's checkout.
# --all-gpus: records on every GPU of the host at once (those CUDA_VISIBLE_DEVICES lists, else every one
# nvidia-smi lists; two or more), each GPU its own recording (CUDA_VISIBLE_DEVICES=<that GPU>, its own
# DIR/perf-results/record/gpu<i>/ and its own temporary baseline folder: two recordings sharing a folder
# overwrite each other's files), then merges them into the baseline with `perf_gate merge-baselines`, the
# existing file as --previous: each benchmark keeps every GPU's level (machine_medians), from whose spread
# the tolerance on other machines comes (docs/baselines.md, "Recording on several GPUs").
# Exit: 0 written, 2 failure (nothing written), 77 no GPU.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"

# suite_in <build dir> <suite>: sets gate, bench, format, suite_baselines and suite_arguments (with the
# "--" before them, or none) from the suite's file, or dies saying what is missing.
suite_in() {
  local file="$1/gpuperf-suites/$2.txt" key value line
  [[ $2 =~ ^($GPUPERF_FAMILY_NAME_RULE)$ ]] ||
    die "$EXIT_INVALID" "--suite '$2' is not a suite's name (a letter, then letters, digits, _; at most $GPUPERF_MAX_FAMILY_NAME_LENGTH)"
  [[ -f $file ]] || die "$EXIT_INVALID" "no suite '$2' in $1 (expected $file, written by gpuperf_add_suite($2 ...) when CMake configures)"
  gate="" bench="" format="" suite_baselines="" suite_arguments=()
  # Split at the first '=' only: a value keeps every '=' of its own, a trailing one too (--flag=).
  while IFS= read -r line || [[ -n $line ]]; do
    [[ $line == *=* ]] || continue
    key=${line%%=*} value=${line#*=}
    case "$key" in
      gate) gate=$value ;;
      bench) bench=$value ;;
      format) format=$value ;;
      baselines) suite_baselines=$value ;;
      arg) suite_arguments+=("$value") ;;
    esac
  done <"$file"
  [[ -x $gate && -x $bench ]] || die "$EXIT_INVALID" "the suite '$2' is not built in $1: build first (cmake --build $1)"
  ((${#suite_arguments[@]} == 0)) || suite_arguments=(-- "${suite_arguments[@]}")
}

# record_on_every_gpu <record arguments...>: one `perf_gate run --record` per GPU, in parallel, each into its
# own folders, then one merge into $baselines; dies with the first failure's code, nothing merged.
record_on_every_gpu() {
  local devices=() recordings=() pids=() i code=0 slug previous
  if [[ -n ${CUDA_VISIBLE_DEVICES:-} ]]; then
    IFS=, read -ra devices <<<"$CUDA_VISIBLE_DEVICES"
  elif command -v nvidia-smi >/dev/null; then
    mapfile -t devices < <(nvidia-smi --query-gpu=index --format=csv,noheader)
  fi
  ((${#devices[@]} > 0)) || die "$EXIT_NOT_JUDGED" "SKIPPED: --all-gpus found no GPU (neither CUDA_VISIBLE_DEVICES nor nvidia-smi lists one)"
  ((${#devices[@]} >= 2)) || die "$EXIT_INVALID" "--all-gpus needs two or more GPUs, this host has ${#devices[@]}: record without it"
  local scratch
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/update_baseline.XXXXXX")
  for i in "${!devices[@]}"; do
    mkdir -p "$scratch/gpu$i"
    CUDA_VISIBLE_DEVICES=${devices[i]// /} "$gate" run --record --bench "$bench" --baselines "$scratch/gpu$i" \
      --out "$build_dir/perf-results/record/gpu$i" "$@" >"$scratch/gpu$i.log" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    wait "${pids[i]}" || { code=$?; echo "GPU ${devices[i]} (recording $i) failed with $code:" >&2; cat "$scratch/gpu$i.log" >&2; }
  done
  if ((code != 0)); then rm -rf "$scratch"; die "$code" "nothing merged: a recording failed (above)"; fi
  for i in "${!devices[@]}"; do
    cat "$scratch/gpu$i.log"
    recordings+=("$scratch/gpu$i"/*.json)
  done
  slug=$(basename "${recordings[0]}" .json)
  previous=()
  [[ -f $baselines/$slug.json ]] && previous=(--previous "$baselines/$slug.json")
  "$gate" merge-baselines --recordings "${recordings[@]}" --out "$baselines/$slug.json" "${previous[@]}" || {
    code=$?; rm -rf "$scratch"; exit "$code"; }
  rm -rf "$scratch"
}

build_dir="" runs=10 repetitions=30 baselines="" lock_wait=1800 suite="" all_gpus=0
while (($#)); do
  case "$1" in
    --build-dir) need_value "$@"; build_dir=$2; shift 2 ;;
    --runs) need_value "$@"; runs=$2; shift 2 ;;
    --repetitions) need_value "$@"; repetitions=$2; shift 2 ;;
    --baselines) need_value "$@"; baselines=$2; shift 2 ;;
    --lock-wait) need_value "$@"; lock_wait=$2; shift 2 ;;
    --suite) need_value "$@"; suite=$2; shift 2 ;;
    --all-gpus) all_gpus=1; shift ;;
    *) die "$EXIT_INVALID" "unknown argument '$1' (see the header of $0)" ;;
  esac
done
[[ -n $build_dir ]] || die "$EXIT_INVALID" "--build-dir is required (the CMake build folder of the perf tests: this repository's, or a project's that uses the harness)"

if [[ -n $suite ]]; then
  suite_in "$build_dir" "$suite"
  what=(--format "$format" --family "$suite" "${suite_arguments[@]}")
  baselines=${baselines:-$suite_baselines}
else
  harness_in "$build_dir"
  what=(--format gpuperf)
  # Default: the baseline folder the build names (a project's own), else this repository's baselines/.
  [[ -n $baselines ]] || baselines=${build_baselines:-"$(cd "$(dirname "$0")/.." && pwd)/baselines"}
  [[ -d $baselines ]] || die "$EXIT_INVALID" "no baseline folder $baselines: pass --baselines DIR"
fi
if ((all_gpus)); then
  record_on_every_gpu --processes "$runs" --repetitions "$repetitions" --lock-wait "$lock_wait" "${what[@]}"
  exit "$EXIT_PASS"
fi
exec "$gate" run --record --bench "$bench" --baselines "$baselines" --out "$build_dir/perf-results/record" \
  --processes "$runs" --repetitions "$repetitions" --lock-wait "$lock_wait" "${what[@]}"
