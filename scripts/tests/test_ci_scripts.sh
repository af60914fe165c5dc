#!/usr/bin/env bash
# Tests of scripts/ci/ (the GitHub Actions steps' logic) on fixtures, without a GPU or GitHub:
# preflight (with the harness's GPU table or a project's), input validation (one input, and a whole
# reusable-workflow call: call_target.sh), where a build's programs are, JUnit skips, verdict annotations, the step summary, the PR comment's
# Markdown (exact) and whose comment it updates, what a dispatched run refuses to post, the CTest resource spec and the GPU a resource group selects, the phase files each GPU
# test writes and the time table in the summary, and what the baseline
# pull request takes from its artifact.
#   test_ci_scripts.sh PERF_GATE
set -uo pipefail
gate=${1:?usage: test_ci_scripts.sh PERF_GATE}
gate=$(cd "$(dirname "$gate")" && pwd)/$(basename "$gate")
here="$(cd "$(dirname "$0")" && pwd)"
ci="$here/../ci"
fixtures="$here/fixtures/ci"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake=$(command -v cmake) ctest=$(command -v ctest)  # the real ones, for the resource-group test
export PATH="$here/fake_ci:$PATH"
passed=0 failed=0

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

mkdir -p "$work/baselines" && echo '{}' >"$work/baselines/nvidia-h200.json"
expect 0 "baseline $work/baselines/nvidia-h200.json" "preflight passes on the label's GPU with a baseline" \
  bash "$ci/preflight.sh" h200 "$work/baselines"
expect 2 "::error title=preflight::runner label 'h200' expects GPU 'NVIDIA H200', but this runner has 'NVIDIA H100 80GB HBM3'" \
  "preflight names the label's GPU and the runner's" env "FAKE_GPU_NAME=NVIDIA H100 80GB HBM3" bash "$ci/preflight.sh" h200 "$work/baselines"
expect 2 "has no baseline: expected $work/baselines/nvidia-h100-80gb-hbm3.json" "preflight names the missing baseline" \
  env "FAKE_GPU_NAME=NVIDIA H100 80GB HBM3" bash "$ci/preflight.sh" h100 "$work/baselines"
expect 0 "preflight: label 'h100'" "re-recording a new GPU may lack a baseline" \
  env "FAKE_GPU_NAME=NVIDIA H100 80GB HBM3" bash "$ci/preflight.sh" h100 "$work/baselines" --allow-missing-baseline
expect 2 "is not in scripts/ci/gpu_models.tsv" "an unknown label fails" bash "$ci/preflight.sh" a100 "$work/baselines"
: >"$work/output"
expect 0 "" "preflight says which GPU it found" env GITHUB_OUTPUT="$work/output" bash "$ci/preflight.sh" h200 "$work/baselines"
expect 0 "gpu_slug=nvidia-h200" "as the GPU's slug, for the update-baseline pull request" cat "$work/output"
# The GPU lock file must be the host's (root-owned), so that no job's code can replace it.
mkdir -p "$work/locks"
expect 0 "::warning title=GPU lock not the host's::$work/locks/gpuperf-GPU-fake-0.lock is not a file owned by root" \
  "a GPU without its lock file is a warning" env TMPDIR="$work/locks" bash "$ci/preflight.sh" h200 "$work/baselines"
ln -s "$work/output" "$work/locks/gpuperf-GPU-fake-0.lock"
expect 0 "::warning title=GPU lock not the host's::" "a lock file that is a link is a warning" \
  env TMPDIR="$work/locks" bash "$ci/preflight.sh" h200 "$work/baselines"
if (($(id -u) == 0)); then  # only root can make a root-owned file: elsewhere this case is not testable
  rm "$work/locks/gpuperf-GPU-fake-0.lock" && touch "$work/locks/gpuperf-GPU-fake-0.lock"
  expect 0 "" "a root-owned lock file is no warning" \
    bash -c "! TMPDIR='$work/locks' bash '$ci/preflight.sh' h200 '$work/baselines' | grep -q '::warning'"
fi

# A project's own GPU table (--gpu-models), in the format of scripts/ci/gpu_models.tsv.
printf '# label -> GPU\nlab-h200\tNVIDIA H200\n' >"$work/gpus.tsv"
expect 0 "preflight: label 'lab-h200', GPU 'NVIDIA H200'" "preflight reads a project's GPU table" \
  bash "$ci/preflight.sh" lab-h200 "$work/baselines" --gpu-models "$work/gpus.tsv"
expect 2 "runner label 'h200' is not in $work/gpus.tsv" "only the project's table" \
  bash "$ci/preflight.sh" h200 "$work/baselines" --gpu-models "$work/gpus.tsv"
