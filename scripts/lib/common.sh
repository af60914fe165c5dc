# shellcheck shell=bash
# Shared by the scripts in scripts/: exit codes, messages, the GPU and file locks. Source it; do not run it.

# Exit codes of every program and script of the harness: the same as perf_tests/formats/exit_codes.h,
# which scripts/tests/test_exit_codes.sh (unit.exit_codes) checks.
# shellcheck disable=SC2034  # used by the scripts that source this file
readonly EXIT_PASS=0
readonly EXIT_REGRESSION=1
readonly EXIT_INVALID=2
readonly EXIT_NOT_JUDGED=77

# The rule of benchmark, family and GPU names (GPUPERF_*_RULE, GPUPERF_MAX_*_LENGTH): formats/names.h's, as
# perf_gate name-rules --shell writes it; no script types it again.
source "$(dirname "${BASH_SOURCE[0]}")/name_rules.sh"

die() {  # die <exit code> <message...>
  local code=$1
  shift
  echo "error: $*" >&2
  exit "$code"
}

# Called by an option that takes a value, with the option and what follows it: a missing value is
# invalid input (2), not the unbound-variable error set -u would give, whose exit code means nothing.
need_value() {  # need_value "$@" (from inside the option loop, before reading $2)
  if (($# < 2)) || [[ $2 == --* ]]; then
    die "$EXIT_INVALID" "option '$1' needs a value (see the header of $0)"
  fi
}

note() { echo "[$(basename "$0")] $*" >&2; }

# A script's usage is its header comment: the comment block after the shebang, up to the first line that
# is not a comment. help_from_header prints it without the leading "# ".
help_from_header() {  # help_from_header <script>
  awk 'NR == 1 && /^#!/ { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$1"
}

# -h or --help anywhere before a "--" prints the script's header and exits 0, before the script creates,
# builds or runs anything: called by every script right after sourcing this file. A script whose
# arguments are data from elsewhere (a workflow input) must not call it: "--help" is then a value.
help_on_request() {  # help_on_request "$@"
  local arg
  for arg in "$@"; do
    [[ $arg == -- ]] && return 0
    if [[ $arg == -h || $arg == --help ]]; then
      help_from_header "$0"
      exit "$EXIT_PASS"
    fi
  done
  return 0
}

# out_folder <argument>: creates the output folder a script is given as a positional argument and prints
# its absolute path. An argument that starts with "-" is an option the script does not know, never a
# folder to create (so "--hlep" is refused, not made into a folder); one that cannot be made is an error.
# In $(...): `out=$(out_folder "$1") || exit "$EXIT_INVALID"`.
out_folder() {
  [[ $1 != -* ]] ||
    die "$EXIT_INVALID" "unknown option '$1' where the output folder belongs (OUTDIR; a folder whose name starts with '-': ./$1); see $(basename "$0") --help"
  (mkdir -p -- "$1" && cd -- "$1" && pwd) || die "$EXIT_INVALID" "cannot create the output folder '$1'"
}

need_tool() {
  command -v "$1" >/dev/null 2>&1 || die "$EXIT_INVALID" "'$1' is not installed; it is needed by $(basename "$0")"
}

# Prints the JSON description of the GPU the benchmark binary sees; exits 77 (skipped) without one.
gpu_info() {  # gpu_info <bench binary>
  local info rc=0
  info=$("$1" --gpu-info 2>&1) || rc=$?
  if ((rc == EXIT_NOT_JUDGED)); then
    echo "SKIPPED: ${info#SKIPPED: }" >&2  # stdout is the caller's $(...)
    exit "$EXIT_NOT_JUDGED"
  fi
  ((rc == 0)) || die "$EXIT_INVALID" "'$1 --gpu-info' failed (exit $rc): $info"
  echo "$info"
}

# The user these scripts run as. GPUPERF_ASSUME_UID plays another user in the tests.
own_uid() { echo "${GPUPERF_ASSUME_UID:-$(id -u)}"; }

# private_dir <dir>: creates <dir> (mode 0700) where it is missing, and prints why it is not private
# and returns 1 when it is a link, no folder, another user's or writable by group or others: then
# another user could put files in it (a build we would run, a lock we would wait on).
private_dir() {
  local owner mode
  [[ -e $1 || -L $1 ]] || mkdir -m 0700 -- "$1" 2>/dev/null || true  # made by another meanwhile: checked below
  if [[ -L $1 ]]; then echo "$1 is a symbolic link"; return 1; fi
  if [[ ! -d $1 ]]; then echo "$1 is not a folder"; return 1; fi
  read -r owner mode < <(stat -c '%u %a' -- "$1")
  if [[ $owner != "$(own_uid)" ]]; then echo "$1 belongs to another user (uid $owner)"; return 1; fi
  if (((8#$mode & 8#022) != 0)); then echo "$1 is writable by group or others (mode $mode)"; return 1; fi
}

# The locks live in the user's runtime folder, never beside the files written (a lock left in a team's
# baselines/ would be committed with `git add baselines/`): one folder only this user can write,
# ${TMPDIR:-/tmp}/gpuperf-locks-<uid>/, so that another user can neither hold a lock in our place nor
# plant one. perf_tests/formats/runtime_folder.h states the same rule, names and all, for perf_gate: a
# script and perf_gate locking one GPU or one file take one lock.
# lock_folder: prints that folder, created where missing; dies (exit 2) when it is not private.
lock_folder() {
  local folder why
  folder="${TMPDIR:-/tmp}/gpuperf-locks-$(own_uid)"
  why=$(private_dir "$folder") ||
    die "$EXIT_INVALID" "the lock folder is not private: $why. Remove it if it is not yours (another user may have made it to stall the perf runs), or set TMPDIR to a folder of your own."
  echo "$folder"
}

# fnv1a64 <text>: FNV-1a, 64 bits, of the bytes of <text>, as 16 hex digits (perf_tests/formats/fnv1a.h).
# Bash's integers are 64-bit and wrap as the unsigned product does.
fnv1a64() {
  local LC_ALL=C
  local text=$1 hash=-3750763034362895579 byte i  # the offset basis 14695981039346656037, as a signed 64
  for ((i = 0; i < ${#text}; i++)); do
    printf -v byte '%d' "'${text:i:1}"
    hash=$(((hash ^ (byte & 255)) * 1099511628211))
  done
  printf '%016x\n' "$hash"
}

# file_lock_name <canonical path>: the name of that file's lock in the lock folder,
# file-<its last component>-<fnv1a64 of the path>.lock, the component with bytes other than letters,
# digits, '.', '_' and '-' made '_' and cut to 64 (formats/runtime_folder.h: file_lock_name, which
# unit.concurrent_writes checks this against).
file_lock_name() {
  local LC_ALL=C
  local name=${1##*/}
  name=${name:0:64}
  echo "file-${name//[^A-Za-z0-9._-]/_}-$(fnv1a64 "$1").lock"
}

# Holds an exclusive lock on one GPU for the rest of the calling script, so that two perf runs started
# at once (two ctest invocations, a CI job and a developer) never time kernels side by side. The lock
# file is the host's where root made one (${TMPDIR:-/tmp}/gpuperf-<uuid>.lock, docs/runner_setup.md):
# shared by every user of the GPU, and no user can replace it. Else it is this user's own, in the lock
# folder: another user's file of the same name is never waited on; it then excludes this user's runs only.
lock_gpu() {  # lock_gpu <gpu uuid> <seconds to wait>
  need_tool flock
  local file="${TMPDIR:-/tmp}/gpuperf-$1.lock" folder
  GPUPERF_LOCK_FD=""
  # Opened first, then checked: what is locked is the file checked, whatever the path names meanwhile.
  if [[ -f $file && ! -L $file && -r $file ]] && exec {GPUPERF_LOCK_FD}<"$file" &&
    ! [[ -f /dev/fd/$GPUPERF_LOCK_FD && $(stat -L -c %u "/dev/fd/$GPUPERF_LOCK_FD") == 0 ]]; then
    exec {GPUPERF_LOCK_FD}<&-
    GPUPERF_LOCK_FD=""
  fi
  if [[ -z $GPUPERF_LOCK_FD ]]; then
    folder=$(lock_folder) || exit "$EXIT_INVALID"
    file="$folder/gpuperf-$1.lock"
    exec {GPUPERF_LOCK_FD}>>"$file" || die "$EXIT_INVALID" "cannot create the GPU lock file $file"
  fi
  if ! flock -w "$2" "$GPUPERF_LOCK_FD"; then
    die "$EXIT_INVALID" "another perf run has held GPU $1 for more than $2 s (lock file $file). Wait for it to finish, or raise --lock-wait."
  fi
}

# Holds an exclusive lock on one file for the rest of the calling script, the lock perf_gate takes while it
# reads and rewrites that file (perf_tests/formats/atomic_file.h, FileLock): a script that reads a shared
# file early and replaces it late loses no update another writer made in between. The lock file is in the
# lock folder, named after the file's canonical path (realpath -m: two names of one file share one lock),
# and nothing is left beside the file. Never around a perf_gate call that writes the same file: it would
# wait on this lock forever.
lock_file() {  # lock_file <file> <seconds to wait>
  need_tool flock
  need_tool realpath
  local folder canonical lock
  folder=$(lock_folder) || exit "$EXIT_INVALID"
  canonical=$(realpath -m -- "$1") || die "$EXIT_INVALID" "cannot resolve the path $1"
  lock="$folder/$(file_lock_name "$canonical")"
  if ! exec {GPUPERF_FILE_LOCK_FD}>>"$lock"; then
    die "$EXIT_INVALID" "cannot create the lock file $lock of $1: set TMPDIR to a folder of your own"
  fi
  if ! flock -w "$2" "$GPUPERF_FILE_LOCK_FD"; then
    die "$EXIT_INVALID" "another writer has held $1 for more than $2 s (lock file $lock). Wait for it to finish, or raise --lock-wait."
  fi
}

# Replaces <target> with <source> atomically: a copy in a unique temporary file beside the target (readable
# as a new file would be), renamed over it. A reader never sees half a file, and two writers never share
# a temporary file.
replace_file() {  # replace_file <source> <target>
  local temporary
  temporary=$(mktemp "$2.tmp.XXXXXX") || return 1
  if cp "$1" "$temporary" && chmod "$(printf '%o' $((0666 & ~$(umask))))" "$temporary" && mv -f "$temporary" "$2"; then
    return 0
  fi
  rm -f "$temporary"
  return 1
}

# The names on stdin, one a line, as one regex alternative "a|b" with every metacharacter escaped.
names_alternation() { sed -e 's/[][\.*^$+?(){}|]/\\&/g' | paste -sd '|' -; }

# harness_in <build dir>: sets bench and gate to that CMake build's gpuperf_bench and perf_gate, and
# build_baselines to its families' baseline folder (empty where it names none), or dies saying what to
# build. A build names them in gpuperf-programs.txt (written by gpuperf_add_tests(): this repository's
# build or a project's that uses the harness); else they are where this repository's build puts them.
harness_in() {
  local programs="$1/gpuperf-programs.txt" key value
  bench="$1/perf_tests/gpuperf_bench" gate="$1/perf_tests/gate/perf_gate" build_baselines=""
  if [[ -f $programs ]]; then
    while IFS='=' read -r key value; do
      case "$key" in
        bench) bench=$value ;;
        gate) gate=$value ;;
        baselines) build_baselines=$value ;;
      esac
    done <"$programs"
  fi
  [[ -x $bench && -x $gate ]] || die "$EXIT_INVALID" "no built harness in $1: build first (cmake --build $1)"
}

# ci_gate <given> <what to give>: the perf_gate a scripts/ci/ script prints with. <given> (its --gate), else
# the one installed with these scripts (<prefix>/bin/perf_gate beside <prefix>/share/gpuperf/scripts/ci/),
# else perf_gate on PATH; dies saying to give --gate where none is, or where <given> is not a program.
ci_gate() {
  local given=$1 what=$2 candidate
  if [[ -z $given ]]; then
    for candidate in "$(dirname "${BASH_SOURCE[0]}")/../../../../bin/perf_gate" "$(command -v perf_gate || true)"; do
      if [[ -n $candidate && -x $candidate ]]; then echo "$candidate"; return; fi
    done
    die "$EXIT_INVALID" "no perf_gate (installed with these scripts, or on PATH): give --gate PATH"
  fi
  [[ -x $given ]] || die "$EXIT_INVALID" "--gate $given is not a program: give $what"
  echo "$given"
}

# A Google Benchmark filter matching exactly these benchmark names (one per line on stdin).
exact_filter() { echo "^($(names_alternation))(/|\$)"; }
