#!/usr/bin/env bash
# Diagnosis of SLOW verdicts with Nsight Compute: for the few slowest SLOW benchmarks of an A/B verdict,
# profile the kernels of one timed run in both builds with a small fixed metric set and append the metric
# diff table to the Markdown report. The clocks are left as they are (ncu --clock-control none): the
# timings were taken at the GPU's own clocks, and the diagnosis never changes a GPU's settings.
#
#   ncu_diagnose.sh --a BENCH_A --b BENCH_B --dir AB_OUT_DIR [--top N] [--ncu PATH]
#
# AB_OUT_DIR is ab_compare.sh's --out: ab.verdict.json names the SLOW benchmarks, and the round-1 results
# (a.round1.json, b.round1.json, from checking processes) hold each benchmark's fingerprint, whose kernel
# names select what ncu profiles. Writes ncu/<n>.{a,b}.csv, ncu/<n>.md and appends each table to ab.md.
# Where ncu is missing or cannot read the GPU's counters, says so in one line (and in ab.md) and exits 0:
# the diagnosis never changes a verdict.
# Exit: 0 (diagnosed or skipped with the reason), 2 bad usage or unreadable input.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

bench_a="" bench_b="" dir="" top=3 ncu=${NCU:-ncu}
while (($#)); do
  case "$1" in
    --a) need_value "$@"; bench_a=$2; shift 2 ;;
    --b) need_value "$@"; bench_b=$2; shift 2 ;;
    --dir) need_value "$@"; dir=$2; shift 2 ;;
    --top) need_value "$@"; top=$2; shift 2 ;;
    --ncu) need_value "$@"; ncu=$2; shift 2 ;;
    *) die "$EXIT_INVALID" "unknown argument '$1' (see the header of $0)" ;;
  esac
done
[[ -n $bench_a && -n $bench_b && -n $dir ]] || die "$EXIT_INVALID" "--a, --b and --dir are required"
gate="$(dirname "$bench_b")/gate/perf_gate"
[[ -f $dir/ab.verdict.json ]] || die "$EXIT_INVALID" "no $dir/ab.verdict.json: run scripts/ab_compare.sh --out $dir first"
need_tool jq

skip() {  # skip <reason>: the one line, in the log and the report
  note "ncu diagnosis skipped: $1"
  printf '\nNcu diagnosis skipped: %s.\n' "$1" >>"$dir/ab.md"
  exit 0
}

mapfile -t slow < <(jq -r --argjson top "$top" \
  '[.benchmarks[] | select(.verdict == "SLOW")] | sort_by(-.change_pct) | .[:$top][] | .name' "$dir/ab.verdict.json")
((${#slow[@]} > 0)) || exit 0
command -v "$ncu" >/dev/null 2>&1 || skip "ncu not found (install Nsight Compute, put ncu on PATH or pass --ncu)"
mkdir -p "$dir/ncu"

profile() {  # profile <bench> <round-1 results> <benchmark> <csv>: one timed run's kernels
  local names launches
  names=$(jq -r --arg n "$3" '.fingerprints[$n].kernels // [] | map(.mangled_name) | unique | .[]' "$2" | names_alternation)
  launches=$(jq -r --arg n "$3" '[.fingerprints[$n].kernels // [] | .[].launches] | add // 0' "$2")
  [[ -n $names && $launches -gt 0 ]] || { echo "no fingerprint of $3 in $2" >"$4.log"; return 1; }
  # The case's first run (set-up) launches exactly one timed run's kernels: --launch-count takes those.
  "$ncu" --clock-control none --csv --page raw --print-units base --kernel-name-base mangled \
    --kernel-name "regex:^($names)\$" --launch-count "$launches" --metrics "$("$gate" ncu-metrics)" \
    "$1" --no-reference-check --no-fingerprint --benchmark_filter="$(exact_filter <<<"$3")" \
    --benchmark_repetitions=1 >"$4" 2>"$4.log"
}

n=0
for name in "${slow[@]}"; do
  n=$((n + 1))
  for side in a b; do
    bench=$bench_a
    [[ $side == b ]] && bench=$bench_b
    if ! profile "$bench" "$dir/$side.round1.json" "$name" "$dir/ncu/$n.$side.csv"; then
      reason=$(grep -m 1 -E "==ERROR==|ERR_|no fingerprint" "$dir/ncu/$n.$side.csv.log" "$dir/ncu/$n.$side.csv" 2>/dev/null || true)
      skip "ncu could not profile $name in build $side: ${reason:-see $dir/ncu/$n.$side.csv.log}"
    fi
  done
  if ! "$gate" ncu-diff --before "$dir/ncu/$n.a.csv" --after "$dir/ncu/$n.b.csv" --title "Nsight Compute: $name" \
    --before-label "build A" --after-label "build B" --markdown "$dir/ncu/$n.md" --json "$dir/ncu/$n.json" \
    2>"$dir/ncu/$n.diff.log"; then
    skip "ncu's output for $name could not be read: $(head -n 1 "$dir/ncu/$n.diff.log")"
  fi
  printf '\n' >>"$dir/ab.md"
  cat "$dir/ncu/$n.md" >>"$dir/ab.md"
  note "ncu diagnosis of $name: $dir/ncu/$n.md"
done
