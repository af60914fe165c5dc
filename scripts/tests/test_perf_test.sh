#!/usr/bin/env bash
# Tests of scripts/perf_test.sh on a machine without a GPU, through fake_bench.sh and the real gate:
# exit codes, messages, the GPU lock, re-measurement, the memory canary, crashes and bad baselines.
# perf_test.sh is now a wrapper of the compiled driver, perf_gate run: these cases, written for the bash
# procedure and unchanged in what they assert, are the proof that the driver keeps every message and exit
# code of the old script.
#   test_perf_test.sh PERF_GATE
set -uo pipefail
gate=$1
here="$(cd "$(dirname "$0")" && pwd)"
perf_test="$here/../perf_test.sh"
work=$(mktemp -d)
unset GPUPERF_PHASES_DIR  # the phases go to --out/phases unless a case sets it (an inherited one would hide them)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work  # the lock files too
mkdir -p "$work/baselines"
passed=0 failed=0

# check_phases <description> <jq test> [file]: the phase file perf_test.sh wrote (default
# out/phases/perf_phases.fake.json; perf_tests/gate/phases/phase_files.h) passes the test, as its list
# of phase names (.names) and the file itself (.file).
check_phases() {
  local file=${3:-$work/out/phases/perf_phases.fake.json}
  if jq -e "{names: [.phases[].phase], file: .} | $2" "$file" >/dev/null 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $1: $file should pass '$2':"
    sed 's/^/    /' "$file" 2>/dev/null || echo "    (no file)"
  fi
}

run() {  # run <expected exit> <expected text> <description> <env...> : runs perf_test.sh on family fake
  local expected=$1 text=$2 what=$3 rc=0
  shift 3
  # shellcheck disable=SC2086  # EXTRA_ARGS holds options, split on purpose
  env "$@" bash "$perf_test" --family fake --bench "$here/fake_bench.sh" --gate "$gate" \
    --baselines "$work/baselines" --out "$work/out" ${EXTRA_ARGS:-} >"$work/log" 2>&1 || rc=$?
  if ((rc == expected)) && grep -q -- "$text" "$work/log"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $what: exit $rc (want $expected), output should contain '$text':"
    sed 's/^/    /' "$work/log"
  fi
}

