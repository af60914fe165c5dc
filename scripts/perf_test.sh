#!/usr/bin/env bash
# One kernel family's perf test against the GPU's stored baseline. The procedure is `perf_gate run` now
# (perf_tests/gate/driver/stored_run.h: the GPU lock, the checking process, the looks judged in-process,
# the memory canary, the ledger, the phase file, the Nsight Compute hook), which CTest runs directly
# (perf.families, perf_gate run --shard). This wrapper is kept for one release, for callers of the script;
# it will then go.
# It takes the script's options, --gate naming the perf_gate that runs the test, and passes the rest on:
#
#   perf_test.sh --family NAME --bench PATH --gate PATH --baselines DIR --out DIR
#                [--processes N] [--repetitions N] [--max-remeasure N] [--strict] [--lock-wait SECONDS]
#                [--no-canary] [--no-reference-check] [--skip-unchanged] [--same-code-ledger FILE]
#                [--no-diagnosis]
#
# What each option does: perf_gate --help, its run command (the same options, --gate aside).
# Exit: 0 pass, 1 regression, 2 invalid input or infrastructure failure, 77 skipped / not judged
# (no GPU; no baseline for this GPU unless --strict; throttled GPU).
# Writes into --out: <family>.fingerprints.json, <family>.runN.json (raw samples, a .log beside each),
# <family>.md and <family>.verdict.json (reports); and where its time went, into $GPUPERF_PHASES_DIR
# (default --out/phases): perf_phases.<family>.json, whatever the exit.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"

gate="" args=()
while (($#)); do
  case "$1" in
    --gate) need_value "$@"; gate=$2; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[[ -n $gate ]] || die "$EXIT_INVALID" "--gate is required"
exec "$gate" run "${args[@]}"
