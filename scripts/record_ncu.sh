#!/usr/bin/env bash
# Records the Nsight Compute profiles kept beside this GPU's baseline, baselines/<gpu>.ncu.json: per
# benchmark, the kernels of one timed sample with the diagnosis's metric set (scripts/lib/ncu.sh). A perf
# test that finds a SLOW benchmark profiles it again and reports the metric diff against this file, as A/B
# mode does against build A. Run it on the machine and build that recorded the baseline, after
# scripts/update_baseline.sh, and commit both files together.
#
#   record_ncu.sh --build-dir DIR [--filter REGEX] [--baselines DIR] [--ncu PATH] [--lock-wait SECONDS]
#
# DIR: this repository's build folder, or that of a project using the harness (its gpuperf-programs.txt
# names its programs and baseline folder, the default of --baselines).
#
# One checking process captures every selected benchmark's fingerprint (which kernels each launches), then
# ONE ncu process profiles them all: the bench runs each benchmark's profiler window in turn (gpuperf_bench
# --profiler-window) and perf_gate ncu-store attributes ncu's rows to benchmarks in that order by their
# fingerprints' launch counts, each benchmark's rows checked against its fingerprint (kernel, grid, block).
# With --filter only those benchmarks are re-recorded; the file's other profiles are kept. The file is
# replaced whole or not at all: benchmarks that could not be profiled or attributed are listed and left
# out, and where the order of ncu's rows is lost, nothing is written.
# Exit: 0 written, 2 failure (nothing written), 77 no GPU.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"
source "$(dirname "${BASH_SOURCE[0]}")/lib/ncu.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/phases.sh"
started=$(phase_now)

build_dir="" filter="." ncu=${NCU:-ncu} lock_wait=1800
baselines=""
while (($#)); do
  case "$1" in
    --build-dir) need_value "$@"; build_dir=$2; shift 2 ;;
    --filter) need_value "$@"; filter=$2; shift 2 ;;
    --baselines) need_value "$@"; baselines=$2; shift 2 ;;
    --ncu) need_value "$@"; ncu=$2; shift 2 ;;
    --lock-wait) need_value "$@"; lock_wait=$2; shift 2 ;;
    *) die "$EXIT_INVALID" "unknown argument '$1' (see the header of $0)" ;;
  esac
done
[[ -n $build_dir ]] || die "$EXIT_INVALID" "--build-dir is required (the CMake build folder of the perf tests: this repository's, or a project's that uses the harness)"
harness_in "$build_dir"
# Default: the baseline folder the build names (a project's own), else this repository's baselines/.
[[ -n $baselines ]] || baselines=${build_baselines:-"$(cd "$(dirname "$0")/.." && pwd)/baselines"}
[[ -d $baselines ]] || die "$EXIT_INVALID" "no baseline folder $baselines: pass --baselines DIR"
need_tool jq
command -v "$ncu" >/dev/null 2>&1 || die "$EXIT_INVALID" "ncu not found: install Nsight Compute, put ncu on PATH or pass --ncu"

gpu=$(gpu_info "$bench")
slug=$(jq -r .slug <<<"$gpu")
target="$baselines/$slug.ncu.json"
lock_gpu "$(jq -r .uuid <<<"$gpu")" "$lock_wait"
# Two GPUs of one model share the file: its profiles are read here and the file replaced at the end, so
# it stays locked in between (perf_gate ncu-store takes the same lock).
lock_file "$target" "$lock_wait"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[[ -f $target ]] && cp "$target" "$work/profiles.json"
note "capturing fingerprints (checking every selected case) on $(jq -r .name <<<"$gpu")"
"$bench" --fingerprint-only --benchmark_filter="$filter" --benchmark_out="$work/fingerprints.json" \
  >"$work/fingerprints.log" 2>&1 ||
  { tail -n 20 "$work/fingerprints.log" >&2; die "$EXIT_INVALID" "the checking process failed; $target left unchanged"; }
mapfile -t names < <(jq -r '.fingerprints // {} | keys[]' "$work/fingerprints.json")
((${#names[@]} > 0)) || die "$EXIT_INVALID" "no fingerprint captured for '$filter' (see $work/fingerprints.log); $target left unchanged"
mapfile -t profiled < <(profiled_benchmarks "$work/fingerprints.json")
((${#profiled[@]} > 0)) ||
  die "$EXIT_INVALID" "no benchmark's fingerprint has kernels CUPTI captured (see $work/fingerprints.log); $target left unchanged"

checked=$(phase_now)
note "profiling ${#profiled[@]} benchmarks in one ncu process"
pass="$work/profiles.json"
if ! ncu_profile "$ncu" "$gate" "$bench" "$work/fingerprints.json" "$pass" "$slug" "${profiled[@]}"; then
  tail -n 5 "$pass.log" >&2 || true
  die "$EXIT_INVALID" "no profile stored from the ncu pass over ${#profiled[@]} benchmarks: $(ncu_failure "$pass"); $target left unchanged"
fi
failed=()
for name in "${names[@]}"; do
  if ! printf '%s\n' "${profiled[@]}" | grep -qxF -- "$name"; then
    failed+=("$name: no fingerprint of its kernels (CUPTI captured none)")
  elif ! grep -qxF -- "$name" "$pass.order" || grep -qF -- "left out: $name: " "$pass.store.log"; then
    failed+=("$name: $(ncu_left_out "$pass" "$name")")
  fi
done
replace_file "$pass" "$target" || die "$EXIT_INVALID" "cannot write $target; it was left unchanged"
((${#failed[@]} == 0)) || note "not profiled, left out (${#failed[@]}): $(printf '%s; ' "${failed[@]}")"
note "wrote $target: $((${#names[@]} - ${#failed[@]})) of ${#names[@]} benchmarks profiled; commit it with the baseline"
# Where the time went (GPUPERF_PHASES_DIR, as the GPU tests write theirs: perf_gate phases).
if [[ -n ${GPUPERF_PHASES_DIR:-} ]]; then
  now=$(phase_now)
  write_phase_file "$GPUPERF_PHASES_DIR" profiles "" "$started" "$now" "$(phase_span checking "$started" "$checked")" \
    "$(phase_span ncu "$checked" "$now")" || note "could not write profiles.json in $GPUPERF_PHASES_DIR"
fi
note "recorded in ${SECONDS} s"
