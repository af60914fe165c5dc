#!/usr/bin/env bash
# On a fork's pull request (build workflow, hosted runner): a notice on the run saying that the GPU
# jobs did not run and how a maintainer runs them, so "no perf result" is never mistaken for "passed".
#
#   fork_notice.sh HEAD_SHA
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
(($# == 1)) || die "$EXIT_INVALID" "usage: $0 HEAD_SHA"
message="GPU perf tests do not run on pull requests from forks (their code would run on our self-hosted GPU runners). After reviewing this pull request, a maintainer runs them with: Actions > perf > Run workflow, sha = $1 (docs/runner_setup.md)."
echo "::notice title=GPU perf not run::$message"
if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
  printf '## GPU perf not run\n\n%s\n' "$message" >>"$GITHUB_STEP_SUMMARY"
fi
