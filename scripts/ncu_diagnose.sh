#!/usr/bin/env bash
# Diagnosis of SLOW verdicts with Nsight Compute: for the few slowest SLOW benchmarks of a verdict, profile
# the kernels of one timed sample with a small fixed metric set, in one ncu process per build (scripts/lib/
# ncu.sh: the bench's profiler windows, the window scripts/record_ncu.sh profiles; --clock-control none,
# the GPU's settings never changed) and append the metric diff table to the Markdown report.
#
#   A/B:    ncu_diagnose.sh --a BENCH_A --b BENCH_B --dir AB_OUT_DIR [--top N] [--ncu PATH] [--gate PATH]
#   stored: ncu_diagnose.sh --stored PROFILES.json --bench BENCH --verdict VERDICT.json
#                           --fingerprints RESULTS.json --markdown REPORT.md --dir WORK_DIR [--top N] [--ncu PATH]
#                           [--gate PATH]
#
# --gate: the perf_gate that reads the profiles (default: the one beside BENCH_B / BENCH).
#
# A/B: AB_OUT_DIR is ab_compare.sh's --out: ab.verdict.json names the SLOW benchmarks, the round-1 results
# (a.round1.json, b.round1.json, from checking processes) hold each benchmark's fingerprint, which counts
# and checks ncu's rows; both builds are profiled. Writes ncu/{a,b}.ncu.json (the profiles; .csv, .order,
# .log beside them), ncu/<n>.md and appends each table to ab.md.
# Stored: the profile now (BENCH, checked against RESULTS.json's fingerprints: a checking process's
# results) against the one recorded beside the baseline (PROFILES.json, scripts/record_ncu.sh). Writes
# WORK_DIR/ncu/now.ncu.json (and beside it) and ncu/<n>.md and appends each table to REPORT.md.
# Where ncu is missing, cannot read the GPU's counters, or there is nothing to compare with, says so in one
# line (and in the report) and exits 0: the diagnosis never changes a verdict.
# Exit: 0 (diagnosed or skipped with the reason), 2 bad usage or unreadable input.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"
source "$(dirname "${BASH_SOURCE[0]}")/lib/ncu.sh"

bench_a="" bench_b="" dir="" top=3 ncu=${NCU:-ncu} stored="" bench="" verdict="" fingerprints="" markdown="" gate=""
while (($#)); do
  case "$1" in
    --a) need_value "$@"; bench_a=$2; shift 2 ;;
    --b) need_value "$@"; bench_b=$2; shift 2 ;;
    --dir) need_value "$@"; dir=$2; shift 2 ;;
    --top) need_value "$@"; top=$2; shift 2 ;;
    --ncu) need_value "$@"; ncu=$2; shift 2 ;;
    --stored) need_value "$@"; stored=$2; shift 2 ;;
    --bench) need_value "$@"; bench=$2; shift 2 ;;
    --verdict) need_value "$@"; verdict=$2; shift 2 ;;
    --fingerprints) need_value "$@"; fingerprints=$2; shift 2 ;;
    --markdown) need_value "$@"; markdown=$2; shift 2 ;;
    --gate) need_value "$@"; gate=$2; shift 2 ;;
    *) die "$EXIT_INVALID" "unknown argument '$1' (see the header of $0)" ;;
  esac
done
if [[ -n $stored ]]; then
  [[ -n $bench && -n $verdict && -n $fingerprints && -n $markdown && -n $dir ]] ||
    die "$EXIT_INVALID" "--stored needs --bench, --verdict, --fingerprints, --markdown and --dir"
  sides=(now)
else
  [[ -n $bench_a && -n $bench_b && -n $dir ]] || die "$EXIT_INVALID" "--a, --b and --dir are required (or --stored)"
  [[ -f $dir/ab.verdict.json ]] || die "$EXIT_INVALID" "no $dir/ab.verdict.json: run scripts/ab_compare.sh --out $dir first"
  bench=$bench_b verdict="$dir/ab.verdict.json" markdown="$dir/ab.md"
  sides=(a b)
