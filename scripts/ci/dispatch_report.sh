#!/usr/bin/env bash
# After a dispatched perf run (a maintainer measuring a reviewed commit, as a rule a fork pull request's
# head): puts its outcome where that pull request sees it. A dispatched run's own checks land on the
# commit the dispatch ran on (the default branch's head), not on the measured one, so without this the
# pull request never gets its required check. Posts, through the GitHub CLI (GH_TOKEN, GH_REPO):
#   - the commit status CHECK_NAME (default "perf / result") on SHA: success when RESULT (the result
#     job's result) is success, failure otherwise, linking to RUN_URL;
#   - BODY.md (pr_comment_body.sh's comment) on each open pull request whose head is exactly SHA,
#     through post_pr_comment.sh. A pull request whose head moved on since the dispatch is left alone:
#     the measured commit is no longer what it would merge. An empty BODY.md (the comment could not be
#     rendered: the job's log says why) posts the status alone, with a warning: the pull request's
#     required check never waits on the comment.
# Runs in a hosted job of its own that holds the write token and never runs the measured code.
#
#   dispatch_report.sh SHA RESULT RUN_URL BODY.md
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
ci_dir="$(dirname "${BASH_SOURCE[0]}")"
(($# == 4)) || die "$EXIT_INVALID" "usage: $0 SHA RESULT RUN_URL BODY.md"
sha=$1 result=$2 run_url=$3 body=$4
check=${CHECK_NAME:-perf / result}
[[ $sha =~ ^[0-9a-f]{40}$ ]] || die "$EXIT_INVALID" "SHA '$sha' is not a full 40-character lowercase hex commit SHA"
[[ $result =~ ^(success|failure|cancelled|skipped)$ ]] ||
  die "$EXIT_INVALID" "RESULT '$result' is not a job result (success, failure, cancelled or skipped)"
[[ $run_url =~ ^https://[A-Za-z0-9./_-]+$ ]] || die "$EXIT_INVALID" "RUN_URL '$run_url' is not an https address of a run"
# The name of a required check, as branch protection lists it: "<calling job> / result".
[[ $check =~ ^[A-Za-z0-9][A-Za-z0-9\ ()/_.-]{0,99}$ ]] ||
  die "$EXIT_INVALID" "CHECK_NAME '$check' is not a check name (letters, digits, spaces, ()/_.-; at most 100)"
[[ -f $body ]] || die "$EXIT_INVALID" "comment body $body does not exist"
[[ -n ${GH_REPO:-} ]] || die "$EXIT_INVALID" "GH_REPO (owner/name) is not set"
need_tool gh
need_tool jq

state=failure description="the dispatched run did not pass ($result)"
[[ $result == success ]] && state=success description="the dispatched run passed"
jq -n --arg state "$state" --arg context "$check" --arg url "$run_url" --arg description "$description" \
  '{state: $state, context: $context, target_url: $url, description: $description}' |
  gh api --method POST "repos/$GH_REPO/statuses/$sha" --input - >/dev/null
echo "status '$check' = $state on $sha"

if [[ ! -s $body ]]; then
  echo "::warning title=No comment::the verdicts' comment could not be rendered (see the step's log): the status is on the commit, no comment was posted"
  exit 0
fi
mapfile -t numbers < <(gh api --paginate "repos/$GH_REPO/pulls?state=open&per_page=100" \
  --jq ".[] | select(.head.sha == \"$sha\") | .number")
if ((${#numbers[@]} == 0)); then
  echo "::notice title=No pull request::no open pull request has head $sha (its head moved on, or it is closed): the status is on the commit, no comment was posted"
  exit 0
fi
for number in "${numbers[@]}"; do
  bash "$ci_dir/post_pr_comment.sh" "$number" "$body"
done
