#!/usr/bin/env bash
# install_deps.sh and ci/build.sh on simulated hosts: PATH holds only the host's stand-in programs
# (fake_host/) and the real basic programs the scripts need, so this machine's cmake, ninja, apt-get, dpkg,
# ccache and sudo are out of sight. Hosts: a GPU host as measured (pip's cmake and ninja, no ccache, no
# reachable registry, not root, no sudo), the same without ninja, root with a working apt-get, sudo, no
# apt-get at all; --check reports asserted byte for byte (fixtures/install_deps/); the optional PostgreSQL
# server found, missing, installed or not installable; build.sh with and without ccache. The real
# find_package probe runs once, with the real cmake.
#   test_install_deps.sh
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
install_deps="$here/../install_deps.sh" build="$here/../ci/build.sh"
fakes="$here/fake_host" expected="$here/fixtures/install_deps"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

# The real programs the scripts and the stand-ins run, and nothing else.
mkdir -p "$work/system" "$work/tmp"
for program in bash env cat cp ln mktemp rm mkdir sed grep sort head tail dirname basename readlink; do
  ln -s "$(command -v "$program")" "$work/system/$program" || exit 2
done
# What the fake apt-get installs: each package's programs.
for entry in ninja-build/ninja jq/jq g++/c++ clang/clang++ cmake/cmake postgresql/pg_ctl postgresql/initdb; do
  mkdir -p "$work/repo/${entry%/*}"
  stand_in="$fakes/tool"
  [[ ${entry#*/} == cmake ]] && stand_in="$fakes/cmake"
  ln -s "$stand_in" "$work/repo/$entry"
done

# host <name> <programs...>: a new simulated host; cmake and ninja go to NAME/local/bin, as pip puts them.
host() {
  dir="$work/$1"
  shift
  mkdir -p "$dir/bin" "$dir/local/bin"
  local program folder=bin stand_in
  for program in "$@"; do
    folder=bin stand_in="$fakes/tool"
    [[ $program == cmake || $program == ninja ]] && folder=local/bin
    [[ $program == cmake || $program == apt-get || $program == sudo ]] && stand_in="$fakes/$program"
    ln -s "$stand_in" "$dir/$folder/$program"
  done
}
gpu_host=(cmake ninja c++ jq flock nvcc apt-get)  # what the H100 host had that the scripts look at

# on_host [VAR=VALUE...] <command...>: runs on the last host made, in a clean environment; the host's
# log of stand-in calls starts empty.
on_host() {
  : >"$dir/log"
  rm -f "$dir/installed"
  (cd "$work" && env -i PATH="$dir/local/bin:$dir/bin:$work/system" HOME="$dir" TMPDIR="$work/tmp" \
    FAKE_LOG="$dir/log" FAKE_HOST="$dir" FAKE_REPO="$work/repo" "$@")
}

# expect <exit> <description> <command...>: the exit code; the output stays in $work/out for check.
expect() {
  local want=$1 rc=0
  what=$2
  shift 2
  "$@" >"$work/out" 2>&1 || rc=$?
  check "exit $rc (want $want)" test "$rc" -eq "$want"
}
check() {  # check <description> <command...>: a condition on the last case
  if "${@:2}"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $what: $1; output:"
    sed 's/^/    /' "$work/out"
    echo "    stand-in calls:"
    sed 's/^/    /' "$dir/log"
  fi
}
says() { grep -qF -- "$1" "$work/out"; }
called() { grep -qF -- "$1" "$dir/log"; }
not_called() { ! grep -q "$1" "$dir/log"; }
installs() { [[ $(grep '^apt-get install' "$dir/log") == "$1" ]]; }
golden() { sed "s|$dir|HOST|g" "$work/out" | diff -u "$expected/$1" - >&2; }

# (a) The GPU host as measured: nothing to install, so no package manager runs.
host gpu "${gpu_host[@]}"
expect 0 "GPU host: all present" on_host FAKE_APT=fail GPUPERF_ASSUME_UID=1000 bash "$install_deps"
check "says it is ready" says "dependencies ready (cmake 4.4.0, ninja 1.13.0, c++ 13.3.0, CUDA 13.0)"
check "apt-get is never called" not_called apt-get
check "the libraries were probed with Ninja" called "cmake -S $work/tmp/"
expect 0 "GPU host: --check" on_host FAKE_APT=fail GPUPERF_ASSUME_UID=1000 bash "$install_deps" --check
check "the report" golden check_gpu_host.txt
check "apt-get is never called" not_called apt-get

# (b) The same without ninja: not root and no sudo, so nothing can be installed; it says what and how.
host no-ninja cmake c++ jq flock nvcc apt-get
expect 2 "GPU host without ninja, no sudo" on_host FAKE_APT=fail GPUPERF_ASSUME_UID=1000 bash "$install_deps"
check "names ninja and how to install it" says "  missing  ninja                    neither ninja nor ninja-build is on PATH; install: sudo apt-get install ninja-build, or python3 -m pip install ninja"
check "the command for all that is missing" says "install what is missing: sudo apt-get update && sudo apt-get install -y --no-install-recommends ninja-build"
check "why it did not install" says "this user is not root and there is no sudo: run the command as root"
check "apt-get is never called" not_called apt-get
expect 2 "GPU host without ninja: --check" on_host FAKE_APT=fail GPUPERF_ASSUME_UID=1000 bash "$install_deps" --check
check "the report" golden check_no_ninja.txt
expect 2 "GPU host without ninja, as root, no registry" on_host FAKE_APT=fail GPUPERF_ASSUME_UID=0 bash "$install_deps"
check "apt-get was tried" called "apt-get update -qq"
check "its failure is explained" says "apt-get failed (exit 100)"
check "the command for what is missing" says "install what is missing: apt-get update && apt-get install -y --no-install-recommends ninja-build"
host no-ninja-sudo cmake c++ jq flock nvcc apt-get sudo
expect 0 "without ninja, not root, with sudo" on_host GPUPERF_ASSUME_UID=1000 bash "$install_deps"
check "apt-get runs through sudo" called "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ninja-build"
check "non-interactively" installs "apt-get install -y -qq --no-install-recommends ninja-build (DEBIAN_FRONTEND=noninteractive)"
host no-apt cmake c++ jq flock nvcc
expect 2 "without ninja and without apt-get, as root" on_host GPUPERF_ASSUME_UID=0 bash "$install_deps"
check "says there is no apt-get" says "there is no apt-get on this host"
check "names ninja's Debian package" says "apt-get install -y --no-install-recommends ninja-build"

# (c) Root with a working apt-get: exactly the missing packages, libraries once tools can probe them.
host no-jq cmake ninja c++ flock nvcc apt-get
expect 0 "root, jq and Google Benchmark missing" on_host FAKE_MISSING_LIBS=benchmark GPUPERF_ASSUME_UID=0 bash "$install_deps"
check "one apt-get install of exactly the missing packages" \
  installs "apt-get install -y -qq --no-install-recommends jq libbenchmark-dev (DEBIAN_FRONTEND=noninteractive)"
check "the package lists were updated first" called "apt-get update -qq"
host bare cmake c++ jq flock nvcc apt-get
expect 0 "root, ninja and two libraries missing" \
  on_host "FAKE_MISSING_LIBS=GTest nlohmann_json" GPUPERF_ASSUME_UID=0 bash "$install_deps"
check "ninja first, then the libraries the probe could then see" installs "$(printf '%s\n' \
  "apt-get install -y -qq --no-install-recommends ninja-build (DEBIAN_FRONTEND=noninteractive)" \
  "apt-get install -y -qq --no-install-recommends libgtest-dev nlohmann-json3-dev (DEBIAN_FRONTEND=noninteractive)")"
host old-cmake "${gpu_host[@]}"
expect 2 "root, a CMake that is too old and apt-get's is too" on_host FAKE_CMAKE_VERSION=3.22.1 GPUPERF_ASSUME_UID=0 bash "$install_deps"
check "cmake is installed once, not again" installs "apt-get install -y -qq --no-install-recommends cmake (DEBIAN_FRONTEND=noninteractive)"
check "says why and names pip" says "3.22.1 is too old ($dir/local/bin/cmake); install: apt-get install cmake, or python3 -m pip install cmake"
host silent-probe "${gpu_host[@]}"
expect 2 "root, a probe that answers nothing" on_host FAKE_PROBE_SILENT=1 GPUPERF_ASSUME_UID=0 bash "$install_deps"
check "says the libraries are not checked" says "  unknown  GoogleTest               not checked: the find_package probe gave no answer"
check "installs nothing on it" not_called apt-get

# (c2) A host where apt-get cannot install (RHEL, conda, Spack: no apt-get; or neither root nor sudo): a
# missing library is fetched by the build, a note and not a failure; the tools are still required.
host rhel cmake ninja c++ jq flock nvcc
expect 0 "no apt-get, GoogleTest and Google Benchmark missing" \
  on_host "FAKE_MISSING_LIBS=GTest benchmark" GPUPERF_ASSUME_UID=0 bash "$install_deps"
check "says the build fetches them" says "the build downloads and builds: GoogleTest, Google Benchmark (find_package finds none, and apt-get cannot install them here)"
expect 0 "no apt-get, --check" on_host "FAKE_MISSING_LIBS=GTest benchmark" GPUPERF_ASSUME_UID=0 bash "$install_deps" --check
check "a fetch line naming the Debian package and the docs" says "  fetch    GoogleTest               find_package(GTest) finds nothing: the build downloads its pinned release (or install it: Debian libgtest-dev, other systems in docs/dependencies.md)"
check "nlohmann-json is found" says "  found    nlohmann-json >= 3.11    3.11.3"
host rhel-no-ninja cmake c++ jq flock nvcc
expect 2 "no apt-get, ninja missing too" on_host "FAKE_MISSING_LIBS=GTest" GPUPERF_ASSUME_UID=0 bash "$install_deps"
check "ninja is still missing" says "  missing  ninja"
host user-no-sudo "${gpu_host[@]}"
expect 0 "apt-get, neither root nor sudo, nlohmann-json missing" \
  on_host FAKE_MISSING_LIBS=nlohmann_json FAKE_APT=fail GPUPERF_ASSUME_UID=1000 bash "$install_deps"
check "the build fetches it" says "the build downloads and builds: nlohmann-json >= 3.11"
check "apt-get is never called" not_called apt-get

# (d) --check changes nothing, even as root with a working apt-get.
host root-missing cmake c++ flock nvcc apt-get
expect 2 "root, --check, fuzz and lint tools missing" on_host GPUPERF_ASSUME_UID=0 bash "$install_deps" --check --with-fuzz --with-lint
check "the report" golden check_missing.txt
check "apt-get is never called" not_called apt-get
host no-libfuzzer "${gpu_host[@]}" clang++ ccache
expect 2 "clang++ without libFuzzer" on_host FAKE_NO_LIBFUZZER=1 GPUPERF_ASSUME_UID=0 bash "$install_deps" --check --with-fuzz
check "names libFuzzer's package" says "  missing  libFuzzer                clang++ -fsanitize=fuzzer does not link; install: apt-get install libclang-rt-dev"
check "ccache is reported, optional" says "  optional ccache                   ccache version 4.9.1 ($dir/bin/ccache): scripts/ci/build.sh uses it"
host old-cuda "${gpu_host[@]}"
expect 2 "CUDA 11" on_host FAKE_CUDA=11.8 bash "$install_deps" --check
check "names the version and what to do" says "is CUDA 11.8; install CUDA 12 or 13 from NVIDIA first"
host no-nvcc cmake ninja c++ jq flock apt-get
expect 2 "no nvcc on PATH" on_host bash "$install_deps" --check
check "says where it is or that it is missing" \
  grep -qE "nvcc is in /usr/local/cuda[^ ]*/bin: add it to PATH|the CUDA Toolkit \(nvcc\) is not installed" "$work/out"
expect 2 "an unknown argument" on_host bash "$install_deps" --with-fuzzing
check "names it" says "unknown argument '--with-fuzzing'"
host probe-skipped "${gpu_host[@]}"
expect 0 "the library probe skipped" on_host GPUPERF_LIBRARY_PROBE=skip bash "$install_deps" --check
check "says so" says "  skipped  GoogleTest               not probed (GPUPERF_LIBRARY_PROBE=skip)"
expect 2 "the library probe hook misspelt" on_host GPUPERF_LIBRARY_PROBE=off bash "$install_deps" --check

# (e) --with-database: PostgreSQL's server programs are optional; the tests' own folder of them
# (GPUPERF_POSTGRES_BIN, here the host's bin) is where they are looked for.
host no-database "${gpu_host[@]}"
expect 0 "--with-database, no server programs" \
  on_host GPUPERF_POSTGRES_BIN="$dir/bin" FAKE_APT=fail GPUPERF_ASSUME_UID=1000 bash "$install_deps" --check --with-database
check "a note with the command, not a failure" says "  optional postgresql               no initdb and pg_ctl: the PostgreSQL store tests report skipped; install: sudo apt-get install postgresql"
check "apt-get is never called" not_called apt-get
expect 0 "--with-database as root, no registry" \
  on_host GPUPERF_POSTGRES_BIN="$dir/bin" FAKE_APT=fail GPUPERF_ASSUME_UID=0 bash "$install_deps" --with-database
check "apt-get was tried" called "apt-get update -qq"
check "says the tests report skipped" says "note: apt-get could not install postgresql (no package registry reachable, or no such package here): the PostgreSQL store tests report skipped"
expect 0 "--with-database as root, apt-get works" \
  on_host GPUPERF_POSTGRES_BIN="$dir/bin" GPUPERF_ASSUME_UID=0 bash "$install_deps" --with-database
check "installs postgresql alone" installs "apt-get install -y -qq --no-install-recommends postgresql (DEBIAN_FRONTEND=noninteractive)"
expect 0 "--with-database, then found" \
  on_host GPUPERF_POSTGRES_BIN="$dir/bin" FAKE_APT=fail bash "$install_deps" --check --with-database
check "names its version and folder" says "  found    postgresql               pg_ctl (PostgreSQL) 15.14 ($dir/bin)"

# (f) build.sh uses ccache where it is installed, and builds without it where it is not.
mkdir -p "$work/source"
host gpu-build "${gpu_host[@]}"
expect 0 "build.sh on the GPU host" on_host FAKE_APT=fail GPUPERF_ASSUME_UID=1000 bash "$build" "$work/source" "$work/build" dev -DX=1
check "configures without a compiler launcher" called "cmake -S $work/source -B $work/build --preset dev -DX=1 CCACHE_BASEDIR="
check "says so" says "ccache is not installed: building without a compiler cache"
check "builds" called "cmake --build $work/build"
host gpu-ccache "${gpu_host[@]}" ccache
expect 0 "build.sh with ccache" on_host GPUPERF_ASSUME_UID=1000 bash "$build" "$work/source" "$work/build" dev -DX=1
check "configures through ccache, its base dir the source" called \
  "cmake -S $work/source -B $work/build --preset dev -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache -DX=1 CCACHE_BASEDIR=$work/source"
check "prints the cache statistics" called "ccache --show-stats"

# The real probe, with this machine's cmake: the libraries the build itself found.
dir="$work/real" && mkdir -p "$dir" && : >"$dir/log"
expect_any() { "$@" >"$work/out" 2>&1; }
what="the real find_package probe"
expect_any bash "$install_deps" --check
for library in "GoogleTest " "Google Benchmark " "nlohmann-json >= 3.11 "; do
  check "finds $library with its version" grep -qE "^  found    $library +[0-9]+\.[0-9]+" "$work/out"
done

echo "$passed passed, $failed failed"
((failed == 0))
