#!/usr/bin/env bash
# Builds NVIDIA's nvbench and installs it into PREFIX, for a team's nvbench suite (examples/nvbench_suite,
# docs/suites.md): the library, nvbench::nvbench and nvbench::main, with its CMake package; none of
# nvbench's tests, examples or executables.
#
#   build_nvbench.sh [--sources DIR] [--arch ARCHS] [--build-dir DIR] [--no-nvml] PREFIX
#
# Without --sources, nvbench's own CMake downloads what it needs (nvbench at NVBENCH_COMMIT below,
# cloned; rapids-cmake, CPM.cmake, fmt and nlohmann_json, fetched by its cmake/ files).
# --sources DIR: a host without network; DIR holds every source, nothing is downloaded:
#   DIR/nvbench/           nvbench's source tree
#   DIR/rapids-cmake/      rapids-cmake at the version nvbench loads (nvbench_load_rapids_cmake(25.12))
#   DIR/CPM_0.42.0.cmake   CPM.cmake at the version that rapids-cmake pins (rapids_cpm_download)
#   DIR/fmt/               fmt at the version nvbench pins (12.2.0)
#   DIR/nlohmann_json/     nlohmann_json's include/ (nvbench pins 3.12.0; 3.11.3 builds too)
# FetchContent is fully disconnected and CPM is pointed at these folders, so a missing one fails the
# configure, saying which, rather than reaching for the network.
# --arch: CMAKE_CUDA_ARCHITECTURES (default 90: H100, H200); never "native", which needs a GPU at build time.
# --build-dir: where to build (default: a temporary folder, removed after a successful install).
# --no-nvml: builds without NVML (nvbench then reports no clocks); by default NVML is on where the host has
# libnvidia-ml, and off, saying so, where it has not. CUPTI is always off: it serves nvbench's hardware
# counter measurements, which the gate does not read, and its libraries are not on every host.
# Needs CMake 3.30.4 or newer (rapids-cmake's minimum), Ninja and nvcc.
# Exit: 0 installed, 2 bad usage, a missing tool or source, or a failed configure, build or install.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"

# The nvbench the offline tree of docs/suites.md was made from, cloned when no --sources is given.
readonly NVBENCH_COMMIT=66212f1da71cc9afb2894a46fa8f234cbdd6c0d8
readonly NVBENCH_REPOSITORY=https://github.com/NVIDIA/nvbench.git
readonly CPM_FILE=CPM_0.42.0.cmake
readonly CMAKE_MINIMUM=3.30.4

sources="" arch=90 build_dir="" nvml=auto prefix=""
while (($# > 0)); do
  case $1 in
    --sources) need_value "$@"; sources=$2; shift 2 ;;
    --arch) need_value "$@"; arch=$2; shift 2 ;;
    --build-dir) need_value "$@"; build_dir=$2; shift 2 ;;
    --no-nvml) nvml=off; shift ;;
    -*) die "$EXIT_INVALID" "unknown option '$1' (see $(basename "$0") --help)" ;;
    *) [[ -z $prefix ]] || die "$EXIT_INVALID" "one PREFIX only ('$prefix', then '$1')"; prefix=$1; shift ;;
  esac
done
[[ -n $prefix ]] || die "$EXIT_INVALID" "usage: $(basename "$0") [--sources DIR] [--arch ARCHS] PREFIX (see --help)"
[[ $arch =~ ^[0-9]+[a-z]?(-(real|virtual))?(\;[0-9]+[a-z]?(-(real|virtual))?)*$ ]] ||
  die "$EXIT_INVALID" "--arch '$arch' is not a list of CUDA architectures such as 90 or '80;90'"

need_tool cmake
need_tool ninja
cmake_version=$(cmake --version | sed -n 's/^cmake version \([0-9.]*\).*/\1/p')
[[ $(printf '%s\n%s\n' "$CMAKE_MINIMUM" "$cmake_version" | sort -V | head -n 1) == "$CMAKE_MINIMUM" ]] ||
  die "$EXIT_INVALID" "cmake $cmake_version is too old: nvbench needs $CMAKE_MINIMUM or newer (pip install cmake, or a release from cmake.org)"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[[ -x $nvcc ]] || die "$EXIT_INVALID" "nvcc is not on PATH nor at /usr/local/cuda/bin: install the CUDA toolkit"
cuda_root=$(cd "$(dirname "$nvcc")/.." && pwd)

# NVML: the toolkit's stub or the driver's library; FindCUDAToolkit's CUDA::nvml needs one of them.
has_nvml() {
  compgen -G "$cuda_root/lib64/libnvidia-ml.so*" >/dev/null ||
    compgen -G "$cuda_root/lib64/stubs/libnvidia-ml.so*" >/dev/null ||
    compgen -G "$cuda_root/targets/*/lib/stubs/libnvidia-ml.so*" >/dev/null ||
    ldconfig -p 2>/dev/null | grep -q 'libnvidia-ml\.so '
}
if [[ $nvml == auto ]]; then
  if has_nvml; then nvml=on; else
    nvml=off
    note "no libnvidia-ml in $cuda_root nor the system: nvbench is built without NVML (no clock reports)"
  fi
