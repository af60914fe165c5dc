#!/usr/bin/env bash
# scripts/ci/history_append.sh against a stand-in GitHub (fake_ci/gh: a release's assets as files, gh's
# --clobber that deletes before it uploads, failures injected between the two, workflow runs and their
# artifacts) and the real perf_gate: what survives a failed upload, a release without its store and a
# cancelled history job, and that the run is uploaded before the analysis.
#   test_history_append.sh PERF_GATE
set -uo pipefail
(($# == 1)) || { echo "usage: $0 PERF_GATE" >&2; exit 2; }
gate=$(realpath "$1")
here="$(cd "$(dirname "$0")" && pwd)"
script="$here/../ci/history_append.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
export PATH="$here/fake_ci:$PATH" FAKE_LOG="$work/gh.log"

# One GPU job's results, as perf-call.yml's artifact perf-results-h200 holds them: three fake processes
# judged against a baseline of their own.
job_results() {  # job_results <folder>: <folder>/perf-results-h200/perf-results/
  local out="$1/perf-results-h200/perf-results" r
  mkdir -p "$out"
  for r in 1 2 3; do bash "$here/fake_bench.sh" --benchmark_out="$out/fake.run$r.json" >/dev/null; done
  "$gate" record --results "$out"/fake.run{1,2,3}.json --out "$work/baseline.json" >/dev/null
  "$gate" compare --baseline "$work/baseline.json" --results "$out"/fake.run{1,2,3}.json \
    --json "$out/fake.verdict.json" >/dev/null
}
job_results "$work/results"
mkdir -p "$work/baselines"
sha=1111111111111111111111111111111111111111
release="$work/release"

# The stand-in GitHub's workflow runs: each run of owner/repo is a run of workflow 7, whose completed runs
# on main are those listed_runs names (newest first), with the artifacts FAKE_GH_RUNS/<id>/ holds.
api="$work/api/repos/owner/repo/actions" runs="$work/runs"
mkdir -p "$api/runs" "$api/workflows/7" "$runs"
run_date() { date -u -d "@$((1767225600 + $1 * 60))" +%Y-%m-%dT%H:%M:%SZ; }  # a minute a run from 2026
run_record() {  # run_record <id> [event] [branch] [repository] [commit] [date]: one run, as the API lists it
  jq -n --argjson id "$1" --arg event "${2:-push}" --arg branch "${3:-main}" --arg repo "${4:-owner/repo}" \
    --arg sha "${5:-$sha}" --arg date "${6:-$(run_date "$1")}" \
    '{id: $id, workflow_id: 7, event: $event, head_branch: $branch, head_repository: {full_name: $repo},
      head_sha: $sha, created_at: $date}' | tee "$api/runs/$1.json"
}
listed_runs() {  # listed_runs <record>...: the workflow's completed runs, newest first
  jq -s '{workflow_runs: .}' <<<"$*" >"$api/workflows/7/runs.json"
}
run_artifacts() {  # run_artifacts <id> [expired]: the run left this job's results as perf-results-h200
  mkdir -p "$runs/$1" "$api/runs/$1" && cp -r "$work/results/perf-results-h200" "$runs/$1/"
  jq -n --argjson expired "${2:-false}" '{artifacts: [{name: "perf-results-h200", expired: $expired}]}' \
    >"$api/runs/$1/artifacts.json"
}
listed_runs

# append <run id> [VAR=VALUE ...]: history_append.sh for run <run id> of owner/repo on this job's results
# (the gate: $use_gate).
use_gate=$gate
append() {
  local id=$1
  shift
  : >"$work/summary"
  mkdir -p "$api/runs/$id"
  [[ -f $api/runs/$id.json ]] || run_record "$id" >/dev/null
  env GH_TOKEN=t GH_REPO=owner/repo FAKE_GH_RELEASE="$release" GITHUB_STEP_SUMMARY="$work/summary" \
    FAKE_GH_API="$work/api" FAKE_GH_RUNS="$runs" HISTORY_DEFAULT_BRANCH=main "$@" \
    bash "$script" "$use_gate" "$work/results" "$work/baselines" "owner/repo/$id" "$sha"
}
# expect <exit> <text> <description> <command...>: the command's exit code, and text in its output.
expect() {
  local want=$1 text=$2 what=$3 rc=0
  shift 3
  "$@" >"$work/log" 2>&1 || rc=$?
  if ((rc == want)) && { [[ -z $text ]] || grep -qF -- "$text" "$work/log"; }; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $what: exit $rc (want $want), output should contain '$text':"
    sed 's/^/    /' "$work/log"
  fi
}
check() {  # check <description> <command...>: a condition
  if "${@:2}" >/dev/null 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi
}
runs_in() {  # runs_in <asset>: how many runs the release's asset holds (none: 0)
  [[ -f $release/$1 ]] || { echo 0; return; }
  "$gate" history-runs --store "$release/$1"
}
# The most runs any store among the release's assets holds: what the next job can start from.
most_runs() {
  local most=0 n asset
  for asset in "$release"/*.sqlite; do
    [[ -f $asset ]] || continue
    n=$("$gate" history-runs --store "$asset" 2>/dev/null) || n=0
    ((n > most)) && most=$n
  done
  echo "$most"
}

store_keys() {  # store_keys <asset>: the run ids in the release's asset (fake/long/n:2's points), oldest first
  "$gate" history-export --store "$release/$1" --gpu fake-gpu --json "$work/export.json" >/dev/null &&
    jq -r '.series[] | select(.benchmark == "fake/long/n:2") | .points[] | .run_key' "$work/export.json" |
    sed 's|^owner/repo/||; s|/GPU-fake$||' | tr '\n' ' '
}
uploads() { grep -c "^gh release upload perf-history .*/$1 --clobber" "$FAKE_LOG"; }

# --- A failed upload never replaces the history with a smaller store -------------------------------------
expect 0 "the release perf-history does not exist yet" "the first run creates the release and starts the store" append 1
for id in 2 3 4 5; do append "$id" >/dev/null 2>&1; done
check "five runs are stored" test "$(runs_in perf-history.sqlite)" = 5
check "the store before the last run is kept beside it" test "$(runs_in perf-history.previous.sqlite)" = 4
expect 2 "the release keeps a complete store" "an upload that fails after --clobber deleted the store fails the job" \
  append 6 FAKE_GH_FAIL_UPLOAD=perf-history.sqlite
check "a complete store of the five runs is still among the release's assets" test "$(most_runs)" -ge 5
run_artifacts 6 && listed_runs "$(run_record 6)"
: >"$FAKE_LOG"
expect 0 "continues from perf-history.previous.sqlite (5 runs)" "the next run continues from that store" append 7
check "the store holds the five runs, the lost run (from its artifacts) and the next one, never a new store of one run" \
  test "$(store_keys perf-history.sqlite)" = "1 2 3 4 5 6 7 "
check "the previous copy it continued from is not uploaded over" test "$(uploads perf-history.previous.sqlite)" = 0
check "the lost run is said in the job summary" grep -q "^- run 6 (commit 111111111111" "$work/summary"
expect 2 "connection reset" "a failed upload of the previous copy fails the job" \
  append 8 FAKE_GH_FAIL_UPLOAD=perf-history.previous.sqlite
check "and leaves the store as it was" test "$(runs_in perf-history.sqlite)" = 7

# --- Only "no release at all" starts a new store ----------------------------------------------------------
cp "$release/perf-history.sqlite" "$work/good-store"
rm -f "$release"/*.sqlite
expect 2 "holds no readable history store (perf-history.sqlite, perf-history.previous.sqlite): nothing appended" \
  "a release without the store is refused" append 9
check "the message says how to restore it, or to start anew on purpose" \
  grep -q "gh release upload perf-history perf-history.sqlite.*start-new-history: true" "$work/log"
check "no store is uploaded" test -z "$(ls "$release"/*.sqlite 2>/dev/null)"
expect 0 "a new one is started, as HISTORY_START_NEW" "a new store only when a person asks for one" \
  append 9 HISTORY_START_NEW=true HISTORY_MISSED_RUNS=0
check "it holds the one run" test "$(runs_in perf-history.sqlite)" = 1
cp "$work/good-store" "$release/perf-history.sqlite" && rm -f "$release/perf-history.previous.sqlite"
echo "not a store" >"$release/perf-history.previous.sqlite"
expect 0 "" "a restored store is appended to again" append 10 HISTORY_MISSED_RUNS=0
cp "$release/perf-history.sqlite" "$release/perf-history.previous.sqlite" && echo "broken" >"$release/perf-history.sqlite"
expect 0 "perf-history.sqlite of the release perf-history cannot be read" \
  "an unreadable store is passed over for the previous copy" append 11 HISTORY_MISSED_RUNS=0
check "which the run is appended to" test "$(store_keys perf-history.sqlite)" = "1 2 3 4 5 6 7 10 11 "
expect 2 "downloading the history store failed; nothing appended" "any other failed download stops before anything" \
  append 12 "FAKE_GH_FAIL=release download*"

# --- A store with fewer runs than the one downloaded is never uploaded ------------------------------------
cat >"$work/gate-shrinks" <<EOF
#!/usr/bin/env bash
# The real perf_gate, except that history-append starts its store anew (a defect of the store's code).
if [[ \$1 == history-append ]]; then rm -f "\$3"; fi
exec "$gate" "\$@"
EOF
chmod +x "$work/gate-shrinks"
cp "$release/perf-history.sqlite" "$work/store-before"
use_gate="$work/gate-shrinks"
expect 2 "holds 1 runs, fewer than the 9 downloaded: nothing uploaded" "a smaller store is refused" append 12 HISTORY_MISSED_RUNS=0
use_gate=$gate
check "the release's store is unchanged" cmp "$work/store-before" "$release/perf-history.sqlite"

# --- Runs a cancelled or failed history job left out are appended by the next ------------------------------
# Run 118's history job was cancelled (a third push), 117's too, but its artifacts expired; 116-113 are no
# trusted push to main of this repository, or not of a form to trust; 112 left no results; 111's artifact
# names no runner label.
release="$work/release-cancelled"
listed_runs
append 119 >/dev/null 2>&1
for id in 118 117 112 111; do run_artifacts "$id"; done
run_artifacts 117 true
jq -n '{artifacts: [{name: "perf-verdicts", expired: false}]}' >"$api/runs/112/artifacts.json"
mv "$runs/111/perf-results-h200" "$runs/111/perf-results-H200"
jq -n '{artifacts: [{name: "perf-results-H200", expired: false}]}' >"$api/runs/111/artifacts.json"
for id in 116 115 114 113; do run_artifacts "$id"; done
listed_runs "$(run_record 120)" "$(run_record 119)" "$(run_record 118)" "$(run_record 117)" \
  "$(run_record 116 workflow_dispatch)" "$(run_record 115 push feature)" "$(run_record 114 push main fork/repo)" \
  "$(run_record 113 push main owner/repo HEAD)" "$(run_record 112)" "$(run_record 111)"
: >"$FAKE_LOG"
expect 0 "::warning title=Runs missing from the history::2 recent run(s)" "the next job appends what a cancelled job left out" append 120
check "the store holds the run left out, in the order pushed, and this one" \
  test "$(store_keys perf-history.sqlite)" = "118 119 120 "
check "the job summary says which run was kept late" bash -c \
  "grep -qx -- '- run 118 (commit 111111111111, $(run_date 118))' '$work/summary' && ! grep -q -- '- run 11[2-6]' '$work/summary'"
check "and which could not be kept: expired artifacts, a name that is no runner label" bash -c \
  "grep -q -- '- run 117 .*its perf-results artifacts expired' '$work/summary' && grep -q -- '- run 111 .*no runner label' '$work/summary'"
check "a run of an unexpected form is said and left out" grep -q "::warning title=Run not read::" "$work/log"
check "only the default branch's completed push runs of the calling workflow are listed" \
  grep -q "^gh api repos/owner/repo/actions/workflows/7/runs?branch=main&event=push&status=completed&per_page=20 " "$FAKE_LOG"
check "no artifact of another event, branch or repository was downloaded" bash -c \
  "! grep -E '^gh run download 11[3-6] ' '$FAKE_LOG' && ! grep -E '^gh api .*/runs/11[3-6]/artifacts' '$FAKE_LOG'"
: >"$FAKE_LOG"
expect 0 "" "a re-run of the job" append 120
check "adds nothing" test "$(runs_in perf-history.sqlite)" = 3
check "and downloads no run kept already" bash -c "! grep -q '^gh run download 118' '$FAKE_LOG'"
: >"$FAKE_LOG"
expect 0 "" "the look-back can be turned off" append 121 HISTORY_MISSED_RUNS=0
check "then nothing is looked at" bash -c "! grep -q 'workflows/7/runs' '$FAKE_LOG'"
expect 0 "" "a look-back that fails keeps the run all the same" append 122 "FAKE_GH_FAIL=api *"
check "and records the gap in the job summary" grep -q "^- the last 20 runs of this workflow could not be looked at" "$work/summary"
check "the run is kept" test "$(runs_in perf-history.sqlite)" = 5
expect 2 "is not other/repo/<workflow run id>" "a run key prefix of another repository is refused" \
  env GH_REPO=other/repo GITHUB_STEP_SUMMARY="$work/summary" bash "$script" "$gate" "$work/results" "$work/baselines" owner/repo/1 "$sha"

# --- The upload happens before the analysis ----------------------------------------------------------------
cat >"$work/gate-analysis-fails" <<EOF
#!/usr/bin/env bash
# The real perf_gate, except that history-changes fails.
if [[ \$1 == history-changes ]]; then echo "history-changes: out of memory" >&2; exit 2; fi
exec "$gate" "\$@"
EOF
chmod +x "$work/gate-analysis-fails"
use_gate="$work/gate-analysis-fails"
expect 2 "history-changes failed for fake-gpu; the runs are kept in the store all the same" \
  "a failing analysis fails the job" append 130 HISTORY_MISSED_RUNS=0
use_gate=$gate
check "after the run was uploaded" bash -c "[[ ' $(store_keys perf-history.sqlite)' == *' 130 '* ]]"
check "and says why in a warning" grep -q "::warning title=History analysis failed::fake-gpu: history-changes: out of memory" "$work/log"

# --- Each GPU model's last analysis is kept and given to the next one as --previous ------------------------
cat >"$work/gate-previous" <<EOF
#!/usr/bin/env bash
# The real perf_gate, plus history-changes --previous FILE (FILE kept as $work/previous-given.json).
if [[ \$1 == history-changes ]]; then
  args=()
  while ((\$#)); do
    if [[ \$1 == --previous ]]; then cp "\$2" "$work/previous-given.json"; shift 2; else args+=("\$1"); shift; fi
  done
  set -- "\${args[@]}"
fi
exec "$gate" "\$@"
EOF
chmod +x "$work/gate-previous"
release="$work/release-previous"
changes_asset() { gzip -dc "$release/perf-history-changes-fake-gpu.json.gz"; }
use_gate="$work/gate-previous"
expect 0 "" "the first analysis of a model" append 140 HISTORY_MISSED_RUNS=0
check "has no previous one" test ! -e "$work/previous-given.json"
check "and is kept as a release asset, its --json output" bash -c "gzip -dc '$release/perf-history-changes-fake-gpu.json.gz' | jq -e '.series | length == 2'"
changes_asset >"$work/first-changes.json"
expect 0 "" "the next analysis" append 141 HISTORY_MISSED_RUNS=0
check "is given the last one as --previous" cmp "$work/first-changes.json" "$work/previous-given.json"
check "which is kept beside the new one, as the store is" cmp "$work/first-changes.json" \
  <(gzip -dc "$release/perf-history-changes-fake-gpu.previous.json.gz")
cat >"$work/gate-older" <<EOF
#!/usr/bin/env bash
# The real perf_gate as a release before --previous answered: that option of history-changes refused.
if [[ \$1 == history-changes && " \$* " == *" --previous "* ]]; then
  echo "error: unknown option '--previous' for history-changes" >&2
  exit 2
fi
exec "$gate" "\$@"
EOF
chmod +x "$work/gate-older"
use_gate="$work/gate-older"
expect 0 "run again without it" "a perf_gate that refuses --previous runs the analysis without it" append 142 HISTORY_MISSED_RUNS=0
# shellcheck disable=SC2016  # backquotes of Markdown
check "which writes the job summary" grep -q '^### History of `fake-gpu`' "$work/summary"
echo "not gzip" >"$release/perf-history-changes-fake-gpu.json.gz"
expect 0 "perf-history-changes-fake-gpu.json.gz of the release perf-history cannot be read" \
  "an unreadable last analysis is passed over for its previous copy" append 143 HISTORY_MISSED_RUNS=0

# --- Each runner's history of the baseline's code, kept for the GPU jobs ---------------------------------
cp "$work/baseline.json" "$work/baselines/fake-gpu.json"
use_gate=$gate
expect 0 "" "a GPU model with a baseline" append 144 HISTORY_MISSED_RUNS=0
check "gets its runners' histories written by perf_gate history-offsets and kept as a release asset" \
  jq -e '.schema_version == 1 and .gpu_slug == "fake-gpu" and (.runners | type) == "object"' \
  "$release/runner-history-fake-gpu.json"
cat >"$work/gate-no-offsets" <<EOF
#!/usr/bin/env bash
# The real perf_gate, but history-offsets fails (a release before it, a store it cannot read).
[[ \$1 == history-offsets ]] && { echo "error: unknown command 'history-offsets'" >&2; exit 2; }
exec "$gate" "\$@"
EOF
chmod +x "$work/gate-no-offsets"
use_gate="$work/gate-no-offsets"
expect 0 "::warning title=Runner history::fake-gpu: error: unknown command 'history-offsets'" \
  "a runner history that cannot be written is a warning; the run is kept" append 145 HISTORY_MISSED_RUNS=0
use_gate=$gate
rm "$work/baselines/fake-gpu.json"

# --- A job that ran on several GPUs is kept as one run a GPU -----------------------------------------------
# The families' perf test in two shards, each on its own GPU: each shard's reports and processes name their
# GPU, and each GPU's are one run under its own key (a runner's history holds only what its GPU measured).
mv "$work/results" "$work/results-one-gpu"
shards="$work/results/perf-results-h200/perf-results"
mkdir -p "$shards"
for shard in 1 2; do
  for r in 1 2 3; do
    jq --arg uuid "GPU-fake-$shard" '.context.gpu_uuid = $uuid' "$work/results-one-gpu/perf-results-h200/perf-results/fake.run$r.json" \
      >"$shards/families_${shard}of2.run$r.json"
  done
  cp "$work/results-one-gpu/perf-results-h200/perf-results/fake.verdict.json" "$shards/families_${shard}of2.verdict.json"
done
expect 0 "kept 2 run(s), one a GPU of each GPU job" "a job on two GPUs is kept as two runs" append 150 HISTORY_MISSED_RUNS=0
"$gate" history-export --store "$release/perf-history.sqlite" --gpu fake-gpu --json "$work/export.json" >/dev/null
check "each under its GPU's key, with its GPU" test "$(jq -r '.series[] | select(.benchmark == "fake/long/n:2") | .points[]
  | select(.run_key | startswith("owner/repo/150/")) | "\(.run_key)=\(.gpu_uuid)"' "$work/export.json" | sort | paste -sd ' ')" = \
  "owner/repo/150/GPU-fake-1=GPU-fake-1 owner/repo/150/GPU-fake-2=GPU-fake-2"
rm -rf "$work/results" && mv "$work/results-one-gpu" "$work/results"

echo "$passed passed, $failed failed"
((failed == 0))
