# shellcheck shell=bash
# The re-measure loop of calibrate.sh (perf_gate run and ab-run have it in C++,
# perf_tests/gate/driver/looks.h, with the same scenarios tested): judge;
# while the verdict is ambiguous, measure more and judge again, at most N times. The gate spends its
# false-alarm budget over all those looks (perf_gate --looks N+1), so the loop must never run past N.
# Source it; do not run it.

# remeasure_loop <N> <judge> <ambiguous> <measure_more>: calls judge; then, for attempt 1 to N, while
# `ambiguous` succeeds, `measure_more <attempt>` and judge again. The three are the caller's functions
# and share its variables (the verdict judge sets, the files measure_more adds); judge and measure_more run
# under the caller's errexit, ambiguous is a test. Local names start with remeasure_, so that no callback
# reads one of them in place of its own variable.
remeasure_loop() {
  local remeasure_max=$1 remeasure_judge=$2 remeasure_ambiguous=$3 remeasure_more=$4 remeasure_attempt
  "$remeasure_judge"
  for ((remeasure_attempt = 1; remeasure_attempt <= remeasure_max; remeasure_attempt++)); do
    "$remeasure_ambiguous" || break
    "$remeasure_more" "$remeasure_attempt"
    "$remeasure_judge"
  done
}
