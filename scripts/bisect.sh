#!/usr/bin/env bash
# Finds the commit that made one benchmark slower: `git bisect run` between a good and a bad commit, each
# step built (ccache where installed, as scripts/ci/build.sh does; only the benchmark's family; one build
# folder per commit under --work, reused) and judged on this GPU against the good commit's build with the
# A/B mode (scripts/ab_compare.sh on the one benchmark, interleaved processes: no stored baseline, so
# the answer holds whatever the baselines said at the time). A change point of the history (perf_gate
# history-changes) names the two ends; this names the commit between them.
# Only first-parent commits are visited (`git bisect start --first-parent`, git 2.29 or newer): from the
# bad end down its first parents, so the commits inside a merged branch are never checked out, built or
# run; a merge that brought a slowdown with its branch is named itself.
#
#   bisect.sh --good SHA --bad SHA --benchmark NAME [--repo DIR] [--work DIR] [--first-parent-of REF]
#             [--tolerance-pct X] [--gate PATH] [--source-dir DIR] [--preset P] [--cmake-args "..."] [--json FILE]
#
# --first-parent-of REF: both ends must lie on REF's first-parent chain (a CI job passes its default
# branch: then every commit bisected is one of the merges or pushes that branch took, reviewed code);
# else nothing is built.
# --repo: the git repository (default: the one the current folder is in). It is never checked out: the
# bisection runs in a scratch worktree under --work, beside the per-commit builds (builds/<commit>,
# reused by a later run with the same --work) and each step's A/B report (steps/<commit>/).
# --work: default a new private folder (mktemp -d under ${TMPDIR:-/tmp}), kept. A folder given must be
# this user's, writable by no one else, and hold nothing of another user's: else it is refused, as a
# build planted there would run as this user.
# --source-dir, --preset, --cmake-args: the CMake project inside the repository and how to configure it,
# as scripts/ci/build.sh takes them. --tolerance-pct: ab_compare.sh's (default its own).
# --gate: the perf_gate that runs and judges each step (perf_gate ab-run); by default ab_compare.sh's
# search, which takes the bisected commit's own build's where it has ab-run: give the harness's own when
# the range is older than ab-run.
# A step is bad when the benchmark is SLOW, good when SAME or FAST, skipped when its build fails or the
# benchmark is not judged (or stays AMBIGUOUS after ab_compare.sh's re-measuring). The two ends are
# compared first: when the bad end is not slower than the good one there is nothing to bisect.
# At the end: the first bad commit (hash, subject), its A/B line and the code lines the fingerprints
# give (what changed in the kernel's machine code); --json FILE writes them for a workflow: schema_version,
# outcome (found | not_slower), good_commit, bad_commit, first_parent (true: only first-parent commits
# were visited), first_parent_of (REF, or null), first_bad_commit, subject, benchmark, change_pct,
# ab_line, code[], steps[] (commit, subject, verdict, result, change_pct, in the order run).
# The builds use the harness's scripts of this checkout, whatever the bisected commits hold.
# Exit: 0 a first bad commit was found, 1 the bad end is not slower than the good end (nothing to
# bisect), 2 bad usage (an end off REF's first-parent chain too), a failed build of an end, the GPU gone
# or failing during the bisection (a step exits 128, which aborts git bisect run), or no single first
# bad commit (skipped commits around it: the candidates are printed), 77 no GPU at the start.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/lib/common.sh"
help_on_request "$@"

good="" bad="" benchmark="" repo="" work="" tolerance="" gate="" source_dir="."
preset="" cmake_args="" json="" first_parent_of=""
while (($#)); do
  case "$1" in
    --good) need_value "$@"; good=$2; shift 2 ;;
    --bad) need_value "$@"; bad=$2; shift 2 ;;
    --benchmark) need_value "$@"; benchmark=$2; shift 2 ;;
    --repo) need_value "$@"; repo=$2; shift 2 ;;
    --work) need_value "$@"; work=$2; shift 2 ;;
    --first-parent-of) need_value "$@"; first_parent_of=$2; shift 2 ;;
    --tolerance-pct) need_value "$@"; tolerance=$2; shift 2 ;;
    --gate) need_value "$@"; gate=$2; shift 2 ;;
    --source-dir) need_value "$@"; source_dir=$2; shift 2 ;;
    --preset) need_value "$@"; preset=$2; shift 2 ;;
    --cmake-args) need_value "$@"; cmake_args=$2; shift 2 ;;
    --json) need_value "$@"; json=$2; shift 2 ;;
    *) die "$EXIT_INVALID" "unknown argument '$1' (see the header of $0)" ;;
  esac
