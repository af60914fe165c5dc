#!/usr/bin/env bash
# Prints the gpuperf_bench of a build for scripts/ab_compare.sh, which takes its judging gate from beside
# that binary (<bench dir>/gate/perf_gate). In this repository's build it is there already; a project
# that uses the harness has its gate in the harness's install prefix, so a folder of links, LINK_DIR,
# puts the two side by side.
#
#   ab_bench.sh BUILD_DIR LINK_DIR
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
(($# == 2)) || die "$EXIT_INVALID" "usage: $0 BUILD_DIR LINK_DIR"
here="$(dirname "${BASH_SOURCE[0]}")"
bench=$(bash "$here/build_program.sh" "$1" bench)
gate=$(bash "$here/build_program.sh" "$1" gate)
if [[ $gate -ef $(dirname "$bench")/gate/perf_gate ]]; then
  echo "$bench"
  exit 0
fi
mkdir -p "$2/gate"
ln -sfn "$(realpath "$bench")" "$2/gpuperf_bench"
ln -sfn "$(realpath "$gate")" "$2/gate/perf_gate"
echo "$2/gpuperf_bench"
