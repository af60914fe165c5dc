#!/usr/bin/env bash
# A/B mode: compares two builds (say main and a pull request) on this GPU in one job, with no stored
# baseline. Their runs are interleaved (A B A B ...), so drift in clocks or temperature hits both
# alike, and the verdict comes from the paired per-round ratios. Benchmarks whose verdict is AMBIGUOUS
# get --rounds more rounds of their own (at most --max-remeasure times, default 4) before the final verdict.
# Rounds, not samples, narrow the interval: each process lands at its own offset (for a 14 us kernel on
# an H200, process medians had a standard deviation of 0.44%, 20-sample medians within one process
# 0.16-0.19%), so a small slowdown of a short kernel needs up to 30 rounds; only AMBIGUOUS ones pay.
#
#   ab_compare.sh --a BENCH_A --b BENCH_B --out DIR [--rounds N] [--repetitions N] [--filter REGEX]
#                 [--tolerance-pct X] [--max-remeasure N] [--no-reference-check] [--no-diagnosis]
#                 [--same-code-ledger FILE]
#
# --no-reference-check: round 1 only times too, for builds whose correctness tests already passed on
# this GPU (see scripts/perf_test.sh).
# On a regression, scripts/ncu_diagnose.sh profiles the 3 slowest SLOW benchmarks in both builds with
# Nsight Compute and appends the metric tables to ab.md (skipped with the reason where ncu cannot run);
# --no-diagnosis leaves it out. --same-code-ledger: as in scripts/perf_test.sh, for the benchmarks whose
# code is the same in both builds.
# BENCH_A/B are the two builds' perf_tests/gpuperf_bench; the gate of build B judges.
# Exit: 0 no regression, 1 regression, 2 invalid input or failure, 77 not judged.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/remeasure.sh"

bench_a="" bench_b="" out="" rounds=6 repetitions=20 filter="." tolerance=1.0
max_remeasure=4 lock_wait=1800 check_first=1 diagnosis=1 ledger=""
while (($#)); do
  case "$1" in
    --a) need_value "$@"; bench_a=$2; shift 2 ;;
    --b) need_value "$@"; bench_b=$2; shift 2 ;;
    --out) need_value "$@"; out=$2; shift 2 ;;
    --rounds) need_value "$@"; rounds=$2; shift 2 ;;
    --repetitions) need_value "$@"; repetitions=$2; shift 2 ;;
    --filter) need_value "$@"; filter=$2; shift 2 ;;
    --tolerance-pct) need_value "$@"; tolerance=$2; shift 2 ;;
    --max-remeasure) need_value "$@"; max_remeasure=$2; shift 2 ;;
    --lock-wait) need_value "$@"; lock_wait=$2; shift 2 ;;
    --no-reference-check) check_first=""; shift ;;
    --no-diagnosis) diagnosis=""; shift ;;
    --same-code-ledger) need_value "$@"; ledger=$2; shift 2 ;;
    *) die "$EXIT_INVALID" "unknown argument '$1' (see the header of $0)" ;;
  esac
done
[[ -n $bench_a && -n $bench_b && -n $out ]] || die "$EXIT_INVALID" "--a, --b and --out are required"
gate="$(dirname "$bench_b")/gate/perf_gate"
[[ -x $gate ]] || die "$EXIT_INVALID" "no perf_gate next to $bench_b (expected $gate)"
need_tool jq

gpu=$(gpu_info "$bench_b")
lock_gpu "$(jq -r .uuid <<<"$gpu")" "$lock_wait"
mkdir -p "$out"
rm -f "$out"/a.round*.json "$out"/b.round*.json

run_arm() {  # run_arm <a|b> <bench> <round> <filter> [time filter]
  local json="$out/$1.round$3.json" rc=0 check=() timed=()
  # Round 1 checks every case of both builds against its reference; later rounds only time.
  (($3 > 1)) || [[ -z $check_first ]] && check=(--no-reference-check)
  [[ -n ${5:-} ]] && timed=(--time-filter="$5")
  "$2" "${check[@]}" --benchmark_filter="$4" "${timed[@]}" --benchmark_repetitions="$repetitions" \
    --benchmark_out="$json" --benchmark_out_format=json >"$out/$1.round$3.log" 2>&1 || rc=$?
  ((rc == 0)) || { tail -n 20 "$out/$1.round$3.log" >&2; die "$EXIT_INVALID" "build $1 failed in round $3 (exit $rc)"; }
}