done
[[ -n $good && -n $bad && -n $benchmark ]] || die "$EXIT_INVALID" "--good, --bad and --benchmark are required (see the header of $0)"
[[ $benchmark =~ ^($GPUPERF_BENCHMARK_NAME_RULE)$ && ${#benchmark} -le $GPUPERF_MAX_BENCHMARK_NAME_LENGTH ]] ||
  die "$EXIT_INVALID" "--benchmark '$benchmark' is not a benchmark name (family/variant/shape, e.g. reduction/reduce7_many_elements_per_thread/n:268435456)"
[[ -z $tolerance || $tolerance =~ ^[0-9]+([.][0-9]+)?$ ]] || die "$EXIT_INVALID" "--tolerance-pct must be a number, not '$tolerance'"
need_tool git
need_tool jq
# `git bisect start --first-parent` came with git 2.29.
git_version=$(git --version | sed -nE 's/^git version ([0-9]+)\.([0-9]+).*/\1 \2/p')
read -r git_major git_minor <<<"${git_version:-0 0}"
((git_major > 2 || (git_major == 2 && git_minor >= 29))) ||
  die "$EXIT_INVALID" "$(git --version) cannot bisect first parents only (git 2.29 or newer can): install a newer git"
repo=$(git -C "${repo:-.}" rev-parse --show-toplevel 2>/dev/null) || die "$EXIT_INVALID" "--repo ${repo:-.} is not a git repository"
resolve() {  # resolve <option> <revision>: the full hash of a commit of the repository
  git -C "$repo" rev-parse --verify -q "$2^{commit}" ||
    die "$EXIT_INVALID" "$1 '$2' is not a commit of $repo (fetch the history first: fetch-depth: 0)"
}
# One assignment each: in `a=$(x) b=$(y)` the failure of x is lost, and a second, wrong error followed.
good=$(resolve --good "$good")
bad=$(resolve --bad "$bad")
[[ $good != "$bad" ]] || die "$EXIT_INVALID" "--good and --bad are the same commit"
git -C "$repo" merge-base --is-ancestor "$good" "$bad" ||
  die "$EXIT_INVALID" "--good ${good:0:12} is not an ancestor of --bad ${bad:0:12}: give the older commit as --good"
if [[ -n $first_parent_of ]]; then
  # Both ends on REF's first-parent chain: then so is every first parent between them, and nothing
  # else is visited. An end inside a merged branch (a fork's included) is refused before any checkout.
  chain_head=$(git -C "$repo" rev-parse --verify -q "$first_parent_of^{commit}") ||
    die "$EXIT_INVALID" "--first-parent-of '$first_parent_of' is not a commit of $repo"
  chain=$(git -C "$repo" rev-list --first-parent "$chain_head")
  for end in good bad; do
    grep -qxF "${!end}" <<<"$chain" ||
      die "$EXIT_INVALID" "--$end ${!end:0:12} is not a first-parent commit of $first_parent_of (it lies inside a merged branch, or off it): only the commits and merges $first_parent_of took are bisected; give the merge that brought it"
  done
fi
[[ -d $repo/$source_dir ]] || die "$EXIT_INVALID" "--source-dir $source_dir is no folder of $repo"
# The compiler cache of scripts/ci/build.sh, in the folder this was started from (a workflow's cache),
# not in the scratch worktree, which every step checks out anew. ccache is optional, as there.
export CCACHE_DIR=${CCACHE_DIR:-$PWD/.ccache}
if command -v ccache >/dev/null 2>&1; then
  note "the builds go through ccache (cache: $CCACHE_DIR)"
else
  note "ccache is not installed: the builds run without a compiler cache"
fi

if [[ -z $work ]]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/gpuperf-bisect.XXXXXX") || die "$EXIT_INVALID" "cannot create a work folder in ${TMPDIR:-/tmp}"
else
  [[ -e $work || -L $work ]] || mkdir -p -- "$(dirname -- "$work")"  # private_dir makes the folder itself, 0700
  [[ -d $work ]] && work=$(cd -P -- "$work" && pwd -P)  # a link to a folder is judged by that folder
fi
why=$(private_dir "$work") ||
  die "$EXIT_INVALID" "--work is not private: $why. Give a folder of your own that no one else can write (chmod go-w), or leave --work out for a new private one."
work=$(cd -P -- "$work" && pwd -P)
if foreign=$(find "$work" -mindepth 1 ! -uid "$(own_uid)" -print -quit) && [[ -n $foreign ]]; then
  die "$EXIT_INVALID" "--work $work holds $foreign, which another user (uid $(stat -c %u -- "$foreign")) owns: a build planted there would run as you. Remove it, or give another --work."
fi
note "work folder: $work"
tree="$work/src"
# A worktree a crashed run left behind is removed; the builds of earlier runs are kept.
git -C "$repo" worktree remove --force "$tree" >/dev/null 2>&1 || rm -rf "$tree"
git -C "$repo" worktree prune
git -C "$repo" worktree add -q --detach "$tree" "$good" || die "$EXIT_INVALID" "cannot add a scratch worktree at $tree"
# shellcheck disable=SC2317  # reached through the EXIT trap
cleanup() { git -C "$tree" bisect reset >/dev/null 2>&1 || true; git -C "$repo" worktree remove --force "$tree" >/dev/null 2>&1 || true; }
trap cleanup EXIT
rm -rf "$work/steps" "$work/steps.jsonl" "$work/abort.txt" "$work/bisect.rc" "$work/commits.txt"
mkdir -p "$work/steps"
: >"$work/steps.jsonl"

step=(bash "$here/ci/bisect_step.sh" --work "$work" --benchmark "$benchmark" --source-dir "$source_dir"
  --preset "$preset" --cmake-args "$cmake_args" --commits "$work/commits.txt")
[[ -n $tolerance ]] && step+=(--tolerance-pct "$tolerance")
if [[ -n $gate ]]; then
  [[ -x $gate ]] || die "$EXIT_INVALID" "--gate $gate is not an executable perf_gate"
  step+=(--gate "$(cd "$(dirname "$gate")" && pwd)/$(basename "$gate")")
fi

# ended: a step aborted, and with it the bisection: the GPU it started on is gone or failing, git bisect
# checked out a commit off the first-parent chain, or a build to reuse is another user's (neither run).
ended() {
  local reason
  reason=$(cat "$work/abort.txt" 2>/dev/null || echo "unknown (no $work/abort.txt)")
  [[ $reason == off-chain:* || $reason == not-ours:* ]] && die "$EXIT_INVALID" "the bisection stopped: ${reason#*: }"
  die "$EXIT_INVALID" "the bisection stopped, the GPU is failing: ${reason#*: }. Check the host (nvidia-smi), then run it again: the builds are kept in $work/builds."
}

# The commits a step may build: the first-parent chain from the bad end down to the good end
# (bisect_step.sh refuses any other, whatever git bisect checks out).
{ git -C "$repo" rev-list --first-parent "$good..$bad"; echo "$good"; } >"$work/commits.txt"
note "good ${good:0:12}, bad ${bad:0:12}: $(($(wc -l <"$work/commits.txt") - 1)) first-parent commits${first_parent_of:+ of $first_parent_of} (a merged branch's own commits are not visited), benchmark $benchmark"
good_bench=$(cd "$tree" && "${step[@]}" --build-only) || {
  [[ -s $work/abort.txt ]] && ended
  die "$EXIT_INVALID" "the good commit ${good:0:12} does not build (log: $work/builds/$good.log)"
}
gpu=$(gpu_info "$good_bench")  # exits 77 without a GPU
note "on $(jq -r .name <<<"$gpu")"
step+=(--good-bench "$good_bench")

# write_json <outcome> [first bad commit]
write_json() {
  [[ -n $json ]] || return 0
  local first=${2:-} line="" subject="" change="null" report
  if [[ -n $first ]]; then
    report="$work/steps/$first"
    line=$(head -n 1 "$report/ab_line.txt")
    subject=$(git -C "$repo" log -1 --format=%s "$first")
    change=$(jq -c --arg name "$benchmark" '[.benchmarks[] | select(.name == $name)][0].change_pct // null' "$report/ab.verdict.json")
  fi
  mkdir -p "$(dirname "$json")"
  jq -n --arg outcome "$1" --arg good "$good" --arg bad "$bad" --arg first "$first" --arg subject "$subject" \
    --arg first_parent_of "$first_parent_of" \
    --arg benchmark "$benchmark" --argjson change "$change" --arg line "$line" \
    --rawfile code <(if [[ -n $first ]]; then tail -n +2 "$work/steps/$first/ab_line.txt"; fi) \
    --slurpfile steps "$work/steps.jsonl" '
    {schema_version: 1, tool: "bisect.sh", outcome: $outcome, good_commit: $good, bad_commit: $bad, first_parent: true,
     first_parent_of: (if $first_parent_of == "" then null else $first_parent_of end),
     first_bad_commit: (if $first == "" then null else $first end), subject: $subject, benchmark: $benchmark,
     change_pct: $change, ab_line: $line, code: ($code | split("\n") | map(sub("^ +"; "")) | map(select(. != ""))),
     steps: $steps}' >"$work/bisect.json"
  # Built in the work folder, then replaced whole: a failed write leaves nothing beside $json.
  replace_file "$work/bisect.json" "$json" || die "$EXIT_INVALID" "cannot write $json"
}

# The bad end first: is it slower at all?
rc=0
(cd "$tree" && git checkout -q --detach "$bad" && "${step[@]}") || rc=$?
case $rc in
  1) ;;
  0)
    write_json not_slower
    echo "nothing to bisect: the bad end ${bad:0:12} is not slower than the good end ${good:0:12} on $benchmark:"
    sed 's/^/  /' "$work/steps/$bad/ab_line.txt"
    exit "$EXIT_REGRESSION" ;;
  125) die "$EXIT_INVALID" "the bad end ${bad:0:12} could not be judged (its build failed, or $benchmark was not judged or stayed AMBIGUOUS: $work/steps/$bad/)" ;;
  *) ended ;;
