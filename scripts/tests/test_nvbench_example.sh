#!/usr/bin/env bash
# examples/nvbench_suite/, a team's nvbench suite, configured and built against BUILD installed into a
# fresh prefix and an installed nvbench (scripts/build_nvbench.sh): its binary links nvbench::main and its
# build registers perf.nvbench_suite. Skipped (77), saying so, where nvbench is not installed: it is
# looked for in $NVBENCH_PREFIX, else in each folder of $CMAKE_PREFIX_PATH. Never a pass without the build.
#
#   test_nvbench_example.sh BUILD WORK
#
# BUILD: this repository's CMake build (its cmake, generator and compilers are reused); WORK: a scratch
# folder, emptied first. Built for BUILD's first CUDA architecture (no GPU is needed to build).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
(($# == 2)) || { echo "usage: $0 BUILD WORK" >&2; exit 2; }
build=$(cd "$1" && pwd) work=$2

nvbench_prefix=""
IFS=: read -r -a candidates <<<"${NVBENCH_PREFIX:-${CMAKE_PREFIX_PATH:-}}"
for candidate in "${candidates[@]}"; do
  if [[ -n $candidate ]] && compgen -G "$candidate/lib*/cmake/nvbench/nvbench-config.cmake" >/dev/null; then
    nvbench_prefix=$candidate
    break
  fi
done
if [[ -z $nvbench_prefix ]]; then
  echo "SKIPPED: nvbench is not installed: no lib*/cmake/nvbench/nvbench-config.cmake under NVBENCH_PREFIX or" \
    "CMAKE_PREFIX_PATH ('${NVBENCH_PREFIX:-${CMAKE_PREFIX_PATH:-}}'); build it with scripts/build_nvbench.sh PREFIX"
  exit 77
fi

cached() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt" | head -n 1; }
cmake=$(cached CMAKE_COMMAND)
architectures=$(cached CMAKE_CUDA_ARCHITECTURES)
architectures=${architectures%%;*}
[[ $architectures != native && -n $architectures ]] || architectures=90
options=(-G "$(cached CMAKE_GENERATOR)" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CUDA_ARCHITECTURES=$architectures")
for variable in CMAKE_MAKE_PROGRAM CMAKE_CXX_COMPILER CMAKE_CUDA_COMPILER CMAKE_CUDA_HOST_COMPILER; do
  value=$(cached "$variable")
  [[ -z $value ]] || options+=("-D$variable=$value")
done

rm -rf "$work"
mkdir -p "$work"
"$cmake" --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; echo "FAIL: cmake --install $build"; exit 1; }
cp -r "$root/examples/nvbench_suite" "$work/project"
"$cmake" -S "$work/project" -B "$work/project/build" "${options[@]}" \
  "-DCMAKE_PREFIX_PATH=$work/prefix;$nvbench_prefix" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; echo "FAIL: configuring examples/nvbench_suite against $nvbench_prefix"; exit 1; }
"$cmake" --build "$work/project/build" >"$work/build.log" 2>&1 ||
  { tail -n 40 "$work/build.log"; echo "FAIL: building examples/nvbench_suite"; exit 1; }

failures=0
[[ -x $work/project/build/nvbench_bench ]] || { echo "FAIL: no nvbench_bench was built"; failures=$((failures + 1)); }
ctest=$(cached CMAKE_CTEST_COMMAND)
"$ctest" --test-dir "$work/project/build" -N | grep -q ' perf\.nvbench_suite$' ||
  { echo "FAIL: the build registers no perf.nvbench_suite"; failures=$((failures + 1)); }
grep -qx 'format=nvbench' "$work/project/build/gpuperf-suites/nvbench_suite.txt" ||
  { echo "FAIL: gpuperf-suites/nvbench_suite.txt does not say format=nvbench"; failures=$((failures + 1)); }
((failures == 0)) || exit 1
echo "examples/nvbench_suite built against nvbench in $nvbench_prefix (sm_$architectures)"
