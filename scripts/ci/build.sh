#!/usr/bin/env bash
# Installs what is missing and builds SOURCE_DIR with a CMake preset (into SOURCE_DIR/build/PRESET),
# nvcc on PATH. Where ccache is installed the build goes through it: a GPU job's two A/B builds and the
# next run's builds share one cache, and each build's own source root is ccache's base dir, so the same
# file in two checkouts hits the cache. Without ccache (it is optional) the build runs uncached.
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
launchers=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_DIR=${CCACHE_DIR:-$PWD/.ccache} CCACHE_BASEDIR=$src CCACHE_NOHASHDIR=1
  launchers=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
else
  note "ccache is not installed: building without a compiler cache"
fi
cmake -S "$src" --preset "$preset" "${launchers[@]}" "$@"
cmake --build "$src/build/$preset"
if ((${#launchers[@]})); then
  ccache --show-stats 2>/dev/null | grep -iE 'hits|misses' || true
fi
