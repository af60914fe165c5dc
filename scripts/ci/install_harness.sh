#!/usr/bin/env bash
# For a project that uses the harness (the reusable workflows' callers): builds the harness's checkout
# (HARNESS_DIR, at the commit the caller pins) without its demo kernels and own tests, for this host's
# GPU, and installs it as the CMake package that find_package(gpuperf CONFIG) finds with
# -DCMAKE_PREFIX_PATH=PREFIX: its libraries, headers, perf_gate and the scripts its tests run.
#
#   install_harness.sh HARNESS_DIR PREFIX
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
(($# == 2)) || die "$EXIT_INVALID" "usage: $0 HARNESS_DIR PREFIX"
harness=$1 prefix=$2
[[ -f $harness/CMakeLists.txt ]] || die "$EXIT_INVALID" "$harness is not a checkout of the harness (no CMakeLists.txt)"
here="$(dirname "${BASH_SOURCE[0]}")"
build="$harness/build/package"
bash "$here/build.sh" "$harness" "$build" "" -G Ninja -DCMAKE_CUDA_ARCHITECTURES=native \
  -DGPUPERF_BUILD_DEMO_FAMILIES=OFF -DGPUPERF_BUILD_TESTS=OFF
cmake --install "$build" --prefix "$prefix"
echo "the harness ($(git -C "$harness" rev-parse HEAD 2>/dev/null || echo "$harness")) is installed in $prefix"