fi

mkdir -p -- "$prefix" || die "$EXIT_INVALID" "cannot create PREFIX $prefix"
prefix=$(cd -- "$prefix" && pwd)
remove_build=0
if [[ -z $build_dir ]]; then
  build_dir=$(mktemp -d "${TMPDIR:-/tmp}/nvbench-build.XXXXXX")
  remove_build=1
fi
mkdir -p -- "$build_dir"
build_dir=$(cd -- "$build_dir" && pwd)

offline_args=()
if [[ -n $sources ]]; then
  sources=$(cd -- "$sources" 2>/dev/null && pwd) || die "$EXIT_INVALID" "--sources: no folder $sources"
  for part in nvbench/CMakeLists.txt rapids-cmake/RAPIDS.cmake "$CPM_FILE" fmt/CMakeLists.txt \
    nlohmann_json/include/nlohmann/json.hpp; do
    [[ -e $sources/$part ]] || die "$EXIT_INVALID" "--sources $sources has no $part (see the header of $0 for the layout)"
  done
  source_dir=$sources/nvbench
  # FetchContent (nvbench's cmake/RAPIDS.cmake fetches rapids-cmake) takes the local folder and never
  # the network; rapids-cmake includes CPM from CPM_DOWNLOAD_LOCATION when that file exists; a package
  # with CPM_<name>_SOURCE is added from that folder (rapids_cpm_find -> CPMAddPackage).
  offline_args=(
    -DFETCHCONTENT_FULLY_DISCONNECTED=ON
    "-DFETCHCONTENT_SOURCE_DIR_RAPIDS-CMAKE=$sources/rapids-cmake"
    "-DCPM_DOWNLOAD_LOCATION=$sources/$CPM_FILE"
    "-DCPM_fmt_SOURCE=$sources/fmt"
    "-DCPM_nlohmann_json_SOURCE=$sources/nlohmann_json"
    -DCPM_USE_LOCAL_PACKAGES=OFF
  )
else
  need_tool git
  source_dir=$build_dir/nvbench-src
  if [[ ! -d $source_dir/.git ]]; then
    git clone --quiet "$NVBENCH_REPOSITORY" "$source_dir" || die "$EXIT_INVALID" "cannot clone $NVBENCH_REPOSITORY (no network? use --sources)"
  fi
  git -C "$source_dir" checkout --quiet "$NVBENCH_COMMIT" || die "$EXIT_INVALID" "nvbench has no commit $NVBENCH_COMMIT"
fi

log=$build_dir/build_nvbench.log
note "configuring nvbench ($source_dir) for sm_$arch, NVML $nvml, CUPTI off, into $prefix; log: $log"
cmake -S "$source_dir" -B "$build_dir/build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  "-DCMAKE_CUDA_ARCHITECTURES=$arch" \
  "-DCMAKE_CUDA_COMPILER=$nvcc" \
  "-DCMAKE_INSTALL_PREFIX=$prefix" \
  -DBUILD_SHARED_LIBS=ON \
  -DNVBench_ENABLE_TESTING=OFF \
  -DNVBench_ENABLE_HEADER_TESTING=OFF \
  -DNVBench_ENABLE_EXAMPLES=OFF \
  -DNVBench_ENABLE_EXECUTABLES=OFF \
  -DNVBench_ENABLE_INSTALL_RULES=ON \
  "-DNVBench_ENABLE_NVML=$([[ $nvml == on ]] && echo ON || echo OFF)" \
  -DNVBench_ENABLE_CUPTI=OFF \
  "${offline_args[@]}" >"$log" 2>&1 ||
  die "$EXIT_INVALID" "configuring nvbench failed; the end of $log:
$(tail -n 25 "$log")"

note "building nvbench with $(nproc) jobs"
cmake --build "$build_dir/build" --parallel "$(nproc)" >>"$log" 2>&1 ||
  die "$EXIT_INVALID" "building nvbench failed; the end of $log:
$(tail -n 25 "$log")"
cmake --install "$build_dir/build" >>"$log" 2>&1 ||
  die "$EXIT_INVALID" "installing nvbench into $prefix failed; the end of $log:
$(tail -n 25 "$log")"

config=$(compgen -G "$prefix/lib*/cmake/nvbench/nvbench-config.cmake" | head -n 1 || true)
[[ -n $config ]] || die "$EXIT_INVALID" "the install into $prefix wrote no lib*/cmake/nvbench/nvbench-config.cmake (see $log)"
((remove_build == 0)) || rm -rf -- "$build_dir"
echo "nvbench installed into $prefix: find it with -DCMAKE_PREFIX_PATH=$prefix (or NVBENCH_PREFIX=$prefix)"
