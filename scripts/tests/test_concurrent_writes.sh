#!/usr/bin/env bash
# Many perf_gate processes writing one file at once, some killed with SIGKILL mid-way: the file must stay
# valid JSON and keep every write whose process exited 0. Two writers of the harness share files this way:
# `ncu-store` (read, add a profile, write: each store must survive) and `record --out` (the whole file
# replaced: the last complete one stands). A clean round (nothing killed) must leave no temporary file.
# Prints, per kind: writers, killed, completed, kept.
#   test_concurrent_writes.sh PERF_GATE
set -uo pipefail
(($# == 1)) || { echo "usage: $0 PERF_GATE"; exit 2; }
gate=$1
testdata="$(cd "$(dirname "$0")/../../perf_tests/gate/testdata" && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
writers=20 rounds=4 failed=0

fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

# launch_round <kill?> <command prefix...>: starts $writers writers (writer i appends its own arguments:
# writer_args i), SIGKILLs every 4th after a short random delay when asked, and sets status[i] (exit code).
# Call it with 2>/dev/null: bash reports each killed writer on stderr.
status=()
launch_round() {
  local kill=$1 i
  shift
  local pids=()
  local extra=()
  for ((i = 0; i < writers; i++)); do
    read -ra extra <<<"$(writer_args "$i")"
    "$@" "${extra[@]}" >"$work/writer$i.log" 2>&1 &
    pids+=($!)
  done
  if ((kill)); then
    sleep "0.0$((RANDOM % 5 + 1))"
    for ((i = 0; i < writers; i += 4)); do kill -9 "${pids[i]}" 2>/dev/null; done
  fi
  status=()
  for ((i = 0; i < writers; i++)); do
    wait "${pids[i]}"
    status[i]=$?
  done
}

# The temporary files (<target>.tmp.XXXXXX) left in the folder.
temporaries() { find "$work" -maxdepth 1 -name '*.tmp*' | wc -l; }

# --- ncu-store: every store that exited 0 is in the file --------------------------------------------
profiles="$work/h.ncu.json"
writer_args() { echo "--benchmark" "bench/$1"; }
total_writers=0 total_killed=0 total_completed=0 total_kept=0
for ((round = 0; round < rounds; round++)); do
  rm -f "$profiles" "$work"/*.tmp*
  kill=$((round > 0))  # round 0 is the clean round
  launch_round "$kill" "$gate" ncu-store --profiles "$profiles" --gpu nvidia-h200 --csv "$testdata/ncu_before.csv" \
    2>/dev/null
  if ! kept=$(jq -r '.benchmarks | keys[]' "$profiles" 2>"$work/jq.log"); then
    fail "ncu-store round $round: $profiles is not valid JSON: $(cat "$work/jq.log")"
    continue
  fi
  completed=0 killed=0
  for ((i = 0; i < writers; i++)); do
    case ${status[i]} in
      0) completed=$((completed + 1))
         grep -qx "bench/$i" <<<"$kept" || fail "ncu-store round $round: writer $i exited 0 but bench/$i is not in the file" ;;
      137) killed=$((killed + 1)) ;;
      *) fail "ncu-store round $round: writer $i exited ${status[i]}: $(cat "$work/writer$i.log")" ;;
    esac
  done
  kept_count=$(grep -c . <<<"$kept")
  ((kept_count >= completed)) || fail "ncu-store round $round: $kept_count profiles kept of $completed completed"
  if ((!kill)) && (($(temporaries) > 0)); then fail "ncu-store clean round: temporary files left: $(ls "$work")"; fi
  total_writers=$((total_writers + writers)) total_killed=$((total_killed + killed))
  total_completed=$((total_completed + completed)) total_kept=$((total_kept + kept_count))
done
echo "ncu-store: $total_writers writers in $rounds rounds into one file each, $total_killed killed (SIGKILL)," \
  "$total_completed completed, $total_kept profiles kept"

# --- record --out: the file is a whole baseline from one of the writers --------------------------------
baseline="$work/b.json"
writer_args() { echo "--commit" "writer$1"; }
total_writers=0 total_killed=0 total_completed=0 total_valid=0
for ((round = 0; round < rounds; round++)); do
  rm -f "$baseline" "$work"/*.tmp*
  kill=$((round > 0))
  launch_round "$kill" "$gate" record --results "$testdata/results_run1.json" "$testdata/results_run2.json" \
    "$testdata/results_run3.json" --out "$baseline" 2>/dev/null
  completed=0 killed=0
  for ((i = 0; i < writers; i++)); do
    case ${status[i]} in
      0) completed=$((completed + 1)) ;;
      137) killed=$((killed + 1)) ;;
      *) fail "record round $round: writer $i exited ${status[i]}: $(cat "$work/writer$i.log")" ;;
    esac
  done
  if ((completed > 0)); then
    if commit=$(jq -er .recorded.commit "$baseline" 2>"$work/jq.log") && [[ $commit == writer* ]] &&
      "$gate" migrate --baseline "$baseline" --out "$work/check.json" >/dev/null 2>"$work/check.log"; then
      total_valid=$((total_valid + 1))
    else
      fail "record round $round: $baseline is not a valid baseline: $(cat "$work/jq.log" "$work/check.log" 2>/dev/null)"
    fi
  fi
  if ((!kill)) && (($(temporaries) > 0)); then fail "record clean round: temporary files left: $(ls "$work")"; fi
  total_writers=$((total_writers + writers)) total_killed=$((total_killed + killed))
  total_completed=$((total_completed + completed))
done
echo "record: $total_writers writers in $rounds rounds into one file each, $total_killed killed (SIGKILL)," \
  "$total_completed completed, a valid baseline kept in $total_valid of $rounds rounds"

((failed == 0)) || { echo "$failed failures"; exit 1; }
echo "passed"
