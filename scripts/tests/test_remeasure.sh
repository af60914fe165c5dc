#!/usr/bin/env bash
# Tests of remeasure_loop (scripts/lib/remeasure.sh), calibrate.sh's re-measure loop: it
# judges once, re-measures only while the verdict is ambiguous, never more than N times (the gate's --looks
# budget), and tells measure_more which attempt it is. perf_gate run's and ab-run's loop, in C++, is tested with the same
# scenarios in perf_tests/gate/tests/driver/test_looks.cpp.
#   test_remeasure.sh
set -euo pipefail
source "$(dirname "$0")/../lib/remeasure.sh"

failed=0
expect() {  # expect <description> <expected> <actual>
  [[ $2 == "$3" ]] && return
  failed=1
  echo "FAIL: $1: expected '$2', got '$3'"
}

# A verdict that stays ambiguous for the first `ambiguous_looks` judgements; the calls in order.
calls="" looks=0 ambiguous_looks=0 max=0
# shellcheck disable=SC2317  # reached through remeasure_loop
judge() { looks=$((looks + 1)); calls+="judge "; }
# shellcheck disable=SC2317  # reached through remeasure_loop
ambiguous() { ((looks <= ambiguous_looks)); }
# shellcheck disable=SC2317  # reached through remeasure_loop
measure_more() { calls+="more$1 "; }
# The local names of the loop must not hide the caller's variables of the same meaning.
# shellcheck disable=SC2317  # reached through remeasure_loop
more_reads_max() { calls+="max=$max "; }

check() {  # check <N> <ambiguous looks> <expected calls>
  calls="" looks=0 ambiguous_looks=$2
  remeasure_loop "$1" judge ambiguous measure_more
  expect "N=$1, ambiguous for $2 looks" "$3" "$calls"
}
check 3 0 "judge "
check 3 1 "judge more1 judge "
check 3 2 "judge more1 judge more2 judge "
check 3 9 "judge more1 judge more2 judge more3 judge "
check 0 9 "judge "

calls="" looks=0 ambiguous_looks=9 max=7
remeasure_loop 1 judge ambiguous more_reads_max
expect "a callback sees the caller's variables" "judge max=7 judge " "$calls"

((failed == 0)) && echo "remeasure_loop: all checks passed"
exit "$failed"
