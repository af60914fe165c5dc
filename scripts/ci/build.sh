#!/usr/bin/env bash
# Installs what is missing and builds a CMake project into BUILD_DIR, nvcc on PATH. Where ccache is
# installed the build goes through it: a GPU job's two A/B builds, the harness it installs and the next
# run's builds share one cache, and each build's own source root is ccache's base dir, so the same file in
# two checkouts hits the cache. Without ccache (it is optional) the build runs uncached.
#
#   build.sh SOURCE_DIR BUILD_DIR PRESET [CMAKE_ARGS...]
# PRESET: a configure preset of SOURCE_DIR (its binaryDir is replaced by BUILD_DIR), or "" for none: then
# a Release build with CMake's default generator, which CMAKE_ARGS may change (-G Ninja). CMAKE_ARGS
# come after the preset's, so they win.
# Where its time went goes to BUILD_DIR/perf-results/phases/build.json (the whole step, its phases
# configure and build; scripts/lib/phases.sh), which the test step's time table reads.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/../lib/phases.sh"
started=$(phase_now)
(($# >= 3)) || die "$EXIT_INVALID" "usage: $0 SOURCE_DIR BUILD_DIR PRESET [CMAKE_ARGS...]"
src=$(cd "$1" && pwd) || die "$EXIT_INVALID" "no source folder $1"
build=$2 preset=$3
shift 3
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
configure=(-DCMAKE_BUILD_TYPE=Release)
[[ -n $preset ]] && configure=(--preset "$preset")
configure_started=$(phase_now)
cmake -S "$src" -B "$build" "${configure[@]}" "${launchers[@]}" "$@"
build_started=$(phase_now)
cmake --build "$build"
built=$(phase_now)
write_phase_file "$build/perf-results/phases" build "" "$started" "$built" \
  "$(phase_span configure "$configure_started" "$build_started")" "$(phase_span build "$build_started" "$built")" ||
  note "could not write $build/perf-results/phases/build.json (the build stands)"
if ((${#launchers[@]})); then
  ccache --show-stats 2>/dev/null | grep -iE 'hits|misses' || true
fi