expect 2 "no GPU model table $work/none.tsv" "a missing table is named" \
  bash "$ci/preflight.sh" h200 "$work/baselines" --gpu-models "$work/none.tsv"

expect 0 "" "a 40-hex SHA is valid" bash "$ci/check_input.sh" sha sha 0123456789abcdef0123456789abcdef01234567
expect 2 "::error title=invalid input::sha must be a full 40-character" "a branch name is not a SHA" \
  bash "$ci/check_input.sh" sha sha main
expect 2 "runs must be a whole number" "a count with a command in it is refused" bash "$ci/check_input.sh" count runs '3;id'
expect 2 "gpu must be a runner label" "a label with a space is refused" bash "$ci/check_input.sh" label gpu 'h200 x'
expect 0 "" "a folder of the repository is a path" bash "$ci/check_input.sh" path baselines perf/baselines
for path in ../x a/../b /etc .hidden ''; do
  expect 2 "baselines must be a relative path inside the repository" "the path '$path' is refused" \
    bash "$ci/check_input.sh" path baselines "$path"
done
expect 2 "preset must be a CMake preset name" "a preset with a space is refused" bash "$ci/check_input.sh" name preset 'ci x'
expect 2 "harness-repository must be a GitHub repository" "a repository is owner/name" \
  bash "$ci/check_input.sh" repository harness-repository 'owner/name/x'

# call_target.sh: every input of a reusable workflow call, before a GPU runner is asked for.
sha1=0123456789abcdef0123456789abcdef01234567 sha2=89abcdef0123456789abcdef0123456789abcdef
call=(env CALLER=team/saxpy HARNESS_REPOSITORY=owner/gpu-perf-harness "HARNESS_REF=$sha1" SOURCE_DIR=bench
  BASELINES=perf/baselines GPU_MODELS=ci/gpus.tsv PRESET= 'RUNNER_LABELS=["self-hosted", "gpu-lab"]'
  EVENT=push HEAD_REPOSITORY= "GITHUB_SHA=$sha2" SHA= 'GPU_LABELS=["lab-h200", "lab-l4"]' 'AB_GPU_LABELS=["lab-h200"]'
  GITHUB_OUTPUT="$work/call.out")
target() { : >"$work/call.out"; "${call[@]}" "$@" bash "$ci/call_target.sh" perf; }
expect 0 "measuring $sha2 (trusted) on lab-h200, lab-l4; A/B on lab-h200; harness: package" \
  "a consumer's push is measured on its labels, with the installed harness" target
expect 0 "" "one job per GPU label, on the runner labels and the GPU's" diff - "$work/call.out" <<OUT
harness=package
sha=$sha2
scope=trusted
gpu-matrix={"include":[{"gpu":"lab-h200","runs-on":["self-hosted","gpu-lab","lab-h200"]},{"gpu":"lab-l4","runs-on":["self-hosted","gpu-lab","lab-l4"]}]}
ab-matrix={"include":[{"gpu":"lab-h200","runs-on":["self-hosted","gpu-lab","lab-h200"]}]}
OUT
expect 0 "on lab-h200, lab-l4; harness: package" "no A/B labels: no A/B job" target AB_GPU_LABELS=
expect 0 "" "and no A/B matrix" grep -qx 'ab-matrix=' "$work/call.out"
expect 0 "harness: in-tree" "the harness calling itself builds in its own tree" target CALLER=Owner/GPU-Perf-Harness
expect 0 "measuring $sha1 (untrusted)" "a dispatched commit is untrusted" target EVENT=workflow_dispatch SHA=$sha1
expect 0 "measuring $sha1 (untrusted)" "a push measuring another commit is untrusted" target SHA=$sha1
expect 2 "::error title=invalid input::harness-ref must be a full 40-character" "harness-ref must be a full SHA" target HARNESS_REF=main
expect 2 "::error title=invalid input::sha must be a full 40-character" "a dispatched SHA must be one" target EVENT=workflow_dispatch 'SHA=main; id'
expect 2 "gpu-labels must be a JSON list of runner labels" "the labels are a JSON list" target GPU_LABELS=h100
expect 2 "gpu-labels lists no runner label" "at least one GPU label" target 'GPU_LABELS=[]'
expect 2 "gpu-labels must be a runner label" "a label with a space is refused" target 'GPU_LABELS=["h100 x"]'
expect 2 "ab-gpu-labels lists a label twice" "a label once" target 'AB_GPU_LABELS=["a", "a"]'
expect 2 "runner-labels must be a JSON list" "the runner labels are a JSON list" target RUNNER_LABELS=gpu
expect 2 "source-dir must be a relative path" "the project is inside the repository" target SOURCE_DIR=../x
expect 2 "pull_request_target would run a fork's code" "pull_request_target never reaches a GPU" target EVENT=pull_request_target
expect 2 "a fork's pull request (fork/saxpy) never reaches a GPU runner" "nor a fork's pull request" \
  target EVENT=pull_request HEAD_REPOSITORY=fork/saxpy
