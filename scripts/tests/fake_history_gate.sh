#!/usr/bin/env bash
# Stands in for perf_gate's history commands in the dashboard workflow's test: `history-export` and
# `history-changes` write FAKE_HISTORY_DIR/<slug>.json (export: without its change points and drift, as
# the format says), or an export of no series for a GPU model with no file there; the store
# (sqlite:PATH) must exist. Every other call is the real gate's (REAL_PERF_GATE). Each history call is
# logged to FAKE_LOG.
set -euo pipefail
case ${1:-} in
  history-export | history-changes) ;;
  *) exec "$REAL_PERF_GATE" "$@" ;;
esac
command=$1 store="" slug="" out="" baseline=""
shift
while (($#)); do
  case "$1" in
    --store) store=$2; shift 2 ;;
    --gpu) slug=$2; shift 2 ;;
    --json) out=$2; shift 2 ;;
    --baseline) baseline=$2; shift 2 ;;
    *) echo "fake perf_gate: unknown option $1" >&2; exit 2 ;;
  esac
done
echo "perf_gate $command --store $store --gpu $slug${baseline:+ --baseline $baseline}" >>"${FAKE_LOG:-/dev/null}"
[[ -f ${store#sqlite:} ]] || { echo "perf_gate: no store ${store#sqlite:}" >&2; exit 2; }
source="$FAKE_HISTORY_DIR/$slug.json"
if [[ ! -f $source ]]; then
  jq -n --arg slug "$slug" '{schema_version: 1, tool: "perf_gate", gpu_slug: $slug, series: [], ledger: null}' >"$out"
elif [[ $command == history-export ]]; then
  jq '.series[] |= (.change_points = [] | .drift = null)' "$source" >"$out"
else
  cp "$source" "$out"
fi
