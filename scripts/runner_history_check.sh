#!/usr/bin/env bash
# Runner offsets on a GPU host, end to end: this host's GPU judged against its own history of the
# baseline's code (perf_gate history-offsets, --runner-history; perf_tests/gate/statistics/runner_history.h).
# In a scratch copy of this tree, the reduction family is built and measured --clean-runs times as the
# default branch's perf job measures it (perf_gate run: checking process, fingerprints, every benchmark
# timed), each run appended to a history store. Then, against the committed baseline of this GPU model:
#   1. the runner histories written (history-offsets), and what they say of this GPU;
#   2. one more run of the unchanged code, judged with them: no benchmark may be SLOW;
#   3. a planted slowdown of --slowdown-pct of reduce7's time at 2^28 (kernels/reduction/planted_ramp.patch:
#      a spin inside its timed region), judged with them (it must be SLOW), and the same processes judged
#      without them (perf_gate compare), for comparison.
#
#   runner_history_check.sh OUTDIR [--clean-runs N (10)] [--slowdown-pct X (3)]
#
# Writes into OUTDIR: history.sqlite, runner-history.json, runs/<i>/ (each run's results and reports),
# clean/ and planted/ (the judged runs), planted_without.md (the planted run against the baseline alone),
# runner_history_check.log (the verdicts). Exit: 0 when the clean run has no SLOW and the planted slowdown
# is SLOW against the runner's history; 1 when not; 2 bad usage or a failed step; 77 no GPU, or no
# baseline for it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"
root="$(cd "$(dirname "$0")/.." && pwd)"

