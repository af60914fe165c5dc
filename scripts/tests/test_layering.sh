#!/usr/bin/env bash
# The layers of the project, lowest first, and the only folders each may include from:
#   perf_tests/formats/              formats/                 what the harness writes and the gate reads
#   kernels/common/                  common/ formats/         the registry and helpers of every family
#   perf_tests/harness/fingerprint/  harness/fingerprint/ formats/
#   perf_tests/harness/              harness/ common/ formats/
#   perf_tests/gate/                 gate/ formats/           never the harness: it runs without a GPU
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
for family in "$root"/kernels/*/; do
  family=${family%/}
  [[ $family == */common ]] && continue
  check "$family" "" "$(basename "$family")/" common/ formats/
done
check "$root/examples" "" common/ formats/

((failed == 0)) && echo "layering: no include crosses upward (formats <- common <- harness; formats <- gate)"
exit "$failed"
