#!/usr/bin/env bash
# Stands in for a perf_gate with the history commands in the dashboard workflow's test: `history-export`
# and `history-changes` (listed in --help only with FAKE_HISTORY_CHANGES=1) write FAKE_HISTORY_DIR/<slug>.json
# (export: without its change points and drift, as the contract says), or an export of no series for a
# GPU model with no file there; the store (sqlite:PATH) must exist. Every other call is the real gate's
# (REAL_PERF_GATE). Each history call is logged to FAKE_LOG.
set -euo pipefail
if [[ ${1:-} == --help ]]; then
  "$REAL_PERF_GATE" --help
  [[ -z ${FAKE_HISTORY_CHANGES:-} ]] || echo "  perf_gate history-changes --store STORE --gpu SLUG --json OUT"
  exit 0
fi
[[ ${1:-} == history ]] || exec "$REAL_PERF_GATE" "$@"
command=$2 store="" slug="" out=""
shift 2
while (($#)); do
  case "$1" in
    --store) store=$2; shift 2 ;;
    --gpu) slug=$2; shift 2 ;;
    --json) out=$2; shift 2 ;;
    *) echo "fake perf_gate: unknown option $1" >&2; exit 2 ;;
  esac
done
echo "perf_gate history $command --store $store --gpu $slug" >>"${FAKE_LOG:-/dev/null}"
[[ $command == export || ($command == changes && -n ${FAKE_HISTORY_CHANGES:-}) ]] ||
  { echo "perf_gate: unknown command 'history $command'" >&2; exit 2; }
[[ -f ${store#sqlite:} ]] || { echo "perf_gate: no store ${store#sqlite:}" >&2; exit 2; }
source="$FAKE_HISTORY_DIR/$slug.json"
if [[ ! -f $source ]]; then
  jq -n --arg slug "$slug" '{schema_version: 1, tool: "perf_gate", gpu_slug: $slug, series: [], ledger: null}' >"$out"
elif [[ $command == export ]]; then
  jq '.series[] |= (.change_points = [] | .drift = null)' "$source" >"$out"
else
  cp "$source" "$out"
fi
