#!/usr/bin/env bash
# The first job of the reusable workflows (perf-call.yml, update-baseline-call.yml, bisect-call.yml), on a
# hosted runner:
# validates every input of the call before a GPU runner is asked for (a calling workflow, or an API
# dispatch behind it, can send any string), and derives what the GPU jobs need.
#
#   call_target.sh perf|record|bisect  (reads the inputs below from the environment, writes the job's
#                                       outputs to $GITHUB_OUTPUT)
# All: CALLER (github.repository), HARNESS_REPOSITORY, HARNESS_REF (the full SHA the caller pins in
#   uses:), RUNNER_LABELS (JSON list), SOURCE_DIR, BASELINES, GPU_MODELS and PRESET (both may be empty).
# perf: EVENT (github.event_name), HEAD_REPOSITORY (a pull request's head repository, else empty),
#   GITHUB_SHA, SHA (a dispatched commit, may be empty), GPU_LABELS, AB_GPU_LABELS (JSON lists of runner
#   labels; the second may be empty: no A/B).
# record: GPU_LABEL, RUNS. bisect: GPU_LABEL.
# Outputs: harness: "in-tree" when the caller is the harness itself (built in its own tree), else
# "package" (a project that uses it: the harness is built and installed first). perf: sha (the commit
# to measure), scope ("trusted" only for a push measuring its own commit: caches and the ledger,
# docs/runner_setup.md), gpu-matrix and ab-matrix (strategy.matrix JSON, {"include": [{"gpu": LABEL,
# "runs-on": [RUNNER_LABELS..., LABEL]}...]}; ab-matrix is "" without A/B labels). record and bisect:
# runs-on (the JSON list [RUNNER_LABELS..., GPU_LABEL]).
# Exit: 0, 2 an invalid input (an ::error:: naming it).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
[[ $# == 1 && ($1 == perf || $1 == record || $1 == bisect) ]] || die "$EXIT_INVALID" "usage: $0 perf|record|bisect"
mode=$1
here="$(dirname "${BASH_SOURCE[0]}")"
need_tool jq
check() { bash "$here/check_input.sh" "$@"; }
invalid() { echo "::error title=invalid input::$1"; die "$EXIT_INVALID" "$1"; }

# check_labels <input name> <JSON list> [empty-ok]: a JSON list of distinct runner labels.
check_labels() {
  local name=$1 json=$2 label labels
  jq -e 'type == "array" and all(.[]; type == "string")' <<<"$json" >/dev/null 2>&1 ||
    invalid "$name must be a JSON list of runner labels, like [\"h100\", \"h200\"] (got: $json)"
  mapfile -t labels < <(jq -r '.[]' <<<"$json")
  ((${#labels[@]} == $(jq length <<<"$json"))) || invalid "$name: a label holds a line break"
  ((${#labels[@]})) || [[ -n ${3:-} ]] || invalid "$name lists no runner label"
  for label in "${labels[@]}"; do check label "$name" "$label"; done
  [[ $(jq 'unique | length' <<<"$json") == "${#labels[@]}" ]] || invalid "$name lists a label twice"
}
# labels_matrix <JSON list of GPU labels>: the strategy.matrix of one GPU job per label ("" for none).
labels_matrix() {
  jq -c --argjson runner "$RUNNER_LABELS" 'if length == 0 then empty
    else {include: map({gpu: ., "runs-on": ($runner + [.])})} end' <<<"$1"
}

check sha harness-ref "${HARNESS_REF:-}"
check repository harness-repository "${HARNESS_REPOSITORY:-}"
check path source-dir "${SOURCE_DIR:-}"
check path baselines "${BASELINES:-}"
[[ -z ${GPU_MODELS:-} ]] || check path gpu-models "$GPU_MODELS"
[[ -z ${PRESET:-} ]] || check name preset "$PRESET"
check_labels runner-labels "${RUNNER_LABELS:-}"
harness=package
[[ ${CALLER,,} == "${HARNESS_REPOSITORY,,}" ]] && harness=in-tree
outputs=("harness=$harness")

if [[ $mode == perf ]]; then
  # The GPU jobs run the measured commit's code on self-hosted runners: never a fork's unreviewed code.
  case "$EVENT" in
    pull_request_target)
      invalid "perf runs the measured code on GPU runners: pull_request_target would run a fork's code with this repository's token. Trigger it with push and workflow_dispatch (docs/runner_setup.md)" ;;
    pull_request)
      [[ ${HEAD_REPOSITORY,,} == "${CALLER,,}" ]] ||
        invalid "a fork's pull request ($HEAD_REPOSITORY) never reaches a GPU runner: review it, then dispatch its head SHA (docs/runner_setup.md)" ;;
  esac
  sha=$GITHUB_SHA
  if [[ -n ${SHA:-} ]]; then
    check sha sha "$SHA"
    sha=$SHA
  fi
  # "trusted" only for a push measuring its own commit; anything else (a dispatched commit, any event
  # added later) is "untrusted", so a new trigger cannot widen what the GPU jobs share.
  scope=untrusted
  [[ $EVENT == push && $sha == "$GITHUB_SHA" ]] && scope=trusted
  check_labels gpu-labels "${GPU_LABELS:-}"
  AB_GPU_LABELS=${AB_GPU_LABELS:-[]}  # empty: no A/B
  check_labels ab-gpu-labels "$AB_GPU_LABELS" empty-ok
  gpu_matrix=$(labels_matrix "$GPU_LABELS")
  ab_matrix=$(labels_matrix "$AB_GPU_LABELS")
  echo "measuring $sha ($scope) on $(jq -r '[.include[].gpu] | join(", ")' <<<"$gpu_matrix")${ab_matrix:+; A/B on $(jq -r '[.include[].gpu] | join(", ")' <<<"$ab_matrix")}; harness: $harness"
  outputs+=("sha=$sha" "scope=$scope" "gpu-matrix=$gpu_matrix" "ab-matrix=$ab_matrix")
else  # one GPU job, on the runners of one label
  check label gpu "${GPU_LABEL:-}"
  runs_on=$(jq -c --arg gpu "$GPU_LABEL" '. + [$gpu]' <<<"$RUNNER_LABELS")
  if [[ $mode == record ]]; then
    check count runs "${RUNS:-}"
    echo "recording on $runs_on from $RUNS processes; harness: $harness"
  else
    echo "bisecting on $runs_on; harness: $harness"
  fi
  outputs+=("runs-on=$runs_on")
fi
if [[ -n ${GITHUB_OUTPUT:-} ]]; then printf '%s\n' "${outputs[@]}" >>"$GITHUB_OUTPUT"; fi
