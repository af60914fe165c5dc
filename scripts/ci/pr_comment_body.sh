#!/usr/bin/env bash
# The pull-request comment, in Markdown, from the perf workflow's artifact: one line per gate report
# (GPU, family, compare or A/B, outcome, counts), then every benchmark that was not SAME. The first line is a
# hidden marker by which post_pr_comment.sh finds and updates its own comment instead of adding one.
# The artifact is data from a run of the branch's code: only fields read with jq reach the comment.
#
#   pr_comment_body.sh ARTIFACT_DIR RUN_URL > comment.md
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
(($# == 2)) || die "$EXIT_INVALID" "usage: $0 ARTIFACT_DIR RUN_URL"
need_tool jq
readonly MARKER='<!-- gpuperf-verdicts -->'
mapfile -t reports < <(find "$1" -name '*.verdict.json' -type f | sort)
echo "$MARKER"
echo "### GPU perf verdicts"
echo
if ((${#reports[@]} == 0)); then
  echo "No gate report in this run: nothing was judged. See [the run]($2)."
  exit 0
fi
jq -r -s --arg run "$2" '
  def cell: tostring | gsub("\\|"; "\\|") | gsub("[\r\n]"; " ");
  def pct: if . == null then "" else "\(if . > 0 then "+" else "" end)\(. * 10 | round / 10)%" end;
  "| GPU | family | mode | outcome | counts |", "|---|---|---|---|---|",
  (.[] | "| \(.gpu.name | cell) | \([.benchmarks[].name | split("/")[0]] | unique | join(", ") | cell) | \(.mode | cell) | \(.outcome | cell) | \(.counts | to_entries | map(select(.value > 0) | "\(.value) \(.key)") | join(", ") | cell) |"),
  "",
  ([.[] | .gpu.name as $gpu | .benchmarks[] | select(.verdict != "SAME") | . + {gpu: $gpu}]
   | if length == 0 then "Every benchmark: SAME."
     else "| verdict | benchmark | GPU | change [interval] | tolerance |", "|---|---|---|---:|---:|",
          (.[] | "| \(.verdict) | `\(.name | cell | gsub("`"; ""))` | \(.gpu | cell) | \(.change_pct | pct) [\(.ci_low_pct | pct), \(.ci_high_pct | pct)] | \(.tolerance_pct)% |")
     end),
  "", "Full reports: [the run](\($run)) (job summaries and the perf-results artifacts)."
' "${reports[@]}" || die "$EXIT_INVALID" "a report in $1 is not the gate's JSON"
