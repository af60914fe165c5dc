#!/usr/bin/env bash
# Runs the jobs of .github/workflows/ on this machine, every step in order (workflow_runner.py), against
# fakes of what a GPU runner and GitHub provide (fake_ci/: nvidia-smi, cmake, ctest, gh, git push; the
# benchmark binary is fake_bench.sh, the gate and all our scripts are real), in a scratch clone of the
# working tree. A broken command, path, exit code or a missing value fails here, not on a GPU runner.
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
git init -q -b main && git add -A && git -c user.name=t -c user.email=t@t commit -qm base
git update-ref refs/remotes/origin/main HEAD
git switch -qc feature && echo change >>README.md && git -c user.name=t -c user.email=t@t commit -qam change
base_sha=$(git rev-parse origin/main) head_sha=$(git rev-parse HEAD)

# A baseline of the fake GPU, from three clean fake runs.
mkdir -p "$work/baselines"
for r in 1 2 3; do bash "$here/fake_bench.sh" --benchmark_out="$work/r$r.json" >/dev/null; done
"$gate" record --results "$work"/r{1,2,3}.json --out "$work/baselines/fake-gpu.json" --default-tolerance-pct 3 >/dev/null

export PATH="$here/fake_ci:$PATH" FAKE_BENCH="$here/fake_bench.sh" FAKE_PERF_GATE=$gate
export FAKE_BASELINES="$work/baselines" FAKE_LOG="$work/fake.log" FAKE_GH_BODY="$work/gh_body.json"
export TMPDIR="$work"  # the GPU lock files too
export GPUPERF_LIBRARY_PROBE=skip  # install_deps.sh: the fake cmake configures nothing to probe
artifacts="$work/artifacts"
mkdir -p "$artifacts"

# job <workflow> <job> <expected exit> <expected text> <description> [expr:KEY=VALUE | VAR=VALUE ...]
job() {
  local workflow=$1 name=$2 expected=$3 text=$4 what=$5 rc=0 arg
  shift 5
  local temp="$work/runner-temp"
  rm -rf "$temp" && mkdir -p "$temp"
  local exprs
  exprs=$(jq -n --arg sha "$head_sha" --arg temp "$temp" '{
    "github.event_name": "push", "github.sha": $sha, "github.ref": "refs/heads/feature",
    "github.ref_name": "feature", "github.repository": "owner/repo", "github.token": "fake-token",
    "github.event.repository.default_branch": "main", "runner.temp": $temp,
    "inputs.sha": "", "inputs.gpu": "h200", "inputs.runs": "3", "matrix.gpu": "h200",
    "needs.target.outputs.sha": $sha, "github.event.workflow_run.id": "42",
    "github.event.workflow_run.pull_requests[0].number": "7",
    "github.event.workflow_run.html_url": "https://github.invalid/owner/repo/actions/runs/42"}')
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
  env "${envs[@]}" RUNNER_TEMP="$temp" GITHUB_SHA="$head_sha" GITHUB_RUN_ID=42 GITHUB_WORKSPACE="$PWD" \
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
  if "${@:2}"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi
}
summary() { cat "$work/runner-temp/github_step_summary"; }

job build.yml build 0 "job build: passed" "build runs .ci/run"
check "build.yml runs the CI workflow preset" grep -q "cmake --workflow --preset ci" "$FAKE_LOG"

job build.yml fork-notice 0 "::notice title=GPU perf not run::" "a fork's pull request is told how a maintainer runs the GPU jobs" \
  "expr:github.event.pull_request.head.sha=$head_sha"
check "the notice names the commit to dispatch" grep -q "sha = $head_sha" "$work/runner-temp/github_step_summary"

# perf: the target job validates the dispatch input.
job perf.yml target 0 "job target: passed" "a push measures its own commit"
check "target's output is the pushed SHA" grep -q "$head_sha" "$work/runner-temp/job-outputs.json"
job perf.yml target 1 "must be a full 40-character" "a dispatch SHA that is not hex is refused" \
  expr:github.event_name=workflow_dispatch "expr:inputs.sha=main; rm -rf /"

