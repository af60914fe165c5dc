#!/usr/bin/env bash
# Measures how sensitive the gate is on this GPU: plants slowdowns of known size with real GPU work
# inside the timed region (GPUPERF_INJECT_SLOWDOWN) and counts how often each mode catches them, and how
# often clean runs raise a false alarm.
#
#   calibrate.sh --build-dir DIR --out DIR [--benchmark NAME]... [--slowdowns "1 2 3 5"] [--trials N]
#                [--repetitions N] [--processes N] [--max-remeasure N] [--rounds N]
#                [--ab-repetitions N] [--ab-max-remeasure N] [--baseline-runs N] [--modes "stored ab"]
#
# Stored-baseline mode, as on a runner checking a baseline recorded on its own GPU: a baseline is
# recorded here from --baseline-runs clean processes (tolerances from this GPU model's committed
# baseline, if any); then (1 + max-remeasure) x --processes processes per slowdown take trials x
# repetitions samples each. Trial t is judged as perf_test.sh judges: block t of the first --processes
# processes (a look); while the verdict is AMBIGUOUS, block t of the next look's processes is pooled in.
# A/B mode, as scripts/ab_compare.sh runs it: interleaved pairs of processes (clean A, injected B) per
# slowdown; trial t judges block t of the first --rounds rounds, paired by round, and while that is
# AMBIGUOUS adds --rounds more (at most --ab-max-remeasure times).
# --modes picks one of the two (default both). One process yields many trials, which keeps this cheap
# (the trials of a cell share their processes, so a process-wide offset moves them together). Both arms
# always carry the injection kernel (zero-length when clean), so the difference between arms is the
# planted slowdown alone.
# Writes DIR/calibration.md, DIR/calibration.json and every trial's verdicts and tolerance in
# DIR/verdicts.tsv; exits 0, or 2 on failure (a trial the gate could not judge included), 77 without a GPU.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"
source "$(dirname "${BASH_SOURCE[0]}")/lib/remeasure.sh"

build_dir="" out="" benchmarks=() slowdowns="1 2 3 5" trials=10 repetitions=30 processes=3 max_remeasure=3
rounds=6 ab_repetitions=20 ab_max_remeasure=4 baseline_runs=10 modes="stored ab" lock_wait=1800
root="$(cd "$(dirname "$0")/.." && pwd)"
while (($#)); do
  case "$1" in
    --build-dir) need_value "$@"; build_dir=$2; shift 2 ;;
    --out) need_value "$@"; out=$2; shift 2 ;;
    --benchmark) need_value "$@"; benchmarks+=("$2"); shift 2 ;;
    --slowdowns) need_value "$@"; slowdowns=$2; shift 2 ;;
    --trials) need_value "$@"; trials=$2; shift 2 ;;
    --repetitions) need_value "$@"; repetitions=$2; shift 2 ;;
    --processes) need_value "$@"; processes=$2; shift 2 ;;
    --max-remeasure) need_value "$@"; max_remeasure=$2; shift 2 ;;
    --rounds) need_value "$@"; rounds=$2; shift 2 ;;
    --ab-repetitions) need_value "$@"; ab_repetitions=$2; shift 2 ;;
    --ab-max-remeasure) need_value "$@"; ab_max_remeasure=$2; shift 2 ;;
    --baseline-runs) need_value "$@"; baseline_runs=$2; shift 2 ;;
    --modes) need_value "$@"; modes=$2; shift 2 ;;
    *) die "$EXIT_INVALID" "unknown argument '$1' (see the header of $0)" ;;
  esac
done
[[ -n $build_dir && -n $out ]] || die "$EXIT_INVALID" "--build-dir and --out are required"
for mode in $modes; do
  [[ $mode == stored || $mode == ab ]] || die "$EXIT_INVALID" "--modes takes 'stored', 'ab' or both, not '$mode'"
