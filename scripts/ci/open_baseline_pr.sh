#!/usr/bin/env bash
# The write half of the update-baseline workflow: copies the recorded baseline file(s) from the record
# job's artifact into baselines/, commits them on a new branch and opens a pull request with the
# recording's log as its body. It runs no benchmark or build code; the artifact is data, checked here:
# only baselines/<slug>.json files whose JSON names that same GPU slug (.gpu.slug) are taken, and the
# Nsight Compute profiles beside them, baselines/<slug>.ncu.json (.gpu_slug).
#
#   open_baseline_pr.sh ARTIFACT_DIR GPU_LABEL BASE_BRANCH     (GH_TOKEN, GH_REPO, GITHUB_RUN_ID set)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
(($# == 3)) || die "$EXIT_INVALID" "usage: $0 ARTIFACT_DIR GPU_LABEL BASE_BRANCH"
artifact=$1 label=$2 base=$3
bash "$(dirname "${BASH_SOURCE[0]}")/check_input.sh" label gpu "$label"
for v in GH_TOKEN GH_REPO GITHUB_RUN_ID; do [[ -n ${!v:-} ]] || die "$EXIT_INVALID" "$v is not set"; done
need_tool gh
need_tool jq

shopt -s nullglob
files=("$artifact"/baselines/*.json)
((${#files[@]})) || die "$EXIT_INVALID" "the artifact holds no baselines/*.json"
for f in "${files[@]}"; do
  name=$(basename "$f")
  if [[ $name =~ ^[a-z0-9][a-z0-9-]*\.ncu\.json$ ]]; then
    [[ $(jq -r '.gpu_slug // empty' "$f" 2>/dev/null).ncu.json == "$name" ]] ||
      die "$EXIT_INVALID" "$f is not the profiles file its name says (its .gpu_slug differs)"
  elif [[ $name =~ ^[a-z0-9][a-z0-9-]*\.json$ ]]; then
    [[ $(jq -r '.gpu.slug // empty' "$f" 2>/dev/null).json == "$name" ]] ||
      die "$EXIT_INVALID" "$f is not the baseline its name says (its .gpu.slug differs)"
  else
    die "$EXIT_INVALID" "unexpected file name in the artifact: $f"
  fi
  cp "$f" baselines/
done
if git diff --quiet -- baselines/ && [[ -z $(git ls-files --others --exclude-standard baselines/) ]]; then
  echo "::notice::the recorded baseline is identical to the committed one: no pull request"
  exit 0
fi
branch="baseline/$label-$GITHUB_RUN_ID"
git switch -c "$branch"
git add baselines/*.json
git -c user.name="github-actions[bot]" -c user.email="41898282+github-actions[bot]@users.noreply.github.com" \
  commit -q -m "Re-record the $label baseline (update-baseline run $GITHUB_RUN_ID)"
gh auth setup-git  # git pushes with GH_TOKEN; checkout left no credentials behind
git push "https://github.com/$GH_REPO.git" "HEAD:refs/heads/$branch"
body_file=$(mktemp)
{ echo "Recorded by the update-baseline workflow (run $GITHUB_RUN_ID). Review the moves below like code."
  echo; echo '```'; tail -c 60000 "$artifact/record.log" 2>/dev/null || echo "(no record.log)"; echo '```'; } >"$body_file"
gh pr create --base "$base" --head "$branch" --title "Baseline: re-record $label" --body-file "$body_file"
