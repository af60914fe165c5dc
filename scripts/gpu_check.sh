#!/usr/bin/env bash
# Everything a GPU host can prove, in one call: configure and build, unit and correctness tests, the
# perf suite against this GPU's committed baseline, and optionally re-recording that baseline, the
# gate's calibration and a planted real regression. Every log, result and report lands in OUTDIR
# (packed into OUTDIR/gpu_check.tar.gz as well); a summary table is printed last.
#
#   gpu_check.sh OUTDIR [--build-dir DIR] [--families "a;b"] [--record] [--calibrate]
#                       [--planted-regression] [--other-process] [--clean-runs N] [--ab-clean-runs N]
#                       [--clean-family F] [--deadline SECONDS] [--order-check] [--skip-correctness]
#                       [--skip-perf] [--skip-unit] [--consumer] [--nvbench-prefix P] [--timings]
#
# --clean-runs / --ab-clean-runs: false-alarm checks on unchanged code, each run in fresh processes:
# scripts/perf_test.sh of F against the committed baseline (every family for "all"; odd runs with the
# memory canary, even runs without, so that its effect on the families' medians can be read), and
# scripts/ab_compare.sh of the build against itself (F: a family, default reduction, or "all" for the
# whole suite). They time only (--no-reference-check): the correctness step checks this build. (So they
# capture no fingerprints and add nothing to the same-code ledger: the perf step's checking processes do,
# into the build's same-code-ledger.json, copied to OUTDIR.)
# --record: re-record this GPU's baseline (scripts/update_baseline.sh) and the ncu profiles beside it
# (scripts/record_ncu.sh).
# --deadline: start no further clean run when the last one would end after SECONDS since the start.
# --order-check: scripts/order_check.sh over the whole suite, 3 rounds (does a benchmark's time depend on
# checks, order, its neighbours, the pause after freed memory?), its table in OUTDIR/order/.
# --consumer: scripts/consumer_check.sh: the harness installed, examples/consumer built against it,
# its first baseline recorded, then a real slowdown planted in its kernel judged (OUTDIR/consumer/); and
# scripts/gbench_consumer_check.sh, the same for examples/gbench_suite, a Google Benchmark suite, with
# A/B of its clean and planted builds (OUTDIR/gbench_consumer/); and scripts/nvbench_consumer_check.sh, the
# same for examples/nvbench_suite, an nvbench suite (OUTDIR/nvbench_consumer/), where nvbench is installed.
# --nvbench-prefix: where nvbench is installed (scripts/build_nvbench.sh P); default $NVBENCH_PREFIX; without
# one the nvbench check is skipped, saying so.
# --timings: scripts/timing_check.sh, in a copy of the tree (OUTDIR/timings/): the README's main command from
# no build folder, a pull request's check with one line of a kernel changed, and the A/B job for it, timed.
# --skip-unit: leave the unit tests out (they need no GPU; a build that CI tested has run them).
# --other-process: a second benchmark process shares the GPU while the perf test of family F runs; the
# gate must say "not judged" (exit 77: skipped), never pass or fail.
#
# Exit: 0 when every step that ran passed, else the first failing step's code.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"
root="$(cd "$(dirname "$0")/.." && pwd)"

(($#)) || die "$EXIT_INVALID" "usage: $0 OUTDIR [options] (see the header)"
out=$(out_folder "$1") || exit "$EXIT_INVALID"
shift
build="$root/build-gpu" families="" record="" calibrate="" planted="" clean_runs=0 ab_clean_runs=0
clean_family=reduction other_process="" skip_perf="" skip_unit="" skip_correctness="" order_check="" deadline=0 consumer="" timings=""
nvbench_prefix=${NVBENCH_PREFIX:-}
while (($#)); do
  case "$1" in
    --build-dir) need_value "$@"; build=$2; shift 2 ;;
    --families) need_value "$@"; families=$2; shift 2 ;;
    --record) record=1; shift ;;
    --calibrate) calibrate=1; shift ;;
    --planted-regression) planted=1; shift ;;
    --clean-runs) need_value "$@"; clean_runs=$2; shift 2 ;;
    --ab-clean-runs) need_value "$@"; ab_clean_runs=$2; shift 2 ;;
    --clean-family) need_value "$@"; clean_family=$2; shift 2 ;;
    --deadline) need_value "$@"; deadline=$2; shift 2 ;;
    --other-process) other_process=1; shift ;;
    --order-check) order_check=1; shift ;;
    --consumer) consumer=1; shift ;;
    --nvbench-prefix) need_value "$@"; nvbench_prefix=$2; shift 2 ;;
    --timings) timings=1; shift ;;
    --skip-perf) skip_perf=1; shift ;;
    --skip-unit) skip_unit=1; shift ;;
    --skip-correctness) skip_correctness=1; shift ;;
    *) die "$EXIT_INVALID" "unknown argument '$1' (see gpu_check.sh --help)" ;;
  esac
