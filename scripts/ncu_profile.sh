#!/usr/bin/env bash
# One Nsight Compute pass over benchmarks' profiler windows: the one place that knows ncu's command line,
# run by perf_gate (the diagnosis of a SLOW verdict, perf_tests/gate/driver/ncu_diagnosis.h) and by
# scripts/record_ncu.sh (the profiles kept beside a baseline, through lib/ncu.sh), so that both sides of
# a diagnosis measure the same window the same way.
#
#   ncu_profile.sh --ncu NCU --metrics LIST --bench BENCH --out PREFIX -- BENCHMARK...
#
# LIST: the metrics, comma-separated (perf_gate ncu-metrics). BENCH runs each BENCHMARK's profiler window
# in turn (gpuperf_bench --profiler-window: set-up, warm-up and L2 flush outside the range, the kernels of
# one timed sample inside); ncu (--profile-from-start off) profiles those launches alone. The clocks are
# left as they are (--clock-control none): the timings were taken at the GPU's own clocks, and profiling
# never changes a GPU's settings. Writes PREFIX.csv (ncu's raw page), PREFIX.order (the bench's order of
# windows) and PREFIX.log (ncu's and the bench's messages); the rows are split into each benchmark's
# profile, checked against its fingerprint, by perf_gate (ncu-store, or the diagnosis in-process).
# Exit: 0 the bench opened its windows (ncu's exit status is the bench's: a benchmark that could not be set
# up leaves the others' rows), 1 ncu ended before the bench opened a window (the reason last in
# PREFIX.log), 2 bad usage.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"

ncu="" metrics="" bench="" out=""
while (($#)); do
  case "$1" in
    --ncu) need_value "$@"; ncu=$2; shift 2 ;;
    --metrics) need_value "$@"; metrics=$2; shift 2 ;;
    --bench) need_value "$@"; bench=$2; shift 2 ;;
    --out) need_value "$@"; out=$2; shift 2 ;;
    --) shift; break ;;
    *) die "$EXIT_INVALID" "unknown argument '$1' (see the header of $0)" ;;
  esac
done
[[ -n $ncu && -n $metrics && -n $bench && -n $out ]] || die "$EXIT_INVALID" "--ncu, --metrics, --bench and --out are required"
(($# > 0)) || die "$EXIT_INVALID" "no benchmark to profile: name them after --"

filter=$(printf '%s\n' "$@" | exact_filter)
rm -f "$out.order"
rc=0
"$ncu" --profile-from-start off --clock-control none --csv --page raw --print-units base \
  --print-kernel-base mangled --metrics "$metrics" \
  "$bench" --profiler-window --profiler-window-order="$out.order" --benchmark_filter="$filter" \
  >"$out.csv" 2>"$out.log" || rc=$?
if [[ ! -f $out.order ]]; then
  echo "ncu ended (exit $rc) before the bench opened a profiler window" >>"$out.log"
  exit 1
fi
