#!/usr/bin/env bash
# Creates, or updates in place, the one comment on pull request NUMBER that starts with the marker of
# pr_comment_body.sh, through the GitHub CLI (GH_TOKEN and GH_REPO from the environment). Runs in the
# comment workflow, which holds a write token and so never runs the pull request's code.
# Only a comment written by the workflow's own identity is updated: COMMENT_AUTHOR, the login of the
# token's account (default github-actions[bot], the author of a comment posted with github.token). Anyone
# who can comment can write the marker; a marked comment by anyone else is left alone, and a new one
# is posted, so that no one else owns the verdicts people read.
#
#   post_pr_comment.sh NUMBER BODY.md
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
(($# == 2)) || die "$EXIT_INVALID" "usage: $0 NUMBER BODY.md"
number=$1 body=$2
[[ $number =~ ^[1-9][0-9]*$ ]] || die "$EXIT_INVALID" "pull request number '$number' is not a number"
[[ -n ${GH_REPO:-} ]] || die "$EXIT_INVALID" "GH_REPO (owner/name) is not set"
author=${COMMENT_AUTHOR:-github-actions[bot]}
# A GitHub login (letters, digits, hyphens), an app's with [bot]: nothing that could change the filter below.
[[ $author =~ ^[A-Za-z0-9][A-Za-z0-9-]{0,38}(\[bot\])?$ ]] ||
  die "$EXIT_INVALID" "COMMENT_AUTHOR '$author' is not a GitHub login: give the login of the account whose token posts the comment"
need_tool gh
need_tool jq
marker=$(head -n 1 "$body")
[[ $marker == '<!-- gpuperf-verdicts -->' ]] || die "$EXIT_INVALID" "$body does not start with the comment marker"
existing=$(gh api --paginate "repos/$GH_REPO/issues/$number/comments" \
  --jq ".[] | select(.user.login == \"$author\" and (.body | startswith(\"$marker\"))) | .id" | head -n 1)
payload=$(jq -R -s '{body: .}' "$body")
if [[ -n $existing ]]; then
  gh api --method PATCH "repos/$GH_REPO/issues/comments/$existing" --input - <<<"$payload" >/dev/null
  echo "updated comment $existing on #$number"
else
  gh api --method POST "repos/$GH_REPO/issues/$number/comments" --input - <<<"$payload" >/dev/null
  echo "created a comment on #$number"
fi
