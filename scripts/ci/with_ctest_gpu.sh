#!/usr/bin/env bash
# Runs a GPU test on the GPU CTest allotted to it: with a resource spec file, CTest sets
# CTEST_RESOURCE_GROUP_0_GPUS="id:<uuid>,slots:1" and this makes that GPU the only visible one.
# Without resource allocation (a plain `ctest`), the command runs unchanged on the default GPU.
#
#   with_ctest_gpu.sh COMMAND [ARGS...]
set -euo pipefail
allotted=${CTEST_RESOURCE_GROUP_0_GPUS:-}
if [[ -n $allotted ]]; then
  id=${allotted#id:}
  export CUDA_VISIBLE_DEVICES=${id%%,*}  # CUDA accepts a GPU UUID here
fi
exec "$@"
