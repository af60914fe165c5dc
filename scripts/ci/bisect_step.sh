#!/usr/bin/env bash
# One step of scripts/bisect.sh, run by `git bisect run` in the bisection's scratch worktree (or by
# bisect.sh itself for the two ends): builds the commit checked out there, once (a build folder per
# commit under WORK, kept, so a commit measured twice is built once), then judges it against the good
# commit's build with scripts/ab_compare.sh on the one benchmark. Not meant to be run by hand.
#
#   bisect_step.sh --work WORK --benchmark NAME [--good-bench BENCH] [--build-only] [--tolerance-pct X] [--gate PATH]
#                  [--source-dir DIR] [--preset P] [--cmake-args "..."] [--commits FILE]
# --build-only: build, and print the build's benchmark binary (what later steps get as --good-bench).
# --commits FILE: the commits that may be built, one full hash a line (bisect.sh's first-parent chain);
# any other checked-out commit is neither built nor run: abort.
# Each judged step appends one JSON line to WORK/steps.jsonl (commit, subject, verdict, result,
# change_pct) and keeps ab_compare's output in WORK/steps/<commit>/.
# Exit (git bisect run's codes): 0 good (SAME or FAST), 1 bad (SLOW), 125 skip (the build failed, the
# benchmark was not judged or stayed AMBIGUOUS after re-measuring), 128 abort: the GPU is gone (the good
# build's benchmark binary no longer sees it), the commit is not in --commits, or its build folder holds
# another user's file, with the reason in WORK/abort.txt.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../lib/common.sh"
readonly STEP_GOOD=0 STEP_BAD=1 STEP_SKIP=125 STEP_ABORT=128

work="" benchmark="" good_bench="" build_only="" tolerance="" gate="" source_dir="." preset="" cmake_args="" commits=""
while (($#)); do
  case "$1" in
    --work) need_value "$@"; work=$2; shift 2 ;;
    --benchmark) need_value "$@"; benchmark=$2; shift 2 ;;
    --good-bench) need_value "$@"; good_bench=$2; shift 2 ;;
    --build-only) build_only=1; shift ;;
    --tolerance-pct) need_value "$@"; tolerance=$2; shift 2 ;;
    --gate) need_value "$@"; gate=$2; shift 2 ;;
    --source-dir) need_value "$@"; source_dir=$2; shift 2 ;;
    --preset) need_value "$@"; preset=$2; shift 2 ;;
    --cmake-args) need_value "$@"; cmake_args=$2; shift 2 ;;
    --commits) need_value "$@"; commits=$2; shift 2 ;;
    *) die "$EXIT_INVALID" "unknown argument '$1' (see the header of $0)" ;;
  esac
done
[[ -n $work && -n $benchmark ]] || die "$EXIT_INVALID" "--work and --benchmark are required"
[[ -n $build_only || -n $good_bench ]] || die "$EXIT_INVALID" "--good-bench is required to judge a step"
commit=$(git rev-parse HEAD)
subject=$(git log -1 --format=%s HEAD)
short=${commit:0:12}
if [[ -n $commits ]] && ! grep -qxF "$commit" "$commits"; then
  echo "off-chain: git bisect checked out $short ($subject), which is not a first-parent commit between the ends; it was not built" >"$work/abort.txt"
  note "$short: not a first-parent commit between the ends: not built"
  exit "$STEP_ABORT"
fi

