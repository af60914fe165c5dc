#!/usr/bin/env bash
# Writes a CTest resource spec file with one "gpus" resource per GPU of this host (one slot each), so `ctest --resource-spec-file F -j N` runs GPU tests side by side, one GPU each, never two on
# one. A resource id must match [a-z_][a-z0-9_]* (CTest refuses the file otherwise), so the id is the
# GPU's UUID in lower case with _ for - (GPU-7f76603f-c595-... -> gpu_7f76603f_c595_...), which
# with_ctest_gpu.sh turns back into the UUID. The UUID is also what the GPU lock
# (scripts/lib/common.sh) is keyed by.
#
#   resource_spec.sh OUT.json     (prints the number of GPUs)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
(($# == 1)) || die "$EXIT_INVALID" "usage: $0 OUT.json"
need_tool jq
need_tool nvidia-smi
# A runner pinned to some GPUs (CUDA_VISIBLE_DEVICES: indices or UUIDs, docs/runner_setup.md) offers
# only those: nvidia-smi itself ignores the variable.
only=()
[[ -n ${CUDA_VISIBLE_DEVICES:-} ]] && only=(-i "$CUDA_VISIBLE_DEVICES")
uuids=$(nvidia-smi "${only[@]}" --query-gpu=uuid --format=csv,noheader) || die "$EXIT_INVALID" "nvidia-smi failed"
[[ -n $uuids ]] || die "$EXIT_INVALID" "nvidia-smi lists no GPU"
jq -R -s '{version: {major: 1, minor: 0},
           local: [{gpus: [split("\n")[] | select(length > 0) | {id: (ascii_downcase | gsub("-"; "_")), slots: 1}]}]}' \
  <<<"$uuids" >"$1"
jq '.local[0].gpus | length' "$1"
