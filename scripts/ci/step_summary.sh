#!/usr/bin/env bash
# Appends the gate's Markdown reports (<dir>/*.md) to the job summary ($GITHUB_STEP_SUMMARY), so the
# verdict table is on the run's page; says so when there is none, rather than leaving it empty. The time
# table, <dir>/time-spent.md (perf_gate phases, written by gpu_tests.sh), comes last.
#
#   step_summary.sh RESULTS_DIR [TITLE]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
(($# == 1 || $# == 2)) || die "$EXIT_INVALID" "usage: $0 RESULTS_DIR [TITLE]"
[[ -n ${GITHUB_STEP_SUMMARY:-} ]] || die "$EXIT_INVALID" "GITHUB_STEP_SUMMARY is not set (not in GitHub Actions?)"
shopt -s nullglob
reports=() time_table="$1/time-spent.md"
for report in "$1"/*.md; do [[ $report == "$time_table" ]] || reports+=("$report"); done
{
  [[ -n ${2:-} ]] && echo "## $2" && echo
  if ((${#reports[@]} == 0)); then
    echo "No gate report in \`$1\`: nothing was judged (see the job log)."
  else
    # The gate escapes what it read (baselines/README.md, "Names"); a control character that still
    # reaches a report is dropped here rather than written to the job summary.
    for report in "${reports[@]}"; do LC_ALL=C tr -d '\000-\010\013-\037\177' <"$report"; echo; done
  fi
  if [[ -f $time_table ]]; then LC_ALL=C tr -d '\000-\010\013-\037\177' <"$time_table"; echo; fi
} >>"$GITHUB_STEP_SUMMARY"
