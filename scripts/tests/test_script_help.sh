#!/usr/bin/env bash
# Every script a person runs (scripts/*.sh, scripts/ci/lint_workflows.sh) answers -h and --help with its
# header comment and exit 0, before it does anything: run in an empty folder with stand-ins for the
# tools a script starts (cmake, ctest, nvidia-smi, git, gh, ncu, clang++, npm), the folder stays empty
# and no stand-in is called. A script that takes its output folder first (OUTDIR) refuses an unknown
# option there (exit 2, naming it) instead of creating a folder of that name.
#   test_script_help.sh
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
scripts="$(cd "$here/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
fail() { failed=$((failed + 1)); echo "FAIL: $*"; sed 's/^/    /' "$work/log"; }

# Stand-ins that only say they were called.
mkdir -p "$work/bin"
for tool in cmake ctest nvidia-smi git gh ncu clang++ npm; do
  printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 1\n' "$tool" "$work/called" >"$work/bin/$tool"
  chmod +x "$work/bin/$tool"
done
run_in_empty() {  # run_in_empty <script> <args...>: in a fresh empty folder; sets rc
  rm -rf "$work/cwd" "$work/called" && mkdir "$work/cwd"
  rc=0
  (cd "$work/cwd" && PATH="$work/bin:$PATH" bash "$@") >"$work/log" 2>&1 || rc=$?
}
untouched() { [[ -z $(find "$work/cwd" -mindepth 1 -print -quit) && ! -e $work/called ]]; }

all=("$scripts"/*.sh "$scripts/ci/lint_workflows.sh")
for script in "${all[@]}"; do
  name=${script#"$scripts"/}
  first=$(sed -n '2s/^# \{0,1\}//p' "$script")  # the header's first line
  for flag in --help -h; do
    run_in_empty "$script" "$flag"
    if ((rc == 0)) && [[ $(head -n 1 "$work/log") == "$first" ]] && untouched; then
      passed=$((passed + 1))
    else
      fail "$name $flag: exit $rc (want 0), the header first (\"$first\"), nothing created or run" \
        "(created: $(find "$work/cwd" -mindepth 1 -maxdepth 1 -printf '%f ' | head -c 200); called: $(head -n 1 "$work/called" 2>/dev/null))"
    fi
  done
  # After other arguments too: the help comes before anything the others would start.
  run_in_empty "$script" "$work/cwd/out" --help
  if ((rc == 0)) && untouched; then passed=$((passed + 1)); else fail "$name OUTDIR --help: exit $rc, something created or run"; fi
done
((${#all[@]} >= 19)) || fail "only ${#all[@]} scripts found"

# The scripts whose first argument is their output folder: an option there is refused, not made a folder.
for script in "$scripts"/*.sh; do
  grep -qE "^#   $(basename "$script") (BUILD )?OUTDIR" "$script" || continue
  args=(--hlep)
  grep -qE "^#   $(basename "$script") BUILD OUTDIR" "$script" && args=("$work" --hlep)
  run_in_empty "$script" "${args[@]}"
  if ((rc == 2)) && grep -qF "unknown option '--hlep'" "$work/log" && untouched; then
    passed=$((passed + 1))
  else
    fail "$(basename "$script") ${args[*]}: exit $rc (want 2, \"unknown option '--hlep'\", no folder created)"
  fi
done

echo "$passed passed, $failed failed"
((failed == 0))
