#!/usr/bin/env bash
# Checks out the A/B comparison's base, the merge base of HEAD with the default branch (what the branch
# changes, not what the default branch gained since), as a worktree under RUNNER_TEMP named after the
# run, so a persistent runner's second run never finds a stale one. ab_cleanup.sh removes it.
#
#   ab_prepare.sh DEFAULT_BRANCH     (appends AB_BASE_DIR and AB_BASE_SHA to $GITHUB_ENV)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
(($# == 1)) || die "$EXIT_INVALID" "usage: $0 DEFAULT_BRANCH"
for v in RUNNER_TEMP GITHUB_RUN_ID GITHUB_ENV; do
  [[ -n ${!v:-} ]] || die "$EXIT_INVALID" "$v is not set (not in GitHub Actions?)"
done
git rev-parse --verify -q "origin/$1" >/dev/null ||
  die "$EXIT_INVALID" "origin/$1 is not fetched: check out with fetch-depth: 0"
base=$(git merge-base HEAD "origin/$1") || die "$EXIT_INVALID" "HEAD has no merge base with origin/$1"
dir="$RUNNER_TEMP/ab-base-$GITHUB_RUN_ID-${GITHUB_RUN_ATTEMPT:-1}"
git worktree prune  # forgets worktrees whose folder a crashed run left deleted
[[ -e $dir ]] && git worktree remove --force "$dir"
git worktree add --detach "$dir" "$base" >/dev/null
echo "A/B base: $base (merge base of HEAD and origin/$1) in $dir"
{ echo "AB_BASE_DIR=$dir"; echo "AB_BASE_SHA=$base"; } >>"$GITHUB_ENV"
