#!/usr/bin/env bash
# One kernel family's perf test, as CTest runs it (perf.<family>): benchmark the family on this GPU in
# --processes separate processes (the unit the gate replicates over), compare with
# baselines/<gpu>.json, re-measure what is ambiguous in as many fresh processes (at most --max-remeasure
# times; the gate spends its false-alarm budget over all those looks), and exit with the verdict.
#
#   perf_test.sh --family NAME --bench PATH --gate PATH --baselines DIR --out DIR
#                [--processes N] [--repetitions N] [--max-remeasure N] [--strict] [--lock-wait SECONDS]
#                [--no-canary] [--no-reference-check] [--skip-unchanged] [--same-code-ledger FILE]
#                [--no-diagnosis]
#
# The memory canary: the first look's processes also time the ceiling family (copy, read, memset of
# 1 GiB each), so that the reports can say when this machine streams memory slower or faster than the
# baseline's, beside the memory-bound verdicts (perf_tests/gate/judging/memory_canary.h). The ceilings
# are judged in perf.ceiling, not here (the gate keeps --family NAME). It costs under 1 s a process, as
# no timed process checks (set-up, 10 samples; an H100, 2026-11-23: 0.4 s unchecked); over 17 unchecked
# whole-suite runs on H100s, 1-2 s a family, 11 s of a 59 s run. It does not pull the family's medians
# away from the baseline's, which were recorded in whole-suite processes that time the ceilings too: it
# brought three of them closer, by 0.9-1.4% (docs/results.md, "The gate judged by processes").
# --no-canary leaves it out.
#
# Re-measurements time only the ambiguous benchmarks, in processes that still set up the first look's
# other cases, the canary's too, in their turn (gpuperf_bench --time-filter): a case's time can depend on
# what ran before it in its process. Re-measured alone, cub::DeviceReduce::Sum at 2^25 timed 0.8% (an
# H100) and 1.4% (an H200) above its first look; this way, within 0.1% (perf_tests/harness/timed_cases.h).
#
# A first process checks every case against its reference and captures its fingerprint without timing
# anything (gpuperf_bench --fingerprint-only); the timed processes only time. Capturing in a timed process
# moved three benchmarks' medians by 0.8-1.6% on an H100 (docs/results.md, "Does capturing fingerprints
# move the timings?"), so no timed process captures. A case the correctness test of this build verified
# with the same fingerprint is not compared with its reference again (README.md, the perf test).
#
# --no-reference-check: no process checks or captures; every one only times. For a build whose
# correctness tests already passed on this GPU (ctest -L correctness).
#
# --skip-unchanged (pull requests): benchmarks whose fingerprint in the first process, GPU model, driver
# and CUDA runtime equal the baseline's are not timed and pass as UNCHANGED; the rest are measured as
# usual. Correctness is never skipped.
#
# On a regression, scripts/ncu_diagnose.sh profiles the 3 slowest SLOW benchmarks with Nsight Compute and
# appends the metric diff against the profiles recorded beside the baseline (baselines/<gpu>.ncu.json,
# scripts/record_ncu.sh) to the Markdown report; where ncu or that file is missing, one line says so.
# --no-diagnosis leaves it out.
#
# --same-code-ledger FILE: add the final verdicts on unchanged code (identical fingerprints) to the running
# count FILE keeps for this GPU model (perf_gate ledger): the reports then state the gate's observed
# false-alarm rate here. A ledger that cannot be updated is a warning; it never changes the verdict.
#
# Exit: 0 pass, 1 regression, 2 invalid input or infrastructure failure, 77 skipped / not judged
# (no GPU; no baseline for this GPU unless --strict; throttled GPU).
# Writes into --out: <family>.fingerprints.json (the checking process), <family>.runN.json (raw samples),
# <family>.md and <family>.verdict.json (reports); and where its time went, into $GPUPERF_PHASES_DIR
# (default --out/phases): perf_phases.<family>.json, the phases lock_wait, checking, first_look, each
# remeasure and diagnosis (scripts/lib/phases.sh; perf_gate phases tabulates them), whatever the exit.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/remeasure.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/phases.sh"
started=$(phase_now)

