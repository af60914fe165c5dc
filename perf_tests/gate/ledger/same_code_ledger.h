#pragma once
// The gate measuring itself: a verdict on a benchmark whose code was the same on both sides (identical
// fingerprints, judging/code_check.h) is a trial in which SLOW or FAST is a false alarm. The ledger adds each
// report's such verdicts to a running count per GPU model and mode, in a JSON file the machine keeps
// between runs (`perf_gate ledger`), so that every report can state the false-alarm rate the gate has shown
// on this GPU. Counts only, no confidence bound: the verdicts of one run share its processes and machine,
// so they are not independent trials, and a binomial bound over them would claim more than the count
// supports (the mistake the gate itself avoids by replicating over processes, not samples). The reports
// with a false alarm are counted too: runs are the closer thing to independent trials.
// Pure functions: tests/test_same_code_ledger.cpp.

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gate/judging/verdict_report.h"

namespace gpuperf::gate {

inline constexpr int kLedgerSchemaVersion = 1;
// One report's timed verdicts on unchanged code. UNCHANGED (not re-timed), NEW, MISSING, NOT_JUDGED and
// ERROR are no trials and are not counted. PLATFORM (judging/same_code_rule.h) is timed but no false alarm:
// the gate said the machine, driver or harness moved, not the code; it is counted as a platform move.
struct SameCodeVerdicts {
  std::string gpu_slug;  // "nvidia-h100-80gb-hbm3"
  std::string gpu_name;  // "NVIDIA H100 80GB HBM3"
  std::string mode;      // the report's mode: "compare" (against a baseline) or "ab"
  int same = 0;
  int ambiguous = 0;
  int slow = 0;
  int fast = 0;
  int platform = 0;                       // PLATFORM: platform moves, not false alarms
  std::vector<std::string> false_alarms;  // the benchmarks judged SLOW or FAST, in report order

  int timed() const { return same + ambiguous + slow + fast + platform; }
};

// Them in a report of `perf_gate compare` or `ab` as the one reader reads it (judging/verdict_report.h,
// which says what it refuses).
SameCodeVerdicts same_code_verdicts(const VerdictReport& report);

// The running count of one GPU model in one mode.
struct SameCodeTally {
  std::string gpu_name;
  std::string since;  // when the first report was counted, ISO 8601 UTC
  std::string last;   // when the latest was
  int reports = 0;    // reports counted (those with at least one timed verdict on unchanged code)
  int reports_with_false_alarms = 0;  // of those, the ones with a SLOW or FAST among them
  int same = 0;
  int ambiguous = 0;
  int slow = 0;
  int fast = 0;
  int platform = 0;  // PLATFORM verdicts: platform moves, not false alarms
  std::map<std::string, int> false_alarms;  // benchmark -> its SLOW and FAST verdicts on unchanged code

  int timed() const { return same + ambiguous + slow + fast + platform; }
};

// The reports a ledger remembers having counted: a CI step retried after a timeout gives the same report
// again within minutes, so the latest few hundred are plenty (16 characters each in the file).
inline constexpr std::size_t kCountedReportsKept = 500;

struct SameCodeLedger {
  std::map<std::string, std::map<std::string, SameCodeTally>> tallies;  // GPU slug -> mode -> count
  std::vector<std::string> counted_reports;  // report_id of the reports counted, oldest first
};

// What identifies a report to the ledger: FNV-1a (64 bits, 16 hex digits) of its JSON with sorted keys,
// leaving out the "same_code_ledger" the ledger writes into it, so that the report a first call rewrote
// has the id of the report compare or ab wrote.
std::string report_id(const nlohmann::json& report);
bool counted_before(const SameCodeLedger& ledger, const std::string& report_id);

// Adds one report at time `now` (ISO 8601 UTC), remembering `report_id` (when given) among the latest
// kCountedReportsKept. A report without timed verdicts on unchanged code adds nothing.
void add_to_ledger(SameCodeLedger& ledger, const SameCodeVerdicts& verdicts, const std::string& now,
                   const std::string& report_id = "");

// The file: {"schema_version": 1, "gpus": {"<slug>": {"<mode>": {"gpu_name", "since", "last", "reports",
// "reports_with_false_alarms", "verdicts": {"SAME", "AMBIGUOUS", "SLOW", "FAST", "PLATFORM"}, "false_alarms":
// {"<benchmark>": n}}}}, "counted_reports": ["<report_id>", ...]}. counted_reports is left out while
// empty, and a file without it (written before it existed) reads as having counted none; a file without
// PLATFORM (written before it existed) as having counted none.
std::string ledger_to_text(const SameCodeLedger& ledger);
// InputError naming `source` (and what to do: move the file away to start a new count) when the text is
// not such a file or its counts are negative or inconsistent.
SameCodeLedger ledger_from_text(const std::string& text, const std::string& source);
// The tally as the report's JSON holds it (the same object as in the file, plus the timed verdicts and
// the observed rate).
nlohmann::ordered_json tally_json(const SameCodeTally& tally);

// What a person reads: "same code on this GPU (NVIDIA H100 80GB HBM3, against the baseline), 17 reports
// since 2026-11-23: 1836 timed verdicts, 0 SLOW, 0 FAST (false alarms in 0% of verdicts, 0 of 17
// reports)", followed by "; false alarms in: <benchmark> (1)" for up to 3 benchmarks when there were some,
// and by "; 2 PLATFORM (the machine, driver or harness moved, not the code: no false alarms)" when any.
std::string ledger_line(const SameCodeTally& tally, const std::string& mode);

}  // namespace gpuperf::gate
