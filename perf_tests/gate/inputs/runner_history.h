#pragma once
// The runners' histories a stored check judges against (statistics/runner_history.h): per GPU UUID and
// benchmark, that runner's runs of the baseline's code, each run its process medians. perf_gate
// history-offsets writes the file from the history store for one baseline; perf_gate compare and run read
// it (--runner-history), so that a GPU job needs no database client. docs/history.md describes it:
//   {"schema_version": 1, "gpu_slug": "nvidia-h100-80gb-hbm3", "baseline_recorded": "2026-11-27T21:04:11Z",
//    "runners": {"GPU-1da3b7bd-...": {"benchmarks": {"reduction/reduce7/n:33554432":
//        {"unit": "us", "runs": [[60.71, 60.78, 60.74], ...]}}}}}
// Runs oldest first. It is untrusted input like any results file: names, UUIDs and numbers are checked
// where it is read.

#include <map>
#include <string>
#include <vector>

namespace gpuperf::gate {

inline constexpr int kRunnerHistorySchemaVersion = 1;

struct RunnerBenchmarkHistory {
  std::string unit;                         // "us" or "cycles"
  std::vector<std::vector<double>> runs;    // oldest first; each run's process medians [unit]
};

struct RunnerHistory {
  std::string gpu_slug;
  std::string baseline_recorded;  // the recorded.date of the baseline whose code every run shares
  // By GPU UUID ("GPU-..."), then benchmark name.
  std::map<std::string, std::map<std::string, RunnerBenchmarkHistory>> runners;
};

// "" when `uuid` is a GPU UUID as NVML writes it ("GPU-" then letters, digits and '-', at most 64 in all);
// else why not, the text escaped for a console.
std::string why_not_gpu_uuid(const std::string& uuid);

// Parses and validates the file's text; `source` names it in messages. InputError for corrupt JSON, another
// schema version, a name or UUID that breaks the rules, a unit other than "us" or "cycles", a run with no
// process or a median outside formats/sample_units.h's range (not positive, not finite, or 1e-300).
RunnerHistory parse_runner_history(const std::string& text, const std::string& source);
RunnerHistory read_runner_history(const std::string& path);

// The file's text (pretty-printed JSON, 9 significant digits), which parse_runner_history reads back.
std::string runner_history_json(const RunnerHistory& history);

}  // namespace gpuperf::gate