(($#)) || die "$EXIT_INVALID" "usage: $0 OUTDIR [--clean-runs N] [--slowdown-pct X]"
out=$(out_folder "$1") || exit "$EXIT_INVALID"
shift
clean_runs=10 slowdown_pct=3
while (($#)); do
  case "$1" in
    --clean-runs) need_value "$@"; clean_runs=$2; shift 2 ;;
    --slowdown-pct) need_value "$@"; slowdown_pct=$2; shift 2 ;;
    *) die "$EXIT_INVALID" "unknown argument '$1' (see the header of $0)" ;;
  esac
done
if ! [[ $clean_runs =~ ^[0-9]+$ ]] || ((clean_runs < 10)); then
  die "$EXIT_INVALID" "--clean-runs takes a whole number of at least 10 (the runs a runner needs)"
fi
[[ $slowdown_pct =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "$EXIT_INVALID" "--slowdown-pct takes a positive number"
for tool in jq patch cmake; do need_tool "$tool"; done
nvidia-smi >/dev/null 2>&1 || { echo "SKIPPED: no GPU (nvidia-smi failed)"; exit "$EXIT_NOT_JUDGED"; }

benchmark="reduction/reduce7_many_elements_per_thread/n:268435456"
repo="$out/repo" build="$out/build" store="$out/history.sqlite" log="$out/runner_history_check.log"
rm -rf "$repo" "$build" "$out/runs" "$out/clean" "$out/planted" "$store" "$log"
mkdir -p "$repo" "$out/runs"
tar -C "$root" --exclude='./build*' --exclude='./.git' -cf - . | tar -C "$repo" -xf -
cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native \
  -DGPUPERF_ONLY_FAMILIES=reduction -DGPUPERF_BUILD_TESTS=OFF >"$out/configure.log" 2>&1 ||
  die "$EXIT_INVALID" "configuring the scratch copy failed: $out/configure.log"
build_it() { cmake --build "$build" >"$out/build.log" 2>&1 || die "$EXIT_INVALID" "the build failed: $out/build.log"; }
build_it
bench="$build/perf_tests/gpuperf_bench" gate="$build/perf_tests/gate/perf_gate"
gpu=$(gpu_info "$bench")
uuid=$(jq -r .uuid <<<"$gpu") slug=$(jq -r .slug <<<"$gpu")
baseline="$repo/baselines/$slug.json"
[[ -f $baseline ]] || { echo "SKIPPED: no baseline for $slug ($baseline)"; exit "$EXIT_NOT_JUDGED"; }
echo "GPU $uuid ($slug); the baseline was recorded on $(jq -r '.recorded.gpu_uuids | join(", ")' "$baseline")" | tee "$log"

# judge <dir> [perf_gate run options...]: the reduction family's perf test into <dir>; its exit code in rc.
rc=0
judge() {
  local dir=$1
  shift
  rc=0
  "$gate" run --family reduction --bench "$bench" --baselines "$repo/baselines" --out "$dir" --no-diagnosis "$@" \
    >"$dir.log" 2>&1 || rc=$?
  ((rc == 0 || rc == EXIT_REGRESSION)) || die "$EXIT_INVALID" "the perf test failed (exit $rc): $dir.log"
}
verdict_of() {  # verdict_of <verdict.json>: the benchmark's verdict, change and note
  jq -r --arg b "$benchmark" 'def pct: (. * 100 | round) / 100 | tostring;
    .benchmarks[] | select(.name == $b) |
    "\(.verdict) \(.change_pct | pct)% [\(.ci_low_pct | pct), \(.ci_high_pct | pct)] tolerance \(.tolerance_pct | pct)% \(.note)"' "$1"
}
slow_count() { jq '[.benchmarks[] | select(.verdict == "SLOW")] | length' "$1"; }

for ((i = 1; i <= clean_runs; i++)); do
  runs="$out/runs/$i"
  judge "$runs"
  "$gate" history-append --store "$store" --verdict "$runs/reduction.verdict.json" \
    --results "$runs"/reduction.run*.json "$runs/reduction.fingerprints.json" --commit 0000000 \
    --date "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --run-key "runner-history-check/$i/$uuid" --runner "$(hostname)" \
    >>"$out/append.log" 2>&1 || die "$EXIT_INVALID" "appending run $i failed: $out/append.log"
  echo "clean run $i (into the history): $(verdict_of "$runs/reduction.verdict.json")" | tee -a "$log"
done

"$gate" history-offsets --store "$store" --baseline "$baseline" --out "$out/runner-history.json" | tee -a "$log"

judge "$out/clean" --runner-history "$out/runner-history.json"
clean_slow=$(slow_count "$out/clean/reduction.verdict.json")
echo "clean run judged with the runner history: $clean_slow SLOW; $(verdict_of "$out/clean/reduction.verdict.json")" |
  tee -a "$log"

# 1% of the benchmark's time in SM cycles at the clock it ran at, from the first clean run.
cycles=$(jq -s -r --arg b "$benchmark/iterations:1/manual_time" --argjson pct "$slowdown_pct" '
  [.[].benchmarks[] | select(.run_name == $b and .run_type == "iteration")] as $s
  | if ($s | length) == 0 then 0 else
      ($s | map(.real_time) | sort | .[length / 2 | floor]) as $us
      | ($s | map(.sm_clock_mhz) | sort | .[length / 2 | floor]) as $mhz
      | ($us * $mhz * $pct / 100 | floor) end' "$out/runs/1"/reduction.run*.json)
((cycles > 0)) || die "$EXIT_INVALID" "no time of $benchmark in the first run"
patch -p1 --fuzz=0 -s -d "$repo" <"$repo/kernels/reduction/planted_ramp.patch" ||
  die "$EXIT_INVALID" "kernels/reduction/planted_ramp.patch does not apply to this tree"
sed -i "s/^constexpr long long kPlantedSpinCycles = .*;/constexpr long long kPlantedSpinCycles = $cycles;/" \
  "$repo/kernels/reduction/reduce7_many_elements_per_thread.cu"
build_it
judge "$out/planted" --runner-history "$out/runner-history.json"
with=$(verdict_of "$out/planted/reduction.verdict.json")
"$gate" compare --baseline "$baseline" --results "$out/planted"/reduction.run*.json --family reduction \
  --markdown "$out/planted_without.md" --json "$out/planted_without.json" >/dev/null 2>&1 || true
without=$(verdict_of "$out/planted_without.json")
echo "planted +$slowdown_pct% ($cycles cycles) judged with the runner history: $with" | tee -a "$log"
echo "the same processes judged against the baseline alone: $without" | tee -a "$log"
if ((clean_slow == 0)) && [[ $with == SLOW* ]]; then
  echo "PASS: no false alarm on clean code; the planted slowdown is SLOW against this runner's own history"
  exit 0
fi
echo "FAIL: see $log"
exit "$EXIT_REGRESSION"
