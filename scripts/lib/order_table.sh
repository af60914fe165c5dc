#!/usr/bin/env bash
# The table of scripts/order_check.sh, from the files it wrote: DIR/<way>.round<r>.json, one process per
# benchmark per round. A benchmark's figure for a way is the median, over rounds, of its process median
# (samples in us; cycles for cycle-metric cases); each way is compared with the way "checked".
#
#   order_table.sh DIR > table.md
set -euo pipefail
dir=$1
shopt -s nullglob
files=("$dir"/*.round*.json)
((${#files[@]})) || { echo "error: no <way>.round<r>.json files in $dir" >&2; exit 2; }

for file in "${files[@]}"; do
  way=$(basename "$file" | sed -E 's/\.round[0-9]+\.json$//')
  jq -c --arg way "$way" '
    def strip: sub("(/(iterations|repeats|threads|min_time|min_warmup_time):[^/]+|/(manual_time|real_time|process_time))+$"; "");
    def to_us: if .time_unit == "ns" then .real_time / 1e3 elif .time_unit == "ms" then .real_time * 1e3
               elif .time_unit == "s" then .real_time * 1e6 else .real_time end;
    def median: sort | .[length / 2 | floor];
    [.benchmarks[] | select(.run_type == "iteration" and (.error_occurred | not))]
    | group_by(.run_name | strip)[]
    | {way: $way, name: (.[0].run_name | strip), value: (map(.cycles // to_us) | median)}' "$file"
done | jq -rs '
  def median: sort | .[length / 2 | floor];
  def pct: (. * 100 | round) / 100;
  def q(p): sort | .[((length - 1) * p) | round];
  (map(select(.way == "checked")) | group_by(.name)
   | map({key: .[0].name, value: {median: (map(.value) | median),
                                   spread_pct: (((map(.value) | max) / (map(.value) | min) - 1) * 100)}})
   | from_entries) as $ref
  | (map(select(.way != "checked" and $ref[.name] != null)) | group_by(.way)
     | map({way: .[0].way, rows: (group_by(.name)
            | map({name: .[0].name, diff_pct: (((map(.value) | median) / $ref[.[0].name].median - 1) * 100)}))})) as $ways
  | "Each way against the checked suite in registry order (\($ref | length) benchmarks; spread of the checked processes,"
    + " max/min - 1: median \([$ref[].spread_pct] | median | pct)%, largest \([$ref[].spread_pct] | max | pct)%).\n",
    "| way | benchmarks | median abs. difference | 90th percentile | largest |",
    "|---|---:|---:|---:|---|",
    ($ways[] | (.rows | map(.diff_pct | fabs)) as $abs | (.rows | max_by(.diff_pct | fabs)) as $top
     | "| \(.way) | \(.rows | length) | \($abs | median | pct)% | \($abs | q(0.9) | pct)% | \($top.diff_pct | pct)% \($top.name) |"),
    "",
    "Benchmarks more than 1% away in some way:\n",
    "| benchmark | checked spread | " + ([$ways[].way] | join(" | ")) + " |",
    "|---|---:|" + ([$ways[] | "---:"] | join("|")) + "|",
    ([$ways[].rows[] | select(.diff_pct | fabs > 1) | .name] | unique[] as $name
     | "| \($name) | \($ref[$name].spread_pct | pct)% | "
       + ([$ways[] | (.rows[] | select(.name == $name) | "\(.diff_pct | pct)%") // ""] | join(" | ")) + " |")'
