#!/usr/bin/env bash
# The pull-request comment, in Markdown, from the perf workflow's artifact, as `perf_gate pr-comment`
# renders it (perf_tests/gate/reports/pr_comment.h): one line per gate report (GPU, family, compare or
# A/B, outcome, counts), then every benchmark that was not SAME. The first line is a hidden marker by which
# post_pr_comment.sh finds and updates its own comment instead of adding one. No report in the artifact:
# the comment says nothing was judged.
# The artifact is data from a run of the branch's code: the gate reads each report with its one reader,
# which refuses a report with a name outside the rule of baselines/README.md ("Names"), a verdict or an
# outcome not of its set (that report is one row saying it was refused, and exit 2), and writes every field
# escaped for Markdown. No word of the comment is written here.
#
#   pr_comment_body.sh [--gate PATH] ARTIFACT_DIR RUN_URL > comment.md
# --gate: the perf_gate that renders it (in the commenting job: built from the harness's source at
# harness-ref, never the pull request's); by default the one installed with these scripts
# (<prefix>/bin/perf_gate), else perf_gate on PATH. RUN_URL: the run's https:// address, the comment's link.
# Exit: 0; 2 a refused report (the comment is printed still, saying so), a RUN_URL that is not an https
# address (nothing printed), or no perf_gate.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../lib/common.sh"
help_on_request "$@"
gate=""
if (($# >= 1)) && [[ $1 == --gate ]]; then
  need_value "$@"
  gate=$2
  shift 2
fi
(($# == 2)) || die "$EXIT_INVALID" "usage: $0 [--gate PATH] ARTIFACT_DIR RUN_URL"
gate=$(ci_gate "$gate" "the perf_gate built from the harness")
[[ -d $1 ]] || die "$EXIT_INVALID" "artifact folder $1 does not exist"
mapfile -t reports < <(find "$1" -name '*.verdict.json' -type f | LC_ALL=C sort)
args=(pr-comment --run-url "$2")
((${#reports[@]} == 0)) || args+=(--report "${reports[@]}")
"$gate" "${args[@]}"
