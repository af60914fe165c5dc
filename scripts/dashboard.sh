#!/usr/bin/env bash
# Writes the history dashboard, a static site, from series exports (perf_gate history-export or history
# changes --json, schema_version 1, one file per GPU model): dashboard/'s page, script, style and vendored
# charting library (uPlot); data.js, the index (each GPU model with its families and their counts, and
# the exports refused); and data/, each GPU model's export split into one file per family plus one of its
# change points, drift and ledger, which the page loads when it shows them (an export of 1,000 runs of
# the suite is about 27 MB; a page loads one family's share). The data files are scripts, so that the
# page works opened from disk (file://) as well as from any web server (GitHub Pages), named by a hash of
# what they hold, so that no cache serves a family of an older site.
#
#   dashboard.sh --out SITE_DIR [--refused GPU_SLUG:WHY ...] EXPORT.json [EXPORT2.json ...]
#
# Each file is checked with jq: its schema_version, the fields the page reads, their types, numbers
# finite, one file per GPU model. A file that is not such an export is refused alone: the console and the
# site's index name the file and what is wrong, and the other GPU models' pages are written. A ledger
# that is not a same-code ledger is left out of its GPU model's page, said the same way. --refused lists
# a GPU model the caller could not export (dashboard_from_store.sh), with why, on the index.
# SITE_DIR must be absent, empty, or a site dashboard.sh wrote (it holds .gpuperf-dashboard); anything
# else is refused. The site is written whole in a folder beside SITE_DIR, then put in its place: a
# reader never sees half a site, and a failure leaves SITE_DIR as it was. Names from the files
# (benchmarks, GPUs, commits) are data: the page writes them as text, never as HTML.
# Exit: 0 written; 2 something was refused or is wrong. With at least one valid export the site is written
# for the valid ones (each refusal said on the console and on the index); with none, a bad argument or a
# SITE_DIR it may not replace, nothing is written and SITE_DIR is left as it was.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"
readonly USAGE="dashboard.sh --out SITE_DIR [--refused GPU_SLUG:WHY ...] EXPORT.json [EXPORT2.json ...]"
readonly SCHEMA_VERSION=1
readonly LEDGER_SCHEMA_VERSION=1
# In every site this script writes: the sign that the folder may be replaced by the next run.
readonly MARKER=.gpuperf-dashboard
app="$(cd "$(dirname "${BASH_SOURCE[0]}")/../dashboard" && pwd)"

out="" exports=() refused_args=()
while (($#)); do
  case "$1" in
    --out) need_value "$@"; out=$2; shift 2 ;;
    --refused) need_value "$@"; refused_args+=("$2"); shift 2 ;;
    -h | --help) help_from_header "$0"; exit "$EXIT_PASS" ;;
    --*) die "$EXIT_INVALID" "unknown option '$1' ($USAGE)" ;;
    *) exports+=("$1"); shift ;;
  esac