esac

# Everything to bisect.log; each step's line to stderr as well, as it comes.
(
  rc=0
  cd "$tree" && git bisect start --first-parent "$bad" "$good" >/dev/null && git bisect run "${step[@]}" || rc=$?
  echo "$rc" >"$work/bisect.rc"
) 2>&1 | tee "$work/bisect.log" | { grep --line-buffered '^\[bisect_step.sh\]' >&2 || true; }
rc=$(cat "$work/bisect.rc")
[[ -s $work/abort.txt ]] && ended
first=$(sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p' "$work/bisect.log" | head -n 1)
if [[ -z $first ]]; then
  if grep -q "only 'skip'ped commits left" "$work/bisect.log"; then
    echo "no single first bad commit: commits that could not be judged surround it; it is one of:"
    sed -n "/only 'skip'ped commits left/,\$p" "$work/bisect.log" | grep -E '^[0-9a-f]{40}$' |
      while read -r c; do echo "  ${c:0:12} $(git -C "$repo" log -1 --format=%s "$c")"; done
    die "$EXIT_INVALID" "the first bad commit is not unique (steps: $work/steps.jsonl)"
  fi
  tail -n 20 "$work/bisect.log" >&2
  die "$EXIT_INVALID" "git bisect run ended without a first bad commit (exit $rc; log: $work/bisect.log)"
fi
write_json found "$first"
echo "first bad commit: $first $(git -C "$repo" log -1 --format=%s "$first")"
sed 's/^/  /' "$work/steps/$first/ab_line.txt"
if git -C "$repo" rev-parse -q --verify "$first^2" >/dev/null; then
  echo "  a merge (first parents only were bisected): the slowdown came with the branch it merged, whose own commits were not bisected; to name one, bisect them on a machine where their code may run: --good $(git -C "$repo" merge-base "$first^1" "$first^2" | cut -c1-12) --bad $(git -C "$repo" rev-parse --short=12 "$first^2")"
fi
echo "steps: $(wc -l <"$work/steps.jsonl") judged or skipped; reports in $work/steps/"
exit "$EXIT_PASS"
