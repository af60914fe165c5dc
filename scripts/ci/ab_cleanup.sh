#!/usr/bin/env bash
# Removes the A/B base worktree of ab_prepare.sh (run in an always() step: also after a failure or a
# cancel), so persistent runners do not accumulate checkouts and builds.
#
#   ab_cleanup.sh     (reads AB_BASE_DIR; nothing to do when it is unset)
set -euo pipefail
dir=${AB_BASE_DIR:-}
if [[ -n $dir ]]; then
  git worktree remove --force "$dir" 2>/dev/null || rm -rf "$dir"
fi
git worktree prune
