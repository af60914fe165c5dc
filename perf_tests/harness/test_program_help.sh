#!/usr/bin/env bash
# unit.program_help: `gpuperf_bench --help` and `gpuperf_correctness --help`, with no GPU visible
# (CUDA_VISIBLE_DEVICES empty: a program that looked for one would exit 77), exit 0 with nothing on stderr
# and print their own flags (the tables of harness/bench_flags.cpp and correctness_main.cpp; unit.harness
# checks that every flag of the bench's table is listed), then the library's own flags. A flag of the
# table misused is exit 2 before any GPU is looked for; a flag no one knows is still the library's to
# refuse (no GPU: 77 first, as before).
#   test_program_help.sh GPUPERF_BENCH GPUPERF_CORRECTNESS
set -uo pipefail
(($# == 2)) || { echo "usage: $0 GPUPERF_BENCH GPUPERF_CORRECTNESS" >&2; exit 2; }
bench=$1 correctness=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

# help <program> <expected line>...: --help exits 0, stderr empty, each expected line on stdout.
help() {
  local program=$1 rc=0 line
  shift
  CUDA_VISIBLE_DEVICES='' "$program" --help >"$work/out" 2>"$work/err" || rc=$?
  if ((rc != 0)) || [[ -s $work/err ]]; then
    echo "FAIL: $(basename "$program") --help: exit $rc (want 0), stderr: $(cat "$work/err")"
    failed=1
    return
  fi
  for line in "$@"; do
    grep -qxF -- "$line" "$work/out" || { echo "FAIL: $(basename "$program") --help has no line '$line'"; failed=1; }
  done
}
# expect <exit> <text> <program> <args...>: with no GPU visible.
expect() {
  local want=$1 text=$2 program=$3 rc=0
  shift 3
  CUDA_VISIBLE_DEVICES='' "$program" "$@" >"$work/out" 2>&1 || rc=$?
  if ((rc != want)) || ! grep -qF -- "$text" "$work/out"; then
    echo "FAIL: $(basename "$program") $*: exit $rc (want $want), output should contain '$text':"
    sed 's/^/    /' "$work/out"
    failed=1
  fi
}

help "$bench" "flags of the harness:" "  --help" "  --list-cases" "  --time-filter=REGEX" "  --profiler-window-order=FILE"
grep -q -- "--benchmark_filter" "$work/out" || { echo "FAIL: gpuperf_bench --help lists no Google Benchmark flag"; failed=1; }
help "$correctness" "flags of the harness:" "  --help" "  --version"
grep -q -- "--gtest_filter" "$work/out" || { echo "FAIL: gpuperf_correctness --help lists no GoogleTest flag"; failed=1; }

expect 2 "error: --time-filter needs a value: give --time-filter=REGEX (see --help)" "$bench" --time-filter
expect 2 "error: --version takes no value: give --version (see --help)" "$correctness" --version=1
expect 77 "SKIPPED" "$bench" --no-such-flag

((failed == 0)) && echo "PASS: --help of both programs, with no GPU"
exit "$failed"