expect 0 "(untrusted)" "a same-repository pull request is untrusted" target EVENT=pull_request HEAD_REPOSITORY=team/saxpy
record() { : >"$work/call.out"; "${call[@]}" GPU_LABEL=lab-h200 RUNS=10 "$@" bash "$ci/call_target.sh" record; }
expect 0 "recording on [\"self-hosted\",\"gpu-lab\",\"lab-h200\"] from 10 processes" "a re-recording runs on its label's runners" record
expect 0 'runs-on=["self-hosted","gpu-lab","lab-h200"]' "as the record job's runs-on" cat "$work/call.out"
expect 2 "runs must be a whole number" "runs is a number" record 'RUNS=3;id'
expect 2 "gpu must be a runner label" "gpu is a label" record "GPU_LABEL=h200;id"
bisect_target() { : >"$work/call.out"; "${call[@]}" GPU_LABEL=lab-h200 "$@" bash "$ci/call_target.sh" bisect; }
expect 0 "bisecting on [\"self-hosted\",\"gpu-lab\",\"lab-h200\"]; harness: package" \
  "a consumer's bisection runs on its label's runners, with the installed harness" bisect_target
expect 0 "" "its outputs: the harness and the bisect job's runs-on" diff - "$work/call.out" <<OUT
harness=package
runs-on=["self-hosted","gpu-lab","lab-h200"]
OUT
expect 0 "harness: in-tree" "the harness bisecting itself builds in its own tree" bisect_target CALLER=owner/gpu-perf-harness
expect 2 "gpu must be a runner label" "the bisection's gpu is a label" bisect_target "GPU_LABEL=h200;id"
expect 2 "baselines must be a relative path" "its baseline folder is inside the repository" bisect_target BASELINES=/etc
expect 2 "gpu-models must be a relative path" "its GPU table is inside the repository" bisect_target GPU_MODELS=../gpus.tsv

# Where a build's programs are: this repository's layout, or what gpuperf-programs.txt names (a
# project's build, with the installed gate); ab_bench.sh puts the gate beside the bench for ab_compare.sh.
mkdir -p "$work/own/perf_tests/gate" "$work/project" "$work/prefix/bin"
for f in own/perf_tests/gpuperf_bench own/perf_tests/gate/perf_gate project/gpuperf_bench prefix/bin/perf_gate; do
  printf '#!/bin/sh\n' >"$work/$f" && chmod +x "$work/$f"
done
printf 'bench=%s\ngate=%s\n' "$work/project/gpuperf_bench" "$work/prefix/bin/perf_gate" >"$work/project/gpuperf-programs.txt"
expect 0 "$work/own/perf_tests/gate/perf_gate" "this repository's gate" bash "$ci/build_program.sh" "$work/own" gate
expect 0 "$work/prefix/bin/perf_gate" "a project's gate is the installed one" bash "$ci/build_program.sh" "$work/project" gate
expect 2 "no bench program in the build $work/none" "no build, no program" bash "$ci/build_program.sh" "$work/none" bench
expect 0 "$work/own/perf_tests/gpuperf_bench" "ab_compare.sh finds this repository's gate beside its bench" \
  bash "$ci/ab_bench.sh" "$work/own" "$work/links-own"
expect 0 "$work/links/gpuperf_bench" "and a project's through links" bash "$ci/ab_bench.sh" "$work/project" "$work/links"
expect 0 "$work/prefix/bin/perf_gate" "the link is the installed gate" readlink "$work/links/gate/perf_gate"

expect 0 "junit: 3 of 3 tests ran" "every test ran" bash "$ci/junit_check.sh" "$fixtures/ctest_junit_all_ran.xml"
expect 1 "::error title=test skipped::perf.reduction was skipped" "a skipped perf test fails" \
  bash "$ci/junit_check.sh" "$fixtures/ctest_junit_two_skipped.xml"
expect 0 "::warning title=not judged::perf.reduction was skipped (allowed" "an allowed skip is a warning" \
  bash "$ci/junit_check.sh" "$fixtures/ctest_junit_two_skipped.xml" '^(correctness|perf)\.reduction$'
expect 2 "no JUnit file" "no JUnit file is invalid" bash "$ci/junit_check.sh" "$work/none.xml"

expect 0 "::error title=SLOW fake/long/n%3A2::fake/long/n:2 on Fake GPU: SLOW, change +10%25 (tolerance 3%25) [fake.verdict.json]" \
  "a SLOW benchmark is an error annotation naming it" bash "$ci/annotate_verdicts.sh" --gate "$gate" "$fixtures/slow"
