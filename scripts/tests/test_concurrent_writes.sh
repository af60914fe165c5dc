#!/usr/bin/env bash
# Many perf_gate processes writing one file at once, some killed with SIGKILL mid-way: the file must stay
# valid JSON and keep every write whose process exited 0. Two writers of the harness share files this way:
# `ncu-store` (read, add a profile, write: each store must survive) and `record --out` (the whole file
# replaced: the last complete one stands). A clean round (nothing killed) must leave the file alone in its
# folder: no temporary file, and no lock file, which is in this user's lock folder under TMPDIR, named as
# scripts/lib/common.sh's file_lock_name names it. Then the scripts' lock_file: it and perf_gate exclude
# each other on one file, two scripts exclude each other, and it too leaves nothing beside the file.
# Prints, per kind: writers, killed, completed, kept.
#   test_concurrent_writes.sh PERF_GATE
set -uo pipefail
(($# == 1)) || { echo "usage: $0 PERF_GATE"; exit 2; }
gate=$1
here="$(cd "$(dirname "$0")" && pwd)"
testdata="$(cd "$here/../../perf_tests/gate/testdata" && pwd)"
work=$(mktemp -d)
holders=()
# shellcheck disable=SC2317  # reached through the EXIT trap
cleanup() {
  local pid
  for pid in "${holders[@]}"; do kill "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
writers=20 rounds=4 failed=0
# The folder written (a team's baselines/), and the runtime folder the locks go to.
team="$work/baselines"
mkdir -p "$team" "$work/runtime"
export TMPDIR="$work/runtime"
locks="$TMPDIR/gpuperf-locks-$(id -u)"
# shellcheck source=../lib/common.sh
source "$here/../lib/common.sh"

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
temporaries() { find "$team" -maxdepth 1 -name '*.tmp*' | wc -l; }

# alone_in_folder <kind> <file>: after a clean round, <file> is all its folder holds, and its lock is in
# the lock folder under the name the scripts give it.
alone_in_folder() {
  local listing lock
  listing=$(ls -A "$team")
  [[ $listing == "$(basename "$2")" ]] || fail "$1 clean round: the folder holds more than $(basename "$2"): $listing"
  lock="$locks/$(file_lock_name "$(realpath -m -- "$2")")"
  [[ -f $lock ]] || fail "$1: no lock $lock in the lock folder (it holds: $(ls -A "$locks" 2>&1))"
}

# --- ncu-store: every store that exited 0 is in the file --------------------------------------------
profiles="$team/h.ncu.json"
writer_args() { echo "--benchmark" "bench/$1"; }
total_writers=0 total_killed=0 total_completed=0 total_kept=0
for ((round = 0; round < rounds; round++)); do
  rm -f "$profiles" "$team"/*.tmp*
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
  ((kill)) || alone_in_folder ncu-store "$profiles"
  total_writers=$((total_writers + writers)) total_killed=$((total_killed + killed))
  total_completed=$((total_completed + completed)) total_kept=$((total_kept + kept_count))
done
echo "ncu-store: $total_writers writers in $rounds rounds into one file each, $total_killed killed (SIGKILL)," \
  "$total_completed completed, $total_kept profiles kept"

# --- record --out: the file is a whole baseline from one of the writers --------------------------------
rm -f "$team"/*
baseline="$team/b.json"
writer_args() { echo "--commit" "writer$1"; }
total_writers=0 total_killed=0 total_completed=0 total_valid=0
for ((round = 0; round < rounds; round++)); do
  rm -f "$baseline" "$team"/*.tmp*
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
  ((kill)) || alone_in_folder record "$baseline"
  total_writers=$((total_writers + writers)) total_killed=$((total_killed + killed))
  total_completed=$((total_completed + completed))
done
echo "record: $total_writers writers in $rounds rounds into one file each, $total_killed killed (SIGKILL)," \
  "$total_completed completed, a valid baseline kept in $total_valid of $rounds rounds"

# --- lock_file (bash) and perf_gate: one lock per file ----------------------------------------------------
# hold <file>: a script that holds <file>'s lock until the test ends; returns once it holds it.
hold() {
  bash -c 'source "$1"; lock_file "$2" 0; echo locked; exec sleep 600' _ "$here/../lib/common.sh" "$1" \
    >"$work/holder.out" 2>&1 &
  holders+=("$!")
  for _ in $(seq 100); do grep -q locked "$work/holder.out" && return 0; sleep 0.1; done
  fail "the holder of $1 never took its lock: $(cat "$work/holder.out")"
}
rm -f "$team"/*
hold "$team/./b.json"  # another name of the same file
"$gate" record --results "$testdata/results_run1.json" --out "$baseline" --commit waiting >"$work/waiting.log" 2>&1 &
waiting=$!
sleep 1
if ! kill -0 "$waiting" 2>/dev/null || [[ -e $baseline ]]; then
  fail "perf_gate record wrote $baseline while a script held its lock: $(cat "$work/waiting.log")"
fi
rc=0
out=$(bash -c 'source "$1"; lock_file "$2" 1' _ "$here/../lib/common.sh" "$baseline" 2>&1) || rc=$?
if ((rc != 2)) || [[ $out != *"another writer has held $baseline for more than 1 s (lock file $locks/file-b.json-"* ]]; then
  fail "a second script took the lock the first held (exit $rc): $out"
fi
kill "${holders[@]}" 2>/dev/null
holders=()
wait "$waiting" || fail "perf_gate record failed once the script let go: $(cat "$work/waiting.log")"
[[ $(jq -r .recorded.commit "$baseline" 2>/dev/null) == waiting ]] || fail "perf_gate record did not write $baseline once free"
# A script's own update, as scripts/record_ncu.sh makes one: the lock, then the file replaced.
echo '{}' >"$work/new.json"
bash -c 'source "$1"; lock_file "$2" 0 && replace_file "$3" "$2"' _ "$here/../lib/common.sh" "$team/c.json" \
  "$work/new.json" || fail "lock_file and replace_file could not write $team/c.json"
[[ $(ls -A "$team") == $'b.json\nc.json' ]] || fail "lock_file left files beside the file: $(ls -A "$team")"
echo "lock_file: perf_gate waited for a script's lock on one file, a second script gave up after 1 s, no" \
  "lock file beside the files"

((failed == 0)) || { echo "$failed failures"; exit 1; }
echo "passed"
