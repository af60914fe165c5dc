# shellcheck shell=bash
# Profiling benchmarks' kernels with Nsight Compute, shared by scripts/record_ncu.sh (the profiles kept
# beside a baseline) and scripts/ncu_diagnose.sh (a SLOW verdict's diagnosis), so that both sides of a
# diagnosis measure the same window the same way. Sourced after lib/common.sh.

# profiled_benchmarks <results with fingerprints>: the benchmarks whose fingerprint CUPTI captured with at
# least one kernel, one a line: only those can be profiled, as their launches count and check ncu's rows.
profiled_benchmarks() {
  jq -r '.fingerprints // {} | to_entries[]
         | select(.value.capture_status == "cupti" and (.value.kernels // [] | length) > 0) | .key' "$1"
}

# ncu_profile <ncu> <gate> <bench> <results with fingerprints> <profiles out> <gpu slug> <benchmark>...:
# one ncu process over the benchmarks' profiler windows (gpuperf_bench --profiler-window: per benchmark, set-up,
# warm-up and L2 flush outside the range, the kernels of one timed sample inside), with the diagnosis's
# metric set; then perf_gate ncu-store splits ncu's rows into each benchmark's profile, checked against its
# fingerprint in <results>, and stores them in <profiles out> (created or updated). Writes <profiles out>.csv
# (ncu's output), .order (the bench's order of windows), .log (ncu's and the bench's messages) and .store.log
# (ncu-store's: "left out: NAME: why" for each benchmark it could not attribute). The clocks are left as
# they are (--clock-control none): the timings were taken at the GPU's own clocks, and profiling never
# changes a GPU's settings. Exit non-zero when no benchmark's profile could be stored.
ncu_profile() {
  local ncu=$1 gate=$2 bench=$3 results=$4 profiles=$5 slug=$6
  shift 6
  local filter rc=0
  filter=$(printf '%s\n' "$@" | exact_filter)
  rm -f "$profiles.order"
  # ncu's exit status is the bench's: one benchmark that could not be set up (exit 1) leaves the others' rows.
  "$ncu" --profile-from-start off --clock-control none --csv --page raw --print-units base \
    --print-kernel-base mangled --metrics "$("$gate" ncu-metrics)" \
    "$bench" --profiler-window --profiler-window-order="$profiles.order" --benchmark_filter="$filter" \
    >"$profiles.csv" 2>"$profiles.log" || rc=$?
  [[ -f $profiles.order ]] || { echo "ncu ended (exit $rc) before the bench opened a profiler window" >>"$profiles.log"; return 1; }
  "$gate" ncu-store --profiles "$profiles" --gpu "$slug" --csv "$profiles.csv" --fingerprints "$results" \
    --order "$profiles.order" >"$profiles.store.log" 2>&1
}

# ncu_left_out <profiles out> <benchmark>: why ncu_profile stored no profile of <benchmark>, one line.
ncu_left_out() {
  local profiles=$1 benchmark=$2 line
  line=$(grep -m 1 -F "left out: $benchmark: " "$profiles.store.log" 2>/dev/null || true)
  if [[ -n $line ]]; then echo "${line#"left out: $benchmark: "}"; return; fi
  if [[ -f $profiles.order ]] && ! grep -qxF -- "$benchmark" "$profiles.order"; then
    line=$(grep -m 1 -F "ERROR $benchmark: " "$profiles.log" 2>/dev/null || true)
    echo "the bench opened no profiler window for it${line:+ (${line#ERROR })}"
    return
  fi
  ncu_failure "$profiles"
}

# ncu_failure <profiles out>: the first error line of the pass, for a one-line reason.
ncu_failure() {
  grep -h -m 1 -E "==ERROR==|ERR_|error:|ncu ended" "$1.store.log" "$1.log" 2>/dev/null | head -n 1 || true
}