done
runs_mode() { [[ " $modes " == *" $1 "* ]]; }
((${#benchmarks[@]})) || benchmarks=(
  "matmul/cublas_sgemm_tf32/m:1024,n:1024,k:1024"
  "reduction/reduce10_vec4_single_pass/n:268435456"
  "reduction/reduce1_interleaved_divergent/n:268435456")
harness_in "$build_dir"
need_tool jq

gpu=$(gpu_info "$bench")
slug=$(jq -r .slug <<<"$gpu")
lock_gpu "$(jq -r .uuid <<<"$gpu")" "$lock_wait"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

filter=$(printf '%s\n' "${benchmarks[@]}" | exact_filter)
exact=$(printf '%s\n' "${benchmarks[@]}" | names_alternation)
rule() { echo "(${exact})=$1"; }  # the injection rule for every calibrated benchmark

# Processes run as the mode they calibrate runs them: in stored mode every process checks the cases
# against their references (as perf_test.sh and update_baseline.sh do); in A/B mode the first round
# checks and later rounds only time, both builds alike (as ab_compare.sh does).
sample() {  # sample <percent> <repetitions> <json> [--no-reference-check]
  local check=("${@:4}")
  GPUPERF_INJECT_SLOWDOWN=$(rule "$1") "$bench" "${check[@]}" --benchmark_filter="$filter" --benchmark_repetitions="$2" \
    --benchmark_out="$3" --benchmark_out_format=json >"$3.log" 2>&1 ||
    { tail -n 20 "$3.log" >&2; die "$EXIT_INVALID" "benchmark run failed ($3)"; }
}

split_blocks() {  # split_blocks <json> <block size> <count> <prefix>: <prefix>.block<i>.json, i < count
  local i
  for ((i = 0; i < $3; i++)); do
    jq --argjson i "$i" --argjson r "$2" \
      '.benchmarks |= map(select(.run_type == "iteration" and ((.repetition_index / $r) | floor) == $i))' \
      "$1" >"$4.block$i.json"
  done
}

judge() {  # judge <benchmark> <perf_gate arguments...>: sets verdict and tolerance ("4.0% (source)")
  local name=$1 rc=0
  shift
  rm -f "$work/v.json"
  "$gate" "$@" --json "$work/v.json" >"$work/gate.log" 2>&1 || rc=$?
  verdict=$(jq -r --arg name "$name" '.benchmarks[] | select(.name == $name) | .verdict' "$work/v.json" 2>/dev/null) || true
  tolerance=$(jq -r --arg name "$name" '.benchmarks[] | select(.name == $name)
    | "\(.tolerance_pct * 100 | round / 100)% (\(.tolerance_source))"' "$work/v.json" 2>/dev/null) || true
  # A trial the gate could not judge must stop the calibration, not count as "not caught".
  if ((rc == EXIT_INVALID)) || [[ -z $verdict ]]; then
    cat "$work/gate.log" >&2
    die "$EXIT_INVALID" "perf_gate $1 gave no verdict for $name (exit $rc)"
  fi
}

# One trial, as the scripts it calibrates judge: its first look, then one more look while the verdict is
# AMBIGUOUS (remeasure_loop). first is the first look's verdict.
# shellcheck disable=SC2317  # reached through remeasure_loop
trial_ambiguous() { [[ $verdict == AMBIGUOUS ]]; }

# mode, percent, benchmark, first verdict, final verdict, tolerance of the final verdict
: >"$work/verdicts.tsv"
record_trial() {  # record_trial <mode>: the trial just judged
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$pct" "$name" "$first" "$verdict" "$tolerance" >>"$work/verdicts.tsv"
}

stored_look() {  # stored_look <look>: block t of that look's processes joins the trial's results
  local process
  for ((process = $1 * processes; process < ($1 + 1) * processes; process++)); do
    results+=("$work/stored$pct.p$process.block$t.json")
  done
}
# shellcheck disable=SC2317  # reached through remeasure_loop
judge_stored() {
  judge "$name" compare --baseline "$work/baseline.json" --results "${results[@]}" --filter "$one" \
    --looks $((max_remeasure + 1))
  first=${first:-$verdict}
}

calibrate_stored() {
  note "stored-baseline mode: recording a clean baseline from $baseline_runs processes"
  base_runs=()
  for ((run = 1; run <= baseline_runs; run++)); do
    sample 0 "$repetitions" "$work/base$run.json"
    base_runs+=("$work/base$run.json")
  done
  previous=()
  [[ -f $root/baselines/$slug.json ]] && previous=(--previous "$root/baselines/$slug.json")
  "$gate" record --results "${base_runs[@]}" --out "$work/baseline.json" "${previous[@]}" >/dev/null

  for pct in 0 $slowdowns; do
    note "stored-baseline mode: $trials trials at +$pct%"
    for ((process = 0; process < (max_remeasure + 1) * processes; process++)); do
      sample "$pct" $((trials * repetitions)) "$work/stored$pct.p$process.json"
      split_blocks "$work/stored$pct.p$process.json" "$repetitions" "$trials" "$work/stored$pct.p$process"
    done
    for name in "${benchmarks[@]}"; do
      one=$(exact_filter <<<"$name")
      for ((t = 0; t < trials; t++)); do
        results=() first="" verdict=""
        stored_look 0
        remeasure_loop "$max_remeasure" judge_stored trial_ambiguous stored_look
        record_trial stored
      done
    done
  done
}

ab_look() {  # ab_look <look>: block t of that look's rounds of both arms joins the trial's pairs
  local round
  for ((round = $1 * rounds + 1; round <= ($1 + 1) * rounds; round++)); do
    a+=("$work/a$pct.r$round.block$t.json") b+=("$work/b$pct.r$round.block$t.json")
  done
}
# shellcheck disable=SC2317  # reached through remeasure_loop
judge_ab() {
  judge "$name" ab --a "${a[@]}" --b "${b[@]}" --filter "$one" --looks $((ab_max_remeasure + 1))
  first=${first:-$verdict}
}

calibrate_ab() {
  ab_rounds=$((rounds * (1 + ab_max_remeasure)))
  for pct in 0 $slowdowns; do
    note "A/B mode: up to $ab_rounds interleaved rounds at +$pct%"
    for ((round = 1; round <= ab_rounds; round++)); do
      check=()
      ((round > 1)) && check=(--no-reference-check)
      sample 0 $((trials * ab_repetitions)) "$work/a$pct.r$round.json" "${check[@]}"
      sample "$pct" $((trials * ab_repetitions)) "$work/b$pct.r$round.json" "${check[@]}"
      split_blocks "$work/a$pct.r$round.json" "$ab_repetitions" "$trials" "$work/a$pct.r$round"
      split_blocks "$work/b$pct.r$round.json" "$ab_repetitions" "$trials" "$work/b$pct.r$round"
    done
    for name in "${benchmarks[@]}"; do
      one=$(exact_filter <<<"$name")
      for ((t = 0; t < trials; t++)); do
        a=() b=() first="" verdict=""
        ab_look 0
        remeasure_loop "$ab_max_remeasure" judge_ab trial_ambiguous ab_look
        record_trial ab
      done
    done
  done
}

# if, not &&: a function called on the left of && runs with errexit off.
if runs_mode stored; then calibrate_stored; fi
if runs_mode ab; then calibrate_ab; fi

# Caught = SLOW in the end; at 0% every SLOW is a false alarm (counted by the gate).
"$gate" calibration-report --verdicts "$work/verdicts.tsv" --gpu "$(jq -r .name <<<"$gpu")" --trials "$trials" \
  --processes "$processes" --repetitions "$repetitions" --max-remeasure "$max_remeasure" --rounds "$rounds" \
  --ab-repetitions "$ab_repetitions" --ab-max-remeasure "$ab_max_remeasure" \
  --markdown "$out/calibration.md" --json "$out/calibration.json" >/dev/null
cat "$out/calibration.md"
cp "$work/verdicts.tsv" "$out/verdicts.tsv"
