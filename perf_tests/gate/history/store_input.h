#pragma once
// The run a history store keeps, built from what a perf run leaves: the gate's verdict reports (perf_gate
// compare --json, one per family: perf-results/<family>.verdict.json) and its results files (one per
// process, the checking process's fingerprints among them). Everything read is validated here, where it
// enters the store: names (formats/names.h), the commit, the date, the run key.

#include <string>
#include <vector>

#include "formats/fingerprint.h"
#include "gate/history/run_record.h"
#include "gate/inputs/results.h"

namespace gpuperf::gate::history {

// What the caller says of the run (perf_gate history-append's options).
struct RunLabels {
  std::string run_key;  // CI: "<repository>/<workflow run id>/<GPU UUID>"
  std::string commit;   // 7 to 40 hex digits
  std::string date;     // "2026-11-24T17:05:38Z": ISO 8601 UTC, this one form
  std::string runner;   // "" when unknown
};

// The longest run key and runner name accepted [characters].
inline constexpr std::size_t kMaxRunKeyLength = 200;
inline constexpr std::size_t kMaxRunnerLength = 96;

// InputError naming the label, what is wrong and the rule, for the first label that breaks its rule:
// run_key: letters, digits, / _ . : - (at most kMaxRunKeyLength); commit: 7-40 hex digits; date:
// YYYY-MM-DDTHH:MM:SSZ; runner: letters, digits, space, _ . - (at most kMaxRunnerLength).
void check_labels(const RunLabels& labels);
// The same for a run key alone (history-remove --run-key).
void check_run_key(const std::string& run_key);

// A hash of a fingerprint (16 hex digits, FNV-1a over what judging/code_change.h compares: each kernel's
// stable mangled name, grid, block, shared and local memory, registers, SASS hash and launch count, and the
// library versions): two runs have the same code_hash where compare_code finds the same code. "" for a
// fingerprint that was not captured.
std::string code_hash(const formats::Fingerprint& fingerprint);

// The run: per benchmark timed in `results` (at least one process with kMinSamples valid samples), its
// per-process medians (in file order), its unit, its verdict in the reports (a benchmark in several
// reports: the last one given, which is the final verdict after re-measuring; "" where no report judged
// it) and the code_hash of its fingerprint; the GPU, driver and CUDA runtime of the results; the baseline's
// recorded date and the harness version from the reports. `reports` are the texts of verdict reports and
// `report_sources` their names. InputError for a report that is not perf_gate compare's JSON, a name that
// breaks formats/names.h, reports or results of different GPUs, or no benchmark timed at all.
RunRecord run_from_reports(const RunLabels& labels, const std::vector<std::string>& reports,
                           const std::vector<std::string>& report_sources, const std::vector<ResultsFile>& results);

}  // namespace gpuperf::gate::history
