#!/usr/bin/env bash
# Writes the history dashboard of a store: one series export per GPU model that has a baseline in
# BASELINE_DIR (baselines/<slug>.json), with its change points and its drift from that baseline
# (perf_gate history-changes), then scripts/dashboard.sh.
# A GPU model whose export holds no series (onboarded, no run stored yet) is left out with a note.
#
#   dashboard_from_store.sh PERF_GATE STORE BASELINE_DIR SITE_DIR
# STORE: as perf_gate names it (a path or sqlite:PATH, or postgresql://...).
# Exit: 0 written; 2 a bad argument, a failed export, or nothing to draw.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
(($# == 4)) || die "$EXIT_INVALID" "usage: $0 PERF_GATE STORE BASELINE_DIR SITE_DIR"
gate=$1 store=$2 baselines=$3 site=$4
[[ -x $gate ]] || die "$EXIT_INVALID" "no perf_gate at $gate: build it first"
[[ -d $baselines ]] || die "$EXIT_INVALID" "no baseline folder $baselines"
need_tool jq

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
exports=()
shopt -s nullglob
for baseline in "$baselines"/*.json; do
  slug=$(basename "$baseline" .json)
  [[ $slug == *.* ]] && continue  # baselines/<slug>.ncu.json and the like: not a GPU model's baseline
  file="$work/$slug.json"
  "$gate" history-changes --store "$store" --gpu "$slug" --baseline "$baseline" --json "$file" ||
    die "$EXIT_INVALID" "perf_gate history-changes --gpu $slug failed (exit $?): see its message above"
  if [[ $(jq '.series | length' "$file") == 0 ]]; then
    note "$slug: no run stored yet, left out"
    continue
  fi
  exports+=("$file")
done
((${#exports[@]})) || die "$EXIT_INVALID" "no GPU model of $baselines has a run in the store: nothing to draw"
bash "$here/dashboard.sh" --out "$site" "${exports[@]}"
