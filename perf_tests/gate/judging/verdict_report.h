#pragma once
// A verdict report read back: the --json report of perf_gate compare or ab (reports/json.cpp,
// schema_version kReportSchemaVersion), as the history store, the metrics export and the same-code ledger
// take it in: the one reader of the report. Names are checked against formats/names.h where they enter,
// verdicts against the gate's own.

#include <optional>
#include <string>
#include <vector>

namespace gpuperf::gate {

// Bump when a field of the JSON report changes meaning or disappears.
// 2: error_control replaces alpha; rows carry processes, process_sd_pct, df and note. Added since, with no
// bump (no field changed): canary, the rows' machine_memory_change_pct, code (the run's) and the rows'
// code, the verdict UNCHANGED in counts, and harness_version (the gpuperf release that judged, "0.1.0").
inline constexpr int kReportSchemaVersion = 2;

struct VerdictRow {
  std::string name;       // family/variant/shape (formats/names.h)
  std::string verdict;    // SAME, SLOW, ... (judging/verdict.h)
  std::string unit;       // "us", "cycles", ...; "" where the report names none
  std::optional<double> current_median;  // the run's median of process medians [unit]; none: not measured
  std::optional<double> baseline_median; // [unit]; none: NEW, or A/B
  std::optional<double> change_pct;      // 100 * (current / baseline - 1) [%]
  std::optional<double> ci_low_pct;      // the interval of change_pct [%]
  std::optional<double> ci_high_pct;
  std::optional<double> tolerance_pct;   // [%]
  // How the benchmark's code compared with the baseline's (A's) by fingerprints: "same", "changed",
  // "unknown" (judging/code_check.h); "" where neither side held a fingerprint.
  std::string code_comparison;
  // The report's words for the row (reports/json.cpp), as written, "" where absent: why it has its verdict,
  // its notes, and what to do. Free text (a benchmark's own error message can be in the reason): escape
  // it for the medium it goes to (formats/escape.h).
  std::string reason;
  std::string note;
  std::string action;
};

struct VerdictReport {
  std::string mode;               // "compare" (against a stored baseline) or "ab"
  std::string gpu_slug;           // formats/names.h's GPU slug rule
  std::string gpu_name;           // formats/names.h's GPU name rule; "" where the report names none
  std::string baseline_recorded;  // the stored baseline's date (compare); "" where the report names none
  std::string harness_version;    // "" where the report names none
  // The report's outcome as the gate words it (reports/wording.h, outcome_text: "PASS", "FAIL: regression",
  // ...): kept, not recomputed, since it depends on options (--strict, --fail-on-platform) the rows do not
  // hold. "" where the report names none.
  std::string outcome;
  std::vector<VerdictRow> rows;   // in the report's order
};

// The report in `text`; `source` names it in messages. InputError (formats/json_fields.h's form) for a
// document that is not such a report, another schema_version, a name outside the rules, an unknown verdict,
// a reason, note or action that is not a string.
VerdictReport read_verdict_report(const std::string& text, const std::string& source);

}  // namespace gpuperf::gate
