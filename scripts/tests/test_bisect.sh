#!/usr/bin/env bash
# Tests of scripts/bisect.sh on a machine without a GPU: a scratch repository of 8 commits whose
# benchmark fake/long/n:2 is 10% slower from commit c5 on, built by a stand-in cmake
# (fake_bisect_cmake.sh: the benchmark binary is fake_bench.sh, shaped by each commit's files) through the
# real scripts/ci/build.sh, judged by the real ab_compare.sh and perf_gate.
#   test_bisect.sh PERF_GATE
set -uo pipefail
(($# == 1)) || { echo "usage: $0 PERF_GATE" >&2; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/tools" "$work/ccache-bin"
ln -s "$here/fake_bisect_cmake.sh" "$work/bin/cmake"
# ccache is optional (scripts/ci/build.sh uses it where installed): the tests run with every command of
# PATH but ccache (links in $work/tools), and one bisection with a stand-in ccache that logs its calls.
IFS=: read -ra path_dirs <<<"$PATH"
for dir in "${path_dirs[@]}"; do
  [[ -d $dir ]] && ln -s "$dir"/* "$work/tools/" 2>/dev/null  # the first of a name wins, as on PATH
done
rm -f "$work/tools/ccache"
printf '#!/usr/bin/env bash\necho "ccache $*" >>%q\n' "$work/ccache.log" >"$work/ccache-bin/ccache"
chmod +x "$work/ccache-bin/ccache"
FAKE_PERF_GATE=$(realpath "$1")
export PATH="$work/bin:$work/tools" FAKE_PERF_GATE FAKE_LOG="$work/cmake.log" TMPDIR=$work
with_ccache="$work/bin:$work/ccache-bin:$work/tools"
export GPUPERF_LIBRARY_PROBE=skip  # install_deps.sh: the stand-in cmake configures nothing to probe
export CCACHE_DIR="$work/ccache"
failed=0
other_uid=$(($(id -u) == 65534 ? 65533 : 65534))  # "another user": chown to it as root, else assume it

# make_repo <dir> <commit whose build fails, or ""> : c1..c8, slower from c5 on.
make_repo() {
  mkdir -p "$1"
  (
    cd "$1" && git init -q -b main
    for i in 1 2 3 4 5 6 7 8; do
      if ((i >= 5)); then echo 10 >slowdown_pct; else echo 0 >slowdown_pct; fi
      rm -f build_fails
      [[ c$i == "$2" ]] && echo broken >build_fails
      echo "$i" >n
      git add -A && git -c user.name=t -c user.email=t@t commit -qm "c$i"
    done
  )
}
sha() { git -C "$1" log --format=%H --grep="^$2\$"; }

# expect <exit> <text> <description> <bisect.sh args...>
expect() {
  local want=$1 text=$2 what=$3 rc=0
  shift 3
  bash "$here/../bisect.sh" "$@" >"$work/log" 2>&1 || rc=$?
  if ((rc == want)) && grep -q -- "$text" "$work/log"; then return; fi
  failed=1
  echo "FAIL: $what: exit $rc (want $want), output should contain '$text':"
  sed 's/^/    /' "$work/log"
}
check() {  # check <description> <command...>
  "${@:2}" >/dev/null 2>&1 || { failed=1; echo "FAIL: $1"; }
}

repo="$work/repo"
make_repo "$repo" ""
c1=$(sha "$repo" c1) c4=$(sha "$repo" c4) c5=$(sha "$repo" c5) c8=$(sha "$repo" c8)
bench=fake/long/n:2
PATH=$with_ccache expect 0 "^first bad commit: $c5 c5\$" "the commit that made the benchmark slower is named" \
  --repo "$repo" --good "$c1" --bad "$c8" --benchmark "$bench" --work "$work/w" --json "$work/result.json"
check "its A/B line and the code lines follow" \
  bash -c "grep -q '^  SLOW  *fake/long/n:2 .* +10.0%' '$work/log' && grep -q '^  *code: long_kernel: SASS changed' '$work/log'"
# shellcheck disable=SC2016  # $c5, $c1 are jq's
check "the JSON names the commit, its subject, the benchmark, the change and the steps" jq -e --arg c5 "$c5" --arg c1 "$c1" '
  .outcome == "found" and .first_bad_commit == $c5 and .subject == "c5" and .benchmark == "fake/long/n:2"
  and .good_commit == $c1 and (.change_pct | . > 9.9 and . < 10.1) and (.ab_line | startswith("SLOW"))
  and .code[0] == "code: long_kernel: SASS changed"
  and ([.steps[] | select(.commit == $c5)][0] | .verdict == "SLOW" and .result == "bad")
  and ([.steps[].subject] | index("c8") == 0) and all(.steps[]; .result == "bad" or .result == "good")' "$work/result.json"
check "only the benchmark's family is built" grep -q -- "-DGPUPERF_ONLY_FAMILIES=fake" "$FAKE_LOG"
check "with ccache on PATH, the builds go through it" bash -c "grep -q 'the builds go through ccache' '$work/log' &&
  test \"\$(grep -c -- '^cmake -S .*-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache' '$FAKE_LOG')\" = \"\$(grep -c -- '^cmake -S' '$FAKE_LOG')\" &&
  grep -q '^ccache --show-stats' '$work/ccache.log'"
check "the caller's checkout is left as it was" bash -c \
  "test \"\$(git -C '$repo' rev-parse HEAD)\" = $c8 && test \"\$(git -C '$repo' worktree list | wc -l)\" = 1 && test -z \"\$(git -C '$repo' status --porcelain)\""
builds=$(grep -c -- "--build" "$FAKE_LOG")
expect 0 "^first bad commit: $c5" "a second bisection of the range finds it again" \
  --repo "$repo" --good "$c1" --bad "$c8" --benchmark "$bench" --work "$work/w"
check "and builds nothing again ($builds builds the first time)" test "$(grep -c -- "--build" "$FAKE_LOG")" = "$builds"
# --gate: every step judged by the perf_gate given, not the bisected builds' own (older commits' may
# predate ab-run).
printf '#!/usr/bin/env bash\necho "$*" >>%q\nexec %q "$@"\n' "$work/given-gate.log" "$FAKE_PERF_GATE" >"$work/given-gate"
chmod +x "$work/given-gate"
expect 0 "^first bad commit: $c5" "a bisection judged by the gate given finds it too" \
  --repo "$repo" --good "$c1" --bad "$c8" --benchmark "$bench" --work "$work/w" --gate "$work/given-gate"
check "each step ran the given gate's ab-run" bash -c "test \"\$(grep -c '^ab-run ' '$work/given-gate.log')\" -ge 3"
expect 2 "--gate $work/nosuch is not an executable perf_gate" "a --gate that is no program" \
  --repo "$repo" --good "$c1" --bad "$c8" --benchmark "$bench" --gate "$work/nosuch"

# Work folders are private: another user's build is never run. A planted build (c1's, with its marker,
# whose binary leaves a mark when run) where the work folder used to be by default:
planted() {  # planted <folder>: a copy of c1's build whose benchmark binary leaves $work/planted-ran
  mkdir -p "$1/builds"
  cp -r "$work/w/builds/$c1" "$1/builds/$c1"
  printf '#!/usr/bin/env bash\ntouch %q\n' "$work/planted-ran" | cat - "$1/builds/$c1/perf_tests/gpuperf_bench" \
    >"$1/planted" && mv "$1/planted" "$1/builds/$c1/perf_tests/gpuperf_bench" && chmod +x "$1/builds/$c1/perf_tests/gpuperf_bench"
}
planted "$work/gpuperf-bisect"
expect 1 "nothing to bisect" "without --work, a range without a slowdown" --repo "$repo" --good "$c1" --bad "$c4" --benchmark "$bench"
default_work=$(sed -n 's/^\[bisect.sh\] work folder: //p' "$work/log")
check "without --work, a new folder of its own is used (mode 700), not the planted build" bash -c "
  [[ '$default_work' == '$work'/gpuperf-bisect.* ]] && test \"\$(stat -c '%u %a' '$default_work')\" = '$(id -u) 700' &&
  test -d '$default_work/builds/$c1' && test ! -e '$work/planted-ran'"
mkdir -m 0777 "$work/open"
chmod 0777 "$work/open"  # whatever the umask
expect 2 "--work is not private: $work/open is writable by group or others (mode 777)" "a work folder others can write is refused" \
  --repo "$repo" --good "$c1" --bad "$c8" --benchmark "$bench" --work "$work/open"
check "before anything is built in it" test ! -e "$work/open/builds"
mkdir -m 0700 "$work/theirs"
GPUPERF_ASSUME_UID=$other_uid expect 2 "--work is not private: $work/theirs belongs to another user (uid $(id -u))" \
  "another user's work folder is refused" --repo "$repo" --good "$c1" --bad "$c8" --benchmark "$bench" --work "$work/theirs"
ln -s "$work/theirs" "$work/link-to-theirs"
GPUPERF_ASSUME_UID=$other_uid expect 2 "--work is not private: $work/theirs belongs to another user" \
  "so is a link to it" --repo "$repo" --good "$c1" --bad "$c8" --benchmark "$bench" --work "$work/link-to-theirs"
# Another user's build inside a private work folder (made with chown, so as root only).
if (($(id -u) == 0)); then
  mkdir -m 0700 "$work/mine"
  planted "$work/mine"
  chown -R "$other_uid" "$work/mine/builds/$c1"
  expect 2 "--work $work/mine holds $work/mine/builds/$c1.*, which another user (uid $other_uid) owns" \
    "a work folder that holds another user's build is refused" --repo "$repo" --good "$c1" --bad "$c8" --benchmark "$bench" \
    --work "$work/mine"
  (cd "$repo" && git checkout -q --detach "$c1" &&
    bash "$here/../ci/bisect_step.sh" --work "$work/mine" --benchmark "$bench" --build-only) >"$work/log" 2>&1
  step_rc=$?
  git -C "$repo" checkout -q main
  check "bisect_step.sh reuses no build that holds another user's file" bash -c "
    test $step_rc = 128 && grep -q '^not-ours: the build of ${c1:0:12} in $work/mine/builds/$c1 holds' '$work/mine/abort.txt'"
  check "the planted binary never ran" test ! -e "$work/planted-ran"
else
  echo "(another user's build in a work folder: tested as root only, which can chown)"
fi

# The issue body (scripts/ci/bisect_issue.sh): a subject that tries to close the code block stays inside
# a longer fence; a benchmark name outside the rule is not printed.
# shellcheck disable=SC2016  # the backticks are the subject's
jq '.subject = "```\n@org/team <img src=x> [link](http://x)" | .benchmark = "x/`@y`"' "$work/result.json" >"$work/poisoned.json"
bash "$here/../ci/bisect_issue.sh" "$work/poisoned.json" h200 https://github.invalid/run >"$work/body.md" 2>&1
check "a poisoned subject stays inside a fence longer than its backticks" bash -c \
  "test \"\$(grep -c '^\`\`\`\`\$' '$work/body.md')\" = 2 && ! grep -q '@y' '$work/body.md' &&
   awk '/^\`\`\`\`\$/ { inside = !inside; next } !inside && /@org|<img/ { bad = 1 } END { exit bad }' '$work/body.md'"

# A name or commit that ends in a newline keeps no rule (jq's ^...$ took it: it split the issue's heading
# and bisect_pick.sh's $GITHUB_OUTPUT lines).
jq '.benchmark += "\n" | .first_bad_commit += "\n" | .steps[0].commit += "\n" | .steps[0].verdict += "\n"' \
  "$work/result.json" >"$work/newlines.json"
bash "$here/../ci/bisect_issue.sh" "$work/newlines.json" h200 https://github.invalid/run >"$work/body.md" 2>&1
check "the issue drops a name, a commit and a verdict that end in a newline" bash -c "
  grep -qx '### Perf bisect: (a name outside the allowed characters) on h200' '$work/body.md' &&
  grep -q '^First bad commit: (not a commit) ' '$work/body.md' && grep -qx '| 1 | ? | ? | bad |' '$work/body.md'"
changes_ending_in() {  # changes_ending_in <text>: change points whose name or a commit ends in the text
  jq -n --arg c1 "$c1" --arg c5 "$c5" --arg tail "$1" '{schema_version: 1, series: [
    {benchmark: "fake/long/n:2\($tail)", points: [], change_points: [{index: 0, good_commit: $c1, bad_commit: $c5, change_pct: 10}]},
    {benchmark: "fake/long/n:3", points: [], change_points: [{index: 0, good_commit: ($c1 + $tail), bad_commit: $c5, change_pct: 10},
                                                             {index: 0, good_commit: $c1, bad_commit: ($c5 + $tail), change_pct: 10}]}]}'
}
: >"$work/no-titles.txt"
changes_ending_in "" >"$work/newline-changes.json"
check "bisect_pick.sh picks those change points without the newline" bash -c "
  bash '$here/../ci/bisect_pick.sh' changes '$work/newline-changes.json' '$work/no-titles.txt' nvidia-h200 | grep -qx found=true"
changes_ending_in $'\n' >"$work/newline-changes.json"
check "and none whose name or commit ends in a newline" bash -c "
  bash '$here/../ci/bisect_pick.sh' changes '$work/newline-changes.json' '$work/no-titles.txt' nvidia-h200 >'$work/pick.txt' &&
  test \"\$(cat '$work/pick.txt')\" = \"\$(printf 'found=false\ngood=\nbad=\nbenchmark=\ntitle=')\""
check "nor a dispatched benchmark that ends in one" bash -c "
  ! bash '$here/../ci/bisect_pick.sh' given '$c1' '$c5' \$'fake/long/n:2\n' nvidia-h200 >'$work/pick.txt' 2>&1 &&
  grep -q 'is not a benchmark name' '$work/pick.txt' && ! grep -q '^found=true' '$work/pick.txt'"

# A commit that does not build is skipped; the answer stands where its neighbours decide it.
# Without ccache (this bisection's PATH has none), the builds run uncached, and say so.
make_repo "$work/broken6" c6
FAKE_LOG="$work/cmake-uncached.log" expect 0 "^first bad commit: $(sha "$work/broken6" c5) c5\$" "a commit whose build fails is skipped" \
  --repo "$work/broken6" --good "$(sha "$work/broken6" c1)" --bad "$(sha "$work/broken6" c8)" --benchmark "$bench" \
  --work "$work/w6" --json "$work/broken6.json"
check "without ccache, the builds run uncached and say so" bash -c "grep -q 'ccache is not installed: the builds run without a compiler cache' '$work/log' &&
  grep -q '^cmake -S' '$work/cmake-uncached.log' && ! grep -q 'LAUNCHER' '$work/cmake-uncached.log' &&
  grep -q 'ccache is not installed: building without a compiler cache' '$work'/w6/builds/*.log"
check "the JSON lists it as skipped" jq -e '[.steps[] | select(.subject == "c6")][0] | .verdict == "BUILD_FAILED" and .result == "skip"' \
  "$work/broken6.json"
make_repo "$work/broken5" c5
expect 2 "no single first bad commit" "the first bad commit next to an unbuildable one is not guessed" \
  --repo "$work/broken5" --good "$(sha "$work/broken5" c1)" --bad "$(sha "$work/broken5" c8)" --benchmark "$bench" --work "$work/w5"
check "both candidates are named" bash -c "grep -q '^  [0-9a-f]\{12\} c5$' '$work/log' && grep -q '^  [0-9a-f]\{12\} c6$' '$work/log'"

# A merged side branch whose first commit carries a payload (removed again by its second, which is the
# slower one): m1 m2 [s1 s2] m3=merge m4. Only first parents are bisected: the merge is named, and the
# branch's own commits are never checked out, built or run.
side="$work/merged"
mkdir -p "$side"
(
  cd "$side" && git init -q -b main
  commit() { git add -A && git -c user.name=t -c user.email=t@t commit -qm "$1"; }
  echo 0 >slowdown_pct && echo m1 >n && commit m1
  echo m2 >n && commit m2
  git switch -q -c side
  echo "payload of s1 ran" >payload && commit s1
  rm payload && echo 10 >slowdown_pct && commit s2
  git switch -q main
  git -c user.name=t -c user.email=t@t merge -q --no-ff -m m3 side
  echo m4 >n && commit m4
)
m1=$(sha "$side" m1) m3=$(sha "$side" m3) m4=$(sha "$side" m4) s1=$(sha "$side" s1) s2=$(sha "$side" s2)
FAKE_PAYLOAD_LOG="$work/payload.log" expect 0 "^first bad commit: $m3 m3\$" "a slowdown merged with a branch names the merge" \
  --repo "$side" --good "$m1" --bad "$m4" --benchmark "$bench" --work "$work/wm" --first-parent-of main --json "$work/merged.json"
cp "$work/log" "$work/merged.log"
check "the side branch's commits were never checked out or built, its payload never ran" bash -c "
  test ! -s '$work/payload.log' && ! grep -q -e '$s1' -e '$s2' '$work/wm/bisect.log' '$work/wm/steps.jsonl' &&
  test ! -e '$work/wm/builds/$s1' -a ! -e '$work/wm/builds/$s2'"
check "the output says that first parents only were bisected, and how to look inside the merge" bash -c "
  grep -q '3 first-parent commits of main' '$work/merged.log' &&
  grep -q -- 'a merge (first parents only were bisected).*--bad ${s2:0:12}' '$work/merged.log'"
# shellcheck disable=SC2016  # $m3 is jq's
check "so does the JSON" jq -e --arg m3 "$m3" '.first_parent == true and .first_parent_of == "main" and .first_bad_commit == $m3' \
  "$work/merged.json"
bash "$here/../ci/bisect_issue.sh" "$work/merged.json" h200 https://github.invalid/run >"$work/body.md" 2>&1
# shellcheck disable=SC2016  # the backticks are Markdown's
check "the issue says that first parents of main only were bisected" \
  grep -q '^Only first-parent commits of `main` were bisected' "$work/body.md"
jq '.first_parent_of = "main`\n@org"' "$work/merged.json" >"$work/poisoned.json"
bash "$here/../ci/bisect_issue.sh" "$work/poisoned.json" h200 https://github.invalid/run >"$work/body.md" 2>&1
check "but names no branch outside the rule" bash -c "grep -q '^Only first-parent commits were bisected' '$work/body.md' && ! grep -q '@org' '$work/body.md'"
expect 2 "--good ${s1:0:12} is not a first-parent commit of main" "an end inside the merged branch is refused" \
  --repo "$side" --good "$s1" --bad "$m4" --benchmark "$bench" --work "$work/wm2" --first-parent-of main
expect 2 "--bad ${s2:0:12} is not a first-parent commit of main" "either end" \
  --repo "$side" --good "$m1" --bad "$s2" --benchmark "$bench" --work "$work/wm2" --first-parent-of main
check "before anything is built" test ! -e "$work/wm2/builds"
expect 2 "--first-parent-of 'nosuch' is not a commit" "an unknown --first-parent-of" \
  --repo "$side" --good "$m1" --bad "$m4" --benchmark "$bench" --first-parent-of nosuch
# A step that git bisect checks out off the chain is neither built nor run (whatever git does).
(cd "$side" && git checkout -q --detach "$s1" &&
  bash "$here/../ci/bisect_step.sh" --work "$work/wm" --benchmark "$bench" --build-only --commits "$work/wm/commits.txt") \
  >"$work/log" 2>&1
check "bisect_step.sh refuses a commit off the first-parent chain" bash -c "
  grep -q 'not a first-parent commit between the ends: not built' '$work/log' && test ! -s '$work/payload.log' && test ! -e '$work/wm/builds/$s1'"
git -C "$side" checkout -q main

# Nothing to bisect: the bad end is as fast as the good end.
expect 1 "nothing to bisect: the bad end ${c4:0:12} is not slower" "a range without a slowdown is said so" \
  --repo "$repo" --good "$c1" --bad "$c4" --benchmark "$bench" --work "$work/w" --json "$work/same.json"
check "its JSON says so" jq -e '.outcome == "not_slower" and .first_bad_commit == null and .steps[0].verdict == "SAME"' "$work/same.json"

# The GPU: none at the start (77); gone in the middle (the bisection stops, 2).
FAKE_GPU=none expect 77 "SKIPPED: no CUDA device" "no GPU: nothing judged" \
  --repo "$repo" --good "$c1" --bad "$c8" --benchmark "$bench" --work "$work/w"
FAKE_GPU_GONE="$work/gpu-gone" FAKE_GPU_GONE_AT=c4 expect 2 "the bisection stopped, the GPU is failing: the GPU is gone" \
  "a GPU lost during the bisection stops it" --repo "$repo" --good "$c1" --bad "$c8" --benchmark "$bench" --work "$work/wg"

# Bad usage.
expect 2 "--good, --bad and --benchmark are required" "no benchmark" --repo "$repo" --good "$c1" --bad "$c8"
expect 2 "--good 'nosuch' is not a commit" "an unknown commit" --repo "$repo" --good nosuch --bad "$c8" --benchmark "$bench"
check "an unknown --good prints that one error, nothing after it" bash -c "test \"\$(grep -c . '$work/log')\" = 1"
expect 2 "--bad 'nosuch' is not a commit" "an unknown bad commit" --repo "$repo" --good "$c1" --bad nosuch --benchmark "$bench"
check "an unknown --bad prints that one error, nothing after it" bash -c "test \"\$(grep -c . '$work/log')\" = 1"
expect 2 "is not an ancestor of --bad" "the ends swapped" --repo "$repo" --good "$c8" --bad "$c1" --benchmark "$bench"
# shellcheck disable=SC2016  # the backticks are the name's
expect 2 "is not a benchmark name" "a benchmark name outside the rule" --repo "$repo" --good "$c1" --bad "$c8" --benchmark 'x/`y`'
expect 2 "unknown argument '--fast'" "an unknown option" --fast
expect 2 "is not a git repository" "not a repository" --repo "$work/bin" --good "$c1" --bad "$c8" --benchmark "$bench"

((failed == 0)) && echo "bisect.sh: all checks passed"
exit "$failed"
