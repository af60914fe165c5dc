#!/usr/bin/env bash
# Runs a GPU test on the GPU CTest allotted to it: with a resource spec file, CTest sets
# CTEST_RESOURCE_GROUP_0_GPUS="id:gpu_7f76603f_c595_...,slots:4" (the UUID as resource_spec.sh wrote it)
# and this makes that GPU, GPU-7f76603f-c595-..., the only visible one.
# Without resource allocation (a plain `ctest`), or with the resource "none" of a host without GPUs, the
# command runs unchanged on the default GPU.
#
# With GPUPERF_PHASES_DIR set (scripts/ci/gpu_tests.sh sets it), the test's start and end go to a phase
# file there (scripts/lib/phases.sh): correctness_test.<family>.json for the correctness test
# (--gtest_filter=<family>.*), perf_test.<name>.json for a perf test (--family <name>; --shard I/N:
# families, families_2of4); its exit code is kept.
#
#   with_ctest_gpu.sh COMMAND [ARGS...]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/phases.sh"
allotted=${CTEST_RESOURCE_GROUP_0_GPUS:-}
id=${allotted#id:}
id=${id%%,*}
# "none": the host listed no GPU (resource_spec.sh --or-none); the test finds none and skips.
if [[ -n $allotted && $id != none ]]; then
  prefix=${id%%_*}
  rest=${id#*_}
  export CUDA_VISIBLE_DEVICES="${prefix^^}-${rest//_/-}"  # CUDA accepts a GPU UUID here
fi
what="" family="" previous=""
for argument in "$@"; do
  case "$argument" in
    --gtest_filter=*) what=correctness_test family=${argument#--gtest_filter=} family=${family%%.*} ;;
  esac
  [[ $previous == --family ]] && what=perf_test family=$argument
  # --shard I/N: the name perf_gate run gives it (perf_tests/gate/driver/shards.h, shard_name()).
  if [[ $previous == --shard && $argument =~ ^([0-9]+)/([0-9]+)$ ]]; then
    what=perf_test family=families
    ((BASH_REMATCH[2] == 1)) || family="families_${BASH_REMATCH[1]}of${BASH_REMATCH[2]}"
  fi
  previous=$argument
done
[[ -n ${GPUPERF_PHASES_DIR:-} && -n $what ]] || exec "$@"
start=$(phase_now) rc=0
"$@" || rc=$?
write_phase_file "$GPUPERF_PHASES_DIR" "$what" "$family" "$start" "$(phase_now)" ||
  echo "[with_ctest_gpu.sh] could not write $what.$family.json in $GPUPERF_PHASES_DIR (the test's result stands)" >&2
exit "$rc"
