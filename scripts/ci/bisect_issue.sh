#!/usr/bin/env bash
# The body, in Markdown, of the issue the bisect workflow opens from scripts/bisect.sh's --json result:
# the first bad commit, its subject, the gate's A/B line and the code lines (what the fingerprints say
# changed), and the steps; or, when the bad end was not slower, that the slowdown did not reproduce.
# The result comes from a GPU job that built and ran the bisected commits: a commit is printed only as
# hex, numbers only as numbers, a benchmark name only when it keeps the names' rule (in a code span),
# and free text (a commit subject, the gate's lines) only inside a code block whose fence is longer
# than any run of backticks in it, so nothing in it can render, link or mention anyone. The rules are
# anchored with \A...\z: jq's ^...$ would also take a value that ends in a newline.
#
#   bisect_issue.sh RESULT_JSON GPU_LABEL RUN_URL > body.md
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
(($# == 3)) || die "$EXIT_INVALID" "usage: $0 RESULT_JSON GPU_LABEL RUN_URL"
result=$1 label=$2 run_url=$3
need_tool jq
jq -e '.schema_version == 1 and (.outcome == "found" or .outcome == "not_slower")' "$result" >/dev/null 2>&1 ||
  die "$EXIT_INVALID" "$result is not a result of scripts/bisect.sh --json"
bash "$(dirname "$0")/check_input.sh" label gpu "$label" >/dev/null

hex() { jq -r "$1 | if type == \"string\" and test(\"\\\\A[0-9a-f]{7,40}\\\\z\") then . else \"(not a commit)\" end" "$result"; }
# fenced <text>: the text in a code block no line of it can close.
fenced() {
  local longest fence
  longest=$(grep -o '`*' <<<"$1" | awk '{ if (length > n) n = length } END { print n + 0 }')
  fence=$(printf '%*s' $((longest < 3 ? 3 : longest + 1)) '' | tr ' ' '`')
  printf '%s\n%s\n%s\n' "$fence" "$1" "$fence"
}
benchmark=$(jq -r --arg rule "$GPUPERF_BENCHMARK_NAME_RULE" --argjson max_length "$GPUPERF_MAX_BENCHMARK_NAME_LENGTH" '
  .benchmark | if type == "string" and test("\\A(" + $rule + ")\\z") and length <= $max_length
  then "`\(.)`" else "(a name outside the allowed characters)" end' "$result")
good=$(hex .good_commit)
bad=$(hex .bad_commit)
echo "### Perf bisect: $benchmark on $label"
echo
if [[ $(jq -r .outcome "$result") == not_slower ]]; then
  echo "The bad end $bad is not slower than the good end $good in an A/B comparison on this GPU: the change"
  echo "point did not reproduce, so nothing was bisected. The comparison:"
  echo
  fenced "$(jq -r '.steps[0] | "\(.verdict | tostring) \(.change_pct | if type == "number" then . else "" end)"' "$result")"
else
  echo "First bad commit: $(hex .first_bad_commit) (bisected between $good and $bad)."
  if [[ $(jq -r '.first_parent == true' "$result") == true ]]; then
    echo "Only first-parent commits$(jq -r '.first_parent_of | if type == "string" and test("\\A[A-Za-z0-9][A-Za-z0-9._/-]{0,99}\\z")
      then " of `\(.)`" else "" end' "$result") were bisected (the merges and pushes it took): a merge named here brought the"
    echo "slowdown with its branch, whose own commits were not built."
  fi
  echo
  fenced "$(jq -r '[.subject, "", .ab_line] + (.code // []) | map(tostring) | join("\n")' "$result")"
  echo
  echo "| step | commit | verdict | result |"
  echo "|---:|---|---|---|"
  jq -r '.steps | to_entries[] | .key as $i | .value
    | "| \($i + 1) | \(.commit | if type == "string" and test("\\A[0-9a-f]{40}\\z") then .[0:12] else "?" end) | \(.verdict
       | if type == "string" and test("\\A[A-Z_]{1,20}\\z") then . else "?" end) | \(.result
       | if . == "good" or . == "bad" or . == "skip" then . else "?" end) |"' "$result"
fi
echo
echo "Run: $run_url"
