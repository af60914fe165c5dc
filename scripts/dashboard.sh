#!/usr/bin/env bash
# Writes the history dashboard, a static site, from series exports (perf_gate history-export or history
# changes --json, schema_version 1, one file per GPU model): dashboard/'s page, script, style and vendored
# charting library (uPlot), and data.js beside them, which assigns the exports to one global so that the
# page works opened from disk (file://) as well as from any web server (GitHub Pages).
#
#   dashboard.sh --out SITE_DIR EXPORT.json [EXPORT2.json ...]
#
# Each file is checked with jq before anything is written: its schema_version, the fields the page
# reads and their types, one file per GPU model. A file that is not such an export exits 2 naming the
# file and what is wrong, and SITE_DIR is left as it was. SITE_DIR is written whole in a folder beside
# it, then put in its place: a reader never sees half a site. Names from the files (benchmarks, GPUs,
# commits) are data: the page writes them as text, never as HTML.
# Exit: 0 written, 2 invalid input or an unwritable SITE_DIR.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
readonly USAGE="dashboard.sh --out SITE_DIR EXPORT.json [EXPORT2.json ...]"
readonly SCHEMA_VERSION=1
app="$(cd "$(dirname "${BASH_SOURCE[0]}")/../dashboard" && pwd)"

out="" exports=()
while (($#)); do
  case "$1" in
    --out) need_value "$@"; out=$2; shift 2 ;;
    -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit "$EXIT_PASS" ;;
    --*) die "$EXIT_INVALID" "unknown option '$1' ($USAGE)" ;;
    *) exports+=("$1"); shift ;;
  esac
done
[[ -n $out ]] || die "$EXIT_INVALID" "--out SITE_DIR is required ($USAGE)"
((${#exports[@]})) || die "$EXIT_INVALID" "no export file given ($USAGE); write one with: perf_gate history-export --store STORE --gpu SLUG --json OUT.json"
need_tool jq

# What is wrong with one export, as one line, or nothing. Only what the page reads is checked; a newer
# tool may add fields.
# shellcheck disable=SC2016  # $v and the rest are jq's
readonly CHECK='
  def num: type == "number";
  def str: type == "string";
  def strn: . == null or type == "string";
  def bad_point: (.value | num | not) or (.process_medians | type != "array") or
    ((.process_medians // []) | any(num | not)) or
    ([.run_key, .commit, .date, .code_hash, .baseline_recorded] | any(strn | not));
  if type != "object" then "it is not a JSON object"
  elif .schema_version != $v then
    "schema_version is \(.schema_version | tojson), this dashboard reads \($v): write it with the perf_gate of this checkout"
  elif (.gpu_slug | str | not) or .gpu_slug == "" then "gpu_slug is missing or not a string"
  elif (.series | type) != "array" then "series is missing or not a list"
  else
    first(.series | to_entries[] | .key as $i | .value |
      if type != "object" then "series[\($i)] is not an object"
      elif (.benchmark | str | not) or .benchmark == "" then "series[\($i)].benchmark is missing or not a string"
      elif (.unit | str | not) then "series[\($i)] (\(.benchmark)): unit is missing or not a string"
      elif (.points | type) != "array" then "series[\($i)] (\(.benchmark)): points is missing or not a list"
      elif (.points | any(type != "object" or bad_point)) then
        "series[\($i)] (\(.benchmark)): a point lacks a numeric value, a list of numeric process_medians, or has a non-string run_key, commit, date, code_hash or baseline_recorded"
      elif ((.change_points // []) | type != "array" or
            any(type != "object" or (.index | num | not) or (.change_pct | num | not))) then
        "series[\($i)] (\(.benchmark)): change_points must be a list of objects with a numeric index and change_pct"
      elif (.drift != null and (.drift | type != "object")) then "series[\($i)] (\(.benchmark)): drift must be an object or null"
      else empty end) // empty
  end'

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
declare -A seen_gpu=()
for file in "${exports[@]}"; do
  [[ -f $file && -r $file ]] || die "$EXIT_INVALID" "$file: no such readable file"
  jq -e . "$file" >/dev/null 2>&1 || die "$EXIT_INVALID" "$file: not valid JSON"
  problem=$(jq -r --argjson v "$SCHEMA_VERSION" "$CHECK" "$file")
  [[ -z $problem ]] || die "$EXIT_INVALID" "$file is not a series export (perf_gate history-export --json, schema_version $SCHEMA_VERSION): $problem"
  slug=$(jq -r .gpu_slug "$file")
  [[ -z ${seen_gpu[$slug]:-} ]] || die "$EXIT_INVALID" "$file and ${seen_gpu[$slug]} both hold GPU '$slug': give one export per GPU model"
  seen_gpu[$slug]=$file
done

# The site, written whole beside SITE_DIR and then swapped in (a rename on the same file system).
parent=$(dirname "$out")
mkdir -p "$parent" || die "$EXIT_INVALID" "cannot create $parent"
site=$(mktemp -d "$parent/.dashboard.XXXXXX") || die "$EXIT_INVALID" "cannot write in $parent"
trap 'rm -rf "$scratch" "$site"' EXIT
cp "$app/index.html" "$app/app.js" "$app/style.css" "$site/"
cp -r "$app/vendor" "$site/vendor"
{
  echo "// Written by scripts/dashboard.sh from ${#exports[@]} series export(s); read by app.js."
  printf 'window.GPUPERF_HISTORY = '
  jq -c -s '{schema_version: 1, exports: .}' "${exports[@]}"
  echo ';'
} >"$site/data.js"
chmod 755 "$site"
if [[ -e $out ]]; then
  [[ -d $out ]] || die "$EXIT_INVALID" "$out exists and is not a folder"
  old="$out.old.$$"
  mv "$out" "$old" && mv "$site" "$out" && rm -rf "$old"
else
  mv "$site" "$out"
fi
echo "dashboard: $out/index.html ($(jq -s '[.[].series | length] | add' "${exports[@]}") series of ${#exports[@]} GPU model(s))"
