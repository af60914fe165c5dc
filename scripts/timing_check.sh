#!/usr/bin/env bash
# How long a GPU host takes for the jobs a team waits on, measured in a copy of this tree as a fresh clone
# has it (no build folder), which is removed afterwards:
#   1. the README's main command, `bash scripts/install_deps.sh && cmake --workflow --preset perf`: the
#      whole, its configure (CMake's own figure), its build (Ninja's log, first start to last end) and its
#      tests (CTest's figure), and where the tests' time went (perf_gate phases);
#   2. a pull request's check on that build: reconfigured with -DGPUPERF_SKIP_UNCHANGED=ON, one line added
#      to reduce7's kernel (a branch never taken: new machine code, the same work), then
#      `cmake --build --preset perf` and `ctest --preset perf`, each timed, and what was timed and judged;
#   3. the A/B job for the same change: scripts/ab_compare.sh of the build before the change against the
#      build after it, the whole suite.
# The verdicts are the committed baseline's for this GPU: a GPU without one has its perf steps skipped.
#
#   timing_check.sh OUTDIR
#
# Writes OUTDIR/timings.md (the figures, printed too), the perf tests' and the A/B job's reports
# (main_families*.md, pr_families*.md, ab.md) and OUTDIR/logs/.
# Exit: 0 every step passed (a perf test's exit 8 is a step that did not), else the first failing step's
# exit code; 2 bad usage or no CMake; 77 no GPU.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"
root="$(cd "$(dirname "$0")/.." && pwd)"

(($# == 1)) || die "$EXIT_INVALID" "usage: $0 OUTDIR"
out=$(out_folder "$1") || exit "$EXIT_INVALID"
need_tool cmake
need_tool jq
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  die "$EXIT_NOT_JUDGED" "no GPU here (nvidia-smi lists none): nothing to time"
fi
logs="$out/logs"
mkdir -p "$logs"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
tar -C "$root" --exclude='./build*' --exclude='./.git' -cf - . | tar -C "$scratch" -xf -
build="$scratch/build/dev"
status=0 rows=()

now() { date +%s.%N; }
row() { rows+=("| $1 | $2 |"); }
took="" rc=0
timed() {  # timed <name> <command...>: runs it in the copy, logged to logs/<name>.log; sets took [s] and rc
  local name=$1 start
  shift
  rc=0
  start=$(now)
  (cd "$scratch" && "$@") >"$logs/$name.log" 2>&1 || rc=$?
  took=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
  ((rc == 0 || status != 0)) || status=$rc
}
verdict_counts() {  # the verdicts of the families' perf tests: "SAME 106, UNCHANGED 2"
  jq -rs '[.[].benchmarks[].verdict] | group_by(.) | map("\(.[0]) \(length)") | join(", ")' \
    "$build"/perf-results/families*.verdict.json 2>/dev/null
}

row "GPU(s)" "$(nvidia-smi --query-gpu=name,uuid --format=csv,noheader | paste -sd ';' -)"
timed main bash -c 'bash scripts/install_deps.sh && cmake --workflow --preset perf'
row "the README's main command [s]" "$took (exit $rc)"
row "of which configure [s] (CMake)" "$(sed -n 's/^-- Configuring done (\(.*\)s)$/\1/p' "$logs/main.log")"
row "of which build [s] (Ninja's log)" "$(awk 'NR > 1 { if (s == "" || $1 < s) s = $1; if ($2 > e) e = $2 }
  END { printf "%.1f", (e - s) / 1000 }' "$build/.ninja_log" 2>/dev/null)"
row "of which tests [s] (CTest)" "$(sed -n 's/^Total Test time (real) = *\([0-9.]*\) sec$/\1/p' "$logs/main.log")"
row "verdicts" "$(verdict_counts)"
"$build/perf_tests/gate/perf_gate" phases --dir "$build/perf-results/phases" >"$out/main_phases.md" 2>&1
for report in "$build"/perf-results/families*.md; do cp -f "$report" "$out/main_$(basename "$report")"; done
cp -f "$build/.ninja_log" "$logs/main.ninja_log"  # each build step's start and end [ms]

# The build before the change, for the A/B job.
mkdir -p "$scratch/before/gate"
cp "$build/perf_tests/gpuperf_bench" "$scratch/before/" && cp "$build/perf_tests/gate/perf_gate" "$scratch/before/gate/"
kernel="$scratch/kernels/reduction/reduce7_many_elements_per_thread.cu"
grep -q '^  const unsigned tid = threadIdx.x;$' "$kernel" ||
  die "$EXIT_INVALID" "reduce7's kernel has changed: update the line timing_check.sh adds to it"
sed -i 's|^  const unsigned tid = threadIdx.x;$|&\n  if (n < 0) out[0] = -1;  // never taken|' "$kernel"
timed reconfigure cmake --preset dev -DGPUPERF_SKIP_UNCHANGED=ON
timed pr_build cmake --build --preset perf
row "a pull request's check: incremental build [s]" "$took (exit $rc)"
timed pr_tests ctest --preset perf
row "a pull request's check: ctest --preset perf [s]" "$took (exit $rc)"
row "verdicts" "$(verdict_counts)"
"$build/perf_tests/gate/perf_gate" phases --dir "$build/perf-results/phases" >"$out/pr_phases.md" 2>&1
for report in "$build"/perf-results/families*.md; do cp -f "$report" "$out/pr_$(basename "$report")"; done
timed ab bash scripts/ab_compare.sh --a "$scratch/before/gpuperf_bench" --b "$build/perf_tests/gpuperf_bench" \
  --out "$scratch/ab"
row "the A/B job for that change [s]" "$took (exit $rc)"
cp -f "$scratch/ab/ab.md" "$out/ab.md" 2>/dev/null

{
  echo "| timing_check.sh | |"
  echo "|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "The README's main command, where the tests' time went:"
  cat "$out/main_phases.md"
  echo
  echo "The pull request's check, where the tests' time went:"
  cat "$out/pr_phases.md"
} >"$out/timings.md"
cat "$out/timings.md"
exit "$status"
