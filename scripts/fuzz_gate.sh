#!/usr/bin/env bash
# Fuzzes the gate's JSON readers and comparator with libFuzzer for a bounded time: no crash, no hang,
# no sanitizer report (address, undefined). The fuzzer is a Clang build of the gate of its own
# (perf_tests/gate/fuzz/), made in BUILD_DIR.
#
#   fuzz_gate.sh BUILD_DIR SECONDS          build the fuzzer, then fuzz (the test of a build without
#                                           GPUPERF_BUILD_FUZZ: minutes of compiling inside the test)
#   fuzz_gate.sh --build BUILD_DIR          build the fuzzer only (the build step's fuzz_gate_build target,
#                                           GPUPERF_BUILD_FUZZ=ON: the ci preset); no clang++ with
#                                           libFuzzer: says so, exit 0, nothing built
#   fuzz_gate.sh --prebuilt BUILD_DIR SECONDS   fuzz with what --build made (CTest's fuzz.gate there)
# Exit: 0 clean (or built), 1 a finding (the crashing input is left in BUILD_DIR), 2 the build failed or
# --prebuilt finds no fuzzer, 77 no clang++ with libFuzzer (skipped).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"
mode=all
if [[ ${1:-} == --build || ${1:-} == --prebuilt ]]; then
  mode=${1#--}
  shift
fi
usage="usage: $0 [--prebuilt] BUILD_DIR SECONDS | $0 --build BUILD_DIR"
if [[ $mode == build ]]; then
  (($# == 1)) || die "$EXIT_INVALID" "$usage"
else
  (($# == 2)) || die "$EXIT_INVALID" "$usage"
  seconds=$2
fi
build=$1
root="$(cd "$(dirname "$0")/.." && pwd)"
fuzzer="$build/gate/fuzz_gate"

# have_libfuzzer: clang++ compiles and links a one-line fuzzer (install_deps.sh --with-fuzz checks the same).
have_libfuzzer() {
  local probe="$build/probe.cpp"
  echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$probe"
  command -v clang++ >/dev/null 2>&1 && clang++ -fsanitize=fuzzer "$probe" -o "$build/probe" 2>/dev/null
}
no_libfuzzer="clang++ with libFuzzer is not installed: bash scripts/install_deps.sh --with-fuzz"

# build_fuzzer: configures BUILD_DIR once (a later build of it sees changed sources by itself), then
# builds fuzz_gate; its logs beside BUILD_DIR.
build_fuzzer() {
  if [[ ! -f $build/CMakeCache.txt ]]; then
    cmake -S "$root/perf_tests/gate/fuzz" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_COMPILER=clang++ >"$build.configure.log" 2>&1 ||
      { cat "$build.configure.log"; rm -f "$build/CMakeCache.txt"; die "$EXIT_INVALID" "configuring the fuzz build failed"; }
  fi
  cmake --build "$build" --target fuzz_gate >"$build.build.log" 2>&1 ||
    { tail -n 30 "$build.build.log"; die "$EXIT_INVALID" "building fuzz_gate failed (log: $build.build.log)"; }
}

mkdir -p "$build"
if ! have_libfuzzer; then
  if [[ $mode == build ]]; then
    echo "fuzz_gate not built: $no_libfuzzer (the test fuzz.gate reports skipped)"
    exit 0
  fi
  echo "SKIPPED: $no_libfuzzer"
  exit "$EXIT_NOT_JUDGED"
fi
case $mode in
  build) build_fuzzer; exit 0 ;;
  all) build_fuzzer ;;
  prebuilt) [[ -x $fuzzer ]] ||
    die "$EXIT_INVALID" "no fuzzer at $fuzzer: build it first (cmake --build <build>, or its target fuzz_gate_build)" ;;
esac

mkdir -p "$build/corpus"
cd "$build"  # crash-* files land here
# libFuzzer reports a finding with exit 77 by default, which CTest would show as "skipped": make it 1.
"$fuzzer" -max_total_time="$seconds" -max_len=8192 -timeout=10 -error_exitcode=1 -timeout_exitcode=1 \
  "$build/corpus" \
  "$root/perf_tests/gate/fuzz/seeds" 2>&1 | tail -n 15
