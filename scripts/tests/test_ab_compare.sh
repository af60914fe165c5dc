#!/usr/bin/env bash
# Tests of scripts/ab_compare.sh on a machine without a GPU, through fake_bench.sh and the real gate:
# a build compared with itself passes, a build 10% slower fails with a SLOW line and a report.
# ab_compare.sh is now a wrapper of the compiled driver, perf_gate ab-run: these cases, written for the bash
# procedure, are the proof that the driver keeps its messages and exit codes; the one that changed (a build
# without a gate beside it) says why.
#   test_ab_compare.sh PERF_GATE
set -uo pipefail
gate=$1
here="$(cd "$(dirname "$0")" && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work  # the lock files too

# Two "builds": A is the fake benchmark binary, B the same made 10% slower; the gate sits next to B.
mkdir -p "$work/a/perf_tests" "$work/b/perf_tests/gate"
ln -s "$here/fake_bench.sh" "$work/a/perf_tests/gpuperf_bench"
printf '#!/usr/bin/env bash\nFAKE_SLOWDOWN_PCT=10 exec bash %q "$@"\n' "$here/fake_bench.sh" >"$work/b/perf_tests/gpuperf_bench"
chmod +x "$work/b/perf_tests/gpuperf_bench"
ln -s "$gate" "$work/b/perf_tests/gate/perf_gate"
mkdir -p "$work/a/perf_tests/gate" && ln -s "$gate" "$work/a/perf_tests/gate/perf_gate"

failed=0
expect() {  # expect <exit> <text> <description> <ab_compare args...>
  local want=$1 text=$2 what=$3 rc=0
  shift 3
  bash "$here/../ab_compare.sh" --out "$work/out" --rounds 2 "$@" >"$work/log" 2>&1 || rc=$?
  if ((rc == want)) && grep -q -- "$text" "$work/log"; then return; fi
  failed=1
  echo "FAIL: $what: exit $rc (want $want), output should contain '$text':"
  sed 's/^/    /' "$work/log"
}

a="$work/a/perf_tests/gpuperf_bench" b="$work/b/perf_tests/gpuperf_bench"
expect 0 "report: $work/out/ab.md" "a build compared with itself passes" --a "$a" --b "$a"
expect 1 "^SLOW  *fake/long/n:2" "a 10% slower build fails with a SLOW line" --a "$a" --b "$b"
[[ -s $work/out/ab.md ]] || { failed=1; echo "FAIL: no Markdown report"; }
# Round 1 checks both builds against their references, later rounds only time; --no-reference-check
# makes round 1 time only too.
FAKE_ARGS_LOG="$work/args.log" expect 0 "report:" "a checked A/B run passes" --a "$a" --b "$a" --max-remeasure 0
checked=$(grep -c -- "--benchmark_out" "$work/args.log") unchecked=$(grep -c -- "--no-reference-check" "$work/args.log")
((checked == 4 && unchecked == 2)) ||
  { failed=1; echo "FAIL: round 1 of 2 checks both builds: $checked processes, $unchecked unchecked (want 4, 2)"; }
rm -f "$work/args.log"
FAKE_ARGS_LOG="$work/args.log" expect 0 "report:" "an unchecked A/B run passes" --a "$a" --b "$a" --max-remeasure 0 --no-reference-check
unchecked=$(grep -c -- "--no-reference-check" "$work/args.log")
((unchecked == 4)) || { failed=1; echo "FAIL: --no-reference-check: $unchecked of 4 processes unchecked (want 4)"; }
# --same-code-ledger: a build against itself, round 1 checking (and so fingerprinting), is counted.
FAKE_FINGERPRINTS=1 expect 0 "same code on this GPU (Fake GPU, A/B), 1 report since" \
  "the verdicts on the same code are counted in the ledger" --a "$a" --b "$a" --same-code-ledger "$work/ledger.json"
jq -e '.gpus["fake-gpu"].ab.verdicts.SAME == 2' "$work/ledger.json" >/dev/null ||
  { failed=1; echo "FAIL: the ledger does not hold the 2 SAME verdicts"; }
# A regression gets its Nsight Compute diagnosis: without ncu, one line says why not; with it (a stand-in
# printing the fixtures' CSV), the metric table of build A against build B is in ab.md. "Without" names an
# ncu that does not exist: a GPU host has a real one on PATH.
NCU="$work/no-ncu/ncu" FAKE_FINGERPRINTS=1 expect 1 "ncu diagnosis skipped: ncu not found" \
  "without ncu the diagnosis is skipped with its reason" --a "$a" --b "$b"
grep -q "^Ncu diagnosis skipped: ncu not found" "$work/out/ab.md" || { failed=1; echo "FAIL: ab.md does not say why there is no diagnosis"; }
mkdir -p "$work/fake-ncu"
# shellcheck disable=SC2016  # the stand-in expands its own arguments
printf '#!/usr/bin/env bash\nrows=%q\n[[ "$*" == *%q* ]] && rows=%q\nFAKE_NCU_ROWS=$rows FAKE_LOG=%q exec %q "$@"\n' \
  "$here/../../perf_tests/gate/testdata/ncu_before.csv" "$work/b/" "$here/../../perf_tests/gate/testdata/ncu_after.csv" \
  "$work/ncu-calls.log" "$here/fake_ncu.sh" >"$work/fake-ncu/ncu"