# build: sets bench to this commit's benchmark binary, or returns 1 when the commit does not build.
# A build folder is reused only when it was finished with the same configuration and all of it is this
# user's; one that holds another user's file is neither run nor removed: abort.
build() {
  local dir="$work/builds/$commit" config args=() foreign
  read -ra args <<<"$cmake_args"
  config=$(printf '%s\n' "source-dir=$source_dir" "preset=$preset" "cmake-args=$cmake_args" "family=${benchmark%%/*}")
  if [[ -e $dir ]] && foreign=$(find "$dir" ! -uid "$(own_uid)" -print -quit) && [[ -n $foreign ]]; then
    echo "not-ours: the build of $short in $dir holds $foreign, which another user owns: it was not run. Remove $dir, or give another --work." >"$work/abort.txt"
    note "$short: its build holds another user's file ($foreign): not run"
    exit "$STEP_ABORT"
  fi
  if [[ -f $dir/.bisect-built && $(cat "$dir/.bisect-built") == "$config" ]]; then
    note "$short: reusing its build in $dir"
  else
    rm -rf "$dir"
    mkdir -p "$dir"
    note "$short: building ($subject)"
    # The CUDA architecture of the GPU this runs on, unless the caller's arguments say otherwise (they
    # come last); only the benchmark's family is built.
    if ! bash "$here/build.sh" "$PWD/$source_dir" "$dir" "$preset" -DCMAKE_CUDA_ARCHITECTURES=native \
      -DGPUPERF_ONLY_FAMILIES="${benchmark%%/*}" "${args[@]}" >"$work/builds/$commit.log" 2>&1; then
      note "$short: the build failed (log: $work/builds/$commit.log)"
      return 1
    fi
    echo "$config" >"$dir/.bisect-built"
  fi
  bench=$(bash "$here/ab_bench.sh" "$dir" "$work/programs/$commit") || return 1
}

record() {  # record <verdict> <result> [change_pct]: one line of WORK/steps.jsonl
  jq -nc --arg commit "$commit" --arg subject "$subject" --arg verdict "$1" --arg result "$2" \
    --argjson change "${3:-null}" '{commit: $commit, subject: $subject, verdict: $verdict, result: $result,
    change_pct: $change}' >>"$work/steps.jsonl"
}

# gpu_still_there: the good build's binary still sees a GPU; else WORK/abort.txt says why.
gpu_still_there() {
  local rc=0 info
  info=$("$good_bench" --gpu-info 2>&1) || rc=$?
  ((rc == 0)) && return 0
  if ((rc == EXIT_NOT_JUDGED)); then echo "no-gpu: the GPU is gone: $info" >"$work/abort.txt"
  else echo "infrastructure: '$good_bench --gpu-info' failed (exit $rc): $info" >"$work/abort.txt"; fi
  return 1
}

if [[ -n $build_only ]]; then
  build || exit "$EXIT_INVALID"
  echo "$bench"
  exit 0
fi
gpu_still_there || exit "$STEP_ABORT"
if ! build; then
  record BUILD_FAILED skip
  exit "$STEP_SKIP"
fi

out="$work/steps/$commit"
rm -rf "$out"
mkdir -p "$out"
tolerance_args=()
[[ -n $tolerance ]] && tolerance_args=(--tolerance-pct "$tolerance")
[[ -n $gate ]] && tolerance_args+=(--gate "$gate")  # the judge: bisect.sh's --gate, else ab_compare.sh's search
rc=0
bash "$here/../ab_compare.sh" --a "$good_bench" --b "$bench" --out "$out" --no-diagnosis \
  --filter "$(exact_filter <<<"$benchmark")" "${tolerance_args[@]}" >"$out/ab.out" 2>"$out/ab.err" || rc=$?
if ((rc != EXIT_PASS && rc != EXIT_REGRESSION)); then
  gpu_still_there || exit "$STEP_ABORT"
  note "$short: not judged (ab_compare.sh exit $rc; $out/ab.err)"
  tail -n 5 "$out/ab.err" >&2
  record NOT_JUDGED skip
  exit "$STEP_SKIP"
fi
verdict=$(jq -r --arg name "$benchmark" '[.benchmarks[] | select(.name == $name)][0].verdict // "MISSING"' "$out/ab.verdict.json")
change=$(jq -c --arg name "$benchmark" '[.benchmarks[] | select(.name == $name)][0].change_pct // null' "$out/ab.verdict.json")
# The gate's console line for the benchmark and the code lines below it (what the fingerprints name).
awk -v name="$benchmark" '
  found && /^ +code: / { print; next }
  found { exit }
  $1 ~ /^[A-Z_]+$/ && $2 == name { found = 1; print }' "$out/ab.out" >"$out/ab_line.txt"
case "$verdict" in
  SLOW) result=bad code=$STEP_BAD ;;
  SAME | FAST) result=good code=$STEP_GOOD ;;
  *) result=skip code=$STEP_SKIP ;;
esac
record "$verdict" "$result" "$change"
note "$short: $verdict -> $result ($subject)"
exit "$code"
