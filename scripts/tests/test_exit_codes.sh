#!/usr/bin/env bash
# The exit codes are defined twice: in C++ (perf_tests/formats/exit_codes.h, perf_gate and the benchmark programs) and in the
# scripts' library (scripts/lib/common.sh, EXIT_*). Fails when the two disagree: a code missing from
# either, or one with another value. The shell's EXIT_INVALID is the header's kExitInvalidInput.
#   test_exit_codes.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"

headers=("$root/perf_tests/formats/exit_codes.h")

# "NAME VALUE" lines, sorted: kExitNotJudged = 77 -> NOT_JUDGED 77.
header_codes=$(sed -nE 's/^inline constexpr int kExit([A-Za-z]+) = ([0-9]+);.*/\1 \2/p' "${headers[0]}" |
  sed -E 's/([a-z])([A-Z])/\1_\2/g' | tr '[:lower:]' '[:upper:]' | sed 's/^INVALID_INPUT /INVALID /' | sort)
shell_codes=$(sed -nE 's/^readonly EXIT_([A-Z_]+)=([0-9]+)$/\1 \2/p' "$root/scripts/lib/common.sh" | sort)

failed=0
for codes in "$header_codes" "$shell_codes"; do
  # Guards against a change of either file's layout that these patterns no longer read.
  (($(wc -l <<<"$codes") >= 4)) || { echo "FAIL: fewer than 4 exit codes read; did the layout change?"; failed=1; }
done
if [[ $header_codes != "$shell_codes" ]]; then
  echo "FAIL: the exit codes of ${headers[0]#"$root"/} and scripts/lib/common.sh differ:"
  diff <(echo "$header_codes") <(echo "$shell_codes") | sed 's/^/    /'
  failed=1
fi
((failed == 0)) && echo "exit codes: $(tr '\n' ' ' <<<"$shell_codes")in both"
exit "$failed"