# 3 processes a look, up to 3 re-measurements: in the gate's simulation
# (perf_tests/gate/tests/statistics/test_simulation.cpp) this catches a 3% slowdown at a process sd of
# 0.44% in 94% of trials with no false alarm in 32,400 clean judgements; 2 re-measurements caught 90%.
family="" bench="" gate="" baselines="" out="" processes=3 repetitions=30 max_remeasure=3 strict="" lock_wait=1800
check_first=1 skip_unchanged="" ledger="" diagnosis=1
canary=ceiling  # the family timed beside NAME in the first look (kCanaryFamily in perf_tests/gate/judging/memory_canary.h)
while (($#)); do
  case "$1" in
    --family) need_value "$@"; family=$2; shift 2 ;;
    --bench) need_value "$@"; bench=$2; shift 2 ;;
    --gate) need_value "$@"; gate=$2; shift 2 ;;
    --baselines) need_value "$@"; baselines=$2; shift 2 ;;
    --out) need_value "$@"; out=$2; shift 2 ;;
    --processes) need_value "$@"; processes=$2; shift 2 ;;
    --repetitions) need_value "$@"; repetitions=$2; shift 2 ;;
    --max-remeasure) need_value "$@"; max_remeasure=$2; shift 2 ;;
    --lock-wait) need_value "$@"; lock_wait=$2; shift 2 ;;
    --strict) strict=--strict; shift ;;
    --no-canary) canary=""; shift ;;
    --no-reference-check) check_first=""; shift ;;
    --skip-unchanged) skip_unchanged=1; shift ;;
    --same-code-ledger) need_value "$@"; ledger=$2; shift 2 ;;
    --no-diagnosis) diagnosis=""; shift ;;
    *) die "$EXIT_INVALID" "unknown argument '$1' (see the header of $0)" ;;
  esac
done
for required in family bench gate baselines out; do
  [[ -n ${!required} ]] || die "$EXIT_INVALID" "--$required is required"
done
need_tool jq

gpu=$(gpu_info "$bench")
slug=$(jq -r .slug <<<"$gpu")
baseline="$baselines/$slug.json"
if [[ ! -f $baseline ]]; then
  message="no baseline for this GPU ($(jq -r .name <<<"$gpu")): expected $baseline. Record one with: scripts/update_baseline.sh --build-dir <build dir>"
  [[ -n $strict ]] && die "$EXIT_INVALID" "$message"
  echo "SKIPPED: $message"
  exit "$EXIT_NOT_JUDGED"
fi

mkdir -p "$out"
phases=() phase_started=""
phase_begin() { phase_started=$(phase_now); }
phase_end() { phases+=("$(phase_span "$1" "$phase_started" "$(phase_now)")"); }  # phase_end <phase>
# shellcheck disable=SC2317  # reached through the trap
write_phases() {
  write_phase_file "${GPUPERF_PHASES_DIR:-$out/phases}" perf_phases "$family" "$started" "$(phase_now)" "${phases[@]}" ||
    note "could not write perf_phases.$family.json in ${GPUPERF_PHASES_DIR:-$out/phases} (the verdict stands)"
}
trap write_phases EXIT
phase_begin
lock_gpu "$(jq -r .uuid <<<"$gpu")" "$lock_wait"
phase_end lock_wait
rm -f "$out/$family".run*.json "$out/$family.fingerprints.json"

commit=${GPUPERF_GIT_COMMIT:-$(git -C "$baselines" rev-parse --short HEAD 2>/dev/null || true)}
measure() {  # measure <run number> <filter> [time filter]: one timed process, which neither checks nor captures
  local json="$out/$family.run$1.json" log="$out/$family.run$1.log" rc=0 timed=()
  [[ -n ${3:-} ]] && timed=(--time-filter="$3")
  GPUPERF_GIT_COMMIT=$commit \
    "$bench" --no-reference-check --benchmark_filter="$2" "${timed[@]}" --benchmark_repetitions="$repetitions" \
    --benchmark_out="$json" --benchmark_out_format=json >"$log" 2>&1 || rc=$?
  if ((rc != 0)); then
    tail -n 20 "$log" >&2
    ((rc > 128)) && die "$EXIT_INVALID" "the benchmark binary crashed (signal $((rc - 128))) during run $1 of $family; log: $log"
    die "$EXIT_INVALID" "the benchmark binary failed (exit $rc) during run $1 of $family; log: $log"
  fi
}

run=0
measure_look() {  # measure_look <filter> [time filter]: --processes fresh processes, each a results file
  local p
  for ((p = 1; p <= processes; p++)); do
    run=$((run + 1))
    measure "$run" "$1" "${2:-}"
  done
}