expect 0 "::error title=ERROR fake/long/n%3A2::fake/long/n:2 on Fake GPU: ERROR, change +10%25 (tolerance 3%25): wrong result at index 3,%0Aseed 7" \
  "an ERROR is an error annotation, its reason escaped" bash "$ci/annotate_verdicts.sh" --gate "$gate" "$fixtures/error"
expect 0 "::warning title=NOT_JUDGED fake/short/n%3A1::" "NOT_JUDGED is a warning" bash "$ci/annotate_verdicts.sh" --gate "$gate" "$fixtures/error"
expect 2 "no *.verdict.json" "no report is an error" bash "$ci/annotate_verdicts.sh" --gate "$gate" "$work"
# PLATFORM: the baseline's own code beyond its tolerance, a pass (the machine, driver or harness moved).
mkdir -p "$work/platform"
jq '.benchmarks |= map(.verdict = "PLATFORM") | .counts.SLOW = 0 | .counts.PLATFORM = 2 | .outcome = "PASS" | .exit_code = 0' \
  "$fixtures/slow/fake.verdict.json" >"$work/platform/fake.verdict.json"
expect 0 "::warning title=PLATFORM fake/long/n%3A2::fake/long/n:2 on Fake GPU: PLATFORM, change +10%25 (tolerance 3%25)" \
  "a PLATFORM is a warning annotation naming it" bash "$ci/annotate_verdicts.sh" --gate "$gate" "$work/platform"
expect 1 "" "and never an error" bash -c "bash '$ci/annotate_verdicts.sh' --gate '$gate' '$work/platform' | grep -q '^::error'"
expect 0 "| 2 PLATFORM |" "the PR comment counts PLATFORM" bash "$ci/pr_comment_body.sh" --gate "$gate" "$work/platform" https://example.invalid/run/1
expect 0 "| PLATFORM | \`fake/long/n:2\` | Fake GPU | +10% [" "and lists it as a verdict of the gate" \
  bash "$ci/pr_comment_body.sh" --gate "$gate" "$work/platform" https://example.invalid/run/1

export GITHUB_STEP_SUMMARY="$work/summary.md"
expect 0 "" "the summary step runs" bash "$ci/step_summary.sh" "$fixtures/slow" "Perf gate"
expect 0 "| SLOW | \`fake/long/n:2\`" "the gate's Markdown is in the summary" cat "$GITHUB_STEP_SUMMARY"
bash "$ci/step_summary.sh" "$work/baselines"
expect 0 "nothing was judged" "an empty results folder says so in the summary" cat "$GITHUB_STEP_SUMMARY"
# The time table (perf_gate phases' time-spent.md) comes after every family's report, whatever their names.
mkdir -p "$work/timed" && cp "$fixtures/slow/"*.md "$work/timed/" && echo "zeta's report" >"$work/timed/zeta.md"
printf '### Where the time went\n\nBuild: 1.0 s.\n' >"$work/timed/time-spent.md"
: >"$GITHUB_STEP_SUMMARY"
bash "$ci/step_summary.sh" "$work/timed" "Perf gate"
expect 0 "zeta's report|### Where the time went|Build: 1.0 s." "the time table is last in the summary, once" \
  bash -c "grep -E \"zeta's report|Where the time went|Build:\" '$GITHUB_STEP_SUMMARY' | paste -sd '|'"

bash "$ci/pr_comment_body.sh" --gate "$gate" "$fixtures" https://example.invalid/run/1 >"$work/comment.md"
expect 0 "" "the PR comment is exactly the reviewed one" diff -u "$fixtures/expected_comment.md" "$work/comment.md"
expect 0 "nothing was judged" "a run without reports says so in the comment" \
  bash "$ci/pr_comment_body.sh" --gate "$gate" "$work/baselines" https://example.invalid/run/1
expect 2 "is not an https address of a run" "a RUN_URL that is not an https address is refused" \
  bash "$ci/pr_comment_body.sh" --gate "$gate" "$fixtures" "https://x.invalid/run)[x](https://evil.example"
expect 0 "" "and no comment is written" bash -c "! bash '$ci/pr_comment_body.sh' --gate '$gate' '$fixtures' javascript:alert 2>/dev/null | grep -q ."
expect 2 "no perf_gate" "no perf_gate is an error" env PATH=/usr/bin:/bin bash "$ci/pr_comment_body.sh" "$fixtures" https://example.invalid/run/1
# post_pr_comment.sh updates only a comment of its own: anyone who can comment can write the marker.
marker='<!-- gpuperf-verdicts -->'
jq -n --arg m "$marker" '[
  {id: 11, user: {login: "mallory", type: "User"}, body: "\($m)\n### GPU perf verdicts\nall SAME, trust me"},
  {id: 12, user: {login: "github-actions[bot]", type: "Bot"}, body: "a comment of the bot without the marker"}]' \
  >"$work/comments.json"