chmod +x "$work/fake-ncu/ncu"
PATH="$work/fake-ncu:$PATH" FAKE_FINGERPRINTS=1 expect 1 "ncu diagnosis of fake/long/n:2" \
  "a regression is diagnosed with ncu" --a "$a" --b "$b" --max-remeasure 0
if ! grep -q "^#### Nsight Compute: fake/long/n:2" "$work/out/ab.md" ||
  ! grep -q "| duration | 38.91 us | 45.38 us |" "$work/out/ab.md" ||
  [[ $(grep -c "^ncu " "$work/ncu-calls.log") != 2 ]]; then
  failed=1
  echo "FAIL: ab.md has no ncu table for the SLOW benchmark, or not from one ncu process per build:"
  sed 's/^/    /' "$work/out/ab.md"
fi
# Re-measurement rounds time the ambiguous benchmarks (--time-filter) after the first rounds' other cases
# (their --benchmark_filter); where one build predates --time-filter, both arms time them alone.
mkdir -p "$work/close/perf_tests" "$work/old/perf_tests"
printf '#!/usr/bin/env bash\nFAKE_SLOWDOWN_PCT=0.5 exec bash %q "$@"\n' "$here/fake_bench.sh" >"$work/close/perf_tests/gpuperf_bench"
printf '#!/usr/bin/env bash\nFAKE_NO_TIME_FILTER=1 exec bash %q "$@"\n' "$here/fake_bench.sh" >"$work/old/perf_tests/gpuperf_bench"
chmod +x "$work/close/perf_tests/gpuperf_bench" "$work/old/perf_tests/gpuperf_bench"
mkdir -p "$work/close/perf_tests/gate" && ln -s "$gate" "$work/close/perf_tests/gate/perf_gate"
rm -f "$work/args.log"
FAKE_ARGS_LOG="$work/args.log" expect 0 "re-measuring 2 ambiguous" "a 0.5% difference is re-measured" \
  --a "$a" --b "$work/close/perf_tests/gpuperf_bench" --max-remeasure 1 --filter '^fake/'
remeasured=$(grep -cF -- "--benchmark_filter=^fake/ --time-filter=^(fake/long/n:2|fake/short/n:1)(/|\$) --benchmark_repetitions" "$work/args.log")
((remeasured == 4)) || { failed=1; echo "FAIL: the 4 re-measurement processes keep the first rounds' filter and time the ambiguous ones:"; sed 's/^/    /' "$work/args.log"; }
rm -f "$work/args.log"
FAKE_ARGS_LOG="$work/args.log" expect 0 "a build has no --time-filter" "a build from before --time-filter is re-measured as before" \
  --a "$work/old/perf_tests/gpuperf_bench" --b "$work/close/perf_tests/gpuperf_bench" --max-remeasure 1 --filter '^fake/'
alone=$(grep -cF -- "--benchmark_filter=^(fake/long/n:2|fake/short/n:1)(/|\$) --benchmark_repetitions" "$work/args.log")
((alone == 4)) || { failed=1; echo "FAIL: with an older build, both arms time the ambiguous ones alone (4 processes):"; sed 's/^/    /' "$work/args.log"; }
# A build without a gate beside it (a project's, built against the installed package) was refused
# ("no perf_gate next to ..."): the gate that judges is the perf_gate running ab-run now, and ab_compare.sh
# finds one beside build B, installed with the scripts, on PATH, or as --gate. Without any, it says so.
mkdir -p "$work/alone-a" "$work/alone-b"
ln -s "$here/fake_bench.sh" "$work/alone-a/gpuperf_bench"
cp "$work/b/perf_tests/gpuperf_bench" "$work/alone-b/gpuperf_bench"
PATH=/usr/bin:/bin expect 2 "no perf_gate with ab-run found" "with no gate to be found, the wrapper says so" \
  --a "$work/alone-a/gpuperf_bench" --b "$work/alone-b/gpuperf_bench"
expect 1 "^SLOW  *fake/long/n:2" "builds with no gate beside them are judged by the one given" \
  --a "$work/alone-a/gpuperf_bench" --b "$work/alone-b/gpuperf_bench" --gate "$gate"
# The driver itself, as a project runs it from the installed package: its regression diagnosed with ncu,
# the diagnosis reading the profiles with the perf_gate that runs (none beside the builds).
rc=0
PATH="$work/fake-ncu:$PATH" FAKE_FINGERPRINTS=1 "$gate" ab-run --a "$work/alone-a/gpuperf_bench" \
  --b "$work/alone-b/gpuperf_bench" --out "$work/alone-out" --rounds 2 --max-remeasure 0 >"$work/log" 2>&1 || rc=$?
if ((rc != 1)) || ! grep -q "ncu diagnosis of fake/long/n:2" "$work/log" ||
  ! grep -q "^#### Nsight Compute: fake/long/n:2" "$work/alone-out/ab.md"; then
  failed=1
  echo "FAIL: perf_gate ab-run of builds with no gate beside them: exit $rc (want 1), diagnosed with ncu:"
  sed 's/^/    /' "$work/log"
fi
((failed == 0)) && echo "ab_compare.sh: all checks passed"
exit "$failed"
