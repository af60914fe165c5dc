#!/usr/bin/env bash
# Runs a GPU test on the GPU CTest allotted to it: with a resource spec file, CTest sets
# CTEST_RESOURCE_GROUP_0_GPUS="id:gpu_7f76603f_c595_...,slots:1" (the UUID as resource_spec.sh wrote it)
# and this makes that GPU, GPU-7f76603f-c595-..., the only visible one.
# Without resource allocation (a plain `ctest`), the command runs unchanged on the default GPU.
#
#   with_ctest_gpu.sh COMMAND [ARGS...]
set -euo pipefail
allotted=${CTEST_RESOURCE_GROUP_0_GPUS:-}
if [[ -n $allotted ]]; then
  id=${allotted#id:}
  id=${id%%,*}
  prefix=${id%%_*}
  rest=${id#*_}
  export CUDA_VISIBLE_DEVICES="${prefix^^}-${rest//_/-}"  # CUDA accepts a GPU UUID here
fi
exec "$@"
