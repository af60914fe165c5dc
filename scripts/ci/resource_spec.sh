#!/usr/bin/env bash
# Writes a CTest resource spec file with one "gpus" resource per GPU of this host, of 4 slots, so that
# `ctest --resource-spec-file F -j N` runs GPU tests side by side: a perf test takes all 4 slots of a GPU
# (never two on one), a correctness test one to all of them (GPUPERF_CORRECTNESS_PER_GPU,
# cmake/KernelFamily.cmake). A resource id must match [a-z_][a-z0-9_]* (CTest refuses the file otherwise), so the id is the
# GPU's UUID in lower case with _ for - (GPU-7f76603f-c595-... -> gpu_7f76603f_c595_...), which
# with_ctest_gpu.sh turns back into the UUID. The UUID is also what the GPU lock
# (scripts/lib/common.sh) is keyed by.
#
#   resource_spec.sh [--or-none] OUT.json     (prints the number of GPUs)
#
# --or-none (the gpuperf.gpus fixture test, cmake/KernelFamily.cmake): where nvidia-smi is missing or lists
# no GPU, one resource "none" instead of an error (prints 0), so that the GPU tests still run, one at a
# time, and report skipped; with_ctest_gpu.sh leaves the GPU alone for it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
or_none=""
[[ ${1:-} == --or-none ]] && { or_none=1; shift; }
(($# == 1)) || die "$EXIT_INVALID" "usage: $0 [--or-none] OUT.json"
# spec_of <ids...>: the spec file's text, one "gpus" resource (4 slots) per id. Written without jq: the
# ids are [a-z0-9_] only, and the fixture test runs on hosts that have bash alone.
spec_of() {
  local id entries=()
  for id in "$@"; do entries+=("{\"id\": \"$id\", \"slots\": 4}"); done
  local IFS=,
  printf '{"version": {"major": 1, "minor": 0}, "local": [{"gpus": [%s]}]}\n' "${entries[*]}"
}
# A runner pinned to some GPUs (CUDA_VISIBLE_DEVICES: indices or UUIDs, docs/runner_setup.md) offers
# only those: nvidia-smi itself ignores the variable.
only=()
[[ -n ${CUDA_VISIBLE_DEVICES:-} ]] && only=(-i "$CUDA_VISIBLE_DEVICES")
uuids=""
if command -v nvidia-smi >/dev/null; then
  uuids=$(nvidia-smi "${only[@]}" --query-gpu=uuid --format=csv,noheader) || [[ -n $or_none ]] ||
    die "$EXIT_INVALID" "nvidia-smi failed"
elif [[ -z $or_none ]]; then
  need_tool nvidia-smi
fi
if [[ -z $uuids ]]; then
  [[ -n $or_none ]] || die "$EXIT_INVALID" "nvidia-smi lists no GPU"
  spec_of none >"$1"
  echo 0
  exit 0
fi
ids=()
while read -r uuid; do
  [[ -n $uuid ]] || continue
  uuid=${uuid,,}
  ids+=("${uuid//-/_}")
done <<<"$uuids"
spec_of "${ids[@]}" >"$1"
echo "${#ids[@]}"
