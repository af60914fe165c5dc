#!/usr/bin/env bash
# The write half of the update-baseline workflow: copies the recorded baseline file(s) from the record
# job's artifact into baselines/, commits them on a new branch and opens a pull request with the
# recording's log as its body. It runs no benchmark or build code; the artifact is data, checked here
# before any git or gh command. GPU_SLUG is the GPU the record job's runner has (its preflight's
# gpu_slug), and must be a GPU of the model GPU_LABEL names (--gpu-models, default scripts/ci/gpu_models.tsv).
# Only baselines/<GPU_SLUG>.json of the artifact, whose JSON names that slug (.gpu.slug), and the Nsight
# Compute profiles beside it, baselines/<GPU_SLUG>.ncu.json (.gpu_slug), are taken, into the repository's
# baseline folder (--baselines, default baselines); any other file under the artifact's baselines/
# refuses the whole artifact. The log goes into the body inside a fence longer than any run of
# backticks in it, so no line of the log can end the code block.
#
#   open_baseline_pr.sh ARTIFACT_DIR GPU_LABEL GPU_SLUG BASE_BRANCH [--gpu-models FILE] [--baselines DIR]
#                       (GH_TOKEN, GH_REPO, GITHUB_RUN_ID set; run in the repository's checkout)
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
source "$here/../lib/common.sh"
usage="usage: $0 ARTIFACT_DIR GPU_LABEL GPU_SLUG BASE_BRANCH [--gpu-models FILE] [--baselines DIR]"
(($# >= 4)) || die "$EXIT_INVALID" "$usage"
artifact=$1 label=$2 slug=$3 base=$4 models="$here/gpu_models.tsv" models_name=scripts/ci/gpu_models.tsv dest=baselines
shift 4
while (($#)); do
  case "$1" in
    --gpu-models) need_value "$@"; models=$2 models_name=$2; shift 2 ;;
    --baselines) need_value "$@"; dest=$2; shift 2 ;;
    *) die "$EXIT_INVALID" "unknown argument '$1'; $usage" ;;
  esac
done
bash "$here/check_input.sh" path baselines "$dest"
[[ -d $dest ]] || die "$EXIT_INVALID" "no baseline folder $dest in this checkout"
[[ -f $models ]] || die "$EXIT_INVALID" "no GPU model table $models_name"
bash "$here/check_input.sh" label gpu "$label"
[[ $slug =~ ^[a-z0-9][a-z0-9-]{0,99}$ ]] ||
  die "$EXIT_INVALID" "GPU_SLUG '$slug' is not a GPU slug (lowercase letters, digits, dashes: the record job's gpu_slug)"
for v in GH_TOKEN GH_REPO GITHUB_RUN_ID; do [[ -n ${!v:-} ]] || die "$EXIT_INVALID" "$v is not set"; done
need_tool gh
need_tool jq

# The model the label names, as a slug prefix: "NVIDIA H100" -> nvidia-h100 matches nvidia-h100-80gb-hbm3,
# as preflight.sh matches the name.
model=$(awk -F'\t' -v l="$label" '$1 == l { print $2 }' "$models")
[[ -n $model ]] || die "$EXIT_INVALID" "runner label '$label' is not in $models_name"
model_slug=$(tr '[:upper:]' '[:lower:]' <<<"$model" | sed -E 's/[^a-z0-9]+/-/g; s/^-+//; s/-+$//')
[[ $slug == "$model_slug" || $slug == "$model_slug"-* ]] ||
  die "$EXIT_INVALID" "the record job's GPU '$slug' is not a '$model' (runner label '$label'): no baseline is taken"

baseline="$artifact/baselines/$slug.json" profiles="$artifact/baselines/$slug.ncu.json"
shopt -s nullglob dotglob
for f in "$artifact"/baselines/*; do
  [[ $f == "$baseline" || $f == "$profiles" ]] ||
    die "$EXIT_INVALID" "the artifact holds $f, but the record job ran on GPU '$slug' (label '$label'): only baselines/$slug.json and baselines/$slug.ncu.json are taken. Nothing was committed; re-run update-baseline"
  [[ -f $f && ! -L $f ]] || die "$EXIT_INVALID" "$f is not a regular file"
done
[[ -f $baseline ]] || die "$EXIT_INVALID" "the artifact holds no baselines/$slug.json (the GPU the record job ran on)"
[[ $(jq -r '.gpu.slug // empty' "$baseline" 2>/dev/null) == "$slug" ]] ||
  die "$EXIT_INVALID" "$baseline is not the baseline its name says (its .gpu.slug is not '$slug')"
taken=("$slug.json")
if [[ -e $profiles ]]; then
  [[ $(jq -r '.gpu_slug // empty' "$profiles" 2>/dev/null) == "$slug" ]] ||
    die "$EXIT_INVALID" "$profiles is not the profiles file its name says (its .gpu_slug is not '$slug')"
  taken+=("$slug.ncu.json")
fi
for name in "${taken[@]}"; do cp "$artifact/baselines/$name" "$dest/"; done
if git diff --quiet -- "$dest/" && [[ -z $(git ls-files --others --exclude-standard "$dest/") ]]; then
  echo "::notice::the recorded baseline is identical to the committed one: no pull request"
  exit 0
fi

# The body: the log's last 60 kB inside a backtick fence longer than the longest backtick run in it
# (CommonMark closes a fence only with at least as many backticks).
body_file=$(mktemp)
log_file=$(mktemp)
trap 'rm -f "$body_file" "$log_file"' EXIT
tail -c 60000 "$artifact/record.log" >"$log_file" 2>/dev/null || echo "(no record.log)" >"$log_file"
longest=$({ grep -o '`\+' "$log_file" || true; } | awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }')
fence='```'
while ((${#fence} <= longest)); do fence+='`'; done
{ echo "Recorded by the update-baseline workflow (run $GITHUB_RUN_ID). Review the moves below like code."
  echo; echo "$fence"; cat "$log_file"; [[ -z $(tail -c 1 "$log_file") ]] || echo; echo "$fence"; } >"$body_file"

branch="baseline/$label-$GITHUB_RUN_ID"
git switch -c "$branch"
git add -- "${taken[@]/#/$dest/}"
git -c user.name="github-actions[bot]" -c user.email="41898282+github-actions[bot]@users.noreply.github.com" \
  commit -q -m "Re-record the $label baseline ($slug, update-baseline run $GITHUB_RUN_ID)"
gh auth setup-git  # git pushes with GH_TOKEN; checkout left no credentials behind
git push "https://github.com/$GH_REPO.git" "HEAD:refs/heads/$branch"
gh pr create --base "$base" --head "$branch" --title "Baseline: re-record $label" --body-file "$body_file"
