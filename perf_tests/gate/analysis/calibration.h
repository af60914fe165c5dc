#pragma once
// The gate's calibration (scripts/calibrate.sh): slowdowns of known size planted in the timed region, each
// judged in many trials as a perf test (stored mode) or an A/B comparison (ab mode) judges; how often each
// was caught, and how often clean runs raised a false alarm. The script writes every trial's verdicts
// (DIR/verdicts.tsv); this counts them per cell (mode, benchmark, slowdown).

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuperf::gate::analysis {

inline constexpr const char* kStoredMode = "stored";  // against a baseline recorded on this GPU
inline constexpr const char* kAbMode = "ab";          // interleaved A/B rounds
// A slowdown counts as caught when at least this share of its trials end SLOW: 19 in 20.
inline constexpr int kCaughtNumerator = 19;
inline constexpr int kCaughtDenominator = 20;

// One line of verdicts.tsv: mode, slowdown [percent], benchmark, first verdict (the first look), final
// verdict (after re-measuring), the tolerance of the final verdict ("2% (default, same GPU as the baseline)").
struct CalibrationTrial {
  std::string mode;
  double slowdown_pct = 0.0;  // [percent]; 0 is a clean run
  std::string benchmark;
  std::string first_verdict;
  std::string final_verdict;
  std::string tolerance;
};

// Parses verdicts.tsv; `source` names it in messages. InputError for a line without its 6 tab-separated
// fields, an unknown mode or verdict, a slowdown that is not a number >= 0, a benchmark name the gate
// would refuse, or no trial at all.
std::vector<CalibrationTrial> parse_calibration_trials(const std::string& text, const std::string& source);

// The trials of one mode, benchmark and slowdown.
struct CalibrationCell {
  std::string mode;
  std::string benchmark;
  double slowdown_pct = 0.0;  // [percent]
  int trials = 0;
  int slow = 0;           // final verdict SLOW: caught (at 0%: a false alarm)
  int slow_at_first = 0;  // first verdict SLOW: caught before re-measuring
  int ambiguous = 0;      // final verdict still AMBIGUOUS
  std::map<std::string, int> verdicts;  // final verdict -> trials
  std::vector<std::string> tolerances;  // the tolerances of the final verdicts, each once, sorted
};

// How the trials were run, for the headings and the JSON.
struct CalibrationSettings {
  std::string gpu_name;
  int trials_per_cell = 0;
  int processes = 0;         // stored: processes a look
  int repetitions = 0;       // stored: samples a process gives a trial
  int max_remeasure = 0;     // stored: looks after the first, at most
  int ab_rounds = 0;         // A/B: rounds a look
  int ab_repetitions = 0;    // A/B: samples a process gives a trial
  int ab_max_remeasure = 0;  // A/B: looks after the first, at most
};

struct CalibrationReport {
  CalibrationSettings settings;
  std::vector<std::string> modes;       // in the order of their first trial
  std::vector<CalibrationCell> cells;   // by mode, benchmark, then slowdown
};

CalibrationReport build_calibration_report(const std::vector<CalibrationTrial>& trials,
                                           const CalibrationSettings& settings);

// The smallest slowdown of `row` (the cells of one mode and benchmark) from which it and every larger one
// tested were caught (kCaughtNumerator / kCaughtDenominator of their trials); nullopt when the largest was
// not [percent].
std::optional<double> smallest_reliably_caught_pct(const std::vector<CalibrationCell>& row);

}  // namespace gpuperf::gate::analysis
