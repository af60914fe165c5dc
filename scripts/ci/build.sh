#!/usr/bin/env bash
# Installs what is missing and builds SOURCE_DIR with a CMake preset (into SOURCE_DIR/build/PRESET),
# nvcc on PATH, through ccache: a GPU job's two A/B builds and the next run's builds share one cache.
# Each build's own source root is ccache's base dir, so the same file in two checkouts hits the cache.
#
#   build.sh SOURCE_DIR PRESET [CMAKE_ARGS...]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
(($# >= 2)) || die "$EXIT_INVALID" "usage: $0 SOURCE_DIR PRESET [CMAKE_ARGS...]"
src=$(cd "$1" && pwd) preset=$2
shift 2
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export PATH="/usr/local/cuda/bin:$PATH"
bash "$here/../install_deps.sh"
export CCACHE_DIR=${CCACHE_DIR:-$PWD/.ccache} CCACHE_BASEDIR=$src CCACHE_NOHASHDIR=1
cmake -S "$src" --preset "$preset" -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache "$@"
cmake --build "$src/build/$preset"
ccache --show-stats 2>/dev/null | grep -iE 'hits|misses' || true
