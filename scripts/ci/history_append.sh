#!/usr/bin/env bash
# Keeps a default-branch perf run in the history store and says in the job summary what drifted. The
# store is the release asset perf-history.sqlite of the release perf-history (README.md, "History"):
# downloaded with gh, one `perf_gate history-append` per GPU job's results, uploaded back (--clobber).
# The caller runs one of these at a time (perf-call.yml's history job: its concurrency group), since an
# upload replaces the whole file.
#
#   history_append.sh GATE RESULTS_DIR BASELINES RUN_KEY_PREFIX COMMIT
# RESULTS_DIR holds one folder per GPU job, perf-results-<runner label>/perf-results/ (the artifacts of
# perf-call.yml's baseline jobs): <family>.verdict.json, <family>.run*.json, <family>.fingerprints.json.
# Each is kept under the run key RUN_KEY_PREFIX/<GPU UUID of its results' context> (the prefix is
# <repository>/<workflow run id>: the same for a re-run, which then adds nothing), with COMMIT, the date
# now (UTC) and the runner label. Then, per GPU model, `perf_gate history-changes` (the model's drift
# against BASELINES/<gpu slug>.json, where there is one, and its change points) goes to
# $GITHUB_STEP_SUMMARY: a warning there, never a failure.
# No release perf-history yet: it is created and a new store started (a notice says so); a release
# without the asset starts a new store too. Any other failed download stops here (exit 2): a new store
# uploaded then would replace the history.
# A GPU job that left no verdict (it failed before judging) is said and left out.
# Needs gh (GH_TOKEN, GH_REPO) and jq. Exit: 0, 2 invalid input or a failed step.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
readonly RELEASE=perf-history ASSET=perf-history.sqlite
readonly SLUG_RULE='^[a-z0-9]([a-z0-9_.-]{0,94}[a-z0-9])?$' UUID_RULE='^[A-Za-z0-9][A-Za-z0-9_.:-]{0,79}$'
readonly LABEL_RULE='^[a-z0-9][a-z0-9-]{0,31}$'
(($# == 5)) || die "$EXIT_INVALID" "usage: $0 GATE RESULTS_DIR BASELINES RUN_KEY_PREFIX COMMIT"
gate=$1 results=$2 baselines=$3 key_prefix=$4 commit=$5
[[ -x $gate ]] || die "$EXIT_INVALID" "no perf_gate at $gate: build it first"
[[ -d $results ]] || die "$EXIT_INVALID" "no results folder $results (the perf-results-<gpu> artifacts)"
[[ $commit =~ ^[0-9a-f]{40}$ ]] || die "$EXIT_INVALID" "COMMIT '$commit' is not a full 40-hex SHA"
[[ -n ${GITHUB_STEP_SUMMARY:-} ]] || die "$EXIT_INVALID" "GITHUB_STEP_SUMMARY is not set (not in GitHub Actions?)"
need_tool gh
need_tool jq
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
store="$work/$ASSET"

# The store as it is now, or a new one where there is none yet.
release_exists=1
if gh release download "$RELEASE" --pattern "$ASSET" --dir "$work" 2>"$work/gh.log"; then
  note "downloaded the history store ($(stat -c %s "$store") bytes)"
elif grep -q "release not found" "$work/gh.log"; then
  release_exists=0
  echo "::notice title=New history store::the release $RELEASE does not exist yet: it is created, and this run starts the history"
elif grep -q "no assets match" "$work/gh.log"; then
  echo "::notice title=New history store::the release $RELEASE has no asset $ASSET: this run starts a new store"
else
  cat "$work/gh.log" >&2
  die "$EXIT_INVALID" "downloading the history store failed; nothing appended (a new store would replace the history)"
fi

shopt -s nullglob
kept=0 slugs=()
for job in "$results"/perf-results-*/; do
  label=$(basename "$job") && label=${label#perf-results-}
  [[ $label =~ $LABEL_RULE ]] || die "$EXIT_INVALID" "'$label' is not a runner label (folder $job)"
  verdicts=("$job"perf-results/*.verdict.json)
  runs=("$job"perf-results/*.run[0-9]*.json)
  if ((${#verdicts[@]} == 0 || ${#runs[@]} == 0)); then
    echo "::notice title=Not kept in the history::the GPU job on $label left no verdict or results: nothing of it is kept"
    continue
  fi
  context=$(jq -c '.context // {}' "${runs[0]}") || die "$EXIT_INVALID" "${runs[0]} is not JSON"
  uuid=$(jq -r '.gpu_uuid // ""' <<<"$context") slug=$(jq -r '.gpu_slug // ""' <<<"$context")
  [[ $uuid =~ $UUID_RULE ]] || die "$EXIT_INVALID" "${runs[0]} names no GPU UUID in its context (gpu_uuid)"
  [[ $slug =~ $SLUG_RULE ]] || die "$EXIT_INVALID" "${runs[0]} names no GPU slug in its context (gpu_slug)"
  # The fingerprints file holds no sample: given only where it holds fingerprints (the code hash), since
  # a GPU whose kernels were not captured leaves one with neither.
  for file in "$job"perf-results/*.fingerprints.json; do
    jq -e '(.fingerprints // {}) | length > 0' "$file" >/dev/null 2>&1 && runs+=("$file")
  done
  "$gate" history-append --store "$store" --verdict "${verdicts[@]}" --results "${runs[@]}" \
    --commit "$commit" --date "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --run-key "$key_prefix/$uuid" --runner "$label" ||
    die "$EXIT_INVALID" "perf_gate history-append failed for the GPU job on $label"
  kept=$((kept + 1))
  [[ " ${slugs[*]} " == *" $slug "* ]] || slugs+=("$slug")
done
((kept > 0)) || { echo "::notice title=Not kept in the history::no GPU job left results: the store is unchanged"; exit 0; }

# What moved, per GPU model: a warning in the job summary, never a failure.
for slug in "${slugs[@]}"; do
  baseline=()
  [[ -f $baselines/$slug.json ]] && baseline=(--baseline "$baselines/$slug.json")
  "$gate" history-changes --store "$store" --gpu "$slug" "${baseline[@]}" --json "$work/changes-$slug.json" \
    --markdown "$work/history-$slug.md" >"$work/changes-$slug.log" ||
    die "$EXIT_INVALID" "perf_gate history-changes failed for $slug: $(cat "$work/changes-$slug.log")"
  # The gate escapes what it read; a control character that still reaches the report is dropped here.
  { LC_ALL=C tr -d '\000-\010\013-\037\177' <"$work/history-$slug.md"; echo; } >>"$GITHUB_STEP_SUMMARY"
done

if ((release_exists == 0)); then
  gh release create "$RELEASE" --title "Perf history" --latest=false \
    --notes "The perf history of the default branch (README.md, \"History\"): $ASSET, appended by each perf run there."
fi
gh release upload "$RELEASE" "$store" --clobber
note "kept $kept GPU job(s) of $commit in the release $RELEASE"
