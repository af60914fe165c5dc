#!/usr/bin/env bash
# Which slowdown the bisect workflow bisects, on a hosted runner, as lines for $GITHUB_OUTPUT
# (found=true|false, good, bad, benchmark, title):
#   bisect_pick.sh changes CHANGES_JSON BISECTED_TITLES GPU_SLUG
#     the newest change point (by the date of its first slower point) of a slowdown (change_pct > 0) in
#     `perf_gate history-changes --json` (the series export, schema_version 1), whose title is not a line
#     of BISECTED_TITLES (the titles of the issues this workflow opened: how it remembers what it bisected);
#     found=false when every change point has been bisected.
#   bisect_pick.sh given GOOD BAD BENCHMARK GPU_SLUG
#     a dispatched bisection: the inputs, validated.
# The title, "Perf bisect: BENCHMARK on GPU_SLUG, GOOD..BAD" (12 hex digits each), names one change point.
# The store holds what runs wrote: a name or commit outside the rules is left out, never printed.
# Exit: 0, 2 invalid input.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# The name rules (scripts/lib/name_rules.sh) and the commit rule unanchored: bash anchors them with ^...$
# (the end of the string), jq with \A...\z, since jq's $ also matches before a final newline (Oniguruma's
# Perl rule), and a name that ends in one would split a $GITHUB_OUTPUT line.
readonly COMMIT_RULE='[0-9a-f]{7,40}'
readonly SLUG_RULE="^($GPUPERF_GPU_SLUG_RULE)\$"
usage="usage: $0 changes CHANGES_JSON BISECTED_TITLES GPU_SLUG | given GOOD BAD BENCHMARK GPU_SLUG"
need_tool jq
title() { echo "Perf bisect: $3 on $4, ${1:0:12}..${2:0:12}"; }
case "${1:-}" in
  given)
    (($# == 5)) || die "$EXIT_INVALID" "$usage"
    bash "$(dirname "$0")/check_input.sh" sha good "$2"
    bash "$(dirname "$0")/check_input.sh" sha bad "$3"
    [[ $4 =~ ^($GPUPERF_BENCHMARK_NAME_RULE)$ && ${#4} -le $GPUPERF_MAX_BENCHMARK_NAME_LENGTH ]] || { echo "::error title=invalid input::benchmark must be a benchmark name, family/variant/shape"; die "$EXIT_INVALID" "benchmark '$4' is not a benchmark name"; }
    [[ $5 =~ $SLUG_RULE ]] || die "$EXIT_INVALID" "GPU slug '$5' is not a GPU slug"
    printf 'found=true\ngood=%s\nbad=%s\nbenchmark=%s\ntitle=%s\n' "$2" "$3" "$4" "$(title "$2" "$3" "$4" "$5")" ;;
  changes)
    (($# == 4)) || die "$EXIT_INVALID" "$usage"
    [[ -f $2 ]] || die "$EXIT_INVALID" "no change file $2 (perf_gate history-changes --json)"
    [[ -f $3 ]] || die "$EXIT_INVALID" "no list of bisected titles $3"
    [[ $4 =~ $SLUG_RULE ]] || die "$EXIT_INVALID" "GPU slug '$4' is not a GPU slug"
    jq -e '.schema_version == 1 and (.series | type == "array")' "$2" >/dev/null 2>&1 ||
      die "$EXIT_INVALID" "$2 is not a series export of schema_version 1"
    pick=$(jq -c --rawfile bisected "$3" --arg slug "$4" --arg name "\\A($GPUPERF_BENCHMARK_NAME_RULE)\\z" \
      --argjson max_name_length "$GPUPERF_MAX_BENCHMARK_NAME_LENGTH" --arg commit "\\A($COMMIT_RULE)\\z" '
      ($bisected | split("\n")) as $titles
      | [.series[] | select((.benchmark | type) == "string" and (.benchmark | test($name)) and (.benchmark | length) <= $max_name_length)
         | .benchmark as $benchmark | (.points // []) as $points
         | (.change_points // [])[]
         | select((.change_pct | type) == "number" and .change_pct > 0)
         | select((.good_commit | type) == "string" and (.good_commit | test($commit)))
         | select((.bad_commit | type) == "string" and (.bad_commit | test($commit)))
         | {benchmark: $benchmark, good: .good_commit, bad: .bad_commit,
            date: (if (.index | type) == "number" then ($points[.index].date // "") else "" end)}
         | . + {title: "Perf bisect: \(.benchmark) on \($slug), \(.good[0:12])..\(.bad[0:12])"}
         | select(.title as $t | $titles | index([$t]) | not)]
      | sort_by(.date) | last // empty' "$2")
    if [[ -z $pick ]]; then
      printf 'found=false\ngood=\nbad=\nbenchmark=\ntitle=\n'  # every output, empty
      exit 0
    fi
    jq -r '"found=true", "good=\(.good)", "bad=\(.bad)", "benchmark=\(.benchmark)", "title=\(.title)"' <<<"$pick" ;;
  *) die "$EXIT_INVALID" "$usage" ;;
esac
