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
# The artifact comes from a run of the branch's code, so every field is untrusted: a name is printed only
# when it keeps the rule of baselines/README.md ("Names", the gate's formats/names.h), inside a code span;
# a verdict, mode or outcome only from the gate's own set; numbers only as numbers. Anything else is
# replaced by a placeholder, never printed.
jq -r -s --arg run "$2" --arg benchmark_name_rule "$GPUPERF_BENCHMARK_NAME_RULE" \
  --argjson max_benchmark_name_length "$GPUPERF_MAX_BENCHMARK_NAME_LENGTH" --arg gpu_name_rule "$GPUPERF_GPU_NAME_RULE" '
  def verdicts: ["SAME", "SLOW", "FAST", "AMBIGUOUS", "NEW", "MISSING", "PLATFORM", "NOT_JUDGED", "ERROR",
    "UNCHANGED"];
  def benchmark_name: type == "string" and length <= $max_benchmark_name_length
    and test("\\A(" + $benchmark_name_rule + ")\\z");
  def gpu_name: type == "string" and test("\\A(" + $gpu_name_rule + ")\\z");
  def name_cell: if benchmark_name then "`\(.)`" else "(a name outside the allowed characters)" end;
  def gpu_cell: if gpu_name then . else "(a GPU name outside the allowed characters)" end;
  def verdict_cell: if type == "string" and (. as $v | verdicts | index([$v])) then . else "(unknown verdict)" end;
  def mode_cell: if . == "compare" or . == "ab" then . else "(unknown mode)" end;
  def outcome_cell: if type == "string" and test("\\A(PASS|FAIL|INVALID|NOT JUDGED)(: [a-z0-9 ,()-]+)?\\z")
    then . else "(unknown outcome)" end;
  def number: type == "number" and isinfinite == false and isnan == false;
  def pct: "\(if . > 0 then "+" else "" end)\(. * 10 | round / 10)%";
  def counts_cell: if type == "object" then to_entries
      | map(select((.key as $k | verdicts | index([$k])) and (.value | number) and .value > 0) | "\(.value) \(.key)")
      | join(", ") else "" end;
  # A verdict without a change (MISSING, NEW, ERROR, NOT_JUDGED, UNCHANGED) says why instead of an interval.
  def change_cell($mode): if (.change_pct | number) then
      (.change_pct | pct) + (if (.ci_low_pct | number) and (.ci_high_pct | number)
                             then " [\(.ci_low_pct | pct), \(.ci_high_pct | pct)]" else "" end)
    elif .verdict == "MISSING" then (if $mode == "ab" then "only in A" else "baseline only" end)
    elif .verdict == "NEW" then (if $mode == "ab" then "only in B" else "not in the baseline" end)
    elif .verdict == "ERROR" then "error in the benchmark"
    elif .verdict == "NOT_JUDGED" then "not judged"
    elif .verdict == "UNCHANGED" then "not re-timed"
    else "" end;
  def tolerance_cell: if (.change_pct | number) and (.tolerance_pct | number) then "\(.tolerance_pct * 10 | round / 10)%"
    else "" end;
  "| GPU | family | mode | outcome | counts |", "|---|---|---|---|---|",
  (.[] | "| \(.gpu.name | gpu_cell) | \([.benchmarks[].name | select(benchmark_name) | split("/")[0]] | unique | join(", ")) | \(.mode | mode_cell) | \(.outcome | outcome_cell) | \(.counts | counts_cell) |"),
  "",
  ([.[] | .gpu.name as $gpu | .mode as $mode | .benchmarks[] | select(.verdict != "SAME") | . + {gpu: $gpu, report_mode: $mode}]
   | if length == 0 then "Every benchmark: SAME."
     else "| verdict | benchmark | GPU | change [interval] | tolerance |", "|---|---|---|---:|---:|",
          (.[] | "| \(.verdict | verdict_cell) | \(.name | name_cell) | \(.gpu | gpu_cell) | \(change_cell(.report_mode)) | \(tolerance_cell) |")
     end),
  "", "Full reports: [the run](\($run)) (job summaries and the perf-results artifacts)."
' "${reports[@]}" || die "$EXIT_INVALID" "a report in $1 is not the gate's JSON"
