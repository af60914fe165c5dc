#!/usr/bin/env bash
# Tests of scripts/calibrate.sh on a machine without a GPU, through fake_bench.sh and the real gate: a
# planted 10% slowdown is caught in every trial of both modes, clean runs raise no alarm, and the
# report says so.
#   test_calibrate.sh PERF_GATE
set -uo pipefail
gate=$1
here="$(cd "$(dirname "$0")" && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work  # the lock files too

# calibrate.sh finds the binaries inside a build folder.
mkdir -p "$work/build/perf_tests/gate"
ln -s "$here/fake_bench.sh" "$work/build/perf_tests/gpuperf_bench"
ln -s "$gate" "$work/build/perf_tests/gate/perf_gate"

rc=0
bash "$here/../calibrate.sh" --build-dir "$work/build" --out "$work/out" --benchmark fake/long/n:2 \
  --benchmark fake/short/n:1 --slowdowns 10 --trials 3 --rounds 2 --baseline-runs 2 >"$work/log" 2>&1 || rc=$?
failed=0
check() {  # check <description> <command...>
  if "${@:2}" >/dev/null; then return; fi
  failed=1
  echo "FAIL: $1"
}
check "calibrate.sh exits 0 (exit $rc)" test "$rc" -eq 0
json="$work/out/calibration.json"
check "every cell has 3 trials" jq -e '.cells | length == 8 and all(.trials == 3)' "$json"
check "+10% is caught in every trial of both modes" jq -e '[.cells[] | select(.pct == 10) | .slow == 3] | all' "$json"
check "clean runs raise no alarm" jq -e '[.cells[] | select(.pct == 0) | .slow == 0] | all' "$json"
check "the report names the tolerance and the smallest slowdown caught" grep -q "| fake/long/n:2 | 2% (default, same GPU as the baseline) | 0/3 | 3/3 | +10% |" "$work/out/calibration.md"
check "the report counts false alarms" grep -q "False alarms on clean runs: 0 of 6 verdicts." "$work/out/calibration.md"

rc=0
bash "$here/../calibrate.sh" --build-dir "$work/build" --out "$work/ab_only" --benchmark fake/short/n:1 \
  --slowdowns 10 --trials 2 --rounds 2 --modes ab >>"$work/log" 2>&1 || rc=$?
check "--modes ab exits 0 (exit $rc)" test "$rc" -eq 0
check "--modes ab judges A/B trials only" jq -e '.cells | length == 2 and all(.mode == "ab")' "$work/ab_only/calibration.json"
check "--modes ab reports no stored table" bash -c "! grep -q 'Stored baseline' '$work/ab_only/calibration.md'"
rc=0
bash "$here/../calibrate.sh" --build-dir "$work/build" --out "$work/bad" --modes ba >"$work/bad.log" 2>&1 || rc=$?
check "an unknown mode is refused with exit 2 (exit $rc)" test "$rc" -eq 2
check "the refusal names the mode" grep -q "not 'ba'" "$work/bad.log"
((failed == 0)) || sed 's/^/    /' "$work/log"
((failed == 0)) && echo "calibrate.sh: all checks passed"
exit "$failed"
