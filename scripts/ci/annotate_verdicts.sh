#!/usr/bin/env bash
# One GitHub annotation per benchmark the gate did not pass, from its JSON reports
# (<dir>/<family>.verdict.json, ab.verdict.json; fields from perf_tests/gate/report_json.cpp):
# SLOW, ERROR and MISSING become ::error:: naming the benchmark, NOT_JUDGED and AMBIGUOUS ::warning::.
# The annotations show on the run's page and in the pull request, next to the failing job.
#
#   annotate_verdicts.sh RESULTS_DIR
# Exit: 0 (the gate's own exit code decides the job), 2 no report or an unreadable one.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
(($# == 1)) || die "$EXIT_INVALID" "usage: $0 RESULTS_DIR"
need_tool jq
shopt -s nullglob
reports=("$1"/*.verdict.json)
((${#reports[@]})) || die "$EXIT_INVALID" "no *.verdict.json in $1: the gate wrote no report"
for report in "${reports[@]}"; do
  jq -r --arg file "$(basename "$report")" '
    # Workflow commands: % CR LF are escaped in the message, and also : , in a property (the title).
    def msg: gsub("%"; "%25") | gsub("\r"; "%0D") | gsub("\n"; "%0A");
    def prop: msg | gsub(":"; "%3A") | gsub(","; "%2C");
    def pct: if . == null then "n/a" else "\(if . > 0 then "+" else "" end)\(. * 10 | round / 10)%" end;
    .gpu.name as $gpu
    | .benchmarks[]
    | (if .verdict == "SLOW" or .verdict == "ERROR" or .verdict == "MISSING" then "error"
       elif .verdict == "NOT_JUDGED" or .verdict == "AMBIGUOUS" then "warning" else empty end) as $level
    | "::\($level) title=\("\(.verdict) \(.name)" | prop)::\("\(.name) on \($gpu): \(.verdict), change \(.change_pct | pct) (tolerance \(.tolerance_pct)%)\(if (.reason // "") != "" then ": " + .reason else "" end) [\($file)]" | msg)"
  ' "$report" || die "$EXIT_INVALID" "cannot read $report"
done
