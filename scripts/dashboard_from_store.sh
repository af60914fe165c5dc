#!/usr/bin/env bash
# Writes the history dashboard of a store: one series export per GPU model that has a baseline in
# BASELINE_DIR (baselines/<slug>.json), with its change points and its drift from that baseline
# (perf_gate history-changes), then scripts/dashboard.sh.
# A GPU model whose export holds no series (onboarded, no run stored yet) is left out with a note. One
# whose export fails, or that dashboard.sh refuses, is left out with its reason on the console and on the
# site's index; the other GPU models' pages are written, and the exit is 2.
#
#   dashboard_from_store.sh PERF_GATE STORE BASELINE_DIR SITE_DIR
# STORE: as perf_gate names it (a path or sqlite:PATH, or postgresql://...).
# Exit: 0 written; 2 a bad argument, nothing to draw, or a GPU model left out for a failed or invalid
# export (the site then written for the others: scripts/dashboard.sh).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
(($# == 4)) || die "$EXIT_INVALID" "usage: $0 PERF_GATE STORE BASELINE_DIR SITE_DIR"
gate=$1 store=$2 baselines=$3 site=$4
[[ -x $gate ]] || die "$EXIT_INVALID" "no perf_gate at $gate: build it first"
[[ -d $baselines ]] || die "$EXIT_INVALID" "no baseline folder $baselines"
need_tool jq

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
exports=() refused=()
shopt -s nullglob
for baseline in "$baselines"/*.json; do
  slug=$(basename "$baseline" .json)
  [[ $slug == *.* ]] && continue  # baselines/<slug>.ncu.json and the like: not a GPU model's baseline
  file="$work/$slug.json"
  rc=0
  "$gate" history-changes --store "$store" --gpu "$slug" --baseline "$baseline" --json "$file" 2>"$work/$slug.err" || rc=$?
  cat "$work/$slug.err" >&2
  if ((rc != 0)); then
    echo "error: perf_gate history-changes --gpu $slug failed (exit $rc): see its message above; $slug is left out of the site" >&2
    refused+=(--refused "$slug:perf_gate history-changes failed (exit $rc): $(grep . "$work/$slug.err" | tail -n 1)")
    continue
  fi
  if [[ $(jq '.series | length' "$file") == 0 ]]; then
    note "$slug: no run stored yet, left out"
    continue
  fi
  exports+=("$file")
done
((${#exports[@]})) || die "$EXIT_INVALID" "no GPU model of $baselines has a run in the store that could be exported: nothing to draw"
bash "$here/dashboard.sh" --out "$site" "${refused[@]}" "${exports[@]}"
