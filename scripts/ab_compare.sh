#!/usr/bin/env bash
# A/B mode: compares two builds (say main and a pull request) on this GPU in one job, with no stored
# baseline, their processes interleaved. The procedure is `perf_gate ab-run` now
# (perf_tests/gate/driver/ab_run.h: rounds A B / B A, round 1 checking, re-measurement rounds, the
# ledger, the Nsight Compute hook). This wrapper is kept for one release, for callers of the script; it
# will then go. It finds a perf_gate and passes every option on:
#
#   ab_compare.sh --a BENCH_A --b BENCH_B --out DIR [--rounds N] [--repetitions N] [--filter REGEX]
#                 [--tolerance-pct X] [--max-remeasure N] [--lock-wait SECONDS] [--no-reference-check]
#                 [--no-diagnosis] [--same-code-ledger FILE] [--gate PATH]
#
# What each option does: perf_gate --help, its ab-run command. --gate: the perf_gate that runs and judges;
# by default build B's (<folder of BENCH_B>/gate/perf_gate, this repository's build) where it has ab-run,
# else the one installed with these scripts (<prefix>/bin/perf_gate), else perf_gate on PATH. No gate need
# sit beside a build: a project's builds are judged by the installed one.
# Exit: 0 no regression, 1 regression, 2 invalid input or failure, 77 not judged.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/lib/common.sh"
help_on_request "$@"

gate="" bench_b="" args=()
while (($#)); do
  case "$1" in
    --gate) need_value "$@"; gate=$2; shift 2 ;;
    --b) need_value "$@"; bench_b=$2; args+=("$1" "$2"); shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
# (Its usage read whole: grep -q would end the pipe early, and pipefail would count the gate's SIGPIPE.)
has_ab_run() { [[ -x $1 && $("$1" --help 2>/dev/null) == *"perf_gate ab-run"* ]]; }
if [[ -z $gate ]]; then
  for candidate in ${bench_b:+"$(dirname "$bench_b")/gate/perf_gate"} "$here/../../../bin/perf_gate" \
    "$(command -v perf_gate || true)"; do
    if [[ -n $candidate ]] && has_ab_run "$candidate"; then gate=$candidate; break; fi
  done
  [[ -n $gate ]] ||
    die "$EXIT_INVALID" "no perf_gate with ab-run found (beside ${bench_b:-BENCH_B}, installed with these scripts," \
      "or on PATH): give --gate PATH"
fi
exec "$gate" ab-run "${args[@]}"
