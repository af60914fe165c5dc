#!/usr/bin/env bash
# Reads CTest's JUnit file (ctest --output-junit) and makes a skipped GPU test fail the job: CTest counts
# exit 77 (no GPU visible, throttled, another process on the GPU, nothing judged) as skipped and exits 0,
# so without this a job that judged nothing is green. A skip matching ALLOWED_REGEX is legitimate
# (documented where the workflow passes it) and becomes a ::warning:: instead.
#
#   junit_check.sh JUNIT.xml [ALLOWED_REGEX]
# Exit: 0 every test ran (or its skip is allowed), 1 a test failed or was skipped, 2 no/invalid file.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
(($# == 1 || $# == 2)) || die "$EXIT_INVALID" "usage: $0 JUNIT.xml [ALLOWED_REGEX]"
junit=$1 allowed=${2:-}
[[ -s $junit ]] || die "$EXIT_INVALID" "no JUnit file at $junit: did ctest run with --output-junit?"

# A test's name in a workflow command's message: % CR LF escaped as GitHub documents, so that a name in
# the JUnit file can neither end the annotation nor start another command.
command_data() {
  local text=${1//%/%25}
  text=${text//$'\r'/%0D}
  printf '%s' "${text//$'\n'/%0A}"
}

# CTest writes one <testcase name="..." classname="..." time="..." status="run|fail|notrun|disabled"> a line.
cases=$(sed -nE 's/^[[:space:]]*<testcase name="([^"]*)".* status="([a-z]*)".*/\2 \1/p' "$junit")
[[ -n $cases ]] || die "$EXIT_INVALID" "$junit lists no test case"
bad=0 ran=0
while read -r status name; do
  case "$status" in
    run) ran=$((ran + 1)) ;;
    fail) echo "::error title=test failed::$(command_data "$name") failed"; bad=1 ;;
    notrun | disabled)
      if [[ -n $allowed && $name =~ $allowed ]]; then
        echo "::warning title=not judged::$(command_data "$name was skipped (allowed: matches '$allowed'); it judged nothing")"
      else
        echo "::error title=test skipped::$(command_data "$name") was skipped: nothing was judged (exit 77: no GPU visible, no baseline, throttled or shared GPU; see its output)"
        bad=1
      fi ;;
    *) die "$EXIT_INVALID" "unknown test status '$status' of $name in $junit" ;;
  esac
done <<<"$cases"
echo "junit: $ran of $(wc -l <<<"$cases") tests ran and passed"
exit "$bad"
