# shellcheck shell=bash
# Profiling one benchmark's kernels with Nsight Compute, shared by scripts/ncu_diagnose.sh (a SLOW verdict's
# diagnosis) and scripts/record_ncu.sh (the profiles kept beside a baseline), so that both sides of a
# stored-mode diagnosis are measured alike. Sourced after lib/common.sh.

# ncu_profile <ncu> <gate> <bench> <results with fingerprints> <benchmark> <csv>: one timed run's kernels
# of <benchmark>, chosen by its fingerprint, with the diagnosis's metric set; ncu's own messages in
# <csv>.log. The clocks are left as they are (--clock-control none): the timings were taken at the GPU's
# own clocks, and profiling never changes a GPU's settings. Exit non-zero when the fingerprint is missing
# or ncu fails.
ncu_profile() {
  local ncu=$1 gate=$2 bench=$3 results=$4 benchmark=$5 csv=$6 names launches
  names=$(jq -r --arg n "$benchmark" '.fingerprints[$n].kernels // [] | map(.mangled_name) | unique | .[]' "$results" |
    names_alternation)
  launches=$(jq -r --arg n "$benchmark" '[.fingerprints[$n].kernels // [] | .[].launches] | add // 0' "$results")
  [[ -n $names && $launches -gt 0 ]] || { echo "no fingerprint of $benchmark in $results" >"$csv.log"; return 1; }
  # The case's first run (set-up) launches exactly one timed run's kernels: --launch-count takes those.
  "$ncu" --clock-control none --csv --page raw --print-units base --kernel-name-base mangled \
    --kernel-name "regex:^($names)\$" --launch-count "$launches" --metrics "$("$gate" ncu-metrics)" \
    "$bench" --no-reference-check --no-fingerprint --benchmark_filter="$(exact_filter <<<"$benchmark")" \
    --benchmark_repetitions=1 >"$csv" 2>"$csv.log"
}

# ncu_failure <csv>: ncu's first error line about <csv>'s profile, for a one-line reason.
ncu_failure() {
  grep -h -m 1 -E "==ERROR==|ERR_|no fingerprint" "$1.log" "$1" 2>/dev/null | head -n 1 || true
}
