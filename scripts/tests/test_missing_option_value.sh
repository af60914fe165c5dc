#!/usr/bin/env bash
# Every option that takes a value, in every script with an option loop, exits 2 (invalid input) when
# the value is missing or is the next option: under set -u a bare $2 exits 1, the regression code.
# The options are read from the scripts themselves (each case arm that shifts 2), so a new option is
# tested without editing this file.
#   test_missing_option_value.sh
set -uo pipefail
scripts="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

for script in "$scripts"/*.sh; do
  options=$(grep -oE '^ +--[a-z0-9-]+\).*shift 2' "$script" | grep -oE -- '--[a-z0-9-]+' | sort -u || true)
  leading=()  # gpu_check.sh and history_check.sh take their OUTDIR before the options (their usage line says so)
  grep -qE "^#   $(basename "$script") OUTDIR" "$script" && leading=("$work/outdir")
  for option in $options; do
    for form in missing next-option; do
      args=("${leading[@]}" "$option")
      [[ $form == next-option ]] && args+=(--out "$work/out")
      rc=0
      (cd "$work" && bash "$script" "${args[@]}") >"$work/log" 2>&1 || rc=$?
      if ((rc == 2)) && grep -q -- "option '$option' needs a value" "$work/log"; then
        passed=$((passed + 1))
      else
        failed=$((failed + 1))
        echo "FAIL: $(basename "$script") ${args[*]}: exit $rc (want 2 and \"option '$option' needs a value\"):"
        sed 's/^/    /' "$work/log"
      fi
    done
  done
done
((passed > 30)) || { echo "FAIL: only $passed cases found: did the option loops change shape?"; failed=$((failed + 1)); }
echo "$passed passed, $failed failed"
((failed == 0))
