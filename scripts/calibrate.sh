#!/usr/bin/env bash
# Measures how sensitive the gate is on this GPU: plants slowdowns of known size with real GPU work
# inside the timed region (GPUPERF_INJECT_SLOWDOWN) and counts how often each mode catches them, and how
# often clean runs raise a false alarm.
#
#   calibrate.sh --build-dir DIR --out DIR [--benchmark NAME]... [--slowdowns "1 2 3 5"] [--trials N]
#                [--repetitions N] [--rounds N] [--baseline-runs N]
#
# Stored-baseline mode: a baseline is recorded from --baseline-runs clean processes (tolerances from
# this GPU's committed baseline, if any); then one process per slowdown takes trials x repetitions
# samples, and each block of --repetitions samples is judged against that baseline as one trial.
# A/B mode: --rounds interleaved pairs of processes (clean A, injected B) per slowdown; trial t judges
# block t of every round's samples, paired by round.
# One process yields many trials, which keeps this cheap. Both arms always carry the injection kernel
# (zero-length when clean), so the difference between arms is the planted slowdown alone.
# A trial counts as caught only when the first verdict is SLOW (the re-measurement of ambiguous
# results that perf_test.sh does is not replayed here, so this under-states what CI catches).
# Writes DIR/calibration.md and DIR/calibration.json; exits 0, or 2 on failure, 77 without a GPU.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

build_dir="" out="" benchmarks=() slowdowns="1 2 3 5" trials=10 repetitions=30 rounds=4 ab_repetitions=10
baseline_runs=3 lock_wait=1800
root="$(cd "$(dirname "$0")/.." && pwd)"
while (($#)); do
  case "$1" in
    --build-dir) build_dir=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --benchmark) benchmarks+=("$2"); shift 2 ;;
    --slowdowns) slowdowns=$2; shift 2 ;;
    --trials) trials=$2; shift 2 ;;
    --repetitions) repetitions=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --baseline-runs) baseline_runs=$2; shift 2 ;;
    *) die "$EXIT_INVALID" "unknown argument '$1' (see the header of $0)" ;;
  esac
