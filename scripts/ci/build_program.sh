#!/usr/bin/env bash
# Prints the path of one program of a CMake build of perf tests: the build's gpuperf-programs.txt names
# them (written by gpuperf_add_tests(): this repository's build or a project's that uses the harness,
# whose perf_gate is the installed one); without that file they are where this repository's build puts
# them (perf_tests/gpuperf_bench, perf_tests/gate/perf_gate).
#
#   build_program.sh BUILD_DIR bench|gate
# Exit: 0, 2 no such program built.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
[[ $# == 2 && ($2 == bench || $2 == gate) ]] || die "$EXIT_INVALID" "usage: $0 BUILD_DIR bench|gate"
build=$1 which=$2
path="$build/perf_tests/gpuperf_bench"
[[ $which == gate ]] && path="$build/perf_tests/gate/perf_gate"
if [[ -f $build/gpuperf-programs.txt ]]; then
  named=$(sed -n "s/^$which=//p" "$build/gpuperf-programs.txt" | head -n 1)
  [[ -n $named ]] && path=$named
fi
[[ -x $path ]] || die "$EXIT_INVALID" "no $which program in the build $build (expected $path): build it first"
echo "$path"
