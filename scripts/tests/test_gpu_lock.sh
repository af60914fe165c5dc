#!/usr/bin/env bash
# Tests of the GPU lock (scripts/lib/common.sh lock_gpu): one user's runs of one GPU exclude each other;
# another user can neither stall them with a file of the lock's name nor own or open up the folder of
# this user's locks (where lock_file's locks are too: test_concurrent_writes.sh tests the rest of it);
# the host's lock (root's, docs/runner_setup.md) is shared. "Another user" is played
# by chown where this runs as root, else by GPUPERF_ASSUME_UID (the scripts then take another uid for
# their own).
#   test_gpu_lock.sh
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work=$(mktemp -d)
holders=()
# shellcheck disable=SC2317  # reached through the EXIT trap
cleanup() {
  local pid
  for pid in "${holders[@]}"; do kill "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
uid=$(id -u)
other_uid=$((uid == 65534 ? 65533 : 65534))  # "another user": chown to it as root, else assume it
failed=0

# lock <tmpdir> <uuid> <seconds to wait>: lock_gpu in a script of its own, as a perf run takes it;
# prints "locked" once it holds the lock.
# shellcheck disable=SC2317  # called through expect
lock() {
  TMPDIR=$1 bash -c 'source "$1"; lock_gpu "$2" "$3"; echo locked' _ "$here/../lib/common.sh" "$2" "$3"
}
# lock_a_file <tmpdir> <file>: lock_file in a script of its own; prints "locked" once it holds the lock.
# shellcheck disable=SC2317  # called through expect
lock_a_file() {
  TMPDIR=$1 bash -c 'source "$1"; lock_file "$2" 0; echo locked' _ "$here/../lib/common.sh" "$2"
}
# hold <tmpdir> <uuid>: a run that holds the GPU until the test ends (the process killed is the one
# that holds the lock); returns once it holds it.
hold() {
  TMPDIR=$1 bash -c 'source "$1"; lock_gpu "$2" 0; echo locked; exec sleep 600' _ "$here/../lib/common.sh" "$2" \
    >"$work/holder.out" 2>&1 &
  holders+=("$!")
  for _ in $(seq 100); do grep -q locked "$work/holder.out" && return 0; sleep 0.1; done
  echo "FAIL: the holder of $2 never took its lock:"; sed 's/^/    /' "$work/holder.out"; failed=1
}
# expect <exit> <text> <description> <command...>
expect() {
  local want=$1 text=$2 what=$3 rc=0
  shift 3
  "$@" >"$work/log" 2>&1 || rc=$?
  if ((rc == want)) && grep -q -- "$text" "$work/log"; then return; fi
  failed=1
  echo "FAIL: $what: exit $rc (want $want), output should contain '$text':"
  sed 's/^/    /' "$work/log"
}
check() {  # check <description> <command...>
  "${@:2}" >/dev/null 2>&1 || { failed=1; echo "FAIL: $1"; }
}

t="$work/tmp"
mkdir -p "$t"
expect 0 locked "a run takes its GPU's lock" lock "$t" GPU-a 1
check "in a folder of this user's own, mode 700" bash -c \
  "test -f '$t/gpuperf-locks-$uid/gpuperf-GPU-a.lock' && test \"\$(stat -c '%u %a' '$t/gpuperf-locks-$uid')\" = '$uid 700'"
hold "$t" GPU-a
expect 2 "another perf run has held GPU GPU-a for more than 1 s (lock file $t/gpuperf-locks-$uid/gpuperf-GPU-a.lock)" \
  "a second run of the same user waits for the first, then gives up" lock "$t" GPU-a 1
expect 0 locked "another GPU is free meanwhile" lock "$t" GPU-b 0

# A file of the lock's old name, made and held by another user, stalls no run.
touch "$t/gpuperf-GPU-c.lock"
((uid == 0)) && chown "$other_uid" "$t/gpuperf-GPU-c.lock"
# shellcheck disable=SC2016  # the holder's own variables
bash -c 'exec {fd}<"$1" && flock "$fd" && echo held && exec sleep 600' _ "$t/gpuperf-GPU-c.lock" >"$work/planted.out" 2>&1 &
holders+=("$!")
for _ in $(seq 100); do grep -q held "$work/planted.out" && break; sleep 0.1; done
expect 0 locked "another user's file of the lock's name, held, stalls no run" lock "$t" GPU-c 1
check "the run locked its own file instead" test -f "$t/gpuperf-locks-$uid/gpuperf-GPU-c.lock"
ln -s /etc/passwd "$t/gpuperf-GPU-d.lock"
expect 0 locked "a link to a file of root's is not the host's lock" lock "$t" GPU-d 0
check "the run locked its own file instead" test -f "$t/gpuperf-locks-$uid/gpuperf-GPU-d.lock"
if ((uid == 0)); then
  # The host's lock, a file of root's: every user's runs share it.
  touch "$t/gpuperf-GPU-e.lock"
  hold "$t" GPU-e
  expect 2 "another perf run has held GPU GPU-e for more than 1 s (lock file $t/gpuperf-GPU-e.lock)" \
    "the host's lock file (root's) is shared" lock "$t" GPU-e 1
  check "and no file of this user's is made for it" test ! -e "$t/gpuperf-locks-$uid/gpuperf-GPU-e.lock"
else
  echo "(the host's lock, a file of root's: tested as root only)"
fi

# The folder of this user's locks: refused when another user could put a lock in it.
mkdir -p "$work/open/gpuperf-locks-$uid"
chmod 0777 "$work/open/gpuperf-locks-$uid"
expect 2 "the lock folder is not private: $work/open/gpuperf-locks-$uid is writable by group or others (mode 777)" \
  "a lock folder others can write is refused" lock "$work/open" GPU-a 0
mkdir -p "$work/theirs/gpuperf-locks-$other_uid"
chmod 0700 "$work/theirs/gpuperf-locks-$other_uid"
GPUPERF_ASSUME_UID=$other_uid expect 2 \
  "the lock folder is not private: $work/theirs/gpuperf-locks-$other_uid belongs to another user (uid $uid)" \
  "a lock folder of another user's is refused" lock "$work/theirs" GPU-a 0
check "and the message says what to do" grep -q "Remove it if it is not yours .* or set TMPDIR to a folder of your own" "$work/log"
mkdir -p "$work/linked" "$work/elsewhere"
chmod 0700 "$work/elsewhere"
ln -s "$work/elsewhere" "$work/linked/gpuperf-locks-$uid"
expect 2 "the lock folder is not private: $work/linked/gpuperf-locks-$uid is a symbolic link" \
  "a link as the lock folder is refused" lock "$work/linked" GPU-a 0
# The locks of files (lock_file) live in the same folder, under the same rule.
mkdir -p "$work/team"
expect 2 "the lock folder is not private: $work/open/gpuperf-locks-$uid is writable by group or others (mode 777)" \
  "lock_file refuses a lock folder others can write too" \
  lock_a_file "$work/open" "$work/team/b.json"
check "and leaves nothing beside the file" test -z "$(ls -A "$work/team")"

((failed == 0)) && echo "lock_gpu: all checks passed"
exit "$failed"