done
[[ -n $out ]] || die "$EXIT_INVALID" "--out SITE_DIR is required ($USAGE)"
((${#exports[@]})) || die "$EXIT_INVALID" "no export file given ($USAGE); write one with: perf_gate history-export --store STORE --gpu SLUG --json OUT.json"
need_tool jq
need_tool sha256sum

# SITE_DIR is replaced whole: only a folder that holds nothing or a site of ours may be.
if [[ -L $out || (-e $out && ! -d $out) ]]; then
  die "$EXIT_INVALID" "$out exists and is not a folder (or is a link): give a new folder for the site"
elif [[ -d $out && ! -f $out/$MARKER && -n $(ls -A "$out") ]] &&
  ! head -n 1 "$out/data.js" 2>/dev/null | grep -q '^// Written by scripts/dashboard.sh'; then  # a site of before the marker
  die "$EXIT_INVALID" "$out is a folder that dashboard.sh did not write (no $MARKER in it, and it is not empty): it would be replaced whole, so it is left alone. Give a new or empty folder, or remove this one yourself."
fi

# What is wrong with one export, as one line, or nothing. Only what the page reads is checked; a newer
# tool may add fields. Numbers must be finite: perf_gate writes an infinite change (a ratio of medians
# beyond a double) as null, and jq reads 1e999 as the largest double, which it calls infinite.
# shellcheck disable=SC2016  # $v and the rest are jq's
readonly CHECK='
  def num: type == "number" and (isinfinite or isnan | not);
  def numn: . == null or num;
  def str: type == "string";
  def strn: . == null or type == "string";
  def bad_point: (.value | num | not) or (.process_medians | type != "array") or
    ((.process_medians // []) | any(num | not)) or
    ([.run_key, .commit, .date, .code_hash, .baseline_recorded] | any(strn | not));
  def change_problem($runs):
    if type != "object" then "is not an object"
    elif (.index | num | not) or .index != (.index | floor) or .index < 0 or .index > $runs then
      "index is \(.index | tojson), not a run of the series (0 to \($runs))"
    elif (.change_pct | num | not) then
      "change_pct is \(.change_pct | tojson), not a finite number (an infinite change: the medians of a run of this series are absurd; remove that run from the store)"
    elif ([.before, .after, .p_value] | any(numn | not)) then "before, after or p_value is not a finite number"
    elif ([.good_commit, .bad_commit] | any(strn | not)) then "good_commit or bad_commit is not a string"
    else empty end;
  def drift_problem:
    if type != "object" then "is not an object or null"
    elif ([.baseline_value, .latest_value, .change_pct, .tolerance_pct] | any(num | not)) then
      "baseline_value, latest_value, change_pct or tolerance_pct is not a finite number (change_pct is \(.change_pct | tojson))"
    elif (.beyond_tolerance | type) != "boolean" then "beyond_tolerance is not true or false"
    elif (.since | strn | not) then "since is not a string"
    else empty end;
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
        "series[\($i)] (\(.benchmark)): a point lacks a numeric value, a list of numeric process_medians, or has a non-string run_key, commit, date, code_hash or baseline_recorded (numbers must be finite)"
      elif ((.change_points // []) | type != "array") then "series[\($i)] (\(.benchmark)): change_points must be a list"
      else
        .benchmark as $b | (.points | length) as $runs |
        (first((.change_points // []) | to_entries[] | .key as $j | .value | change_problem($runs) |
               "series[\($i)] (\($b)): change_points[\($j)]: \(.)") //
         (if .drift == null then empty else .drift | drift_problem | "series[\($i)] (\($b)): drift \(.)" end))
      end) // empty
  end'

# What is wrong with the export's ledger (the same-code ledger file, perf_gate ledger), or nothing.
# shellcheck disable=SC2016
readonly LEDGER_CHECK='
  def num: type == "number" and (isinfinite or isnan | not);
  def strn: . == null or type == "string";
  def where($g; $m): "ledger.gpus[\($g | tojson)][\($m | tojson)]";
  .ledger as $l |
  if $l == null then empty
  elif ($l | type) != "object" then "ledger is \($l | type), not an object or null"
  elif $l.schema_version != $lv then "ledger schema_version is \($l.schema_version | tojson), this dashboard reads \($lv)"
  elif ($l.gpus | type) != "object" then "ledger.gpus is missing or not an object"
  else
    first($l.gpus | to_entries[] | .key as $g | .value |
      if type != "object" then "ledger.gpus[\($g | tojson)] is \(type), not an object of tallies by mode"
      else to_entries[] | .key as $m | .value |
        if type != "object" then "\(where($g; $m)) is \(tojson): a tally is an object"
        elif ([.reports, .reports_with_false_alarms] | any(num | not)) then
          "\(where($g; $m)): reports or reports_with_false_alarms is not a number"
        elif (.verdicts | type) != "object" or (.verdicts | [.SAME, .AMBIGUOUS, .SLOW, .FAST] | any(num | not)) then
          "\(where($g; $m)): verdicts must hold the numbers SAME, AMBIGUOUS, SLOW and FAST"
        elif ([.since, .last, .gpu_name] | any(strn | not)) then "\(where($g; $m)): since, last or gpu_name is not a string"
        else empty end
      end) // empty
  end'

# One valid export, split: its line of the index (counts per family), then the part of its GPU page
# (each series without its points: its change points with their commits, its drift; the ledger), then
# one part per family (its series, each point with the fields the page shows: run_key and gpu_uuid, a
# third of a point, stay in the store), in the order of the index's families. A benchmark's family is
# its name up to the first "/", as app.js says.
# shellcheck disable=SC2016
readonly SPLIT='
  def family: .benchmark | split("/")[0];
  def counts: {benchmarks: length, runs: (map(.points | length) | max // 0),
               change_points: (map((.change_points // []) | length) | add // 0),
               drifting: (map(select(.drift != null and .drift.beyond_tolerance == true)) | length)};
  . as $export | (.series | group_by(family)) as $groups |
  ({gpu_slug, file: $file} + (.series | counts) +
   {families: [$groups[] | {family: (.[0] | family)} + counts]}),
  {gpu_slug, family: null,
   ledger: (if $ledger_problem == "" then .ledger else null end),
   ledger_refused: (if $ledger_problem == "" then null else "\($file): \($ledger_problem)" end),
   series: [.series[] | .points as $p | {benchmark, unit, runs: ($p | length), drift,
     change_points: [(.change_points // [])[] |
       .good_commit = (.good_commit // (if .index > 0 then $p[.index - 1].commit else null end)) |
       .bad_commit = (.bad_commit // $p[.index].commit)]}]},
  ($groups[] | {gpu_slug: $export.gpu_slug, family: (.[0] | family),
                series: map(.points |= map({date, commit, value, process_medians, verdict, code_hash, baseline_recorded}))})'

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
refusals=0
printable() { printf '%s' "${1//[[:cntrl:]]/?}"; }  # one line on the console, whatever the data holds
# refuse <file or ""> <gpu slug or ""> <message>: said on the console and kept for the index.
refuse() {
  local message what="it is"
  message=$(printable "$3")
  [[ -z $2 ]] || what="GPU '$(printable "$2")' is"
  echo "error: $message - refused: $what left out of the site, the other GPU models' pages are written" >&2
  jq -cn --arg file "$1" --arg slug "$2" --arg message "$message" \
    '{file: (if $file == "" then null else $file end), gpu_slug: (if $slug == "" then null else $slug end), message: $message}' \
    >>"$scratch/refused.jsonl"
  refusals=$((refusals + 1))
}
: >"$scratch/refused.jsonl"
for refused in "${refused_args[@]}"; do
  [[ $refused == ?*:?* ]] || die "$EXIT_INVALID" "--refused takes GPU_SLUG:WHY, not '$refused'"
  refuse "" "${refused%%:*}" "${refused#*:}"
done

declare -A seen_gpu=()
valid=()
for file in "${exports[@]}"; do
  if [[ ! -f $file || ! -r $file ]]; then refuse "$file" "" "$file: no such readable file"; continue; fi
  if ! jq -e . "$file" >/dev/null 2>&1; then refuse "$file" "" "$file: not valid JSON"; continue; fi
  slug=$(jq -r 'if (.gpu_slug | type) == "string" then .gpu_slug else "" end' "$file" 2>/dev/null || true)
  problem=$(jq -r --argjson v "$SCHEMA_VERSION" "$CHECK" "$file")
  if [[ -n $problem ]]; then
    refuse "$file" "$slug" "$file is not a series export (perf_gate history-export --json, schema_version $SCHEMA_VERSION): $problem"
    continue
  fi
  [[ -z ${seen_gpu[$slug]:-} ]] || die "$EXIT_INVALID" "$file and ${seen_gpu[$slug]} both hold GPU '$(printable "$slug")': give one export per GPU model"
  seen_gpu[$slug]=$file
  valid+=("$file")
done
((${#valid[@]})) || die "$EXIT_INVALID" "no valid export among the ${#exports[@]} given: nothing written, $out left as it was"

# The site, written whole beside SITE_DIR and then swapped in (a rename on the same file system).
parent=$(dirname "$out")
mkdir -p "$parent" || die "$EXIT_INVALID" "cannot create $parent"
site=$(mktemp -d "$parent/.dashboard.XXXXXX") || die "$EXIT_INVALID" "cannot write in $parent"
trap 'rm -rf "$scratch" "$site"' EXIT
cp "$app/index.html" "$app/app.js" "$app/style.css" "$site/"
cp -r "$app/vendor" "$site/vendor"
mkdir "$site/data"
echo "Written by scripts/dashboard.sh: the next run replaces this folder whole." >"$site/$MARKER"

# add_part <json file>: data/<hash>.js, a script that hands the part to app.js; prints its path.
add_part() {
  local js="$scratch/part.js" name
  { printf '(window.GPUPERF_HISTORY_PARTS = window.GPUPERF_HISTORY_PARTS || []).push('; cat "$1"; echo ');'; } >"$js"
  name="data/$(sha256sum "$js" | cut -c1-20).js"
  mv "$js" "$site/$name"
  echo "$name"
}
: >"$scratch/gpus.jsonl"
for file in "${valid[@]}"; do
  ledger_problem=$(jq -r --argjson lv "$LEDGER_SCHEMA_VERSION" "$LEDGER_CHECK" "$file")
  if [[ -n $ledger_problem ]]; then
    ledger_problem=$(printable "$ledger_problem")
    echo "error: $(printable "$file"): $ledger_problem - refused: the ledger is left out of the page of GPU '$(printable "$(jq -r .gpu_slug "$file")")', the rest is written" >&2
    refusals=$((refusals + 1))
  fi
  rm -f "$scratch"/line.*
  jq -c --arg file "$file" --arg ledger_problem "$ledger_problem" "$SPLIT" "$file" |
    awk -v dir="$scratch" '{ name = sprintf("%s/line.%06d", dir, NR); print > name; close(name) }' ||
    die "$EXIT_INVALID" "cannot split $file into the site's data files (see the message above): nothing written, $out left as it was"
  lines=("$scratch"/line.*)
  parts=()
  for line in "${lines[@]:1}"; do parts+=("$(add_part "$line")"); done
  # shellcheck disable=SC2016
  jq -c '.summary = $ARGS.positional[0] | .families |= [to_entries[] | .value + {file: $ARGS.positional[.key + 1]}]' \
    "${lines[0]}" --args "${parts[@]}" >>"$scratch/gpus.jsonl"
done
{
  echo "// Written by scripts/dashboard.sh from ${#exports[@]} series export(s): the index app.js reads; data/ holds the rest."
  printf 'window.GPUPERF_HISTORY_INDEX = %s;\n' "$(jq -cn --slurpfile gpus "$scratch/gpus.jsonl" \
    --slurpfile refused "$scratch/refused.jsonl" '{schema_version: 1, gpus: $gpus, refused: $refused}')"
} >"$site/data.js"
chmod -R a+rX "$site"

# Put in place: the old site moved aside first (a rename onto an existing folder would move into it),
# and back if the new one cannot follow.
if [[ -e $out ]]; then
  old=$(mktemp -d "$parent/.dashboard-old.XXXXXX") || die "$EXIT_INVALID" "cannot write in $parent"
  trap 'rm -rf "$scratch" "$site" "$old"' EXIT
  mv "$out" "$old/site" || die "$EXIT_INVALID" "cannot move $out aside to replace it"
  if ! mv "$site" "$out"; then
    mv "$old/site" "$out"
    die "$EXIT_INVALID" "cannot put the new site at $out: the old one is back"
  fi
else
  mv "$site" "$out"
fi
echo "dashboard: $out/index.html ($(jq -s '[.[].benchmarks] | add' "$scratch/gpus.jsonl") series of ${#valid[@]} GPU model(s); largest data file $(find "$out/data" "$out/data.js" -type f -printf '%s\n' | sort -n | tail -n 1) bytes)"
if ((refusals)); then
  echo "dashboard: $refusals refused (see the errors above, and the site's index): exit $EXIT_INVALID" >&2
  exit "$EXIT_INVALID"
fi