post() { env GH_REPO=acme/gpu FAKE_GH_COMMENTS="$work/comments.json" FAKE_LOG="$work/comment-gh.log" "$@" bash "$ci/post_pr_comment.sh" 7 "$work/comment.md"; }
: >"$work/comment-gh.log"
expect 0 "created a comment on #7" "a marked comment by another user is left alone: a new one is posted" post
expect 1 "" "and that comment is never edited" grep -q 'PATCH' "$work/comment-gh.log"
jq --arg m "$marker" '. + [{id: 13, user: {login: "github-actions[bot]", type: "Bot"}, body: "\($m)\nold"}]' \
  "$work/comments.json" >"$work/comments2.json" && mv "$work/comments2.json" "$work/comments.json"
expect 0 "updated comment 13 on #7" "the workflow's own marked comment is updated" post
expect 0 "created a comment on #7" "COMMENT_AUTHOR names another token's account" post COMMENT_AUTHOR=perf-app[bot]
expect 2 "COMMENT_AUTHOR 'x\" or true' is not a GitHub login" "a login that could change the filter is refused" \
  post 'COMMENT_AUTHOR=x" or true'
# dispatch_report.sh (a dispatched run's check and comment) refuses what it would post wrongly.
report() { env GH_REPO=acme/gpu FAKE_LOG="$work/report-gh.log" "$@"; }
sha40=$(printf '0%.0s' {1..40})
expect 2 "SHA 'main' is not a full 40-character" "the status goes on a full commit SHA only" \
  report bash "$ci/dispatch_report.sh" main success https://github.invalid/r/1 "$work/comment.md"
expect 2 "RESULT 'passed' is not a job result" "the result is a job's result" \
  report bash "$ci/dispatch_report.sh" "$sha40" passed https://github.invalid/r/1 "$work/comment.md"
expect 2 "CHECK_NAME 'perf\` / result' is not a check name" "a check name is plain text" \
  report CHECK_NAME='perf` / result' bash "$ci/dispatch_report.sh" "$sha40" success https://github.invalid/r/1 "$work/comment.md"
expect 1 "" "nothing was posted for them" test -e "$work/report-gh.log"
: >"$work/empty-comment.md"
expect 0 "the status is on the commit, no comment was posted" \
  "a comment that could not be rendered leaves the status posted, alone" \
  report FAKE_GH_STATUSES="$work/report-statuses.jsonl" bash "$ci/dispatch_report.sh" "$sha40" failure \
  https://github.invalid/r/1 "$work/empty-comment.md"
expect 0 '"failure"' "the status posted is the run's" jq -c .state "$work/report-statuses.jsonl"
expect 1 "" "no comment was listed or posted" grep -q "pulls\|comments" "$work/report-gh.log"

expect 0 "2" "two GPUs make a resource spec of two" env FAKE_GPU_COUNT=2 bash "$ci/resource_spec.sh" "$work/spec.json"
expect 0 '{"id":"gpu_fake_1","slots":4}' "one gpus resource of 4 slots per GPU, named from its UUID as CTest allows" jq -c '.local[0].gpus[1]' "$work/spec.json"
expect 0 "1" "a runner pinned to one GPU offers only that one" \
  env FAKE_GPU_COUNT=2 CUDA_VISIBLE_DEVICES=GPU-fake-1 bash "$ci/resource_spec.sh" "$work/spec1.json"
expect 0 '["gpu_fake_1"]' "the pinned GPU is the one offered" jq -c '[.local[0].gpus[].id]' "$work/spec1.json"
# The real CTest with that spec: two GPU tests at once (-j 2) on two fake GPUs get one GPU each.
mkdir -p "$work/ctest"
cat >"$work/ctest/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(resource_groups NONE)
enable_testing()
foreach(t a b)
  add_test(NAME \${t} COMMAND bash $ci/with_ctest_gpu.sh bash -c "sleep 1; echo \\\$CUDA_VISIBLE_DEVICES > $work/ctest/\${t}.gpu")
  set_tests_properties(\${t} PROPERTIES RESOURCE_GROUPS gpus:1)
endforeach()
CMAKE
"$cmake" -S "$work/ctest" -B "$work/ctest/build" >/dev/null 2>&1
expect 0 "100% tests passed" "CTest accepts the spec and runs both tests" \
  "$ctest" --test-dir "$work/ctest/build" --resource-spec-file "$work/spec.json" -j 2
expect 0 "GPU-fake-0 GPU-fake-1" "each test saw a GPU of its own, by UUID" \
  bash -c "cat '$work/ctest/a.gpu' '$work/ctest/b.gpu' | sort | paste -sd ' '"