fi
[[ -n $gate ]] || gate="$(dirname "$bench")/gate/perf_gate"
[[ -x $gate ]] || die "$EXIT_INVALID" "no perf_gate at $gate (pass --gate)"
need_tool jq

say_skipped() {  # say_skipped <reason>: the one line, in the log and the report
  note "ncu diagnosis skipped: $1"
  printf '\nNcu diagnosis skipped: %s.\n' "$1" >>"$markdown"
}
skip() { say_skipped "$1"; exit 0; }  # skip <reason>: nothing more can be diagnosed

mapfile -t slow < <(jq -r --argjson top "$top" \
  '[.benchmarks[] | select(.verdict == "SLOW")] | sort_by(-.change_pct) | .[:$top][] | .name' "$verdict")
((${#slow[@]} > 0)) || exit 0
command -v "$ncu" >/dev/null 2>&1 || skip "ncu not found (install Nsight Compute, put ncu on PATH or pass --ncu)"
[[ -z $stored || -f $stored ]] ||
  skip "no Nsight Compute profiles stored beside the baseline ($stored): record them with scripts/record_ncu.sh"
mkdir -p "$dir/ncu"

profile=()  # the SLOW benchmarks to profile: those with a stored profile to compare with, in stored mode
for name in "${slow[@]}"; do
  if [[ -n $stored ]] && ! jq -e --arg n "$name" '.benchmarks[$n]' "$stored" >/dev/null 2>&1; then
    say_skipped "no profile of $name in $stored: record it with scripts/record_ncu.sh --filter '$(exact_filter <<<"$name")'"
    continue
  fi
  profile+=("$name")
done
((${#profile[@]} > 0)) || exit 0
for side in "${sides[@]}"; do
  case $side in
    a) side_bench=$bench_a results="$dir/a.round1.json" where=" in build A" ;;
    b) side_bench=$bench_b results="$dir/b.round1.json" where=" in build B" ;;
    now) side_bench=$bench results=$fingerprints where="" ;;
  esac
  for name in "${profile[@]}"; do
    profiled_benchmarks "$results" | grep -qxF -- "$name" ||
      skip "ncu could not profile $name$where: no fingerprint of $name in $results"
  done
  profiles="$dir/ncu/$side.ncu.json"
  rm -f "$profiles"
  slug=$("$gate" gpu --results "$results" 2>"$profiles.log") || skip "no GPU named in $results: $(head -n 1 "$profiles.log")"
  if ! ncu_profile "$ncu" "$gate" "$side_bench" "$results" "$profiles" "$slug" "${profile[@]}"; then
    reason=$(ncu_failure "$profiles")
    skip "ncu could not profile ${profile[*]}$where: ${reason:-see $profiles.log}"
  fi
done

n=0
for name in "${profile[@]}"; do
  n=$((n + 1))
  if [[ -n $stored ]]; then
    pair=(--before-stored "$stored" --after-stored "$dir/ncu/now.ncu.json" --before-label baseline --after-label now)
  else
    pair=(--before-stored "$dir/ncu/a.ncu.json" --after-stored "$dir/ncu/b.ncu.json" --before-label "build A"
      --after-label "build B")
  fi
  for side in "${sides[@]}"; do
    if ! jq -e --arg n "$name" '.benchmarks[$n]' "$dir/ncu/$side.ncu.json" >/dev/null 2>&1; then
      where=" in build ${side^^}"
      [[ $side == now ]] && where=""
      say_skipped "ncu could not profile $name$where: $(ncu_left_out "$dir/ncu/$side.ncu.json" "$name")"
      continue 2
    fi
  done
  if ! "$gate" ncu-diff "${pair[@]}" --benchmark "$name" --title "Nsight Compute: $name" \
    --markdown "$dir/ncu/$n.md" --json "$dir/ncu/$n.json" 2>"$dir/ncu/$n.diff.log"; then
    say_skipped "no diagnosis of $name: $(head -n 1 "$dir/ncu/$n.diff.log")"
    continue
  fi
  printf '\n' >>"$markdown"
  cat "$dir/ncu/$n.md" >>"$markdown"
  note "ncu diagnosis of $name: $dir/ncu/$n.md"
done