done
[[ -n $other_process && $clean_family == all ]] &&
  die "$EXIT_INVALID" "--other-process judges one family: pass --clean-family with a family name, not 'all'"
logs="$out/logs"
mkdir -p "$logs"
status=0
declare -a steps=()

step() {  # step <name> <command...>: runs, logs, records the outcome; never stops the script
  local name=$1 rc=0 start=$SECONDS
  shift
  "$@" >"$logs/$name.log" 2>&1 || rc=$?
  steps+=("$(printf '%-28s exit %-3s %4ss' "$name" "$rc" $((SECONDS - start)))")
  echo "== $name: exit $rc ($((SECONDS - start)) s)"
  ((rc == 0 || status != 0)) || status=$rc
  return "$rc"
}

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv
  nvcc --version | tail -n 2
  cmake --version | head -n 1
} >"$out/environment.txt" 2>&1
cat "$out/environment.txt"

family_args=()
[[ -n $families ]] && family_args=(-DGPUPERF_ONLY_FAMILIES="$families")
step configure cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native \
  "${family_args[@]}" || { tail -n 30 "$logs/configure.log"; exit "$status"; }
step build cmake --build "$build" -j "$(nproc)" || { grep -E 'error|FAILED' "$logs/build.log" | head -n 30; exit "$status"; }

# Where the correctness and perf steps' time went: each GPU test writes a phase file there (CTest gives
# it GPUPERF_PHASES_DIR; scripts/lib/phases.sh).
phases_dir="$build/perf-results/phases"
rm -rf "$phases_dir"
[[ -n $skip_unit ]] ||
  step unit ctest --test-dir "$build" -L unit --output-on-failure --output-junit "$out/unit-junit.xml"
if [[ -z $skip_correctness ]]; then
  step correctness ctest --test-dir "$build" -L correctness --output-on-failure \
    --output-junit "$out/correctness-junit.xml"
fi
# The shared-memory latency model's fit (C1, C2, R^2, minimum latency) is printed by its test, which
# CTest shows only on failure: run it once more on its own to record the figures.
"$build/perf_tests/gpuperf_correctness" --gtest_filter='smem_latency.latency_model_fit*' 2>&1 |
  grep -E "smem_latency fit:" | tee "$out/smem_latency_fit.txt"

if [[ -n $record ]]; then
  step record_baseline "$root/scripts/update_baseline.sh" --build-dir "$build"
  tail -n 60 "$logs/record_baseline.log"
  if command -v ncu >/dev/null 2>&1; then
    step record_ncu "$root/scripts/record_ncu.sh" --build-dir "$build"
    tail -n 5 "$logs/record_ncu.log"
  else
    steps+=("$(printf '%-28s %s' record_ncu "not run: no ncu on PATH")")
  fi
fi

if [[ -n $other_process ]]; then
  # Another user's job on the same GPU, outside our lock: memory-bound kernels in a loop.
  "$build/perf_tests/gpuperf_bench" --no-reference-check --benchmark_filter='^ceiling/' \
    --benchmark_repetitions=1000000 >"$logs/other_process_hog.log" 2>&1 &
  hog=$!
  sleep 5
  rc=0
  "$build/perf_tests/gate/perf_gate" run --family "$clean_family" --bench "$build/perf_tests/gpuperf_bench" \
    --baselines "$root/baselines" --out "$build/perf-results" >"$logs/other_process.log" 2>&1 || rc=$?
  kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null
  report="$build/perf-results/$clean_family"
  cp -f "$report.md" "$out/other_process_$clean_family.md" 2>/dev/null
  echo "== another process on the GPU: perf_gate run --family $clean_family exit $rc; it must be skipped (77)," \
    "every benchmark NOT_JUDGED"
  grep -m 3 "NOT_JUDGED" "$report.md"
  if ((rc == 77)) &&
    jq -e '[.benchmarks[].verdict] | length > 0 and all(. == "NOT_JUDGED")' "$report.verdict.json" >/dev/null; then
    steps+=("$(printf '%-28s %s' other_process "not judged, skipped (as it must be)")")
  else
    steps+=("$(printf '%-28s %s' other_process "WRONG: judged or not skipped")")
    ((status != 0)) || status=1
  fi
