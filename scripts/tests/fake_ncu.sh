#!/usr/bin/env bash
# Stands in for Nsight Compute in the scripts' tests: runs the program it is given (the fake bench, whose
# --profiler-window writes each window's launches to FAKE_NCU_LAUNCHES) and prints a raw page as
# `ncu --csv --page raw --print-kernel-base mangled` would, one row per launch, in launch order: the header,
# units and first kernel row of a fixture, that row's kernel name, block and grid replaced by the launch's.
#   FAKE_NCU_ROWS=CSV        the fixture (default: the gate's ncu_before.csv)
#   FAKE_NCU_DROP_ROW=K      leave out the K-th row (1-based), as if ncu had not profiled that launch
#   FAKE_NCU_RENAME_ROW=K    the K-th row names another kernel (_Z7renamedv)
#   FAKE_LOG=FILE            append each call's arguments to FILE
# Its exit status is the program's, as ncu's is.
set -euo pipefail
echo "ncu $*" >>"${FAKE_LOG:-/dev/null}"
rows=${FAKE_NCU_ROWS:-"$(dirname "$0")/../../perf_tests/gate/testdata/ncu_before.csv"}
program=()
for arg in "$@"; do  # ncu's options come first; the program is the first argument that is one
  if ((${#program[@]} == 0)) && [[ ! ( -f $arg && -x $arg ) ]]; then continue; fi
  program+=("$arg")
done
((${#program[@]} > 0)) || { echo "==ERROR== fake ncu: no program to profile in: $*" >&2; exit 1; }
launches=$(mktemp)
trap 'rm -f "$launches"' EXIT
rc=0
FAKE_NCU_LAUNCHES=$launches "${program[@]}" || rc=$?
mapfile -t table < <(grep -A 2 -m 1 '^"ID",' "$rows")
row_pattern='^"[0-9]+",("[^"]*","[^"]*","[^"]*"),"[^"]*",("[^"]*","[^"]*"),"[^"]*","[^"]*",(.*)$'
[[ ${table[2]} =~ $row_pattern ]] || { echo "==ERROR== fake ncu: $rows has no kernel row it can use" >&2; exit 1; }
before_name=${BASH_REMATCH[1]} before_sizes=${BASH_REMATCH[2]} metrics=${BASH_REMATCH[3]}
if [[ -s $launches ]]; then
  printf '%s\n%s\n' "${table[0]}" "${table[1]}"
  k=0
  while IFS=$'\t' read -r name grid block; do
    k=$((k + 1))
    [[ $k == "${FAKE_NCU_DROP_ROW:-0}" ]] && continue
    [[ $k == "${FAKE_NCU_RENAME_ROW:-0}" ]] && name=_Z7renamedv
    printf '"%d",%s,"%s",%s,"%s","%s",%s\n' "$((k - 1))" "$before_name" "$name" "$before_sizes" "$block" "$grid" \
      "$metrics"
  done <"$launches"
fi
exit "$rc"
