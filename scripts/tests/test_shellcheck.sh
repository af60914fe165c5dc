#!/usr/bin/env bash
# Runs shellcheck (every severity) on every shell script of the repository, and actionlint plus shellcheck on
# every run: block of the workflows and of the example caller in examples/consumer/ (scripts/ci/lint_workflows.sh). Exit 77 (skipped) when the tools are
# not installed: bash scripts/install_deps.sh --with-lint.
#   test_shellcheck.sh
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root" || exit 2
command -v shellcheck >/dev/null 2>&1 || { echo "SKIPPED: shellcheck is not installed"; exit 77; }
mapfile -t scripts < <(git ls-files -co --exclude-standard -- '*.sh' .ci/run 'scripts/tests/fake_ci/*')
rc=0
shellcheck -x "${scripts[@]}" || rc=1
echo "shellcheck: ${#scripts[@]} scripts"
bash scripts/ci/lint_workflows.sh .github/workflows || rc=$?
# The example caller of the reusable workflows, as a team copies it (our runner labels apply).
bash scripts/ci/lint_workflows.sh examples/consumer/.github/workflows .github/actionlint.yaml || rc=$?
exit "$rc"
