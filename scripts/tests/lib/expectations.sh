# shellcheck shell=bash
# The expectations of the script tests that run a command, then look at its exit code and output: each
# counts into passed and failed, and prints what failed. Source it; the test sets work (its scratch folder:
# each command's output goes to $work/log) and ends with expectations_summary.
passed=0 failed=0

# expect <exit> <text> <description>: the last command's exit code, and its output ($work/log) holds text
# (a grep pattern).
# shellcheck disable=SC2154  # work: the test's scratch folder, set before it sources this file
expect() {
  local rc=$? want=$1 text=$2 what=$3
  if ((rc == want)) && grep -q -- "$text" "$work/log"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $what: exit $rc (want $want), output should contain '$text':"
    sed 's/^/    /' "$work/log"
  fi
}

# check <description> <command...>: the command succeeds.
check() {
  local what=$1
  shift
  if "$@" >/dev/null 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $what"; fi
}

# expectations_summary <what>: "<what>: N passed, M failed"; fails when one did.
expectations_summary() {
  echo "$1: $passed passed, $failed failed"
  ((failed == 0))
}