# perf: the stored-baseline job.
git clean -fdxq
job perf.yml baseline 0 "Perf gate (compare) on Fake GPU" "a clean run passes with the report in the summary"
check "the artifact holds the verdict and JUnit" test -f "$artifacts/perf-results-h200/build/ci/perf-results/fake.verdict.json" -a -f "$artifacts/perf-results-h200/build/ci/junit.xml"
check "the tests ran with a resource spec, one GPU" grep -q -- "--resource-spec-file .*-j 1" "$FAKE_LOG"
check "the fleet report of the run is in the job summary" grep -q "Fleet report: Fake" "$work/runner-temp/github_step_summary"
check "and in the artifact" test -f "$artifacts/perf-results-h200/build/ci/fleet-report/fleet.md"
git clean -fdxq
job perf.yml baseline 1 "::error title=SLOW fake/long/n%3A2::" "a regression fails with an annotation naming the benchmark" \
  FAKE_SLOWDOWN_PCT=10
git clean -fdxq
job perf.yml baseline 1 "perf.fake was skipped: nothing was judged" "a skipped perf test (no GPU visible) fails the job" \
  FAKE_GPU=none
git clean -fdxq
: >"$FAKE_LOG"
job perf.yml baseline 1 "expects GPU 'NVIDIA H200', but this runner has 'NVIDIA H100 80GB HBM3'" \
  "a runner whose GPU is not its label's fails at preflight, naming both" "FAKE_GPU_NAME=NVIDIA H100 80GB HBM3"
check "nothing is built after a failed preflight" test ! -s "$FAKE_LOG"

# perf: A/B against the merge base, in a worktree that is removed afterwards.
git clean -fdxq
: >"$FAKE_LOG"
job perf.yml ab 0 "A/B: this commit vs its merge base $base_sha" "A/B compares with the merge base and reports in the summary"
check "the A/B worktree is removed" bash -c "! ls -d '$work'/runner-temp/ab-base-* 2>/dev/null && ! git worktree list | grep -q ab-base"
check "both A/B builds were built" test "$(grep -c 'cmake --build' "$FAKE_LOG")" -eq 2

# pr-comment: renders the artifacts and creates, then updates, one comment.
job pr-comment.yml comment 0 "created a comment on #7" "the verdicts are posted as a comment"
check "the comment starts with its marker" bash -c "jq -r .body '$FAKE_GH_BODY' | head -n 1 | grep -qx '<!-- gpuperf-verdicts -->'"
job pr-comment.yml comment 0 "updated comment 99 on #7" "a second run updates the comment in place" FAKE_GH_EXISTING=99

# update-baseline: record (read-only) uploads the file; pull-request commits it and opens the PR.
git clean -fdxq
rm -rf "$artifacts/baseline"
job update-baseline.yml record 0 "job record: passed" "record writes and uploads the baseline" \
  expr:github.event_name=workflow_dispatch FAKE_FINGERPRINTS=1
check "the uploaded baseline is the fake GPU's" test -f "$artifacts/baseline/baselines/fake-gpu.json"
check "the ncu profiles were recorded beside it" \
  jq -e '.gpu_slug == "fake-gpu" and (.benchmarks | length) == 2' "$artifacts/baseline/baselines/fake-gpu.ncu.json"
git clean -fdxq
git switch -q main
job update-baseline.yml pull-request 0 "job pull-request: passed" "pull-request commits the file and opens the PR" \
  expr:github.event_name=workflow_dispatch expr:github.ref_name=main
check "the PR branch was pushed and the PR opened" grep -q "gh pr create --base main --head baseline/h200-42" "$FAKE_LOG"
check "the PR commits the baseline and its profiles" bash -c "git show --stat HEAD | grep -q 'baselines/fake-gpu.ncu.json'"
git switch -q feature
job update-baseline.yml record 1 "runs must be a whole number" "a runs input that is not a number is refused" \
  "expr:inputs.runs=3; echo pwned"

echo "$passed passed, $failed failed"
((failed == 0))
