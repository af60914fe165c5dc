#!/usr/bin/env bash
# Before a GPU job builds anything: the runner's GPU is the model its label promises, and that model has a
# committed baseline. A runner with the wrong label or a GPU without a baseline would otherwise be
# reported as a skipped (green) or failed perf suite long after the build, with the cause buried.
# Also warns when a GPU's lock file is not the host's (a root-owned file, docs/runner_setup.md): then
# any job's code could replace it, and two runs could time that GPU at once.
#
#   preflight.sh LABEL BASELINES_DIR [--allow-missing-baseline] [--gpu-models FILE]
# --allow-missing-baseline: re-recording a new GPU. --gpu-models: the label -> GPU table of the project
# (the format of scripts/ci/gpu_models.tsv, its default).
# Writes gpu_slug=<the GPU's baseline name> to $GITHUB_OUTPUT where it is set.
# Exit: 0 ready, 2 (invalid) with an ::error:: naming what was expected and what was found.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
usage="usage: $0 LABEL BASELINES_DIR [--allow-missing-baseline] [--gpu-models FILE]"
(($# >= 2)) || die "$EXIT_INVALID" "$usage"
label=$1 baselines=$2 allow_missing="" models="" models_name=scripts/ci/gpu_models.tsv
shift 2
while (($#)); do
  case "$1" in
    --allow-missing-baseline) allow_missing=1; shift ;;
    --gpu-models) need_value "$@"; models=$2 models_name=$2; shift 2 ;;
    *) die "$EXIT_INVALID" "unknown argument '$1'; $usage" ;;
  esac
done
[[ -n $models ]] || models="$(dirname "${BASH_SOURCE[0]}")/gpu_models.tsv"

fail() { echo "::error title=preflight::$*"; die "$EXIT_INVALID" "$*"; }

[[ -f $models ]] || fail "no GPU model table $models_name (lines: runner label, a tab, the GPU name nvidia-smi reports)"
expected=$(awk -F'\t' -v l="$label" '$1 == l { print $2 }' "$models")
[[ -n $expected ]] || fail "runner label '$label' is not in $models_name (add a line: $label, a tab, the GPU name nvidia-smi reports)"
command -v nvidia-smi >/dev/null 2>&1 || fail "label '$label' expects '$expected', but nvidia-smi is not on this runner"
only=()  # a runner pinned to its GPU(s) checks those only (nvidia-smi ignores CUDA_VISIBLE_DEVICES)
[[ -n ${CUDA_VISIBLE_DEVICES:-} ]] && only=(-i "$CUDA_VISIBLE_DEVICES")
names=$(nvidia-smi "${only[@]}" --query-gpu=name --format=csv,noheader) || fail "nvidia-smi failed: label '$label' expects '$expected'"
[[ -n $names ]] || fail "label '$label' expects '$expected', but nvidia-smi lists no GPU"
while IFS= read -r name; do
  [[ $name == "$expected"* ]] || fail "runner label '$label' expects GPU '$expected', but this runner has '$name'"
done <<<"$names"

# The baseline file name, as the harness derives it (perf_tests/harness/gpu_info.cpp gpu_slug).
name=$(head -n 1 <<<"$names")
slug=$(tr '[:upper:]' '[:lower:]' <<<"$name" | sed -E 's/[^a-z0-9]+/-/g; s/^-+//; s/-+$//')
[[ -f $baselines/$slug.json || -n $allow_missing ]] ||
  fail "GPU '$name' (label '$label') has no baseline: expected $baselines/$slug.json (record one with the update-baseline workflow)"
echo "preflight: label '$label', GPU '$name', baseline $baselines/$slug.json"
[[ -n ${GITHUB_OUTPUT:-} ]] && echo "gpu_slug=$slug" >>"$GITHUB_OUTPUT"

# The lock path of scripts/lib/common.sh lock_gpu. In sticky /tmp a file owned by root can be
# neither removed nor replaced by the runner's user.
while IFS= read -r uuid; do
  lock="${TMPDIR:-/tmp}/gpuperf-$uuid.lock"
  if [[ -L $lock || ! -f $lock || $(stat -c %u "$lock") != 0 ]]; then
    echo "::warning title=GPU lock not the host's::$lock is not a file owned by root, so a job's code could replace it: create it as root (docs/runner_setup.md, GPU lock files)"
  fi
done < <(nvidia-smi "${only[@]}" --query-gpu=uuid --format=csv,noheader)
exit 0