fi

if [[ -z $skip_perf ]]; then
  step perf ctest --test-dir "$build" -L perf --output-on-failure --output-junit "$out/perf-junit.xml"
  grep -hE "^(SLOW|FAST|AMBIGUOUS|MISSING|NEW|ERROR|NOT_JUDGED)|SKIPPED" "$logs/perf.log" | head -n 40
  grep -E "Test +#" "$logs/perf.log"  # each perf test's wall time
  "$build/perf_tests/gate/perf_gate" phases --dir "$phases_dir" --markdown "$out/time-spent.md" \
    --json "$out/time-spent.json" >>"$logs/perf.log" 2>&1 && cat "$out/time-spent.md"
fi

# shellcheck disable=SC2317  # reached through step()
clean_run() {  # clean_run <run>: perf_test.sh of each clean family; the first failing exit, else 0
  local family rc=0 family_rc canary=()
  ((${1} % 2)) || canary=(--no-canary)
  for family in "${clean_families[@]}"; do
    family_rc=0
    "$root/scripts/perf_test.sh" --family "$family" --bench "$build/perf_tests/gpuperf_bench" \
      --gate "$build/perf_tests/gate/perf_gate" --baselines "$root/baselines" --out "$out/clean/run$1" \
      --no-reference-check "${canary[@]}" || family_rc=$?
    ((rc != 0)) || rc=$family_rc
  done
  return "$rc"
}
time_left() {  # time_left <seconds the next step takes>: true when it ends before --deadline
  ((deadline == 0 || SECONDS + $1 <= deadline)) ||
    { steps+=("$(printf '%-28s %s' "$2" "not started: --deadline $deadline s")"); return 1; }
}
# --clean-family all: the whole suite.
clean_families=("$clean_family") clean_benchmarks="^${clean_family}/"
if [[ $clean_family == all ]]; then
  mapfile -t clean_families < <("$build/perf_tests/gpuperf_bench" --list-cases | jq -r '[.cases[].family] | unique[]')
  clean_benchmarks="."
fi
last=0
for ((run = 1; run <= clean_runs; run++)); do
  time_left "$last" "clean_run_$run" || break
  start=$SECONDS
  step "clean_run_$run" clean_run "$run"
  last=$((SECONDS - start))
done
last=0
for ((run = 1; run <= ab_clean_runs; run++)); do
  time_left "$last" "ab_clean_run_$run" || break
  start=$SECONDS
  step "ab_clean_run_$run" "$root/scripts/ab_compare.sh" --a "$build/perf_tests/gpuperf_bench" \
    --b "$build/perf_tests/gpuperf_bench" --filter "$clean_benchmarks" --out "$out/ab_clean/run$run" \
    --no-reference-check
  last=$((SECONDS - start))
  grep -h "re-measuring" "$logs/ab_clean_run_$run.log"
  jq -r '[.benchmarks[].verdict] | group_by(.) | map("\(.[0]) \(length)") | join(", ")' \
    "$out/ab_clean/run$run/ab.verdict.json" 2>/dev/null
done


if [[ -n $order_check ]]; then
  step order_check "$root/scripts/order_check.sh" --bench "$build/perf_tests/gpuperf_bench" --out "$out/order" \
    --rounds 3 --repetitions 10 --ways "unchecked reverse family"
  cat "$out/order/order_check.md" 2>/dev/null
fi

if [[ -n $timings ]]; then
  step timings "$root/scripts/timing_check.sh" "$out/timings"
  cat "$out/timings/timings.md" 2>/dev/null
fi

if [[ -n $consumer ]]; then
  step consumer "$root/scripts/consumer_check.sh" "$build" "$out/consumer"
  tail -n 20 "$logs/consumer.log"
  step gbench_consumer "$root/scripts/gbench_consumer_check.sh" "$build" "$out/gbench_consumer"
  tail -n 20 "$logs/gbench_consumer.log"
  if [[ -n $nvbench_prefix ]]; then
    step nvbench_consumer "$root/scripts/nvbench_consumer_check.sh" "$build" "$out/nvbench_consumer" \
      --nvbench-prefix "$nvbench_prefix"
    tail -n 20 "$logs/nvbench_consumer.log"
  else
    echo "== nvbench_consumer: skipped: nvbench is not installed (build it with scripts/build_nvbench.sh P, then --nvbench-prefix P)"
  fi
