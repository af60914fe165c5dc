#!/usr/bin/env bash
# The CI scripts that turn the gate's JSON reports into text for GitHub, on a poisoned report: one a run of
# a pull request's code could write (names with a backtick and HTML, a newline and a workflow command, an
# @-mention, an unknown verdict, text where numbers belong). The pull-request comment must hold no raw
# HTML, no mention, no line starting a workflow command and no control character, and MISSING rows must
# say "baseline only" instead of an empty interval; the annotations must stay one per benchmark, each
# one line that nothing in it can end or follow with another command.
# Both are perf_gate's (annotations, pr-comment): a report with a name outside the rule is refused whole,
# saying so; a report within the rules keeps its hostile free text escaped.
#   test_untrusted_names.sh PERF_GATE
set -uo pipefail
gate=${1:?usage: test_untrusted_names.sh PERF_GATE}
here="$(cd "$(dirname "$0")" && pwd)"
ci="$here/../ci"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

check() {  # check <description> <command...>: passes when the command succeeds
  local what=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $what"
  fi
}
has() { grep -qF -- "$2" "$1"; }
lacks() { ! grep -qF -- "$2" "$1"; }
no_line() { ! grep -qE -- "$2" "$1"; }  # no_line <file> <regex>
# No byte outside printable ASCII but the line ends.
printable() { ! LC_ALL=C grep -q '[^[:print:]]' "$1"; }

mkdir -p "$work/artifact"
jq -n '{
  schema_version: 1, tool: "perf_gate", mode: "compare\n::error::mode",
  gpu: {name: "Fake GPU\n::error::gpu <img src=g>", slug: "fake-gpu"},
  outcome: "FAIL: regression <img src=o>", exit_code: 1,
  counts: {"SLOW": 2, "SLOW <img src=c>": 1, "ERROR": "1 @octocat", "MISSING": 1, "PLATFORM": 1},
  benchmarks: [
    {name: "fake/`<img src=x onerror=alert(1)>`/n:1", verdict: "SLOW", reason: "",
     change_pct: 10.04, ci_low_pct: 9.91, ci_high_pct: 10.2, tolerance_pct: 3.0},
    {name: "fake/x\n::error::pwned/n:1", verdict: "ERROR",
     reason: "wrong\n::error::reason\r\u001b[31m\u0000 @octocat", change_pct: null, ci_low_pct: null,
     ci_high_pct: null, tolerance_pct: 0.0},
    {name: "fake/@octocat/n:1", verdict: "AMBIGUOUS", reason: "", change_pct: "5 <img src=p>",
     ci_low_pct: "[x](https://evil.example)", ci_high_pct: 9, tolerance_pct: "3 @octocat"},
    {name: "fake/ok/n:1", verdict: "<img src=v>", reason: "", change_pct: 1, ci_low_pct: 0, ci_high_pct: 2,
     tolerance_pct: 3},
    {name: "fake/removed/n:1", verdict: "MISSING", reason: "in the baseline, not in the results",
     change_pct: null, ci_low_pct: null, ci_high_pct: null, tolerance_pct: 0.0},
    {name: "fake/added/n:1", verdict: "NEW", reason: "not in the baseline", change_pct: null,
     ci_low_pct: null, ci_high_pct: null, tolerance_pct: 0.0},
    {name: "fake/plat`<img src=y>`/n:1", verdict: "PLATFORM", reason: "moved\n::error::platform @octocat",
     change_pct: 4.2, ci_low_pct: 3.9, ci_high_pct: 4.5, tolerance_pct: 2.0},
    {name: "fake/same/n:1", verdict: "SAME", reason: "", change_pct: 0.1, ci_low_pct: -0.2,
     ci_high_pct: 0.4, tolerance_pct: 3.0}
  ]}' >"$work/artifact/fake.verdict.json"

# --- the annotations ----------------------------------------------------------------------------------
# The poisoned report: names outside the rule, an unknown verdict, schema_version 1. The gate's reader
# refuses it whole (no field of it can be trusted): one ::error:: says so, and the script exits 2.
annotations="$work/annotations.txt"
rc=0
bash "$ci/annotate_verdicts.sh" --gate "$gate" "$work/artifact" >"$annotations" 2>"$work/annotations.err" || rc=$?
check "a poisoned report is refused (exit 2)" test "$rc" -eq 2
check "one annotation says it was refused, naming the file" \
  has "$annotations" "::error title=Verdict report refused::fake.verdict.json: perf_gate cannot read it"
check "and nothing of it is annotated" test "$(wc -l <"$annotations")" -eq 1
check "the log says why" has "$work/annotations.err" "fake.verdict.json: schema_version is 1"
check "no control character in the annotations or the log" printable "$annotations"
check "no line of the log starts a workflow command" no_line "$work/annotations.err" "^::"