# shellcheck disable=SC2317  # reached through remeasure_loop
judge() {  # judge: compare every run so far with the baseline; sets verdict
  local runs=("$out/$family".run*.json) skip=()
  [[ -e ${runs[0]} ]] || runs=()
  [[ -n $fingerprints ]] && runs+=("$fingerprints")
  [[ -n $skip_unchanged ]] && skip=(--skip-unchanged)
  verdict=0
  "$gate" compare --baseline "$baseline" --results "${runs[@]}" --family "$family" ${strict:+"$strict"} "${skip[@]}" \
    --looks $((max_remeasure + 1)) \
    --markdown "$out/$family.md" --json "$out/$family.verdict.json" \
    --remeasure-list "$out/$family.remeasure.txt" || verdict=$?
}

first_look="^$family/"
[[ -n $canary && $family != "$canary" ]] && first_look="^($family|$canary)/"
fingerprints=""
if [[ -n $check_first || -n $skip_unchanged ]]; then
  fingerprints="$out/$family.fingerprints.json" rc=0
  phase_begin
  GPUPERF_GIT_COMMIT=$commit "$bench" --fingerprint-only --benchmark_filter="^$family/" --benchmark_out="$fingerprints" \
    >"$out/$family.fingerprints.log" 2>&1 || rc=$?
  phase_end checking
  if ((rc != 0)); then
    tail -n 20 "$out/$family.fingerprints.log" >&2
    ((rc > 128)) && die "$EXIT_INVALID" "the benchmark binary crashed (signal $((rc - 128))) while checking $family; log: $out/$family.fingerprints.log"
    die "$EXIT_INVALID" "checking and fingerprinting $family failed (exit $rc); log: $out/$family.fingerprints.log"
  fi
  # CUPTI may be unavailable (another profiler attached): the cases were checked, but nothing is known of
  # their code, so nothing can be skipped as unchanged.
  if ! jq -e '(.fingerprints // {}) | length > 0' "$fingerprints" >/dev/null; then
    note "the checking process captured no fingerprint ($out/$family.fingerprints.log): every benchmark is timed"
    fingerprints="" skip_unchanged=""
  fi
fi
if [[ -n $skip_unchanged ]]; then
  "$gate" unchanged --baseline "$baseline" --results "$fingerprints" --family "$family" --list "$out/$family.unchanged.txt"
  jq -r '.fingerprints | keys[]' "$fingerprints" | grep -vxF -f "$out/$family.unchanged.txt" >"$out/$family.changed.txt" || true
  first_look=""   # only what changed is timed, with the canary beside it
  if [[ -s $out/$family.changed.txt ]]; then
    first_look="$(exact_filter <"$out/$family.changed.txt")"
    [[ -n $canary && $family != "$canary" ]] && first_look="$first_look|^$canary/"
  fi
fi
# shellcheck disable=SC2317  # reached through remeasure_loop
still_ambiguous() {  # the gate judged, and listed benchmarks to re-measure
  ((verdict != EXIT_INVALID)) && [[ -s $out/$family.remeasure.txt ]]
}
# shellcheck disable=SC2317  # reached through remeasure_loop
measure_ambiguous() {  # measure_ambiguous <attempt>
  note "re-measuring $(wc -l <"$out/$family.remeasure.txt") ambiguous benchmark(s) in $processes more processes, attempt $1 of $max_remeasure"
  phase_begin
  measure_look "$first_look" "$(exact_filter <"$out/$family.remeasure.txt")"
  phase_end remeasure
}
if [[ -n $first_look ]]; then
  phase_begin
  measure_look "$first_look"
  phase_end first_look
fi
remeasure_loop "$max_remeasure" judge still_ambiguous measure_ambiguous
if [[ -n $ledger ]] && ((verdict != EXIT_INVALID)); then
  "$gate" ledger --ledger "$ledger" --report "$out/$family.verdict.json" --markdown "$out/$family.md" ||
    note "the same-code ledger $ledger was not updated (the verdict stands)"
fi
if ((verdict == EXIT_REGRESSION)) && [[ -n $diagnosis ]]; then
  # The kernels to profile: the fingerprints of this run's checking process (none with --no-reference-check).
  phase_begin
  "$(dirname "$0")/ncu_diagnose.sh" --stored "${baseline%.json}.ncu.json" --bench "$bench" --gate "$gate" \
    --verdict "$out/$family.verdict.json" --fingerprints "${fingerprints:-$out/$family.run1.json}" --markdown "$out/$family.md" \
    --dir "$out/$family" || note "the ncu diagnosis failed (exit $?); the verdict stands"
  phase_end diagnosis
fi
echo "report: $out/$family.md"
exit "$verdict"
