#!/usr/bin/env bash
# The fleet report of a GPU job, for people: every variant's time, throughput, % of this GPU's ceiling
# and speedup, from BUILD_DIR/perf-results/*.run*.json, into BUILD_DIR/fleet-report/fleet.md and the job
# summary. A table that cannot be written is a warning, never what fails the job (the verdicts do that).
#
#   fleet_report.sh BUILD_DIR     (exit 0 always, but for a usage error)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
(($# == 1)) || die "$EXIT_INVALID" "usage: $0 BUILD_DIR"
here="$(dirname "${BASH_SOURCE[0]}")"
build=$1 out="$1/fleet-report"
mkdir -p "$out"
shopt -s nullglob
results=("$build"/perf-results/*.run*.json)
if ((${#results[@]} == 0)); then
  echo "::warning title=Fleet report::no results in $build/perf-results to tabulate"
elif bench=$(bash "$here/build_program.sh" "$build" bench) && gate=$(bash "$here/build_program.sh" "$build" gate) &&
  "$bench" --list-cases >"$out/cases.json" &&
  "$gate" report --cases "$out/cases.json" --results "${results[@]}" --markdown "$out/fleet.md"; then
  bash "$here/step_summary.sh" "$out"
else
  echo "::warning title=Fleet report::not written (see this step's log)"
fi
exit 0
