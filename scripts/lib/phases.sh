# shellcheck shell=bash
# Writing phase files: where a step's time went, one small JSON file per writer, written whole (a
# temporary file renamed over it), so that tests running at once on several GPUs never share a file.
# perf_gate phases reads a folder of them; perf_tests/gate/phases/phase_files.h has the format and the
# file names. Times are seconds since the epoch; the gate computes every wall time. Source it; do not run it.

# The family name rule (GPUPERF_FAMILY_NAME_RULE): sourced here too, for the scripts that source only this file.
source "$(dirname "${BASH_SOURCE[0]}")/name_rules.sh"

# The time now [s since the epoch, to the microsecond], with a '.' in any locale.
phase_now() {
  local now=$EPOCHREALTIME
  echo "${now/,/.}"
}

# One phase of a file, as a JSON object: phase_span <phase> <start> <end>.
phase_span() { printf '{"phase": "%s", "start_epoch_s": %s, "end_epoch_s": %s}' "$1" "$2" "$3"; }

# write_phase_file <dir> <what> <family or ""> <start> <end> [<phase_span>...]: <dir>/<what>.<family>.json
# (<dir>/<what>.json without a family), the folder created if missing. Fails (1), writing nothing, for a
# family that is no family name (a letter, then letters, digits, '_', at most 48) or a folder that cannot be written:
# the caller says so and goes on, as a phase file never changes a step's outcome.
write_phase_file() {
  local dir=$1 what=$2 family=$3 start=$4 end=$5 name temporary phases
  shift 5
  phases=$(IFS=,; echo "$*")
  name=$what${family:+.$family}.json
  [[ -z $family || $family =~ ^($GPUPERF_FAMILY_NAME_RULE)$ ]] || return 1
  mkdir -p "$dir" 2>/dev/null || return 1
  temporary=$(mktemp "$dir/$name.tmp.XXXXXX" 2>/dev/null) || return 1
  if {
    printf '{"schema_version": 1, "what": "%s", ' "$what"
    [[ -z $family ]] || printf '"family": "%s", ' "$family"
    printf '"start_epoch_s": %s, "end_epoch_s": %s, "phases": [%s]}\n' "$start" "$end" "$phases"
  } >"$temporary" && mv -f "$temporary" "$dir/$name"; then
    return 0
  fi
  rm -f "$temporary"
  return 1
}