# A report within the rules (its names, verdicts and outcome: the reader refuses an outcome outside the
# gate's words too) whose free text is hostile: one line per SLOW, ERROR, MISSING, AMBIGUOUS and
# PLATFORM benchmark, its reason escaped.
mkdir -p "$work/valid"
jq '.schema_version = 2 | .mode = "compare" | .gpu.name = "Fake GPU" | .outcome = "FAIL: regression"
  | .benchmarks |= map(
      if (.name | test("^fake/[a-z]+/n:1$")) then . else .name = "fake/renamed\(.verdict | ascii_downcase)/n:1" end
      | if .verdict == "<img src=v>" then .verdict = "SAME" else . end
      | (.change_pct, .ci_low_pct, .ci_high_pct, .tolerance_pct) |= (if type == "string" then null else . end))' \
  "$work/artifact/fake.verdict.json" >"$work/valid/fake.verdict.json"
bash "$ci/annotate_verdicts.sh" --gate "$gate" "$work/valid" >"$annotations"
check "annotations are written (exit 0)" test -s "$annotations"
check "one annotation per SLOW, ERROR, MISSING, AMBIGUOUS and PLATFORM benchmark, one line each" \
  test "$(wc -l <"$annotations")" -eq 5
check "every line is an annotation (nothing injected a line)" \
  test "$(grep -cE "^::(error|warning) title=[^:]*::" "$annotations")" -eq "$(wc -l <"$annotations")"
check "no control character in the annotations" printable "$annotations"
check "the reason's newline, CR, ESC and NUL are escaped" \
  has "$annotations" 'ERROR, change n/a (tolerance 0%25): wrong%0A::error::reason%0D\x1b[31m\x00 @octocat [fake.verdict.json]'
check "a PLATFORM is a warning, its reason escaped" \
  has "$annotations" "::warning title=PLATFORM fake/renamedplatform/n%3A1::fake/renamedplatform/n:1 on Fake GPU: PLATFORM, change +4.2%25 (tolerance 2%25): moved%0A::error::platform @octocat [fake.verdict.json]"
check "text where a number belongs is n/a" has "$annotations" "AMBIGUOUS, change n/a (tolerance n/a)"
check "a MISSING benchmark is named" has "$annotations" "::error title=MISSING fake/removed/n%3A1::fake/removed/n:1 on"

# --- the pull-request comment -------------------------------------------------------------------------
# perf_gate pr-comment renders it. The poisoned report is refused whole, as by the annotations: one row
# says so, none of its fields is printed, the log says why, exit 2 (the comment is printed still).
comment="$work/comment.md"
rc=0
bash "$ci/pr_comment_body.sh" --gate "$gate" "$work/artifact" https://example.invalid/run/1 >"$comment" 2>"$work/comment.err" || rc=$?
check "a poisoned report is refused (exit 2)" test "$rc" -eq 2
check "the comment says so, naming the file" \
  has "$comment" "| (report refused) | \`fake.verdict.json\` |  | INVALID: not a verdict report perf_gate wrote |  |"
check "and prints nothing of it" bash -c "! grep -qE 'img|octocat|pwned|Fake GPU|SLOW|evil' '$comment'"
check "the log says why" has "$work/comment.err" "fake.verdict.json: schema_version is 1"
check "no control character in the comment" printable "$comment"
check "no line of the comment or the log starts a workflow command" no_line "$comment" "^::"
check "no line of the log starts a workflow command" no_line "$work/comment.err" "^::"
# The report within the rules whose free text and numbers are hostile: shown, every field escaped.
bash "$ci/pr_comment_body.sh" --gate "$gate" "$work/valid" https://example.invalid/run/1 >"$comment"
check "the comment is written (exit 0)" test -s "$comment"
check "no raw HTML in the comment" lacks "$comment" "<img"
check "no @-mention in the comment" lacks "$comment" "@octocat"
check "no link but the run's" test "$(grep -c '](' "$comment")" -eq 1
check "no line of the comment starts a workflow command" no_line "$comment" "^::"
check "no control character in the comment" printable "$comment"
check "counts are the rows' verdicts" has "$comment" "| Fake GPU | fake | compare | FAIL: regression | 1 ERROR, 1 SLOW, 1 MISSING, 1 PLATFORM, 1 AMBIGUOUS, 1 NEW, 2 SAME |"
check "a PLATFORM row keeps its numbers" \
  has "$comment" "| PLATFORM | \`fake/renamedplatform/n:1\` | Fake GPU | +4.2% [+3.9%, +4.5%] | 2% |"
check "text where a number belonged is not printed" has "$comment" "| AMBIGUOUS | \`fake/renamedambiguous/n:1\` | Fake GPU |  |  |"
check "a MISSING row says 'baseline only', with no interval and no tolerance" \
  has "$comment" "| MISSING | \`fake/removed/n:1\` | Fake GPU | baseline only |  |"
check "a NEW row says it has no baseline" has "$comment" "| NEW | \`fake/added/n:1\` | Fake GPU | not in the baseline |  |"
check "an ERROR row without a change says so" has "$comment" "| error in the benchmark |  |"
check "no empty interval or 0% tolerance" no_line "$comment" "\\[, \\]|\\| 0% \\|"
check "a judged row keeps its numbers" has "$comment" "| +10% [+9.9%, +10.2%] | 3% |"

echo "$passed passed, $failed failed"
((failed == 0))
