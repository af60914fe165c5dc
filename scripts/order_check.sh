#!/usr/bin/env bash
# Does a benchmark's time depend on how it is run? Times the selected benchmarks in fresh processes,
# several ways per round, and tabulates each benchmark's median per way against the suite run in
# registry order with reference checks (how perf tests and recordings run):
#
#   unchecked   the same, --no-reference-check (A/B rounds after the first, quick re-runs)
#   reverse     unchecked, cases last to first (--reverse-order)
#   family      unchecked, one process per family
#   alone       unchecked, one process per benchmark matched by --alone (each case alone is slow to
#               run for all 108, so pick the suspects)
#
#   order_check.sh --bench BENCH --out DIR [--filter REGEX] [--alone REGEX] [--rounds N]
#                  [--repetitions N] [--ways "unchecked reverse ..."] [--time-limit-s S]
#
# Writes DIR/<way>.round<r>.json (one file per round: the processes of a way in one round merged) and
# DIR/order_check.md: per way, how far the benchmarks' medians are from the checked suite's (median,
# 90th percentile, largest), then every benchmark that moved by more than 1%, beside the spread of the
# checked suite's own processes (perf_gate order-table, beside BENCH: gate/perf_gate). --time-limit-s:
# start no round after that many seconds (rounds already run are tabulated).
# Exit: 0 tabulated, 2 invalid input or a failed process, 77 no GPU.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"

bench="" out="" filter="." alone="" rounds=3 repetitions=20 ways="unchecked reverse family" time_limit=0
while (($#)); do
  case "$1" in
    --bench) need_value "$@"; bench=$2; shift 2 ;;
    --out) need_value "$@"; out=$2; shift 2 ;;
    --filter) need_value "$@"; filter=$2; shift 2 ;;
    --alone) need_value "$@"; alone=$2; shift 2 ;;
    --rounds) need_value "$@"; rounds=$2; shift 2 ;;
    --repetitions) need_value "$@"; repetitions=$2; shift 2 ;;
    --ways) need_value "$@"; ways=$2; shift 2 ;;
    --time-limit-s) need_value "$@"; time_limit=$2; shift 2 ;;
    *) die "$EXIT_INVALID" "unknown argument '$1' (see the header of $0)" ;;
  esac
done
[[ -n $bench && -n $out ]] || die "$EXIT_INVALID" "--bench and --out are required"
[[ -x $bench ]] || die "$EXIT_INVALID" "no benchmark binary at $bench: build first"
gate="$(dirname "$bench")/gate/perf_gate"
[[ -x $gate ]] || die "$EXIT_INVALID" "no perf_gate next to $bench (expected $gate): build it first"
for way in $ways; do
  [[ $way =~ ^(unchecked|reverse|family|alone)$ ]] ||
    die "$EXIT_INVALID" "unknown way '$way' in --ways (unchecked, reverse, family, alone)"
done
[[ " $ways " == *" alone "* && -z $alone ]] && die "$EXIT_INVALID" "the way 'alone' needs --alone REGEX"
need_tool jq
gpu=$(gpu_info "$bench")
lock_gpu "$(jq -r .uuid <<<"$gpu")" 1800
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The names the filter selects, from a listing run that times nothing.
names=$("$bench" --benchmark_filter="$filter" --benchmark_list_tests=true 2>/dev/null) ||
  die "$EXIT_INVALID" "$bench could not list its benchmarks"
[[ -n $names ]] || die "$EXIT_INVALID" "--filter '$filter' matches no benchmark"

time_one() {  # time_one <out.json> <filter> [flags...]: one process
  local json=$1 regex=$2 start=$SECONDS
  shift 2
  "$bench" "$@" --benchmark_filter="$regex" --benchmark_repetitions="$repetitions" \
    --benchmark_out="$json" --benchmark_out_format=json >"$json.log" 2>&1 ||
    { tail -n 5 "$json.log" >&2; die "$EXIT_INVALID" "a process failed ($* --benchmark_filter=$regex)"; }
  note "$(basename "$json"): $((SECONDS - start)) s"
}

merge() {  # merge <out.json> <in.json...>: one document, the first file's context
  local target=$1
  shift
  jq -s '{context: .[0].context, benchmarks: [.[].benchmarks[]]}' "$@" >"$target"
}

start=$SECONDS
for ((round = 1; round <= rounds; round++)); do
  if ((time_limit > 0 && SECONDS - start > time_limit)); then
    note "time limit reached: $((round - 1)) rounds"
    break
  fi
  time_one "$out/checked.round$round.json" "$filter"
  for way in $ways; do
    case $way in
      unchecked) time_one "$out/$way.round$round.json" "$filter" --no-reference-check ;;
      reverse) time_one "$out/$way.round$round.json" "$filter" --no-reference-check --reverse-order ;;
      family | alone)
        parts=()
        if [[ $way == family ]]; then
          groups=$(cut -d/ -f1 <<<"$names" | sort -u)
        else
          groups=$(grep -E "$alone" <<<"$names" | sed -E 's#/(iterations:[0-9]+|manual_time)##g' | sort -u || true)
        fi
        while read -r group; do
          [[ -n $group ]] || continue
          if [[ $way == family ]]; then regex="^$(names_alternation <<<"$group")/"; else regex=$(exact_filter <<<"$group"); fi
          parts+=("$work/part${#parts[@]}.json")
          time_one "${parts[-1]}" "$regex" --no-reference-check
        done <<<"$groups"
        ((${#parts[@]})) || die "$EXIT_INVALID" "the way '$way' selected no benchmark"
        merge "$out/$way.round$round.json" "${parts[@]}"
        ;;
    esac
  done
done

"$gate" order-table --dir "$out" --markdown "$out/order_check.md" >/dev/null
cat "$out/order_check.md"