# The harness's own GPU tests take the host's GPUs without an option (cmake/KernelFamily.cmake): with CMake
# 3.28 or newer the gpuperf.gpus fixture lists them when ctest starts; with an older one the tests run one
# at a time, and configuring says so.
expect 0 "0" "a host without GPUs is one slot, \"none\", for the fixture" \
  env FAKE_GPU_COUNT=0 bash "$ci/resource_spec.sh" --or-none "$work/spec0.json"
expect 0 '["none"]' "whose id is none" jq -c '[.local[0].gpus[].id]' "$work/spec0.json"
expect 2 "nvidia-smi lists no GPU" "without --or-none no GPU is an error" \
  env FAKE_GPU_COUNT=0 bash "$ci/resource_spec.sh" "$work/spec0.json"
# shellcheck disable=SC2016  # the variable is expanded by the inner shell, after with_ctest_gpu.sh
expect 0 "unset" "the resource none leaves the GPU alone" env -u CUDA_VISIBLE_DEVICES \
  CTEST_RESOURCE_GROUP_0_GPUS=id:none,slots:1 bash "$ci/with_ctest_gpu.sh" bash -c 'echo "${CUDA_VISIBLE_DEVICES:-unset}"'
mkdir -p "$work/fixture"
cat >"$work/fixture/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(gpu_fixture NONE)
enable_testing()
set_property(GLOBAL PROPERTY GPUPERF_SCRIPTS_DIR "$here/..")
include("$here/../../cmake/KernelFamily.cmake")
gpuperf_gpu_test_properties(properties launcher)
foreach(t a b)
  add_test(NAME \${t} COMMAND \${launcher} bash -c "sleep 1; echo \\\$CUDA_VISIBLE_DEVICES > $work/fixture/\${t}.gpu")
  set_tests_properties(\${t} PROPERTIES \${properties})
