#!/usr/bin/env bash
# unit.list_cases: `gpuperf_bench --list-cases`, run with or without a GPU, exits 0 and prints JSON that
# parses; every benchmark a stored baseline names is listed as a perf case with the baseline's unit
# (baselines are keyed by these names: a renamed case would lose its history); every compared_with and
# speedup_over names a listed case. A family this build leaves out (GPUPERF_ONLY_FAMILIES) is not
# looked for. Byte and flop counts are not compared with the baselines': the wave sweep's depend on the
# GPU's SM count, which a machine without a GPU does not know.
#   test_list_cases.sh GPUPERF_BENCH BASELINES_DIR
set -uo pipefail
(($# == 2)) || { echo "usage: $0 GPUPERF_BENCH BASELINES_DIR" >&2; exit 2; }
bench=$1 baselines=$2
listing=$(mktemp)
trap 'rm -f "$listing"' EXIT

rc=0
"$bench" --list-cases >"$listing" || rc=$?
((rc == 0)) || { echo "FAIL: $bench --list-cases exited $rc"; exit 1; }
jq -e '.schema_version == 1 and (.cases | length > 0)' "$listing" >/dev/null ||
  { echo "FAIL: the listing does not parse, or has no schema_version 1 or no cases:"; head -5 "$listing"; exit 1; }

# The baselines only: the Nsight Compute profiles beside them (<gpu>.ncu.json) name benchmarks too, with
# no unit.
baseline_files=()
for file in "$baselines"/*.json; do [[ $file == *.ncu.json ]] || baseline_files+=("$file"); done

# One line per problem; none is a pass.
problems=$(jq -r --slurpfile baselines <(cat "${baseline_files[@]}") '
  (.cases | map({key: .name, value: .}) | from_entries) as $listed
  | (.cases | map({key: .family, value: true}) | from_entries) as $families
  | def built: $families[split("/")[0]] == true;
    (.cases[] | . as $c | ("compared_with", "speedup_over") as $field | $c[$field]
     | select(. != null and built and $listed[.] == null)
     | "\($c.name): \($field) \(.) is no listed case"),
    ($baselines[] | .benchmarks | to_entries[] | select(.key | built)
     | if $listed[.key] == null then "\(.key): in a baseline, not listed"
       elif ($listed[.key].roles | index("perf")) == null then "\(.key): in a baseline, listed without the perf role"
       elif $listed[.key].unit != .value.unit then "\(.key): unit \($listed[.key].unit), the baseline has \(.value.unit)"
       else empty end)' "$listing") || { echo "FAIL: jq could not check the listing"; exit 1; }
if [[ -n $problems ]]; then
  echo "FAIL:"
  echo "  ${problems//$'\n'/$'\n'  }"
  exit 1
fi
echo "PASS: $(jq '.cases | length' "$listing") cases listed; every reference and every baselined benchmark found"
