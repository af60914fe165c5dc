#!/usr/bin/env bash
# One GitHub annotation per benchmark the gate did not pass, from its JSON reports
# (<dir>/<family>.verdict.json, ab.verdict.json; fields from perf_tests/gate/reports/json.cpp):
# SLOW, ERROR and MISSING become ::error:: naming the benchmark; NOT_JUDGED, AMBIGUOUS and PLATFORM (the
# baseline's own code beyond its tolerance: the machine, driver or harness moved) ::warning::, never ::error::.
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
# The reports come from a run of the branch's code: a name or GPU name is printed only when it keeps the
# rule of baselines/README.md ("Names"), a verdict only from the gate's set, numbers only as numbers, and the
# free text (the reason) escaped, so that no field can end the annotation or start a workflow command.
for report in "${reports[@]}"; do
  jq -r --arg file "$(basename "$report")" --arg benchmark_name_rule "$GPUPERF_BENCHMARK_NAME_RULE" \
    --argjson max_benchmark_name_length "$GPUPERF_MAX_BENCHMARK_NAME_LENGTH" --arg gpu_name_rule "$GPUPERF_GPU_NAME_RULE" '
    # Workflow commands: % CR LF are escaped in the message, and also : , in a property (the title), as
    # GitHub documents; any other control character is written \xNN, as the gate writes it.
    def hex2: [(. / 16 | floor), (. % 16)] | map("0123456789abcdef"[.:. + 1]) | add;
    def msg: gsub("%"; "%25") | gsub("\r"; "%0D") | gsub("\n"; "%0A")
      | [explode[] | if . < 32 or (. >= 127 and . < 160) then "\\x" + hex2 else [.] | implode end] | add // "";
    def prop: msg | gsub(":"; "%3A") | gsub(","; "%2C");
    def number: type == "number" and isinfinite == false and isnan == false;
    def pct: if number then "\(if . > 0 then "+" else "" end)\(. * 10 | round / 10)%" else "n/a" end;
    def benchmark_name: type == "string" and length <= $max_benchmark_name_length
      and test("\\A(" + $benchmark_name_rule + ")\\z");
    def gpu_name: type == "string" and test("\\A(" + $gpu_name_rule + ")\\z");
    (if .gpu.name | gpu_name then .gpu.name else "(a GPU name outside the allowed characters)" end) as $gpu
    | .benchmarks[]
    | (if .verdict == "SLOW" or .verdict == "ERROR" or .verdict == "MISSING" then "error"
       elif .verdict == "NOT_JUDGED" or .verdict == "AMBIGUOUS" or .verdict == "PLATFORM" then "warning"
       else empty end) as $level
    | (if .name | benchmark_name then .name else "(a name outside the allowed characters)" end) as $name
    | (if .reason | type == "string" then .reason else "" end) as $reason
    | "::\($level) title=\("\(.verdict) \($name)" | prop)::\("\($name) on \($gpu): \(.verdict), change \(.change_pct | pct) (tolerance \(.tolerance_pct | pct | ltrimstr("+")))\(if $reason != "" then ": " + $reason else "" end) [\($file)]" | msg)"
  ' "$report" || die "$EXIT_INVALID" "cannot read $report"
done