endforeach()
CMAKE
"$cmake" -S "$work/fixture" -B "$work/fixture/build" >"$work/fixture/configure.log" 2>&1
if "$cmake" -P <(echo 'if(CMAKE_VERSION VERSION_LESS 3.28)
  message(FATAL_ERROR old)
endif()') >/dev/null 2>&1; then
  expect 0 "100% tests passed" "the fixture lists the GPUs and CTest runs both tests, no spec file given" \
    env FAKE_GPU_COUNT=2 "$ctest" --test-dir "$work/fixture/build" -j 2
  expect 0 "GPU-fake-0 GPU-fake-1" "each on a GPU of its own" \
    bash -c "cat '$work/fixture/a.gpu' '$work/fixture/b.gpu' | sort | paste -sd ' '"
else
  expect 0 "GPU tests run one at a time on one GPU: spreading them over the host's GPUs needs CMake 3.28" \
    "CMake older than 3.28: configuring says the GPU tests run one at a time, and why" cat "$work/fixture/configure.log"
  expect 0 '"RESOURCE_LOCK"' "and they hold one lock" \
    "$ctest" --test-dir "$work/fixture/build" --show-only=json-v1
fi
# Correctness tests share a GPU (SHARES_GPU: one of its 4 slots each); a perf test has it to itself. On one
# fake GPU with -j 3: the two sharing tests overlap, and the third overlaps neither (each records its start
# and end, 1 s apart).
mkdir -p "$work/shares"
cat >"$work/shares/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(gpu_shares NONE)
enable_testing()
set_property(GLOBAL PROPERTY GPUPERF_SCRIPTS_DIR "$here/..")
set(GPUPERF_GPU_RESOURCES ON)
include("$here/../../cmake/KernelFamily.cmake")
gpuperf_gpu_test_properties(whole launcher)
gpuperf_gpu_test_properties(shared launcher SHARES_GPU)
foreach(t check_a check_b time_c)
  add_test(NAME \${t} COMMAND bash -c "date +%s.%N >$work/shares/\${t}.span; sleep 1; date +%s.%N >>$work/shares/\${t}.span")
endforeach()
set_tests_properties(check_a check_b PROPERTIES \${shared})
set_tests_properties(time_c PROPERTIES \${whole})
CMAKE
"$cmake" -S "$work/shares" -B "$work/shares/build" >"$work/shares/configure.log" 2>&1
env FAKE_GPU_COUNT=1 bash "$ci/resource_spec.sh" "$work/shares/spec.json" >/dev/null
expect 0 "100% tests passed" "CTest runs the sharing and the whole-GPU tests on one GPU" \
  "$ctest" --test-dir "$work/shares/build" --resource-spec-file "$work/shares/spec.json" -j 3
overlap() {  # overlap <test> <test>: "yes" when their spans overlap
  cat "$work/shares/$1.span" "$work/shares/$2.span" | paste -sd " " |
    awk '{ print ($1 < $4 && $3 < $2) ? "yes" : "no" }'
}
expect 0 "yes no no" "two correctness tests share the GPU; the perf test has it to itself" \
  echo "$(overlap check_a check_b) $(overlap check_a time_c) $(overlap check_b time_c)"
expect 1 "GPUPERF_CORRECTNESS_PER_GPU is 'three': give 1, 2 or 4" "a share that is not 1, 2 or 4 is refused" \
  "$cmake" -S "$work/shares" -B "$work/shares/build3" -DGPUPERF_CORRECTNESS_PER_GPU=three
# shellcheck disable=SC2016  # the variable is expanded by the inner shell, after with_ctest_gpu.sh
expect 0 "GPU-fake-1" "CTest's allotted GPU becomes the only visible one" \
  env CTEST_RESOURCE_GROUP_0_GPUS=id:gpu_fake_1,slots:1 bash "$ci/with_ctest_gpu.sh" bash -c 'echo "$CUDA_VISIBLE_DEVICES"'
# shellcheck disable=SC2016  # as above
expect 0 "unset" "without resource groups the GPU is left alone" \
  env -u CUDA_VISIBLE_DEVICES -u CTEST_RESOURCE_GROUP_0_GPUS bash "$ci/with_ctest_gpu.sh" bash -c 'echo "${CUDA_VISIBLE_DEVICES:-unset}"'
# With GPUPERF_PHASES_DIR each GPU test writes its start and end there (a file of its own), its exit code kept.
phases="$work/phases"
expect 1 "" "a failing correctness test keeps its exit code" env GPUPERF_PHASES_DIR="$phases" \
  bash "$ci/with_ctest_gpu.sh" bash -c 'sleep 0.2; exit 1' --gtest_filter=reduction.* --gtest_brief=1
expect 77 "" "a skipped perf test keeps its exit code" env GPUPERF_PHASES_DIR="$phases" \
  bash "$ci/with_ctest_gpu.sh" bash -c 'exit 77' perf_test.sh --family matmul --out x
expect 0 "" "a shard of the families' perf test names its file as perf_gate run names the shard" \
  env GPUPERF_PHASES_DIR="$phases" bash "$ci/with_ctest_gpu.sh" true perf_gate run --shard 2/4 --out x
expect 0 "" "and the only shard" env GPUPERF_PHASES_DIR="$phases" bash "$ci/with_ctest_gpu.sh" true run --shard 1/1
expect 0 "correctness_test.reduction.json perf_test.families.json perf_test.families_2of4.json perf_test.matmul.json" \
  "each test wrote its phase file, and nothing else" bash -c "ls '$phases' | paste -sd ' '"
expect 0 "true" "the correctness test's file holds what and family, and its time" \
  jq -e '.schema_version == 1 and .what == "correctness_test" and .family == "reduction" and .end_epoch_s - .start_epoch_s >= 0.2' \
  "$phases/correctness_test.reduction.json"
expect 0 "" "without GPUPERF_PHASES_DIR nothing is written" \
  env -u GPUPERF_PHASES_DIR bash "$ci/with_ctest_gpu.sh" true --gtest_filter=other.*
expect 0 "" "a family that is no name writes no file (the test still runs)" env GPUPERF_PHASES_DIR="$phases" \
  bash "$ci/with_ctest_gpu.sh" true --gtest_filter='a"b.*'
expect 0 "4" "so the folder still holds four files" bash -c "ls '$phases' | wc -l"
expect 0 "| \`matmul\` |  | 0.0 |" "perf_gate phases tabulates them" "$gate" phases --dir "$phases"

# open_baseline_pr.sh takes from the record job's artifact only data it can name: the baseline of the
# GPU the record job ran on (GPU_SLUG, a GPU of the label's model), whose .gpu.slug is its file name,
# and the ncu profiles beside it whose .gpu_slug is theirs; anything else refuses the artifact. Each
# refusal happens before any git or gh command (the scratch repository's branch is unchanged).
mkdir -p "$work/repo/baselines" && echo '# baselines' >"$work/repo/baselines/README.md"
git -C "$work/repo" init -q -b main && git -C "$work/repo" add -A &&
  git -C "$work/repo" -c user.name=t -c user.email=t@t commit -qm base
in_repo() { (cd "$work/repo" && "$@"); }
open_pr() {  # open_pr <label> <gpu slug> [options]: the script on $work/artifact, in the scratch repository
  in_repo env GH_TOKEN=t GH_REPO=o/r GITHUB_RUN_ID=1 FAKE_LOG="$work/gh.log" FAKE_GH_PR_BODY="$work/pr_body.md" \
    bash "$ci/open_baseline_pr.sh" "$work/artifact" "$1" "$2" main "${@:3}"
}
artifact_with() {  # artifact_with <file name> <content> [<file name> <content> ...]
  rm -rf "$work/artifact" && mkdir -p "$work/artifact/baselines"
  while (($#)); do printf '%s' "$2" >"$work/artifact/baselines/$1"; shift 2; done
}
h200='{"gpu": {"slug": "nvidia-h200"}}' h100='{"gpu": {"slug": "nvidia-h100-80gb-hbm3"}}'
artifact_with nvidia-h200.json '{"gpu": {"slug": "nvidia-h100-80gb-hbm3"}}'
expect 2 "is not the baseline its name says" "a baseline named for another GPU is refused" open_pr h200 nvidia-h200
artifact_with nvidia-h200.json "$h200" nvidia-h200.ncu.json '{"schema_version": 1, "gpu_slug": "nvidia-h100-80gb-hbm3", "benchmarks": {}}'
expect 2 "is not the profiles file its name says" "profiles named for another GPU are refused" open_pr h200 nvidia-h200
artifact_with nvidia-h200.json "$h200" 'x.y.json' '{"gpu": {"slug": "x.y"}}'
expect 2 "the artifact holds $work/artifact/baselines/x.y.json, but the record job ran on GPU 'nvidia-h200' (label 'h200'): only baselines/nvidia-h200.json and baselines/nvidia-h200.ncu.json are taken" \
  "any other file name is refused, naming the two that are taken" open_pr h200 nvidia-h200
artifact_with nvidia-h200.json "$h200" nvidia-h100-80gb-hbm3.json "$h100"
expect 2 "only baselines/nvidia-h200.json and baselines/nvidia-h200.ncu.json are taken" \
  "a consistent baseline of another GPU beside the runner's is refused" open_pr h200 nvidia-h200
artifact_with nvidia-h100-80gb-hbm3.json "$h100"
expect 2 "the record job's GPU 'nvidia-h100-80gb-hbm3' is not a 'NVIDIA H200' (runner label 'h200')" \
  "a baseline of a GPU the label does not name is refused, whatever its file says" open_pr h200 nvidia-h100-80gb-hbm3
expect 2 "the artifact holds $work/artifact/baselines/nvidia-h100-80gb-hbm3.json, but the record job ran on GPU 'nvidia-h200'" \
  "the runner's GPU decides which file is taken" open_pr h200 nvidia-h200
artifact_with nvidia-h200.ncu.json '{"gpu_slug": "nvidia-h200"}'
expect 2 "the artifact holds no baselines/nvidia-h200.json" "profiles without their baseline are refused" open_pr h200 nvidia-h200
expect 2 "GPU_SLUG '../x' is not a GPU slug" "a slug that is not one is refused" open_pr h200 ../x
check_untouched() { [[ $(git -C "$work/repo" branch --show-current) == main && -z $(git -C "$work/repo" status --porcelain) && ! -e $work/gh.log ]]; }
expect 0 "" "no refusal touched the repository or called gh" check_untouched
# The log goes into the body in a fence longer than any backtick run in it: a line of three (or five)
# backticks in the log cannot close the block and turn the rest into Markdown.
artifact_with nvidia-h100-80gb-hbm3.json "$h100"
cp "$fixtures/record_log_with_fences.log" "$work/artifact/record.log"  # ``` and ````` lines, no final newline
expect 0 "" "a baseline of the label's model is taken and the pull request opened" open_pr h100 nvidia-h100-80gb-hbm3
expect 0 "" "the body fences the log with six backticks, closed after its last line" \
  diff -u "$fixtures/expected_baseline_pr_body.md" "$work/pr_body.md"
expect 0 "baselines/nvidia-h100-80gb-hbm3.json" "only the runner's GPU's baseline is committed" \
  git -C "$work/repo" show --stat --format= HEAD
# A project's own baseline folder and GPU table.
git -C "$work/repo" switch -q main
mkdir -p "$work/repo/perf/baselines" && touch "$work/repo/perf/baselines/.keep"
artifact_with nvidia-h200.json "$h200"
printf 'lab-h200\tNVIDIA H200\n' >"$work/gpus.tsv"
expect 2 "runner label 'lab-h200' is not in scripts/ci/gpu_models.tsv" "the harness's table knows no project label" \
  open_pr lab-h200 nvidia-h200
expect 0 "" "a project's label and folder" open_pr lab-h200 nvidia-h200 --gpu-models "$work/gpus.tsv" --baselines perf/baselines
expect 0 "perf/baselines/nvidia-h200.json" "the baseline is committed into the project's folder" \
  git -C "$work/repo" show --stat --format= HEAD
expect 2 "baselines must be a relative path" "the folder is inside the repository" \
  open_pr lab-h200 nvidia-h200 --gpu-models "$work/gpus.tsv" --baselines ../x

echo "$passed passed, $failed failed"
((failed == 0))
