#!/usr/bin/env bash
# Fuzzes the gate's JSON readers and comparator with libFuzzer for a bounded time: no crash, no hang,
# no sanitizer report (address, undefined). Builds its own Clang build of the gate first.
#
#   fuzz_gate.sh BUILD_DIR SECONDS
# Exit: 0 clean, 1 a finding (the crashing input is left in BUILD_DIR), 77 no clang++ with libFuzzer (skipped).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
help_on_request "$@"
(($# == 2)) || die "$EXIT_INVALID" "usage: $0 BUILD_DIR SECONDS"
build=$1 seconds=$2
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$build"
probe="$build/probe.cpp"
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$probe"
if ! command -v clang++ >/dev/null 2>&1 || ! clang++ -fsanitize=fuzzer "$probe" -o "$build/probe" 2>/dev/null; then
  echo "SKIPPED: clang++ with libFuzzer is not installed: bash scripts/install_deps.sh --with-fuzz"
  exit "$EXIT_NOT_JUDGED"
fi
cmake -S "$root/perf_tests/gate/fuzz" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; die "$EXIT_INVALID" "configuring the fuzz build failed"; }
cmake --build "$build" --target fuzz_gate >"$build.build.log" 2>&1 ||
  { tail -n 30 "$build.build.log"; die "$EXIT_INVALID" "building fuzz_gate failed"; }
mkdir -p "$build/corpus"
cd "$build"  # crash-* files land here
# libFuzzer reports a finding with exit 77 by default, which CTest would show as "skipped": make it 1.
"$build/gate/fuzz_gate" -max_total_time="$seconds" -max_len=8192 -timeout=10 -error_exitcode=1 -timeout_exitcode=1 \
  "$build/corpus" \
  "$root/perf_tests/gate/fuzz/seeds" 2>&1 | tail -n 15