done
[[ -n $build_dir && -n $out ]] || die "$EXIT_INVALID" "--build-dir and --out are required"
((${#benchmarks[@]})) || benchmarks=(
  "matmul/cublas_sgemm_tf32/m:1024,n:1024,k:1024"
  "reduction/reduce10_vec4_single_pass/n:268435456"
  "reduction/reduce1_interleaved_divergent/n:268435456")
bench="$build_dir/perf_tests/gpuperf_bench"
gate="$build_dir/perf_tests/gate/perf_gate"
[[ -x $bench && -x $gate ]] || die "$EXIT_INVALID" "no built harness in $build_dir"
need_tool jq

gpu=$(gpu_info "$bench")
slug=$(jq -r .slug <<<"$gpu")
lock_gpu "$(jq -r .uuid <<<"$gpu")" "$lock_wait"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

filter=$(printf '%s\n' "${benchmarks[@]}" | exact_filter)
exact=$(printf '%s\n' "${benchmarks[@]}" | sed -e 's/[][\.*^$+?(){}|]/\\&/g' | paste -sd '|' -)
rule() { echo "(${exact})=$1"; }  # the injection rule for every calibrated benchmark

sample() {  # sample <percent> <repetitions> <json>
  GPUPERF_INJECT_SLOWDOWN=$(rule "$1") "$bench" --benchmark_filter="$filter" --benchmark_repetitions="$2" \
    --benchmark_out="$3" --benchmark_out_format=json >"$3.log" 2>&1 ||
    { tail -n 20 "$3.log" >&2; die "$EXIT_INVALID" "benchmark run failed ($3)"; }
}

split_trials() {  # split_trials <json> <block size> <prefix>: one file per block of repetitions
  local t
  for ((t = 0; t < trials; t++)); do
    jq --argjson t "$t" --argjson r "$2" \
      '.benchmarks |= map(select(.run_type == "iteration" and ((.repetition_index / $r) | floor) == $t))' \
      "$1" >"$3.trial$t.json"
  done
}

record_verdicts() {  # record_verdicts <mode> <percent> <verdict json>: one line per benchmark
  jq -r --arg mode "$1" --arg pct "$2" \
    '.benchmarks[] | [$mode, $pct, .name, .verdict] | @tsv' "$3" >>"$work/verdicts.tsv"
}

note "stored-baseline mode: recording a clean baseline from $baseline_runs processes"
base_runs=()
for ((run = 1; run <= baseline_runs; run++)); do
  sample 0 "$repetitions" "$work/base$run.json"
  base_runs+=("$work/base$run.json")
done
previous=()
[[ -f $root/baselines/$slug.json ]] && previous=(--previous "$root/baselines/$slug.json")
"$gate" record --results "${base_runs[@]}" --out "$work/baseline.json" "${previous[@]}" >/dev/null

: >"$work/verdicts.tsv"
for pct in 0 $slowdowns; do
  note "stored-baseline mode: $trials trials at +$pct%"
  sample "$pct" $((trials * repetitions)) "$work/stored$pct.json"
  split_trials "$work/stored$pct.json" "$repetitions" "$work/stored$pct"
  for ((t = 0; t < trials; t++)); do
    "$gate" compare --baseline "$work/baseline.json" --results "$work/stored$pct.trial$t.json" \
      --filter "$filter" --json "$work/v.json" >/dev/null || true
    record_verdicts stored "$pct" "$work/v.json"
  done
done

for pct in 0 $slowdowns; do
  note "A/B mode: $rounds interleaved rounds at +$pct%"
  for ((round = 1; round <= rounds; round++)); do
    sample 0 $((trials * ab_repetitions)) "$work/a$pct.r$round.json"
    sample "$pct" $((trials * ab_repetitions)) "$work/b$pct.r$round.json"
    split_trials "$work/a$pct.r$round.json" "$ab_repetitions" "$work/a$pct.r$round"
    split_trials "$work/b$pct.r$round.json" "$ab_repetitions" "$work/b$pct.r$round"
  done
  for ((t = 0; t < trials; t++)); do
    a=() b=()
    for ((round = 1; round <= rounds; round++)); do
      a+=("$work/a$pct.r$round.trial$t.json") b+=("$work/b$pct.r$round.trial$t.json")
    done
    "$gate" ab --a "${a[@]}" --b "${b[@]}" --filter "$filter" --json "$work/v.json" >/dev/null || true
    record_verdicts ab "$pct" "$work/v.json"
  done
done

# Caught = SLOW; at 0% every SLOW is a false alarm.
jq -R -s --arg gpu "$(jq -r .name <<<"$gpu")" --argjson trials "$trials" '
  [split("\n")[] | select(length > 0) | split("\t") | {mode: .[0], pct: (.[1] | tonumber), name: .[2], verdict: .[3]}]
  | group_by([.mode, .name, .pct])
  | map({mode: .[0].mode, name: .[0].name, pct: .[0].pct, trials: length,
         slow: (map(select(.verdict == "SLOW")) | length),
         ambiguous: (map(select(.verdict == "AMBIGUOUS")) | length)})
  | {gpu: $gpu, trials_per_cell: $trials, cells: .}' "$work/verdicts.tsv" >"$out/calibration.json"

{
  echo "## Gate calibration on $(jq -r .name <<<"$gpu")"
  echo
  echo "Caught (SLOW at first measurement) / trials; at +0% every SLOW is a false alarm. $trials trials per cell."
  for mode in stored ab; do
    echo
    echo "### $([[ $mode == stored ]] && echo "Stored baseline (same machine)" || echo "A/B, $rounds interleaved rounds")"
    echo
    jq -r --arg mode "$mode" '
      [.cells[] | select(.mode == $mode)] as $c
      | ($c | map(.pct) | unique) as $pcts
      | "| benchmark | " + ($pcts | map("+\(.)%") | join(" | ")) + " | smallest caught in >= 95% |",
        "|---|" + ($pcts | map("---") | join("|")) + "|---|",
        ($c | group_by(.name)[] | . as $row
          | "| \($row[0].name) | "
            + ($pcts | map(. as $p | ($row[] | select(.pct == $p) | "\(.slow)/\(.trials)" + (if .ambiguous > 0 then " (\(.ambiguous) amb.)" else "" end))) | join(" | "))
            + " | "
            + ([$row[] | select(.pct > 0 and .slow >= 0.95 * .trials) | .pct] | if length > 0 then "+\(min)%" else "none tested" end)
            + " |")' "$out/calibration.json"
    echo
    jq -r --arg mode "$mode" '[.cells[] | select(.mode == $mode and .pct == 0)] | "False alarms on clean runs: \(map(.slow) | add) of \(map(.trials) | add) verdicts."' "$out/calibration.json"
  done
} | tee "$out/calibration.md"
