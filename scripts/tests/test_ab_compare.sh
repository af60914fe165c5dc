#!/usr/bin/env bash
# Tests of scripts/ab_compare.sh on a machine without a GPU, through fake_bench.sh and the real gate:
# a build compared with itself passes, a build 10% slower fails with a SLOW line and a report.
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
expect 2 "no perf_gate next to" "a build without its gate is refused" --a "$a" --b "$work/nowhere/gpuperf_bench"
((failed == 0)) && echo "ab_compare.sh: all checks passed"
exit "$failed"
