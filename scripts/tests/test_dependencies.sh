#!/usr/bin/env bash
# cmake/Dependencies.cmake without the system's GoogleTest, Google Benchmark or nlohmann-json, and with no
# network: the projects of fixtures/dependencies/ (harness_slice includes the harness's Dependencies.cmake;
# consumer_slice uses what harness_slice installed) are configured with some packages hidden
# (CMAKE_DISABLE_FIND_PACKAGE_<name>) and downloading off. Cases:
#   missing        GoogleTest from its sources, the other two hidden, downloading off: the configure stops
#                  with fixtures/dependencies/missing_benchmark_json.txt, which names only those two
#   disconnected   all three hidden, FETCHCONTENT_FULLY_DISCONNECTED=ON: fixtures/.../missing_all.txt
#   provided       GoogleTest hidden but its targets defined by the project (as CPM or FetchContent of a
#                  parent project would): configures, and builds no GoogleTest of its own
#   from_source    GoogleTest hidden and built from its sources (FETCHCONTENT_SOURCE_DIR_GOOGLETEST): a
#                  GoogleTest test builds and passes; installed, GoogleTest comes with the package
#   consumer       the installed package finds GoogleTest in its prefix, not the system's, and links it
#   found_first    a consumer that found the system's GoogleTest first is told to find gpuperf first
#   download       GoogleTest hidden and downloaded: from a stand-in for its release archive (a file:// URL
#                  to a tarball of its sources, and that tarball's SHA-256), which configures
#   tampered       the same archive against another SHA-256: the configure stops, naming both hashes
#   offline        GoogleTest hidden, its release unreachable: the configure stops within 20 s, naming the
#                  packages to install (no retries)
#   no_gpu         the top-level project with CMAKE_CUDA_ARCHITECTURES=native and no GPU: one message that
#                  names the ci preset (cmake/NativeGpu.cmake)
# GoogleTest's sources: GPUPERF_GOOGLETEST_SOURCE, else /usr/src/googletest (Debian/Ubuntu: package
# googletest, which libgtest-dev installs). Without them the cases that need them are not run, and the test
# reports skipped (77) once the others pass.
#
#   test_dependencies.sh CMAKE GENERATOR MAKE_PROGRAM CXX_COMPILER CUDA_TOOLKIT_ROOT WORK
# Exit: 0 all passed, 1 a case failed, 2 bad arguments, 77 GoogleTest's sources not found (the rest passed).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
fixtures="$here/fixtures/dependencies"
(($# == 6)) || { echo "usage: $0 CMAKE GENERATOR MAKE_PROGRAM CXX_COMPILER CUDA_TOOLKIT_ROOT WORK" >&2; exit 2; }
cmake=$1 work=$6
options=(-G "$2" "-DCMAKE_MAKE_PROGRAM=$3" "-DCMAKE_CXX_COMPILER=$4" "-DCUDAToolkit_ROOT=$5")
googletest=${GPUPERF_GOOGLETEST_SOURCE:-/usr/src/googletest}
hide_all=(-DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON
  -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON)
# Where a case could download, it is told it may not, both ways.
offline=(-DGPUPERF_FETCH_DEPENDENCIES=OFF -DFETCHCONTENT_FULLY_DISCONNECTED=ON)

rm -rf "$work"
mkdir -p "$work"
failures=0
fail() { echo "FAIL: $test_case: $*"; failures=$((failures + 1)); }

# configure <project> <cmake options...>: configures fixtures/dependencies/<project> into WORK/<case>
# (the case being tested); its output in WORK/<case>.log. Returns cmake's exit code.
configure() {
  local project=$1
  shift
  "$cmake" -S "$fixtures/$project" -B "$work/$test_case" "${options[@]}" "-DGPUPERF_SOURCE_DIR=$root" "$@" \
    >"$work/$test_case.log" 2>&1
}
# The text of the configure error: the lines between "CMake Error at ..." and "Call Stack".
error_text() { sed -n '/^CMake Error at /,/^Call Stack/p' "$work/$test_case.log" | sed '1d;$d'; }
# expect_message <golden file>: the configure failed with exactly that text, but for where CMake wrapped
# its lines (which a CMake of another version may do differently).
expect_message() {
  if ! diff -u <(tr -s ' \n' ' ' <"$fixtures/$1") <(error_text | tr -s ' \n' ' ') >"$work/$test_case.diff"; then
    fail "the configure error differs from fixtures/dependencies/$1 (spaces and line breaks aside):"
    diff -u "$fixtures/$1" <(error_text)
  fi
}
built_googletest() { [[ -f $work/$test_case/CMakeCache.txt ]] && grep -q '^googletest_SOURCE_DIR' "$work/$test_case/CMakeCache.txt"; }
cached() { sed -n "s/^$1:[A-Z]*=//p" "$work/$test_case/CMakeCache.txt" | head -n 1; }

have_googletest=""
[[ -f $googletest/CMakeLists.txt ]] && have_googletest=1

test_case=disconnected
if configure harness_slice "${hide_all[@]}" -DFETCHCONTENT_FULLY_DISCONNECTED=ON; then
  fail "configured without GoogleTest, Google Benchmark and nlohmann-json"
else
  expect_message missing_all.txt
fi

test_case=provided
if ! configure harness_slice -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON "${offline[@]}" -DPROVIDE_GTEST_TARGETS=ON; then
  fail "did not configure with the project's own GoogleTest targets: $(tail -n 15 "$work/$test_case.log")"
elif built_googletest || grep -q "found no GoogleTest" "$work/$test_case.log"; then
  fail "built a GoogleTest of its own beside the project's targets"
fi

# Offline with downloading on: one attempt, no 90 s of FetchContent's retries, and the error names the
# package to install (a closed port of this machine stands in for the unreachable release).
test_case=offline
unreachable=http://127.0.0.1:9/googletest-1.15.2.tar.gz
started=$SECONDS
if configure harness_slice -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON "-DTEST_GTEST_ARCHIVE=$unreachable" \
  "-DTEST_GTEST_SHA256=$(printf '%064d' 0)"; then
  fail "configured with GoogleTest's release unreachable"
else
  took=$((SECONDS - started))
  ((took < 20)) || fail "took $took s to give up on an unreachable download (expected under 20 s)"
  ! grep -q "Retry after" "$work/$test_case.log" || fail "retried the download: $(grep "Retry after" "$work/$test_case.log")"
  text=$(error_text | tr -s ' \n' ' ')
  for wanted in "The harness needs GoogleTest, which find_package() did not find, and downloading its pinned release failed ($unreachable:" \
    "apt-get install libgtest-dev" "configure again where it can be downloaded" \
    "-DFETCHCONTENT_SOURCE_DIR_GOOGLETEST=<its source folder>"; do
    [[ $text == *"$wanted"* ]] || fail "the configure error does not say '$wanted': $text"
  done
fi

# CMAKE_CUDA_ARCHITECTURES=native (the dev preset) where no GPU is seen: the top-level project stops before
# project() with one message naming the ci preset (a stand-in nvidia-smi that lists none, as on such a host).
test_case=no_gpu
no_gpu_smi=$work/no_gpu_nvidia_smi.sh
printf '#!/bin/sh\necho "No devices were found"\nexit 6\n' >"$no_gpu_smi"
chmod +x "$no_gpu_smi"
if "$cmake" -S "$root" -B "$work/$test_case" "${options[@]}" -DCMAKE_CUDA_ARCHITECTURES=native \
  "-DGPUPERF_NVIDIA_SMI=$no_gpu_smi" >"$work/$test_case.log" 2>&1; then
  fail "configured for native architectures with no GPU"
else
  said=$(tr -s ' \n' ' ' <"$work/$test_case.log")
  count=$(grep -o "no GPU was detected" <<<"$said" | wc -l)
  ((count == 1)) || fail "said 'no GPU was detected' $count times, not once"
  [[ $said == *"use \`cmake --workflow --preset ci\`"* && $said == *"No devices were found"* ]] ||
    fail "did not name the ci preset and what nvidia-smi said: $said"
fi

if [[ -n $have_googletest ]]; then
  test_case=missing
  if configure harness_slice "${hide_all[@]}" -DGPUPERF_FETCH_DEPENDENCIES=OFF "-DFETCHCONTENT_SOURCE_DIR_GOOGLETEST=$googletest"; then
    fail "configured without Google Benchmark and nlohmann-json"
  else
    expect_message missing_benchmark_json.txt
  fi

  test_case=from_source
  prefix="$work/prefix"
  if ! configure harness_slice -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON "${offline[@]}" \
    "-DFETCHCONTENT_SOURCE_DIR_GOOGLETEST=$googletest"; then
    fail "did not configure with GoogleTest from $googletest: $(tail -n 15 "$work/$test_case.log")"
  elif ! grep -qF "found no GoogleTest: building $googletest (FETCHCONTENT_SOURCE_DIR_GOOGLETEST)" "$work/$test_case.log"; then
    fail "did not say that it builds GoogleTest from $googletest: $(grep gpuperf: "$work/$test_case.log")"
  elif ! "$cmake" --build "$work/$test_case" >"$work/$test_case.build.log" 2>&1; then
    fail "the build failed: $(tail -n 15 "$work/$test_case.build.log")"
  elif ! "$work/$test_case/smoke_test" >"$work/$test_case.run.log" 2>&1; then
    fail "the GoogleTest test failed: $(tail -n 5 "$work/$test_case.run.log")"
  elif ! "$cmake" --install "$work/$test_case" --prefix "$prefix" >"$work/$test_case.install.log" 2>&1; then
    fail "cmake --install failed: $(tail -n 5 "$work/$test_case.install.log")"
  else
    for file in lib/cmake/GTest/GTestConfig.cmake lib/cmake/gpuperf/gpuperfDependencies.cmake; do
      [[ -f $prefix/$file ]] || fail "the install has no $file"
    done
    # Google Benchmark and nlohmann-json came from the system: the package installs neither.
    for folder in lib/cmake/benchmark share/cmake/nlohmann_json; do
      [[ ! -e $prefix/$folder ]] || fail "the install has $folder, which the build did not build"
    done
  fi

  test_case=consumer
  if ! configure consumer_slice "-Dgpuperf_DIR=$prefix/lib/cmake/gpuperf"; then
    fail "a project using the installed package did not configure: $(tail -n 15 "$work/$test_case.log")"
  else
    [[ $(cached GTest_DIR) == "$prefix/lib/cmake/GTest" ]] ||
      fail "found GoogleTest in '$(cached GTest_DIR)', not in the package's prefix $prefix"
    [[ $(cached benchmark_DIR) != "$prefix"* && -n $(cached benchmark_DIR) ]] ||
      fail "found Google Benchmark in '$(cached benchmark_DIR)', not where the harness's build found it"
    if ! "$cmake" --build "$work/$test_case" >"$work/$test_case.build.log" 2>&1 || ! "$work/$test_case/smoke_test" >/dev/null 2>&1; then
      fail "its GoogleTest test did not build or pass: $(tail -n 15 "$work/$test_case.build.log")"
    fi
  fi

  test_case=found_first
  if configure consumer_slice "-Dgpuperf_DIR=$prefix/lib/cmake/gpuperf" -DFIND_GTEST_FIRST=ON; then
    fail "configured with the system's GoogleTest beside the package's"
  elif ! tr -s ' \n' ' ' <"$work/$test_case.log" | grep -qF "call find_package(gpuperf) before find_package(GTest)"; then
    fail "no message naming the fix: $(tail -n 15 "$work/$test_case.log")"
  fi

  # The download path, with a stand-in archive in place of the release's URL and hash.
  archive="$work/googletest-stand-in.tar.gz"
  tar -czf "$archive" -C "$(dirname "$googletest")" "$(basename "$googletest")"
  sha256=$(sha256sum "$archive" | cut -d ' ' -f 1)
  test_case=download
  if ! configure harness_slice -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON "-DTEST_GTEST_ARCHIVE=file://$archive" \
    "-DTEST_GTEST_SHA256=$sha256"; then
    fail "did not configure with GoogleTest downloaded from file://$archive: $(tail -n 15 "$work/$test_case.log")"
  elif ! grep -qF "found no GoogleTest: building googletest 1.15.2, downloaded from file://$archive" "$work/$test_case.log"; then
    fail "did not say where it downloads GoogleTest from: $(grep gpuperf: "$work/$test_case.log")"
  fi
  test_case=tampered
  other=$(printf '%064d' 0)
  if configure harness_slice -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON "-DTEST_GTEST_ARCHIVE=file://$archive" \
    "-DTEST_GTEST_SHA256=$other"; then
    fail "configured with an archive whose SHA-256 is not the one pinned"
  elif ! tr -s ' \n' ' ' <"$work/$test_case.log" | grep -qF "expected: '$other' actual: '$sha256'"; then
    fail "no error naming the pinned and the actual SHA-256: $(tail -n 25 "$work/$test_case.log")"
  fi
fi

((failures == 0)) || exit 1
if [[ -z $have_googletest ]]; then
  echo "SKIPPED (in part): no GoogleTest sources at $googletest (Debian/Ubuntu: apt-get install googletest;" \
    "or GPUPERF_GOOGLETEST_SOURCE=<folder>): only the cases disconnected, provided, offline and no_gpu ran"
  exit 77
fi
echo "PASS: the dependencies found, built from their sources, provided by the project, installed with the package, or named"
