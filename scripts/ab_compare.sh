#!/usr/bin/env bash
# A/B mode: compares two builds (say main and a pull request) on this GPU in one job, with no stored
# baseline. Their runs are interleaved (A B A B ...), so drift in clocks or temperature hits both
# alike, and the verdict comes from the paired per-round ratios.
#
#   ab_compare.sh --a BENCH_A --b BENCH_B --out DIR [--rounds N] [--repetitions N] [--filter REGEX]
#                 [--tolerance-pct X]
#
# BENCH_A/B are the two builds' perf_tests/gpuperf_bench; the gate of build B judges.
# Exit: 0 no regression, 1 regression, 2 invalid input or failure, 77 not judged.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

bench_a="" bench_b="" out="" rounds=6 repetitions=10 filter="." tolerance=1.0 lock_wait=1800
while (($#)); do
  case "$1" in
    --a) bench_a=$2; shift 2 ;;
    --b) bench_b=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --repetitions) repetitions=$2; shift 2 ;;
    --filter) filter=$2; shift 2 ;;
    --tolerance-pct) tolerance=$2; shift 2 ;;
    --lock-wait) lock_wait=$2; shift 2 ;;
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

run_arm() {  # run_arm <a|b> <bench> <round>
  local json="$out/$1.round$3.json" rc=0
  "$2" --benchmark_filter="$filter" --benchmark_repetitions="$repetitions" \
    --benchmark_out="$json" --benchmark_out_format=json >"$out/$1.round$3.log" 2>&1 || rc=$?
  ((rc == 0)) || { tail -n 20 "$out/$1.round$3.log" >&2; die "$EXIT_INVALID" "build $1 failed in round $3 (exit $rc)"; }
}

a_runs=() b_runs=()
for ((round = 1; round <= rounds; round++)); do
  note "round $round of $rounds"
  # Alternate which build goes first, so neither always runs on a GPU the other just warmed.
  if ((round % 2)); then run_arm a "$bench_a" "$round"; run_arm b "$bench_b" "$round"
  else run_arm b "$bench_b" "$round"; run_arm a "$bench_a" "$round"; fi
  a_runs+=("$out/a.round$round.json") b_runs+=("$out/b.round$round.json")
done

verdict=0
"$gate" ab --a "${a_runs[@]}" --b "${b_runs[@]}" --tolerance-pct "$tolerance" \
  --markdown "$out/ab.md" --json "$out/ab.verdict.json" || verdict=$?
echo "report: $out/ab.md"
exit "$verdict"
