#!/usr/bin/env bash
# One GitHub annotation per benchmark the gate did not pass, from its JSON reports
# (<dir>/<family>.verdict.json, ab.verdict.json), as `perf_gate annotations` renders them
# (perf_tests/gate/reports/annotations.h): SLOW, ERROR and MISSING become ::error:: naming the benchmark;
# NOT_JUDGED, AMBIGUOUS and PLATFORM (the baseline's own code beyond its tolerance: the machine, driver or
# harness moved) ::warning::, never ::error::. The annotations show on the run's page and in the pull
# request, next to the failing job.
# The reports come from a run of the branch's code: the gate reads them with its one reader, which refuses
# a report with a name outside the rule of baselines/README.md ("Names") or a verdict not of its set (that
# report is one ::error:: saying it was refused, and exit 2), and escapes the free text, so that no field
# can end the annotation or start a workflow command.
#
#   annotate_verdicts.sh [--gate PATH] RESULTS_DIR
# --gate: the perf_gate that renders them (the build's: scripts/ci/build_program.sh BUILD_DIR gate); by
# default the one installed with these scripts (<prefix>/bin/perf_gate), else perf_gate on PATH.
# Exit: 0 (the gate's own exit code decides the job), 2 no report, a refused one, or no perf_gate.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../lib/common.sh"
help_on_request "$@"
gate=""
if (($# >= 1)) && [[ $1 == --gate ]]; then
  need_value "$@"
  gate=$2
  shift 2
fi
(($# == 1)) || die "$EXIT_INVALID" "usage: $0 [--gate PATH] RESULTS_DIR"
gate=$(ci_gate "$gate" "the build's perf_gate")
shopt -s nullglob
reports=("$1"/*.verdict.json)
((${#reports[@]})) || die "$EXIT_INVALID" "no *.verdict.json in $1: the gate wrote no report"
"$gate" annotations --report "${reports[@]}" || die "$EXIT_INVALID" "not every report in $1 could be annotated (see above)"
