#!/usr/bin/env bash
# The layers of the project, lowest first, and the only folders each may include from:
#   perf_tests/formats/              formats/                 what the harness writes and the gate reads
#   kernels/common/                  common/ formats/         the registry and helpers of every family
#   perf_tests/harness/fingerprint/  harness/fingerprint/ formats/
#   perf_tests/harness/              harness/ common/ formats/
#   perf_tests/gate/                 gate/ formats/           never the harness: it runs without a GPU
#     and inside the gate, lowest first (GATE_LAYERS below): the core that reads and decides
#     (statistics <- inputs <- judging), the wings over it (ledger, history, recording, ncu, fleet,
#     analysis, phases: the core and their own folder, never each other), the reports that render a
#     comparison with what the ledger and ncu wings add to it, the driver of a perf test (never the
#     lab's analysis/, nor history/ and fleet/), the commands, the fuzz target and the tests over
#     everything. The rows are the links of the gate's libraries (perf_tests/gate/CMakeLists.txt).
#   kernels/<family>/, examples/     their own folder, common/, formats/
# Fails naming every include that crosses upward or sideways (e.g. the harness including the gate).
#   test_layering.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
failed=0

# check FOLDER EXCLUDED_SUBFOLDER ALLOWED_PREFIX...: quoted includes with a folder in FOLDER's sources.
check() {
  local folder=$1 excluded=$2
  shift 2
  local allowed=("$@") file line include ok prefix
  while IFS= read -r file; do
    while IFS= read -r line; do
      include=${line#*\"}
      include=${include%%\"*}
      [[ $include == */* ]] || continue  # a header beside the file
      ok=0
      for prefix in "${allowed[@]}"; do [[ $include == "$prefix"* ]] && ok=1; done
      if ((!ok)); then
        echo "FAIL: ${file#"$root"/} includes \"$include\": ${folder#"$root"/} may include only from ${allowed[*]}"
        failed=1
      fi
    done < <(grep -E '^#include "' "$file" || true)
  done < <(find "$folder" \( -name '*.h' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' -o -name '*.in' \) \
             ${excluded:+-not -path "$excluded/*"})
}

check "$root/perf_tests/formats" "" formats/
check "$root/kernels/common" "" common/ formats/
check "$root/perf_tests/harness/fingerprint" "" harness/fingerprint/ formats/
check "$root/perf_tests/harness" "$root/perf_tests/harness/fingerprint" harness/ common/ formats/
check "$root/perf_tests/gate" "" gate/ formats/
# The gate's folders: each may include from the folders listed after it (and formats/, and itself).
core="statistics inputs judging"
GATE_LAYERS=(
  "statistics:"
  "inputs:statistics"
  "judging:statistics inputs"
  "ledger:$core" "history:$core" "recording:$core" "ncu:$core" "fleet:$core" "analysis:$core" "phases:$core"
  "reports:$core ledger ncu"
  "driver:$core ledger recording ncu phases reports"
  "cli:$core ledger history recording ncu fleet analysis phases reports driver"
)
layered=" "
for layer in "${GATE_LAYERS[@]}"; do
  folder=${layer%%:*}
  allowed=(formats/ "gate/$folder/")
  for below in ${layer#*:}; do allowed+=("gate/$below/"); done
  check "$root/perf_tests/gate/$folder" "" "${allowed[@]}"
  layered+="$folder "
done
# A new folder of the gate gets a row above: none may go unchecked (fuzz/ and tests/ sit over everything).
for folder in "$root"/perf_tests/gate/*/; do
  folder=$(basename "$folder")
  [[ $layered == *" $folder "* || $folder == fuzz || $folder == tests || $folder == testdata ]] && continue
  echo "FAIL: perf_tests/gate/$folder/ has no row in GATE_LAYERS (scripts/tests/test_layering.sh): say what it may include"
  failed=1
done
for family in "$root"/kernels/*/; do
  family=${family%/}
  [[ $family == */common ]] && continue
  check "$family" "" "$(basename "$family")/" common/ formats/
done
check "$root/examples" "" common/ formats/

# The check itself fails on an include that crosses upward: a planted one must be caught.
planted=$(mktemp -d)
trap 'rm -rf "$planted"' EXIT
mkdir -p "$planted/judging"
printf '#include "gate/reports/wording.h"\n' >"$planted/judging/planted.cpp"
caught=$(failed=0; check "$planted/judging" "" formats/ gate/judging/ gate/statistics/ gate/inputs/; echo "$failed")
if [[ $caught != *'includes "gate/reports/wording.h"'*1 ]]; then
  echo "FAIL: the check missed an include planted in judging/ from reports/ (got: $caught)"
  failed=1
fi

((failed == 0)) && echo "layering: no include crosses upward (formats <- common <- harness; formats <- gate;" \
  "in the gate: statistics <- inputs <- judging <- its wings <- reports <- driver <- cli)"
exit "$failed"
