# shellcheck shell=bash
# Profiling benchmarks' kernels with Nsight Compute for scripts/record_ncu.sh (the profiles kept beside a
# baseline): ncu itself runs through scripts/ncu_profile.sh, as it does for perf_gate's diagnosis of a
# SLOW verdict, so that both sides of a diagnosis measure the same window the same way. Sourced after
# lib/common.sh.

# profiled_benchmarks <results with fingerprints>: the benchmarks whose fingerprint CUPTI captured with at
# least one kernel, one a line: only those can be profiled, as their launches count and check ncu's rows.
profiled_benchmarks() {
  jq -r '.fingerprints // {} | to_entries[]
         | select(.value.capture_status == "cupti" and (.value.kernels // [] | length) > 0) | .key' "$1"
}

# ncu_profile <ncu> <gate> <bench> <results with fingerprints> <profiles out> <gpu slug> <benchmark>...:
# one ncu pass over the benchmarks' profiler windows (scripts/ncu_profile.sh, with the diagnosis's metric
# set), then perf_gate ncu-store splits ncu's rows into each benchmark's profile, checked against its
# fingerprint in <results>, and stores them in <profiles out> (created or updated). Beside it:
# <profiles out>.csv, .order, .log (ncu_profile.sh's) and .store.log (ncu-store's: "left out: NAME: why"
# for each benchmark it could not attribute). Exit non-zero when no benchmark's profile could be stored.
ncu_profile() {
  local ncu=$1 gate=$2 bench=$3 results=$4 profiles=$5 slug=$6
  shift 6
  bash "$(dirname "${BASH_SOURCE[0]}")/../ncu_profile.sh" --ncu "$ncu" --metrics "$("$gate" ncu-metrics)" \
    --bench "$bench" --out "$profiles" -- "$@" || return 1
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