# Bad options exit 2, as the script's option loop did: its "option '--x' needs a value" is perf_gate's
# "--x needs a value" now, its "unknown argument" perf_gate's "unknown option" (unit.script_options read
# those options from the script's loop, which is perf_gate's option table now).
for option in --family --bench --baselines --out --processes --repetitions --max-remeasure --lock-wait \
  --same-code-ledger; do
  rc=0
  bash "$perf_test" --gate "$gate" "$option" >"$work/log" 2>&1 || rc=$?
  if ((rc == 2)) && grep -q -- "$option'\\? needs a value" "$work/log"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $option without its value: exit $rc (want 2, \"$option needs a value\"):"
    sed 's/^/    /' "$work/log"
  fi
done
EXTRA_ARGS=--no-such-option run 2 "unknown [a-z]* '--no-such-option'" "an unknown option is refused"
rc=0
bash "$perf_test" --gate "$gate" --bench x --baselines y --out z >"$work/log" 2>&1 || rc=$?
if ((rc == 2)) && grep -q -- "--family is required" "$work/log"; then passed=$((passed + 1)); else
  failed=$((failed + 1))
  echo "FAIL: without --family: exit $rc (want 2, \"--family is required\")"
fi

run 77 "no CUDA device" "no GPU is skipped" FAKE_GPU=none
run 77 "expected $work/baselines/fake-gpu.json" "a GPU without a baseline is skipped"
EXTRA_ARGS=--strict run 2 "expected $work/baselines/fake-gpu.json" "strict: a GPU without a baseline fails"

# A baseline from three clean fake runs.
for r in 1 2 3; do bash "$here/fake_bench.sh" --benchmark_out="$work/r$r.json" >/dev/null; done
"$gate" record --results "$work"/r{1,2,3}.json --out "$work/baselines/fake-gpu.json" --default-tolerance-pct 3 \
  --same-gpu-tolerance-pct 3 >/dev/null

run 0 "report:" "a clean run passes"
run 1 "^SLOW  *fake/long/n:2" "a 10% slowdown fails with a SLOW line" FAKE_SLOWDOWN_PCT=10
run 0 "^FAST" "a 10% speed-up passes and says so" FAKE_SLOWDOWN_PCT=-10
run 0 "re-measuring" "ambiguous results are re-measured" FAKE_SLOWDOWN_PCT=3 FAKE_ARGS_LOG="$work/args.log"
check_phases "each phase is timed: the GPU lock, the checking process, the first look, each re-measurement" \
  '(.names[0:3] == ["lock_wait", "checking", "first_look"]) and (.names[3:] | length > 0 and all(. == "remeasure"))
   and .file.what == "perf_phases" and .file.family == "fake" and (.file.phases | all(.end_epoch_s >= .start_epoch_s))
   and .file.start_epoch_s <= .file.phases[0].start_epoch_s and .file.end_epoch_s >= .file.phases[-1].end_epoch_s'
# A first process checks references and captures fingerprints, timing nothing (--fingerprint-only); every
# timed process, re-measurements included, only times.
mapfile -t timed < <(grep -- "--benchmark_out" "$work/args.log")
if ((${#timed[@]} > 4)) && [[ ${timed[0]} == *--fingerprint-only* ]] &&
  ! printf '%s\n' "${timed[@]:1}" | grep -qv -- "--no-reference-check"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: the first perf_test.sh process checks and captures without timing, every timed one (re-measurements too) only times:"
  sed 's/^/    /' "$work/args.log"
fi
# The memory canary: the first look's processes time the ceiling family too. Re-measurements time only
# the ambiguous benchmarks (--time-filter), after the first look's other cases, the canary's too, set up in
# their turn (the same --benchmark_filter); --no-canary leaves it out.
remeasure_args="--benchmark_filter=^(fake|ceiling)/ --time-filter=^(fake/long/n:2|fake/short/n:1)(/|\$) "
if [[ ${timed[1]} == *"--benchmark_filter=^(fake|ceiling)/ --benchmark_repetitions"* ]] &&
  ! printf '%s\n' "${timed[@]:4}" | grep -vqF -- "$remeasure_args"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: the first look times the family and the ceilings; each re-measurement times the ambiguous ones ($remeasure_args):"
  sed 's/^/    /' "$work/args.log"
fi
rm -f "$work/args.log"
rm -f "$work/args.log"
EXTRA_ARGS=--no-reference-check run 0 "report:" "--no-reference-check passes" FAKE_ARGS_LOG="$work/args.log"
if (($(grep -c -- "--benchmark_out" "$work/args.log") == 3)) && (($(grep -c -- "--no-reference-check" "$work/args.log") == 3)); then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: with --no-reference-check every process, the first too, only times:"
  sed 's/^/    /' "$work/args.log"
fi
rm -f "$work/args.log"
EXTRA_ARGS=--no-canary run 0 "report:" "--no-canary passes" FAKE_ARGS_LOG="$work/args.log"
if grep -q -- "--benchmark_filter=^fake/ " "$work/args.log" && ! grep -q ceiling "$work/args.log"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: --no-canary times the family alone:"
  sed 's/^/    /' "$work/args.log"
fi
# With a ceiling benchmark in the binary and the baseline: judged in perf.ceiling, not here; a machine 10%
# slower is named once, and noted beside each memory-bound verdict.
cp "$work/baselines/fake-gpu.json" "$work/without-ceiling.json"
for r in 1 2 3; do FAKE_CEILING=1 bash "$here/fake_bench.sh" --benchmark_out="$work/c$r.json" >/dev/null; done
"$gate" record --results "$work"/c{1,2,3}.json --out "$work/baselines/fake-gpu.json" --default-tolerance-pct 3 \
  --same-gpu-tolerance-pct 3 >/dev/null
run 0 "report:" "a clean run with the canary passes" FAKE_CEILING=1
if jq -e '.canary.moved == false and (.benchmarks | length == 2 and all(.name | startswith("fake/")))' \
  "$work/out/fake.verdict.json" >/dev/null; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: the verdict JSON has an unmoved canary and judges the fake family alone:"
  jq -c '{canary, names: [.benchmarks[].name]}' "$work/out/fake.verdict.json" | sed 's/^/    /'
fi
run 1 "^WARNING  *this machine streams memory 10.0% slower" "a machine 10% slower is named" \
  FAKE_CEILING=1 FAKE_SLOWDOWN_PCT=10
run 1 "^SLOW  *fake/long/n:2 .*(machine's memory 10.0% slower)" "its note is beside the memory-bound verdicts" \
  FAKE_CEILING=1 FAKE_SLOWDOWN_PCT=10
cp "$work/without-ceiling.json" "$work/baselines/fake-gpu.json"

# --skip-unchanged: a baseline with fingerprints; what kept its code is not timed, the rest is judged.
cp "$work/baselines/fake-gpu.json" "$work/without-fingerprints.json"
for r in 1 2 3; do FAKE_FINGERPRINTS=1 bash "$here/fake_bench.sh" --benchmark_out="$work/f$r.json" >/dev/null; done
"$gate" record --results "$work"/f{1,2,3}.json --out "$work/baselines/fake-gpu.json" --default-tolerance-pct 3 \
  --same-gpu-tolerance-pct 3 >/dev/null
rm -f "$work/args.log"
EXTRA_ARGS=--skip-unchanged run 0 "2 of 2 fingerprinted benchmarks unchanged" "unchanged code is not timed" \
  FAKE_FINGERPRINTS=1 FAKE_ARGS_LOG="$work/args.log"
if grep -q -- "--fingerprint-only" "$work/args.log" && ! grep -q -- "--benchmark_repetitions" "$work/args.log" &&
  jq -e '.counts.UNCHANGED == 2' "$work/out/fake.verdict.json" >/dev/null; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: with --skip-unchanged and no code change, one checking process and nothing timed, 2 UNCHANGED:"
  sed 's/^/    /' "$work/args.log"
fi
rm -f "$work/args.log"
EXTRA_ARGS=--skip-unchanged run 1 "^SLOW  *fake/long/n:2" "changed code is timed and judged" \
  FAKE_FINGERPRINTS=1 FAKE_CODE_CHANGE=1 FAKE_SLOWDOWN_PCT=10 FAKE_ARGS_LOG="$work/args.log"
if (($(grep -cF -- '--no-reference-check --benchmark_filter=^(fake/long/n:2)(/|$)|^ceiling/ ' "$work/args.log") == 3)) &&
  jq -e '.counts.UNCHANGED == 1 and .counts.SLOW == 1' "$work/out/fake.verdict.json" >/dev/null &&
  grep -q "long_kernel: SASS changed" "$work/log"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: with --skip-unchanged, only the changed benchmark (and the canary) is timed, unchecked, and its code change named:"
  sed 's/^/    /' "$work/args.log" "$work/log"
fi
# --same-code-ledger: each run's verdicts on unchanged code are counted; SLOW over the same code is a
# false alarm there; a ledger that cannot be read is a warning, never a change of verdict.
ledger="$work/ledger/same-code.json"
mkdir -p "$work/ledger"
EXTRA_ARGS="--same-code-ledger $ledger" run 0 "1 report since" "a clean run starts the same-code ledger" \
  FAKE_FINGERPRINTS=1
EXTRA_ARGS="--same-code-ledger $ledger" run 1 "2 reports since .*: 4 timed verdicts, [12] SLOW, 0 FAST" \
  "a SLOW over unchanged code is counted as a false alarm" FAKE_FINGERPRINTS=1 FAKE_SLOWDOWN_PCT=10
if jq -e '.gpus["fake-gpu"].compare.false_alarms["fake/long/n:2"] == 1' "$ledger" >/dev/null &&
  jq -e '.same_code_ledger.reports == 2' "$work/out/fake.verdict.json" >/dev/null &&
  grep -q "same code on this GPU" "$work/out/fake.md"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: the ledger file, the JSON report and the Markdown report hold the running count:"
  sed 's/^/    /' "$ledger"
fi
# A regression is diagnosed with ncu against the profiles recorded beside the baseline (a stand-in ncu,
# fake_ncu.sh, printing one row of a fixture per launch of the bench's profiler windows): without that file
# one line says how to record it; with it, the metric table.
testdata="$here/../../perf_tests/gate/testdata"
mkdir -p "$work/fake-ncu"
fake_ncu() {  # fake_ncu <path> <fixture>: a stand-in ncu whose rows carry the fixture's metrics
  printf '#!/usr/bin/env bash\nFAKE_NCU_ROWS=%q exec %q "$@"\n' "$2" "$here/fake_ncu.sh" >"$1"
  chmod +x "$1"
}
fake_ncu "$work/fake-ncu/ncu" "$testdata/ncu_after.csv"
run 1 "ncu diagnosis skipped: no Nsight Compute profiles stored beside the baseline" \
  "without stored profiles the diagnosis says how to record them" FAKE_FINGERPRINTS=1 FAKE_SLOWDOWN_PCT=10 \
  PATH="$work/fake-ncu:$PATH"
mkdir -p "$work/build/perf_tests/gate"
ln -sf "$here/fake_bench.sh" "$work/build/perf_tests/gpuperf_bench"
ln -sf "$gate" "$work/build/perf_tests/gate/perf_gate"
fake_ncu "$work/fake-ncu/ncu-before" "$testdata/ncu_before.csv"
# record_ncu <expected exit> <regex of its log> <what> [VAR=value...]: record_ncu.sh into $work/baselines with
# the stand-in ncu, its profiles checked against the fake bench's fingerprints.
record_ncu() {
  local want=$1 expect=$2 what=$3 rc=0
  shift 3
  env FAKE_FINGERPRINTS=1 "$@" bash "$here/../record_ncu.sh" --build-dir "$work/build" --baselines "$work/baselines" \
    --ncu "$work/fake-ncu/ncu-before" >"$work/log" 2>&1 || rc=$?
  if [[ $rc == "$want" ]] && grep -qE -- "$expect" "$work/log"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: record_ncu.sh: $what (exit $rc, want $want and /$expect/):"
    sed 's/^/    /' "$work/log"
  fi
}
stored_names() { jq -c '.benchmarks | keys' "$work/baselines/fake-gpu.ncu.json" 2>/dev/null; }
# One ncu process profiles both; each benchmark's rows are its own (the gate checks them against its
# fingerprint) or it is left out, named; a row missing inside the pass loses the order: nothing is written.
record_ncu 2 "the rows of fake/short/n:1 are not its fingerprint's: launch 1 of 1 is short_kernel .* ncu's row 1 is long_kernel.*left unchanged" \
  "a row missing at the start of the pass loses the order of every row after it" FAKE_NCU_DROP_ROW=1
[[ ! -e $work/baselines/fake-gpu.ncu.json ]] || { failed=$((failed + 1)); echo "FAIL: a pass whose order was lost wrote profiles"; }
record_ncu 0 "left out \(1\): fake/long/n:2: its rows are not its fingerprint's launches: .*ncu's row 2 is _Z7renamedv" \
  "a renamed kernel leaves out its benchmark alone" FAKE_NCU_RENAME_ROW=2
[[ $(stored_names) == '["fake/short/n:1"]' ]] || { failed=$((failed + 1)); echo "FAIL: the renamed pass stored $(stored_names)"; }
rm -f "$work/baselines/fake-gpu.ncu.json"
record_ncu 0 "left out \(1\): fake/long/n:2: ncu printed no row of its window" \
  "rows that end early keep the benchmarks before" FAKE_NCU_DROP_ROW=2
rm -f "$work/baselines/fake-gpu.ncu.json"
record_ncu 0 "left out \(1\): fake/short/n:1: the bench opened no profiler window for it \(fake/short/n:1: could not set up the case\)" \
  "a benchmark the bench could not set up is left out, named" FAKE_WINDOW_SKIP=fake/short/n:1
[[ $(stored_names) == '["fake/long/n:2"]' ]] || { failed=$((failed + 1)); echo "FAIL: the pass without short's window stored $(stored_names)"; }
record_ncu 0 "wrote .*fake-gpu.ncu.json: 2 of 2 benchmarks profiled" \
  "record_ncu.sh stores a profile of every fingerprinted benchmark beside the baseline" FAKE_LOG="$work/ncu-calls.log" \
  GPUPERF_PHASES_DIR="$work/profile-phases"
[[ $(stored_names) == '["fake/long/n:2","fake/short/n:1"]' && $(grep -c "^ncu " "$work/ncu-calls.log") == 1 ]] ||
  { failed=$((failed + 1)); echo "FAIL: one ncu process stores both: $(stored_names), $(grep -c "^ncu " "$work/ncu-calls.log") ncu calls"; }
# Its time, for perf_gate phases: the recording, split into checking and the ncu pass.
if jq -e '.what == "profiles" and ([.phases[].phase] == ["checking", "ncu"])' "$work/profile-phases/profiles.json" >/dev/null 2>&1 &&
  "$gate" phases --dir "$work/profile-phases" | grep -qE "^Profiles: [0-9.]+ s \(checking [0-9.]+ s, ncu [0-9.]+ s\)\.$"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: record_ncu.sh wrote no profiles phase file the gate reads: $(cat "$work/profile-phases/profiles.json" 2>&1)"
fi
run 1 "ncu diagnosis of fake/long/n:2" "a regression is diagnosed against the stored profiles" \
  FAKE_FINGERPRINTS=1 FAKE_SLOWDOWN_PCT=10 PATH="$work/fake-ncu:$PATH"
check_phases "the diagnosis is a phase of its own, the last" '.names[-1] == "diagnosis" and (.names | index("first_look")) != null'
if ! grep -q "^#### Nsight Compute: fake/long/n:2" "$work/out/fake.md" ||
  ! grep -q "| Metric | baseline | now | Change |" "$work/out/fake.md" ||
  ! grep -q "| duration | 38.91 us | 45.38 us |" "$work/out/fake.md"; then
  failed=$((failed + 1))
  echo "FAIL: fake.md has no ncu table of the baseline's profile against now:"
  sed 's/^/    /' "$work/out/fake.md"
else
  passed=$((passed + 1))
fi
EXTRA_ARGS=--no-reference-check run 1 "ncu diagnosis skipped: ncu could not profile fake/[a-z]*/n:[12]: no fingerprint of" \
  "processes that only time capture no fingerprint: the diagnosis says so" FAKE_FINGERPRINTS=1 FAKE_SLOWDOWN_PCT=10 \
  PATH="$work/fake-ncu:$PATH"
jq 'del(.benchmarks["fake/short/n:1"])' "$work/baselines/fake-gpu.ncu.json" >"$work/one-profile.json"
mv "$work/one-profile.json" "$work/baselines/fake-gpu.ncu.json"
run 1 "ncu diagnosis skipped: no profile of fake/short/n:1 in .*record_ncu.sh --filter" \
  "a benchmark without a stored profile is named, and the others are still diagnosed" \
  FAKE_FINGERPRINTS=1 FAKE_SLOWDOWN_PCT=10 PATH="$work/fake-ncu:$PATH"
if grep -q "^#### Nsight Compute: fake/long/n:2" "$work/out/fake.md"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: fake/long/n:2 is diagnosed after fake/short/n:1 had no profile"
fi
rm -f "$work/baselines/fake-gpu.ncu.json"
echo "not json" >"$ledger"
EXTRA_ARGS="--same-code-ledger $ledger" run 0 "was not updated (the verdict stands)" \
  "a corrupt ledger is a warning, the verdict stands" FAKE_FINGERPRINTS=1
cp "$work/without-fingerprints.json" "$work/baselines/fake-gpu.json"

run 77 "throttled" "throttled samples are not judged" FAKE_THROTTLED=1
run 2 "crashed (signal 11)" "a crashing benchmark binary is an infrastructure failure" FAKE_CRASH=1 \
  GPUPERF_PHASES_DIR="$work/phases"
check_phases "a test that failed still says where its time went, in GPUPERF_PHASES_DIR" \
  '.names[0] == "lock_wait" and (.names | index("first_look")) == null' "$work/phases/perf_phases.fake.json"

# A second perf run on the same GPU waits for the first, and gives up with a clear message.
env FAKE_SLEEP=5 bash "$perf_test" --family fake --bench "$here/fake_bench.sh" --gate "$gate" \
  --baselines "$work/baselines" --out "$work/out-holder" >/dev/null 2>&1 &
holder=$!
sleep 1
EXTRA_ARGS="--lock-wait 1" run 2 "another perf run has held GPU GPU-fake" "two perf runs at once"
wait "$holder"

# The lock lives in a folder of this user's alone (TMPDIR/gpuperf-locks-<uid>, made 0700), as
# scripts/lib/common.sh's lock_gpu keeps it; one that other users can write is refused, as they could
# hold or replace the lock there.
EXTRA_ARGS="--lock-wait 1" run 0 "report:" "the lock folder is made private"
if [[ -f $work/gpuperf-locks-$(id -u)/gpuperf-GPU-fake.lock && $(stat -c %a "$work/gpuperf-locks-$(id -u)") == 700 ]]; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: no lock file in $work/gpuperf-locks-$(id -u) (mode 700): $(ls -la "$work" 2>&1)"
fi
mkdir -p "$work/open/gpuperf-locks-$(id -u)" && chmod 777 "$work/open/gpuperf-locks-$(id -u)"
run 2 "is writable by group or others" "a lock folder others can write is refused" TMPDIR="$work/open"

cp "$work/baselines/fake-gpu.json" "$work/good.json"
head -c 200 "$work/good.json" >"$work/baselines/fake-gpu.json"
run 2 "fake-gpu.json" "a truncated baseline is an error naming the file"
jq '.schema_version = 9' "$work/good.json" >"$work/baselines/fake-gpu.json"
run 2 "schema_version" "an unknown schema version is an error"

echo "$passed passed, $failed failed"
((failed == 0))