fi

if [[ -n $calibrate ]]; then
  step calibrate "$root/scripts/calibrate.sh" --build-dir "$build" --out "$out/calibration"
  cat "$out/calibration/calibration.md" 2>/dev/null
fi

if [[ -n $planted ]]; then
  # A real code regression, not an injected one: kernels/reduction/planted_slowdown.patch launches
  # reduce9 with at most 128 blocks (the seed's fixed grid) instead of enough blocks to fill every SM,
  # applied to a scratch copy of the tree (removed on exit). Its perf test (the one family) must fail against the
  # committed baseline, and A/B mode must catch it against the unchanged build. unit.planted_patches
  # checks on every push that the patch still applies.
  need_tool patch
  planted_patch="$root/kernels/reduction/planted_slowdown.patch"
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  tar -C "$root" --exclude='./build*' --exclude='./.git' -cf - . | tar -C "$scratch" -xf -
  patch -d "$scratch" -p1 --forward --batch --fuzz=0 -i "$planted_patch" >"$logs/planted_patch.log" 2>&1 ||
    die "$EXIT_INVALID" "could not plant the regression: reduce9's launcher has changed (see $logs/planted_patch.log);" \
      "regenerate the patch with: edit kernels/reduction/reduce9_shfl_down_last_warp.cu to launch at most 128 blocks," \
      "then git diff kernels/reduction/reduce9_shfl_down_last_warp.cu >kernels/reduction/planted_slowdown.patch" \
      "and git checkout kernels/reduction/reduce9_shfl_down_last_warp.cu"
  if ! cmake -S "$scratch" -B "$scratch/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=native \
    -DGPUPERF_ONLY_FAMILIES=reduction >"$logs/planted_configure.log" 2>&1 ||
    ! cmake --build "$scratch/build" -j "$(nproc)" >"$logs/planted_build.log" 2>&1; then
    die "$EXIT_INVALID" "the planted-regression build failed; see $logs/planted_configure.log and $logs/planted_build.log"
  fi
  rc=0
  ctest --test-dir "$scratch/build" -L '^perf$' --output-on-failure >"$logs/planted_stored.log" 2>&1 || rc=$?
  echo "== planted regression, stored baseline: ctest exit $rc (a failure is the expected outcome)"
  grep -E "^SLOW" "$logs/planted_stored.log" | head -n 5
  steps+=("$(printf '%-28s %s' planted_stored "$(grep -q '^SLOW .*reduce9' "$logs/planted_stored.log" && echo caught || echo MISSED)")")
  rc=0
  "$root/scripts/ab_compare.sh" --a "$build/perf_tests/gpuperf_bench" --b "$scratch/build/perf_tests/gpuperf_bench" \
    --out "$out/planted_ab" --filter '^reduction/reduce9_shfl_down_last_warp/' --rounds 4 >"$logs/planted_ab.log" 2>&1 || rc=$?
  echo "== planted regression, A/B: exit $rc (1 is the expected outcome)"
  grep -E "^SLOW" "$logs/planted_ab.log" | head -n 5
  steps+=("$(printf '%-28s %s' planted_ab "$( ((rc == 1)) && echo caught || echo "MISSED (exit $rc)")")")
fi

results=("$build"/perf-results/*.run1.json)
[[ -e ${results[0]} ]] && "$build/perf_tests/gpuperf_bench" --list-cases >"$out/cases.json" 2>"$logs/fleet_report.log" && "$build/perf_tests/gate/perf_gate" report --cases "$out/cases.json" --results "${results[@]}" --markdown "$out/summary.md" >>"$logs/fleet_report.log" 2>&1
cp -f "$build"/perf-results/*.md "$build/same-code-ledger.json" "$out/" 2>/dev/null || true
tar -C "$out" -czf "$out/gpu_check.tar.gz" --exclude=gpu_check.tar.gz . 2>/dev/null
[[ -f $out/summary.md ]] && cat "$out/summary.md"
echo
echo "== steps"
printf '%s\n' "${steps[@]}"
exit "$status"