a_runs=() b_runs=() round=0
measure() {  # measure <rounds> <filter> [time filter]
  local last=$((round + $1))
  while ((round < last)); do
    round=$((round + 1))
    note "round $round"
    # Alternate which build goes first, so neither always runs on a GPU the other just warmed.
    if ((round % 2)); then run_arm a "$bench_a" "$round" "$2" "${3:-}"; run_arm b "$bench_b" "$round" "$2" "${3:-}"
    else run_arm b "$bench_b" "$round" "$2" "${3:-}"; run_arm a "$bench_a" "$round" "$2" "${3:-}"; fi
    a_runs+=("$out/a.round$round.json") b_runs+=("$out/b.round$round.json")
  done
}

# shellcheck disable=SC2317  # reached through remeasure_loop
judge() {  # judge: every round so far; sets verdict
  verdict=0
  "$gate" ab --a "${a_runs[@]}" --b "${b_runs[@]}" --tolerance-pct "$tolerance" --looks $((max_remeasure + 1)) \
    --markdown "$out/ab.md" --json "$out/ab.verdict.json" --remeasure-list "$out/ab.remeasure.txt" || verdict=$?
}

# shellcheck disable=SC2317  # reached through remeasure_loop
still_ambiguous() {  # the gate judged, and listed benchmarks to re-measure
  ((verdict != EXIT_INVALID)) && [[ -s $out/ab.remeasure.txt ]]
}
# Re-measurement rounds time the ambiguous benchmarks and set up the first rounds' other cases in their
# turn (gpuperf_bench --time-filter; scripts/perf_test.sh says why). A build from before that flag (an
# older commit under scripts/bisect.sh) times them alone, and then so does the other build: both arms
# alike.
time_filter_support=""
# shellcheck disable=SC2317  # reached through remeasure_loop
supports_time_filter() {  # supports_time_filter <bench>: lists nothing, or refuses the unknown flag
  "$1" --no-reference-check --time-filter='^$' --benchmark_list_tests=true >/dev/null 2>&1
}
# shellcheck disable=SC2317  # reached through remeasure_loop
measure_ambiguous() {  # measure_ambiguous <attempt>
  local ambiguous
  ambiguous=$(exact_filter <"$out/ab.remeasure.txt")
  note "re-measuring $(wc -l <"$out/ab.remeasure.txt") ambiguous benchmark(s) in $rounds more rounds, attempt $1 of $max_remeasure"
  if [[ -z $time_filter_support ]]; then
    time_filter_support=yes
    if ! supports_time_filter "$bench_a" || ! supports_time_filter "$bench_b"; then
      time_filter_support=no
      note "a build has no --time-filter (older than the harness's): both time the ambiguous benchmarks alone"
    fi
  fi
  if [[ $time_filter_support == yes ]]; then measure "$rounds" "$filter" "$ambiguous"; else measure "$rounds" "$ambiguous"; fi
}
measure "$rounds" "$filter"
remeasure_loop "$max_remeasure" judge still_ambiguous measure_ambiguous
if [[ -n $ledger ]] && ((verdict != EXIT_INVALID)); then
  "$gate" ledger --ledger "$ledger" --report "$out/ab.verdict.json" --markdown "$out/ab.md" ||
    note "the same-code ledger $ledger was not updated (the verdict stands)"
fi
if ((verdict == EXIT_REGRESSION)) && [[ -n $diagnosis ]]; then
  "$(dirname "$0")/ncu_diagnose.sh" --a "$bench_a" --b "$bench_b" --dir "$out" ||
    note "the ncu diagnosis failed (exit $?); the verdict stands"
fi
echo "report: $out/ab.md"
exit "$verdict"
