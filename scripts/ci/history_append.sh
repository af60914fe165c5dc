#!/usr/bin/env bash
# Keeps a default-branch perf run in the history store, with the runs earlier history jobs left out, then
# says in the job summary what drifted. The store is the release asset perf-history.sqlite of the release
# perf-history (docs/history.md), downloaded with gh; one `perf_gate history-append` per GPU job's
# results; uploaded back BEFORE the analysis, so that a slow or failing analysis never loses a run. The
# caller runs one of these at a time (history-call.yml: its concurrency group).
#
#   history_append.sh GATE RESULTS_DIR BASELINES RUN_KEY_PREFIX COMMIT
# RESULTS_DIR holds one folder per GPU job, perf-results-<runner label>/perf-results/ (the artifacts of
# perf-call.yml's baseline jobs): <name>.verdict.json, <name>.run*.json, <name>.fingerprints.json of each
# perf test. Each GPU a job ran on is kept as a run, under the run key RUN_KEY_PREFIX/<GPU UUID of its
# results' context> (the prefix is
# GH_REPO/<workflow run id>: the same for a re-run, which then adds nothing), with COMMIT, the date the
# workflow run was created (the push's order; now, where the API does not say) and the runner label. A GPU job that left no verdict (it failed before judging) is said and left out.
#
# What survives what:
# - A failed upload (network, cancelled job, lost runner): gh's --clobber deletes an asset before it
#   uploads the new one, so the store is never uploaded over itself alone. The store downloaded is first
#   uploaded again as perf-history.previous.sqlite, then the new one as perf-history.sqlite: at every
#   moment one of the two is a complete store, and the download takes perf-history.sqlite, else (missing
#   or unreadable) perf-history.previous.sqlite, which is then never deleted by this job.
# - A store smaller than the one downloaded (fewer runs: `perf_gate history-runs`) is never uploaded (2).
# - Only "no release perf-history at all" starts a new store (the release is created). A release without
#   a readable store is refused (2) with how to restore one, unless HISTORY_START_NEW=true says that a
#   new history is wanted (history-call.yml's input start-new-history).
# - A cancelled history job (GitHub keeps one pending job per concurrency group: a third push cancels the
#   second's), a failed one, or a failed upload: the next job looks at the last HISTORY_MISSED_RUNS
#   (default 20) completed runs of the calling workflow (the workflow of run RUN_KEY_PREFIX's id) pushed
#   to HISTORY_DEFAULT_BRANCH in GH_REPO, and appends each one the store lacks from its perf-results-*
#   artifacts, with its commit and start date. A run whose artifacts expired or cannot be read is a gap,
#   said in the job summary (a warning); it is tried again while it is among the last runs. Needs the
#   token's actions: read.
# - The analysis, after the upload: per GPU model, `perf_gate history-changes` (drift against
#   BASELINES/<gpu slug>.json where there is one, change points) goes to $GITHUB_STEP_SUMMARY, a warning
#   there, never a failure. Its --json output is kept as the release asset
#   perf-history-changes-<slug>.json.gz (and .previous.json.gz, as the store) and given to the next
#   analysis of the model as --previous (what is new since); a perf_gate that refuses --previous, or that
#   fails with it, is run again without it. An analysis that fails exits 2 after every model was tried:
#   the runs are kept all the same.
# - The runners' histories: per GPU model with a baseline, `perf_gate history-offsets` writes each runner's
#   runs of the baseline's code, kept as the release asset runner-history-<slug>.json, which perf-call.yml
#   gives its GPU jobs (--runner-history). Written whole each time; a failure is a warning (the GPU jobs
#   then judge against the baseline alone).
# Any failed download or listing of the store stops before anything is appended (2).
# Needs gh (GH_TOKEN, GH_REPO), jq and gzip. Exit: 0, 2 invalid input or a failed step.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
readonly RELEASE=perf-history ASSET=perf-history.sqlite PREVIOUS=perf-history.previous.sqlite
readonly SLUG_RULE='^[a-z0-9]([a-z0-9_.-]{0,94}[a-z0-9])?$' UUID_RULE='^[A-Za-z0-9][A-Za-z0-9_.:-]{0,79}$'
readonly LABEL_RULE='^[a-z0-9][a-z0-9-]{0,31}$' REPO_RULE='^[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}$'
readonly RUN_ID_RULE='^[0-9]{1,20}$' SHA_RULE='^[0-9a-f]{40}$' DATE_RULE='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$'
readonly BRANCH_RULE='^[A-Za-z0-9._/-]{1,200}$'
(($# == 5)) || die "$EXIT_INVALID" "usage: $0 GATE RESULTS_DIR BASELINES RUN_KEY_PREFIX COMMIT"
gate=$1 results=$2 baselines=$3 key_prefix=$4 commit=$5
[[ -x $gate ]] || die "$EXIT_INVALID" "no perf_gate at $gate: build it first"
[[ -d $results ]] || die "$EXIT_INVALID" "no results folder $results (the perf-results-<gpu> artifacts)"
[[ $commit =~ $SHA_RULE ]] || die "$EXIT_INVALID" "COMMIT '$commit' is not a full 40-hex SHA"
[[ -n ${GITHUB_STEP_SUMMARY:-} ]] || die "$EXIT_INVALID" "GITHUB_STEP_SUMMARY is not set (not in GitHub Actions?)"
[[ ${GH_REPO:-} =~ $REPO_RULE ]] || die "$EXIT_INVALID" "GH_REPO '${GH_REPO:-}' is not owner/name"
[[ $key_prefix =~ ^${GH_REPO//./\\.}/([0-9]{1,20})$ ]] ||
  die "$EXIT_INVALID" "RUN_KEY_PREFIX '$key_prefix' is not $GH_REPO/<workflow run id>"
run_id=${BASH_REMATCH[1]}
missed_limit=${HISTORY_MISSED_RUNS:-20}
if ! [[ $missed_limit =~ ^[0-9]{1,3}$ ]] || ((10#$missed_limit > 100)); then
  die "$EXIT_INVALID" "HISTORY_MISSED_RUNS '$missed_limit' is not a number of runs from 0 to 100"
fi
missed_limit=$((10#$missed_limit))
branch=${HISTORY_DEFAULT_BRANCH:-}
((missed_limit == 0)) || [[ $branch =~ $BRANCH_RULE ]] ||
  die "$EXIT_INVALID" "HISTORY_DEFAULT_BRANCH '$branch' is not a branch name (or set HISTORY_MISSED_RUNS=0)"
need_tool gh
need_tool jq
need_tool gzip
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/assets" "$work/upload"
store="$work/$ASSET"

# fetch <asset> <its previous copy> <check>: downloads the asset, else its previous copy, into
# $work/assets, the first that <check FILE> accepts. Sets `fetched` to its name ("" where neither is
# there and readable). Returns 1 when the release does not exist, 2 when gh failed otherwise (gh.log).
fetched=""
fetch() {
  local name check=$3
  fetched=""
  for name in "$1" "$2"; do
    if gh release download "$RELEASE" --pattern "$name" --dir "$work/assets" 2>"$work/gh.log"; then
      if "$check" "$work/assets/$name"; then fetched=$name && return 0; fi
      echo "::warning title=History asset unreadable::the asset $name of the release $RELEASE cannot be read: it is not used"
    elif grep -q "release not found" "$work/gh.log"; then
      return 1
    elif ! grep -q "no assets match" "$work/gh.log"; then
      return 2
    fi
  done
}
# keep <asset> <its previous copy> <file> <the asset fetched>: uploads <file> as <asset> so that a complete
# copy is among the release's assets at every moment (gh's --clobber deletes before it uploads): the copy
# fetched from <asset> goes up again as the previous copy first. Where the previous copy was the one fetched
# (the asset was missing or unreadable), it is left as it is.
keep() {
  local name=$1 previous=$2 file=$3 from=$4
  if [[ $from == "$name" ]]; then
    cp "$work/assets/$name" "$work/upload/$previous"
    gh release upload "$RELEASE" "$work/upload/$previous" --clobber || return 1
  fi
  cp "$file" "$work/upload/$name"
  gh release upload "$RELEASE" "$work/upload/$name" --clobber
}
runs_of() { "$gate" history-runs --store "sqlite:$1" "${@:2}"; }
readable_store() { runs_of "$1" >/dev/null 2>&1; }
readable_json() { gzip -dc "$1" | jq -e . >/dev/null 2>&1; }

# The store as it is now: the asset, else its previous copy; a new one only where there is no release.
release_exists=1 before=0
fetch "$ASSET" "$PREVIOUS" readable_store || case $? in
  1) release_exists=0 ;;
  *) cat "$work/gh.log" >&2
     die "$EXIT_INVALID" "downloading the history store failed; nothing appended (a new store would replace the history)" ;;
esac
store_from=$fetched
if [[ -n $store_from ]]; then
  cp "$work/assets/$store_from" "$store"
  before=$(runs_of "$store")
  note "downloaded the history store $store_from ($(stat -c %s "$store") bytes, $before runs)"
  [[ $store_from == "$ASSET" ]] || echo "::warning title=History store restored::the release $RELEASE has no readable $ASSET (an upload that did not finish): this run continues from $PREVIOUS ($before runs); the runs left out meanwhile are appended from their artifacts"
elif ((release_exists == 0)); then
  echo "::notice title=New history store::the release $RELEASE does not exist yet: it is created, and this run starts the history"
elif [[ ${HISTORY_START_NEW:-} == true ]]; then
  echo "::notice title=New history store::the release $RELEASE holds no readable store: a new one is started, as HISTORY_START_NEW (start-new-history) asks"
else
  die "$EXIT_INVALID" "the release $RELEASE holds no readable history store ($ASSET, $PREVIOUS): nothing appended, since a new store would replace the history. Restore it: upload the last good store as $ASSET (gh release upload $RELEASE $ASSET; a dashboard run of the last day keeps one as its artifact perf-history-store), or, to start a new history on purpose, run once with history-call.yml's input start-new-history: true (HISTORY_START_NEW=true)"
fi

shopt -s nullglob
kept=0 slugs=() late=() gaps=()
# append_jobs <folder> <key prefix> <commit> <date>: appends the runs of each GPU job in <folder>
# (perf-results-<label>/perf-results/), one a GPU it ran on; 1 (the reason on stderr) when one cannot be
# appended.
append_jobs() {
  local folder=$1 prefix=$2 sha=$3 date=$4 job label
  for job in "$folder"/perf-results-*/; do
    label=$(basename "$job") && label=${label#perf-results-}
    [[ $label =~ $LABEL_RULE ]] || { echo "'$label' is not a runner label (folder $job)" >&2; return 1; }
    append_job "$job" "$label" "$prefix" "$sha" "$date" || return 1
  done
}

# append_job <job folder> <label> <key prefix> <commit> <date>: each perf test's reports are <name>.verdict.json
# beside its processes' <name>.run*.json and <name>.fingerprints.json, all from the one GPU it ran on; a job
# on a host of several GPUs spreads its perf tests over them (the families' shards, docs/package.md). So
# the tests are grouped by the GPU UUID of their results' context, and each GPU's group is one run, keyed
# <key prefix>/<UUID>: a runner's history holds only what its own GPU measured.
append_job() {
  local job=$1 label=$2 prefix=$3 sha=$4 date=$5 verdict name context uuid slug file kept_here=0
  local -A verdicts_of=() runs_of=()
  local -a uuids=() runs=() verdict_files=() result_files=()
  for verdict in "$job"perf-results/*.verdict.json; do
    name=${verdict%.verdict.json}
    runs=("$name".run[0-9]*.json)
    ((${#runs[@]})) || continue  # every benchmark UNCHANGED, or nothing measured: no sample to keep
    context=$(jq -c '.context // {}' "${runs[0]}") || { echo "${runs[0]} is not JSON" >&2; return 1; }
    uuid=$(jq -r '.gpu_uuid // ""' <<<"$context") slug=$(jq -r '.gpu_slug // ""' <<<"$context")
    [[ $uuid =~ $UUID_RULE ]] || { echo "${runs[0]} names no GPU UUID in its context (gpu_uuid)" >&2; return 1; }
    [[ $slug =~ $SLUG_RULE ]] || { echo "${runs[0]} names no GPU slug in its context (gpu_slug)" >&2; return 1; }
    [[ -v "verdicts_of[$uuid]" ]] || uuids+=("$uuid")
    verdicts_of[$uuid]+="$verdict"$'\n'
    runs_of[$uuid]+=$(printf '%s\n' "${runs[@]}")$'\n'
    # The fingerprints file holds no sample: given only where it holds fingerprints (the code hash), since
    # a GPU whose kernels were not captured leaves one with neither.
    file=$name.fingerprints.json
    if [[ -f $file ]] && jq -e '(.fingerprints // {}) | length > 0' "$file" >/dev/null 2>&1; then
      runs_of[$uuid]+="$file"$'\n'
    fi
    [[ " ${slugs[*]} " == *" $slug "* ]] || slugs+=("$slug")
  done
  if ((${#uuids[@]} == 0)); then
    echo "::notice title=Not kept in the history::the GPU job on $label of $prefix left no verdict or results: nothing of it is kept"
    return 0
  fi
  for uuid in "${uuids[@]}"; do
    mapfile -t verdict_files < <(printf '%s' "${verdicts_of[$uuid]}")
    mapfile -t result_files < <(printf '%s' "${runs_of[$uuid]}")
    "$gate" history-append --store "$store" --verdict "${verdict_files[@]}" --results "${result_files[@]}" \
      --commit "$sha" --date "$date" --run-key "$prefix/$uuid" --runner "$label" ||
      { echo "perf_gate history-append failed for the GPU job on $label of $prefix ($uuid)" >&2; return 1; }
    kept_here=$((kept_here + 1))
  done
  kept=$((kept + kept_here))
}

# The runs of the last completed runs of the calling workflow that the store lacks (a cancelled or failed
# history job), oldest first: "<run id> <commit> <date>" lines. Only a push to the default branch of this
# repository counts (a trusted run, as perf-call.yml's scope says); every field is checked before use.
missed_runs() {
  local id event head repo sha date
  [[ $workflow =~ $RUN_ID_RULE ]] || { echo "the workflow of run $run_id is unknown: $(head -c 300 "$work/run.log")" >&2; return 1; }
  gh api "repos/$GH_REPO/actions/workflows/$workflow/runs?branch=$branch&event=push&status=completed&per_page=$missed_limit" \
    --jq '.workflow_runs[] | [.id, .event, .head_branch, .head_repository.full_name, .head_sha, .created_at] | @tsv' \
    >"$work/runs.tsv" 2>"$work/gh.log" || { echo "listing the runs failed: $(head -c 300 "$work/gh.log")" >&2; return 1; }
  tac "$work/runs.tsv" | while IFS=$'\t' read -r id event head repo sha date; do
    [[ $event == push && $head == "$branch" && $repo == "$GH_REPO" && $id != "$run_id" ]] || continue
    [[ $id =~ $RUN_ID_RULE && $sha =~ $SHA_RULE && $date =~ $DATE_RULE ]] ||
      { echo "::warning title=Run not read::a listed run has an id, commit or date of an unexpected form: left out" >&2; continue; }
    if [[ -f $store ]] && (($(runs_of "$store" --key-prefix "$GH_REPO/$id/") > 0)); then continue; fi
    echo "$id $sha $date"
  done
}

# fetch_run <run id>: downloads the run's perf-results-* artifacts into $work/missed/<run id>; 1 (the reason
# on stdout) when they cannot be had, 3 when the run left none (nothing to keep, nothing lost).
fetch_run() {
  local id=$1 name expired live=0 dead=0
  gh api "repos/$GH_REPO/actions/runs/$id/artifacts?per_page=100" --jq '.artifacts[] | [.name, .expired] | @tsv' \
    >"$work/artifacts.tsv" 2>"$work/gh.log" || { echo "its artifacts cannot be listed: $(head -c 300 "$work/gh.log")"; return 1; }
  while IFS=$'\t' read -r name expired; do
    [[ $name == perf-results-* ]] || continue
    [[ ${name#perf-results-} =~ $LABEL_RULE ]] || { echo "its artifact names no runner label"; return 1; }
    if [[ $expired == false ]]; then
      gh run download "$id" --name "$name" --dir "$work/missed/$id/$name" 2>"$work/gh.log" ||
        { echo "downloading $name failed: $(head -c 300 "$work/gh.log")"; return 1; }
      live=$((live + 1))
    else
      dead=$((dead + 1))
    fi
  done <"$work/artifacts.tsv"
  ((dead == 0)) || { echo "its perf-results artifacts expired"; return 1; }
  ((live > 0)) || return 3
}

# This run's workflow and start date (its created_at: the push's order, kept on a re-run). Every run is
# stored with its own, so that one appended late sorts among the others by when it was pushed.
workflow="" run_date=""
if gh api "repos/$GH_REPO/actions/runs/$run_id" --jq '[.workflow_id, .created_at] | @tsv' >"$work/run.tsv" 2>"$work/run.log"; then
  IFS=$'\t' read -r workflow run_date <"$work/run.tsv" || true
fi
if ! [[ $run_date =~ $DATE_RULE ]]; then
  run_date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  note "the start of run $run_id is unknown ($(head -c 300 "$work/run.log")): it is stored with the date now"
fi

if ((missed_limit > 0)); then
  if missed=$(missed_runs 2>"$work/missed.log"); then
    grep '^::' "$work/missed.log" || true
    while read -r id sha date; do
      [[ -n $id ]] || continue
      rc=0 why=$(fetch_run "$id") || rc=$?
      if ((rc == 3)); then
        note "run $id left no perf-results artifact: nothing to keep"
      elif ((rc != 0)); then
        gaps+=("run $id (commit ${sha:0:12}, $date): $why")
      elif append_jobs "$work/missed/$id" "$GH_REPO/$id" "$sha" "$date" 2>"$work/append.log"; then
        late+=("run $id (commit ${sha:0:12}, $date)")
      else
        gaps+=("run $id (commit ${sha:0:12}, $date): $(tail -n 1 "$work/append.log")")
      fi
      rm -rf "$work/missed/$id"
    done <<<"$missed"
  else
    gaps+=("the last $missed_limit runs of this workflow could not be looked at ($(tail -n 1 "$work/missed.log")): a run whose history job was cancelled may be missing")
  fi
fi
append_jobs "$results" "$key_prefix" "$commit" "$run_date" || die "$EXIT_INVALID" "nothing uploaded (see above)"

if ((${#late[@]} > 0)); then
  { echo "### History: runs kept late"; echo
    echo "Their own history job was cancelled or failed; their perf-results artifacts were appended now."
    printf -- '- %s\n' "${late[@]}"; echo; } >>"$GITHUB_STEP_SUMMARY"
fi
if ((${#gaps[@]} > 0)); then
  echo "::warning title=Runs missing from the history::${#gaps[@]} recent run(s) of the default branch are not in the history store (job summary)"
  { echo "### History: gaps"; echo
    echo "Runs of the default branch that no history job kept and that could not be appended now:"
    printf -- '- %s\n' "${gaps[@]}" | LC_ALL=C tr -d '\000-\010\013-\037\177'; echo; } >>"$GITHUB_STEP_SUMMARY"
fi
((kept > 0)) || { echo "::notice title=Not kept in the history::no GPU job left results: the store is unchanged"; exit 0; }

# Never a smaller store over the history: the store to upload holds at least the runs downloaded.
after=$(runs_of "$store") || die "$EXIT_INVALID" "the appended store cannot be read: nothing uploaded"
((after >= before)) || die "$EXIT_INVALID" "the store to upload holds $after runs, fewer than the $before downloaded: nothing uploaded (the history is never replaced by a smaller store)"
if ((release_exists == 0)); then
  gh release create "$RELEASE" --title "Perf history" --latest=false \
    --notes "The perf history of the default branch (gpu-perf-harness, docs/history.md): $ASSET, appended by each perf run there." ||
    die "$EXIT_INVALID" "creating the release $RELEASE failed: nothing uploaded"
fi
keep "$ASSET" "$PREVIOUS" "$store" "$store_from" ||
  die "$EXIT_INVALID" "uploading the history store failed: the release keeps a complete store ($ASSET or $PREVIOUS); the next run continues from it and appends this run from its artifacts"
note "kept $kept run(s), one a GPU of each GPU job ($before -> $after runs) in the release $RELEASE"

# What moved, per GPU model, now that the runs are kept: a warning in the job summary, never a failure.
# And each runner's history of the baseline's code, which the GPU jobs judge against (runner offsets).
failed=()
for slug in "${slugs[@]}"; do
  baseline=() previous=()
  [[ -f $baselines/$slug.json ]] && baseline=(--baseline "$baselines/$slug.json")
  if ((${#baseline[@]} > 0)); then
    offsets="runner-history-$slug.json"
    if "$gate" history-offsets --store "$store" "${baseline[@]}" --out "$work/upload/$offsets" \
      >"$work/offsets-$slug.log" 2>&1; then
      gh release upload "$RELEASE" "$work/upload/$offsets" --clobber ||
        echo "::warning title=Runner history::uploading $offsets failed: the GPU jobs judge $slug against its baseline alone until the next history job"
    else
      echo "::warning title=Runner history::$slug: $(head -c 500 "$work/offsets-$slug.log" | tr '\n' ' ')"
    fi
  fi
  changes="perf-history-changes-$slug.json.gz" changes_previous="perf-history-changes-$slug.previous.json.gz"
  rc=0 && fetch "$changes" "$changes_previous" readable_json || rc=$?
  ((rc == 0)) || { echo "::warning title=History::the last analysis of $slug could not be downloaded: all of its changes are shown"; fetched=""; }
  changes_from=$fetched
  if [[ -n $changes_from ]]; then
    gzip -dc "$work/assets/$changes_from" >"$work/previous-$slug.json" && previous=(--previous "$work/previous-$slug.json")
  fi
  analysis=("$gate" history-changes --store "$store" --gpu "$slug" "${baseline[@]}" --json "$work/changes-$slug.json"
    --markdown "$work/history-$slug.md")
  analysed=0
  "${analysis[@]}" "${previous[@]}" >"$work/changes-$slug.log" 2>&1 && analysed=1
  if ((analysed == 0 && ${#previous[@]} > 0)); then
    # A perf_gate from before --previous refuses it; a previous analysis it cannot read is left out too.
    note "history-changes --previous failed for $slug ($(head -n 1 "$work/changes-$slug.log")): run again without it"
    "${analysis[@]}" >"$work/changes-$slug.log" 2>&1 && analysed=1
  fi
  if ((analysed == 0)); then
    failed+=("$slug")
    echo "::warning title=History analysis failed::$slug: $(head -c 500 "$work/changes-$slug.log" | tr '\n' ' ')"
    continue
  fi
  # The gate escapes what it read; a control character that still reaches the report is dropped here.
  { LC_ALL=C tr -d '\000-\010\013-\037\177' <"$work/history-$slug.md"; echo; } >>"$GITHUB_STEP_SUMMARY"
  gzip -9 <"$work/changes-$slug.json" >"$work/changes-$slug.json.gz"
  keep "$changes" "$changes_previous" "$work/changes-$slug.json.gz" "$changes_from" ||
    echo "::warning title=History::uploading the analysis of $slug failed: the next one shows the changes since an earlier one"
done
((${#failed[@]} == 0)) || die "$EXIT_INVALID" "perf_gate history-changes failed for ${failed[*]}; the runs are kept in the store all the same"
